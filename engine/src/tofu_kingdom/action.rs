//! The actions: one small decision each.

use super::state::{Answer, Question};
use serde::{Deserialize, Serialize};

/// One decision in Tofu Kingdom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Four bytes (three without): an action is written to the legal list in one store.
#[repr(align(4))]
pub enum Action {
    /// Prince Mochi asks a seat a question.
    Ask {
        /// The asked seat.
        to: u8,
        /// The question.
        question: Question,
    },
    /// The asked seat answers.
    Answer(Answer),
    /// Prince Mochi names a seat as Princess Tofu's holder.
    Guess(u8),
    /// A scoring seat takes points from this seat.
    Steal(u8),
}
