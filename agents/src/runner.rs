//! Playing one game from a seed.

use crate::{Agent, Decision};
use rand::SeedableRng;
use shifu_engine::{Game, GameRng, Outcome};

/// SplitMix64's finaliser: a bijective 64-bit mixer.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a run with master seed `master`:
/// `splitmix64(master ^ splitmix64(index))`. It depends only on the two numbers, never on
/// scheduling or thread count.
pub fn game_seed(master: u64, index: u64) -> u64 {
    splitmix64(master ^ splitmix64(index))
}

/// The game's own RNG for a game seed: ChaCha8 stream 0.
pub fn game_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// The RNG of the agent in `seat` for a game seed: the same ChaCha8 key, stream `seat + 1`, so
/// it never overlaps the game's stream or another seat's.
pub fn agent_rng(seed: u64, seat: u8) -> GameRng {
    let mut r = GameRng::seed_from_u64(seed);
    r.set_stream(seat as u64 + 1);
    r
}

/// One game between uniform random players, as fast as the engine allows (no agent objects, a
/// reused action buffer); the picks come from seat 0's agent stream. Returns the steps taken.
/// Used by `shifu bench` and the criterion benchmarks.
pub fn random_playout<G: Game>(game: &G, seed: u64, buf: &mut Vec<G::Action>) -> u64 {
    let mut rng = game_rng(seed);
    let mut agent = crate::RandomAgent::new(agent_rng(seed, 0));
    let mut s = game.new_state(&mut rng);
    let mut steps = 0;
    while game.to_move(&s).is_some() {
        // The same draw as `agent.pick` over the listed actions (`Game::random_action`'s
        // contract), without writing the list where a game can build the one action drawn.
        let a = game.random_action(&s, buf, agent.rng_mut());
        game.apply(&mut s, a, &mut rng);
        steps += 1;
    }
    steps
}

/// What one finished game produced.
#[derive(Debug, Clone)]
pub struct GameRecord<S> {
    /// The outcome (scores, ranks, winners, capped).
    pub outcome: Outcome,
    /// Actions applied.
    pub steps: u64,
    /// Rounds played.
    pub rounds: u32,
    /// The final state.
    pub state: S,
}

/// Plays one game with one agent per seat. The game is a pure function of `seed` and the agents'
/// choices; each agent should have been built with [`agent_rng`]`(seed, seat)`.
pub fn play_game<G: Game>(
    game: &G,
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
    legal: &mut Vec<G::Action>,
) -> GameRecord<G::State> {
    play_game_observed(game, agents, seed, legal, |_, _, _| {})
}

/// [`play_game`], calling `observe(state, legal, action)` at every step before the chosen
/// action is applied (how `shifu play --log` records a game's actions). The game played is the
/// same as [`play_game`]'s.
pub fn play_game_observed<G: Game>(
    game: &G,
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
    legal: &mut Vec<G::Action>,
    mut observe: impl FnMut(&G::State, &[G::Action], G::Action),
) -> GameRecord<G::State> {
    let mut rng = game_rng(seed);
    let mut state = game.new_state(&mut rng);
    let mut steps = 0u64;
    while let Some(seat) = game.to_move(&state) {
        game.legal_actions(&state, legal);
        let a = {
            let d = Decision::new(game, &state, seat, legal);
            agents[seat as usize].choose(&d)
        };
        observe(&state, legal, a);
        game.apply(&mut state, a, &mut rng);
        steps += 1;
    }
    GameRecord {
        outcome: game.outcome(&state).expect("finished"),
        steps,
        rounds: game.round(&state),
        state,
    }
}
