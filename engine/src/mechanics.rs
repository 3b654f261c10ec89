//! Named mechanics: what a restricted agent may be forbidden (`forbid=NAME` in an agent spec)
//! and what `shifu mechanics` measures the worth of, after Jaffe et al., "Evaluating competitive
//! game balance with restricted play" (AIIDE 2012).
//!
//! Each game declares its mechanics in its own folder (`mechanics.rs`); a game that declares
//! none implements the trait with an empty body and has nothing to forbid.

use crate::game::Game;

/// A game's named mechanics and the classifier from an action to the mechanic it uses.
pub trait Mechanics: Game {
    /// The mechanics' names, short and in kebab case (`copy`, `town-objective`); an index into
    /// this list is what [`Mechanics::mechanic`] returns. At most 64. None by default.
    const MECHANICS: &'static [&'static str] = &[];

    /// The mechanic `action` uses in `state`, as an index into [`Mechanics::MECHANICS`], or
    /// `None` for an action of no named mechanic (the default).
    ///
    /// It must read only what the seat to move sees (the action itself, the public state and
    /// the mover's own hand), so that an agent may call it on its determinized copies and on
    /// the true state alike with the same answer: a restricted agent learns nothing from it.
    fn mechanic(&self, _state: &Self::State, _action: Self::Action) -> Option<usize> {
        None
    }

    /// The index of the mechanic named `name`, if the game has one.
    fn mechanic_index(name: &str) -> Option<usize> {
        Self::MECHANICS.iter().position(|&m| m == name)
    }
}
