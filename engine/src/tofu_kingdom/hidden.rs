//! What each seat sees, the worlds consistent with the answers heard, and determinization.
//!
//! Everyone but Prince Mochi knows every dealt card ("The player being asked may first examine
//! any other player's Character card before answering"), and so also which cards lie in the
//! centre, though not which centre card is which. The Prince knows his own card, the questions
//! and answers, and after his guess the named card and who scored.

use super::params::CentreAnswer;
use super::state::{Answer, Question, State, Stats, Table, MAX_PLAYERS, NO_CARD};
use super::TofuKingdom;
use crate::game::Seat;
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;

/// What one seat sees.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    /// The observing seat.
    pub seat: u8,
    /// Everything public: Prince, points, phase, this round's questions and answers, the guess.
    pub table: Table,
    /// The cards the seat knows, by seat ([`NO_CARD`] where unknown).
    pub cards: [u8; MAX_PLAYERS],
    /// The centre cards the seat knows, sorted ([`NO_CARD`] where unknown).
    pub centre: [u8; MAX_PLAYERS],
}

/// Rejection-sampling tries before exact enumeration.
const REJECTION_TRIES: usize = 64;

impl TofuKingdom {
    pub(super) fn observe(&self, s: &State, seat: Seat) -> Observation {
        let t = &s.table;
        let mut cards = [NO_CARD; MAX_PLAYERS];
        let mut centre = [NO_CARD; MAX_PLAYERS];
        if seat == t.prince {
            cards[seat as usize] = s.cards[seat as usize];
            if let Some(g) = t.guess {
                cards[g as usize] = t.revealed;
            }
        } else {
            cards[..self.players as usize].copy_from_slice(&s.cards[..self.players as usize]);
            let c = s.centre();
            centre[..c.len()].copy_from_slice(c);
            centre[..c.len()].sort_unstable();
        }
        Observation {
            seat,
            table: *t,
            cards,
            centre,
        }
    }

    /// Calls `f` with every assignment of this game's Character cards to the seats other than
    /// the Prince that is consistent with the public record `t` (every answer allowed by its
    /// answerer's eye mark, the named card and the scorers), with the Prince holding the Prince
    /// Mochi card. Cards left over lie in the centre. Returns the number of worlds.
    pub fn for_each_world(&self, t: &Table, mut f: impl FnMut(&[u8; MAX_PLAYERS])) -> u64 {
        let mut cards = [NO_CARD; MAX_PLAYERS];
        cards[t.prince as usize] = self.data.prince;
        let mut count = 0;
        self.extend_world(t, &mut cards, 0, 0, &mut |w| {
            count += 1;
            f(w)
        });
        count
    }

    /// Assigns cards to seats from `seat` on (skipping the Prince); `used` marks deck positions.
    fn extend_world(
        &self,
        t: &Table,
        cards: &mut [u8; MAX_PLAYERS],
        seat: u8,
        used: u16,
        f: &mut dyn FnMut(&[u8; MAX_PLAYERS]),
    ) {
        if seat == self.players {
            // Every constraint was checked by `partly_consistent` as its last seat was dealt
            // (the Prince's own card is the same in every deal).
            f(cards);
            return;
        }
        if seat == t.prince {
            return self.extend_world(t, cards, seat + 1, used, f);
        }
        for (i, &c) in self.deck().iter().enumerate() {
            if used & (1 << i) == 0 {
                cards[seat as usize] = c;
                if self.partly_consistent(t, cards, seat) {
                    self.extend_world(t, cards, seat + 1, used | (1 << i), f);
                }
            }
        }
        cards[seat as usize] = NO_CARD;
    }

    /// The last seat to be assigned (seats are assigned in order, skipping the Prince).
    fn last_assigned(&self, t: &Table) -> u8 {
        if t.prince == self.players - 1 {
            self.players - 2
        } else {
            self.players - 1
        }
    }

    /// With seats up to `seat` assigned: every constraint that depends only on those seats and
    /// involves `seat` holds. Together, over every seat, this is [`TofuKingdom::consistent`]
    /// for the seats that vary (a test checks the enumeration against a brute-force count).
    fn partly_consistent(&self, t: &Table, cards: &[u8; MAX_PLAYERS], seat: u8) -> bool {
        let last = self.last_assigned(t);
        for e in t.log() {
            let ready = match (e.question, e.answer) {
                (Question::OwnCard, _) => e.to,
                (Question::CardOf(x), _) => e.to.max(x),
                // "With player s" is true exactly when s holds her, whoever else is assigned
                // (under `say-centre`; under `free` her being in the centre frees every answer).
                (Question::WherePrincess, Answer::Seat(s))
                    if self.params.centre_answer == CentreAnswer::SayCentre =>
                {
                    e.to.max(s)
                }
                _ => last,
            };
            if ready == seat && !self.answer_allowed(cards, e.to, e.question, e.answer) {
                return false;
            }
        }
        if let Some(g) = t.guess {
            if g == seat && cards[seat as usize] != t.revealed {
                return false;
            }
            if self.scores(t, seat, cards[seat as usize]) != (t.scored & (1 << seat) != 0) {
                return false;
            }
        }
        true
    }

    /// A copy of `base` with this round's deal replaced by `cards` (a world from
    /// [`TofuKingdom::for_each_world`]: the seats' cards, the Prince holding his): the deck's
    /// other cards go to the centre in random order, and the copy carries no referee statistics.
    /// Searches that weight their worlds (by how likely the answers heard are in each) build
    /// their determinizations with it.
    pub fn with_world<R: Rng + ?Sized>(
        &self,
        base: &State,
        cards: &[u8; MAX_PLAYERS],
        rng: &mut R,
    ) -> State {
        let mut out = *base;
        out.cards = *cards;
        out.stats = Stats::default();
        self.fill_centre(&mut out, rng);
        out
    }

    /// Puts the deck cards no seat holds into the centre, in random order.
    fn fill_centre<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let mut k = 0;
        s.centre = [NO_CARD; MAX_PLAYERS];
        for &c in self.deck() {
            if !s.cards[..self.players as usize].contains(&c) {
                s.centre[k] = c;
                k += 1;
            }
        }
        s.centre_len = k as u8;
        s.centre[..k].shuffle(rng);
    }

    /// Determinization. For the Prince: a world drawn uniformly from those consistent with
    /// everything he has heard and seen (rejection sampling from fresh deals, then exact
    /// enumeration if that keeps failing; both are exact). For anyone else only the order of
    /// the centre cards is unknown, so only it is re-drawn.
    pub(super) fn sample_world<R: Rng + ?Sized>(
        &self,
        s: &State,
        observer: Seat,
        rng: &mut R,
    ) -> State {
        let mut out = *s;
        // The referee's statistics depend on cards no seat sees: a determinized copy has none.
        out.stats = Stats::default();
        let t = &s.table;
        if observer != t.prince {
            // Sorted first, so the result depends only on what the observer knows.
            let n = out.centre_len as usize;
            out.centre[..n].sort_unstable();
            out.centre[..n].shuffle(rng);
            return out;
        }
        let n = self.deck_len as usize;
        for _ in 0..REJECTION_TRIES {
            let mut deck = self.deck;
            deck[..n].shuffle(rng);
            let mut next = 0;
            for seat in (0..self.players).filter(|&x| x != t.prince) {
                out.cards[seat as usize] = deck[next];
                next += 1;
            }
            if self.consistent(t, &out.cards) {
                out.centre = [NO_CARD; MAX_PLAYERS];
                out.centre[..n - next].copy_from_slice(&deck[next..n]);
                return out;
            }
        }
        let mut seen = 0u64;
        // One pass, reservoir sampling: the k-th consistent deal replaces the pick with
        // probability 1/k, so every consistent deal is picked with probability 1/total.
        let mut picked = false;
        let total = self.for_each_world(t, |w| {
            seen += 1;
            if rng.gen_range(0..seen) == 0 {
                out.cards = *w;
                picked = true;
            }
        });
        debug_assert!(total > 0 && picked, "the true world is always consistent");
        if !picked {
            // Only a hand-made state whose log no deal satisfies gets here.
            return State {
                stats: Stats::default(),
                ..*s
            };
        }
        self.fill_centre(&mut out, rng);
        out
    }
}
