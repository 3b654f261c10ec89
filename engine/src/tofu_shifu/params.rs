//! Tofu Shifu parameters and rule options, from a TOML file or `key=value` overrides.
//!
//! Every key is documented on [`Params`]. An unknown key is an error. Parameters left unset take
//! the data file's value (start coins, hand limit, market) or the documented default.

use super::data::PriceMode;
use crate::error::EngineError;
use crate::param_file::{self, ParamFile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many Town and Player objectives a player may complete in one turn. The English text says
/// "at most 1 Town Objective card each turn"; the Japanese text's "いずれか1つ" can be read as one
/// objective of either kind in total. Restaurant objectives completed at Checkout never count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectiveLimit {
    /// At most one Town objective per turn; Player objectives are unlimited (default).
    #[default]
    OneTown,
    /// At most one Town or Player objective per turn in total.
    OneTotal,
}

/// When the game ends once a player has completed the objectives that end it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EndRule {
    /// The rulebook's: "the game ends after each player has had the same amount of turns",
    /// checked "before each of the first player's rounds" (default).
    #[default]
    AfterRound,
    /// A variant for studying the end rule's effect on seat advantage: the game ends as soon as
    /// the turn in which a player reaches the count is over; later seats get no further turn.
    Immediate,
}

/// Reconstruction knob: how a restaurant objective's dishes are built from the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RestaurantDishes {
    /// As the data file lists them (default).
    #[default]
    AsData,
    /// Each dish at most once: a dish the data asks twice is asked once.
    Distinct,
}

/// Parameters of a Tofu Shifu game. TOML keys are the field names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Number of players, 2 to 4.
    pub players: u8,
    /// Start coins by seat (first player first); default the data file's 1/2/2/3.
    pub start_coins: Option<Vec<u16>>,
    /// Reconstruction knob: multiplies the coin cost of every Town objective (rounded to the
    /// nearest coin), the coin stack's included.
    pub town_objective_cost_scale: f64,
    /// Reconstruction knob: multiplies the coin cost of every Player objective (rounded).
    pub player_objective_cost_scale: f64,
    /// Sets the coin cost of single objectives by id, for example `objective_cost.T01 = 5`;
    /// applied after the scales.
    pub objective_cost: BTreeMap<String, u16>,
    /// Reconstruction knob: multiplies every production card's upgrade coin cost (rounded to
    /// the nearest coin, halves up); costs the rulebook prints are kept (default 1).
    pub upgrade_coin_scale: f64,
    /// Reconstruction knob: `as-data` (default) or `distinct` (a restaurant objective asks for
    /// each of its dishes once).
    pub restaurant_objective_dishes: RestaurantDishes,
    /// Reconstruction knob: a restaurant objective keeps at most this many of its dishes (the
    /// first ones the data lists; default: all).
    pub restaurant_objective_max_dishes: Option<u8>,
    /// Reconstruction knob: added to every upgrade count a Player objective asks for, never
    /// below 1 (default 0).
    pub player_objective_upgrade_delta: i8,
    /// Reconstruction knob: Town objectives give their bonus powers (default true).
    pub town_bonus_powers: bool,
    /// Completed objectives that end the game (default the data file's 8).
    pub end_objectives: Option<u8>,
    /// Cards dealt to each player (default the data file's 4).
    pub hand_size: Option<u8>,
    /// Hand limit after Rest (default the data file's 6).
    pub hand_limit: Option<u8>,
    /// Market slots (default the data file's 5).
    pub market_size: Option<u8>,
    /// Market prices by slot, left to right (default the data file's 4,3,2,2,1).
    pub market_prices: Option<Vec<u16>>,
    /// Whether the token and coin reserve is finite, as the components are (default true).
    /// When it runs out, a gain takes what is left.
    pub finite_reserve: bool,
    /// Rounds after which a game is stopped and marked capped (default 200).
    pub max_rounds: u16,
    /// When the game ends once a player reaches `end_objectives` (default `after-round`, the
    /// rulebook's; `immediate` is a variant for studies, not a rule reading).
    pub end_rule: EndRule,
    /// Open rule: objectives per turn (default `one-town`).
    pub objective_limit: ObjectiveLimit,
    /// Open rule: a coin customer that was served nothing still pays its coin at Checkout
    /// (default true, as written: "When a customer with a coin in hand leaves the table, you gain
    /// 1 coin").
    pub unserved_coin_customer_pays: bool,
    /// Open rule: the flags printed on the player board count as upgrades for objective
    /// requirements (default false: objectives ask for "upgrades").
    pub board_flags_count: bool,
    /// Open rule: market price by `slot` or by `card` (default the data file's `slot`).
    pub market_price_mode: Option<PriceMode>,
    /// Open rule: Copy may copy a Rest space occupied by another player (default false: Rest is
    /// "player-exclusive" and is not on the Town map).
    pub copy_can_target_rest: bool,
    /// Open rule: "you must move to a board space ... whose action you can take" (ja: そこの
    /// アクションが実行可能である必要があります) is read as "the action would change
    /// something": Produce needs a flag without its token, Seat a free seat and a tile in the
    /// bag, Serve a dish token, Checkout a seated customer (default true). When false those four
    /// may be taken with no effect; Upgrade, Set Objective and Hire always need their card.
    pub require_effective_action: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            players: 4,
            start_coins: None,
            town_objective_cost_scale: 1.0,
            player_objective_cost_scale: 1.0,
            objective_cost: BTreeMap::new(),
            upgrade_coin_scale: 1.0,
            restaurant_objective_dishes: RestaurantDishes::AsData,
            restaurant_objective_max_dishes: None,
            player_objective_upgrade_delta: 0,
            town_bonus_powers: true,
            end_objectives: None,
            hand_size: None,
            hand_limit: None,
            market_size: None,
            market_prices: None,
            finite_reserve: true,
            max_rounds: 200,
            end_rule: EndRule::AfterRound,
            objective_limit: ObjectiveLimit::OneTown,
            unserved_coin_customer_pays: true,
            board_flags_count: false,
            market_price_mode: None,
            copy_can_target_rest: false,
            require_effective_action: true,
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
    const OPTIONAL_KEYS: &'static [&'static str] = &[
        "start_coins",
        "end_objectives",
        "hand_size",
        "hand_limit",
        "market_size",
        "market_prices",
        "market_price_mode",
        "restaurant_objective_max_dishes",
    ];

    /// As the default, plus `objective_cost.ID=n`, which sets one objective's coin cost.
    fn set(&mut self, key: &str, value: &str) -> Result<(), EngineError> {
        let key = key.trim();
        if let Some(id) = key.strip_prefix("objective_cost.") {
            let n = match param_file::parse_value(value.trim()) {
                toml::Value::Integer(n) => u16::try_from(n).ok(),
                _ => None,
            };
            let n = n.ok_or_else(|| {
                EngineError::param(
                    key,
                    format!("expected a whole number of coins from 0 to 65535, got `{value}`"),
                )
            })?;
            self.objective_cost.insert(id.to_string(), n);
            return Ok(());
        }
        param_file::set_key(self, key, value, &Params::keys())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_parses_lists_bools_and_words() {
        let mut p = Params::default();
        p.set("start_coins", "2,2,2,2").unwrap();
        assert_eq!(p.start_coins, Some(vec![2, 2, 2, 2]));
        p.set("finite_reserve", "false").unwrap();
        assert!(!p.finite_reserve);
        p.set("objective_limit", "one-total").unwrap();
        assert_eq!(p.objective_limit, ObjectiveLimit::OneTotal);
        p.set("town_objective_cost_scale", "1.5").unwrap();
        assert_eq!(p.town_objective_cost_scale, 1.5);
        p.set("objective_cost.T01", "5").unwrap();
        assert_eq!(p.objective_cost["T01"], 5);
        p.set("market_price_mode", "card").unwrap();
        assert_eq!(p.market_price_mode, Some(PriceMode::Card));
    }

    #[test]
    fn unknown_key_is_an_error_naming_it() {
        let e = Params::default().set("start_coinz", "1").unwrap_err();
        assert!(e.to_string().contains("start_coinz"), "{e}");
        let e = Params::from_toml_str("players = 3\nbogus = 1\n").unwrap_err();
        assert!(e.to_string().contains("bogus"), "{e}");
    }

    #[test]
    fn bad_value_is_an_error_naming_the_key() {
        let e = Params::default().set("players", "many").unwrap_err();
        assert!(e.to_string().contains("players"), "{e}");
    }

    #[test]
    fn toml_file_round_trip() {
        let p = Params::from_toml_str("players = 2\nstart_coins = [3, 3]\n").unwrap();
        assert_eq!(p.players, 2);
        assert_eq!(p.start_coins, Some(vec![3, 3]));
    }
}
