//! The games: what each one is ([`GameInfo`], a const in the game's own folder) and the one list
//! of them ([`game_list!`] and [`GAMES`]) that the command's dispatch, its help, the benches,
//! the fuzz drivers, the Python module and the contract tests all read.

use crate::error::EngineError;
use std::ops::RangeInclusive;

/// What a game is, before any parameters: its name, how many play it, how it is won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct GameInfo {
    /// The name on the command line (`--game NAME`), for example `tofu-shifu`.
    pub name: &'static str,
    /// The name in prose, for example `Tofu Shifu`.
    pub title: &'static str,
    /// The fewest players.
    pub min_players: u8,
    /// The most players (at most [`crate::MAX_SEATS`]).
    pub max_players: u8,
    /// Every seat wins or loses together (Wok Star): summaries print the team's result, not a
    /// win share per seat, and MCTS rewards the team's result.
    pub cooperative: bool,
    /// Some seat cannot see part of the state (hands, roles, a deck's order), so
    /// [`crate::Game::determinize`] re-samples something.
    pub hidden_information: bool,
}

impl GameInfo {
    /// The player counts the game takes.
    pub const fn players(&self) -> RangeInclusive<u8> {
        RangeInclusive::new(self.min_players, self.max_players)
    }

    /// The player counts in words: `2 to 4`.
    pub fn players_text(&self) -> String {
        format!("{} to {}", self.min_players, self.max_players)
    }

    /// Refuses a player count outside [`GameInfo::players`], naming the parameter `players`.
    pub fn check_players(&self, players: u8) -> Result<(), EngineError> {
        if self.players().contains(&players) {
            Ok(())
        } else {
            Err(EngineError::param(
                "players",
                format!(
                    "{} takes {} players, got {players}",
                    self.title,
                    self.players_text()
                ),
            ))
        }
    }

    /// The registered game named `name`.
    pub fn find(name: &str) -> Option<&'static GameInfo> {
        GAMES.iter().find(|g| g.name == name)
    }
}

/// Calls the macro `callback` (a path, `$crate::name` included) with `args` followed by the
/// list of games, one entry a game:
///
/// ```text
/// module: path::to::Type => { perft_depth: D, perft: [leaves at D, one per player count] },
/// ```
///
/// `module` names the game in identifiers (test names, bench groups); the perft pins are the
/// leaves at depth `D` from seed 1 with the default data and parameters, from the fewest players
/// to the most, checked by the contract tests (`experiments/tests/contract.rs`). This list is
/// the registration: one entry a game.
#[macro_export]
macro_rules! game_list {
    ($($callback:ident)::+ ! ($($args:tt)*)) => {
        $($callback)::+ ! { $($args)* [
            tofu_shifu: $crate::tofu_shifu::TofuShifu
                => { perft_depth: 8, perft: [3008, 3854, 3977] },
            tofu_kingdom: $crate::tofu_kingdom::TofuKingdom
                => { perft_depth: 5, perft: [2856, 5672, 68140, 215676, 839664, 2426880] },
            // Compact steps (a preparation is 3); complete choices: 12240, 101578, 8400.
            wok_star: $crate::wok_star::WokStar
                => { perft_depth: 7, perft: [2366, 11250, 8400] },
            ginza_retro_cafe: $crate::ginza_retro_cafe::GinzaRetroCafe
                => { perft_depth: 9, perft: [152640, 1728, 2592] },
        ] }
    };
}

/// The [`GameInfo`] of each listed game (behind [`GAMES`]).
#[macro_export]
macro_rules! game_infos {
    ([$($id:ident : $T:ty => $pins:tt),* $(,)?]) => {
        &[$(<$T as $crate::Game>::INFO),*]
    };
}

/// Every registered game, in registration order.
pub const GAMES: &[GameInfo] = crate::game_list!(crate::game_infos!());

/// The registered games' names joined for prose: `a, b, c or d`.
pub fn names_in_prose() -> String {
    let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_player_ranges_fit_the_seats() {
        for (i, g) in GAMES.iter().enumerate() {
            assert!(
                GAMES[..i].iter().all(|h| h.name != g.name),
                "{} twice",
                g.name
            );
            assert!(
                g.min_players >= 1 && g.min_players <= g.max_players,
                "{}",
                g.name
            );
            assert!(usize::from(g.max_players) <= crate::MAX_SEATS, "{}", g.name);
            assert_eq!(GameInfo::find(g.name), Some(g));
        }
        assert_eq!(GameInfo::find("chess"), None);
    }

    #[test]
    fn a_player_count_outside_the_range_is_refused_in_words() {
        let g = GAMES[0];
        assert!(g.check_players(g.min_players).is_ok());
        assert!(g.check_players(g.max_players).is_ok());
        let e = g.check_players(g.max_players + 1).unwrap_err().to_string();
        assert!(e.contains(&g.players_text()) && e.contains(g.title), "{e}");
        assert!(g.check_players(g.min_players - 1).is_err());
        assert!(names_in_prose().contains(" or "));
    }
}
