//! Wok Star's named mechanics (rulebook: "Gain and Spend Hustle", "Washing the Dishes",
//! "Upgrade" in Next Day Prep).

use super::{Action, State, WokStar};
use crate::mechanics::Mechanics;

impl Mechanics for WokStar {
    const MECHANICS: &'static [&'static str] = &["hustle", "dishwasher", "upgrade"];

    fn mechanic(&self, _state: &State, action: Action) -> Option<usize> {
        match action {
            // Gaining a token (a die or $2) and spending one (turn a die, move cubes: the
            // second cube's move that follows is part of it).
            Action::GainHustle(_)
            | Action::BuyHustle
            | Action::Rotate { .. }
            | Action::HustleCubes { .. } => Some(0),
            // The Dishwasher re-rolls the dirty dice.
            Action::Wash => Some(1),
            Action::Upgrade(_) => Some(2),
            _ => None,
        }
    }
}
