//! The Ginza Retro Café data file (YAML): the rulebook's numbers, the colour link between order
//! categories and Arrange cards, the order cards, the customers, the player cards and the bonus
//! cards.
//!
//! The embedded default is `engine/data/ginza_retro_cafe.reconstructed.yaml`: the project's
//! reconstruction (`../shared/data/ginza_retro_cafe_*.reconstructed.yaml`) in one file. A user
//! replaces it with `--data file.yaml`; errors name the file, line and field.

use crate::data_file::{range, BadField, DataFile};
use crate::data_names::unique_names;
use crate::error::{locate, EngineError};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

const EMBEDDED_YAML: &str = include_str!("../../data/ginza_retro_cafe.reconstructed.yaml");
const EMBEDDED_NAME: &str = "<embedded ginza_retro_cafe.reconstructed.yaml>";

/// Most order cards a data file may hold (an order set is a `u64`).
pub const MAX_ORDERS: usize = 64;
/// Most customer cards per time of day (a customer set is a `u16`).
pub const MAX_CUSTOMERS: usize = 16;
/// Most orders on one customer card.
pub const MAX_CUSTOMER_ORDERS: usize = 3;
/// Most player cards.
pub const MAX_PLAYER_CARDS: usize = 16;
/// Most bonus cards (a bonus set is a `u16`).
pub const MAX_BONUS: usize = 16;
/// Order ranks (decks I, II, III).
pub const RANKS: usize = 3;
/// Times of day: Morning, Daytime, Night.
pub const PERIODS: usize = 3;
/// The order categories, in the order of [`Category`].
pub const CATEGORIES: [&str; 3] = ["Drink", "Dessert", "Food"];
/// The Arrange cards, in the order of [`Arrange`].
pub const ARRANGES: [&str; 3] = ["change", "reroll", "add"];
/// Most dice a player may hold (every colour has 9).
pub const MAX_DICE: u8 = 9;

/// An order category.
pub type Category = u8;

/// An Arrange card: 0 Change Dice Rolls, 1 Reroll Dice, 2 Add Dice.
pub type Arrange = u8;

/// The dice an order needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Condition {
    /// Drink: "N+", dice adding up to N or more.
    SumAtLeast(u8),
    /// Dessert and Food: these faces exactly (a count per face 1..6).
    Faces([u8; 6]),
}

const COUNT_WORDS: [&str; 9] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];

impl TryFrom<String> for Condition {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let t = s.trim();
        let bad = || {
            format!(
                "cannot read the serve condition `{s}`; write `N+` (a Drink: dice adding up to N \
                 or more), `two 3s` (a count word and a face), or faces like `1,4` or `2,2,6`"
            )
        };
        if let Some(n) = t.strip_suffix('+') {
            return match n.trim().parse::<u8>() {
                Ok(n) if (1..=60).contains(&n) => Ok(Condition::SumAtLeast(n)),
                _ => Err(format!(
                    "serve condition `{s}`: N in `N+` must be from 1 to 60"
                )),
            };
        }
        let mut faces = [0u8; 6];
        if let Some((word, face)) = t.split_once(' ') {
            let k = COUNT_WORDS
                .iter()
                .position(|w| *w == word)
                .ok_or_else(bad)? as u8
                + 1;
            let f = face
                .strip_suffix('s')
                .and_then(|f| f.parse::<usize>().ok())
                .filter(|f| (1..=6).contains(f))
                .ok_or_else(bad)?;
            faces[f - 1] = k;
        } else {
            for part in t.split(',') {
                let f = part
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|f| (1..=6).contains(f))
                    .ok_or_else(bad)?;
                faces[f - 1] += 1;
            }
        }
        if faces.iter().sum::<u8>() > MAX_DICE {
            return Err(format!(
                "serve condition `{s}` needs more than {MAX_DICE} dice"
            ));
        }
        Ok(Condition::Faces(faces))
    }
}

impl From<Condition> for String {
    fn from(c: Condition) -> String {
        match c {
            Condition::SumAtLeast(n) => format!("{n}+"),
            Condition::Faces(f) => {
                let mut parts = Vec::new();
                for (i, &k) in f.iter().enumerate() {
                    for _ in 0..k {
                        parts.push((i + 1).to_string());
                    }
                }
                parts.join(",")
            }
        }
    }
}

/// An order card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Order {
    /// Its deck: 0, 1, 2 for I, II, III.
    pub rank: u8,
    /// Drink, Dessert or Food (an index into [`CATEGORIES`]).
    pub category: Category,
    /// Its subcategory (an index into [`GinzaData::subcategories`]).
    pub subcategory: u8,
    /// Its name.
    pub name: String,
    /// The dice it needs.
    pub serve: Condition,
    /// Coins a serve earns.
    pub coins: u8,
    /// Its VP.
    pub vp: u8,
}

/// A customer card: its name and the ranks of the order cards it asks for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Customer {
    /// Its name.
    pub name: String,
    /// Ranks of its orders (0, 1, 2 for I, II, III).
    pub orders: Vec<u8>,
}

/// A player ability in the engine's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Ability {
    /// `start_level KIND`: start the game with that Arrange card at Lv.2.
    StartLevel(Arrange),
    /// `common_die_price N`: a common die costs ¥N.
    CommonDiePrice(u8),
    /// `arrange_price N`: raising an Arrange Lv. costs ¥N.
    ArrangePrice(u8),
    /// `drink_bonus N`: once per round, a Drink order counts the dice total as N more.
    DrinkBonus(u8),
}

impl TryFrom<String> for Ability {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let num = || -> Result<u8, String> {
            match words.as_slice() {
                [_, x] => x
                    .parse::<u8>()
                    .ok()
                    .filter(|v| *v <= 20)
                    .ok_or_else(|| format!("ability `{s}`: the number must be from 0 to 20")),
                _ => Err(format!("ability `{s}` takes one number")),
            }
        };
        match words.first().copied().unwrap_or("") {
            "start_level" => match words.as_slice() {
                [_, k] => ARRANGES
                    .iter()
                    .position(|a| a == k)
                    .map(|k| Ability::StartLevel(k as u8))
                    .ok_or_else(|| {
                        format!("ability `{s}`: the Arrange card is change, reroll or add")
                    }),
                _ => Err(format!(
                    "ability `{s}` takes one Arrange card: change, reroll or add"
                )),
            },
            "common_die_price" => num().map(Ability::CommonDiePrice),
            "arrange_price" => num().map(Ability::ArrangePrice),
            "drink_bonus" => num().map(Ability::DrinkBonus),
            _ => Err(format!(
                "unknown player ability `{s}`; known: start_level change|reroll|add, \
                 common_die_price N, arrange_price N, drink_bonus N"
            )),
        }
    }
}

impl From<Ability> for String {
    fn from(a: Ability) -> String {
        match a {
            Ability::StartLevel(k) => format!("start_level {}", ARRANGES[k as usize]),
            Ability::CommonDiePrice(n) => format!("common_die_price {n}"),
            Ability::ArrangePrice(n) => format!("arrange_price {n}"),
            Ability::DrinkBonus(n) => format!("drink_bonus {n}"),
        }
    }
}

/// A player card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerCard {
    /// Its name.
    pub name: String,
    /// Its ability, in words.
    pub ability: String,
    /// Coins for washing with 0, 1, 2, ... ones (the length sets the most ones).
    pub dishwashing: Vec<u8>,
    /// The dice limit it starts with.
    pub dice_limit_start: u8,
    /// Its ability in the engine's words.
    #[serde(rename = "do")]
    pub act: Vec<Ability>,
}

impl PlayerCard {
    /// The Arrange levels it starts with (1 or 2 each).
    pub fn start_levels(&self) -> [u8; 3] {
        let mut lv = [1u8; 3];
        for a in &self.act {
            if let Ability::StartLevel(k) = a {
                lv[*k as usize] = 2;
            }
        }
        lv
    }
}

/// A bonus card's condition, compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BonusCondition {
    /// At least N order cards of a subcategory.
    SubcategoryAtLeast(u8, u8),
    /// At least one order card of each subcategory in the set (bits over subcategories).
    EachAtLeastOne(u16),
    /// The most (ties included when the flag is set) order cards of a category.
    MostOfCategory(Category, bool),
    /// The most order cards (ties included when the flag is set).
    MostOrderCards(bool),
    /// At least N order cards of each category.
    EachCategoryAtLeast([u8; 3]),
}

/// A bonus card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bonus {
    /// Its name.
    pub name: String,
    /// Its VP.
    pub vp: u8,
    /// Its condition.
    pub cond: BonusCondition,
}

/// The numbers the rulebook prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rulebook {
    /// Action tokens each player receives, by player count.
    pub action_tokens: BTreeMap<u8, u8>,
    /// Dice of each player colour.
    pub dice_per_colour: u8,
    /// Dice each player receives at set-up.
    pub start_dice: u8,
    /// Common (purple) dice.
    pub common_dice: u8,
    /// Coins a common die costs.
    pub common_die_price: u8,
    /// Player cards dealt to each player.
    pub player_cards_dealt: u8,
    /// Bonus cards dealt to each player in the draft.
    pub bonus_dealt: u8,
    /// Customers at the café at once.
    pub customers_present: u8,
    /// The Time marker a customer arrives with.
    pub time_marker: u8,
    /// Coins to a player with tokens on two or more orders of a served customer.
    pub multi_order_bonus: u8,
    /// VP of matching-colour order cards needed to raise an Arrange level.
    pub arrange_upgrade_vp: u8,
    /// Coins to raise an Arrange level.
    pub arrange_upgrade_price: u8,
    /// Coins to raise the dice limit from 5 to 6, 6 to 7, ...
    pub dice_limit_prices: Vec<u8>,
    /// Coins per VP at scoring.
    pub yen_per_vp: u8,
    /// Adjustments by Change Dice Rolls at Lv.1 and Lv.2.
    pub change_steps: [u8; 2],
    /// Rerolls by Reroll Dice at Lv.1 and Lv.2.
    pub rerolls: [u8; 2],
    /// Dice added by Add Dice at Lv.1 and Lv.2 (never past the dice limit).
    pub add_dice: [u8; 2],
    /// Coins in the box.
    pub bank_yen: u16,
}

/// The data, validated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GinzaData {
    /// Where the data came from (a file path or the embedded file's name).
    pub source: String,
    /// Provenance, from the file's `status` field.
    pub status: String,
    /// The rulebook's numbers.
    pub rulebook: Rulebook,
    /// The Arrange card each category's VP raises.
    pub arrange_of_category: [Arrange; 3],
    /// Subcategory names, in order of first appearance.
    pub subcategories: Vec<String>,
    /// Order cards in file order; indices are order ids.
    pub orders: Vec<Order>,
    /// Customers by time of day (Morning, Daytime, Night).
    pub customers: [Vec<Customer>; PERIODS],
    /// Player cards.
    pub players: Vec<PlayerCard>,
    /// Bonus cards.
    pub bonus: Vec<Bonus>,
    #[serde(skip)]
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawData {
    #[serde(default)]
    status: Option<String>,
    rulebook: Rulebook,
    arrange_of_category: BTreeMap<String, String>,
    orders: Vec<RawOrder>,
    customers: RawCustomers,
    players: Vec<PlayerCard>,
    bonus: Vec<RawBonus>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOrder {
    rank: String,
    category: String,
    subcategory: String,
    name: String,
    serve: Condition,
    coins: u8,
    vp: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCustomers {
    morning: Vec<RawCustomer>,
    daytime: Vec<RawCustomer>,
    night: Vec<RawCustomer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCustomer {
    name: String,
    orders: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBonus {
    name: String,
    vp: u8,
    cond: RawCond,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawCond {
    subcategory_at_least: Option<BTreeMap<String, u8>>,
    each_at_least_1: Option<Vec<String>>,
    most_of_category: Option<String>,
    most_order_cards: Option<bool>,
    each_category_at_least: Option<BTreeMap<String, u8>>,
    ties_ok: Option<bool>,
}

fn rank_of(s: &str) -> Option<u8> {
    ["I", "II", "III"]
        .iter()
        .position(|r| *r == s)
        .map(|r| r as u8)
}

fn category_of(s: &str) -> Option<Category> {
    CATEGORIES.iter().position(|c| *c == s).map(|c| c as u8)
}

impl DataFile for GinzaData {
    const GAME: &'static str = "Ginza Retro Café";
    const BUILTIN: &'static [(&'static str, &'static str)] = &[("reconstructed", EMBEDDED_YAML)];
    const EMBEDDED_NAME: &'static str = EMBEDDED_NAME;

    /// Parses and validates YAML text; `file` names it in errors.
    fn parse(text: &str, file: &str) -> Result<GinzaData, EngineError> {
        let raw: RawData = crate::error::from_yaml(text, file)?;
        compile(raw, file, text)
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn status(&self) -> &str {
        &self.status
    }

    /// The text this data was read from (a data file `--data` accepts).
    fn text(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.text)
    }
}

impl GinzaData {
    /// An error at a field whose line is found by searching the text for `needle` after the
    /// top-level `section`.
    pub(crate) fn error_at(
        &self,
        section: &str,
        needle: &str,
        field: String,
        message: String,
    ) -> EngineError {
        EngineError::Data {
            file: self.source.clone(),
            line: locate(&self.text, section, needle),
            column: 0,
            field,
            message,
        }
    }

    /// Order ids of a rank, as a set.
    pub fn rank_set(&self, rank: u8) -> u64 {
        let mut m = 0u64;
        for (i, o) in self.orders.iter().enumerate() {
            if o.rank == rank {
                m |= 1 << i;
            }
        }
        m
    }

    /// The most order cards of each rank that `players` customers of each time of day can ask
    /// for (the customers with the most such orders).
    pub fn worst_demand(&self, players: usize) -> [usize; RANKS] {
        let mut need = [0usize; RANKS];
        for (r, n) in need.iter_mut().enumerate() {
            for period in &self.customers {
                let mut counts: Vec<usize> = period
                    .iter()
                    .map(|c| c.orders.iter().filter(|&&o| o as usize == r).count())
                    .collect();
                counts.sort_unstable_by(|a, b| b.cmp(a));
                *n += counts.iter().take(players).sum::<usize>();
            }
        }
        need
    }
}

fn compile(raw: RawData, file: &str, text: &str) -> Result<GinzaData, EngineError> {
    let at = |section: &str, needle: &str, field: String, message: String| EngineError::Data {
        file: file.to_string(),
        line: locate(text, section, needle),
        column: 0,
        field,
        message,
    };
    check_rulebook(&raw.rulebook).map_err(|b| {
        let field = format!("rulebook.{}", b.field);
        at("rulebook", &b.field, field, b.message)
    })?;
    let mut arrange_of_category = [u8::MAX; 3];
    for (cat, kind) in &raw.arrange_of_category {
        let field = format!("arrange_of_category.{cat}");
        let c = category_of(cat).ok_or_else(|| {
            at(
                "arrange_of_category",
                cat,
                field.clone(),
                format!("unknown category `{cat}`; the categories are Drink, Dessert, Food"),
            )
        })?;
        let k = ARRANGES.iter().position(|a| a == kind).ok_or_else(|| {
            at(
                "arrange_of_category",
                kind,
                field.clone(),
                format!("unknown Arrange card `{kind}`; the cards are change, reroll, add"),
            )
        })?;
        arrange_of_category[c as usize] = k as u8;
    }
    if let Some(c) = arrange_of_category.iter().position(|&k| k == u8::MAX) {
        return Err(at(
            "arrange_of_category",
            "arrange_of_category",
            format!("arrange_of_category.{}", CATEGORIES[c]),
            "every category needs its Arrange card".into(),
        ));
    }
    let (orders, subcategories) = compile_orders(&raw.orders, &at)?;
    let customers = [
        compile_customers(&raw.customers.morning, "morning", &at)?,
        compile_customers(&raw.customers.daytime, "daytime", &at)?,
        compile_customers(&raw.customers.night, "night", &at)?,
    ];
    compile_players(&raw.players, &at)?;
    let bonus = compile_bonus(&raw.bonus, &subcategories, &at)?;
    // Names pick cards out (`show`, the summaries, the tests): each once per kind.
    let names = |v: Vec<&str>, section| unique_names(section, &v, file, text);
    names(
        raw.orders.iter().map(|o| o.name.as_str()).collect(),
        "orders",
    )?;
    names(
        raw.players.iter().map(|p| p.name.as_str()).collect(),
        "players",
    )?;
    names(raw.bonus.iter().map(|b| b.name.as_str()).collect(), "bonus")?;
    Ok(GinzaData {
        source: file.to_string(),
        status: raw.status.unwrap_or_else(|| "unspecified".into()),
        rulebook: raw.rulebook,
        arrange_of_category,
        subcategories,
        orders,
        customers,
        players: raw.players,
        bonus,
        text: text.to_string(),
    })
}

type At<'a> = dyn Fn(&str, &str, String, String) -> EngineError + 'a;

/// The rulebook's numbers, each against its bounds.
fn check_rulebook(rb: &Rulebook) -> Result<(), BadField> {
    let bad = |field: &str, message: String| BadField {
        field: field.into(),
        message,
    };
    for (&p, &t) in &rb.action_tokens {
        range("action_tokens", p.into(), 2, 4)?;
        range("action_tokens", t.into(), 1, 6)?;
    }
    for p in 2..=4u8 {
        if !rb.action_tokens.contains_key(&p) {
            return Err(bad("action_tokens", format!("no entry for {p} players")));
        }
    }
    range(
        "dice_per_colour",
        rb.dice_per_colour.into(),
        1,
        MAX_DICE.into(),
    )?;
    range(
        "start_dice",
        rb.start_dice.into(),
        1,
        rb.dice_per_colour.into(),
    )?;
    range("common_dice", rb.common_dice.into(), 0, 6)?;
    range("common_die_price", rb.common_die_price.into(), 0, 50)?;
    range("player_cards_dealt", rb.player_cards_dealt.into(), 1, 2)?;
    range("bonus_dealt", rb.bonus_dealt.into(), 3, 3)?;
    range("customers_present", rb.customers_present.into(), 1, 3)?;
    range("time_marker", rb.time_marker.into(), 1, 9)?;
    range("multi_order_bonus", rb.multi_order_bonus.into(), 0, 50)?;
    range("arrange_upgrade_vp", rb.arrange_upgrade_vp.into(), 0, 100)?;
    range(
        "arrange_upgrade_price",
        rb.arrange_upgrade_price.into(),
        0,
        50,
    )?;
    let top = u32::from(rb.start_dice) + rb.dice_limit_prices.len() as u32;
    if top > u32::from(rb.dice_per_colour) {
        return Err(bad(
            "dice_limit_prices",
            format!(
                "{} raises from {} dice pass the {} dice of a colour",
                rb.dice_limit_prices.len(),
                rb.start_dice,
                rb.dice_per_colour
            ),
        ));
    }
    for &p in &rb.dice_limit_prices {
        range("dice_limit_prices", p.into(), 0, 50)?;
    }
    range("yen_per_vp", rb.yen_per_vp.into(), 1, 50)?;
    for &c in &rb.change_steps {
        range("change_steps", c.into(), 1, 4)?;
    }
    for &r in &rb.rerolls {
        range("rerolls", r.into(), 1, 6)?;
    }
    for &a in &rb.add_dice {
        range("add_dice", a.into(), 1, MAX_DICE.into())?;
    }
    range("bank_yen", rb.bank_yen.into(), 0, 10_000)?;
    Ok(())
}

fn compile_orders(raw: &[RawOrder], at: &At) -> Result<(Vec<Order>, Vec<String>), EngineError> {
    if raw.is_empty() || raw.len() > MAX_ORDERS {
        return Err(at(
            "orders",
            "orders",
            "orders".into(),
            format!(
                "{} order cards; from 1 to {MAX_ORDERS} are supported",
                raw.len()
            ),
        ));
    }
    let mut subcategories: Vec<String> = Vec::new();
    let mut sub_category: Vec<Category> = Vec::new();
    let mut orders = Vec::new();
    for (i, o) in raw.iter().enumerate() {
        let field = format!("orders[{i}]");
        let here = |f: &str, msg: String| at("orders", &o.name, format!("{field}.{f}"), msg);
        let rank = rank_of(&o.rank).ok_or_else(|| {
            here(
                "rank",
                format!("unknown rank `{}`; ranks are I, II, III", o.rank),
            )
        })?;
        let category = category_of(&o.category).ok_or_else(|| {
            here(
                "category",
                format!(
                    "unknown category `{}`; the categories are Drink, Dessert, Food",
                    o.category
                ),
            )
        })?;
        match (category, o.serve) {
            (0, Condition::Faces(_)) => {
                return Err(here(
                    "serve",
                    "a Drink is served by a sum: write `N+`".into(),
                ))
            }
            (1 | 2, Condition::SumAtLeast(_)) => {
                return Err(here(
                    "serve",
                    "Desserts and Food are served by exact faces, not a sum `N+`".into(),
                ))
            }
            _ => {}
        }
        let sub = match subcategories.iter().position(|s| *s == o.subcategory) {
            Some(k) => {
                if sub_category[k] != category {
                    return Err(here(
                        "subcategory",
                        format!(
                            "subcategory `{}` is already a {} subcategory",
                            o.subcategory, CATEGORIES[sub_category[k] as usize]
                        ),
                    ));
                }
                k
            }
            None => {
                if subcategories.len() == 16 {
                    return Err(here("subcategory", "at most 16 subcategories".into()));
                }
                subcategories.push(o.subcategory.clone());
                sub_category.push(category);
                subcategories.len() - 1
            }
        };
        if o.vp > 50 || o.coins > 50 {
            return Err(here("vp", "VP and coins must be at most 50".into()));
        }
        orders.push(Order {
            rank,
            category,
            subcategory: sub as u8,
            name: o.name.clone(),
            serve: o.serve,
            coins: o.coins,
            vp: o.vp,
        });
    }
    Ok((orders, subcategories))
}

fn compile_customers(
    raw: &[RawCustomer],
    period: &str,
    at: &At,
) -> Result<Vec<Customer>, EngineError> {
    if raw.len() < 4 || raw.len() > MAX_CUSTOMERS {
        return Err(at(
            "customers",
            period,
            format!("customers.{period}"),
            format!(
                "{} customers; from 4 (one per player) to {MAX_CUSTOMERS} are supported",
                raw.len()
            ),
        ));
    }
    let mut out = Vec::new();
    for (i, c) in raw.iter().enumerate() {
        let field = format!("customers.{period}[{i}].orders");
        if c.orders.is_empty() || c.orders.len() > MAX_CUSTOMER_ORDERS {
            return Err(at(
                "customers",
                &c.name,
                field,
                format!("a customer asks for 1 to {MAX_CUSTOMER_ORDERS} orders"),
            ));
        }
        let mut orders = Vec::new();
        for o in &c.orders {
            orders.push(rank_of(o).ok_or_else(|| {
                at(
                    "customers",
                    &c.name,
                    field.clone(),
                    format!("unknown order deck `{o}`; the decks are I, II, III"),
                )
            })?);
        }
        out.push(Customer {
            name: c.name.clone(),
            orders,
        });
    }
    Ok(out)
}

fn compile_players(raw: &[PlayerCard], at: &At) -> Result<(), EngineError> {
    if raw.len() > MAX_PLAYER_CARDS {
        return Err(at(
            "players",
            "players",
            "players".into(),
            format!("at most {MAX_PLAYER_CARDS} player cards"),
        ));
    }
    for (i, p) in raw.iter().enumerate() {
        let here = |f: &str, msg: String| at("players", &p.name, format!("players[{i}].{f}"), msg);
        if p.dishwashing.is_empty() || p.dishwashing.len() > 7 {
            return Err(here(
                "dishwashing",
                "the table gives coins for 0, 1, 2, ... ones: 1 to 7 entries".into(),
            ));
        }
        if p.dishwashing.iter().any(|&c| c > 50) {
            return Err(here("dishwashing", "coins must be at most 50".into()));
        }
        if !(1..=MAX_DICE).contains(&p.dice_limit_start) {
            return Err(here(
                "dice_limit_start",
                format!("must be from 1 to {MAX_DICE}, got {}", p.dice_limit_start),
            ));
        }
    }
    Ok(())
}

fn compile_bonus(raw: &[RawBonus], subs: &[String], at: &At) -> Result<Vec<Bonus>, EngineError> {
    if raw.len() > MAX_BONUS {
        return Err(at(
            "bonus",
            "bonus",
            "bonus".into(),
            format!("at most {MAX_BONUS} bonus cards"),
        ));
    }
    let mut out = Vec::new();
    for (i, b) in raw.iter().enumerate() {
        let field = format!("bonus[{i}].cond");
        let here = |msg: String| at("bonus", &b.name, field.clone(), msg);
        let sub = |s: &str| {
            subs.iter()
                .position(|x| x == s)
                .map(|k| k as u8)
                .ok_or_else(|| {
                    here(format!(
                        "unknown subcategory `{s}`; the orders have: {}",
                        subs.join(", ")
                    ))
                })
        };
        let cat = |s: &str| {
            category_of(s).ok_or_else(|| {
                here(format!(
                    "unknown category `{s}`; the categories are Drink, Dessert, Food"
                ))
            })
        };
        let c = &b.cond;
        let given = [
            c.subcategory_at_least.is_some(),
            c.each_at_least_1.is_some(),
            c.most_of_category.is_some(),
            c.most_order_cards.is_some(),
            c.each_category_at_least.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(here(
                "a bonus condition is exactly one of subcategory_at_least, each_at_least_1, \
                 most_of_category, most_order_cards, each_category_at_least"
                    .into(),
            ));
        }
        let ties = c.ties_ok.unwrap_or(true);
        if c.ties_ok.is_some() && c.most_of_category.is_none() && c.most_order_cards.is_none() {
            return Err(here("ties_ok goes only with a `most_...` condition".into()));
        }
        let cond = if let Some(m) = &c.subcategory_at_least {
            let [(s, n)] = m.iter().collect::<Vec<_>>()[..] else {
                return Err(here("subcategory_at_least names one subcategory".into()));
            };
            BonusCondition::SubcategoryAtLeast(sub(s)?, *n)
        } else if let Some(list) = &c.each_at_least_1 {
            if list.is_empty() {
                return Err(here(
                    "each_at_least_1 names at least one subcategory".into(),
                ));
            }
            let mut bits = 0u16;
            for s in list {
                bits |= 1 << sub(s)?;
            }
            BonusCondition::EachAtLeastOne(bits)
        } else if let Some(s) = &c.most_of_category {
            BonusCondition::MostOfCategory(cat(s)?, ties)
        } else if let Some(m) = c.most_order_cards {
            if !m {
                return Err(here(
                    "most_order_cards is written `most_order_cards: true`".into(),
                ));
            }
            BonusCondition::MostOrderCards(ties)
        } else {
            let mut need = [0u8; 3];
            for (s, &n) in c.each_category_at_least.iter().flatten() {
                need[cat(s)? as usize] = n;
            }
            BonusCondition::EachCategoryAtLeast(need)
        };
        if b.vp > 50 {
            return Err(at(
                "bonus",
                &b.name,
                format!("bonus[{i}].vp"),
                "at most 50".into(),
            ));
        }
        out.push(Bonus {
            name: b.name.clone(),
            vp: b.vp,
            cond,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_data_has_the_rulebook_counts() {
        let d = GinzaData::embedded();
        assert_eq!(d.orders.len(), 42);
        let by_rank: Vec<usize> = (0..3)
            .map(|r| d.orders.iter().filter(|o| o.rank == r).count())
            .collect();
        assert_eq!(by_rank, [18, 18, 6]);
        for c in 0..3 {
            assert_eq!(d.orders.iter().filter(|o| o.category == c).count(), 14);
        }
        assert!(d.customers.iter().all(|p| p.len() == 5));
        assert_eq!(d.players.len(), 8);
        assert_eq!(d.bonus.len(), 12);
        assert_eq!(d.subcategories.len(), 6);
    }

    fn broken(from: &str, to: &str) -> String {
        let text = GinzaData::embedded_text().replacen(from, to, 1);
        assert_ne!(text, GinzaData::embedded_text(), "{from} not found");
        GinzaData::parse(&text, "g.yaml").unwrap_err().to_string()
    }

    /// The error's line number, from `file:line:column: ...`.
    fn line_of(e: &str) -> usize {
        e.split(':')
            .nth(1)
            .and_then(|l| l.parse().ok())
            .unwrap_or(0)
    }

    #[test]
    fn an_order_with_an_unparsable_condition_names_file_line_and_field() {
        let e = broken("serve: \"7+\"", "serve: \"7 or more\"");
        assert!(
            e.starts_with("g.yaml:") && e.contains("orders[0].serve"),
            "{e}"
        );
        assert!(line_of(&e) > 0, "{e}");
        let e = broken("serve: \"two 3s\"", "serve: \"ten 3s\"");
        assert!(e.contains("orders[14].serve") && line_of(&e) > 0, "{e}");
    }

    #[test]
    fn a_customer_naming_an_unknown_deck_names_file_line_and_field() {
        let e = broken("orders: [I, I, I]", "orders: [I, IV, I]");
        assert!(
            e.contains("customers.morning[3].orders") && e.contains("IV"),
            "{e}"
        );
        assert!(line_of(&e) > 0, "{e}");
    }

    #[test]
    fn a_bonus_card_with_an_unknown_condition_names_file_line_and_field() {
        let e = broken("most_order_cards: true", "most_coins: true");
        assert!(
            e.contains("bonus[9].cond") && e.contains("most_coins"),
            "{e}"
        );
        assert!(line_of(&e) > 0, "{e}");
        let e = broken(
            "subcategory_at_least: {Soda: 2}",
            "subcategory_at_least: {Tea: 2}",
        );
        assert!(e.contains("bonus[0].cond") && e.contains("Tea"), "{e}");
        assert!(line_of(&e) > 0, "{e}");
    }

    #[test]
    fn a_player_ability_the_engine_does_not_know_names_file_line_and_field() {
        let e = broken("do: [\"arrange_price 1\"]", "do: [\"arrange_free\"]");
        assert!(
            e.contains("players[6].do") && e.contains("arrange_free"),
            "{e}"
        );
        assert!(line_of(&e) > 0, "{e}");
    }

    /// Two orders, two player cards or two bonus cards of one name are refused, naming both
    /// entries and both lines.
    #[test]
    fn duplicate_order_player_and_bonus_names_are_refused_naming_both_lines() {
        let cases = [
            (
                "name: \"American Coffee\"",
                "name: \"Blend Coffee\"",
                "orders[0]",
                "orders[1]",
            ),
            ("name: Tsuru,", "name: Yuko,", "players[", "players["),
            (
                "name: \"Amami Lover\"",
                "name: \"Soda Fountain Regular\"",
                "bonus[0]",
                "bonus[1]",
            ),
        ];
        for (from, to, first, second) in cases {
            let e = broken(from, to);
            assert!(
                e.contains(first) && e.contains(second) && e.contains(".name"),
                "{e}"
            );
            let lines: Vec<&str> = e.matches("(line ").collect();
            assert_eq!(lines.len(), 2, "both lines named: {e}");
            assert!(line_of(&e) > 0, "{e}");
        }
        let e = broken("name: Tsuru,", "name: Yuko,");
        assert!(e.contains("`Yuko` names both players["), "{e}");
    }

    #[test]
    fn conditions_parse() {
        let c = |s: &str| Condition::try_from(s.to_string());
        assert_eq!(c("8+"), Ok(Condition::SumAtLeast(8)));
        assert_eq!(c("three 3s"), Ok(Condition::Faces([0, 0, 3, 0, 0, 0])));
        assert_eq!(c("2,2,6"), Ok(Condition::Faces([0, 2, 0, 0, 0, 1])));
        assert!(c("2,7").is_err() && c("many 3s").is_err() && c("x+").is_err());
    }
}
