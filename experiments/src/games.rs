//! The games the `shifu` command plays. What the command needs of a game lives in the game's
//! own folder ([`shifu_engine::Present`]) and its evaluation in the agents crate
//! ([`shifu_agents::Evaluate`]), its encoding for learners in the game's folder too
//! ([`shifu_engine::Encoding`]); the engine's [`shifu_engine::game_list!`] registers it.
//!
//! Adding a fifth game: its engine folder (rules, data, `present.rs`), its evaluation file
//! (`agents/src/eval/<game>.rs`), and its entry in the engine's [`shifu_engine::game_list!`].

use shifu_agents::Evaluate;
use shifu_engine::{Encoding, Present};

pub use shifu_engine::present::MAX_EVENTS;

/// A game the `shifu` command can run: presented, evaluated and encoded for learners.
pub trait Playable: Present + Evaluate + Encoding {}

impl<T: Present + Evaluate + Encoding> Playable for T {}

/// Calls the macro `$callback` (one of this crate's exported macros) with `$args` followed by
/// the engine's list of games ([`shifu_engine::game_list!`], the one registration).
#[macro_export]
macro_rules! registered_games {
    ($callback:ident ! ($($args:tt)*)) => {
        shifu_engine::game_list!($crate::$callback!($($args)*))
    };
}

/// Runs `$body` with `$G` bound to the game type whose [`shifu_engine::GameInfo::name`] is
/// `$name` (a `&str`), or returns an error listing the games.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        $crate::registered_games!(dispatch_game!($name, $G => $body,))
    };
}

/// The registered games' names, in registration order.
pub fn names() -> Vec<&'static str> {
    shifu_engine::GAMES.iter().map(|g| g.name).collect()
}

/// The dispatch behind [`with_game!`]: compares the name with each listed type's.
#[macro_export]
macro_rules! dispatch_game {
    ($name:expr, $G:ident => $body:expr, [$($id:ident : $T:ty => $pins:tt),* $(,)?]) => {{
        let name: &str = $name;
        'found: {
            $(
                if name == <$T as shifu_engine::Game>::INFO.name {
                    type $G = $T;
                    break 'found $body;
                }
            )*
            Err(anyhow::anyhow!(
                "unknown game `{name}`; the games: {}",
                $crate::games::names().join(", ")
            ))
        }
    }};
}
