//! The deals consistent with a round's public record, for the Prince's determinization and for
//! agents that weigh every deal he cannot rule out.
//!
//! The record is compiled once into bit masks over deck positions: for each seat, the cards it
//! may hold by the constraints on its own card alone (an answer about its own card, the card
//! named by the guess, whether it scored); for each answer that ties two seats (a card question
//! about another player, "she is with player s"), the cards the later-dealt seat may hold given
//! the earlier one's. Deals are then enumerated seat by seat over the allowed cards only. The
//! few answers that depend on the whole deal ("she is in the centre", and every "where" answer
//! under `centre_answer = free`) are checked on complete deals.

use super::data::MAX_CHARACTERS;
use super::params::CentreAnswer;
use super::state::{Answer, Question, Table, MAX_PLAYERS, MAX_QUESTIONS, NO_CARD};
use super::TofuKingdom;

/// A constraint between two seats: the `later` seat (dealt after `earlier` in seat order) may
/// hold the cards at the deck positions in `allowed[p]`, where `p` is the deck position of the
/// `earlier` seat's card.
#[derive(Debug, Clone, Copy)]
struct Pair {
    earlier: u8,
    later: u8,
    allowed: [u16; MAX_CHARACTERS],
}

/// A round's public record as masks over deck positions (see the module's documentation).
#[derive(Debug, Clone)]
pub(super) struct Record {
    /// By seat: the deck positions its card may be at (every position for the Prince, who is
    /// not dealt from the deck).
    own: [u16; MAX_PLAYERS],
    pairs: [Pair; MAX_QUESTIONS],
    pairs_len: u8,
    /// The pairs (sorted by earlier seat) whose earlier seat is `s`: `pairs[from[s]..from[s + 1]]`.
    from: [u8; MAX_PLAYERS + 1],
    /// By seat: the seats dealt after it (bit per seat; the Prince is never dealt).
    after: [u8; MAX_PLAYERS],
    /// Log entries checked on complete deals.
    whole: [u8; MAX_QUESTIONS],
    whole_len: u8,
    /// The Prince's own card contradicts the scorers (only in a hand-made state): no deal fits.
    prince_contradicted: bool,
}

impl Record {
    fn pairs(&self) -> &[Pair] {
        &self.pairs[..self.pairs_len as usize]
    }

    /// The pairs whose earlier seat is `seat`.
    fn pairs_from(&self, seat: u8) -> &[Pair] {
        let s = seat as usize;
        &self.pairs[self.from[s] as usize..self.from[s + 1] as usize]
    }
}

/// The deck positions whose bits are set in `mask`, lowest first.
fn positions(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            p
        })
    })
}

impl TofuKingdom {
    /// Compiles the public record `t` into masks (see the module's documentation).
    pub(super) fn record(&self, t: &Table) -> Record {
        let deck = self.deck();
        let all: u16 = (1u16 << deck.len()) - 1;
        let (mut truthful, mut lying) = (0u16, 0u16);
        for (p, &c) in deck.iter().enumerate() {
            truthful |= u16::from(self.eye_allows(c, true)) << p;
            lying |= u16::from(self.eye_allows(c, false)) << p;
        }
        let mut r = Record {
            own: [all; MAX_PLAYERS],
            pairs: [Pair {
                earlier: 0,
                later: 0,
                allowed: [0; MAX_CHARACTERS],
            }; MAX_QUESTIONS],
            pairs_len: 0,
            from: [0; MAX_PLAYERS + 1],
            after: [0; MAX_PLAYERS],
            whole: [0; MAX_QUESTIONS],
            whole_len: 0,
            prince_contradicted: false,
        };
        let dealt = |s: u8| s < self.players && s != t.prince;
        for (i, e) in t.log().iter().enumerate() {
            // The seat whose card decides whether the answer is true, when it is one seat.
            let decider = match (e.question, e.answer) {
                (Question::OwnCard, _) => Some(e.to),
                (Question::CardOf(x), _) => Some(x),
                // "With player s" is true exactly when s holds her, whoever else holds what
                // (under `say-centre`; under `free` her being in the centre frees every answer).
                (Question::WherePrincess, Answer::Seat(s))
                    if self.params.centre_answer == CentreAnswer::SayCentre =>
                {
                    Some(s)
                }
                _ => None,
            };
            let Some(x) = decider.filter(|&x| dealt(x) && dealt(e.to)) else {
                r.whole[r.whole_len as usize] = i as u8;
                r.whole_len += 1;
                continue;
            };
            // The deck positions of the decider's card that make the answer true.
            let mut world = [NO_CARD; MAX_PLAYERS];
            let mut truth = 0u16;
            for (p, &c) in deck.iter().enumerate() {
                world[x as usize] = c;
                let t = self.is_true(&world, e.to, e.question, e.answer) == Some(true);
                truth |= u16::from(t) << p;
            }
            if x == e.to {
                r.own[x as usize] &= (truth & truthful) | (!truth & all & lying);
                continue;
            }
            let mut pair = Pair {
                earlier: x.min(e.to),
                later: x.max(e.to),
                allowed: [0; MAX_CHARACTERS],
            };
            for (p, allowed) in pair.allowed.iter_mut().enumerate().take(deck.len()) {
                *allowed = if pair.earlier == e.to {
                    // The answerer's card (at p) says whether the decider's makes it true.
                    (if truthful >> p & 1 == 1 { truth } else { 0 })
                        | (if lying >> p & 1 == 1 { !truth & all } else { 0 })
                } else if truth >> p & 1 == 1 {
                    // The decider's card (at p) makes it true: the answerer must be allowed
                    // the truth, else a lie.
                    truthful
                } else {
                    lying
                };
            }
            r.pairs[r.pairs_len as usize] = pair;
            r.pairs_len += 1;
        }
        r.pairs[..r.pairs_len as usize].sort_unstable_by_key(|q| q.earlier);
        for s in 0..MAX_PLAYERS as u8 {
            let before = r.pairs().iter().filter(|q| q.earlier <= s).count();
            r.from[s as usize + 1] = before as u8;
            r.after[s as usize] = (s + 1..self.players)
                .filter(|&x| dealt(x))
                .fold(0, |m, x| m | 1 << x);
        }
        if let Some(g) = t.guess {
            for s in (0..self.players).filter(|&s| dealt(s)) {
                let scored = t.scored & (1 << s) != 0;
                let mut fits = 0u16;
                for (p, &c) in deck.iter().enumerate() {
                    let named = s != g || c == t.revealed;
                    fits |= u16::from(named && self.scores(t, s, c) == scored) << p;
                }
                r.own[s as usize] &= fits;
            }
            let p = t.prince;
            r.prince_contradicted = p < self.players
                && self.scores(t, p, self.data.prince) != (t.scored & (1 << p) != 0);
        }
        r
    }

    /// Calls `f` with every assignment of this game's Character cards to the seats other than
    /// the Prince that is consistent with the public record `t` (every answer allowed by its
    /// answerer's eye mark, the named card and the scorers), with the Prince holding the Prince
    /// Mochi card, in a fixed order (seat by seat, each in deck order). Cards left over lie in
    /// the centre. Returns the number of worlds.
    pub fn for_each_world(&self, t: &Table, f: impl FnMut(&[u8; MAX_PLAYERS])) -> u64 {
        self.for_each_world_in(t, &self.record(t), f)
    }

    /// [`TofuKingdom::for_each_world`] with the record `r` of `t` already compiled.
    pub(super) fn for_each_world_in(
        &self,
        t: &Table,
        r: &Record,
        mut f: impl FnMut(&[u8; MAX_PLAYERS]),
    ) -> u64 {
        let mut count = 0;
        if r.prince_contradicted {
            return 0;
        }
        let mut cards = [NO_CARD; MAX_PLAYERS];
        if let Some(c) = cards.get_mut(t.prince as usize) {
            *c = self.data.prince;
        }
        self.extend_world(t, r, &mut cards, r.own, 0, 0, &mut |w| {
            count += 1;
            f(w)
        });
        count
    }

    /// Deals to the seats from `seat` on (skipping the Prince) every card they may hold:
    /// `allowed[s]` is what seat `s` may hold given the cards dealt so far (its own constraints
    /// and those tying it to seats already dealt), `used` marks the deck positions dealt. A card
    /// that leaves a later seat nothing, or the later seats together fewer cards than they need,
    /// is not tried (forward checking), so the walk visits few deals that do not fit.
    // The walk's whole state is in the arguments (the domains by value), which keeps it fast.
    #[allow(clippy::too_many_arguments)]
    fn extend_world<F: FnMut(&[u8; MAX_PLAYERS])>(
        &self,
        t: &Table,
        r: &Record,
        cards: &mut [u8; MAX_PLAYERS],
        allowed: [u16; MAX_PLAYERS],
        seat: u8,
        used: u16,
        f: &mut F,
    ) {
        if seat == self.players {
            if self.whole_fits(t, r, cards) {
                f(cards);
            }
            return;
        }
        if seat == t.prince {
            return self.extend_world(t, r, cards, allowed, seat + 1, used, f);
        }
        // The later seats' cards left: none may be empty, together they must be enough, and a
        // seat left one card forbids it to this seat (checked once here, not for every card).
        let after = r.after[seat as usize];
        let need = after.count_ones();
        let (mut union, mut forced) = (0u16, 0u16);
        for s in positions(u16::from(after)) {
            let d = allowed[s] & !used;
            if d == 0 {
                return;
            }
            union |= d;
            if d & (d - 1) == 0 {
                forced |= d;
            }
        }
        if union.count_ones() < need {
            return;
        }
        'card: for p in positions(allowed[seat as usize] & !used & !forced) {
            let used = used | (1 << p);
            if (union & !(1 << p)).count_ones() < need {
                continue;
            }
            let mut next = allowed;
            for q in r.pairs_from(seat) {
                let d = next[q.later as usize] & q.allowed[p];
                if d & !used == 0 {
                    continue 'card;
                }
                next[q.later as usize] = d;
            }
            cards[seat as usize] = self.deck[p];
            self.extend_world(t, r, cards, next, seat + 1, used, f);
        }
        cards[seat as usize] = NO_CARD;
    }

    /// Whether the answers that depend on the whole deal were allowed in the deal `cards`.
    fn whole_fits(&self, t: &Table, r: &Record, cards: &[u8; MAX_PLAYERS]) -> bool {
        r.whole[..r.whole_len as usize].iter().all(|&i| {
            let e = &t.log[i as usize];
            self.answer_allowed(cards, e.to, e.question, e.answer)
        })
    }

    /// Whether the deal that gives each seat but the Prince the card at deck position `at[seat]`
    /// (the seats' cards in `cards`) fits the record: [`TofuKingdom::consistent`], from masks.
    pub(super) fn fits(
        &self,
        t: &Table,
        r: &Record,
        cards: &[u8; MAX_PLAYERS],
        at: &[u8; MAX_PLAYERS],
    ) -> bool {
        if r.prince_contradicted {
            return false;
        }
        let own_ok = (0..self.players)
            .filter(|&s| s != t.prince)
            .all(|s| r.own[s as usize] >> at[s as usize] & 1 == 1);
        own_ok
            && r.pairs().iter().all(|q| {
                q.allowed[at[q.earlier as usize] as usize] >> at[q.later as usize] & 1 == 1
            })
            && self.whole_fits(t, r, cards)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Params, TofuKingdom};
    use super::*;
    use crate::game::Game;
    use crate::rng_from_seed;
    use rand::seq::SliceRandom;
    use rand::Rng;

    /// The masks accept a deal exactly when `consistent` does, on random deals of positions
    /// reached in random games at every player count (mostly inconsistent deals).
    #[test]
    fn fits_agrees_with_consistent_on_random_deals() {
        let (mut fit, mut unfit) = (0, 0);
        for players in 3..=8u8 {
            let g = TofuKingdom::with_params(Params::with_players(players)).unwrap();
            let mut rng = rng_from_seed(u64::from(players));
            let mut s = g.new_state(&mut rng);
            let mut legal = Vec::new();
            while g.to_move(&s).is_some() && s.table.round < 6 {
                let t = &s.table;
                let r = g.record(t);
                for _ in 0..20 {
                    let mut order: Vec<u8> = (0..g.deck().len() as u8).collect();
                    order.shuffle(&mut rng);
                    let (mut cards, mut at) = (s.cards, [0u8; MAX_PLAYERS]);
                    for (seat, &p) in (0..players).filter(|&x| x != t.prince).zip(&order) {
                        cards[seat as usize] = g.deck()[p as usize];
                        at[seat as usize] = p;
                    }
                    let consistent = g.consistent(t, &cards);
                    assert_eq!(g.fits(t, &r, &cards, &at), consistent, "{t:?} {cards:?}");
                    if consistent {
                        fit += 1;
                    } else {
                        unfit += 1;
                    }
                }
                g.legal_actions(&s, &mut legal);
                let a = legal[rng.gen_range(0..legal.len())];
                g.apply(&mut s, a, &mut rng);
            }
        }
        assert!(fit > 1000 && unfit > 1000, "{fit} {unfit}");
    }
}
