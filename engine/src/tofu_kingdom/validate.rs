//! Checking a state that came from outside: every seat, card and count within range, then the
//! invariants, then a move to make unless the game is over. A state that passes plays on without
//! panicking.

use super::action::Action;
use super::state::{Answer, Phase, Question, State, MAX_PLAYERS, NO_CARD};
use super::TofuKingdom;

/// Most points gained in a loaded state's record: every seat's points are at most this, so a
/// round's reward and steal (at most 255 each) cannot overflow them.
const MAX_LOADED_GAINS: u16 = i16::MAX as u16 - 512;

impl TofuKingdom {
    /// Checks a loaded state; the error names the field.
    pub fn check_state(&self, s: &State) -> Result<(), String> {
        let t = &s.table;
        self.check_clock(s)?;
        self.check_cards_dealt(s)?;
        self.check_log(s)?;
        self.check_round(s)?;
        self.check_invariants(s)?;
        if !s.table.is_over() {
            let mut legal: Vec<Action> = Vec::new();
            self.legal(s, &mut legal);
            if legal.is_empty() {
                return Err(format!("table.phase: no legal action in {:?}", t.phase));
            }
        }
        Ok(())
    }
    /// `x` is a seat of the game.
    fn seat_in(&self, name: &str, x: u8) -> Result<(), String> {
        let n = self.players;
        if x < n {
            Ok(())
        } else {
            Err(format!("{name}: seat {x} in a {n}-player game"))
        }
    }

    /// `c` is a card of the data.
    fn card_in(&self, name: &str, c: u8) -> Result<(), String> {
        let cards = self.data.cards.len();
        if (c as usize) < cards {
            Ok(())
        } else {
            Err(format!(
                "{name}: card index {c} beyond the {cards} cards of the data"
            ))
        }
    }

    /// Players, the Prince, round and turns.
    fn check_clock(&self, s: &State) -> Result<(), String> {
        let (t, n) = (&s.table, self.players);
        if t.players != n {
            return Err(format!(
                "table.players: the state has {} players, the game {n}",
                t.players
            ));
        }
        self.seat_in("table.prince", t.prince)?;
        if t.round == 0 || t.round > self.params.max_rounds {
            return Err(format!(
                "table.round: {} is not from 1 to {}",
                t.round, self.params.max_rounds
            ));
        }
        // A round is a few dozen decisions; a thousand a round is past any game, and keeps the
        // count far from overflowing as the game goes on.
        let most_turns = u32::from(t.round) * 1_000;
        if t.turns > most_turns {
            return Err(format!(
                "table.turns: {} decisions by round {} (at most {most_turns})",
                t.turns, t.round
            ));
        }
        Ok(())
    }

    /// The seats' cards, the centre, the points record and the round's steals.
    fn check_cards_dealt(&self, s: &State) -> Result<(), String> {
        let (t, n) = (&s.table, self.players);
        for (i, &c) in s.cards.iter().enumerate() {
            if i < n as usize {
                self.card_in(&format!("cards[{i}]"), c)?;
            } else if c != NO_CARD {
                return Err(format!("cards[{i}]: a card for a seat not in the game"));
            }
        }
        if s.centre_len as usize > MAX_PLAYERS || s.centre_len != self.centre_len() {
            return Err(format!(
                "centre_len: {} cards in the centre, the game leaves {}",
                s.centre_len,
                self.centre_len()
            ));
        }
        for (i, &c) in s.centre[..s.centre_len as usize].iter().enumerate() {
            self.card_in(&format!("centre[{i}]"), c)?;
        }
        if t.gains > MAX_LOADED_GAINS || t.stolen > t.gains {
            return Err(format!(
                "table.gains/stolen: {} points gained and {} stolen is not a game's record",
                t.gains, t.stolen
            ));
        }
        let st = &s.stats;
        if st.round_steals_len as usize > MAX_PLAYERS {
            return Err(format!(
                "stats.round_steals_len: {} steals, at most {MAX_PLAYERS}",
                st.round_steals_len
            ));
        }
        for (i, &(thief, victim, _)) in st.round_steals[..st.round_steals_len as usize]
            .iter()
            .enumerate()
        {
            self.seat_in(&format!("stats.round_steals[{i}]"), thief)?;
            self.seat_in(&format!("stats.round_steals[{i}]"), victim)?;
        }
        Ok(())
    }

    /// The questions asked and the seats the phase names.
    fn check_log(&self, s: &State) -> Result<(), String> {
        let t = &s.table;
        if t.log_len as usize > t.log.len() {
            return Err(format!("table.log_len: {} entries", t.log_len));
        }
        for (i, e) in t.log().iter().enumerate() {
            let f = |x: &str| format!("table.log[{i}].{x}");
            self.seat_in(&f("to"), e.to)?;
            if let Question::CardOf(x) = e.question {
                self.seat_in(&f("question"), x)?;
            }
            match e.answer {
                Answer::Seat(x) => self.seat_in(&f("answer"), x)?,
                Answer::Card(c) => self.card_in(&f("answer"), c)?,
                Answer::Centre => {}
            }
        }
        match t.phase {
            Phase::Answer { to, question } => {
                self.seat_in("table.phase.to", to)?;
                if let Question::CardOf(x) = question {
                    self.seat_in("table.phase.question", x)?;
                }
            }
            Phase::Steal { seat: x } => self.seat_in("table.phase.seat", x)?,
            _ => {}
        }
        Ok(())
    }

    /// The first round's askings, the phase against the questions asked, the guess and what it
    /// turned up, and the seats scored and stealing.
    fn check_round(&self, s: &State) -> Result<(), String> {
        let (t, n) = (&s.table, self.players);
        // The first round asks each other player once, in the log's first n-1 entries.
        let first = (t.log_len as usize).min(n as usize - 1);
        let mut asked = 0u8;
        for (i, e) in t.log[..first].iter().enumerate() {
            if e.to == t.prince || asked & (1 << e.to) != 0 {
                return Err(format!(
                    "table.log[{i}].to: seat {} asked twice or is the Prince",
                    e.to
                ));
            }
            asked |= 1 << e.to;
        }
        if t.asked != asked {
            return Err("table.asked: not the seats the log's first round asked".into());
        }
        let in_round = t.log_len < self.questions_per_round();
        if t.log_len > self.questions_per_round() {
            return Err(format!(
                "table.log_len: {} questions, a round has {}",
                t.log_len,
                self.questions_per_round()
            ));
        }
        match t.phase {
            Phase::Ask | Phase::Answer { .. } if !in_round => {
                return Err("table.phase: questions after every question was asked".into())
            }
            Phase::Answer { to, .. }
                if to == t.prince || (first < n as usize - 1 && asked & (1 << to) != 0) =>
            {
                return Err(format!("table.phase.to: seat {to} may not be asked now"))
            }
            Phase::Guess if in_round => {
                return Err("table.phase: a guess before every question was asked".into())
            }
            Phase::Steal { seat } if t.guess.is_none() || t.steals & (1 << seat) == 0 => {
                return Err(format!(
                    "table.phase.seat: seat {seat} has no steal to make"
                ))
            }
            _ => {}
        }
        if let Some(g) = t.guess {
            self.seat_in("table.guess", g)?;
        }
        match t.guess {
            Some(g) if t.revealed != s.cards[g as usize] => {
                return Err("table.revealed: not the named seat's card".into())
            }
            None if t.revealed != NO_CARD => {
                return Err("table.revealed: a card turned up before any guess".into())
            }
            _ => {}
        }
        if u16::from(t.scored) >> n != 0 || u16::from(t.steals) >> n != 0 {
            return Err("table.scored/steals: a seat not in the game".into());
        }
        Ok(())
    }
}
