//! The Tofu Kingdom card data file (YAML): the eight cards (seven Character cards and the Prince
//! Mochi card) with their faction, eye mark, upper-left (winning) symbol, lower-right symbol and
//! reward; the target score; the steal rule; and the two dealing modes.
//!
//! The embedded default is `engine/data/tofu_kingdom_cards.reconstructed.yaml`, a copy of the
//! project's reconstruction (eyes and symbols found in secondary sources, rewards proposed). A
//! user replaces it with `--data file.yaml`; errors name the file, line, column and field.

use crate::data_file::{range, BadField, DataFile};
use crate::error::EngineError;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

const EMBEDDED_YAML: &str = include_str!("../../data/tofu_kingdom_cards.reconstructed.yaml");
const EMBEDDED_NAME: &str = "<embedded tofu_kingdom_cards.reconstructed.yaml>";

/// Most Character cards a data file may hold (a card set is a `u16` bitset).
pub const MAX_CHARACTERS: usize = 12;

/// A faction icon, and the symbols in the cards' corners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Symbol {
    /// Heart (Prince Mochi, Princess Tofu, Tofu Chef).
    Heart,
    /// Crown (Queen Tofu, Tofu Minister, Tofu Guard).
    Crown,
    /// Mask (Pudding Spy, Tofu Maid).
    Mask,
}

impl Symbol {
    /// All symbols, in the order used for tallies.
    pub const ALL: [Symbol; 3] = [Symbol::Heart, Symbol::Crown, Symbol::Mask];

    /// Index in [`Symbol::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The eye mark in a Character card's upper-right corner: how its holder must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Eye {
    /// "T": must tell the truth.
    #[serde(rename = "T")]
    Truth,
    /// "F": must lie (any false answer).
    #[serde(rename = "F")]
    Lie,
    /// "?": may do either.
    #[serde(rename = "?")]
    Either,
}

/// What a card scores when its lower-right symbol is the winning symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reward {
    /// Gain this many points (soybeans).
    Beans(u8),
    /// Take this many points from one player of the scorer's choice.
    Steal(u8),
}

/// One card, compiled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Card {
    /// The id, for example `queen_tofu`.
    pub id: String,
    /// Faction icon.
    pub faction: Symbol,
    /// Eye mark (`None` only for the Prince Mochi card, which never answers).
    pub eye: Option<Eye>,
    /// Upper-left symbol: the winning symbol when the Prince names this card's holder.
    pub upper_left: Option<Symbol>,
    /// Lower-right symbol: the card scores when it matches the winning symbol.
    pub lower_right: Symbol,
    /// The reward.
    pub reward: Reward,
}

/// The card data, validated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardData {
    /// Where the data came from (a file path or the embedded file's name).
    pub source: String,
    /// Provenance, from the file's `status` field.
    pub status: String,
    /// Points that end the game.
    pub winning_score: u16,
    /// Points gained this round cannot be stolen.
    pub protect_round_gains: bool,
    /// Every card in file order; indices are card ids in states and actions.
    pub cards: Vec<Card>,
    /// Index of the Prince Mochi card.
    pub prince: u8,
    /// Index of the Princess Tofu card.
    pub princess: u8,
    /// The Character cards (every card but Prince Mochi), in file order.
    pub characters: Vec<u8>,
    /// The other edition's dealing lists by player count (3 to 8).
    pub blue_orange: BTreeMap<u8, Vec<u8>>,
    /// The text this data was read from.
    #[serde(skip)]
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawData {
    #[serde(default)]
    status: Option<String>,
    winning_score: u16,
    #[serde(default)]
    steal_rule: Option<String>,
    cards: Vec<RawCard>,
    deal_modes: RawDealModes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    id: String,
    faction: Symbol,
    eye: Option<Eye>,
    upper_left: Option<Symbol>,
    lower_right: Symbol,
    reward: RawReward,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReward {
    #[serde(default)]
    beans: Option<u8>,
    #[serde(default)]
    steal: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDealModes {
    kuraki_mura: RawKuraki,
    blue_orange: BTreeMap<u8, RawList>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKuraki {
    #[serde(rename = "use")]
    use_cards: String,
    extras_face_down_in_centre: bool,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawList {
    Named(String),
    Cards(Vec<String>),
}

/// The accepted `steal_rule` texts.
const STEAL_PROTECTED: &str = "cannot steal points gained this round";
const STEAL_ANY: &str = "may steal any points";

impl DataFile for CardData {
    const GAME: &'static str = "Tofu Kingdom";
    const BUILTIN: &'static [(&'static str, &'static str)] = &[("reconstructed", EMBEDDED_YAML)];
    const EMBEDDED_NAME: &'static str = EMBEDDED_NAME;

    /// Parses and validates YAML text; `file` names it in errors.
    fn parse(text: &str, file: &str) -> Result<CardData, EngineError> {
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

impl CardData {
    /// The index of the card with this id.
    pub fn index_of(&self, id: &str) -> Option<u8> {
        self.cards.iter().position(|c| c.id == id).map(|i| i as u8)
    }

    /// The card at `index`.
    pub fn card(&self, index: u8) -> &Card {
        &self.cards[index as usize]
    }
}

/// Builds an error at a field of the file being compiled.
type FieldErr<'a> = dyn Fn(String, String) -> EngineError + 'a;

fn compile(raw: RawData, file: &str, text: &str) -> Result<CardData, EngineError> {
    let err = |field: String, msg: String| EngineError::field(file, field, msg);
    let placed = |b: BadField| err(b.field, b.message);
    let score = raw.winning_score.into();
    range("winning_score", score, 1, u16::MAX.into()).map_err(placed)?;
    let protect_round_gains = match raw.steal_rule.as_deref() {
        None | Some(STEAL_PROTECTED) => true,
        Some(STEAL_ANY) => false,
        Some(other) => {
            return Err(err(
                "steal_rule".into(),
                format!("unknown rule `{other}`; expected `{STEAL_PROTECTED}` or `{STEAL_ANY}`"),
            ))
        }
    };
    let cards = compile_cards(&raw.cards, &err)?;
    let find = |id: &str| -> Result<u8, EngineError> {
        cards
            .iter()
            .position(|c| c.id == id)
            .map(|i| i as u8)
            .ok_or_else(|| err("cards".into(), format!("no card with id `{id}`")))
    };
    let prince = find("prince_mochi")?;
    let princess = find("princess_tofu")?;
    let characters = compile_characters(&cards, prince, &err)?;
    let all_name = format!("all_{}", characters.len());
    if raw.deal_modes.kuraki_mura.use_cards != all_name {
        return Err(err(
            "deal_modes.kuraki_mura.use".into(),
            format!(
                "expected `{all_name}` (the rulebook deals from every Character card), got `{}`",
                raw.deal_modes.kuraki_mura.use_cards
            ),
        ));
    }
    // Face down in the centre or out of the game: either way nobody looks at the extras.
    let _ = raw.deal_modes.kuraki_mura.extras_face_down_in_centre;
    let mut blue_orange = BTreeMap::new();
    for (&players, list) in &raw.deal_modes.blue_orange {
        let field = format!("deal_modes.blue_orange.{players}");
        range(field.as_str(), players.into(), 3, 8).map_err(placed)?;
        let ids = deal_list(list, &field, &cards, &characters, prince, &err)?;
        if ids.len() < players as usize - 1 {
            return Err(err(
                field,
                format!(
                    "{} cards cannot be dealt to the {} players other than the Prince",
                    ids.len(),
                    players - 1
                ),
            ));
        }
        if !ids.contains(&princess) {
            return Err(err(field, "the list must include princess_tofu".into()));
        }
        blue_orange.insert(players, ids);
    }
    Ok(CardData {
        source: file.to_string(),
        status: raw
            .status
            .unwrap_or_else(|| "user data (no status field)".into()),
        winning_score: raw.winning_score,
        protect_round_gains,
        cards,
        prince,
        princess,
        characters,
        blue_orange,
        text: text.to_string(),
    })
}

fn compile_cards(raw: &[RawCard], err: &FieldErr) -> Result<Vec<Card>, EngineError> {
    let mut cards = Vec::new();
    for (i, c) in raw.iter().enumerate() {
        let reward = match (c.reward.beans, c.reward.steal) {
            (Some(n), None) => Reward::Beans(n),
            (None, Some(n)) => Reward::Steal(n),
            _ => {
                return Err(err(
                    format!("cards[{i}].reward"),
                    "give exactly one of `beans: N` or `steal: N`".into(),
                ))
            }
        };
        if cards.iter().any(|x: &Card| x.id == c.id) {
            return Err(err(
                format!("cards[{i}].id"),
                format!("duplicate id `{}`", c.id),
            ));
        }
        cards.push(Card {
            id: c.id.clone(),
            faction: c.faction,
            eye: c.eye,
            upper_left: c.upper_left,
            lower_right: c.lower_right,
            reward,
        });
    }
    Ok(cards)
}

/// The Character cards: every card but Prince Mochi, each with an eye mark and an upper-left
/// symbol.
fn compile_characters(cards: &[Card], prince: u8, err: &FieldErr) -> Result<Vec<u8>, EngineError> {
    let mut characters = Vec::new();
    for (i, c) in cards.iter().enumerate() {
        if i as u8 == prince {
            continue;
        }
        if c.eye.is_none() {
            return Err(err(
                format!("cards[{i}].eye"),
                "a Character card needs an eye mark: T, F or \"?\"".into(),
            ));
        }
        if c.upper_left.is_none() {
            return Err(err(
                format!("cards[{i}].upper_left"),
                "a Character card needs an upper-left symbol: heart, crown or mask".into(),
            ));
        }
        characters.push(i as u8);
    }
    if characters.len() < 2 || characters.len() > MAX_CHARACTERS {
        return Err(err(
            "cards".into(),
            format!(
                "{} Character cards; between 2 and {MAX_CHARACTERS} are supported",
                characters.len()
            ),
        ));
    }
    Ok(characters)
}

/// One player count's dealing list of the other edition: `all_N` or card ids.
fn deal_list(
    list: &RawList,
    field: &str,
    cards: &[Card],
    characters: &[u8],
    prince: u8,
    err: &FieldErr,
) -> Result<Vec<u8>, EngineError> {
    let all_name = format!("all_{}", characters.len());
    Ok(match list {
        RawList::Named(name) if *name == all_name => characters.to_vec(),
        RawList::Named(name) => {
            return Err(err(
                field.to_string(),
                format!("expected a list of card ids or `{all_name}`, got `{name}`"),
            ))
        }
        RawList::Cards(names) => {
            let mut v = Vec::new();
            for (j, n) in names.iter().enumerate() {
                let id = cards.iter().position(|c| &c.id == n).map(|i| i as u8);
                match id {
                    Some(id) if id != prince && !v.contains(&id) => v.push(id),
                    Some(_) => {
                        return Err(err(
                            format!("{field}[{j}]"),
                            format!("`{n}` is Prince Mochi or listed twice"),
                        ))
                    }
                    None => {
                        return Err(err(format!("{field}[{j}]"), format!("unknown card `{n}`")))
                    }
                }
            }
            v
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_loads_and_is_marked_reconstructed() {
        let d = CardData::embedded();
        assert!(d.status.contains("PROPOSAL"));
        assert_eq!(d.cards.len(), 8);
        assert_eq!(d.characters.len(), 7);
        assert_eq!(d.winning_score, 7);
        assert!(d.protect_round_gains);
        assert_eq!(d.blue_orange[&3].len(), 3);
        assert_eq!(d.blue_orange[&8].len(), 7);
        let queen = d.card(d.index_of("queen_tofu").unwrap());
        assert_eq!(queen.eye, Some(Eye::Lie));
        assert_eq!(queen.upper_left, Some(Symbol::Crown));
    }

    #[test]
    fn malformed_file_names_line_and_field() {
        let bad = EMBEDDED_YAML.replacen("eye: T,", "eye: X,", 1);
        let e = CardData::parse(&bad, "my.yaml").unwrap_err().to_string();
        assert!(e.starts_with("my.yaml:"), "{e}");
        assert!(e.contains("cards[1].eye"), "{e}");
        let line = e.split(':').nth(1).unwrap().parse::<usize>().unwrap();
        assert!(line > 5, "{e}");
    }

    #[test]
    fn bad_values_name_the_field() {
        let bad = EMBEDDED_YAML.replacen("reward: {beans: 2}", "reward: {}", 1);
        let e = CardData::parse(&bad, "f").unwrap_err().to_string();
        assert!(e.contains("cards[1].reward"), "{e}");
        let bad = EMBEDDED_YAML.replacen("tofu_guard]", "tofu_gard]", 1);
        let e = CardData::parse(&bad, "f").unwrap_err().to_string();
        assert!(
            e.contains("deal_modes.blue_orange.4[3]") && e.contains("tofu_gard"),
            "{e}"
        );
        let bad = EMBEDDED_YAML.replacen("steal_rule: \"cannot", "steal_rule: \"can", 1);
        let e = CardData::parse(&bad, "f").unwrap_err().to_string();
        assert!(e.contains("steal_rule"), "{e}");
    }
}
