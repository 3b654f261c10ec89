//! The Wok Star position: small plain data.

use super::action::Preparing;
use super::clock::Timer;
use super::data::{MAX_INGREDIENTS, MAX_RECIPES};
use serde::{Deserialize, Serialize};

/// Most players.
pub const MAX_PLAYERS: usize = super::INFO.max_players as usize;
/// Most dice per player.
pub const MAX_DICE: usize = 5;
/// "Nobody": an unowned recipe or ingredient card.
pub const NOBODY: u8 = u8::MAX;
/// A die in the Dirty Dishes (or not yet rolled).
pub const DIRTY: u8 = 0;

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Set-up, Player Powers: the team picks each seat's character in turn.
    ChooseCharacters,
    /// Set-up, 2 players: the team picks who starts with the extra die.
    ExtraDie,
    /// The team hands out the ingredient cards in `pending` (set-up and after a new recipe).
    GiveIngredients,
    /// Phase 1, Open for Business.
    Business,
    /// Phase 1, the Dishwasher runs: the timers are stopped and nobody serves.
    Washing,
    /// After closing: each seat in turn may use its leftover dice, then says done.
    AfterClose {
        /// The seat to act.
        seat: u8,
    },
    /// Phase 2: the team hands out the Fortune cubes it gained.
    GiveCubes,
    /// Phase 3, Next Day Prep.
    Prep,
    /// The game is over.
    Over,
}

/// Why a day closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Closing {
    /// Not closed yet.
    Open,
    /// The team chose to close (it could not or would not serve).
    Chosen,
    /// Every Regular customer was served.
    DeckDone,
    /// The day ran past `max_day_seconds`.
    TimeLimit,
    /// Every seat waited in turn with nothing else done: the team would not serve
    /// (`all_wait_closes`).
    AllWaited,
}

/// One position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Number of players.
    pub players: u8,
    /// Where the game is.
    pub phase: Phase,
    /// The day, 1 to 4.
    pub day: u8,
    /// Whether the first day has opened (false during set-up).
    pub opened: bool,
    /// Each seat's clock: milliseconds of table time since the day opened.
    pub clock: [u32; MAX_PLAYERS],
    /// The two timers.
    pub timers: [Timer; 2],
    /// Washes left today.
    pub washes_left: u8,
    /// Each seat's dice: [`DIRTY`] or the face of an unused die; entries past `dice` unused.
    pub dice: [[u8; MAX_DICE]; MAX_PLAYERS],
    /// Each seat's number of dice.
    pub dice_count: [u8; MAX_PLAYERS],
    /// Each seat's Fortune cubes.
    pub cubes: [u8; MAX_PLAYERS],
    /// Bit `d` is set while the cube marking day `d`'s goal is still on the tracker.
    pub tracker_cubes: u8,
    /// Fortune cubes in the supply.
    pub cube_supply: u8,
    /// Cubes gained at accounting still to be handed out.
    pub cubes_to_give: u8,
    /// Hustle tokens in the team's pool.
    pub hustle_pool: u8,
    /// Hustle tokens in the supply.
    pub hustle_supply: u8,
    /// Hustle tokens covering methods on ingredient cards.
    pub hustle_covering: u8,
    /// Each recipe's owner, or [`NOBODY`] while it is not in play.
    pub recipe_owner: [u8; MAX_RECIPES],
    /// Each ingredient card's owner, or [`NOBODY`].
    pub ingredient_owner: [u8; MAX_INGREDIENTS],
    /// Ingredient cards in play waiting to be handed out (bit set).
    pub pending: u16,
    /// Each ingredient card's upgrades bought (0 to 2); methods open = 2 + upgrades, less any
    /// still covered.
    pub upgrades: [u8; MAX_INGREDIENTS],
    /// Each ingredient token's slot on the track.
    pub track: [u8; MAX_INGREDIENTS],
    /// Customer cards in the Regular deck (bit `recipe * 8 + slot`).
    #[serde(with = "crate::bitset_json")]
    pub deck: u128,
    /// Coupon customers in the Coupon pile.
    #[serde(with = "crate::bitset_json")]
    pub coupons: u128,
    /// Customers served today.
    #[serde(with = "crate::bitset_json")]
    pub served: u128,
    /// The revealed customer waiting to be served, if any.
    pub customer: Option<u8>,
    /// Each seat's on-time customers today.
    pub on_time: [u8; MAX_PLAYERS],
    /// Each seat's customers served today.
    pub served_count: [u8; MAX_PLAYERS],
    /// Customers served late today.
    pub late: u8,
    /// Today's income so far.
    pub income: i32,
    /// Why today closed.
    pub closing: Closing,
    /// Money left to spend in Next Day Prep.
    pub money: i32,
    /// Recipes on offer in Next Day Prep ([`NOBODY`] for an empty slot).
    pub offer: [u8; 3],
    /// Whether a Hustle's second cube move is pending for the seat that spent it.
    pub second_cube: Option<u8>,
    /// Days whose goal the team met.
    pub days_met: u8,
    /// The last income checked against a goal, minus that goal.
    pub margin: i32,
    /// Actions applied so far.
    pub steps: u32,
    /// Each day's income (0 for days not played).
    pub day_income: [i32; 4],
    /// Each day's closing.
    pub day_closing: [Closing; 4],
    /// Each day's shortage when it closed: what kept the waiting customer from being served.
    pub day_short: [Short; 4],
    /// Each seat's customers served over the game.
    pub served_total: [u16; MAX_PLAYERS],
    /// Customers served late over the game.
    pub late_total: u16,
    /// Customers served on time today.
    #[serde(with = "crate::bitset_json")]
    pub on_time_cards: u128,
    /// Events variant: event cards shuffled into the Regular deck (hidden from everyone).
    pub event_deck: u16,
    /// Event cards still face down beside the board.
    pub event_box: u16,
    /// Event cards that appeared today.
    pub events_today: u16,
    /// Event cards discarded from the game.
    pub events_gone: u16,
    /// The event showing: no customer is revealed until a timer runs out.
    pub event: Option<u8>,
    /// When the showing event was revealed.
    pub event_at: u32,
    /// The next customer's dish is prepared twice and pays double (Catering Order).
    pub double_next: bool,
    /// A seat choosing an ingredient to move up (Grandma's Pantry), and by how much.
    pub choose: Option<(u8, u8)>,
    /// Player Powers variant: each seat's character card ([`NOBODY`] for none).
    pub character: [u8; MAX_PLAYERS],
    /// Bit `i` is set once seat `i` has used its power this round.
    pub powers_used: u8,
    /// The recipe of the last customer served today ([`NOBODY`] before the first).
    pub last_recipe: u8,
    /// Bit `i` is set when seat `i` has waited since the last other action of the day (waits
    /// while an event shows do not count).
    #[serde(default)]
    pub waited: u8,
    /// The preparation the seat to move has begun and not finished (its ingredient and method,
    /// and its first die once taken): a choice split into steps, pending between them.
    #[serde(default)]
    pub preparing: Option<Preparing>,
}

/// What kept the waiting customer from being served when a day closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Short {
    /// Nothing: no customer was waiting, or the day has not closed.
    Nothing,
    /// An ingredient of the dish was on the bottom slot, and no unused die or wash was left to
    /// prepare more.
    Dice,
    /// An ingredient of the dish was on the bottom slot, though dice or a wash were left.
    Ingredients,
    /// The dish could be served: the team closed with time or patience gone.
    Time,
}

impl State {
    /// The number of dice `seat` has unused.
    pub fn unused_dice(&self, seat: usize) -> usize {
        self.dice[seat][..self.dice_count[seat] as usize]
            .iter()
            .filter(|&&d| d != DIRTY)
            .count()
    }

    /// The number of dice `seat` has in the Dirty Dishes.
    pub fn dirty_dice(&self, seat: usize) -> usize {
        self.dice_count[seat] as usize - self.unused_dice(seat)
    }

    /// How many of `seat`'s unused dice show `face`.
    pub fn count_face(&self, seat: usize, face: u8) -> usize {
        self.dice[seat][..self.dice_count[seat] as usize]
            .iter()
            .filter(|&&d| d == face)
            .count()
    }

    /// Puts one of `seat`'s unused dice showing `face` into the Dirty Dishes.
    pub(crate) fn use_die(&mut self, seat: usize, face: u8) {
        let n = self.dice_count[seat] as usize;
        if let Some(d) = self.dice[seat][..n].iter_mut().find(|d| **d == face) {
            *d = DIRTY;
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whether the team won.
    pub fn won(&self) -> bool {
        self.is_over() && self.days_met as usize == super::data::DAYS
    }
}
