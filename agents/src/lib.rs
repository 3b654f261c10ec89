//! # shifu-agents
//!
//! Agents that play any [`Game`]. An agent sees only what its seat may see: it gets a
//! [`Decision`], which exposes the legal actions, the seat's observation and determinized copies
//! of the state, never the true state itself.
//!
//! Each agent owns its RNG stream, derived from the game seed and its seat ([`agent_rng`]), so an
//! agent's randomness never changes the game's own shuffles and draws.

#![warn(missing_docs)]

pub mod az;
mod decision;
pub mod eval;
mod forbid;
mod greedy;
pub mod learned;
pub mod mcts;
mod one_ply;
mod random;
mod runner;
mod spec;
mod timed;
pub mod tune;

pub use az::{AzAgent, AzConfig};
pub use decision::Decision;
pub use eval::{Evaluate, TofuKingdomWeights, TofuShifuWeights};
pub use forbid::{Forbid, Restricted};
pub use greedy::GreedyAgent;
pub use mcts::{MctsAgent, MctsConfig, Root};
pub use random::RandomAgent;
pub use runner::{
    agent_rng, game_rng, game_seed, play_game, play_game_observed, random_playout, splitmix64,
    GameRecord,
};
pub use spec::{
    az_search_options, build_agent, build_agent_with, check_agent, parse_spec, AgentError,
};
pub use timed::{timed, Thinking, ThinkingClock};

use shifu_engine::Game;

/// A player of game `G`.
pub trait Agent<G: Game>: Send {
    /// The agent's spec string, for logs and CSV files (for example `random`).
    fn name(&self) -> String;

    /// Chooses one of `decision.legal()`.
    fn choose(&mut self, decision: &Decision<'_, G>) -> G::Action;

    /// Gives the agent a check to poll during a long choice (an MCTS search polls it every
    /// [`mcts::STOP_EVERY`] iterations): when it returns true, the choice ends at once with the
    /// best action found so far. Agents whose choices are short ignore it (the default).
    fn set_stop(&mut self, _stop: StopCheck) {}

    /// Asks the agent to keep the scores behind each later choice, for [`Agent::explain`] (a
    /// replay's "why the bot did it"). Off by default, so that play pays nothing for it; turning
    /// it on never changes a choice.
    fn set_explain(&mut self, _on: bool) {}

    /// The candidate actions of the agent's last choice with their scores, best first, when
    /// [`Agent::set_explain`] is on and the agent scores its actions (empty otherwise).
    fn explain(&self) -> Explanation<G::Action> {
        Explanation::default()
    }
}

/// Why an agent chose as it did: its candidate actions with their scores.
#[derive(Debug, Clone)]
pub struct Explanation<A> {
    /// What the scores are (`value`: the greedy evaluation after the action; `visits`: the
    /// share of the search's visits; empty where the choice was not scored).
    pub kind: &'static str,
    /// The candidates, best first, each with its score.
    pub candidates: Vec<(A, f64)>,
}

impl<A> Default for Explanation<A> {
    fn default() -> Self {
        Explanation {
            kind: "",
            candidates: Vec::new(),
        }
    }
}

impl<A> Explanation<A> {
    /// Candidates `scored` (unsorted) of kind `kind`, sorted best first (stable among ties).
    pub fn sorted(kind: &'static str, mut scored: Vec<(A, f64)>) -> Self {
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        Explanation {
            kind,
            candidates: scored,
        }
    }
}

/// A check polled during a long choice; true stops it ([`Agent::set_stop`]). The Python binding
/// polls for Ctrl-C through it.
pub type StopCheck = Box<dyn FnMut() -> bool + Send>;
