//! What an agent is given when it must decide.

use crate::forbid::Forbid;
use rand::Rng;
use shifu_engine::{Game, Mechanics, Seat};

/// One decision of one seat. It holds the true state privately and hands out only what the seat
/// may see: its [`observation`](Decision::observation) and [`determinized`](Decision::determinize)
/// copies.
pub struct Decision<'a, G: Game> {
    game: &'a G,
    state: &'a G::State,
    seat: Seat,
    legal: &'a [G::Action],
}

impl<'a, G: Game> Decision<'a, G> {
    /// A decision for `seat` in `state` among `legal` (which must be the state's legal actions).
    pub fn new(game: &'a G, state: &'a G::State, seat: Seat, legal: &'a [G::Action]) -> Self {
        Decision {
            game,
            state,
            seat,
            legal,
        }
    }

    /// The game (rules, data, parameters).
    pub fn game(&self) -> &'a G {
        self.game
    }

    /// The deciding seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The legal actions, in the game's order.
    pub fn legal(&self) -> &'a [G::Action] {
        self.legal
    }

    /// The round the game is in (public in every game).
    pub fn round(&self) -> u32 {
        self.game.round(self.state)
    }

    /// Whether the seat is completing a choice it began, split into steps
    /// ([`Game::mid_decision`]; the seat knows what it began).
    pub fn mid_decision(&self) -> bool {
        self.game.mid_decision(self.state)
    }

    /// What the seat sees.
    pub fn observation(&self) -> G::Observation {
        self.game.observation(self.state, self.seat)
    }

    /// A copy of the state with everything the seat cannot see re-sampled.
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> G::State {
        self.game.determinize(self.state, self.seat, rng)
    }

    /// The same decision among `legal`, a subset of these legal actions (how a restricted
    /// agent hands its inner agent the actions it may take).
    pub fn with_legal<'b>(&self, legal: &'b [G::Action]) -> Decision<'b, G>
    where
        'a: 'b,
    {
        debug_assert!(legal.iter().all(|a| self.legal.contains(a)));
        Decision {
            game: self.game,
            state: self.state,
            seat: self.seat,
            legal,
        }
    }

    /// Whether `action` uses a mechanic in `forbid`. The classifier reads only what the seat
    /// sees ([`Mechanics::mechanic`]'s contract), so asking it of the true state leaks nothing.
    pub fn forbids(&self, forbid: Forbid, action: G::Action) -> bool
    where
        G: Mechanics,
    {
        forbid.forbids(self.game, self.state, action)
    }
}
