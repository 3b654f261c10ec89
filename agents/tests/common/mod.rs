//! Helpers shared by the agent tests.

use shifu_agents::{Agent, Decision};
use shifu_engine::Game;

/// The agent's choice at `s` (for the seat to move).
pub fn choose<G: Game>(g: &G, agent: &mut dyn Agent<G>, s: &G::State) -> G::Action {
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    let seat = g.to_move(s).expect("a seat to move");
    agent.choose(&Decision::new(g, s, seat, &legal))
}
