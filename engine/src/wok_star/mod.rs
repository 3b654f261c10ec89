//! Wok Star (2 to 4 players, cooperative, real time): the team serves customers against two
//! 30-second sand timers over 4 days and must meet each day's income goal.
//!
//! Files, each named for what it holds:
//! - [`data`]: the data file (YAML: rulebook numbers, income goals, ingredient cards, recipes,
//!   events, characters);
//! - [`params`]: parameters, the clock model's durations and the named rule options;
//! - [`clock`]: the sand timers and the clock model;
//! - [`state`]: the position;
//! - [`action`]: the actions;
//! - `setup.rs`: set-up, opening a day, Daily Accounting;
//! - `moves.rs`: the legal actions, compact steps (a preparation chosen ingredient and method
//!   first, then die by die);
//! - `choices.rs`: the flat list of complete choices, the compact steps' definition twin;
//! - `apply.rs`: applying an action;
//! - `hidden.rs`: what a seat sees, and determinization;
//! - `invariants.rs`: conservation checks used by the tests.
//!
//! # Real time as a discrete-event model
//! Every action takes seconds of table time ([`Params`]: `roll_seconds`, `prepare_seconds`, ...,
//! all divided by `speed`). Each seat has its own clock; the seat whose clock is earliest acts
//! next, its action takes effect at that instant and its clock moves on by the action's
//! duration. The timers run on the same table clock: a serve flips the emptier timer, a wash
//! lays both down, and a customer served while no timer runs is late. A seat may also wait.
//!
//! # Modelling choices
//! - The team's decisions outside play (who gets an ingredient card, the 2-player extra die,
//!   gained cubes, Next Day Prep purchases) are taken by seat 1 on the team's behalf.
//! - A serve, and the end of a wash, flip the timer with less sand in its top half.
//! - A seat converts and rotates its own dice (a partner's die is rotated by the partner).
//! - Hustle tokens that cover a new card's methods come from the supply, then the pool.
//! - The Regular deck is drawn at random as customers are revealed, so its order is never
//!   stored; which Coupon customers were advertised is hidden from everyone.
//! - The team picks the characters (Player Powers) in seat order; Chris Wang's bonus is taken
//!   automatically the first time it applies in a round.

pub mod action;
pub mod clock;
pub mod data;
mod encode;
pub mod params;
pub mod state;

mod apply;
mod board;
mod choices;
mod events;
mod hidden;
mod invariants;
mod mechanics;
mod moves;
mod powers;
mod present;
pub use present::WokStats;
mod setup;
mod validate;

pub use action::{Action, Choice, Die, Preparing};
pub use data::WokData;
pub use hidden::{Observation, COUPON_SLOTS};
pub use params::{Durations, Params};
pub use state::{Closing, Phase, Short, State, MAX_PLAYERS};

use crate::data_file::DataFile;
use crate::error::EngineError;
use crate::game::{Game, Outcome, Seat, MAX_SEATS};
use crate::registry::GameInfo;
use rand::Rng;

/// What Wok Star is: its name, player counts, and how it is won.
pub const INFO: GameInfo = GameInfo {
    name: "wok-star",
    title: "Wok Star",
    min_players: 2,
    max_players: 4,
    cooperative: true,
    hidden_information: true,
};

/// Wok Star: rules, data and parameters. Immutable and shared by all threads.
#[derive(Debug, Clone)]
pub struct WokStar {
    /// The data.
    pub data: WokData,
    /// The parameters as given.
    pub params: Params,
    players: u8,
    goals: [u16; data::DAYS],
    durations: Durations,
    /// Milliseconds of sand in a timer.
    capacity: u32,
    /// Recipes in the game's box (all but those a 2-player game removes), bit set.
    recipe_box: u16,
    /// For each ingredient's method and each face `a` (1 to 6), the faces `b` (bit `b - 1`)
    /// with which a die showing `a` meets the method's condition; at index 0, the faces `a`
    /// (bit `a - 1`) that meet it with some face.
    pair_faces: Vec<[[u8; 7]; data::METHODS]>,
    /// Each recipe's Regular and Coupon customer cards (bit sets), in recipe order.
    customer_cards: Vec<(u128, u128)>,
    /// The set-up's recipe piles, one a seat in dealing order: the recipes in the box at the
    /// price that seat is dealt (bit set).
    setup_piles: Vec<u16>,
}

impl WokStar {
    /// Builds a game from data and parameters, checking that they fit together.
    pub fn new(data: WokData, params: Params) -> Result<WokStar, EngineError> {
        let players = params.players;
        INFO.check_players(players)?;
        let (goals, durations) = timing(&data, &params)?;
        let rb = &data.rulebook;
        let (recipe_box, setup_piles) = recipe_piles(&data, players)?;
        check_set_up(&data, &params)?;
        let pair_faces = pair_faces(&data);
        let customer_cards = (0..data.recipes.len())
            .map(|r| setup::customer_cards(&data, r))
            .collect();
        Ok(WokStar {
            pair_faces,
            customer_cards,
            setup_piles,
            players,
            goals,
            durations,
            capacity: u32::from(rb.timer_seconds) * 1000,
            recipe_box,
            data,
            params,
        })
    }

    /// The embedded data with these parameters.
    pub fn with_params(params: Params) -> Result<WokStar, EngineError> {
        Self::new(WokData::embedded(), params)
    }

    /// The income goals of the four days.
    pub fn goals(&self) -> [u16; data::DAYS] {
        self.goals
    }

    /// The durations in milliseconds.
    pub fn durations(&self) -> Durations {
        self.durations
    }

    /// Milliseconds of sand in a timer.
    pub fn timer_capacity(&self) -> u32 {
        self.capacity
    }

    /// The seat whose clock is earliest (the lower seat on a tie).
    pub fn earliest(&self, s: &State) -> u8 {
        // One key a seat, its clock above its index, so that the smallest is the earliest clock
        // and the lower seat on a tie.
        let n = usize::from(self.players).min(s.clock.len());
        s.clock[..n]
            .iter()
            .zip(0u64..)
            .map(|(&c, i)| u64::from(c) << 8 | i)
            .min()
            .map_or(0, |k| k as u8)
    }
}

/// The income goals scaled by `goal_scale`, and the durations in milliseconds at `speed`.
fn timing(data: &WokData, params: &Params) -> Result<([u16; data::DAYS], Durations), EngineError> {
    let players = params.players;
    let mut goals = data.goals(&params.difficulty, players)?;
    if !(params.goal_scale.is_finite() && (0.0..=10.0).contains(&params.goal_scale)) {
        return Err(EngineError::param(
            "goal_scale",
            format!("must be from 0 to 10, got {}", params.goal_scale),
        ));
    }
    for g in &mut goals {
        *g = (f64::from(*g) * params.goal_scale).round() as u16;
    }
    if !(params.speed.is_finite() && (0.01..=100.0).contains(&params.speed)) {
        return Err(EngineError::param(
            "speed",
            format!("must be from 0.01 to 100, got {}", params.speed),
        ));
    }
    let mut ms = [0u32; 8];
    for (k, (key, secs)) in params.duration_fields().into_iter().enumerate() {
        if !(secs.is_finite() && (0.0..=3600.0).contains(&secs)) {
            return Err(EngineError::param(
                key,
                format!("must be from 0 to 3600 seconds, got {secs}"),
            ));
        }
        ms[k] = ((secs * 1000.0 / params.speed).round() as u32).max(1);
    }
    // With instant waits and no closing on a round of waits, a team that waits runs the day
    // to `max_day_seconds` one millisecond a wait: over a million actions a game.
    if params.wait_seconds == 0.0 && !params.all_wait_closes {
        return Err(EngineError::param(
            "wait_seconds",
            "wait_seconds = 0 with all_wait_closes = false: a waiting table would take a \
             million actions to reach max_day_seconds; give wait_seconds > 0 or \
             all_wait_closes = true"
                .to_string(),
        ));
    }
    let durations = Durations {
        roll: ms[0],
        prepare: ms[1],
        serve: ms[2],
        hustle: ms[3],
        pass: ms[4],
        wash: ms[5],
        wait: ms[6],
        max_day: ms[7],
    };
    Ok((goals, durations))
}

/// The recipes in the box at this player count, and the set-up's piles: one a seat, the recipes
/// in the box at the price it is dealt.
fn recipe_piles(data: &WokData, players: u8) -> Result<(u16, Vec<u16>), EngineError> {
    let rb = &data.rulebook;
    let mut recipe_box = 0u16;
    for (i, r) in data.recipes.iter().enumerate() {
        if !(players == 2 && r.price == rb.two_player_removed_price) {
            recipe_box |= 1 << i;
        }
    }
    let setup = &rb.setup_recipes[&players];
    // The set-up's piles, one a seat: the recipes in the box at the price it is dealt.
    let setup_piles: Vec<u16> = setup
        .iter()
        .map(|&price| {
            data.recipes.iter().enumerate().fold(0u16, |m, (i, r)| {
                m | u16::from(r.price == price && recipe_box & (1 << i) != 0) << i
            })
        })
        .collect();
    for (&price, pile) in setup.iter().zip(&setup_piles) {
        let wanted = setup.iter().filter(|&&p| p == price).count();
        let pile = pile.count_ones() as usize;
        if pile < wanted {
            return Err(EngineError::field(
                &data.source,
                format!("rulebook.setup_recipes.{players}"),
                format!("{wanted} recipes of ${price} are dealt, the data has {pile} in play"),
            ));
        }
    }
    Ok((recipe_box, setup_piles))
}

/// Characters for Player Powers, and Fortune cubes for the set-up.
fn check_set_up(data: &WokData, params: &Params) -> Result<(), EngineError> {
    let (players, rb) = (params.players, &data.rulebook);
    if params.powers && data.characters.len() < usize::from(players) {
        return Err(EngineError::field(
            &data.source,
            "characters",
            format!(
                "Player Powers need a character for each of the {players} players; the data has {}",
                data.characters.len()
            ),
        ));
    }
    let cubes_needed = u32::from(rb.start_fortune_cubes) * u32::from(players) + data::DAYS as u32;
    if cubes_needed > u32::from(rb.fortune_cubes) {
        return Err(EngineError::field(
            &data.source,
            "rulebook.fortune_cubes",
            format!(
                "{cubes_needed} cubes are needed at set-up, the box has {}",
                rb.fortune_cubes
            ),
        ));
    }
    Ok(())
}

/// For each ingredient's method and first die face, the second faces that meet its condition
/// (entry 0: the first faces with any).
fn pair_faces(data: &WokData) -> Vec<[[u8; 7]; data::METHODS]> {
    data.ingredients
        .iter()
        .map(|ing| {
            ing.methods.map(|m| {
                let mut t = [0u8; 7];
                for (a, x) in t.iter_mut().enumerate().skip(1) {
                    for b in 1..=6u8 {
                        *x |= u8::from(m.condition.holds(a as u8, b)) << (b - 1);
                    }
                }
                t[0] = (1..=6).fold(0, |f, a| f | u8::from(t[a] != 0) << (a - 1));
                t
            })
        })
        .collect()
}

impl Game for WokStar {
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
        match s.phase {
            Phase::Over => None,
            Phase::ChooseCharacters
            | Phase::ExtraDie
            | Phase::GiveIngredients
            | Phase::GiveCubes
            | Phase::Prep => Some(0),
            Phase::AfterClose { seat } => Some(seat),
            Phase::Business | Phase::Washing => Some(self.to_move_in_play(s)),
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
        let n = self.players as usize;
        let won = s.won();
        let mut score = [0.0; MAX_SEATS];
        let mut rank = [0u8; MAX_SEATS];
        for i in 0..n {
            score[i] = f64::from(s.days_met);
            rank[i] = 1;
        }
        Some(Outcome {
            seats: self.players,
            score,
            rank,
            winners: if won {
                (1u16 << n).wrapping_sub(1) as u8
            } else {
                0
            },
            capped: false,
            team_score: Some(f64::from(s.margin)),
        })
    }

    fn determinize<R: Rng + ?Sized>(&self, s: &State, observer: Seat, rng: &mut R) -> State {
        self.sample_hidden(s, observer, rng)
    }

    fn observation(&self, s: &State, seat: Seat) -> Observation {
        self.observe(s, seat)
    }

    fn turns_completed(&self, s: &State) -> u32 {
        s.steps
    }

    fn round(&self, s: &State) -> u32 {
        u32::from(s.day)
    }

    fn action_name(&self, s: &State, a: Action) -> String {
        self.name_action(s, a)
    }

    /// While a preparation is pending between its steps.
    fn mid_decision(&self, s: &State) -> bool {
        s.preparing.is_some()
    }
}
