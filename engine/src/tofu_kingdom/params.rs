//! Tofu Kingdom parameters and rule options, from a TOML file or `key=value` overrides.
//!
//! Every key is documented on [`Params`]; an unknown key is an error.

use crate::param_file::ParamFile;
use serde::{Deserialize, Serialize};

/// How the Character cards are dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DealMode {
    /// The rulebook's: all Character cards shuffled, one to each player but the Prince, the rest
    /// face down in the centre (default).
    #[default]
    KurakiMura,
    /// The other published edition's per-player-count card lists (`deal_modes.blue_orange` in
    /// the data file), shuffled and dealt the same way.
    BlueOrange,
}

/// How "where is Princess Tofu?" is answered when her card is in the centre (not dealt). The
/// rulebook does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CentreAnswer {
    /// "She is in the centre" is an answer whenever cards lie in the centre. It is the one true
    /// answer when she is there; then naming any player is a lie (default).
    #[default]
    SayCentre,
    /// Answers name players only. When she is in the centre no answer is true, so the eye marks
    /// cannot bind and every answerer may name anyone.
    Free,
}

/// Parameters of a Tofu Kingdom game. TOML keys are the field names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Number of players, 3 to 8, the Prince included (default 5).
    pub players: u8,
    /// How the Character cards are dealt (default `kuraki-mura`, the rulebook's).
    pub deal_mode: DealMode,
    /// Open rule: answering "where is Princess Tofu?" when she is in the centre (default
    /// `say-centre`).
    pub centre_answer: CentreAnswer,
    /// Open rule, with `say-centre`: when she is with a player, "she is in the centre" counts as
    /// a false answer a liar may give (default true: it is false, and the F mark only asks for a
    /// false answer).
    pub centre_is_a_lie: bool,
    /// The seat holding the Prince Mochi card in the first round, 0-based (default 0); the card
    /// then passes clockwise (to the next seat) every round.
    pub first_prince: u8,
    /// Points that end the game (default the data file's 7).
    pub winning_score: Option<u16>,
    /// Rounds after which a game is stopped and marked capped (default 100).
    pub max_rounds: u16,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            players: 5,
            deal_mode: DealMode::KurakiMura,
            centre_answer: CentreAnswer::SayCentre,
            centre_is_a_lie: true,
            first_prince: 0,
            winning_score: None,
            max_rounds: 100,
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
    const OPTIONAL_KEYS: &'static [&'static str] = &["winning_score"];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_parses_options_and_rejects_unknown_keys() {
        let mut p = Params::default();
        p.set("centre_answer", "free").unwrap();
        assert_eq!(p.centre_answer, CentreAnswer::Free);
        p.set("deal_mode", "blue-orange").unwrap();
        assert_eq!(p.deal_mode, DealMode::BlueOrange);
        p.set("winning_score", "5").unwrap();
        assert_eq!(p.winning_score, Some(5));
        let e = p.set("centre_answr", "free").unwrap_err().to_string();
        assert!(
            e.contains("centre_answr") && e.contains("centre_answer"),
            "{e}"
        );
        let e = p.set("deal_mode", "random").unwrap_err().to_string();
        assert!(e.contains("deal_mode"), "{e}");
    }
}
