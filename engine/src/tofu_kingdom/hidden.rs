//! What each seat sees, the worlds consistent with the answers heard, and determinization.
//!
//! Everyone but Prince Mochi knows every dealt card ("The player being asked may first examine
//! any other player's Character card before answering"), and so also which cards lie in the
//! centre, though not which centre card is which. The Prince knows his own card, the questions
//! and answers, and after his guess the named card and who scored.

use super::data::MAX_CHARACTERS;
use super::state::{State, Stats, Table, MAX_PLAYERS, NO_CARD};
use super::worlds::Record;
use super::{Params, TofuKingdom};
use crate::game::Seat;
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;
use std::cell::RefCell;

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

/// What one thread last compiled for the Prince's determinization: the record of a table and,
/// once enumerated, its consistent deals. A search determinizes the same position many times;
/// both depend only on the game and the public table, so they are kept for the next call.
struct Known {
    /// The game ([`TofuKingdom`]'s id) and parameters they were compiled for.
    game: u64,
    params: Params,
    table: Table,
    record: Record,
    /// Whether `deals` holds this table's deals.
    enumerated: bool,
    /// The consistent deals in [`TofuKingdom::for_each_world`]'s order, once enumerated.
    deals: Vec<[u8; MAX_PLAYERS]>,
}

thread_local! {
    static KNOWN: RefCell<Option<Known>> = const { RefCell::new(None) };
}

/// The room for deck positions the rejection tries shuffle: the largest deck, rounded up to a
/// power of two so that indices masked into it need no bounds check.
const SHUFFLED: usize = MAX_CHARACTERS.next_power_of_two();

/// `SliceRandom::shuffle` of rand 0.8 on the first `n` of `v`, with the same draws and the same
/// result (a test holds the two together), for the rejection tries: each draw's rejection zone
/// comes from a table instead of a leading-zero count, and the swaps need no bounds checks.
/// Fisher-Yates from the top; the draw for index `i` is Lemire's widening multiply of a `u32` by
/// `i + 1`, drawn again while the low half is above the zone `((i + 1) << lz) - 1`.
fn shuffle<R: Rng + ?Sized>(v: &mut [u8; SHUFFLED], n: usize, rng: &mut R) {
    const ZONES: [u32; SHUFFLED + 1] = {
        let mut z = [0u32; SHUFFLED + 1];
        let mut r = 1;
        while r <= SHUFFLED {
            let r32 = r as u32;
            z[r] = (r32 << r32.leading_zeros()).wrapping_sub(1);
            r += 1;
        }
        z
    };
    // (`n` is the deck's length, at most `MAX_CHARACTERS` by `TofuKingdom::new`.)
    for i in (1..n.min(SHUFFLED)).rev() {
        let range = i as u64 + 1;
        let zone = ZONES[i + 1];
        let j = loop {
            let m = u64::from(rng.next_u32()) * range;
            if m as u32 <= zone {
                break (m >> 32) as usize;
            }
        };
        v.swap(i, j & (SHUFFLED - 1));
    }
}

/// Rejection-sampling tries before exact enumeration.
const REJECTION_TRIES: usize = 64;

/// Rejection tries checked against the record itself before it is compiled into masks (most
/// determinizations early in a round or in small games succeed within them), by number of
/// players. From six players on, few deals fit the answers heard and the first tries rarely
/// succeed, so the record is compiled after the first (`prince_determinize` at 8 players, every
/// question answered: 41,549 instructions a call with eight plain tries, 40,229 with one; at 7,
/// 20,171 and 19,408; at 6, equal; at 5 and 3, eight plain tries are 290 and 470 cheaper).
const fn plain_tries(players: u8) -> usize {
    if players >= 6 {
        1
    } else {
        8
    }
}

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

    /// Whether `k` was compiled for table `t` of this game (the turn and the game first: they
    /// tell most other tables apart at once).
    fn compiled_for(&self, k: &Known, t: &Table) -> bool {
        k.table.turns == t.turns && k.game == self.id && k.table == *t && k.params == self.params
    }

    /// Compiles table `t`'s record into `known`, in place of what it held (its deals not yet
    /// enumerated; their buffer is kept for the next enumeration).
    fn compile(&self, t: &Table, known: &mut Option<Known>) {
        let k = known.get_or_insert_with(|| Known {
            game: self.id,
            params: self.params.clone(),
            table: *t,
            record: Record::BLANK,
            enumerated: false,
            deals: Vec::new(),
        });
        k.game = self.id;
        k.params.clone_from(&self.params);
        k.table = *t;
        self.record_into(t, &mut k.record);
        k.enumerated = false;
    }

    /// Gives the seats but the Prince's, in seat order, the cards at deck positions `order`;
    /// returns how many seats were dealt.
    pub(super) fn deal_in_seat_order(
        &self,
        t: &Table,
        order: &[u8],
        cards: &mut [u8; MAX_PLAYERS],
    ) -> usize {
        let players = self.players as usize;
        let prince = (t.prince as usize).min(players);
        // The seats before the Prince's take the first positions, those after it the next ones.
        let (before, after) = cards[..players].split_at_mut(prince);
        let after = after.get_mut(1..).unwrap_or_default();
        for (c, &p) in before.iter_mut().chain(after.iter_mut()).zip(order) {
            *c = self.deck[p as usize];
        }
        before.len() + after.len()
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
    pub(crate) fn sample_hidden<R: Rng + ?Sized>(
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
        KNOWN.with(|cell| self.sample_prince_world(s, &mut out, &mut cell.borrow_mut(), rng));
        out
    }

    /// The Prince's determinization (see [`TofuKingdom::sample_hidden`]) of `s`, written into
    /// `out` (a copy of `s` without referee statistics), with `known` this thread's record and
    /// deals of the last table whose record it compiled.
    fn sample_prince_world<R: Rng + ?Sized>(
        &self,
        s: &State,
        out: &mut State,
        known: &mut Option<Known>,
        rng: &mut R,
    ) {
        let t = &s.table;
        // Whether `known` holds this table's record: looked up after the first try fails (most
        // determinizations in small games succeed at once). What is kept is replaced only when
        // this table's record is compiled, so a table whose tries succeed early leaves the last
        // one's in place.
        let mut compiled = false;
        let n = self.deck_len as usize;
        let mut deck_order = [0u8; SHUFFLED];
        for (p, x) in deck_order.iter_mut().enumerate() {
            *x = p as u8;
        }
        for try_ in 0..REJECTION_TRIES {
            // Deck positions, shuffled as the deal shuffles the deck (the same draws): the seats
            // but the Prince's, in seat order, get the first ones.
            let mut order = deck_order;
            shuffle(&mut order, n, rng);
            // The compiled record once there is one for this table (kept, or compiled after the
            // first `plain_tries` fail), else the log itself: both accept the same deals.
            let fits = match known {
                Some(k) if compiled => self.fits(t, &k.record, &order),
                _ => {
                    self.deal_in_seat_order(t, &order, &mut out.cards);
                    self.consistent(t, &out.cards)
                }
            };
            if fits {
                let dealt = self.deal_in_seat_order(t, &order, &mut out.cards);
                out.centre = [NO_CARD; MAX_PLAYERS];
                for (c, &p) in out.centre.iter_mut().zip(&order[dealt..n]) {
                    *c = self.deck[p as usize];
                }
                return;
            }
            if try_ == 0 {
                compiled = known.as_ref().is_some_and(|k| self.compiled_for(k, t));
            }
            if try_ + 1 >= plain_tries(self.players) && !compiled {
                self.compile(t, known);
                compiled = true;
            }
        }
        if !compiled {
            self.compile(t, known);
        }
        let k = known.as_mut().expect("compiled above");
        if !k.enumerated {
            k.deals.clear();
            self.for_each_world_in(t, &k.record, |w| k.deals.push(*w));
            k.enumerated = true;
        }
        let deals = &k.deals;
        // Reservoir sampling over the deals in enumeration order: the k-th consistent deal
        // replaces the pick with probability 1/k, so every deal is picked with probability
        // 1/total (the draws are those of one pass over the enumeration).
        let mut picked = None;
        for (i, w) in deals.iter().enumerate() {
            if rng.gen_range(0..i as u64 + 1) == 0 {
                picked = Some(*w);
            }
        }
        debug_assert!(picked.is_some(), "the true world is always consistent");
        let Some(cards) = picked else {
            // Only a hand-made state whose log no deal satisfies gets here.
            *out = State {
                stats: Stats::default(),
                ..*s
            };
            return;
        };
        out.cards = cards;
        self.fill_centre(out, rng);
    }
}

#[cfg(test)]
mod tests {
    use super::super::params::CentreAnswer;
    use super::super::state::Phase;
    use super::*;
    use crate::game::Game;
    use crate::rng_from_seed;

    /// Positions of random games in which the Prince has heard every answer of the round.
    fn answered(g: &TofuKingdom, games: u64) -> Vec<State> {
        let mut out = Vec::new();
        let mut legal = Vec::new();
        for seed in 0..games {
            let mut rng = rng_from_seed(seed);
            let mut s = g.new_state(&mut rng);
            while g.to_move(&s).is_some() && s.table.round < 4 {
                if s.table.phase == Phase::Guess {
                    out.push(s);
                }
                g.legal_actions(&s, &mut legal);
                let a = legal[rng.gen_range(0..legal.len())];
                g.apply(&mut s, a, &mut rng);
            }
        }
        out
    }

    /// The rejection tries' shuffle draws as rand's does and leaves the same order, for every
    /// length it takes.
    #[test]
    fn the_deck_shuffle_is_rands_shuffle() {
        for len in 0..=SHUFFLED {
            let (mut ours, mut rands) = (rng_from_seed(len as u64), rng_from_seed(len as u64));
            for _ in 0..2_000 {
                let mut a = [0u8; SHUFFLED];
                for (p, x) in a.iter_mut().enumerate() {
                    *x = p as u8;
                }
                let mut b = a;
                shuffle(&mut a, len, &mut ours);
                b[..len].shuffle(&mut rands);
                assert_eq!(a, b, "length {len}");
            }
            assert_eq!(ours.gen::<u64>(), rands.gen::<u64>(), "length {len}");
        }
    }

    /// What a thread keeps of the last table (its record and deals) changes no draw: the same
    /// position determinized many times in a row, and games with different rules taking turns
    /// on the same positions, draw exactly what a fresh compile for every call draws.
    #[test]
    fn the_kept_record_and_deals_draw_as_a_fresh_compile_would() {
        let (mut enumerated, mut calls) = (0, 0);
        for players in [5u8, 7, 8] {
            let say = TofuKingdom::with_params(Params::with_players(players)).unwrap();
            let free = TofuKingdom::with_params(Params {
                centre_answer: CentreAnswer::Free,
                ..Params::with_players(players)
            })
            .unwrap();
            // A clone keeps the id; its parameters are still told apart.
            let mut clone = say.clone();
            clone.params.centre_answer = CentreAnswer::Free;
            for s in answered(&say, 6) {
                let (mut kept, mut fresh) = (rng_from_seed(3), rng_from_seed(3));
                for i in 0..36 {
                    let g = [&say, &free, &clone][i % 12 / 4];
                    let d = g.determinize(&s, s.table.prince, &mut kept);
                    let mut none = None;
                    let mut e = State {
                        stats: Stats::default(),
                        ..s
                    };
                    g.sample_prince_world(&s, &mut e, &mut none, &mut fresh);
                    assert_eq!(d, e, "call {i} at {players} players");
                    enumerated += usize::from(none.is_some_and(|k| k.enumerated));
                    calls += 1;
                }
            }
        }
        assert!(enumerated > 20 && calls > 500, "{enumerated} of {calls}");
    }
}
