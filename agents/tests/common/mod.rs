//! Helpers shared by the agent tests.

use rand::Rng;
use shifu_agents::{Agent, Decision};
use shifu_engine::{rng_from_seed, Game};

/// `count` positions from random games (seeds 1, 2, ...; at most `steps` actions into each) at
/// which `keep(step, state, legal)` holds, `step` counting actions from 0.
pub fn positions<G: Game>(
    g: &G,
    count: usize,
    steps: u32,
    keep: impl Fn(u32, &G::State, &[G::Action]) -> bool,
) -> Vec<G::State> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        seed += 1;
        let mut rng = rng_from_seed(seed);
        let mut pick = rng_from_seed(seed + 1000);
        let mut s = g.new_state(&mut rng);
        for step in 0..steps {
            if g.to_move(&s).is_none() {
                break;
            }
            g.legal_actions(&s, &mut buf);
            if keep(step, &s, &buf) {
                out.push(s.clone());
            }
            let a = buf[pick.gen_range(0..buf.len())];
            g.apply(&mut s, a, &mut rng);
        }
    }
    out.truncate(count);
    out
}

/// The agent's choice at `s` (for the seat to move).
pub fn choose<G: Game>(g: &G, agent: &mut dyn Agent<G>, s: &G::State) -> G::Action {
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    let seat = g.to_move(s).expect("a seat to move");
    agent.choose(&Decision::new(g, s, seat, &legal))
}

/// The no-peeking check: at each position, each agent spec (same seed, same seat) must choose
/// the same action in the true position and in a copy re-dealt for the seat to move (which the
/// seat cannot tell apart: same observation). Returns how many copies differed from the truth,
/// so that a caller can insist on genuinely different worlds.
pub fn assert_no_peeking<G: shifu_agents::Evaluate + 'static>(
    g: &G,
    specs: &[&str],
    positions: &[G::State],
    seed: u64,
) -> u32
where
    G::State: PartialEq,
{
    let mut differing = 0;
    for spec in specs {
        for (i, s) in positions.iter().enumerate() {
            let seat = g.to_move(s).expect("a seat to move");
            let other = g.determinize(s, seat, &mut rng_from_seed(seed + i as u64));
            differing += u32::from(other != *s);
            assert_eq!(g.observation(&other, seat), g.observation(s, seat));
            let mut a = shifu_agents::build_agent::<G>(spec, i as u64, seat).unwrap();
            let mut b = shifu_agents::build_agent::<G>(spec, i as u64, seat).unwrap();
            assert_eq!(
                choose(g, a.as_mut(), s),
                choose(g, b.as_mut(), &other),
                "{spec} at position {i}"
            );
        }
    }
    differing
}
