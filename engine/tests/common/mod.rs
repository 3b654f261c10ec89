//! Helpers shared by the randomized tests.

use rand::{Rng, RngCore};
use shifu_engine::{rng_from_seed, Game};

/// Plays a game from `seed` with `pick` choosing among the legal actions, checking `check` (the
/// game's invariants) after every action and that the legal list is empty exactly when the game
/// is over, and that [`Game::random_action`] draws the action that listing and indexing draw,
/// leaving the RNG where they leave it; fails past `max_steps` actions (no end in sight). Returns the final state.
pub fn play_checked<G: Game>(
    g: &G,
    seed: u64,
    check: impl Fn(&G::State) -> Result<(), String>,
    mut pick: impl FnMut(&G::State, &[G::Action]) -> usize,
    max_steps: u32,
) -> G::State {
    let mut rng = rng_from_seed(seed);
    let mut s = g.new_state(&mut rng);
    check(&s).unwrap();
    let mut legal = Vec::new();
    let mut scratch = Vec::new();
    let mut steps = 0u32;
    loop {
        g.legal_actions(&s, &mut legal);
        assert_eq!(
            legal.is_empty(),
            g.to_move(&s).is_none(),
            "seed {seed}: {s:?}"
        );
        if legal.is_empty() {
            break;
        }
        // `random_action` draws what listing and indexing would, with the same draws.
        let mut listed_rng = rng_from_seed(seed ^ (u64::from(steps) << 32));
        let mut drawn_rng = listed_rng.clone();
        let listed = legal[listed_rng.gen_range(0..legal.len())];
        let drawn = g.random_action(&s, &mut scratch, &mut drawn_rng);
        assert_eq!(drawn, listed, "seed {seed}, step {steps}: {s:?}");
        assert_eq!(
            drawn_rng.next_u64(),
            listed_rng.next_u64(),
            "seed {seed}, step {steps}"
        );
        let a = legal[pick(&s, &legal)];
        g.apply(&mut s, a, &mut rng);
        if let Err(e) = check(&s) {
            panic!("seed {seed}, after {a:?}: {e}\n{s:?}");
        }
        steps += 1;
        assert!(steps < max_steps, "seed {seed}: no end in sight");
    }
    assert!(g.outcome(&s).is_some());
    s
}
