//! Helpers shared by the randomized tests.

use shifu_engine::{rng_from_seed, Game};

/// Plays a game from `seed` with `pick` choosing among the legal actions, checking `check` (the
/// game's invariants) after every action and that the legal list is empty exactly when the game
/// is over; fails past `max_steps` actions (no end in sight). Returns the final state.
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
    let mut steps = 0;
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
