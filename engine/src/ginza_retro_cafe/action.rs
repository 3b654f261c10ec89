//! Ginza Retro Café actions: a turn is split into small decisions (upgrades one at a time, then
//! one action, then the optional further steps of an Arrange).

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

/// One decision.
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
