//! The engine contract every shifu game implements.
//!
//! A [`Game`] value holds the immutable part of a game: its rules, card data and parameters. It is
//! built once, shared by reference (or `Arc`) across all threads, and never changes. A
//! [`Game::State`] holds one position: small plain data, cheap to clone, serialisable to JSON.
//! This is the Game/State split of OpenSpiel and of TAG's forward model.
//!
//! # How a game is played
//!
//! ```text
//! let mut state = game.new_state(&mut rng);            // set-up, including shuffles
//! while let Some(seat) = game.to_move(&state) {        // None once the game is over
//!     game.legal_actions(&state, &mut buf);             // caller-owned buffer, cleared and refilled
//!     let a = pick(seat, &buf);                         // an agent, a human, a test
//!     game.apply(&mut state, a, &mut rng);              // the RNG is explicit
//! }
//! let outcome = game.outcome(&state).unwrap();
//! ```
//!
//! # Compound turns
//!
//! A player's turn in a modern board game is many choices (pick a space, pay each cost, choose a
//! card, place each tile). A game splits such a turn into a sequence of small decisions, each
//! listed by [`Game::legal_actions`] for the same seat, with the turn's progress held as a
//! *phase* inside the state. Legal lists therefore stay short and a search agent can work through
//! them. [`Game::turns_completed`] ticks when a turn ends, so a runner can count turns and rounds.
//!
//! # Randomness and determinism
//!
//! Randomness enters only through the `rng` argument of [`Game::new_state`], [`Game::apply`] and
//! [`Game::determinize`]. A game is a pure function of its seed and the actions taken. A game may
//! draw its chance outcomes at the moment they happen (a card drawn from a shuffled deck is a
//! uniform draw from the cards left), so the state holds no hidden deck order and no RNG of its own.
//!
//! # Hidden information
//!
//! [`Game::determinize`] returns a copy of the state in which everything `observer` cannot see is
//! re-sampled, consistently with everything it has seen. [`Game::observation`] returns what a
//! seat sees; the two agree: `observation(determinize(s, o), o) == observation(s, o)`.
//! Agents decide only from an observation or a determinized copy (see the agents crate).
//!
//! # How the four games map onto this contract
//!
//! - **Tofu Shifu** (2-4 seats): sequential turns split into micro-decisions; the market deck and
//!   customer bag are drawn at random inside `apply`; hidden hands re-sampled by `determinize`.
//! - **Tofu Kingdom** (3-8 seats, hence [`MAX_SEATS`] = 8): the Prince's questions, each answer
//!   and the final guess are actions of the seat concerned; `to_move` names the Prince or the
//!   answerer. `determinize` for the Prince samples only role deals consistent with all answers
//!   heard under the answerers' truth constraints. Rewards that steal a point are a decision of the
//!   scoring seat, so they are actions too.
//! - **Wok Star** (2-4 seats, cooperative, real time): the outcome is a team outcome: every seat
//!   gets the same score and [`Outcome::team_score`] holds the team's margin; either all seats win
//!   or none. Real time is a discrete-event model: every action takes seconds of table time, each
//!   seat has its own clock, and `to_move` names the seat whose clock is earliest, so
//!   simultaneous play needs no separate API. The 30-second timers run on the same clock.
//! - **Ginza Retro Café** (2-4 seats): dice rolls and customer draws are chance events inside
//!   `apply`; drafting of bonus cards is a sequence of per-seat choices.
//!
//! # Errors
//!
//! [`Game::apply`] assumes a legal action (the hot path, checked with `debug_assert!`).
//! [`Game::apply_checked`] verifies legality first and returns [`IllegalAction`] without touching
//! the state when the action is not legal.

use crate::registry::GameInfo;
use rand::Rng;
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;
use std::hash::Hash;

/// A seat at the table, 0-based in turn order (seat 0 is the first player).
pub type Seat = u8;

/// The most seats any shifu game has (Tofu Kingdom plays with up to 8).
pub const MAX_SEATS: usize = 8;

/// An action that was not legal in the state it was applied to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal action {action} for seat {seat:?}: {reason}")]
pub struct IllegalAction {
    /// The action's human-readable name.
    pub action: String,
    /// The seat to move, if the game was not over.
    pub seat: Option<Seat>,
    /// Why it was refused.
    pub reason: String,
}

/// The result of a finished game: per-seat score, rank and winners after tie-breaks.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Number of seats in the game; entries past it are zero.
    pub seats: u8,
    /// Each seat's primary score (for Tofu Shifu: completed objectives).
    pub score: [f64; MAX_SEATS],
    /// Each seat's rank after tie-breaks: 1 is best; tied seats share a rank.
    pub rank: [u8; MAX_SEATS],
    /// Bit `i` is set when seat `i` is among the winners (several bits on a shared win).
    pub winners: u8,
    /// The game was stopped by the round cap rather than by its own end condition.
    pub capped: bool,
    /// For cooperative games: the team's score, shared by every seat.
    pub team_score: Option<f64>,
}

impl Outcome {
    /// Whether `seat` is among the winners.
    pub fn is_winner(&self, seat: Seat) -> bool {
        self.winners & (1 << seat) != 0
    }

    /// Number of winners (more than one on a shared win; zero when a cooperative team lost).
    pub fn winner_count(&self) -> u32 {
        self.winners.count_ones()
    }

    /// The seat's share of the win: 1/k when it is one of k winners, else 0.
    pub fn win_share(&self, seat: Seat) -> f64 {
        if self.is_winner(seat) {
            1.0 / f64::from(self.winner_count())
        } else {
            0.0
        }
    }

    /// The seat's final reward for learners (exports, the Python environments): its share of
    /// the win; in a cooperative game 1 for every seat when the team wins, else 0.
    pub fn learner_reward(&self, seat: Seat) -> f64 {
        if self.team_score.is_some() {
            f64::from(u8::from(self.is_winner(seat)))
        } else {
            self.win_share(seat)
        }
    }

    /// Ranks seats by a key (larger is better) with ties sharing the better rank, and marks the
    /// rank-1 seats as winners. `keys[i]` is compared lexicographically.
    pub fn from_keys<K: PartialOrd + Copy>(
        seats: usize,
        score: [f64; MAX_SEATS],
        keys: &[K],
        capped: bool,
    ) -> Outcome {
        let mut rank = [0u8; MAX_SEATS];
        let mut winners = 0u8;
        for i in 0..seats {
            let better = (0..seats).filter(|&j| keys[j] > keys[i]).count();
            rank[i] = better as u8 + 1;
            if better == 0 {
                winners |= 1 << i;
            }
        }
        Outcome {
            seats: seats as u8,
            score,
            rank,
            winners,
            capped,
            team_score: None,
        }
    }
}

/// A game: immutable rules, card data and parameters, shared by all threads.
///
/// See the [module documentation](self) for the contract and how each game maps onto it.
pub trait Game: Send + Sync {
    /// One position. Small plain data; cloning it is a copy of a few hundred bytes.
    type State: Clone + Debug + Send + Sync + Serialize + DeserializeOwned;
    /// One decision. Small and `Copy`; [`Game::action_name`] gives it a human-readable name.
    type Action: Copy + Eq + Hash + Debug + Send + Sync + Serialize + DeserializeOwned;
    /// What one seat sees of a state. Equal for two states the seat cannot tell apart.
    type Observation: Clone + Debug + PartialEq + Serialize;

    /// What the game is: name, player counts, cooperative or not, hidden information or not.
    /// One const in the game's folder, listed in [`crate::game_list!`].
    const INFO: GameInfo;

    /// The game's command-line name, for example `tofu-shifu` ([`GameInfo::name`]).
    #[inline]
    fn name(&self) -> &'static str {
        Self::INFO.name
    }

    /// Number of seats in games built from this value.
    fn num_seats(&self) -> usize;

    /// A new game after set-up (shuffles and deals use `rng`).
    fn new_state<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::State;

    /// The seat that decides next, or `None` once the game is over.
    fn to_move(&self, state: &Self::State) -> Option<Seat>;

    /// Clears `out` and writes every legal action for the seat to move (none when the game is
    /// over). Never allocates once `out` has grown to the game's largest list.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// A legal action drawn uniformly at random: exactly the action that [`Game::legal_actions`]
    /// followed by `legal[rng.gen_range(0..legal.len())]` gives, with the same draw from `rng`,
    /// so a random playout is the same game either way. The default lists into `buf`, which is
    /// scratch space; a game may override it with a cheaper draw that gives the same action. The
    /// game must not be over.
    #[inline(always)]
    fn random_action<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        buf: &mut Vec<Self::Action>,
        rng: &mut R,
    ) -> Self::Action {
        self.legal_actions(state, buf);
        buf[rng.gen_range(0..buf.len())]
    }

    /// Applies a legal action. Chance events (draws, dice) use `rng`. The action must be legal:
    /// this is the unchecked hot path (checked by `debug_assert!` in debug builds).
    fn apply<R: Rng + ?Sized>(&self, state: &mut Self::State, action: Self::Action, rng: &mut R);

    /// Applies `action` if it is legal; otherwise returns an error and leaves `state` untouched.
    fn apply_checked<R: Rng + ?Sized>(
        &self,
        state: &mut Self::State,
        action: Self::Action,
        rng: &mut R,
    ) -> Result<(), IllegalAction> {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        if !legal.contains(&action) {
            return Err(IllegalAction {
                action: self.action_name(state, action),
                seat: self.to_move(state),
                reason: if legal.is_empty() {
                    "the game is over".to_string()
                } else {
                    format!("not among the {} legal actions here", legal.len())
                },
            });
        }
        self.apply(state, action, rng);
        Ok(())
    }

    /// The outcome, or `None` while the game is still running.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// A copy of `state` in which everything `observer` cannot see is re-sampled, consistently
    /// with everything it has seen. Public information and the observer's own private
    /// information are unchanged.
    fn determinize<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        observer: Seat,
        rng: &mut R,
    ) -> Self::State;

    /// What `seat` sees of `state`.
    fn observation(&self, state: &Self::State, seat: Seat) -> Self::Observation;

    /// Number of turns completed so far (a turn is all the decisions of one seat's go).
    fn turns_completed(&self, state: &Self::State) -> u32;

    /// The current round, 1-based (a round is one turn of every seat).
    fn round(&self, state: &Self::State) -> u32;

    /// A human-readable name for `action` in `state`, for example `move to Seat (Chopsticks)`.
    fn action_name(&self, state: &Self::State, action: Self::Action) -> String;

    /// Whether `state` is in the middle of one choice that the action model splits into small
    /// steps (a Wok Star preparation chosen die by die): the seat to move is completing a choice
    /// it began, and nothing an evaluation sees has changed yet. Agents that score positions look
    /// through such states to the complete choice. Never, by default.
    fn mid_decision(&self, _state: &Self::State) -> bool {
        false
    }
}

/// Panics when `action` is not legal in `state`: the check every game's [`Game::apply`] makes
/// in debug builds (compiled out of release builds). The legal list goes into a buffer kept per
/// thread and action type, so debug builds allocate no more than release builds once warm.
#[cfg(debug_assertions)]
pub fn debug_assert_legal<G: Game>(game: &G, state: &G::State, action: G::Action)
where
    G::Action: 'static,
{
    use std::any::{Any, TypeId};
    use std::cell::RefCell;
    thread_local! {
        static LEGAL: RefCell<Vec<(TypeId, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
    }
    LEGAL.with(|buffers| {
        let mut buffers = buffers.borrow_mut();
        let id = TypeId::of::<G::Action>();
        let i = match buffers.iter().position(|(t, _)| *t == id) {
            Some(i) => i,
            None => {
                let buf: Vec<G::Action> = Vec::with_capacity(1024);
                buffers.push((id, Box::new(buf)));
                buffers.len() - 1
            }
        };
        let legal = buffers[i]
            .1
            .downcast_mut::<Vec<G::Action>>()
            .expect("buffers are keyed by their action type");
        game.legal_actions(state, legal);
        assert!(
            legal.contains(&action),
            "illegal {action:?} for seat {:?} in round {} (one of {} legal actions expected)",
            game.to_move(state),
            game.round(state),
            legal.len()
        );
    });
}

/// Release builds check nothing: [`Game::apply`] is the unchecked hot path.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn debug_assert_legal<G: Game>(_game: &G, _state: &G::State, _action: G::Action) {}
