//! Tofu Kingdom (3 to 8 players): hidden roles, questions answered under eye marks (must tell the
//! truth, must lie, either), and Prince Mochi's guess. Pure inference under lying.
//!
//! Files, each named for what it holds:
//! - [`data`]: the card data file (YAML schema, loading, validation);
//! - [`params`]: parameters and the named rule options;
//! - [`state`]: the position: the public [`Table`] and the dealt cards;
//! - [`action`]: the actions (ask, answer, guess, steal);
//! - `rules.rs`: answers and their truth, the legal actions, applying an action, scoring;
//! - `hidden.rs`: observations, the worlds consistent with the answers heard, determinization;
//! - `invariants.rs`: conservation checks used by the tests.
//!
//! Rules the rulebook leaves open are options in [`Params`], each with its default documented
//! there. Modelling choices: the Prince asks each other player one question in an order he
//! chooses, then the extra question; a steal with a single possible victim resolves without a
//! decision; several steals resolve clockwise from the Prince's left.

pub mod action;
mod board;
pub mod data;
mod encode;
mod hidden;
mod invariants;
mod lanes;
mod mechanics;
pub mod params;
mod present;
pub use present::KingdomStats;
mod rules;
pub mod state;
mod validate;
mod worlds;

pub use action::Action;
pub use data::{Card, CardData, Eye, Reward, Symbol};
pub use hidden::Observation;
pub use params::{CentreAnswer, Deal, EndCheck, Params, PrinceReward};
pub use state::{
    Answer, Exchange, Phase, Question, State, Stats, Table, MAX_CARDS, MAX_PLAYERS, NO_CARD,
};

use crate::data_file::DataFile;
use crate::error::EngineError;
use crate::game::{Game, Outcome, Seat, MAX_SEATS};
use crate::registry::GameInfo;
use data::MAX_CHARACTERS;
use rand::seq::SliceRandom;
use rand::Rng;

/// What Tofu Kingdom is: its name, player counts, and how it is won.
pub const INFO: GameInfo = GameInfo {
    name: "tofu-kingdom",
    title: "Tofu Kingdom",
    min_players: 3,
    max_players: 8,
    cooperative: false,
    hidden_information: true,
};

/// Tofu Kingdom: rules, card data and parameters. Immutable and shared by all threads.
#[derive(Debug, Clone)]
pub struct TofuKingdom {
    /// The card data.
    pub data: CardData,
    /// The parameters as given.
    pub params: Params,
    players: u8,
    /// The Character cards dealt each round.
    deck: [u8; MAX_CHARACTERS],
    deck_len: u8,
    /// Cards left in the centre each round.
    centre_len: u8,
    target: i16,
    /// Tells this game apart from every other built in this process (a clone keeps it): the
    /// Prince's determinization keeps what it compiled for the last table, per game.
    id: u64,
    /// Every question a Prince may ask, in the order the Ask phase lists them: by Prince, then
    /// by the player asked ([`rules::ask_lists`]).
    asks: Vec<Action>,
    /// Where each (Prince, player asked) block of `asks` starts; `[prince][players]` ends the
    /// Prince's last block.
    ask_start: [[u16; MAX_PLAYERS + 1]; MAX_PLAYERS],
}

/// Most possible deals a game may have: the Prince's exact belief (the greedy agent's posterior,
/// MCTS's determinization when rejection fails) enumerates every deal consistent with the
/// answers, each decision. 7 cards at 8 players make 5,040 (0.34 s a greedy game); 12 cards at 8
/// players made 3,991,680 (171 s a game), so the limit keeps a greedy game within seconds.
pub const MAX_DEALS: u64 = 100_000;

/// The number of ways to deal `cards` distinct cards to `seats` seats, one each (the centre's
/// order does not count): `cards! / (cards - seats)!`.
pub fn deal_count(cards: usize, seats: usize) -> u64 {
    (cards.saturating_sub(seats) + 1..=cards)
        .map(|c| c as u64)
        .product()
}

/// The id of the next game built.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl TofuKingdom {
    /// Builds a game from card data and parameters, checking that they fit together.
    pub fn new(data: CardData, params: Params) -> Result<TofuKingdom, EngineError> {
        let players = params.players;
        INFO.check_players(players)?;
        if params.first_prince >= players {
            return Err(EngineError::param(
                "first_prince",
                format!(
                    "seat {} does not exist with {players} players (seats count from 0)",
                    params.first_prince
                ),
            ));
        }
        if params.max_rounds == 0 {
            return Err(EngineError::param("max_rounds", "must be at least 1"));
        }
        if !(params.ask_where || params.ask_own_card || params.ask_other_card) {
            return Err(EngineError::param(
                "ask_where",
                "ask_where, ask_own_card and ask_other_card are all false: the Prince could ask nothing",
            ));
        }
        let list: Vec<u8> = match params.deal {
            Deal::AllCharacters => data.characters.clone(),
            Deal::BlueOrangeLists => data.blue_orange.get(&players).cloned().ok_or_else(|| {
                EngineError::param(
                    "deal",
                    format!("the data file has no blue_orange list for {players} players"),
                )
            })?,
        };
        if list.len() < players as usize - 1 {
            return Err(EngineError::param(
                "players",
                format!(
                    "{} Character cards cannot be dealt to {} players besides the Prince",
                    list.len(),
                    players - 1
                ),
            ));
        }
        let centre = list.len() - (players as usize - 1);
        if list.len() > MAX_CHARACTERS || centre > MAX_PLAYERS {
            return Err(EngineError::field(
                &data.source,
                "cards",
                format!(
                    "{} Character cards leave {centre} face down in the centre at {players} players; at most {MAX_PLAYERS} fit",
                    list.len()
                ),
            ));
        }
        let deals = deal_count(list.len(), players as usize - 1);
        if deals > MAX_DEALS {
            return Err(EngineError::param(
                "deal",
                format!(
                    "{} Character cards dealt to {} players besides the Prince make {deals} possible deals; \
                     the Prince's belief (greedy and MCTS agents) weighs every deal consistent with \
                     the answers, so at most {MAX_DEALS} are supported (a greedy game would take \
                     minutes): use fewer players, fewer cards, or a blue_orange list with fewer cards",
                    list.len(),
                    players - 1
                ),
            ));
        }
        let mut deck = [0u8; MAX_CHARACTERS];
        deck[..list.len()].copy_from_slice(&list);
        let target = params.winning_score.unwrap_or(data.winning_score);
        if target == 0 {
            return Err(EngineError::param("winning_score", "must be at least 1"));
        }
        let (asks, ask_start) = rules::ask_lists(players, &params);
        Ok(TofuKingdom {
            asks,
            ask_start,
            players,
            deck,
            deck_len: list.len() as u8,
            centre_len: (list.len() - (players as usize - 1)) as u8,
            target: target.min(i16::MAX as u16) as i16,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            data,
            params,
        })
    }

    /// The embedded data with these parameters.
    pub fn with_params(params: Params) -> Result<TofuKingdom, EngineError> {
        Self::new(CardData::embedded(), params)
    }

    /// The Character cards in play this game (dealt each round).
    pub fn deck(&self) -> &[u8] {
        &self.deck[..self.deck_len as usize]
    }

    /// Cards left face down in the centre each round.
    pub fn centre_len(&self) -> u8 {
        self.centre_len
    }

    /// Points that end the game.
    pub fn target(&self) -> i16 {
        self.target
    }

    /// Questions in a round: one to each other player, and the extra one unless switched off.
    pub fn questions_per_round(&self) -> u8 {
        self.players - 1 + u8::from(self.params.extra_question)
    }

    /// Shuffles the deck and deals one card to each seat but the Prince; the rest go to the
    /// centre.
    fn deal_round<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let mut deck = self.deck;
        let n = self.deck_len as usize;
        deck[..n].shuffle(rng);
        let t = &mut s.table;
        let mut next = 0;
        for k in 1..self.players {
            let seat = (t.prince + k) % self.players;
            s.cards[seat as usize] = deck[next];
            next += 1;
        }
        s.cards[t.prince as usize] = self.data.prince;
        s.centre = [NO_CARD; MAX_PLAYERS];
        s.centre_len = (n - next) as u8;
        s.centre[..n - next].copy_from_slice(&deck[next..n]);
        let prince = s.table.prince as usize;
        s.table.prince_rounds[prince] = s.table.prince_rounds[prince].saturating_add(1);
        // The referee's record, never observed (see `Stats`).
        if s.centre().iter().all(|&c| c != self.data.princess) {
            s.stats.princess_dealt[prince] = s.stats.princess_dealt[prince].saturating_add(1);
        }
        for seat in 0..self.players as usize {
            let c = s.cards[seat] as usize;
            s.stats.card_rounds[c] = s.stats.card_rounds[c].saturating_add(1);
        }
    }
}

impl State {
    /// The centre cards.
    pub fn centre(&self) -> &[u8] {
        &self.centre[..self.centre_len as usize]
    }
}

impl TofuKingdom {
    /// A new game: the first Prince, no points, the first round dealt.
    pub(crate) fn set_up<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        let empty = Exchange {
            to: 0,
            question: Question::WherePrincess,
            answer: Answer::Centre,
        };
        let mut s = State {
            table: Table {
                players: self.players,
                prince: self.params.first_prince,
                round: 1,
                turns: 0,
                points: [0; MAX_PLAYERS],
                gained: [0; MAX_PLAYERS],
                phase: Phase::Ask,
                asked: 0,
                log: [empty; state::MAX_QUESTIONS],
                log_len: 0,
                guess: None,
                revealed: NO_CARD,
                scored: 0,
                steals: 0,
                prince_rounds: [0; MAX_PLAYERS],
                finds: [0; MAX_PLAYERS],
                symbol_rounds: [0; 3],
                gains: 0,
                stolen: 0,
                reached: false,
                capped: false,
            },
            cards: [NO_CARD; MAX_PLAYERS],
            centre: [NO_CARD; MAX_PLAYERS],
            centre_len: 0,
            stats: Stats::default(),
        };
        self.deal_round(&mut s, rng);
        s
    }

    /// A human-readable name for `a`.
    pub(crate) fn name_action(&self, a: Action) -> String {
        let card = |c: u8| {
            self.data
                .cards
                .get(c as usize)
                .map(|x| x.id.clone())
                .unwrap_or_else(|| format!("card {c}"))
        };
        match a {
            Action::Ask { to, question } => format!(
                "ask player {}: {}",
                u32::from(to) + 1,
                match question {
                    Question::WherePrincess => "where is Princess Tofu?".to_string(),
                    Question::OwnCard => "which card do you hold?".to_string(),
                    Question::CardOf(x) =>
                        format!("which card does player {} hold?", u32::from(x) + 1),
                }
            ),
            Action::Answer(Answer::Seat(x)) => format!("answer: with player {}", u32::from(x) + 1),
            Action::Answer(Answer::Centre) => "answer: in the centre".to_string(),
            Action::Answer(Answer::Card(c)) => format!("answer: {}", card(c)),
            Action::Guess(x) => format!("name player {} as Princess Tofu", u32::from(x) + 1),
            Action::Steal(x) => format!("take a point from player {}", u32::from(x) + 1),
        }
    }
}

impl Game for TofuKingdom {
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
        match s.table.phase {
            Phase::Ask | Phase::Guess => Some(s.table.prince),
            Phase::Answer { to, .. } => Some(to),
            Phase::Steal { seat } => Some(seat),
            Phase::Over => None,
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
        if !s.table.is_over() {
            return None;
        }
        let n = self.players as usize;
        let mut score = [0.0; MAX_SEATS];
        for i in 0..n {
            score[i] = f64::from(s.table.points[i]);
        }
        // "The player with the highest score wins the game. The game is a tie if more than one
        // player shares the highest score."
        Some(Outcome::from_keys(
            n,
            score,
            &s.table.points[..n],
            s.table.capped,
        ))
    }

    fn determinize<R: Rng + ?Sized>(&self, s: &State, observer: Seat, rng: &mut R) -> State {
        self.sample_hidden(s, observer, rng)
    }

    fn observation(&self, s: &State, seat: Seat) -> Observation {
        self.observe(s, seat)
    }

    fn turns_completed(&self, s: &State) -> u32 {
        s.table.turns
    }

    fn round(&self, s: &State) -> u32 {
        u32::from(s.table.round)
    }

    fn action_name(&self, _s: &State, a: Action) -> String {
        self.name_action(a)
    }
}
