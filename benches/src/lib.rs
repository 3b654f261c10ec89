//! Shared helpers for the criterion benchmarks in `benches/benches/`.

use rand::Rng;
use shifu_agents::{agent_rng, game_rng};
use shifu_engine::Game;

/// One random playout from `seed` with a reused action buffer; returns the steps taken.
pub fn random_playout<G: Game>(game: &G, seed: u64, buf: &mut Vec<G::Action>) -> u64 {
    let mut rng = game_rng(seed);
    let mut pick = agent_rng(seed, 0);
    let mut s = game.new_state(&mut rng);
    let mut steps = 0;
    while game.to_move(&s).is_some() {
        game.legal_actions(&s, buf);
        let a = buf[pick.gen_range(0..buf.len())];
        game.apply(&mut s, a, &mut rng);
        steps += 1;
    }
    steps
}

/// A position `steps` random actions into the game of `seed`.
pub fn midgame<G: Game>(game: &G, seed: u64, steps: u32) -> G::State {
    let mut rng = game_rng(seed);
    let mut pick = agent_rng(seed, 0);
    let mut s = game.new_state(&mut rng);
    let mut buf = Vec::new();
    for _ in 0..steps {
        if game.to_move(&s).is_none() {
            break;
        }
        game.legal_actions(&s, &mut buf);
        let a = buf[pick.gen_range(0..buf.len())];
        game.apply(&mut s, a, &mut rng);
    }
    s
}
