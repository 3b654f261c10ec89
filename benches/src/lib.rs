//! Shared helpers for the criterion benchmarks in `benches/benches/`.

pub use shifu_agents::random_playout;

use rand::Rng;
use shifu_agents::{agent_rng, game_rng};
use shifu_engine::Game;

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

/// Steps of one whole game of `seed` with every seat greedy (the games/s the findings run at).
pub fn greedy_game<G: shifu_agents::Evaluate + 'static>(
    game: &G,
    seed: u64,
    buf: &mut Vec<G::Action>,
) -> u64 {
    let mut agents: Vec<Box<dyn shifu_agents::Agent<G>>> = (0..game.num_seats() as u8)
        .map(|seat| shifu_agents::build_agent::<G>("greedy", seed, seat).expect("greedy builds"))
        .collect();
    shifu_agents::play_game(game, &mut agents, seed, buf).steps
}
