//! Ginza Retro Café's named mechanics: the three Arrange cards (rulebook: "Change Dice Rolls",
//! "Reroll Dice", "Add Dice") and "Wash Dishes". Every step of a reroll carries its mechanic, so
//! a reroll is forbidden from its first step.

use super::{Action, GinzaRetroCafe, State};
use crate::mechanics::Mechanics;

impl Mechanics for GinzaRetroCafe {
    const MECHANICS: &'static [&'static str] = &["change", "reroll", "add", "wash"];

    fn mechanic(&self, _state: &State, action: Action) -> Option<usize> {
        match action {
            Action::Change { .. } => Some(0),
            Action::RerollDie(_) | Action::Roll => Some(1),
            Action::Add(_) => Some(2),
            Action::Wash(_) => Some(3),
            _ => None,
        }
    }
}
