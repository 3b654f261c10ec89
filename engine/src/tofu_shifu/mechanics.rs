//! Tofu Shifu's named mechanics (rulebook: "Copy", "Town objectives", "Player objectives").

use super::{Action, Space, State, TofuShifu};
use crate::mechanics::Mechanics;

impl Mechanics for TofuShifu {
    const MECHANICS: &'static [&'static str] = &["copy", "town-objective", "player-objective"];

    fn mechanic(&self, _state: &State, action: Action) -> Option<usize> {
        match action {
            // Moving to the Leaf Fan (the space copied is chosen next, as part of it).
            Action::Move(Space::Copy) => Some(0),
            Action::ClaimTown(_) => Some(1),
            Action::ClaimPlayer(_) => Some(2),
            _ => None,
        }
    }
}
