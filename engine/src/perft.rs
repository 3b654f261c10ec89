//! `perft`: the number of action sequences of a given length from a position, the move
//! generator's regression test (as in chess engines). Chance events use a copy of the RNG taken
//! at each node, so the count is a pure function of the position, the RNG state and the depth.

use crate::game::Game;
use crate::GameRng;

/// Counts the positions reached by every sequence of exactly `depth` actions (a finished game
/// before `depth` counts as one leaf).
pub fn perft<G: Game>(game: &G, state: &G::State, rng: &GameRng, depth: u32) -> u64 {
    if depth == 0 || game.to_move(state).is_none() {
        return 1;
    }
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    if depth == 1 {
        return legal.len() as u64;
    }
    let mut total = 0;
    for &a in &legal {
        let mut child = state.clone();
        let mut r = rng.clone();
        game.apply(&mut child, a, &mut r);
        total += perft(game, &child, &r, depth - 1);
    }
    total
}
