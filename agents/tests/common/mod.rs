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
