//! Tofu Shifu (2 to 4 players): worker placement on shared hat-cost signposts, engine building,
//! hidden hands, a market deck and a customer bag.
//!
//! Files, each named for what it holds:
//! - [`types`]: dishes, hats, spaces, bonus powers, bitset helpers;
//! - [`data`]: the card data file (schema, loading, compiled tables);
//! - [`params`]: parameters and the named rule options;
//! - `knobs.rs`: reconstruction knobs, parameters that rewrite the card data's unknown values;
//! - [`state`]: the position, its phases and player boards;
//! - [`action`]: the actions (one small decision each);
//! - `setup.rs`: building a game and dealing a new position;
//! - `tables.rs`: the lookup tables a game precomputes from its data;
//! - `payment.rs`: hat-cost payment (who may pay what) and what a space needs to be entered;
//! - `objectives.rs`: Town, Player and restaurant objectives;
//! - `moves.rs`: the legal actions of each phase;
//! - `apply.rs`: applying an action;
//! - `hidden.rs`: observations and determinization;
//! - `invariants.rs`: conservation and capacity checks used by the tests;
//! - `present.rs`: what the `shifu` command shows (CSV counts and events, summary, position);
//! - `validate.rs`: checking a state loaded from outside (ranges, derived fields, invariants).
//!
//! Rules the two rulebook texts leave open are options in [`Params`], each with its default
//! documented there. Modelling choices that are not rule questions are listed in the README.

pub mod action;
mod apply;
mod board;
pub mod data;
mod encode;
mod hidden;
mod invariants;
mod knobs;
mod mechanics;
mod moves;
mod objectives;
pub mod params;
mod payment;
mod present;
pub use present::ShifuStats;
mod setup;
pub mod state;
mod tables;
pub mod types;
mod validate;

pub use action::Action;
pub use data::{CardData, Customer, Flag, PriceMode, ProductionCard, Requirement};
pub use hidden::Observation;
pub use params::{EndRule, ObjectiveLimit, Params, RestaurantDishes};
pub use state::{Phase, PlayerState, State, TurnCtx};
pub use types::*;

use crate::data_file::DataFile;
use crate::game::{Game, Outcome, Seat, MAX_SEATS};
use crate::registry::GameInfo;
use rand::Rng;

/// What Tofu Shifu is: its name, player counts, and how it is won.
pub const INFO: GameInfo = GameInfo {
    name: "tofu-shifu",
    title: "Tofu Shifu",
    min_players: 2,
    max_players: 4,
    cooperative: false,
    hidden_information: true,
};

/// Tofu Shifu: rules, card data and parameters. Immutable and shared by all threads.
#[derive(Debug, Clone)]
pub struct TofuShifu {
    /// The card data.
    pub data: CardData,
    /// The parameters as given.
    pub params: Params,
    players: u8,
    start_coins: [u16; MAX_PLAYERS],
    hand_size: u8,
    hand_limit: u8,
    end_objectives: u8,
    market_slots: usize,
    market_prices: [u16; MAX_MARKET],
    price_mode: PriceMode,
    /// Town objective requirements after cost scaling and overrides.
    town_req: Vec<Requirement>,
    /// Player objective requirements after cost scaling and overrides.
    player_req: Vec<Requirement>,
    /// Town objective requirements packed for fast checks.
    town_fast: [objectives::FastRequirement; MAX_TOWN_OBJECTIVES],
    /// Player objective requirements packed for fast checks.
    player_fast: [objectives::FastRequirement; MAX_PLAYER_OBJECTIVES],
    /// A bit for each player objective.
    player_all: u8,
    /// Coin-stack town objectives, lowest cost first (the top of the stack).
    coin_stack: Vec<u8>,
    /// Town objectives drawn for the face-up display.
    display_pool: u16,
    /// Each card's upgrade cost in compact form, by card id.
    card_costs: Vec<CardCost>,
    /// For each card, the cards with the same costs and hat type (itself included).
    same_costs: Vec<CardSet>,
    /// `coins_at_most[k]`: the cards whose upgrade costs at most `k` coins, for `k` below
    /// [`COINS_LOOKED_UP`] (more coins leave no card out).
    coins_at_most: [CardSet; COINS_LOOKED_UP],
    /// For each number of tables open, the seats in play as bytes of a word (0xFF each, in
    /// [`PlayerState::tables`] order).
    open_seats: [u64; MAX_TABLES + 1],
    /// For each hat symbol, the cards able to pay it.
    cards_paying: [CardSet; 5],
    /// Cards by the hat type they pay when discarded.
    cards_by_hat: [CardSet; 5],
    /// Each card's hat type as one hat, packed (0 past the last card), by card id: a hand's
    /// payers are the sum over its few cards.
    card_hat: [payment::PackedHats; 128],
    all_cards: CardSet,
    all_tiles: TileSet,
    /// For each set `S` of hat-cost kinds (bit per [`Hat`]): the kinds of hat that pay some cost in `S`.
    payers_of: [u8; 32],
    /// Each space's hat costs with their Hall conditions: lower, then higher.
    space_costs: [[payment::HallCost; 2]; 9],
    /// Which of those costs each pool pays, looked up.
    signpost_pays: payment::SignpostPays,
    /// For `k` below the most other players, the spaces that hold at most `k + 1` markers, a bit
    /// each (Rest, on each player's board, has no limit).
    holds_at_most: [u16; MAX_PLAYERS - 1],
    /// Cards by the flag they add as an upgrade, indexed by [`flag_index`].
    cards_by_flag: [CardSet; 9],
    /// Cards whose restaurant objective some one or two customer tiles can be served in full.
    coverable: CardSet,
    /// Tells this game apart from every other built in this process (a clone keeps it): the
    /// objectives a player's upgrades cover are remembered per game.
    id: u64,
}

/// Coin counts for which the cards a player can afford to upgrade with are looked up.
const COINS_LOOKED_UP: usize = 16;

/// The id of the next game built.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// An index for each kind of flag: 0 Lantern, 1 to 4 the dishes, 5 to 8 the token hats.
pub fn flag_index(f: Flag) -> usize {
    match f {
        Flag::Lantern => 0,
        Flag::Dish(d) => 1 + d as usize,
        Flag::Hat(h) => 5 + (h as usize).min(3),
    }
}

/// A production card's upgrade cost, compact for the move generator.
#[derive(Debug, Clone, Copy)]
struct CardCost {
    /// Hat costs, packed.
    hats: payment::PackedHats,
    /// Dish costs packed one per byte.
    dishes: u32,
    coins: u16,
    hat_type: u8,
    /// The dishes its restaurant objective asks a table for, packed one per byte (at most 8 of a
    /// kind: the data file's lists hold at most 8 entries).
    objective: u32,
}

impl Game for TofuShifu {
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
        if s.is_over() {
            None
        } else {
            Some(s.current)
        }
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        self.legal(s, out)
    }

    fn apply<R: Rng + ?Sized>(&self, s: &mut State, a: Action, rng: &mut R) {
        crate::game::debug_assert_legal(self, s, a);
        self.play(s, a, rng)
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        if !s.is_over() {
            return None;
        }
        let n = s.num_players as usize;
        let mut score = [0.0; MAX_SEATS];
        let mut keys = [(0u32, 0u16, 0u32); MAX_PLAYERS];
        for i in 0..n {
            let p = &s.players[i];
            score[i] = p.objectives() as f64;
            // Most objectives; ties: more coins, then more Dish + Hat tokens, then shared.
            keys[i] = (p.objectives(), p.coins, p.tokens());
        }
        Some(Outcome::from_keys(n, score, &keys[..n], s.capped))
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
        s.round as u32
    }

    fn action_name(&self, s: &State, a: Action) -> String {
        self.name_action(s, a)
    }
}

impl TofuShifu {
    /// The game with the embedded (reconstructed) card data.
    pub fn with_params(params: Params) -> Result<TofuShifu, crate::EngineError> {
        TofuShifu::new(CardData::embedded(), params)
    }

    /// The cards whose upgrade adds a flag of this kind.
    pub fn cards_with_flag(&self, f: Flag) -> CardSet {
        self.cards_by_flag[flag_index(f)]
    }

    /// [`Self::cards_with_flag`] of every flag kind, indexed by [`flag_index`].
    pub fn cards_by_flag_kind(&self) -> &[CardSet; 9] {
        &self.cards_by_flag
    }

    /// Whether some one or two customer tiles (one table) can be served every dish the card's
    /// restaurant objective asks for ("A customer only accepts one of each Dish they order").
    pub fn objective_coverable(&self, card: usize) -> bool {
        card < MAX_CARDS && self.coverable & (1u128 << card) != 0
    }

    /// The cards whose restaurant objective is [`Self::objective_coverable`], a bit each.
    pub fn coverable_objectives(&self) -> CardSet {
        self.coverable
    }

    /// The coins an upgrade with `card` costs this player (after the upgrade discount power).
    pub fn upgrade_cost_coins(&self, p: &PlayerState, card: usize) -> u16 {
        self.upgrade_coins(p, card)
    }

    /// An id of this game as built (its data and parameters): distinct for every game built in
    /// this process, kept by a clone. Per-thread memories of pure functions of the game key on it.
    pub fn instance_id(&self) -> u64 {
        self.id
    }

    /// The number of players.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The hand limit for a player (with the hand-limit bonus power).
    pub fn hand_limit(&self, p: &PlayerState) -> u8 {
        self.hand_limit + p.has(Bonus::HandLimit7) as u8
    }

    /// Objectives that end the game.
    pub fn end_objectives(&self) -> u8 {
        self.end_objectives
    }

    /// The requirement of a town objective, after parameters.
    pub fn town_requirement(&self, i: usize) -> &Requirement {
        &self.town_req[i]
    }

    /// The requirement of a player objective, after parameters.
    pub fn player_requirement(&self, i: usize) -> &Requirement {
        &self.player_req[i]
    }

    /// Town objective `i`'s upgrade counts packed one per byte from the lowest: Lantern, the four
    /// dishes, the four hats, dishes in all, hats in all (`DISH:ANY` and `HAT:ANY` included), each
    /// at most 127 (the data check bounds them); and its coins.
    pub fn town_requirement_packed(&self, i: usize) -> (u128, u16) {
        let r = &self.town_fast[i];
        (r.packed, r.coins)
    }

    /// Player objective `i`'s upgrade counts packed, and its coins, as
    /// [`Self::town_requirement_packed`].
    pub fn player_requirement_packed(&self, i: usize) -> (u128, u16) {
        let r = &self.player_fast[i];
        (r.packed, r.coins)
    }

    /// The coin-stack objective on top, if any are left.
    pub fn coin_stack_top(&self, s: &State) -> Option<u8> {
        self.coin_stack.get(s.coin_stack_taken as usize).copied()
    }

    /// The market slots in play.
    pub fn market_slots(&self) -> usize {
        self.market_slots
    }

    /// Tables a player has unlocked.
    pub fn tables_open(&self, p: &PlayerState) -> usize {
        (self.data.tables_at_start as usize
            + p.lanterns as usize * self.data.tables_per_lantern as usize)
            .min(self.data.tables_total as usize)
    }

    /// The human-readable name of an action.
    pub(crate) fn name_action(&self, s: &State, a: Action) -> String {
        match a {
            Action::ClaimTown(i) => {
                let o = self.data.town_objectives.get(i as usize);
                format!("complete Town objective {}", o.map_or("?", |o| &o.id))
            }
            Action::ClaimPlayer(i) => {
                let o = self.data.player_objectives.get(i as usize);
                format!("complete Player objective {}", o.map_or("?", |o| &o.id))
            }
            Action::Move(sp) => format!("move to {sp}"),
            Action::Pass => "pass (no space can be entered)".into(),
            Action::CopyTarget(sp) => format!("copy {sp}"),
            Action::ChooseCard(c) => match s.turn.action {
                Space::SetObjective => {
                    format!("set {} as a restaurant objective", self.card_name(c))
                }
                _ => format!("upgrade with {}", self.card_name(c)),
            },
            Action::PayToken(h) => format!("pay a {} hat token", h.name()),
            Action::PayCard(c) => {
                let hat = self.data.cards.get(c as usize);
                let hat = hat.map_or("?", |x| x.hat_type.name());
                format!("pay by discarding {} ({hat} hat)", self.card_name(c))
            }
            Action::SeatExtra(i) => self.name_seat_extra(s, i),
            Action::SeatDraw => "draw customer tiles".into(),
            Action::PlaceTile { tile, table } => {
                let table = u32::from(table) + 1;
                format!("seat {} at table {table}", self.tile_name(tile))
            }
            Action::ReturnTile(t) => format!("return {} to the bag", self.tile_name(t)),
            Action::ServeCustomer { table, seat, dish } => {
                let at =
                    s.me().tables[table as usize % MAX_TABLES][seat as usize % SEATS_PER_TABLE];
                let table = u32::from(table) + 1;
                let customer = self.slot_tile_name(at);
                format!("serve {} to {customer} at table {table}", dish.name())
            }
            Action::SellToMarket(d) => format!("sell {} to the market", d.name()),
            Action::EndServe => "end serving".into(),
            Action::CleanTable { table, objective } => self.name_clean_table(table, objective),
            Action::EndCheckout => "end checkout".into(),
            Action::Hire(i) => self.name_market_card("hire", s, i),
            Action::Buy(i) => self.name_market_card("buy", s, i),
            Action::EndBuying => "stop buying and refill hand".into(),
            Action::ReturnCard(c) => format!("put {} back in the Rest zone", self.card_name(c)),
            Action::KeepCard(c) => format!("keep {} in hand", self.card_name(c)),
            Action::EndTurn => "end turn".into(),
        }
    }

    /// A production card's id, or `#c` for an index past the data.
    fn card_name(&self, c: u8) -> String {
        let card = self.data.cards.get(c as usize);
        card.map_or_else(|| format!("#{c}"), |x| x.id.clone())
    }

    /// A customer tile's id, or `#t` for an index past the data.
    fn tile_name(&self, t: u8) -> String {
        let tile = self.data.customers.get(t as usize);
        tile.map_or_else(|| format!("#{t}"), |x| x.id.clone())
    }

    /// The customer at a table seat, by [`Self::tile_name`].
    fn slot_tile_name(&self, t: TileId) -> String {
        t.get()
            .map_or_else(|| "(no customer)".into(), |t| self.tile_name(t))
    }

    /// "pay ... for 2 more customer tiles", naming the hats of extra option `i`.
    fn name_seat_extra(&self, s: &State, i: u8) -> String {
        let opts = if s.turn.copied {
            &self.data.seat_extra_options_copied
        } else {
            &self.data.seat_extra_options
        };
        let names: Vec<&str> = opts
            .get(i as usize)
            .map(|o| {
                Hat::ALL
                    .iter()
                    .flat_map(|h| std::iter::repeat_n(h.name(), o[*h as usize] as usize))
                    .collect()
            })
            .unwrap_or_default();
        format!("pay {} for 2 more customer tiles", names.join(" + "))
    }

    /// Cleaning up a table, with the restaurant objective it completes if any.
    fn name_clean_table(&self, table: u8, objective: CardId) -> String {
        let table = u32::from(table) + 1;
        match objective.get() {
            None => format!("clean up table {table}"),
            Some(c) => format!(
                "clean up table {table} completing restaurant objective {}",
                self.card_name(c)
            ),
        }
    }

    /// Hiring or buying (`verb`) the card in market slot `i`.
    fn name_market_card(&self, verb: &str, s: &State, i: u8) -> String {
        let card = s.market[i as usize % MAX_MARKET]
            .get()
            .map_or_else(|| "(no card)".into(), |c| self.card_name(c));
        format!("{verb} {card} from market slot {}", u32::from(i) + 1)
    }
}
