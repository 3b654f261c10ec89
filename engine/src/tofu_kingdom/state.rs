//! The position: who is Prince Mochi, the cards dealt, the questions and answers of the round,
//! and the points.

use serde::{Deserialize, Serialize};

/// Most players.
pub const MAX_PLAYERS: usize = super::INFO.max_players as usize;
/// Most questions in a round: one to each of up to 7 other players, plus the extra one.
pub const MAX_QUESTIONS: usize = MAX_PLAYERS;
/// "No card" / "unknown" in card arrays.
pub const NO_CARD: u8 = u8::MAX;

/// A question Prince Mochi asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Question {
    /// "Where is Princess Tofu?"
    WherePrincess,
    /// "Which Character card do you hold?"
    OwnCard,
    /// "Which Character card does this other player hold?"
    CardOf(u8),
}

/// An answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Answer {
    /// "Princess Tofu is with this player" (a seat).
    Seat(u8),
    /// "Princess Tofu is in the centre" (not dealt).
    Centre,
    /// "That card is this one" (a card index).
    Card(u8),
}

/// One question and its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exchange {
    /// The asked seat.
    pub to: u8,
    /// The question.
    pub question: Question,
    /// The answer given.
    pub answer: Answer,
}

/// Where the round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Prince Mochi chooses the next question.
    Ask,
    /// The asked seat answers.
    Answer {
        /// The asked seat.
        to: u8,
        /// The question.
        question: Question,
    },
    /// Prince Mochi names the player he takes for Princess Tofu.
    Guess,
    /// A scoring seat with a steal reward chooses whom to take points from.
    Steal {
        /// The stealing seat.
        seat: u8,
    },
    /// The game is over.
    Over,
}

/// Everything public about the game: what every seat sees. Kept apart from the dealt cards so
/// an observation can carry it whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Number of players.
    pub players: u8,
    /// The seat holding the Prince Mochi card this round.
    pub prince: u8,
    /// The round, 1-based.
    pub round: u16,
    /// Decisions taken so far (each question, answer, guess and steal is one turn).
    pub turns: u32,
    /// Points by seat.
    pub points: [i16; MAX_PLAYERS],
    /// Points gained this round by seat (they cannot be stolen this round).
    pub gained: [i16; MAX_PLAYERS],
    /// The phase.
    pub phase: Phase,
    /// Seats asked one of their own questions this round (bit per seat).
    pub asked: u8,
    /// This round's questions and answers, in order.
    pub log: [Exchange; MAX_QUESTIONS],
    /// Number of entries in `log`.
    pub log_len: u8,
    /// The seat the Prince named this round, once named.
    pub guess: Option<u8>,
    /// The named seat's card, turned face up.
    pub revealed: u8,
    /// Seats whose card scored this round (bit per seat).
    pub scored: u8,
    /// Seats still to resolve a steal reward this round (bit per seat).
    pub steals: u8,
    /// Rounds each seat has been Prince Mochi.
    pub prince_rounds: [u16; MAX_PLAYERS],
    /// Rounds in which each seat, as Prince, named Princess Tofu's holder (public: the named
    /// card is turned face up).
    pub finds: [u16; MAX_PLAYERS],
    /// Rounds won by each winning symbol (heart, crown, mask).
    pub symbol_rounds: [u16; 3],
    /// Points gained so far by every seat together, steals included (public: beans are taken
    /// in view).
    pub gains: u16,
    /// Points taken by steals so far (they move between seats, so the seats' points add up to
    /// `gains` less this).
    pub stolen: u16,
    /// A seat reached the winning score at some moment of this round (a steal may have taken
    /// it back below since).
    pub reached: bool,
    /// The round cap stopped the game.
    pub capped: bool,
}

/// The most cards a data file may hold: the Character cards and Prince Mochi's.
pub const MAX_CARDS: usize = super::data::MAX_CHARACTERS + 1;

/// The referee's record for the findings: statistics that depend on cards no seat may see
/// (whether Princess Tofu was dealt, which card scored). It is never part of an observation,
/// and a determinized copy carries an empty one, so no agent can read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Stats {
    /// Rounds each seat was Prince while Princess Tofu was dealt to a player (not in the centre).
    pub princess_dealt: [u16; MAX_PLAYERS],
    /// Points gained by cards of each faction (heart, crown, mask), steals included.
    pub faction_points: [u16; 3],
    /// Points gained by each card (by card index, Prince Mochi's included), steals included.
    pub card_points: [u16; MAX_CARDS],
    /// Rounds each card was held by a player (Prince Mochi's: rounds played).
    pub card_rounds: [u16; MAX_CARDS],
    /// Questions asked, by type: where is Princess Tofu, your card, another player's card.
    pub questions: [u16; 3],
    /// This round's steals: stealer, victim and points, in order.
    pub round_steals: [(u8, u8, u8); MAX_PLAYERS],
    /// Number of entries in `round_steals`.
    pub round_steals_len: u8,
    /// Rounds in which a seat reached the winning score and a steal took it back below.
    pub robbed_below: u16,
    /// The game ended and undoing the last round's steals would change who wins.
    pub steal_decided: bool,
    /// `steal_decided`, and a stealer of that round is not among the winners: a kingmaker.
    pub kingmade: bool,
}

/// One position of Tofu Kingdom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The public part.
    pub table: Table,
    /// The card each seat holds (the Prince holds the Prince Mochi card).
    pub cards: [u8; MAX_PLAYERS],
    /// Character cards face down in the centre; [`NO_CARD`] past `centre_len`.
    pub centre: [u8; MAX_PLAYERS],
    /// Number of cards in the centre.
    pub centre_len: u8,
    /// The referee's statistics (never observed; see [`Stats`]).
    #[serde(default)]
    pub stats: Stats,
}

impl State {
    /// This round's questions and answers.
    pub fn log(&self) -> &[Exchange] {
        self.table.log()
    }
}

impl Table {
    /// This round's questions and answers.
    pub fn log(&self) -> &[Exchange] {
        &self.log[..self.log_len as usize]
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
}
