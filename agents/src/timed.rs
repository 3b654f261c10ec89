//! Thinking time: an agent wrapped so that its choices are timed. `shifu duel` and `shifu
//! tournament` report each agent's mean time per move with it, so that strength is compared at
//! a stated cost ("a trained agent counts as stronger only at equal or lower time per move").
//!
//! The time is the wall clock around [`Agent::choose`] on the thread that plays the game: it
//! counts the agent's search and evaluation, not the engine's legal-move listing or the step
//! that applies the move. Timing never changes a choice.

use crate::{Agent, Decision, Explanation, StopCheck};
use shifu_engine::Game;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The moves an agent chose and the time it took over them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Thinking {
    /// Choices made.
    pub moves: u64,
    /// Nanoseconds spent in them.
    pub nanos: u64,
}

impl Thinking {
    /// The sum of two tallies.
    pub fn plus(self, o: Thinking) -> Thinking {
        Thinking {
            moves: self.moves + o.moves,
            nanos: self.nanos + o.nanos,
        }
    }

    /// Mean milliseconds per move (0 when no move was made).
    pub fn ms_per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.nanos as f64 / 1e6 / self.moves as f64
        }
    }
}

/// A handle on a timed agent's tally, readable after the game (the agent itself is moved into
/// the game's `Box<dyn Agent>` list).
#[derive(Debug, Clone, Default)]
pub struct ThinkingClock(Arc<[AtomicU64; 2]>);

impl ThinkingClock {
    /// The tally so far.
    pub fn read(&self) -> Thinking {
        Thinking {
            moves: self.0[0].load(Ordering::Relaxed),
            nanos: self.0[1].load(Ordering::Relaxed),
        }
    }

    fn add(&self, nanos: u64) {
        self.0[0].fetch_add(1, Ordering::Relaxed);
        self.0[1].fetch_add(nanos, Ordering::Relaxed);
    }
}

struct Timed<G: Game> {
    inner: Box<dyn Agent<G>>,
    clock: ThinkingClock,
}

/// `inner`, timed: the agent to play with, and the clock that tallies its choices.
pub fn timed<G: Game + 'static>(inner: Box<dyn Agent<G>>) -> (Box<dyn Agent<G>>, ThinkingClock) {
    let clock = ThinkingClock::default();
    let agent = Timed {
        inner,
        clock: clock.clone(),
    };
    (Box::new(agent), clock)
}

impl<G: Game> Agent<G> for Timed<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, decision: &Decision<'_, G>) -> G::Action {
        let start = Instant::now();
        let a = self.inner.choose(decision);
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.clock.add(nanos);
        a
    }

    fn set_stop(&mut self, stop: StopCheck) {
        self.inner.set_stop(stop);
    }

    fn set_explain(&mut self, on: bool) {
        self.inner.set_explain(on);
    }

    fn explain(&self) -> Explanation<G::Action> {
        self.inner.explain()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build_agent, play_game};
    use shifu_engine::tofu_shifu::TofuShifu;

    /// A timed agent makes the same choices as the agent itself (the same games, move for
    /// move), and its clock counts exactly the choices its seat made.
    #[test]
    fn timing_changes_no_choice_and_counts_every_move() {
        let game =
            TofuShifu::with_params(shifu_engine::tofu_shifu::Params::with_players(3)).unwrap();
        for seed in 0..4u64 {
            let specs = ["greedy", "random", "mcts:iters=8"];
            let build = |s: usize| build_agent::<TofuShifu>(specs[s], seed, s as u8).unwrap();
            let mut plain: Vec<Box<dyn Agent<TofuShifu>>> = (0..3).map(build).collect();
            let mut clocks = Vec::new();
            let mut wrapped: Vec<Box<dyn Agent<TofuShifu>>> = (0..3)
                .map(|s| {
                    let (a, c) = timed(build(s));
                    clocks.push(c);
                    a
                })
                .collect();
            let mut moves = [0u64; 3];
            let mut acts = Vec::new();
            let a =
                crate::play_game_observed(&game, &mut plain, seed, &mut Vec::new(), |st, _, x| {
                    moves[game.to_move(st).unwrap() as usize] += 1;
                    acts.push(x);
                });
            let mut acts2 = Vec::new();
            let b =
                crate::play_game_observed(&game, &mut wrapped, seed, &mut Vec::new(), |_, _, x| {
                    acts2.push(x)
                });
            assert_eq!(acts, acts2, "seed {seed}");
            assert_eq!(a.outcome.score, b.outcome.score);
            for s in 0..3 {
                let t = clocks[s].read();
                assert_eq!(t.moves, moves[s], "seed {seed} seat {s}");
                assert!(t.ms_per_move() >= 0.0);
            }
            assert_eq!(wrapped[0].name(), "greedy");
            // A second game with the same agents adds to the tally.
            let _ = play_game(&game, &mut wrapped, seed, &mut Vec::new());
            assert!(
                clocks[1].read().moves > moves[1],
                "the clock keeps counting"
            );
        }
    }

    #[test]
    fn mean_time_per_move_of_no_move_is_zero_and_tallies_add() {
        let t = Thinking {
            moves: 4,
            nanos: 2_000_000,
        };
        assert_eq!(t.ms_per_move(), 0.5);
        assert_eq!(Thinking::default().ms_per_move(), 0.0);
        assert_eq!(
            t.plus(t),
            Thinking {
                moves: 8,
                nanos: 4_000_000
            }
        );
    }
}
