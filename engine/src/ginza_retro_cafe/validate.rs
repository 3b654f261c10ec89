//! Checking a state that came from outside (a file, a user): every field within its range
//! first, so no later check or rule indexes out of bounds, then the conservation invariants
//! ([`GinzaRetroCafe::check_invariants`]), then a move to make unless the game is over. Each
//! error begins with the field it refuses.

use super::choices::ASIDE_SPOT;
use super::state::{CardId, Phase, State, MAX_PLAYERS};
use super::GinzaRetroCafe;

/// Actions a round may hold, far past any game (a bound for `turns`).
const TURNS_PER_ROUND: u32 = 1_000;

impl GinzaRetroCafe {
    /// Checks a loaded state: the fields' ranges, the invariants, and a legal action in a game
    /// that is not over. The error names the field.
    pub fn check_state(&self, s: &State) -> Result<(), String> {
        self.check_fields(s)?;
        self.check_invariants(s)?;
        let mut legal = Vec::new();
        self.legal(s, &mut legal);
        if legal.is_empty() != s.is_over() {
            return Err("phase: no legal action in a game that is not over".into());
        }
        Ok(())
    }

    /// The ranges of the fields the invariants do not cover: the round and turns, the start
    /// players, the parked tokens' spots, the Drink bonus bits, the seats that do not play.
    fn check_fields(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        if s.players != n {
            return Err(format!("players: {} in a {n}-player game", s.players));
        }
        let setting_up = matches!(
            s.phase,
            Phase::ChoosePlayerCard { .. } | Phase::Draft { .. }
        );
        let most = self.max_round();
        if setting_up && s.round != 0 {
            return Err(format!("round: {} while the cards are chosen (0)", s.round));
        }
        if !setting_up && !(1..=most).contains(&s.round) {
            return Err(format!("round: {} is not from 1 to {most}", s.round));
        }
        let turns = u32::from(s.round) * TURNS_PER_ROUND + 3 * u32::from(n);
        if s.turns > turns {
            return Err(format!(
                "turns: {} past any game of {} rounds ({turns})",
                s.turns, s.round
            ));
        }
        for (field, seat) in [
            ("start_player", s.start_player),
            ("first_start", s.first_start),
        ] {
            if seat >= n {
                return Err(format!("{field}: seat {seat} in a {n}-player game"));
            }
        }
        if s.bonus_used >> n != 0 {
            return Err(format!(
                "bonus_used: {:#b} marks a seat past the {n} players",
                s.bonus_used
            ));
        }
        for i in 0..MAX_PLAYERS {
            self.check_parked_on(s, i)?;
        }
        for i in usize::from(n)..MAX_PLAYERS {
            Self::check_empty_seat(s, i)?;
        }
        Ok(())
    }

    /// The last round a game can reach: every customer leaves within `time_marker` rounds.
    fn max_round(&self) -> u8 {
        let r = u32::from(self.data.rulebook.time_marker) * 3 * u32::from(self.players) + 1;
        r.min(u32::from(u8::MAX)) as u8
    }

    /// `parked_on`: a bit for each spot that holds a parked token, none without one; one
    /// token a spot without `stacked_tokens`, and "set aside" only then.
    fn check_parked_on(&self, s: &State, i: usize) -> Result<(), String> {
        let on = s.parked_on[i];
        let spots = on.count_ones() as u8;
        // The Arrange cards 0..3, Dishwashing, then set aside: every spot up to ASIDE_SPOT.
        let known = (1u8 << (ASIDE_SPOT + 1)) - 1;
        let wrong = if on & !known != 0 {
            Some("a spot past the Arrange cards, Dishwashing and set aside")
        } else if (on == 0) != (s.parked[i] == 0) || spots > s.parked[i] {
            Some("spots that do not match the tokens parked")
        } else if self.params.stacked_tokens && on & (1 << ASIDE_SPOT) != 0 {
            Some("a token set aside, which only happens without stacked_tokens")
        } else if !self.params.stacked_tokens && spots != s.parked[i] {
            Some("one token a spot without stacked_tokens")
        } else {
            None
        };
        match wrong {
            Some(why) => Err(format!(
                "parked_on[{i}]: {on:#b} with {} parked: {why}",
                s.parked[i]
            )),
            None => Ok(()),
        }
    }

    /// A seat past the players holds nothing: no cards, dice, tokens, coins or orders.
    fn check_empty_seat(s: &State, i: usize) -> Result<(), String> {
        let fields: [(&str, bool); 15] = [
            ("card_dealt", s.card_dealt[i] == [CardId::NONE; 2]),
            ("card", s.card[i].is_none()),
            ("levels", s.levels[i] == [1; 3]),
            ("limit", s.limit[i] == 0),
            ("dice", s.dice[i] == [0; 6]),
            ("tokens", s.tokens[i] == 0),
            ("parked", s.parked[i] == 0),
            ("parked_on", s.parked_on[i] == 0),
            ("coins", s.coins[i] == 0),
            ("won_orders", s.won_orders[i] == 0),
            ("purple_held", s.purple_held[i] == 0),
            ("bonus_offer", s.bonus_offer[i] == [CardId::NONE; 3]),
            ("bonus_hand", s.bonus_hand[i] == [CardId::NONE; 2]),
            ("bonus_passed", s.bonus_passed[i] == [CardId::NONE; 2]),
            ("bonus_discard", s.bonus_discard[i].is_none()),
        ];
        match fields.iter().find(|(_, empty)| !empty) {
            None => Ok(()),
            Some((field, _)) => Err(format!(
                "{field}[{i}]: seat {i} does not play, yet holds something"
            )),
        }
    }
}
