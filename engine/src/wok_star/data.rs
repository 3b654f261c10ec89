//! The Wok Star data file (YAML): the rulebook's numbers, the income goals by difficulty and
//! player count, the ingredient cards and their dice methods, the ingredient track, the recipes
//! with their customers' incomes, the events and the family characters.
//!
//! The embedded default is `engine/data/wok_star.reconstructed.yaml`: the project's
//! reconstruction (`../shared/data/wok_star_*.reconstructed.yaml`) in one file, with the numbers
//! the rulebook prints under `rulebook`. A user replaces it with `--data file.yaml`; errors name
//! the file, line and field.

use crate::data_file::{entries, range, BadField, DataFile};
use crate::data_names::unique_names;
use crate::error::{locate, EngineError};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

const EMBEDDED_YAML: &str = include_str!("../../data/wok_star.reconstructed.yaml");
const EMBEDDED_NAME: &str = "<embedded wok_star.reconstructed.yaml>";

/// Most ingredient cards a data file may hold (an ingredient set is a `u16`).
pub const MAX_INGREDIENTS: usize = 16;
/// Most recipes a data file may hold.
pub const MAX_RECIPES: usize = 16;
/// Customer card slots per recipe: Regular customers first, then Coupon customers.
pub const CUSTOMER_SLOTS: usize = 8;
/// Most Regular customers per recipe.
pub const MAX_REGULAR: usize = 5;
/// Most Coupon customers per recipe.
pub const MAX_COUPON: usize = 3;
/// Methods on an ingredient card.
pub const METHODS: usize = 4;
/// Days (income goals) in a game.
pub const DAYS: usize = 4;
/// Most event cards a data file may hold (an event set is a `u16`).
pub const MAX_EVENTS: usize = 16;
/// Most character cards a data file may hold.
pub const MAX_CHARACTERS: usize = 16;

/// The dice condition of a preparation method: what two dice must show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Condition {
    /// Any two dice.
    Any,
    /// Two equal dice.
    Pair,
    /// Both dice odd.
    BothOdd,
    /// Both dice even.
    BothEven,
    /// The larger minus the smaller is N.
    DiffEq(u8),
    /// The sum is N.
    SumEq(u8),
    /// The sum is at least N.
    SumGe(u8),
    /// The sum is at most N.
    SumLe(u8),
}

impl Condition {
    /// Whether dice showing `a` and `b` meet the condition.
    pub fn holds(self, a: u8, b: u8) -> bool {
        let (s, d) = (a + b, a.abs_diff(b));
        match self {
            Condition::Any => true,
            Condition::Pair => a == b,
            Condition::BothOdd => a % 2 == 1 && b % 2 == 1,
            Condition::BothEven => a.is_multiple_of(2) && b.is_multiple_of(2),
            Condition::DiffEq(n) => d == n,
            Condition::SumEq(n) => s == n,
            Condition::SumGe(n) => s >= n,
            Condition::SumLe(n) => s <= n,
        }
    }
}

impl TryFrom<String> for Condition {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let number = |rest: &str, lo: u8, hi: u8| -> Result<u8, String> {
            match rest.parse::<u8>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(format!(
                    "dice condition `{s}`: the number must be from {lo} to {hi}"
                )),
            }
        };
        Ok(match s.as_str() {
            "any" => Condition::Any,
            "pair" => Condition::Pair,
            "both_odd" => Condition::BothOdd,
            "both_even" => Condition::BothEven,
            x if x.starts_with("diff_eq_") => Condition::DiffEq(number(&x[8..], 0, 5)?),
            x if x.starts_with("sum_eq_") => Condition::SumEq(number(&x[7..], 2, 12)?),
            x if x.starts_with("sum_ge_") => Condition::SumGe(number(&x[7..], 2, 12)?),
            x if x.starts_with("sum_le_") => Condition::SumLe(number(&x[7..], 2, 12)?),
            _ => {
                return Err(format!(
                    "unknown dice condition `{s}`; known: any, pair, both_odd, both_even, \
                     diff_eq_N, sum_eq_N, sum_ge_N, sum_le_N"
                ))
            }
        })
    }
}

impl From<Condition> for String {
    fn from(c: Condition) -> String {
        match c {
            Condition::Any => "any".into(),
            Condition::Pair => "pair".into(),
            Condition::BothOdd => "both_odd".into(),
            Condition::BothEven => "both_even".into(),
            Condition::DiffEq(n) => format!("diff_eq_{n}"),
            Condition::SumEq(n) => format!("sum_eq_{n}"),
            Condition::SumGe(n) => format!("sum_ge_{n}"),
            Condition::SumLe(n) => format!("sum_le_{n}"),
        }
    }
}

/// One method of preparing an ingredient: two dice meeting a condition raise its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Method {
    /// The dice condition.
    #[serde(rename = "c")]
    pub condition: Condition,
    /// Slots the ingredient token moves up.
    pub gain: u8,
    /// "This method also requires that one of the two dice belong to another player" (the
    /// rightmost method).
    #[serde(default)]
    pub needs_other_players_die: bool,
}

/// An ingredient card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ingredient {
    /// Its name, for example `pork`.
    pub name: String,
    /// The four methods, left to right.
    pub methods: [Method; METHODS],
}

/// A recipe card and its customers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Recipe {
    /// Its name, for example `Fried Rice`.
    pub name: String,
    /// Its price in dollars ($11, $16 or $31).
    pub price: u16,
    /// The ingredients it needs (indices into [`WokData::ingredients`]).
    pub ingredients: Vec<u8>,
    /// Bit set of [`Recipe::ingredients`].
    pub ingredient_set: u16,
    /// Incomes of its Regular customers.
    pub regular: Vec<u8>,
    /// Incomes of its Coupon customers.
    pub coupon: Vec<u8>,
}

/// What an event card does, in the data file's `do:` words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum EventEffect {
    /// `dirty_die N`: each player puts N unused dice into the Dirty Dishes.
    DirtyDie(u8),
    /// `highest_down N`: the highest ingredient token moves down N.
    HighestDown(u8),
    /// `all_down N`: every ingredient token moves down N (not below the bottom).
    AllDown(u8),
    /// `zero_up N`: every ingredient token on the bottom slot moves up N.
    ZeroUp(u8),
    /// `choose_up N`: the team chooses one ingredient; its token moves up N.
    ChooseUp(u8),
    /// `skip_wash`: a Dishwasher showing "1st Wash" flips to "2nd Wash".
    SkipWash,
    /// `reroll_unused`: every player re-rolls their unused dice.
    RerollUnused,
    /// `cubes_each N`: each player takes N Fortune cubes from the supply.
    CubesEach(u8),
    /// `hustle_lose N`: N Hustle tokens go from the pool to the supply.
    HustleLose(u8),
    /// `hustle_gain N`: N Hustle tokens go from the supply to the pool.
    HustleGain(u8),
    /// `coupons N`: N Coupon customers are shuffled into the Regular deck.
    Coupons(u8),
    /// `double_next`: the next customer's dish is prepared twice and pays double.
    DoubleNext,
    /// `no_late_bonus B P` (end of round): income + B if nobody was served late today, else + P.
    NoLateBonus(i8, i8),
    /// `per_on_time PRICE N` (end of round): income + N per on-time customer of a recipe of
    /// that price served today.
    PerOnTime(u16, i8),
    /// `income N` (end of round): income + N.
    Income(i8),
}

impl EventEffect {
    /// Whether the effect is resolved at Daily Accounting rather than when drawn.
    pub fn end_of_round(self) -> bool {
        matches!(
            self,
            EventEffect::NoLateBonus(..) | EventEffect::PerOnTime(..) | EventEffect::Income(_)
        )
    }
}

impl TryFrom<String> for EventEffect {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let num = |k: usize| -> Result<i64, String> {
            words
                .get(k)
                .and_then(|w| w.parse::<i64>().ok())
                .ok_or_else(|| format!("event effect `{s}`: number {k} is missing or not a number"))
        };
        let small = |k: usize| -> Result<u8, String> {
            let v = num(k)?;
            u8::try_from(v)
                .ok()
                .filter(|&v| (1..=20).contains(&v))
                .ok_or_else(|| format!("event effect `{s}`: {v} is not from 1 to 20"))
        };
        let signed = |k: usize| -> Result<i8, String> {
            let v = num(k)?;
            i8::try_from(v)
                .ok()
                .filter(|v| (-50..=50).contains(v))
                .ok_or_else(|| format!("event effect `{s}`: {v} is not from -50 to 50"))
        };
        let arity = |n: usize| -> Result<(), String> {
            if words.len() == n + 1 {
                Ok(())
            } else {
                Err(format!("event effect `{s}` takes {n} number(s)"))
            }
        };
        let kind = words.first().copied().unwrap_or("");
        let e = match kind {
            "dirty_die" => arity(1).and(small(1).map(EventEffect::DirtyDie)),
            "highest_down" => arity(1).and(small(1).map(EventEffect::HighestDown)),
            "all_down" => arity(1).and(small(1).map(EventEffect::AllDown)),
            "zero_up" => arity(1).and(small(1).map(EventEffect::ZeroUp)),
            "choose_up" => arity(1).and(small(1).map(EventEffect::ChooseUp)),
            "skip_wash" => arity(0).map(|_| EventEffect::SkipWash),
            "reroll_unused" => arity(0).map(|_| EventEffect::RerollUnused),
            "cubes_each" => arity(1).and(small(1).map(EventEffect::CubesEach)),
            "hustle_lose" => arity(1).and(small(1).map(EventEffect::HustleLose)),
            "hustle_gain" => arity(1).and(small(1).map(EventEffect::HustleGain)),
            "coupons" => arity(1).and(small(1).map(EventEffect::Coupons)),
            "double_next" => arity(0).map(|_| EventEffect::DoubleNext),
            "no_late_bonus" => arity(2).and(signed(1).and_then(|b| Ok(EventEffect::NoLateBonus(b, signed(2)?)))),
            "per_on_time" => arity(2).and(num(1).and_then(|p| {
                let price = u16::try_from(p)
                    .ok()
                    .filter(|&p| (1..=1000).contains(&p))
                    .ok_or_else(|| format!("event effect `{s}`: price {p} is not from 1 to 1000"))?;
                Ok(EventEffect::PerOnTime(price, signed(2)?))
            })),
            "income" => arity(1).and(signed(1).map(EventEffect::Income)),
            _ => Err(format!(
                "unknown event effect `{s}`; known: dirty_die N, highest_down N, all_down N, zero_up N, \
                 choose_up N, skip_wash, reroll_unused, cubes_each N, hustle_lose N, hustle_gain N, \
                 coupons N, double_next, no_late_bonus B P, per_on_time PRICE N, income N"
            )),
        }?;
        Ok(e)
    }
}

impl From<EventEffect> for String {
    fn from(e: EventEffect) -> String {
        use EventEffect as E;
        match e {
            E::DirtyDie(n) => format!("dirty_die {n}"),
            E::HighestDown(n) => format!("highest_down {n}"),
            E::AllDown(n) => format!("all_down {n}"),
            E::ZeroUp(n) => format!("zero_up {n}"),
            E::ChooseUp(n) => format!("choose_up {n}"),
            E::SkipWash => "skip_wash".into(),
            E::RerollUnused => "reroll_unused".into(),
            E::CubesEach(n) => format!("cubes_each {n}"),
            E::HustleLose(n) => format!("hustle_lose {n}"),
            E::HustleGain(n) => format!("hustle_gain {n}"),
            E::Coupons(n) => format!("coupons {n}"),
            E::DoubleNext => "double_next".into(),
            E::NoLateBonus(b, p) => format!("no_late_bonus {b} {p}"),
            E::PerOnTime(price, n) => format!("per_on_time {price} {n}"),
            E::Income(n) => format!("income {n}"),
        }
    }
}

/// An optional event card (the Events variant).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// Its name.
    pub name: String,
    /// `immediate` or `end_of_round`.
    pub when: String,
    /// What it does, in words.
    pub effect: String,
    /// What it does, in the engine's words (see [`EventEffect`]).
    #[serde(rename = "do")]
    pub act: EventEffect,
}

/// What a Wang Family character's power does, in the data file's `do:` words. Each power is
/// used once per round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Power {
    /// `same_recipe_bonus N`: serving a customer of the same recipe as the previous customer
    /// earns N dollars more (taken automatically the first time it applies).
    SameRecipeBonus(u8),
    /// `refill_timer`: a running timer is flipped back to full.
    RefillTimer,
    /// `substitute_ingredient`: serve one customer with any one ingredient in place of one
    /// required ingredient.
    Substitute,
    /// `reroll_dirty`: re-roll all of one's own dice in the Dirty Dishes without the Dishwasher.
    RerollDirty,
    /// `free_foreign_dice N`: prepare with up to N other players' dice without giving cubes.
    FreeForeignDice(u8),
    /// `set_die`: turn one unused die to any face, no Hustle needed.
    SetDie,
}

impl TryFrom<String> for Power {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let n = || -> Result<u8, String> {
            match words.as_slice() {
                [_, x] => x
                    .parse::<u8>()
                    .ok()
                    .filter(|v| (1..=20).contains(v))
                    .ok_or_else(|| format!("power `{s}`: the number must be from 1 to 20")),
                _ => Err(format!("power `{s}` takes one number")),
            }
        };
        let bare = |p: Power| {
            if words.len() == 1 {
                Ok(p)
            } else {
                Err(format!("power `{s}` takes no number"))
            }
        };
        match words.first().copied().unwrap_or("") {
            "same_recipe_bonus" => n().map(Power::SameRecipeBonus),
            "refill_timer" => bare(Power::RefillTimer),
            "substitute_ingredient" => bare(Power::Substitute),
            "reroll_dirty" => bare(Power::RerollDirty),
            "free_foreign_dice" => n().map(Power::FreeForeignDice),
            "set_die" => bare(Power::SetDie),
            _ => Err(format!(
                "unknown power `{s}`; known: same_recipe_bonus N, refill_timer, \
                 substitute_ingredient, reroll_dirty, free_foreign_dice N, set_die"
            )),
        }
    }
}

impl From<Power> for String {
    fn from(p: Power) -> String {
        match p {
            Power::SameRecipeBonus(n) => format!("same_recipe_bonus {n}"),
            Power::RefillTimer => "refill_timer".into(),
            Power::Substitute => "substitute_ingredient".into(),
            Power::RerollDirty => "reroll_dirty".into(),
            Power::FreeForeignDice(n) => format!("free_foreign_dice {n}"),
            Power::SetDie => "set_die".into(),
        }
    }
}

/// An optional Wang Family character card (the Player Powers variant).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Its name.
    pub name: String,
    /// Its power, in words.
    pub power: String,
    /// Its power, in the engine's words (see [`Power`]).
    #[serde(rename = "do")]
    pub act: Power,
}

/// The numbers the rulebook prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rulebook {
    /// Recipe prices dealt at setup, one per player, by player count.
    pub setup_recipes: BTreeMap<u8, Vec<u16>>,
    /// Recipes of this price leave a 2-player game.
    pub two_player_removed_price: u16,
    /// Extra dice one player starts with in a 2-player game.
    pub two_player_extra_dice: u8,
    /// Dice each player starts with.
    pub start_dice: u8,
    /// Most dice a player may have.
    pub max_dice: u8,
    /// Fortune cubes each player starts with.
    pub start_fortune_cubes: u8,
    /// Fortune cubes in the box.
    pub fortune_cubes: u8,
    /// Hustle tokens in the box.
    pub hustle_tokens: u8,
    /// Methods covered by a Hustle token on a new ingredient card.
    pub covered_methods: u8,
    /// Seconds of sand in each timer.
    pub timer_seconds: u16,
    /// Washes per day.
    pub washes_per_day: u8,
    /// Price of an ingredient upgrade.
    pub upgrade_price: u16,
    /// Price of a Hustle token.
    pub hustle_price: u16,
    /// Recipes offered in each Next Day Prep.
    pub recipe_offer: u8,
    /// Dollars a late customer loses.
    pub late_penalty: u8,
    /// Event cards shuffled into the Regular deck each day (Events variant).
    #[serde(default = "two")]
    pub events_per_day: u8,
}

fn two() -> u8 {
    2
}

/// The ingredient track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track {
    /// The bottom slot (a token there blocks its dishes).
    pub min: u8,
    /// The row new tokens start on.
    pub start: u8,
    /// The top slot.
    pub max: u8,
}

/// The data, validated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WokData {
    /// Where the data came from (a file path or the embedded file's name).
    pub source: String,
    /// Provenance, from the file's `status` field.
    pub status: String,
    /// The rulebook's numbers.
    pub rulebook: Rulebook,
    /// The ingredient track.
    pub track: Track,
    /// Ingredient cards, sorted by name; indices are ingredient ids.
    pub ingredients: Vec<Ingredient>,
    /// Recipes in file order; indices are recipe ids.
    pub recipes: Vec<Recipe>,
    /// Income goals: difficulty, then player count, then day.
    pub income_goals: BTreeMap<String, BTreeMap<u8, [u16; DAYS]>>,
    /// Event cards.
    pub events: Vec<Event>,
    /// Character cards.
    pub characters: Vec<Character>,
    /// The raw text, for locating errors found after parsing.
    #[serde(skip)]
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawData {
    #[serde(default)]
    status: Option<String>,
    rulebook: Rulebook,
    track: Track,
    #[serde(deserialize_with = "unique_keys")]
    ingredients: BTreeMap<String, Vec<Method>>,
    recipes: Vec<RawRecipe>,
    income_goals: BTreeMap<String, BTreeMap<u8, Vec<u16>>>,
    #[serde(default)]
    events: Vec<Event>,
    #[serde(default)]
    characters: Vec<Character>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipe {
    name: String,
    price: u16,
    ingredients: Vec<String>,
    regular: Vec<u8>,
    coupon: Vec<u8>,
}

impl DataFile for WokData {
    const GAME: &'static str = "Wok Star";
    const BUILTIN: &'static [(&'static str, &'static str)] = &[("reconstructed", EMBEDDED_YAML)];
    const EMBEDDED_NAME: &'static str = EMBEDDED_NAME;

    /// Parses and validates YAML text; `file` names it in errors.
    fn parse(text: &str, file: &str) -> Result<WokData, EngineError> {
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

impl WokData {
    /// The income goals for a difficulty and player count; the error names the data file and
    /// the missing entry.
    pub fn goals(&self, difficulty: &str, players: u8) -> Result<[u16; DAYS], EngineError> {
        let Some(by_players) = self.income_goals.get(difficulty) else {
            let known: Vec<&str> = self.income_goals.keys().map(String::as_str).collect();
            return Err(EngineError::param(
                "difficulty",
                format!(
                    "`{difficulty}` is not a difficulty of {}; known: {}",
                    self.source,
                    known.join(", ")
                ),
            ));
        };
        by_players.get(&players).copied().ok_or_else(|| {
            self.error_at(
                "income_goals",
                difficulty,
                format!("income_goals.{difficulty}.{players}"),
                format!("no income goals for {players} players at difficulty {difficulty}"),
            )
        })
    }

    /// An error at a field whose line is found by searching the text: the first line containing
    /// `needle` after the line that starts the top-level `section`.
    pub(crate) fn error_at(
        &self,
        section: &str,
        needle: &str,
        field: String,
        message: String,
    ) -> EngineError {
        let line = locate(&self.text, section, needle);
        EngineError::Data {
            file: self.source.clone(),
            line,
            column: 0,
            field,
            message,
        }
    }

    /// The index of the ingredient with this name.
    pub fn ingredient_index(&self, name: &str) -> Option<u8> {
        self.ingredients
            .iter()
            .position(|i| i.name == name)
            .map(|i| i as u8)
    }
}

/// A map whose keys are given once: the reader would keep the last of two entries of one key.
fn unique_keys<'de, D, V>(d: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    V: Deserialize<'de>,
{
    struct Unique<V>(std::marker::PhantomData<V>);
    impl<'de, V: Deserialize<'de>> serde::de::Visitor<'de> for Unique<V> {
        type Value = BTreeMap<String, V>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map of ingredient names")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut m: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((k, v)) = m.next_entry::<String, V>()? {
                if out.contains_key(&k) {
                    return Err(serde::de::Error::custom(format!(
                        "`{k}` names two entries; each name may be used once"
                    )));
                }
                out.insert(k, v);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Unique(std::marker::PhantomData))
}

/// Builds an error at a field whose line is found under a top-level section (see [`locate`]).
type At<'a> = dyn Fn(&str, &str, String, String) -> EngineError + 'a;

fn compile(raw: RawData, file: &str, text: &str) -> Result<WokData, EngineError> {
    let at = |section: &str, needle: &str, field: String, message: String| EngineError::Data {
        file: file.to_string(),
        line: locate(text, section, needle),
        column: 0,
        field,
        message,
    };
    let rb = &raw.rulebook;
    check_rulebook(rb).map_err(|b| {
        let field = format!("rulebook.{}", b.field);
        at("rulebook", &b.field, field, b.message)
    })?;
    let t = raw.track;
    check_track(&t, &at)?;
    let ingredients = compile_ingredients(&raw.ingredients, &t, &at)?;
    // Names pick cards out (`show`, the summaries, the tests): each once per kind.
    let names = |v: Vec<&str>, section| unique_names(section, &v, file, text);
    let recipes = compile_recipes(&raw.recipes, &ingredients, &at, (file, text))?;
    check_setup_recipes(rb, &recipes, &at)?;
    let income_goals = compile_goals(&raw.income_goals, &at)?;
    check_events(&raw.events, &at)?;
    if raw.characters.len() > MAX_CHARACTERS {
        return Err(at(
            "characters",
            "characters",
            "characters".into(),
            format!(
                "{} characters; at most {MAX_CHARACTERS} are supported",
                raw.characters.len()
            ),
        ));
    }
    names(
        raw.events.iter().map(|e| e.name.as_str()).collect(),
        "events",
    )?;
    names(
        raw.characters.iter().map(|c| c.name.as_str()).collect(),
        "characters",
    )?;
    Ok(WokData {
        source: file.to_string(),
        status: raw.status.unwrap_or_default(),
        rulebook: raw.rulebook,
        track: t,
        ingredients,
        recipes,
        income_goals,
        events: raw.events,
        characters: raw.characters,
        text: text.to_string(),
    })
}

/// The track's slots: `min <= start <= max <= 20`.
fn check_track(t: &Track, at: &At) -> Result<(), EngineError> {
    let placed = |b: BadField| at("track", "track", format!("track.{}", b.field), b.message);
    range("max", t.max.into(), 0, 20).map_err(placed)?;
    range("min", t.min.into(), 0, t.max.into()).map_err(placed)?;
    range("start", t.start.into(), t.min.into(), t.max.into()).map_err(placed)
}

fn compile_ingredients(
    raw: &BTreeMap<String, Vec<Method>>,
    t: &Track,
    at: &At,
) -> Result<Vec<Ingredient>, EngineError> {
    if raw.is_empty() || raw.len() > MAX_INGREDIENTS {
        return Err(at(
            "ingredients",
            "ingredients",
            "ingredients".into(),
            format!(
                "{} ingredient cards; from 1 to {MAX_INGREDIENTS} are supported",
                raw.len()
            ),
        ));
    }
    let mut ingredients = Vec::new();
    for (name, methods) in raw {
        let field = format!("ingredients.{name}");
        let methods: [Method; METHODS] = methods.as_slice().try_into().map_err(|_| {
            at(
                "ingredients",
                name,
                field.clone(),
                format!(
                    "an ingredient card has {METHODS} methods, got {}",
                    methods.len()
                ),
            )
        })?;
        for (k, m) in methods.iter().enumerate() {
            if m.gain == 0 || m.gain > t.max {
                return Err(at(
                    "ingredients",
                    name,
                    format!("{field}[{k}].gain"),
                    format!(
                        "must be from 1 to the track's top ({}), got {}",
                        t.max, m.gain
                    ),
                ));
            }
        }
        ingredients.push(Ingredient {
            name: name.clone(),
            methods,
        });
    }
    Ok(ingredients)
}

fn compile_recipes(
    raw: &[RawRecipe],
    ingredients: &[Ingredient],
    at: &At,
    (file, text): (&str, &str),
) -> Result<Vec<Recipe>, EngineError> {
    if raw.is_empty() || raw.len() > MAX_RECIPES {
        return Err(at(
            "recipes",
            "recipes",
            "recipes".into(),
            format!(
                "{} recipes; from 1 to {MAX_RECIPES} are supported",
                raw.len()
            ),
        ));
    }
    let names: Vec<&str> = raw.iter().map(|r| r.name.as_str()).collect();
    unique_names("recipes", &names, file, text)?;
    raw.iter()
        .enumerate()
        .map(|(i, r)| compile_recipe(i, r, ingredients, at))
        .collect()
}

fn compile_recipe(
    i: usize,
    r: &RawRecipe,
    ingredients: &[Ingredient],
    at: &At,
) -> Result<Recipe, EngineError> {
    let field = format!("recipes[{i}]");
    let here = |f: &str, msg: String| at("recipes", &r.name, format!("{field}.{f}"), msg);
    let placed = |b: BadField| here(&b.field, b.message);
    range("price", r.price.into(), 1, 1000).map_err(placed)?;
    entries("ingredients", r.ingredients.len(), 1, 4).map_err(placed)?;
    entries("regular", r.regular.len(), 1, MAX_REGULAR).map_err(placed)?;
    entries("coupon", r.coupon.len(), 0, MAX_COUPON).map_err(placed)?;
    for (f, list) in [("regular", &r.regular), ("coupon", &r.coupon)] {
        for (j, &v) in list.iter().enumerate() {
            range(format!("{f}[{j}]"), v.into(), 1, 100).map_err(placed)?;
        }
    }
    let mut ids = Vec::new();
    let mut set = 0u16;
    for name in &r.ingredients {
        let Some(k) = ingredients.iter().position(|x| &x.name == name) else {
            return Err(here(
                "ingredients",
                format!("unknown ingredient `{name}` (not under `ingredients:`)"),
            ));
        };
        if set & (1 << k) != 0 {
            return Err(here("ingredients", format!("`{name}` is listed twice")));
        }
        set |= 1 << k;
        ids.push(k as u8);
    }
    Ok(Recipe {
        name: r.name.clone(),
        price: r.price,
        ingredients: ids,
        ingredient_set: set,
        regular: r.regular.clone(),
        coupon: r.coupon.clone(),
    })
}

fn check_setup_recipes(rb: &Rulebook, recipes: &[Recipe], at: &At) -> Result<(), EngineError> {
    for (players, prices) in &rb.setup_recipes {
        for &p in prices {
            if !recipes.iter().any(|r| r.price == p) {
                return Err(at(
                    "rulebook",
                    "setup_recipes",
                    format!("rulebook.setup_recipes.{players}"),
                    format!("no recipe costs ${p}"),
                ));
            }
        }
    }
    Ok(())
}

/// Income goals by difficulty, then player count: one goal a day.
type Goals = BTreeMap<String, BTreeMap<u8, [u16; DAYS]>>;

fn compile_goals(
    raw: &BTreeMap<String, BTreeMap<u8, Vec<u16>>>,
    at: &At,
) -> Result<Goals, EngineError> {
    let mut income_goals = BTreeMap::new();
    for (difficulty, by_players) in raw {
        let mut m = BTreeMap::new();
        for (&players, goals) in by_players {
            let field = format!("income_goals.{difficulty}.{players}");
            let goals: [u16; DAYS] = goals.as_slice().try_into().map_err(|_| {
                at(
                    "income_goals",
                    difficulty,
                    field.clone(),
                    format!("{DAYS} goals, one per day, got {}", goals.len()),
                )
            })?;
            let placed = |b: BadField| at("income_goals", difficulty, b.field, b.message);
            // A player count, then each day's goal in dollars.
            range(field.as_str(), players.into(), 2, 4).map_err(placed)?;
            for (day, &g) in goals.iter().enumerate() {
                range(format!("{field}[{day}]"), g.into(), 0, 10_000).map_err(placed)?;
            }
            m.insert(players, goals);
        }
        income_goals.insert(difficulty.clone(), m);
    }
    Ok(income_goals)
}

fn check_events(events: &[Event], at: &At) -> Result<(), EngineError> {
    if events.len() > MAX_EVENTS {
        return Err(at(
            "events",
            "events",
            "events".into(),
            format!(
                "{} events; at most {MAX_EVENTS} are supported",
                events.len()
            ),
        ));
    }
    for (i, e) in events.iter().enumerate() {
        let end = match e.when.as_str() {
            "immediate" => false,
            "end_of_round" => true,
            _ => {
                return Err(at(
                    "events",
                    &e.name,
                    format!("events[{i}].when"),
                    format!("`immediate` or `end_of_round`, got `{}`", e.when),
                ))
            }
        };
        if end != e.act.end_of_round() {
            return Err(at(
                "events",
                &e.name,
                format!("events[{i}].do"),
                format!(
                    "`{}` is resolved {}, but `when` says {}",
                    String::from(e.act),
                    if e.act.end_of_round() {
                        "at Daily Accounting"
                    } else {
                        "when drawn"
                    },
                    e.when
                ),
            ));
        }
    }
    Ok(())
}

/// The rulebook's numbers, each against its bounds, and a setup price list per player count.
fn check_rulebook(rb: &Rulebook) -> Result<(), BadField> {
    let bad = |field: &str, message: String| BadField {
        field: field.into(),
        message,
    };
    range("start_dice", rb.start_dice.into(), 1, 5)?;
    range("max_dice", rb.max_dice.into(), rb.start_dice.into(), 5)?;
    range(
        "two_player_extra_dice",
        rb.two_player_extra_dice.into(),
        0,
        (rb.max_dice - rb.start_dice).into(),
    )?;
    range("start_fortune_cubes", rb.start_fortune_cubes.into(), 0, 20)?;
    range("fortune_cubes", rb.fortune_cubes.into(), 0, 100)?;
    range("hustle_tokens", rb.hustle_tokens.into(), 0, 200)?;
    range("covered_methods", rb.covered_methods.into(), 0, 2)?;
    range("timer_seconds", rb.timer_seconds.into(), 1, 600)?;
    range("washes_per_day", rb.washes_per_day.into(), 0, 10)?;
    range("upgrade_price", rb.upgrade_price.into(), 0, 1000)?;
    range("hustle_price", rb.hustle_price.into(), 1, 1000)?;
    range("recipe_offer", rb.recipe_offer.into(), 0, 3)?;
    range("late_penalty", rb.late_penalty.into(), 0, 100)?;
    range("events_per_day", rb.events_per_day.into(), 0, 16)?;
    for p in 2..=4u8 {
        match rb.setup_recipes.get(&p) {
            Some(list) if list.len() == p as usize => {}
            Some(list) => {
                return Err(bad(
                    "setup_recipes",
                    format!(
                        "{p} players need {p} prices, one per player, got {}",
                        list.len()
                    ),
                ))
            }
            None => return Err(bad("setup_recipes", format!("no entry for {p} players"))),
        }
    }
    if rb.setup_recipes.keys().any(|p| !(2..=4).contains(p)) {
        return Err(bad("setup_recipes", "player counts run from 2 to 4".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_loads() {
        let d = WokData::embedded();
        assert_eq!(d.ingredients.len(), 10);
        assert_eq!(d.recipes.len(), 12);
        assert_eq!(d.goals("mild", 2).unwrap(), [7, 12, 18, 25]);
        assert_eq!(d.goals("medium", 2).unwrap(), [8, 13, 20, 28]);
        assert_eq!(d.rulebook.timer_seconds, 30);
    }

    #[test]
    fn conditions_parse_and_hold() {
        let c = |s: &str| Condition::try_from(s.to_string()).unwrap();
        assert!(c("diff_eq_2").holds(5, 3));
        assert!(!c("diff_eq_2").holds(5, 4));
        assert!(c("sum_ge_10").holds(4, 6));
        assert!(c("sum_le_4").holds(1, 3));
        assert!(c("pair").holds(2, 2));
        assert!(c("both_odd").holds(1, 5) && !c("both_odd").holds(1, 2));
        assert!(Condition::try_from("sum_eq_13".to_string()).is_err());
        assert!(Condition::try_from("triple".to_string()).is_err());
    }

    fn broken(from: &str, to: &str) -> String {
        let text = WokData::embedded_text().replacen(from, to, 1);
        assert_ne!(text, WokData::embedded_text(), "{from} not found");
        WokData::parse(&text, "w.yaml").unwrap_err().to_string()
    }

    /// Numbers and list lengths out of their bounds: the error names the field (down to the
    /// entry), the bounds and the value, at the value's line.
    #[test]
    fn out_of_range_numbers_name_the_field_bounds_and_value() {
        for (from, to, want) in [
            (
                "track: {min: 0, start: 1, max: 6}",
                "track: {min: 0, start: 7, max: 6}",
                "field `track.start`: must be from 0 to 6, got 7",
            ),
            (
                "regular: [2,2,3], coupon: [1,1]}  # name FOUND (earlier ed.)",
                "regular: [2,0,3], coupon: [1,1]}  # name FOUND (earlier ed.)",
                "field `recipes[0].regular[1]`: must be from 1 to 100, got 0",
            ),
            (
                "coupon: [1,1]}  # name FOUND (earlier ed.)",
                "coupon: [1,1,1,1]}  # name FOUND (earlier ed.)",
                "field `recipes[0].coupon`: 4 entries; from 0 to 3 are allowed",
            ),
            (
                "2: [7, 12, 18, 25]",
                "2: [7, 12, 18, 25000]",
                "field `income_goals.mild.2[3]`: must be from 0 to 10000, got 25000",
            ),
        ] {
            let e = broken(from, to);
            assert!(e.starts_with("w.yaml:") && e.contains(want), "{e}");
            assert!(!e.contains(":0:0:"), "{e}");
        }
    }

    #[test]
    fn an_unknown_dice_condition_names_file_line_and_field() {
        let e = broken(
            "c: diff_eq_2, gain: 2}, {c: sum_eq_7",
            "c: diff_eq_2, gain: 2}, {c: sum_eq_77",
        );
        assert!(
            e.starts_with("w.yaml:") && e.contains("ingredients.pork"),
            "{e}"
        );
        assert!(!e.contains(":0:0:"), "{e}");
    }

    #[test]
    fn a_recipe_naming_an_unknown_ingredient_names_file_line_and_field() {
        let e = broken("ingredients: [rice, egg]", "ingredients: [rice, eggs]");
        assert!(
            e.contains("w.yaml:") && e.contains("recipes[0].ingredients"),
            "{e}"
        );
        assert!(e.contains("eggs"), "{e}");
        assert!(!e.starts_with("w.yaml:0:"), "{e}");
    }

    /// Two recipes, events or characters of one name are refused, naming both entries and
    /// both lines; an ingredient given twice is refused by the reader, naming it.
    #[test]
    fn duplicate_recipe_event_character_and_ingredient_names_are_refused() {
        let cases = [
            (
                "{name: Lo Mein,",
                "{name: Fried Rice,",
                "recipes[0]",
                "recipes[1]",
            ),
            (
                "{name: Spilled Wok,",
                "{name: Kitchen Fire,",
                "events[0]",
                "events[1]",
            ),
            (
                "{name: Lily Wang,",
                "{name: Chris Wang,",
                "characters[0]",
                "characters[1]",
            ),
        ];
        for (from, to, first, second) in cases {
            let e = broken(from, to);
            assert!(
                e.contains(first) && e.contains(second) && e.contains(".name"),
                "{e}"
            );
            assert_eq!(e.matches("(line ").count(), 2, "both lines named: {e}");
            assert!(!e.starts_with("w.yaml:0:"), "{e}");
        }
        let e = broken("\n  rice: ", "\n  pork: ");
        assert!(e.contains("w.yaml") && e.contains("pork"), "{e}");
    }

    #[test]
    fn goals_for_a_missing_player_count_name_file_and_field() {
        let text = WokData::embedded_text().replacen(", 4: [15, 26, 40, 56]", "", 1);
        let d = WokData::parse(&text, "w.yaml").unwrap();
        let e = d.goals("medium", 4).unwrap_err().to_string();
        assert!(
            e.contains("w.yaml") && e.contains("income_goals.medium.4"),
            "{e}"
        );
        let e = d.goals("hot", 4).unwrap_err().to_string();
        assert!(e.contains("difficulty") && e.contains("mild"), "{e}");
    }
}
