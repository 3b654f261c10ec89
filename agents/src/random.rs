//! The random agent: uniform over the legal actions.

use crate::{Agent, Decision};
use rand::Rng;
use shifu_engine::{Game, GameRng};

/// Chooses uniformly among the legal actions, with its own RNG stream.
pub struct RandomAgent {
    rng: GameRng,
}

impl RandomAgent {
    /// A random agent drawing from `rng`.
    pub fn new(rng: GameRng) -> Self {
        RandomAgent { rng }
    }

    /// The agent's RNG, for chance events in a playout it drives.
    pub fn rng_mut(&mut self) -> &mut GameRng {
        &mut self.rng
    }

    /// The uniform choice itself, usable without a [`Decision`] (rollouts, benchmarks).
    #[inline]
    pub fn pick<A: Copy>(&mut self, legal: &[A]) -> A {
        legal[self.rng.gen_range(0..legal.len())]
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, d: &Decision<'_, G>) -> G::Action {
        self.pick(d.legal())
    }
}
