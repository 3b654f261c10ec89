//! Ginza Retro Café parameters: player count, the scoring and price knobs a designer sweeps, and
//! the named options for the readings the rulebook leaves open. From a TOML file or `key=value`
//! overrides; every key is documented on [`Params`] and an unknown key is an error.

use crate::param_file::ParamFile;
use serde::{Deserialize, Serialize};

/// How the set-up tie for the lowest dice total is broken. The rulebook: "by rock-paper-scissors
/// or in whatever way you like".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SetupTie {
    /// Uniformly at random among the tied players (default: rock-paper-scissors).
    #[default]
    Random,
    /// The tied player in the lowest seat.
    LowestSeat,
}

/// The next start player when players tie for the most dice. "In case of a tie, the player
/// closest in clockwise order to the current start player is the start player."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum StartTie {
    /// The current start player, when tied, is the closest and keeps the marker (default: the
    /// literal reading, distance 0).
    #[default]
    CurrentFirst,
    /// Counting starts at the player to the current start player's left; the current start
    /// player comes last.
    LeftFirst,
}

/// Which dice a Drink serve may use. "a combination of dice rolls equal to or greater than the
/// number".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DrinkDice {
    /// Any combination whose total reaches the number (default: the literal reading).
    #[default]
    Any,
    /// Only combinations from which no die can be left out.
    Minimal,
}

/// Parameters of a Ginza Retro Café game. TOML keys are the field names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Number of players, 2 to 4 (default 4).
    pub players: u8,
    /// Coins per VP at scoring; 0 (default) takes the data file's `yen_per_vp` (the rulebook's
    /// ¥4). For the coin-rate sweep.
    pub yen_per_vp: u8,
    /// Prices of the dice-limit raises (5 to 6, 6 to 7, ...); empty (default) takes the data
    /// file's (the rulebook's 4, 4, 6, 6). For the price sweep.
    pub dice_limit_prices: Vec<u8>,
    /// Open rule: the set-up tie-break for the lowest dice total (default `random`).
    pub setup_tie: SetupTie,
    /// Open rule: the next start player when the current one ties for the most dice (default
    /// `current-first`).
    pub start_tie: StartTie,
    /// Open rule: which dice a Drink serve may use (default `any`).
    pub drink_dice: DrinkDice,
    /// Open rule: whether the optional parts of an Arrange may be skipped: the second
    /// adjustment, the later rerolls, adding fewer dice than allowed (default true: the
    /// rulebook says "you can").
    pub arrange_partial: bool,
    /// Open rule: whether a player may put more than one token on the same Arrange card or on
    /// the Dishwashing area in a round (default true: nothing forbids it).
    pub stacked_tokens: bool,
    /// Open rule: whether customers who arrive during the end-of-round tick (replacing those
    /// who left) also tick down in it (default false: they arrive with "2" after the tick).
    pub arrivals_tick: bool,
    /// Open rule: whether a player with no order cards can have "the most" (default false: a
    /// count of 0 achieves no `most_...` bonus).
    pub most_with_zero: bool,
    /// Open rule: whether the coins are limited to the box's ¥70 (default true: a payment takes
    /// what the bank holds; making change is never a problem with ¥1 coins).
    pub finite_bank: bool,
    /// Variant, not in the rulebook (players start with no coins): coins each player takes from
    /// the bank when the draft ends, by turn position from the first start player (the first
    /// entry is the start player's, the last the player who acts last). Empty (default): none,
    /// as the rulebook. A seat compensation for `shifu balance`, for example
    /// `--search start_yen_by_position=0..3`. Left out of the parameter file when empty, so that
    /// the rulebook's games keep their parameter-set id.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub start_yen_by_position: Vec<u8>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            players: 4,
            yen_per_vp: 0,
            dice_limit_prices: Vec::new(),
            setup_tie: SetupTie::Random,
            start_tie: StartTie::CurrentFirst,
            drink_dice: DrinkDice::Any,
            arrange_partial: true,
            stacked_tokens: true,
            arrivals_tick: false,
            most_with_zero: false,
            finite_bank: true,
            start_yen_by_position: Vec::new(),
        }
    }
}

impl Params {
    /// Defaults with a player count.
    pub fn with_players(players: u8) -> Params {
        Params {
            players,
            ..Params::default()
        }
    }
}

impl ParamFile for Params {
    const OPTIONAL_KEYS: &'static [&'static str] = &["start_yen_by_position"];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_unknown_keys_are_refused() {
        let mut p = Params::default();
        p.set("start_tie", "left-first").unwrap();
        assert_eq!(p.start_tie, StartTie::LeftFirst);
        p.set("dice_limit_prices", "3,3,5,5").unwrap();
        assert_eq!(p.dice_limit_prices, vec![3, 3, 5, 5]);
        p.set("yen_per_vp", "5").unwrap();
        let e = p.set("yen_per_v", "2").unwrap_err().to_string();
        assert!(e.contains("yen_per_vp"), "{e}");
    }
}
