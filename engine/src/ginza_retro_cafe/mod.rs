//! Ginza Retro Café (2 to 4 players): players roll and shape dice to serve customers' orders
//! before the customers leave, then score order cards, hidden bonus cards and coins.
//!
//! Files, each named for what it holds:
//! - [`data`]: the data file (YAML: the rulebook's numbers, orders, customers, player cards,
//!   bonus cards);
//! - [`params`]: parameters and the named rule options;
//! - [`state`]: the position;
//! - [`action`]: the complete choices and the steps they are taken in (the game's actions);
//! - `setup.rs`: set-up (player cards, the bonus draft, customers), arrivals, the end of a round;
//! - `choices.rs`: the complete choices as the rulebook states them (A-2 Ability Upgrade, A-3
//!   Perform an action, the set-up choices);
//! - `moves.rs`: the legal steps, each listed only when a complete choice follows it;
//! - `turn_steps.rs`: a turn's first steps in segments, listed or counted and drawn one;
//! - `steps.rs`: applying a step, and between steps and complete choices;
//! - `apply.rs`: applying a complete choice;
//! - `scoring.rs`: order, bonus and coin points;
//! - `hidden.rs`: what a seat sees, and determinization;
//! - `invariants.rs`: conservation checks used by the tests;
//! - `validate.rs`: the load check of a state from outside (field ranges, then invariants).
//!
//! # Modelling choices
//! - The secret, simultaneous choices (player cards, the two draft picks) are taken seat by seat;
//!   no seat sees another's choice before the reveal, so the order changes nothing.
//! - Dice are counted per face; the dice of one colour are alike. A player's personal supply is
//!   9 minus the dice in the Dice area. Common dice used in a serve sit in the user's supply
//!   until the end of the round and are never drawn as new dice.
//! - An order deck never runs out: a data file whose customers could ask for more order cards
//!   of a rank than the deck holds is refused.
//! - A Drink serve offers the common die only where the chosen dice fall short of the number,
//!   and the once-a-round Drink bonus where the chosen dice fall short by the bonus or less,
//!   whether or not the seat could buy a common die instead (the seat chooses); the two are not
//!   combined in one serve.
//! - Arrange cards carry no VP ("Order cards of the same color" decide an upgrade). The Cat
//!   Marker has no rule and is not modelled. When the game ends during the end of a round, the
//!   remaining end-of-round steps change no score and are skipped.

pub mod action;
pub mod data;
mod encode;
pub mod params;
pub mod state;

mod apply;
mod board;
mod choices;
mod hidden;
mod invariants;
mod mechanics;
mod moves;
mod present;
pub use present::GinzaStats;
mod scoring;
mod setup;
mod steps;
mod turn_steps;
mod validate;

pub use action::{Action, Choice, Help, Serve};
pub use data::GinzaData;
pub use hidden::Observation;
pub use params::Params;
pub use state::{CardId, Phase, Picking, Place, SeatId, State, MAX_PLAYERS};

use crate::data_file::DataFile;
use crate::error::EngineError;
use crate::game::{Game, Outcome, Seat, MAX_SEATS};
use crate::registry::GameInfo;
use data::Ability;
use rand::Rng;

/// What Ginza Retro Café is: its name, player counts, and how it is won.
pub const INFO: GameInfo = GameInfo {
    name: "ginza-retro-cafe",
    title: "Ginza Retro Café",
    min_players: 2,
    max_players: 4,
    cooperative: false,
    hidden_information: true,
};

/// Ginza Retro Café: rules, data and parameters. Immutable and shared by all threads.
#[derive(Debug, Clone)]
pub struct GinzaRetroCafe {
    /// The data.
    pub data: GinzaData,
    /// The parameters as given.
    pub params: Params,
    players: u8,
    tokens: u8,
    yen_per_vp: u8,
    limit_prices: Vec<u8>,
    /// The order ids of each rank, as a set ([`GinzaData::rank_set`], looked up at every
    /// arrival); ranks past its end have none.
    rank_sets: Vec<u64>,
    /// Each player card's common die price and Drink bonus, found once from its abilities
    /// (looked up at every turn's listing).
    card_terms: Vec<CardTerms>,
}

/// What a player card's abilities make of a serve: the price of a common die and the
/// once-a-round Drink bonus.
#[derive(Debug, Clone, Copy)]
struct CardTerms {
    common_price: u8,
    drink_bonus: Option<u8>,
}

impl CardTerms {
    /// The first of the card's abilities that sets each, as the rulebook's price otherwise.
    fn of(card: &data::PlayerCard, rb: &data::Rulebook) -> CardTerms {
        let find = |f: fn(Ability) -> Option<u8>| card.act.iter().find_map(|&a| f(a));
        CardTerms {
            common_price: find(|a| match a {
                Ability::CommonDiePrice(n) => Some(n),
                _ => None,
            })
            .unwrap_or(rb.common_die_price),
            drink_bonus: find(|a| match a {
                Ability::DrinkBonus(n) => Some(n),
                _ => None,
            }),
        }
    }
}

impl GinzaRetroCafe {
    /// Builds a game from data and parameters, checking that they fit together.
    pub fn new(data: GinzaData, params: Params) -> Result<GinzaRetroCafe, EngineError> {
        let players = params.players;
        INFO.check_players(players)?;
        let rb = &data.rulebook;
        let (yen_per_vp, limit_prices) = prices(&data, &params)?;
        check_start_yen(&data, &params)?;
        check_data_fits(&data, usize::from(players), &limit_prices)?;
        let tokens = rb.action_tokens[&players];
        let top_rank = data.orders.iter().map(|o| o.rank).max().unwrap_or(0);
        let rank_sets = (0..=top_rank).map(|r| data.rank_set(r)).collect();
        let card_terms = data.players.iter().map(|c| CardTerms::of(c, rb)).collect();
        Ok(GinzaRetroCafe {
            players,
            tokens,
            yen_per_vp,
            limit_prices,
            rank_sets,
            card_terms,
            data,
            params,
        })
    }

    /// The embedded data with these parameters.
    pub fn with_params(params: Params) -> Result<GinzaRetroCafe, EngineError> {
        Self::new(GinzaData::embedded(), params)
    }

    /// Action tokens each player has.
    pub fn tokens_each(&self) -> u8 {
        self.tokens
    }

    /// Coins per VP at scoring.
    pub fn yen_per_vp(&self) -> u8 {
        self.yen_per_vp
    }

    /// The dice-limit prices in force.
    pub fn limit_prices(&self) -> &[u8] {
        &self.limit_prices
    }

    /// The highest dice limit.
    pub fn top_limit(&self) -> u8 {
        self.data.rulebook.start_dice + self.limit_prices.len() as u8
    }
}

/// The start-coin variant: one entry per player, none above ¥20, within the bank.
fn check_start_yen(data: &GinzaData, params: &Params) -> Result<(), EngineError> {
    let v = &params.start_yen_by_position;
    if v.is_empty() {
        return Ok(());
    }
    let total: u32 = v.iter().map(|&y| u32::from(y)).sum();
    if v.len() != usize::from(params.players) || v.iter().any(|&y| y > 20) {
        return Err(EngineError::param(
            "start_yen_by_position",
            format!(
                "one entry per player ({}), each from 0 to 20, got {v:?}",
                params.players
            ),
        ));
    }
    if params.finite_bank && total > u32::from(data.rulebook.bank_yen) {
        return Err(EngineError::param(
            "start_yen_by_position",
            format!(
                "¥{total} in all is more than the bank's ¥{}",
                data.rulebook.bank_yen
            ),
        ));
    }
    Ok(())
}

/// Coins per VP and the dice-limit prices: the parameters', else the data's.
fn prices(data: &GinzaData, params: &Params) -> Result<(u8, Vec<u8>), EngineError> {
    let rb = &data.rulebook;
    let yen_per_vp = if params.yen_per_vp == 0 {
        rb.yen_per_vp
    } else {
        params.yen_per_vp
    };
    if yen_per_vp > 50 {
        return Err(EngineError::param(
            "yen_per_vp",
            format!("must be from 1 to 50 (0 for the data's), got {yen_per_vp}"),
        ));
    }
    let limit_prices = if params.dice_limit_prices.is_empty() {
        rb.dice_limit_prices.clone()
    } else {
        params.dice_limit_prices.clone()
    };
    if usize::from(rb.start_dice) + limit_prices.len() > usize::from(rb.dice_per_colour)
        || limit_prices.iter().any(|&p| p > 50)
    {
        return Err(EngineError::param(
            "dice_limit_prices",
            format!(
                "at most {} raises (from {} dice to the {} of a colour), each at most ¥50",
                rb.dice_per_colour - rb.start_dice,
                rb.start_dice,
                rb.dice_per_colour
            ),
        ));
    }
    Ok((yen_per_vp, limit_prices))
}

/// Whether the data has enough player cards, bonus cards, customers and order cards for `n`
/// players, and dice-limit starts within the limits in force.
fn check_data_fits(data: &GinzaData, n: usize, limit_prices: &[u8]) -> Result<(), EngineError> {
    let rb = &data.rulebook;
    let need = |what: &str, have: usize, want: usize| {
        if have < want {
            Err(data.error_at(
                what,
                what,
                what.to_string(),
                format!("{n} players need {want}, the data has {have}"),
            ))
        } else {
            Ok(())
        }
    };
    need(
        "players",
        data.players.len(),
        n * usize::from(rb.player_cards_dealt),
    )?;
    need("bonus", data.bonus.len(), n * usize::from(rb.bonus_dealt))?;
    for (p, period) in data.customers.iter().enumerate() {
        if period.len() < n {
            return Err(data.error_at(
                "customers",
                ["morning", "daytime", "night"][p],
                format!("customers.{}", ["morning", "daytime", "night"][p]),
                format!("{n} players draw {n} customers of each time of day"),
            ));
        }
    }
    let demand = data.worst_demand(n);
    for (r, &want) in demand.iter().enumerate() {
        let have = data.rank_set(r as u8).count_ones() as usize;
        if have < want {
            return Err(data.error_at(
                "orders",
                "orders",
                "orders".into(),
                format!(
                    "the customers of a {n}-player game can ask for {want} order cards of rank {}, the deck has {have}",
                    ["I", "II", "III"][r]
                ),
            ));
        }
    }
    let top = rb.start_dice + limit_prices.len() as u8;
    for (i, pc) in data.players.iter().enumerate() {
        if pc.dice_limit_start < rb.start_dice || pc.dice_limit_start > top {
            return Err(data.error_at(
                "players",
                &pc.name,
                format!("players[{i}].dice_limit_start"),
                format!(
                    "must be from the {} starting dice to the top limit {top}",
                    rb.start_dice
                ),
            ));
        }
    }
    Ok(())
}

impl Game for GinzaRetroCafe {
    type State = State;
    type Action = Action;
    type Observation = Observation;

    const INFO: GameInfo = INFO;

    fn num_seats(&self) -> usize {
        self.players as usize
    }

    fn new_state<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        self.set_up(rng)
    }

    fn to_move(&self, s: &State) -> Option<Seat> {
        s.seat()
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        self.legal(s, out)
    }

    /// At the start of a turn, counts the steps by segment and builds only the one drawn
    /// (`turn_steps.rs`); elsewhere lists the steps into `buf`.
    fn random_action<R: Rng + ?Sized>(
        &self,
        s: &State,
        buf: &mut Vec<Action>,
        rng: &mut R,
    ) -> Action {
        if let (Phase::Turn { seat }, Picking::Nothing) = (s.phase, s.picking) {
            let steps = self.turn_steps(s, usize::from(seat));
            return steps.get(rng.gen_range(0..steps.len()));
        }
        self.legal(s, buf);
        buf[rng.gen_range(0..buf.len())]
    }

    fn apply<R: Rng + ?Sized>(&self, s: &mut State, a: Action, rng: &mut R) {
        crate::game::debug_assert_legal(self, s, a);
        self.play(s, a, rng)
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        if !s.is_over() {
            return None;
        }
        let n = self.players as usize;
        let mut score = [0.0; MAX_SEATS];
        let mut keys = [(0u32, 0u32); MAX_PLAYERS];
        for seat in 0..n {
            let p = self.points(s, seat);
            score[seat] = f64::from(p.total());
            keys[seat] = (p.total(), p.orders);
        }
        Some(Outcome::from_keys(n, score, &keys[..n], false))
    }

    fn determinize<R: Rng + ?Sized>(&self, s: &State, observer: Seat, rng: &mut R) -> State {
        self.sample_hidden(s, observer, rng)
    }

    fn observation(&self, s: &State, seat: Seat) -> Observation {
        self.observe(s, seat)
    }

    fn turns_completed(&self, s: &State) -> u32 {
        s.turns
    }

    fn round(&self, s: &State) -> u32 {
        u32::from(s.round.max(1))
    }

    fn action_name(&self, s: &State, a: Action) -> String {
        self.name_action(s, a)
    }

    /// While a serve or a reroll is taken step by step ([`State::picking`]).
    fn mid_decision(&self, s: &State) -> bool {
        s.picking != Picking::Nothing
    }
}

/// A uniformly random member of a non-empty bit set.
pub(crate) fn draw_bit<R: Rng + ?Sized>(set: u64, rng: &mut R) -> u32 {
    debug_assert!(set != 0);
    let k = rng.gen_range(0..set.count_ones());
    let mut m = set;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// A die roll, 1 to 6.
pub(crate) fn roll<R: Rng + ?Sized>(rng: &mut R) -> u8 {
    rng.gen_range(1..=6)
}
