//! Tofu Shifu card data: the JSON schema of `tofu_shifu.reconstructed.json`, its loading with
//! errors that name the file, line and field, and the compiled tables the rules read.
//!
//! The default data is embedded in the binary ([`CardData::embedded`]). It is a
//! **reconstruction** (see its `_status` field and the README): the rulebook shows most cards only
//! in pictures. A user who owns the game replaces it with a file of the same schema
//! ([`CardData::from_path`]).

use super::types::*;
use crate::data_file::{entries, range, BadField, DataFile};
use crate::error::EngineError;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The card data sets built into the binary, by name: `calibrated` (the default), the first
/// `reconstructed` data (from the rulebooks' numbers alone) and an `alternative` calibration
/// that reaches the same targets with other knob values. Each is a reconstruction, not the
/// published cards; `../data/README.md` says how each was made.
pub const BUILTIN: [(&str, &str); 3] = [
    (
        "calibrated",
        include_str!("../../data/tofu_shifu.calibrated.json"),
    ),
    (
        "reconstructed",
        include_str!("../../data/tofu_shifu.reconstructed.json"),
    ),
    (
        "alternative",
        include_str!("../../data/tofu_shifu.alternative.json"),
    ),
];
/// The default card data (the `calibrated` reconstruction).
pub const EMBEDDED_JSON: &str = BUILTIN[0].1;
/// The name the default data goes by in messages.
pub const EMBEDDED_NAME: &str = "builtin:calibrated";
pub use crate::data_file::BUILTIN_PREFIX;

// ---------------------------------------------------------------------------------------------
// The file's schema, as written.
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawData {
    #[serde(rename = "_status")]
    pub(super) status: String,
    pub(super) dish_values: BTreeMap<Dish, u16>,
    pub(super) supply: RawSupply,
    pub(super) hat_payment: BTreeMap<Hat, Vec<Hat>>,
    pub(super) spaces: BTreeMap<Space, RawSpace>,
    pub(super) market: RawMarket,
    pub(super) setup: RawSetup,
    pub(super) town_objectives: Vec<RawTownObjective>,
    pub(super) player_objectives: Vec<RawPlayerObjective>,
    pub(super) production_cards: Vec<RawCard>,
    pub(super) customers: Vec<RawCustomer>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSupply {
    pub(super) dish_tokens: BTreeMap<Dish, u16>,
    pub(super) hat_tokens: BTreeMap<Hat, u16>,
    pub(super) coins: u32,
    pub(super) production_cards: usize,
    pub(super) town_objectives: usize,
    pub(super) customer_tiles: usize,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSpace {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) lower: Option<Vec<Hat>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) higher: Option<Vec<Hat>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) single: Option<Vec<Hat>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) cost: Option<Vec<Hat>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) capacity: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) player_exclusive: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) base_draw: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) extra_draw_per_payment: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) max_extra_payments: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) extra_payment_options: Option<Vec<Vec<Hat>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) extra_payment_options_when_copied: Option<Vec<Vec<Hat>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) market_sales_per_action: Option<u8>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMarket {
    pub(super) slots: usize,
    pub(super) price_mode: PriceMode,
    pub(super) slot_prices_left_to_right: Vec<u16>,
    pub(super) new_cards_enter: String,
    #[serde(rename = "_alt", default, skip_serializing_if = "Option::is_none")]
    pub(super) alt: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSetup {
    pub(super) hand_size: u8,
    pub(super) hand_limit: u8,
    pub(super) start_coins_by_seat: Vec<u16>,
    pub(super) player_board_flags: Vec<RawBoardFlag>,
    pub(super) tables: RawTables,
    pub(super) town_objectives_face_up: String,
    pub(super) end_trigger_objectives: u8,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBoardFlag {
    #[serde(rename = "type")]
    pub(super) kind: FlagKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) dish: Option<Dish>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) hat: Option<Hat>,
    pub(super) token: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTables {
    pub(super) total: u8,
    pub(super) unlocked_at_start: u8,
    pub(super) unlock_per_lantern: u8,
    pub(super) customers_per_table: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(super) enum FlagKind {
    Dish,
    Hat,
    Lantern,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(super) enum TownKind {
    CoinStack,
    Upgrades,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTownObjective {
    pub(super) id: String,
    pub(super) kind: TownKind,
    pub(super) requirement: BTreeMap<String, u16>,
    pub(super) bonus: Option<RawBonus>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBonus {
    pub(super) key: Bonus,
    pub(super) text: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayerObjective {
    pub(super) id: String,
    pub(super) requirement: BTreeMap<String, u16>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCard {
    pub(super) id: String,
    pub(super) bonus: RawCardBonus,
    pub(super) upgrade_cost: RawUpgradeCost,
    pub(super) hat_type: Hat,
    pub(super) objective_requirement: Vec<Dish>,
    pub(super) alt_card_price: u16,
    /// The card's fields whose values the rulebook prints (`upgrade_cost`,
    /// `objective_requirement`); the reconstruction knobs leave them alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) rulebook: Vec<RulebookField>,
}

/// A production card field whose value the rulebook prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum RulebookField {
    /// The upgrade cost (the Silken Tofu example: Chef hat, Soymilk, 2 coins).
    UpgradeCost,
    /// The restaurant objective (the example: Soymilk, Silken Tofu and Tofu at one table).
    ObjectiveRequirement,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCardBonus {
    #[serde(rename = "type")]
    pub(super) kind: FlagKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) dish: Option<Dish>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) hat: Option<Hat>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUpgradeCost {
    pub(super) hats: Vec<Hat>,
    pub(super) dishes: Vec<Dish>,
    pub(super) coins: u16,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCustomer {
    pub(super) id: String,
    pub(super) orders: Vec<Dish>,
    pub(super) coin_on_leave: bool,
}

// ---------------------------------------------------------------------------------------------
// The compiled tables.
// ---------------------------------------------------------------------------------------------

/// How a market card's price is set (an open rule; the data file's default is `slot`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PriceMode {
    /// The price printed under each market slot.
    Slot,
    /// Each card's own `alt_card_price`.
    Card,
}

/// What an upgrade card's flag adds to a player board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Flag {
    /// A cyan flag: produces one dish of this kind.
    Dish(Dish),
    /// A light brown flag: refills one hat token of this kind at Rest.
    Hat(Hat),
    /// A deep blue flag: unlocks one more table.
    Lantern,
}

/// What an objective asks for: counts of upgrades by kind, and coins to pay on completion.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// Lantern upgrades.
    pub lantern: u8,
    /// Dish upgrades of each kind.
    pub dish: DishCounts,
    /// Dish upgrades of any kind (on top of the specific ones).
    pub dish_any: u8,
    /// Hat upgrades of each token kind (Chef, Waiter, Cashier, Master).
    pub hat: [u8; 4],
    /// Hat upgrades of any kind (on top of the specific ones).
    pub hat_any: u8,
    /// Coins paid to the reserve when the objective is completed.
    pub coins: u16,
}

/// A town objective card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TownObjective {
    /// The card's id in the data file.
    pub id: String,
    /// Part of the coin stack (lowest cost on top) rather than the face-up display.
    pub coin_stack: bool,
    /// What it asks for.
    pub requirement: Requirement,
    /// Its bonus power, if any.
    pub bonus: Option<Bonus>,
}

/// A player objective card (each player has the same set).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerObjective {
    /// The card's id in the data file.
    pub id: String,
    /// What it asks for.
    pub requirement: Requirement,
}

/// A production card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProductionCard {
    /// The card's id in the data file.
    pub id: String,
    /// The flag it adds when played as an upgrade.
    pub flag: Flag,
    /// Hat symbols of its upgrade cost.
    pub cost_hats: HatCounts,
    /// Dish tokens of its upgrade cost.
    pub cost_dishes: DishCounts,
    /// Coins of its upgrade cost.
    pub cost_coins: u16,
    /// The hat type it pays when discarded.
    pub hat_type: Hat,
    /// Dishes one table must have been served to complete it as a restaurant objective.
    pub objective: DishCounts,
    /// Its own market price (used when `market_price_mode = "card"`).
    pub card_price: u16,
}

/// A customer tile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Customer {
    /// The tile's id in the data file.
    pub id: String,
    /// Bit `d` is set when the customer orders dish `d` (one of each).
    pub orders: u8,
    /// Pays 1 coin when it leaves the table at Checkout.
    pub coin_on_leave: bool,
}

/// A board space's signposts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SpaceDef {
    /// Cost when no other marker is there.
    pub lower: HatCounts,
    /// Cost when another marker is there.
    pub higher: HatCounts,
    /// Markers it holds.
    pub capacity: u8,
}

/// Compiled card data for Tofu Shifu. Immutable; part of [`super::TofuShifu`].
#[derive(Debug, Clone, Serialize)]
pub struct CardData {
    /// Where the data came from (a path, or the embedded name).
    pub source: String,
    /// The file's `_status` text (for the default: PROPOSAL, reconstructed).
    pub status: String,
    /// Coins per dish sold.
    pub dish_values: [u16; 4],
    /// Dish tokens in the game.
    pub supply_dishes: [u16; 4],
    /// Hat tokens in the game (Chef, Waiter, Cashier, Master).
    pub supply_hats: [u16; 4],
    /// Coins in the game.
    pub supply_coins: u32,
    /// `pays[resource][cost]`: a hat of type `resource` may pay a hat cost of type `cost`.
    pub pays: [[bool; 5]; 5],
    /// Signposts of each space, indexed by [`Space`] (Copy's single signpost is both).
    pub spaces: [SpaceDef; 9],
    /// Seat: tiles drawn for free.
    pub seat_base_draw: u8,
    /// Seat: tiles drawn per extra payment.
    pub seat_extra_draw: u8,
    /// Seat: most extra payments.
    pub seat_max_extra: u8,
    /// Seat: the ways to make one extra payment.
    pub seat_extra_options: Vec<HatCounts>,
    /// Seat: the ways when the Seat action is copied.
    pub seat_extra_options_copied: Vec<HatCounts>,
    /// Serve: market sales per Serve.
    pub market_sales: u8,
    /// Market slots.
    pub market_slots: usize,
    /// Market price by slot, left to right.
    pub market_prices: Vec<u16>,
    /// The data file's default price mode.
    pub price_mode: PriceMode,
    /// Cards dealt to each player.
    pub hand_size: u8,
    /// Hand limit after Rest.
    pub hand_limit: u8,
    /// Start coins by seat.
    pub start_coins: Vec<u16>,
    /// Dish flags printed on the player board.
    pub board_dish_flags: DishCounts,
    /// Hat flags printed on the player board (Chef, Waiter, Cashier, Master).
    pub board_hat_flags: [u8; 4],
    /// Dish tokens on the board at set-up.
    pub board_dish_tokens: DishCounts,
    /// Hat tokens on the board at set-up.
    pub board_hat_tokens: [u8; 4],
    /// Tables on a board.
    pub tables_total: u8,
    /// Tables open at the start.
    pub tables_at_start: u8,
    /// Tables each Lantern opens.
    pub tables_per_lantern: u8,
    /// Customers per table.
    pub customers_per_table: u8,
    /// Objectives that end the game.
    pub end_objectives: u8,
    /// Town objective cards.
    pub town_objectives: Vec<TownObjective>,
    /// Player objective cards.
    pub player_objectives: Vec<PlayerObjective>,
    /// Production cards, indexed by card id.
    pub cards: Vec<ProductionCard>,
    /// Customer tiles, indexed by tile id.
    pub customers: Vec<Customer>,
    /// The file as read (after any reconstruction knobs), for writing it back out.
    #[serde(skip)]
    pub(super) raw: RawData,
}

impl DataFile for CardData {
    const GAME: &'static str = "Tofu Shifu";
    const BUILTIN: &'static [(&'static str, &'static str)] = &BUILTIN;
    const EMBEDDED_NAME: &'static str = EMBEDDED_NAME;

    /// Parses and validates data from JSON text; `file` names it in errors.
    fn parse(text: &str, file: &str) -> Result<CardData, EngineError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let raw: RawData = serde_path_to_error::deserialize(de).map_err(|e| {
            let field = e.path().to_string();
            let inner = e.into_inner();
            EngineError::Data {
                file: file.to_string(),
                line: inner.line(),
                column: inner.column(),
                field,
                message: inner.to_string(),
            }
        })?;
        compile(raw, file)
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn status(&self) -> &str {
        &self.status
    }

    /// The data in the data file's schema (pretty JSON), after any reconstruction knobs.
    fn text(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_json_pretty())
    }
}

impl CardData {
    /// The data in the data file's schema (pretty JSON): after reconstruction knobs, the file a
    /// user would pass with `--data` to play the same cards.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(&self.raw).expect("card data serialises")
    }
}

/// Compiles raw data (after knobs) into the tables the rules read.
pub(super) fn compile_raw(raw: RawData, file: &str) -> Result<CardData, EngineError> {
    compile(raw, file)
}

fn hat_counts(hats: &[Hat]) -> HatCounts {
    let mut c = [0u8; 5];
    for &h in hats {
        c[h as usize] += 1;
    }
    c
}

fn dish_counts(dishes: &[Dish]) -> DishCounts {
    let mut c = [0u8; 4];
    for &d in dishes {
        c[d as usize] += 1;
    }
    c
}

fn parse_requirement(
    map: &BTreeMap<String, u16>,
    file: &str,
    field: &str,
) -> Result<Requirement, EngineError> {
    let mut r = Requirement::default();
    for (key, &n) in map {
        let small = || {
            u8::try_from(n)
                .ok()
                .filter(|&x| x <= 30)
                .ok_or_else(|| EngineError::field(file, format!("{field}.{key}"), "at most 30"))
        };
        match key.as_str() {
            "coins" => r.coins = n,
            "LANTERN" => r.lantern = small()?,
            "DISH:ANY" => r.dish_any = small()?,
            "HAT:ANY" => r.hat_any = small()?,
            k if k.starts_with("DISH:") => {
                let d: Dish = serde_json::from_value(serde_json::Value::String(k[5..].into()))
                    .map_err(|_| {
                        EngineError::field(
                            file,
                            format!("{field}.{key}"),
                            "unknown dish (expected SOYMILK, SILKEN_TOFU, TOFU, DRIED_TOFU or ANY)",
                        )
                    })?;
                r.dish[d as usize] = small()?;
            }
            k if k.starts_with("HAT:") => {
                let h: Hat = serde_json::from_value(serde_json::Value::String(k[4..].into()))
                    .map_err(|_| {
                        EngineError::field(
                            file,
                            format!("{field}.{key}"),
                            "unknown hat (expected CHEF, WAITER, CASHIER, MASTER or ANY)",
                        )
                    })?;
                if h == Hat::Apprentice {
                    return Err(EngineError::field(
                        file,
                        format!("{field}.{key}"),
                        "there are no Apprentice hat upgrades",
                    ));
                }
                r.hat[h as usize] = small()?;
            }
            _ => {
                return Err(EngineError::field(
                    file,
                    format!("{field}.{key}"),
                    "unknown requirement key (expected coins, LANTERN, DISH:<dish>, DISH:ANY, HAT:<hat> or HAT:ANY)",
                ))
            }
        }
    }
    for (group, counts, any) in [("DISH", r.dish, r.dish_any), ("HAT", r.hat, r.hat_any)] {
        let n = counts.iter().map(|&x| x as usize).sum::<usize>() + any as usize;
        if n > MAX_FLAGS_OF_A_GROUP {
            return Err(EngineError::field(
                file,
                field,
                format!("asks for {n} {group} upgrades in all; at most {MAX_FLAGS_OF_A_GROUP}"),
            ));
        }
    }
    Ok(r)
}

/// Most flags of one group (Lanterns, dishes, hats) a player can hold, and an objective can ask
/// for: the objective checks count each in a byte's low seven bits.
const MAX_FLAGS_OF_A_GROUP: usize = 127;

/// Most symbols in one list (a cost, an order, an objective): the counters are small.
const MAX_LIST: usize = 8;

/// A list of at most [`MAX_LIST`] entries.
fn list(field: String, n: usize) -> Result<(), BadField> {
    entries(field, n, 0, MAX_LIST)
}

/// A number from 0 to `max`.
fn at_most(field: &str, n: u64, max: u64) -> Result<(), BadField> {
    range(field, n, 0, max)
}

/// Checks every list and number against the sizes the compiled tables hold, and that ids are
/// unique, before anything is compiled.
fn check_sizes(raw: &RawData, file: &str) -> Result<(), EngineError> {
    let in_file = |b: BadField| b.in_file(file);
    check_counts(raw).map_err(in_file)?;
    for (s, r) in &raw.spaces {
        check_space_sizes(*s, r).map_err(in_file)?;
    }
    check_card_sizes(raw).map_err(in_file)?;
    check_unique_ids(raw, file)
}

/// Dish values, the supply and the set-up numbers.
fn check_counts(raw: &RawData) -> Result<(), BadField> {
    for (d, &n) in &raw.dish_values {
        at_most(&format!("dish_values.{d:?}"), n as u64, 1_000)?;
    }
    for (d, &n) in &raw.supply.dish_tokens {
        at_most(&format!("supply.dish_tokens.{d:?}"), n as u64, 1_000)?;
    }
    for (h, &n) in &raw.supply.hat_tokens {
        at_most(&format!("supply.hat_tokens.{h:?}"), n as u64, 1_000)?;
    }
    at_most("supply.coins", raw.supply.coins as u64, 10_000)?;
    for (i, &c) in raw.setup.start_coins_by_seat.iter().enumerate() {
        at_most(&format!("setup.start_coins_by_seat[{i}]"), c as u64, 1_000)?;
    }
    at_most("setup.hand_size", raw.setup.hand_size as u64, 32)?;
    at_most("setup.hand_limit", raw.setup.hand_limit as u64, 32)?;
    at_most(
        "setup.end_trigger_objectives",
        raw.setup.end_trigger_objectives as u64,
        32,
    )?;
    list(
        "setup.player_board_flags".into(),
        raw.setup.player_board_flags.len(),
    )
}

fn check_space_sizes(s: Space, r: &RawSpace) -> Result<(), BadField> {
    let name = serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    for (k, v) in [
        ("lower", &r.lower),
        ("higher", &r.higher),
        ("single", &r.single),
        ("cost", &r.cost),
    ] {
        if let Some(v) = v {
            list(format!("spaces.{name}.{k}"), v.len())?;
        }
    }
    for (k, v) in [
        ("extra_payment_options", &r.extra_payment_options),
        (
            "extra_payment_options_when_copied",
            &r.extra_payment_options_when_copied,
        ),
    ] {
        for (i, o) in v.iter().flatten().enumerate() {
            list(format!("spaces.{name}.{k}[{i}]"), o.len())?;
        }
    }
    for (k, v) in [
        ("base_draw", r.base_draw),
        ("extra_draw_per_payment", r.extra_draw_per_payment),
        ("max_extra_payments", r.max_extra_payments),
        ("market_sales_per_action", r.market_sales_per_action),
    ] {
        at_most(&format!("spaces.{name}.{k}"), v.unwrap_or(0) as u64, 16)?;
    }
    Ok(())
}

/// Production cards, market prices and objectives' coin requirements.
fn check_card_sizes(raw: &RawData) -> Result<(), BadField> {
    for (i, c) in raw.production_cards.iter().enumerate() {
        let f = |k: &str| format!("production_cards[{i}].{k}");
        list(f("upgrade_cost.hats"), c.upgrade_cost.hats.len())?;
        list(f("upgrade_cost.dishes"), c.upgrade_cost.dishes.len())?;
        list(f("objective_requirement"), c.objective_requirement.len())?;
        at_most(&f("upgrade_cost.coins"), c.upgrade_cost.coins as u64, 1_000)?;
        at_most(&f("alt_card_price"), c.alt_card_price as u64, 1_000)?;
    }
    for (i, &p) in raw.market.slot_prices_left_to_right.iter().enumerate() {
        at_most(
            &format!("market.slot_prices_left_to_right[{i}]"),
            p as u64,
            1_000,
        )?;
    }
    let coins = |r: &BTreeMap<String, u16>| *r.get("coins").unwrap_or(&0) as u64;
    for (i, o) in raw.town_objectives.iter().enumerate() {
        let f = format!("town_objectives[{i}].requirement.coins");
        at_most(&f, coins(&o.requirement), 1_000)?;
    }
    for (i, o) in raw.player_objectives.iter().enumerate() {
        let f = format!("player_objectives[{i}].requirement.coins");
        at_most(&f, coins(&o.requirement), 1_000)?;
    }
    Ok(())
}

/// Production cards, customers and objectives are picked out by id: each id once per kind.
fn check_unique_ids(raw: &RawData, file: &str) -> Result<(), EngineError> {
    let unique = |field: &str, ids: Vec<&String>| {
        for (i, id) in ids.iter().enumerate() {
            if ids[..i].contains(id) {
                return Err(EngineError::field(
                    file,
                    format!("{field}[{i}].id"),
                    format!("`{id}` is used twice"),
                ));
            }
        }
        Ok(())
    };
    unique(
        "production_cards",
        raw.production_cards.iter().map(|c| &c.id).collect(),
    )?;
    unique("customers", raw.customers.iter().map(|c| &c.id).collect())?;
    let objective_ids = raw
        .town_objectives
        .iter()
        .map(|o| &o.id)
        .chain(raw.player_objectives.iter().map(|o| &o.id))
        .collect();
    unique("town_objectives/player_objectives", objective_ids)?;
    Ok(())
}

/// Builds an error at a field of the file being compiled.
type At<'a> = dyn Fn(&str, String) -> EngineError + 'a;

/// A [`BadField`] as the error `err` builds at its field.
fn placed<'a>(err: &'a At) -> impl Fn(BadField) -> EngineError + Copy + 'a {
    move |b| err(&b.field, b.message)
}

fn compile(raw: RawData, file: &str) -> Result<CardData, EngineError> {
    check_sizes(&raw, file)?;
    let kept = raw.clone();
    let err = |field: &str, msg: String| EngineError::field(file, field, msg);
    let tokens = compile_tokens(&raw, &err)?;
    let pays = compile_payment(&raw, &err)?;
    let spaces = compile_spaces(&raw, &err)?;
    check_market(&raw.market, &err)?;
    let board = compile_board(&raw.setup, &err)?;
    if raw.supply.coins == 0 {
        return Err(err(
            "supply.coins",
            "0 coins: every coin a player gains comes from this supply, so no coin could be paid"
                .into(),
        ));
    }
    let (town_objectives, player_objectives) = compile_objectives(&raw, file, &err)?;
    let cards = compile_cards(&raw, &board, &err)?;
    let customers = compile_customers(&raw, &err)?;
    let setup = &raw.setup;
    if setup.start_coins_by_seat.len() < MAX_PLAYERS {
        return Err(err(
            "setup.start_coins_by_seat",
            format!("needs {MAX_PLAYERS} entries, one per seat"),
        ));
    }
    let (seat, t) = (&spaces.seat, &setup.tables);
    Ok(CardData {
        source: file.to_string(),
        status: raw.status,
        dish_values: tokens.dish_values,
        supply_dishes: tokens.supply_dishes,
        supply_hats: tokens.supply_hats,
        supply_coins: raw.supply.coins,
        pays,
        spaces: spaces.spaces,
        seat_base_draw: seat.base_draw.unwrap_or(2),
        seat_extra_draw: seat.extra_draw_per_payment.unwrap_or(2),
        seat_max_extra: seat.max_extra_payments.unwrap_or(3),
        seat_extra_options: spaces.seat_extra_options,
        seat_extra_options_copied: spaces.seat_extra_options_copied,
        market_sales: spaces.market_sales,
        market_slots: raw.market.slots,
        market_prices: raw.market.slot_prices_left_to_right.clone(),
        price_mode: raw.market.price_mode,
        hand_size: setup.hand_size,
        hand_limit: setup.hand_limit,
        start_coins: setup.start_coins_by_seat.clone(),
        board_dish_flags: board.dish_flags,
        board_hat_flags: board.hat_flags,
        board_dish_tokens: board.dish_tokens,
        board_hat_tokens: board.hat_tokens,
        tables_total: t.total,
        tables_at_start: t.unlocked_at_start,
        tables_per_lantern: t.unlock_per_lantern,
        customers_per_table: t.customers_per_table,
        end_objectives: setup.end_trigger_objectives,
        town_objectives,
        player_objectives,
        cards,
        customers,
        raw: kept,
    })
}

/// Dish values and the token supply, per dish and hat.
struct Tokens {
    dish_values: [u16; 4],
    supply_dishes: [u16; 4],
    supply_hats: [u16; 4],
}

fn compile_tokens(raw: &RawData, err: &At) -> Result<Tokens, EngineError> {
    let mut dish_values = [0u16; 4];
    for d in Dish::ALL {
        dish_values[d as usize] = *raw
            .dish_values
            .get(&d)
            .ok_or_else(|| err("dish_values", format!("missing {d:?}")))?;
    }
    let mut supply_dishes = [0u16; 4];
    for d in Dish::ALL {
        supply_dishes[d as usize] = *raw
            .supply
            .dish_tokens
            .get(&d)
            .ok_or_else(|| err("supply.dish_tokens", format!("missing {d:?}")))?;
    }
    let mut supply_hats = [0u16; 4];
    for h in Hat::TOKENS {
        supply_hats[h as usize] = *raw
            .supply
            .hat_tokens
            .get(&h)
            .ok_or_else(|| err("supply.hat_tokens", format!("missing {h:?}")))?;
    }
    if raw.supply.hat_tokens.contains_key(&Hat::Apprentice) {
        return Err(err(
            "supply.hat_tokens.APPRENTICE",
            "there are no Apprentice hat tokens".into(),
        ));
    }
    Ok(Tokens {
        dish_values,
        supply_dishes,
        supply_hats,
    })
}

fn compile_payment(raw: &RawData, err: &At) -> Result<[[bool; 5]; 5], EngineError> {
    let mut pays = [[false; 5]; 5];
    for h in Hat::ALL {
        let list = raw
            .hat_payment
            .get(&h)
            .ok_or_else(|| err("hat_payment", format!("missing {h:?}")))?;
        for &c in list {
            pays[h as usize][c as usize] = true;
        }
    }
    Ok(pays)
}

/// The action spaces' signposts, and the Seat and Serve spaces' own numbers.
struct Spaces {
    spaces: [SpaceDef; 9],
    seat: RawSpace,
    market_sales: u8,
    seat_extra_options: Vec<HatCounts>,
    seat_extra_options_copied: Vec<HatCounts>,
}

fn compile_spaces(raw: &RawData, err: &At) -> Result<Spaces, EngineError> {
    let mut spaces = [SpaceDef {
        lower: [0; 5],
        higher: [0; 5],
        capacity: 2,
    }; 9];
    let mut seat = None;
    let mut market_sales = 1;
    for s in Space::ALL {
        let name = serde_json::to_value(s).unwrap();
        let name = name.as_str().unwrap_or("?");
        let f = format!("spaces.{name}");
        let r = raw
            .spaces
            .get(&s)
            .ok_or_else(|| err("spaces", format!("missing {name}")))?;
        let def = space_def(s, r, &f, err)?;
        range(
            format!("{f}.capacity"),
            def.capacity.into(),
            1,
            u8::MAX.into(),
        )
        .map_err(placed(err))?;
        spaces[s as usize] = def;
        if s == Space::Seat {
            seat = Some(r.clone());
        }
        if s == Space::Serve {
            market_sales = r.market_sales_per_action.unwrap_or(1);
        }
    }
    let seat = seat.expect("checked above");
    let seat_extra_options: Vec<HatCounts> = seat
        .extra_payment_options
        .clone()
        .unwrap_or_else(|| vec![vec![Hat::Waiter]])
        .iter()
        .map(|o| hat_counts(o))
        .collect();
    let seat_extra_options_copied: Vec<HatCounts> = seat
        .extra_payment_options_when_copied
        .as_ref()
        .map(|v| v.iter().map(|o| hat_counts(o)).collect())
        .unwrap_or_else(|| seat_extra_options.clone());
    let options = "spaces.SEAT.extra_payment_options";
    entries(options, seat_extra_options.len(), 0, 8).map_err(placed(err))?;
    let copied = format!("{options}_when_copied");
    entries(copied, seat_extra_options_copied.len(), 0, 8).map_err(placed(err))?;
    Ok(Spaces {
        spaces,
        seat,
        market_sales,
        seat_extra_options,
        seat_extra_options_copied,
    })
}

/// One space's signposts: Copy has a single one, Rest a cost, the others a lower and a higher.
fn space_def(s: Space, r: &RawSpace, f: &str, err: &At) -> Result<SpaceDef, EngineError> {
    Ok(match s {
        Space::Copy => {
            let single = r
                .single
                .as_ref()
                .ok_or_else(|| err(f, "Copy needs `single` (one signpost)".into()))?;
            SpaceDef {
                lower: hat_counts(single),
                higher: hat_counts(single),
                capacity: r.capacity.unwrap_or(1),
            }
        }
        Space::Rest => {
            let cost = r.cost.clone().unwrap_or_default();
            SpaceDef {
                lower: hat_counts(&cost),
                higher: hat_counts(&cost),
                capacity: u8::MAX,
            }
        }
        _ => {
            let lower = r
                .lower
                .as_ref()
                .ok_or_else(|| err(f, "missing `lower` signpost".into()))?;
            let higher = r
                .higher
                .as_ref()
                .ok_or_else(|| err(f, "missing `higher` signpost".into()))?;
            SpaceDef {
                lower: hat_counts(lower),
                higher: hat_counts(higher),
                capacity: r.capacity.unwrap_or(2),
            }
        }
    })
}

fn check_market(m: &RawMarket, err: &At) -> Result<(), EngineError> {
    range("market.slots", m.slots as u64, 1, MAX_MARKET as u64).map_err(placed(err))?;
    if m.slot_prices_left_to_right.len() != m.slots {
        return Err(err(
            "market.slot_prices_left_to_right",
            format!(
                "has {} prices for {} slots",
                m.slot_prices_left_to_right.len(),
                m.slots
            ),
        ));
    }
    if m.new_cards_enter != "leftmost" {
        return Err(err(
            "market.new_cards_enter",
            format!(
                "only \"leftmost\" is supported, got {:?}",
                m.new_cards_enter
            ),
        ));
    }
    Ok(())
}

/// The flags and tokens printed on a player board.
struct Board {
    dish_flags: DishCounts,
    hat_flags: [u8; 4],
    dish_tokens: DishCounts,
    hat_tokens: [u8; 4],
}

/// The player board's flags, then the tables and the face-up Town objectives.
fn compile_board(setup: &RawSetup, err: &At) -> Result<Board, EngineError> {
    let mut b = Board {
        dish_flags: [0; 4],
        hat_flags: [0; 4],
        dish_tokens: [0; 4],
        hat_tokens: [0; 4],
    };
    for (i, fl) in setup.player_board_flags.iter().enumerate() {
        let f = format!("setup.player_board_flags[{i}]");
        match (fl.kind, fl.dish, fl.hat) {
            (FlagKind::Dish, Some(d), None) => {
                b.dish_flags[d as usize] += 1;
                b.dish_tokens[d as usize] += fl.token as u8;
            }
            (FlagKind::Hat, None, Some(h)) if h != Hat::Apprentice => {
                b.hat_flags[h as usize] += 1;
                b.hat_tokens[h as usize] += fl.token as u8;
            }
            _ => {
                return Err(err(
                    &f,
                    "a board flag is DISH with `dish` or HAT with a token `hat`".into(),
                ))
            }
        }
    }
    check_tables(&setup.tables, err)?;
    if setup.town_objectives_face_up != "player_count" {
        return Err(err(
            "setup.town_objectives_face_up",
            "only \"player_count\" is supported".into(),
        ));
    }
    Ok(b)
}

/// The tables: how many, how many open at the start, and their seats.
fn check_tables(t: &RawTables, err: &At) -> Result<(), EngineError> {
    let f = |k: &str| format!("setup.tables.{k}");
    let (most, seats) = (MAX_TABLES as u64, SEATS_PER_TABLE as u64);
    range(f("total"), t.total.into(), 1, most).map_err(placed(err))?;
    range(
        f("unlocked_at_start"),
        t.unlocked_at_start.into(),
        1,
        t.total.into(),
    )
    .map_err(placed(err))?;
    range(
        f("customers_per_table"),
        t.customers_per_table.into(),
        1,
        seats,
    )
    .map_err(placed(err))
}

fn compile_objectives(
    raw: &RawData,
    file: &str,
    err: &At,
) -> Result<(Vec<TownObjective>, Vec<PlayerObjective>), EngineError> {
    if raw.town_objectives.is_empty() {
        return Err(err(
            "town_objectives",
            "no Town objectives: the face-up display, one per player, is dealt from them".into(),
        ));
    }
    let n = raw.town_objectives.len();
    entries("town_objectives", n, 1, MAX_TOWN_OBJECTIVES).map_err(placed(err))?;
    let mut town_objectives = Vec::new();
    for (i, o) in raw.town_objectives.iter().enumerate() {
        let f = format!("town_objectives[{i}].requirement");
        town_objectives.push(TownObjective {
            id: o.id.clone(),
            coin_stack: o.kind == TownKind::CoinStack,
            requirement: parse_requirement(&o.requirement, file, &f)?,
            bonus: o.bonus.as_ref().map(|b| b.key),
        });
    }
    if raw.supply.town_objectives != town_objectives.len() {
        return Err(err(
            "supply.town_objectives",
            format!(
                "says {} but town_objectives lists {}",
                raw.supply.town_objectives,
                town_objectives.len()
            ),
        ));
    }
    let n = raw.player_objectives.len();
    entries("player_objectives", n, 0, MAX_PLAYER_OBJECTIVES).map_err(placed(err))?;
    let mut player_objectives = Vec::new();
    for (i, o) in raw.player_objectives.iter().enumerate() {
        let f = format!("player_objectives[{i}].requirement");
        player_objectives.push(PlayerObjective {
            id: o.id.clone(),
            requirement: parse_requirement(&o.requirement, file, &f)?,
        });
    }
    Ok((town_objectives, player_objectives))
}

fn compile_cards(
    raw: &RawData,
    board: &Board,
    err: &At,
) -> Result<Vec<ProductionCard>, EngineError> {
    let n = raw.production_cards.len();
    entries("production_cards", n, 0, MAX_CARDS).map_err(placed(err))?;
    if raw.supply.production_cards != raw.production_cards.len() {
        return Err(err(
            "supply.production_cards",
            format!(
                "says {} but production_cards lists {}",
                raw.supply.production_cards,
                raw.production_cards.len()
            ),
        ));
    }
    let mut cards = Vec::new();
    for (i, c) in raw.production_cards.iter().enumerate() {
        let f = format!("production_cards[{i}].bonus");
        let flag = match (c.bonus.kind, c.bonus.dish, c.bonus.hat) {
            (FlagKind::Dish, Some(d), None) => Flag::Dish(d),
            (FlagKind::Hat, None, Some(h)) if h != Hat::Apprentice => Flag::Hat(h),
            (FlagKind::Lantern, None, None) => Flag::Lantern,
            _ => return Err(err(
                &f,
                "expected {type: DISH, dish}, {type: HAT, hat} (not APPRENTICE) or {type: LANTERN}"
                    .into(),
            )),
        };
        if c.objective_requirement.is_empty() {
            return Err(err(
                &format!("production_cards[{i}].objective_requirement"),
                "must name at least one dish".into(),
            ));
        }
        cards.push(ProductionCard {
            id: c.id.clone(),
            flag,
            cost_hats: hat_counts(&c.upgrade_cost.hats),
            cost_dishes: dish_counts(&c.upgrade_cost.dishes),
            cost_coins: c.upgrade_cost.coins,
            hat_type: c.hat_type,
            objective: dish_counts(&c.objective_requirement),
            card_price: c.alt_card_price,
        });
    }
    check_flag_groups(&cards, board, err)?;
    let min_cards = raw.market.slots;
    if cards.len() < min_cards {
        return Err(err(
            "production_cards",
            format!("need at least {min_cards} cards to fill the market"),
        ));
    }
    Ok(cards)
}

/// A player's flag counts of a group (Lanterns, dishes, hats) are checked against objectives
/// one per byte, below 128 (`objectives::covers`): a group can give no more flags than that.
fn check_flag_groups(cards: &[ProductionCard], b: &Board, err: &At) -> Result<(), EngineError> {
    let board = |x: &[u8; 4]| x.iter().map(|&n| n as usize).sum::<usize>();
    let mut given = [0usize; 3];
    for c in cards {
        given[match c.flag {
            Flag::Lantern => 0,
            Flag::Dish(_) => 1,
            Flag::Hat(_) => 2,
        }] += 1;
    }
    for ((group, board_flags), n) in [
        ("LANTERN", 0),
        ("DISH", board(&b.dish_flags)),
        ("HAT", board(&b.hat_flags)),
    ]
    .into_iter()
    .zip(given)
    {
        if n + board_flags > MAX_FLAGS_OF_A_GROUP {
            return Err(err(
                "production_cards",
                format!(
                    "{n} cards give {group} flags (and the player board {board_flags}): a \
                     player could hold more than {MAX_FLAGS_OF_A_GROUP}, the most the objective \
                     checks count"
                ),
            ));
        }
    }
    Ok(())
}

fn compile_customers(raw: &RawData, err: &At) -> Result<Vec<Customer>, EngineError> {
    entries("customers", raw.customers.len(), 0, MAX_TILES).map_err(placed(err))?;
    if raw.supply.customer_tiles != raw.customers.len() {
        return Err(err(
            "supply.customer_tiles",
            format!(
                "says {} but customers lists {}",
                raw.supply.customer_tiles,
                raw.customers.len()
            ),
        ));
    }
    let mut customers = Vec::new();
    for (i, c) in raw.customers.iter().enumerate() {
        let mut orders = 0u8;
        for &d in &c.orders {
            if orders & (1 << d as u8) != 0 {
                return Err(err(
                    &format!("customers[{i}].orders"),
                    format!("orders {d:?} twice; a customer accepts one of each dish"),
                ));
            }
            orders |= 1 << d as u8;
        }
        if orders == 0 {
            return Err(err(
                &format!("customers[{i}].orders"),
                "must order at least one dish".into(),
            ));
        }
        customers.push(Customer {
            id: c.id.clone(),
            orders,
            coin_on_leave: c.coin_on_leave,
        });
    }
    Ok(customers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_loads_and_is_marked_reconstructed() {
        let d = CardData::embedded();
        assert!(d.status.contains("PROPOSAL"));
        assert_eq!(d.cards.len(), 80);
        assert_eq!(d.customers.len(), 40);
        assert_eq!(d.town_objectives.len(), 14);
        assert_eq!(d.dish_values, [1, 2, 3, 4]);
        assert_eq!(d.supply_dishes, [16, 16, 12, 12]);
    }

    #[test]
    fn malformed_file_names_field_and_line() {
        let bad = EMBEDDED_JSON.replacen("\"coins\": 80", "\"coins\": \"lots\"", 1);
        let e = CardData::parse(&bad, "mine.json").unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("mine.json:"), "{msg}");
        assert!(msg.contains("supply.coins"), "{msg}");
    }

    #[test]
    fn unknown_field_is_an_error() {
        let bad = EMBEDDED_JSON.replacen("\"dish_values\"", "\"dish_valuez\"", 1);
        let msg = CardData::parse(&bad, "mine.json").unwrap_err().to_string();
        assert!(msg.contains("dish_valuez"), "{msg}");
    }

    /// The objective checks count a group's flags in a byte's low seven bits: a requirement
    /// asking for more than 127 of a group, or cards that could give a player more, are errors
    /// naming the field, not silently wrong checks.
    #[test]
    fn flag_groups_beyond_what_objective_checks_count_are_errors() {
        use serde_json::{json, Value};
        let error_of = |v: &Value| {
            CardData::parse(&v.to_string(), "mine.json")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        let mut v: Value = serde_json::from_str(EMBEDDED_JSON).unwrap();
        *v.pointer_mut("/town_objectives/0/requirement").unwrap() = json!({
            "DISH:SOYMILK": 30, "DISH:SILKEN_TOFU": 30, "DISH:TOFU": 30, "DISH:DRIED_TOFU": 30,
            "DISH:ANY": 8
        });
        let msg = error_of(&v);
        assert!(
            msg.contains("town_objectives[0].requirement") && msg.contains("128 DISH"),
            "{msg}"
        );
        // One short of the limit is accepted.
        *v.pointer_mut("/town_objectives/0/requirement/DISH:ANY")
            .unwrap() = json!(7);
        CardData::parse(&v.to_string(), "mine.json").unwrap();

        // 128 cards giving dish flags, on top of the board's.
        let mut v: Value = serde_json::from_str(EMBEDDED_JSON).unwrap();
        let first = v["production_cards"][0].clone();
        let cards: Vec<Value> = (0..128)
            .map(|i| {
                let mut c = first.clone();
                c["id"] = json!(format!("X{i}"));
                c["bonus"] = json!({"type": "DISH", "dish": "TOFU"});
                c
            })
            .collect();
        v["production_cards"] = json!(cards);
        v["supply"]["production_cards"] = json!(128);
        let msg = error_of(&v);
        assert!(
            msg.contains("production_cards") && msg.contains("128 cards give DISH flags"),
            "{msg}"
        );
    }

    #[test]
    fn oversized_lists_numbers_and_duplicate_ids_are_errors_naming_the_field() {
        use serde_json::{json, Value};
        let edit = |path: &str, value: Value| {
            let mut v: Value = serde_json::from_str(EMBEDDED_JSON).unwrap();
            *v.pointer_mut(path).unwrap() = value;
            v.to_string()
        };
        let cases = [
            (
                edit(
                    "/production_cards/0/upgrade_cost/hats",
                    json!(vec!["CHEF"; 128]),
                ),
                "production_cards[0].upgrade_cost.hats",
            ),
            (
                edit("/supply/coins", json!(4_000_000_000u64)),
                "supply.coins",
            ),
            (
                edit("/production_cards/1/id", json!("P01")),
                "production_cards[1].id",
            ),
            (edit("/customers/1/id", json!("C01")), "customers[1].id"),
            (
                edit("/town_objectives/0/requirement/coins", json!(65_536)),
                "town_objectives[0].requirement.coins",
            ),
            (
                edit("/setup/tables/unlocked_at_start", json!(9)),
                "field `setup.tables.unlocked_at_start`: must be from 1 to ",
            ),
            (
                edit("/market/slots", json!(0)),
                "field `market.slots`: must be from 1 to 8, got 0",
            ),
        ];
        for (text, field) in cases {
            let msg = CardData::parse(&text, "mine.json")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(
                msg.contains(field) && msg.starts_with("mine.json"),
                "{field}: {msg}"
            );
        }
    }

    #[test]
    fn bad_requirement_key_names_the_field() {
        let bad = EMBEDDED_JSON.replacen("\"LANTERN\": 2", "\"LANTERNS\": 2", 1);
        let msg = CardData::parse(&bad, "mine.json").unwrap_err().to_string();
        assert!(msg.contains("requirement.LANTERNS"), "{msg}");
    }
}
