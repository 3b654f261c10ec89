//! Ginza Retro Café actions. A [`Choice`] is one complete decision as the rulebook states it (a
//! serve names the order, the dice, the common die and the bonus at once; a reroll names every
//! die). An [`Action`], the game's action, is one small step: a serve is chosen as its order,
//! then the dice one by one, then how it is completed; a reroll die by die, then "roll". The
//! steps of one choice are taken by one seat in a row; the choice begun is
//! [`super::state::Picking`], in the state. A turn is split into small decisions too (upgrades
//! one at a time, then one action, then the optional further steps of an Arrange).

use serde::{Deserialize, Serialize};

/// A serve: the order, the player's dice (count per face), and a common die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Serve {
    /// The customer's place (0..3).
    pub place: u8,
    /// The order's slot under the customer (0..3).
    pub slot: u8,
    /// The player's dice used, count per face 1..6.
    pub dice: [u8; 6],
    /// The face of the common die added (1..6), or 0 for none.
    pub common: u8,
    /// Whether the once-a-round Drink bonus (a player ability) is used.
    pub bonus: bool,
}

impl Serve {
    /// How the serve is completed besides the player's dice.
    pub fn help(&self) -> Help {
        if self.bonus {
            Help::Bonus
        } else if self.common > 0 {
            Help::Common(self.common)
        } else {
            Help::Own
        }
    }
}

/// One complete decision, as the rulebook states it: the definition the steps ([`Action`]) are
/// held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Choice {
    /// Keep player card 0 or 1 of the two dealt.
    ChooseCard(u8),
    /// Keep the bonus card in this slot of the offer.
    Draft(u8),
    /// Raise an Arrange card (0 Change, 1 Reroll, 2 Add) to Lv.2.
    RaiseLevel(u8),
    /// Raise the dice limit by one and take a die.
    RaiseLimit,
    /// Serve a dish.
    Serve(Serve),
    /// Change Dice Rolls: a die showing `face` goes up or down by 1.
    Change {
        /// The face changed.
        face: u8,
        /// Up (+1) or down (-1).
        up: bool,
    },
    /// Reroll Dice: reroll these dice (count per face).
    Reroll([u8; 6]),
    /// Add Dice: take this many dice.
    Add(u8),
    /// Wash Dishes with this many 1s.
    Wash(u8),
    /// End an Arrange early (its optional further steps skipped).
    Stop,
}

/// What completes a serve besides the player's own dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Help {
    /// Nothing: the player's dice alone.
    Own,
    /// A common die of this face (1..6), bought.
    Common(u8),
    /// The once-a-round Drink bonus.
    Bonus,
}

/// One step: the game's action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Keep player card 0 or 1 of the two dealt.
    ChooseCard(u8),
    /// Keep the bonus card in this slot of the offer.
    Draft(u8),
    /// Raise an Arrange card (0 Change, 1 Reroll, 2 Add) to Lv.2.
    RaiseLevel(u8),
    /// Raise the dice limit by one and take a die.
    RaiseLimit,
    /// Begin a serve of the order in this place (0..3) and slot (0..3).
    Serve {
        /// The customer's place.
        place: u8,
        /// The order's slot under the customer.
        slot: u8,
    },
    /// Take one of the player's dice of this face (1..6) into the Drink being served; faces are
    /// taken lowest first (never one below a face already taken). A Dish takes no dice one by
    /// one: its faces name them.
    ServeDie(u8),
    /// Serve with the dice taken (a Dish: the dice its faces ask for, less the one a common
    /// die stands in for) and this help.
    ServeWith(Help),
    /// Change Dice Rolls: a die showing `face` goes up or down by 1.
    Change {
        /// The face changed.
        face: u8,
        /// Up (+1) or down (-1).
        up: bool,
    },
    /// Pick a die of this face (1..6) to reroll; faces are picked lowest first.
    RerollDie(u8),
    /// Reroll the dice picked.
    Roll,
    /// Add Dice: take this many dice.
    Add(u8),
    /// Wash Dishes with this many 1s.
    Wash(u8),
    /// End an Arrange early (its optional further steps skipped), or set a token aside when
    /// nothing else is legal.
    Stop,
}

/// Faces as text, `3,3,5`.
pub fn faces_text(f: &[u8; 6]) -> String {
    let mut parts = Vec::new();
    for (i, &k) in f.iter().enumerate() {
        for _ in 0..k.min(12) {
            parts.push((i + 1).to_string());
        }
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(",")
    }
}
