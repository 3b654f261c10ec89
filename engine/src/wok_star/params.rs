//! Wok Star parameters: player count, difficulty, the clock model's durations and the named
//! options for the readings the rulebook leaves open. From a TOML file or `key=value` overrides;
//! every key is documented on [`Params`] and an unknown key is an error.

use crate::param_file::ParamFile;
use serde::{Deserialize, Serialize};

/// What flipping a timer does to its sand. The rulebook says only "flip".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TimerFlip {
    /// A sand timer: the sand that had run down runs again, so a timer with `r` seconds left
    /// holds `30 - r` after the flip (an empty timer holds 30) (default).
    #[default]
    Sand,
    /// Every flip starts a full 30 seconds.
    Refill,
}

/// Which dice the rightmost (4th) method needs. "This method also requires that one of the two
/// dice belong to another player."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ForeignDice {
    /// At least one of the two dice is another player's (default).
    #[default]
    AtLeastOne,
    /// Exactly one die is another player's.
    ExactlyOne,
}

/// What a preparation that would lift a token past the track's top does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TrackTop {
    /// The token stops at the top; the rest is lost (default).
    #[default]
    Cap,
    /// Such a preparation is not offered.
    Refuse,
}

/// Which served customers grow a player's dice pool. Step 2 of Daily Accounting counts "the
/// number of their on-time Customers" but then speaks of "served more customers".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DiceGrowth {
    /// On-time customers only (default: the sentence that sets the count).
    #[default]
    OnTime,
    /// Every served customer, late ones included.
    Served,
}

/// How the three recipes on offer in Next Day Prep are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RecipeOffer {
    /// Drawn once per Next Day Prep; a bought recipe leaves the offer (default: "Only these 3
    /// recipes are available to purchase this round").
    #[default]
    Once,
    /// Drawn afresh before each purchase.
    EachPurchase,
}

/// What happens at Daily Accounting to event cards still in the Regular deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum UndrawnEvents {
    /// They stay in the deck; 2 more join it the next day (default: only "Event cards that
    /// appeared during this round" are discarded).
    #[default]
    Stay,
    /// They are discarded with the ones that appeared.
    Discard,
}

/// Whose dice a Hustle may rotate. "Anyone can use Hustle tokens in the pool ... Rotate 1 unused
/// die up or down 1 value."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum HustleDice {
    /// Any unused die at the table (default: "1 unused die", no owner named).
    #[default]
    Any,
    /// Only the acting seat's own dice.
    Own,
}

/// Parameters of a Wok Star game. TOML keys are the field names. Durations are seconds of table
/// time at `speed` 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Number of players, 2 to 4 (default 4).
    pub players: u8,
    /// The difficulty, a key of the data file's `income_goals`: `mild`, `medium` or
    /// `extra_spicy` in the embedded data (default `medium`).
    pub difficulty: String,
    /// Every income goal times this, rounded (default 1): for finding the goals that give a
    /// team a chosen win rate.
    pub goal_scale: f64,
    /// How fast the team plays: every duration below is divided by it (default 1; 2 is twice as
    /// fast).
    pub speed: f64,
    /// Seconds to read and roll one's dice: at the opening of a day and after a wash.
    pub roll_seconds: f64,
    /// Seconds to prepare an ingredient (find two dice, put them in the Dirty Dishes, move the
    /// token).
    pub prepare_seconds: f64,
    /// Seconds to serve a customer (move the tokens, take the card, flip a timer, reveal the
    /// next customer).
    pub serve_seconds: f64,
    /// Seconds for a Hustle: gaining a token or spending one.
    pub hustle_seconds: f64,
    /// Extra seconds per die taken from another player or Fortune cube handed over.
    pub pass_seconds: f64,
    /// Seconds to start the Dishwasher (lay the timers down, turn the token).
    pub wash_seconds: f64,
    /// Seconds a seat waits when it chooses to wait.
    pub wait_seconds: f64,
    /// Open rule, ending a day: a day closes when every seat's clock has passed this many
    /// seconds (default 600). The rulebook's day ends only when the team cannot or will not
    /// serve; this bounds a team that keeps waiting.
    pub max_day_seconds: f64,
    /// Open rule, ending a day: whether a day closes when every seat has waited in turn with
    /// nothing else done in between and no event showing (default true). The phase ends when
    /// the team "cannot or will not serve"; a table where every player passes will not serve,
    /// and nothing changes by waiting longer. Off, such a day runs on to `max_day_seconds`.
    pub all_wait_closes: bool,
    /// Open rule: what flipping a timer does (default `sand`).
    pub timer_flip: TimerFlip,
    /// Open rule: whether a serve at the very instant the last timer empties is on time
    /// (default false: "if both timers are empty ... the meal is served late").
    pub on_time_at_empty: bool,
    /// Open rule: whether the team may wash while unused dice remain (default true: the
    /// rulebook's "if you don't have the dice necessary" is advice, not a condition).
    pub wash_with_unused_dice: bool,
    /// Open rule: the rightmost method's dice (default `at-least-one` other player's die).
    pub fourth_method: ForeignDice,
    /// Open rule: a preparation past the track's top (default `cap`).
    pub track_top: TrackTop,
    /// Open rule: whether a tracker cube lying exactly at the income counts as passed (default
    /// true: a goal is met when "achieved or surpassed").
    pub cube_at_income_passed: bool,
    /// Open rule: whether later days' cubes that the income passes are gained early (default
    /// true: "You gain all Fortune cubes you passed on the Income Tracker").
    pub early_goal_cubes: bool,
    /// Open rule: whether Hustle may be spent after closing (default false: only "Prepare
    /// Ingredients or earn Hustle" are named).
    pub hustle_after_close: bool,
    /// Open rule: whose unused dice a Hustle may rotate (default `any`).
    pub hustle_dice: HustleDice,
    /// Open rule: which customers grow the dice pool (default `on-time`).
    pub dice_growth: DiceGrowth,
    /// Open rule: how the recipe offer is drawn (default `once`).
    pub recipe_offer: RecipeOffer,
    /// Optional rule, Events: event cards from the data file are shuffled into the Regular deck
    /// each day (default false, the standard game).
    pub events: bool,
    /// Open rule, Events: event cards still undrawn at Daily Accounting (default `stay`).
    pub undrawn_events: UndrawnEvents,
    /// Optional rule, Player Powers: each player has a Wang Family character whose power is
    /// used once per round (default false, the standard game).
    pub powers: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            players: 4,
            difficulty: "medium".to_string(),
            goal_scale: 1.0,
            speed: 1.0,
            roll_seconds: 3.0,
            prepare_seconds: 4.0,
            serve_seconds: 3.0,
            hustle_seconds: 2.0,
            pass_seconds: 1.0,
            wash_seconds: 2.0,
            wait_seconds: 1.0,
            max_day_seconds: 600.0,
            all_wait_closes: true,
            timer_flip: TimerFlip::Sand,
            on_time_at_empty: false,
            wash_with_unused_dice: true,
            fourth_method: ForeignDice::AtLeastOne,
            track_top: TrackTop::Cap,
            cube_at_income_passed: true,
            early_goal_cubes: true,
            hustle_after_close: false,
            hustle_dice: HustleDice::Any,
            dice_growth: DiceGrowth::OnTime,
            recipe_offer: RecipeOffer::Once,
            events: false,
            undrawn_events: UndrawnEvents::Stay,
            powers: false,
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

    /// The durations, named, in the order of [`Durations`].
    pub(crate) fn duration_fields(&self) -> [(&'static str, f64); 8] {
        [
            ("roll_seconds", self.roll_seconds),
            ("prepare_seconds", self.prepare_seconds),
            ("serve_seconds", self.serve_seconds),
            ("hustle_seconds", self.hustle_seconds),
            ("pass_seconds", self.pass_seconds),
            ("wash_seconds", self.wash_seconds),
            ("wait_seconds", self.wait_seconds),
            ("max_day_seconds", self.max_day_seconds),
        ]
    }
}

impl ParamFile for Params {}

/// The durations in milliseconds of table time, `speed` applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Durations {
    /// Reading and rolling one's dice.
    pub roll: u32,
    /// Preparing an ingredient.
    pub prepare: u32,
    /// Serving a customer.
    pub serve: u32,
    /// A Hustle.
    pub hustle: u32,
    /// Passing one die or cube.
    pub pass: u32,
    /// Starting the Dishwasher.
    pub wash: u32,
    /// Waiting.
    pub wait: u32,
    /// The longest day.
    pub max_day: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_unknown_keys_are_refused() {
        let mut p = Params::default();
        p.set("timer_flip", "refill").unwrap();
        assert_eq!(p.timer_flip, TimerFlip::Refill);
        p.set("fourth_method", "exactly-one").unwrap();
        p.set("difficulty", "extra_spicy").unwrap();
        assert_eq!(p.difficulty, "extra_spicy");
        p.set("speed", "1.5").unwrap();
        assert_eq!(p.speed, 1.5);
        let e = p.set("sped", "2").unwrap_err().to_string();
        assert!(e.contains("sped") && e.contains("speed"), "{e}");
    }
}
