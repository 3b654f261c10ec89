//! The games the `shifu` command plays. What the command needs of a game lives in the game's
//! own folder ([`shifu_engine::Present`]) and its evaluation in the agents crate
//! ([`shifu_agents::Evaluate`]), its encoding for learners in the game's folder too
//! ([`shifu_engine::Encoding`]); registering a game here is one line in [`registered_games!`].
//!
//! Adding a fifth game: its engine folder (rules, data, `present.rs`), its evaluation file
//! (`agents/src/eval/<game>.rs`), and its type on one line of the list in [`registered_games!`].

use shifu_agents::Evaluate;
use shifu_engine::{Encoding, Present};

pub use shifu_engine::present::MAX_EVENTS;

/// A game the `shifu` command can run: presented, evaluated and encoded for learners.
pub trait Playable: Present + Evaluate + Encoding {}

impl<T: Present + Evaluate + Encoding> Playable for T {}

/// Calls the macro `$callback` (one of this crate's exported macros) with `$args` followed by
/// the list of game types. The list below is the registration: one line a game.
#[macro_export]
macro_rules! registered_games {
    ($callback:ident ! ($($args:tt)*)) => {
        $crate::$callback!($($args)* [
            shifu_engine::tofu_shifu::TofuShifu,
            shifu_engine::tofu_kingdom::TofuKingdom,
            shifu_engine::wok_star::WokStar,
            shifu_engine::ginza_retro_cafe::GinzaRetroCafe,
        ])
    };
}

/// Runs `$body` with `$G` bound to the game type whose [`Present::NAME`] is `$name` (a `&str`),
/// or returns an error listing the games.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        $crate::registered_games!(dispatch_game!($name, $G => $body,))
    };
}

/// The names of the listed game types (behind [`names`]).
#[macro_export]
macro_rules! game_names {
    ([$($T:ty),* $(,)?]) => {
        vec![$(<$T as shifu_engine::Present>::NAME),*]
    };
}

/// The registered games' names, in registration order.
pub fn names() -> Vec<&'static str> {
    crate::registered_games!(game_names!())
}

/// The dispatch behind [`with_game!`]: compares the name with each listed type's.
#[macro_export]
macro_rules! dispatch_game {
    ($name:expr, $G:ident => $body:expr, [$($T:ty),* $(,)?]) => {{
        let name: &str = $name;
        'found: {
            $(
                if name == <$T as shifu_engine::Present>::NAME {
                    type $G = $T;
                    break 'found $body;
                }
            )*
            let names: Vec<&str> = vec![$(<$T as shifu_engine::Present>::NAME),*];
            Err(anyhow::anyhow!(
                "unknown game `{name}`; the games: {}",
                names.join(", ")
            ))
        }
    }};
}
