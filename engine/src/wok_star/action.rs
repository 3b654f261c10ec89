//! Wok Star actions. Open for Business actions belong to the seat whose clock is earliest; the
//! team's decisions outside play (handing out cards and cubes, Next Day Prep) are taken by the
//! first seat on the team's behalf.
//!
//! A preparation is one choice taken in three steps ([`Action::Prepare`] or
//! [`Action::PowerPrepare`] naming the ingredient and method, then an [`Action::UseDie`] for
//! each die), so that no decision offers more than a few hundred actions. The choice pending
//! between the steps is [`super::State::preparing`]; [`Choice`] is a complete choice, as the
//! flat list of `choices.rs` lists them.

use serde::{Deserialize, Serialize};

/// A die named by its owner and the face it shows: dice of one owner showing one face are
/// interchangeable, so this keeps the legal lists short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Die {
    /// The seat whose colour the die is.
    pub owner: u8,
    /// The face, 1 to 6.
    pub face: u8,
}

/// One decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Eight bytes (seven without): an action is written to the legal list in one store.
#[repr(align(8))]
pub enum Action {
    /// Set-up, 2 players: this seat starts with the extra die.
    ExtraDie(u8),
    /// The next ingredient card waiting to be handed out goes to this seat.
    GiveIngredient(u8),
    /// Serve the current customer (its recipe's owner only).
    Serve,
    /// Begin a preparation of an ingredient of one's own card by a method; the two dice follow
    /// as [`Action::UseDie`] steps.
    Prepare {
        /// The ingredient.
        ingredient: u8,
        /// The method, 0 to 3, left to right.
        method: u8,
    },
    /// The next die of the preparation begun (the first, then the second; the second in the
    /// die class order at or after the first).
    UseDie(Die),
    /// Put one of one's unused dice showing this face in the Dirty Dishes for a Hustle token.
    GainHustle(u8),
    /// Spend a Hustle token to turn an unused die of `owner`'s showing `face` up or down by 1
    /// (1 and 6 wrap). "Anyone can use Hustle tokens in the pool": any seat's die under
    /// `hustle_dice = any`, only the acting seat's under `own`.
    Rotate {
        /// The seat whose die it is.
        owner: u8,
        /// The face it shows.
        face: u8,
        /// Up (+1) or down (-1).
        up: bool,
    },
    /// Spend a Hustle token to move a Fortune cube; the second cube's move follows ("Move 2
    /// Fortune cubes"), unless fewer than 2 cubes are at the table.
    HustleCubes {
        /// The player who gives the cube.
        from: u8,
        /// The player who receives it.
        to: u8,
    },
    /// The second cube of a Hustle.
    SecondCube {
        /// The player who gives the cube.
        from: u8,
        /// The player who receives it.
        to: u8,
    },
    /// No second cube.
    NoSecondCube,
    /// Start the Dishwasher: the timers stop.
    Wash,
    /// End the wash: the timers stand and one is flipped; all dirty dice are re-rolled.
    EndWash,
    /// Events (Grandma's Pantry): this ingredient's token moves up.
    ChooseIngredient(u8),
    /// Set-up, Player Powers: the next seat without a character gets this one.
    Character(u8),
    /// Power (`refill_timer`, `reroll_dirty`): use it now.
    UsePower,
    /// Power (`substitute_ingredient`): serve the current customer with `using` in place of
    /// the one required ingredient on the bottom slot.
    PowerServe {
        /// The ingredient used instead.
        using: u8,
    },
    /// Power (`free_foreign_dice`): begin a preparation with other players' dice without
    /// giving cubes; the two dice follow as [`Action::UseDie`] steps.
    PowerPrepare {
        /// The ingredient.
        ingredient: u8,
        /// The method, 0 to 3.
        method: u8,
    },
    /// Power (`set_die`): turn one of one's unused dice showing `face` to `to`.
    SetDie {
        /// The face it shows.
        face: u8,
        /// The face it is turned to.
        to: u8,
    },
    /// Let this seat's clock run on by the wait duration.
    Wait,
    /// The team closes for the day.
    Close,
    /// After closing: this seat is done with its leftover dice.
    Done,
    /// Daily Accounting: a Fortune cube gained from the tracker goes to this seat.
    GiveCube(u8),
    /// Next Day Prep: buy the recipe in this offer slot and give it to a seat.
    BuyRecipe {
        /// The offer slot.
        slot: u8,
        /// The seat that gets it.
        seat: u8,
    },
    /// Next Day Prep: upgrade this ingredient card ($6).
    Upgrade(u8),
    /// Next Day Prep: buy a Hustle token ($2).
    BuyHustle,
    /// Next Day Prep: shuffle one more face-down Coupon customer into the Regular deck.
    Advertise,
    /// Next Day Prep is over: open the next day.
    OpenDay,
}

/// A complete choice: one action, or a whole preparation (its three steps). The flat list of
/// complete choices is the definition the compact steps are tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Choice {
    /// A decision taken in one step (never [`Action::Prepare`], [`Action::PowerPrepare`] or
    /// [`Action::UseDie`]).
    Single(Action),
    /// A preparation with two dice.
    Prepare {
        /// Whether Papa Wang's power pays for the other players' dice (no cubes given).
        power: bool,
        /// The ingredient.
        ingredient: u8,
        /// The method, 0 to 3.
        method: u8,
        /// The first die.
        a: Die,
        /// The second die (at or after the first in die class order).
        b: Die,
    },
}

/// A preparation begun and not finished: the ingredient and method, and the first die once
/// taken. Visible to every seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Preparing {
    /// Whether it was begun by Papa Wang's power ([`Action::PowerPrepare`]).
    pub power: bool,
    /// The ingredient.
    pub ingredient: u8,
    /// The method, 0 to 3.
    pub method: u8,
    /// The first die, once taken.
    pub first: Option<Die>,
}
