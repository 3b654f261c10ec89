//! Tofu Kingdom's named mechanics: the Prince's three questions (rulebook: "Where is Princess
//! Tofu?", "Which Character card do you hold?", "Which Character card does player X hold?").

use super::{Action, Question, State, TofuKingdom};
use crate::mechanics::Mechanics;

impl Mechanics for TofuKingdom {
    const MECHANICS: &'static [&'static str] = &["ask-where", "ask-own-card", "ask-other-card"];

    fn mechanic(&self, _state: &State, action: Action) -> Option<usize> {
        match action {
            Action::Ask { question, .. } => Some(match question {
                Question::WherePrincess => 0,
                Question::OwnCard => 1,
                Question::CardOf(_) => 2,
            }),
            _ => None,
        }
    }
}
