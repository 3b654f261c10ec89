//! Shared helpers for the criterion benchmarks in `benches/benches/`.

pub use shifu_agents::random_playout;

use rand::Rng;
use shifu_agents::{agent_rng, game_rng};
use shifu_engine::Game;

/// The game at `players` players with the default data and parameters.
pub fn build<G: shifu_engine::Present>(players: u8) -> G {
    let options = shifu_engine::BuildOptions {
        players: Some(players),
        ..Default::default()
    };
    G::build(&options).expect("the defaults build")
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

/// The MCTS benchmark's decision: the first position from 200 random actions on into the
/// game of seed 11 where the player to move has a real choice (three legal actions or more),
/// with its legal actions and the seat to move; in a game over before, the first such position
/// from its start.
pub fn midgame_decision<G: Game>(game: &G) -> (G::State, Vec<G::Action>, shifu_engine::Seat) {
    let mut legal = Vec::new();
    for steps in (200..2000).chain(0..200) {
        let s = midgame(game, 11, steps);
        game.legal_actions(&s, &mut legal);
        if let (true, Some(seat)) = (legal.len() >= 3, game.to_move(&s)) {
            return (s, legal, seat);
        }
    }
    panic!("no position with three legal actions in the game of seed 11")
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
