//! Tofu Kingdom parameters and rule options, from a TOML file or `key=value` overrides.
//!
//! Every key is documented on [`Params`]; an unknown key is an error.

use crate::param_file::ParamFile;
use serde::{Deserialize, Serialize};

/// Which Character cards are dealt. Only the cards change: every other rule stays the Kuraki
/// Mura rulebook's (questions, eye marks, scoring, the end), whichever list is dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Deal {
    /// The rulebook's: all seven Character cards shuffled, one to each player but the Prince,
    /// the rest face down in the centre (default).
    #[default]
    AllCharacters,
    /// The card list the Blue Orange edition gives for the player count (`deal_modes.
    /// blue_orange` in the data file), shuffled and dealt the same way. Only the list is taken
    /// from that edition.
    BlueOrangeLists,
}

/// When the game's end is checked. "The game ends when any player reaches a score of 7 points
/// or more. If no player reaches at least 7 points in a given round, a new round starts."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EndCheck {
    /// The game ends after the round in which any player reached the winning score at any
    /// moment, even if a steal of that round took it back below (default: the text says
    /// "reaches", an event; the round's rewards, steals included, are still all taken, since
    /// Step 5 comes before Step 6).
    #[default]
    Reached,
    /// The game ends only if a player still has the winning score once the round's steals are
    /// resolved (a player robbed back below it plays on).
    AfterSteals,
}

/// What the Prince Mochi card scores. The Kuraki Mura text lists his card apart from the seven
/// Character cards and names no reward for it; its lower-right heart is found, the reward is a
/// reconstruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PrinceReward {
    /// The data file's reward when his card's lower-right symbol wins (default: the card carries
    /// a lower-right symbol, which Step 5 scores; without a reward he would have no stake in
    /// finding the Princess).
    #[default]
    Data,
    /// None: only the Character cards score, as the Kuraki Mura text lists them.
    None,
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
    /// Which Character cards are dealt (default `all-characters`, the rulebook's; only the deal
    /// changes with `blue-orange-lists`).
    pub deal: Deal,
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
    /// Open rule: when the game's end is checked (default `reached`).
    pub end_check: EndCheck,
    /// Open rule: Prince Mochi's own reward (default `data`, the data file's).
    pub prince_reward: PrinceReward,
    /// Variant for analysis: the Prince may ask "where is Princess Tofu?" (default true, the
    /// rule).
    pub ask_where: bool,
    /// Variant for analysis: the Prince may ask a player's own card (default true, the rule).
    pub ask_own_card: bool,
    /// Variant for analysis: the Prince may ask about another player's card (default true, the
    /// rule).
    pub ask_other_card: bool,
    /// Variant for analysis: the Prince asks the additional question (default true, the rule:
    /// "asks each player one question, as well as one additional question").
    pub extra_question: bool,
    /// Points that end the game (default the data file's 7).
    pub winning_score: Option<u16>,
    /// Rounds after which a game is stopped and marked capped (default 100).
    pub max_rounds: u16,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            players: 5,
            deal: Deal::AllCharacters,
            centre_answer: CentreAnswer::SayCentre,
            centre_is_a_lie: true,
            first_prince: 0,
            end_check: EndCheck::Reached,
            prince_reward: PrinceReward::Data,
            ask_where: true,
            ask_own_card: true,
            ask_other_card: true,
            extra_question: true,
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
        p.set("deal", "blue-orange-lists").unwrap();
        assert_eq!(p.deal, Deal::BlueOrangeLists);
        p.set("end_check", "after-steals").unwrap();
        assert_eq!(p.end_check, EndCheck::AfterSteals);
        p.set("prince_reward", "none").unwrap();
        assert_eq!(p.prince_reward, PrinceReward::None);
        p.set("extra_question", "false").unwrap();
        assert!(!p.extra_question);
        p.set("winning_score", "5").unwrap();
        assert_eq!(p.winning_score, Some(5));
        let e = p.set("centre_answr", "free").unwrap_err().to_string();
        assert!(
            e.contains("centre_answr") && e.contains("centre_answer"),
            "{e}"
        );
        let e = p.set("deal", "blue-orange").unwrap_err().to_string();
        assert!(e.contains("deal"), "{e}");
    }
}
