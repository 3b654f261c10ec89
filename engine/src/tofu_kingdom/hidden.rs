//! What each seat sees, the worlds consistent with the answers heard, and determinization.
//!
//! Everyone but Prince Mochi knows every dealt card ("The player being asked may first examine
//! any other player's Character card before answering"), and so also which cards lie in the
//! centre, though not which centre card is which. The Prince knows his own card, the questions
//! and answers, and after his guess the named card and who scored.

use super::data::MAX_CHARACTERS;
use super::state::{State, Stats, Table, MAX_PLAYERS, NO_CARD};
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

/// Rejection tries checked against the record itself before it is compiled into masks (most
/// determinizations early in a round or in small games succeed within them).
const PLAIN_TRIES: usize = 8;

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
        // Compiled only after the first `PLAIN_TRIES` fail.
        let mut record = None;
        let n = self.deck_len as usize;
        for try_ in 0..REJECTION_TRIES {
            // Deck positions, shuffled as the deal shuffles the deck (the same draws).
            let mut order = [0u8; MAX_CHARACTERS];
            for (p, x) in order.iter_mut().enumerate() {
                *x = p as u8;
            }
            order[..n].shuffle(rng);
            let mut at = [0u8; MAX_PLAYERS];
            let mut next = 0;
            for seat in (0..self.players).filter(|&x| x != t.prince) {
                at[seat as usize] = order[next];
                out.cards[seat as usize] = self.deck[order[next] as usize];
                next += 1;
            }
            let fits = match &record {
                None => self.consistent(t, &out.cards),
                Some(r) => self.fits(t, r, &out.cards, &at),
            };
            if fits {
                out.centre = [NO_CARD; MAX_PLAYERS];
                for (c, &p) in out.centre.iter_mut().zip(&order[next..n]) {
                    *c = self.deck[p as usize];
                }
                return out;
            }
            if try_ + 1 >= PLAIN_TRIES {
                record.get_or_insert_with(|| self.record(t));
            }
        }
        let mut seen = 0u64;
        // One pass, reservoir sampling: the k-th consistent deal replaces the pick with
        // probability 1/k, so every consistent deal is picked with probability 1/total.
        let mut picked = false;
        let record = record.unwrap_or_else(|| self.record(t));
        let total = self.for_each_world_in(t, &record, |w| {
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
