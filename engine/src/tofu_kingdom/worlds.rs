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
use super::lanes::{narrow, Depth, MASKS, TIES_NONE};
use super::params::CentreAnswer;
use super::state::{Answer, Exchange, Question, Table, MAX_PLAYERS, MAX_QUESTIONS, NO_CARD};
use super::TofuKingdom;

/// A constraint between two seats, named by the depth at which each is dealt: the `later` seat
/// may hold the cards at the deck positions in `allowed[p]`, where `p` is the deck position of
/// the `earlier` seat's card.
#[derive(Debug, Clone, Copy)]
struct Pair {
    earlier: u8,
    later: u8,
    allowed: [u16; MAX_CHARACTERS],
}

/// A round's public record as masks over deck positions (see the module's documentation).
#[derive(Debug, Clone)]
pub(super) struct Record {
    /// By depth (see `dealt`): the deck positions the card of the seat dealt there may be at.
    own: [u16; MAX_PLAYERS],
    pairs: [Pair; MAX_QUESTIONS],
    pairs_len: u8,
    /// The seats dealt, in seat order (every seat but the Prince's): the enumeration deals the
    /// `d`-th of them at depth `d`.
    dealt: [u8; MAX_PLAYERS],
    dealt_len: u8,
    /// The pairs for the enumeration, by depth: `depths[d].ties[p][k]` is where the seat dealt at
    /// depth `k` may hold its card when the seat dealt at depth `d < k` holds the card at deck
    /// position `p` (every pair from `d` to `k` together; every position but `p` where none ties
    /// them).
    depths: [Depth; MAX_PLAYERS],
    /// Log entries checked on complete deals.
    whole: [u8; MAX_QUESTIONS],
    whole_len: u8,
    /// The Prince's own card contradicts the scorers (only in a hand-made state): no deal fits.
    prince_contradicted: bool,
}

/// The deck in play as masks over its positions.
struct Honesty {
    /// Every position.
    all: u16,
    /// The positions whose card may answer truthfully.
    truthful: u16,
    /// The positions whose card may lie.
    lying: u16,
}

/// The positions (a bit each) of the whole `deck` array holding `card` (its fixed length lets
/// the compiler compare it at once); the caller keeps those of the deck in play.
fn position_mask(deck: &[u8; MAX_CHARACTERS], card: u8) -> u16 {
    (0..MAX_CHARACTERS).fold(0u16, |m, p| m | u16::from(deck[p] == card) << p)
}

impl Record {
    /// A record with no answers, before `record_into` fills it.
    pub(super) const BLANK: Record = Record {
        own: [0; MAX_PLAYERS],
        pairs: [Pair {
            earlier: 0,
            later: 0,
            allowed: [0; MAX_CHARACTERS],
        }; MAX_QUESTIONS],
        pairs_len: 0,
        dealt: [0; MAX_PLAYERS],
        dealt_len: 0,
        depths: [Depth {
            ties: TIES_NONE,
            masks: MASKS[0][0],
        }; MAX_PLAYERS],
        whole: [0; MAX_QUESTIONS],
        whole_len: 0,
        prince_contradicted: false,
    };

    fn pairs(&self) -> &[Pair] {
        &self.pairs[..self.pairs_len as usize]
    }
}

impl TofuKingdom {
    /// Compiles the public record `t` into masks (see the module's documentation).
    pub(super) fn record(&self, t: &Table) -> Record {
        let mut r = Record::BLANK;
        self.record_into(t, &mut r);
        r
    }

    /// [`TofuKingdom::record`], written over `r` (in place: a record is about 2 KB).
    // Not inlined: called once per table compiled, and inlined it costs the determinization's
    // hot loop registers (about 900 instructions a call more at 8 players). Its helpers are
    // inlined into it, so it compiles as one function.
    #[inline(never)]
    pub(super) fn record_into(&self, t: &Table, r: &mut Record) {
        let h = self.honesty();
        let mut own = [h.all; MAX_PLAYERS];
        *r = Record::BLANK;
        r.own = [h.all; MAX_PLAYERS];
        let depth = self.deal_order(t, r);
        for (i, e) in t.log().iter().enumerate() {
            self.record_exchange(t, r, &h, &depth, &mut own, i, e);
        }
        if let Some(g) = t.guess {
            self.record_guess(t, r, h.all, g, &mut own);
        }
        for (k, &s) in r.dealt[..r.dealt_len as usize].iter().enumerate() {
            r.own[k] = own[s as usize];
        }
        for (d, m) in MASKS[r.dealt_len as usize].iter().enumerate() {
            r.depths[d].masks = *m;
        }
    }

    /// Whether seat `s` is dealt a card this round (every seat but the Prince's).
    #[inline(always)]
    fn is_dealt(&self, t: &Table, s: u8) -> bool {
        s < self.players && s != t.prince
    }

    /// The deck in play as masks: every position, and those whose card may tell the truth or
    /// lie.
    #[inline(always)]
    fn honesty(&self) -> Honesty {
        let deck = self.deck();
        let (mut truthful, mut lying) = (0u16, 0u16);
        for (p, &c) in deck.iter().enumerate() {
            let (may_tell_truth, may_lie) = self.eye_allows_each(c);
            truthful |= u16::from(may_tell_truth) << p;
            lying |= u16::from(may_lie) << p;
        }
        Honesty {
            all: (1u16 << deck.len()) - 1,
            truthful,
            lying,
        }
    }

    /// Lists the seats dealt in `r.dealt`, in seat order; returns each seat's depth.
    #[inline(always)]
    fn deal_order(&self, t: &Table, r: &mut Record) -> [u8; MAX_PLAYERS] {
        let mut depth = [0u8; MAX_PLAYERS];
        for s in (0..self.players).filter(|&s| self.is_dealt(t, s)) {
            depth[s as usize] = r.dealt_len;
            r.dealt[r.dealt_len as usize] = s;
            r.dealt_len += 1;
        }
        depth
    }

    /// The seat whose card decides whether answer `e` is true, when it is one seat.
    #[inline(always)]
    fn decider(&self, e: &Exchange) -> Option<u8> {
        match (e.question, e.answer) {
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
        }
    }

    /// The deck positions of decider `x`'s card that make answer `e` true: where the card named
    /// is ("my card is c", "x's card is c"), or Princess Tofu ("she is with x").
    #[inline(always)]
    fn truth_positions(&self, e: &Exchange, x: u8, all: u16) -> u16 {
        let named = match (e.question, e.answer) {
            (Question::OwnCard | Question::CardOf(_), Answer::Card(c)) => Some(c),
            (Question::WherePrincess, Answer::Seat(_)) => Some(self.data.princess),
            _ => None,
        };
        if let Some(c) = named {
            return position_mask(&self.deck, c) & all;
        }
        let mut world = [NO_CARD; MAX_PLAYERS];
        let mut truth = 0u16;
        for (p, &c) in self.deck().iter().enumerate() {
            world[x as usize] = c;
            let t = self.is_true(&world, e.to, e.question, e.answer) == Some(true);
            truth |= u16::from(t) << p;
        }
        truth
    }

    /// Records exchange `i` (`e`): a constraint on one seat's own card, a pair tying two seats,
    /// or an entry checked on whole deals.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn record_exchange(
        &self,
        t: &Table,
        r: &mut Record,
        h: &Honesty,
        depth: &[u8; MAX_PLAYERS],
        own: &mut [u16; MAX_PLAYERS],
        i: usize,
        e: &Exchange,
    ) {
        let decider = self.decider(e);
        let Some(x) = decider.filter(|&x| self.is_dealt(t, x) && self.is_dealt(t, e.to)) else {
            r.whole[r.whole_len as usize] = i as u8;
            r.whole_len += 1;
            return;
        };
        let truth = self.truth_positions(e, x, h.all);
        if x == e.to {
            own[x as usize] &= (truth & h.truthful) | (!truth & h.all & h.lying);
            return;
        }
        let mut pair = self.tie(x, e.to, truth, h);
        pair.earlier = depth[pair.earlier as usize];
        pair.later = depth[pair.later as usize];
        let ties = &mut r.depths[pair.earlier as usize].ties;
        for (tie, &a) in ties.iter_mut().zip(&pair.allowed) {
            tie[pair.later as usize] &= a;
        }
        r.pairs[r.pairs_len as usize] = pair;
        r.pairs_len += 1;
    }

    /// The pair (by seat) tying decider `x` and answerer `to`, whose answer is true where `x`'s
    /// card is at a position in `truth`.
    #[inline(always)]
    fn tie(&self, x: u8, to: u8, truth: u16, h: &Honesty) -> Pair {
        let mut pair = Pair {
            earlier: x.min(to),
            later: x.max(to),
            allowed: [0; MAX_CHARACTERS],
        };
        // A bit of `x` as a mask of every bit.
        let spread = |x: u16, p: usize| (x >> p & 1).wrapping_neg();
        let allowed = pair.allowed.iter_mut().enumerate().take(self.deck().len());
        if pair.earlier == to {
            // The answerer's card (at p) says whether the decider's makes it true.
            for (p, a) in allowed {
                *a = (truth & spread(h.truthful, p)) | (!truth & h.all & spread(h.lying, p));
            }
        } else {
            // The decider's card (at p) makes it true: the answerer must be allowed the
            // truth, else a lie.
            for (p, a) in allowed {
                *a = (h.truthful & spread(truth, p)) | (h.lying & !spread(truth, p));
            }
        }
        pair
    }

    /// Narrows each seat's own card by the guess `g`: whether it scored, and the card revealed
    /// for the seat named; notes a Prince whose own card contradicts the scorers.
    #[inline(always)]
    fn record_guess(
        &self,
        t: &Table,
        r: &mut Record,
        all: u16,
        g: u8,
        own: &mut [u16; MAX_PLAYERS],
    ) {
        // Whether a card scores is the same for every seat dealt (only the Prince's differs).
        let (mut scoring, mut named) = (0u16, 0u16);
        if let Some(&x) = r.dealt[..r.dealt_len as usize].first() {
            for (p, &c) in self.deck().iter().enumerate() {
                scoring |= u16::from(self.scores(t, x, c)) << p;
                named |= u16::from(c == t.revealed) << p;
            }
        }
        for s in (0..self.players).filter(|&s| self.is_dealt(t, s)) {
            let scored = t.scored & (1 << s) != 0;
            let score_fits = if scored { scoring } else { all & !scoring };
            own[s as usize] &= score_fits & if s == g { named } else { all };
        }
        let p = t.prince;
        r.prince_contradicted =
            p < self.players && self.scores(t, p, self.data.prince) != (t.scored & (1 << p) != 0);
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
    #[inline(never)]
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
        let mut emit = |w: &[u8; MAX_PLAYERS]| {
            count += 1;
            f(w)
        };
        if r.dealt_len == 0 {
            if self.whole_fits(t, r, &cards) {
                emit(&cards);
            }
        } else {
            self.extend_world((t, r), &mut cards, &mut emit);
        }
        count
    }

    /// Deals every card each seat may hold, seat by seat in deck order, and calls `f` with each
    /// complete deal that fits. `domains[d][k]` is where the seat dealt at depth `k > d` may hold
    /// its card given the cards dealt at depths up to `d` (its own constraints, those tying it
    /// to seats already dealt, and no position already dealt). A card that leaves a later seat
    /// nothing is not tried, and a later seat left one card forbids it to the next seat
    /// (forward checking, [`narrow`]), so the walk visits few deals that do not fit. The walk
    /// keeps its own stack: the domains and the cards still to try at each depth.
    fn extend_world<F: FnMut(&[u8; MAX_PLAYERS])>(
        &self,
        (t, r): (&Table, &Record),
        cards: &mut [u8; MAX_PLAYERS],
        f: &mut F,
    ) {
        let last = r.dealt_len as usize - 1;
        let last_seat = r.dealt[last] as usize;
        // Gives the last seat each card at the deck positions in `left`: each completes a deal.
        let mut deal_last = |cards: &mut [u8; MAX_PLAYERS], mut left: u16| {
            while left != 0 {
                let p = left.trailing_zeros() as usize;
                left &= left - 1;
                cards[last_seat] = self.deck[p];
                // (Most records have no answer checked on whole deals: no call then.)
                if r.whole_len == 0 || self.whole_fits(t, r, cards) {
                    f(cards);
                }
            }
        };
        if last == 0 {
            deal_last(cards, r.own[0]);
            cards[last_seat] = NO_CARD;
            return;
        }
        // `domains[d]`: the domains after the cards dealt above depth `d`; its lane `d` (not read
        // by the step) holds the cards still to try at depth `d`.
        let mut domains = [[0u16; MAX_PLAYERS]; MAX_PLAYERS];
        domains[0] = r.own;
        let mut depth = 0;
        loop {
            let (done, rest) = domains.split_at_mut(depth + 1);
            let here = &mut done[depth];
            let seat = r.dealt[depth] as usize;
            if depth + 1 == last {
                // The second-to-last seat: the last seat's cards are its domain and the ties.
                let ties = &r.depths[depth].ties;
                let mut c = here[depth];
                while c != 0 {
                    let p = c.trailing_zeros() as usize;
                    c &= c - 1;
                    let left = here[last] & ties[p][last];
                    if left != 0 {
                        cards[seat] = self.deck[p];
                        deal_last(cards, left);
                    }
                }
                here[depth] = 0;
                cards[last_seat] = NO_CARD;
            }
            // The next card at this depth that leaves every later seat a card.
            let at = &r.depths[depth];
            let mut c = here[depth];
            let mut taken = None;
            while c != 0 {
                let p = c.trailing_zeros() as usize;
                c &= c - 1;
                if narrow(here, &at.ties[p], &at.masks, &mut rest[0]) {
                    taken = Some(p);
                    break;
                }
            }
            here[depth] = c;
            if let Some(p) = taken {
                cards[seat] = self.deck[p];
                depth += 1;
            } else {
                cards[seat] = NO_CARD;
                if depth == 0 {
                    return;
                }
                depth -= 1;
            }
        }
    }

    /// Whether the answers that depend on the whole deal were allowed in the deal `cards`.
    fn whole_fits(&self, t: &Table, r: &Record, cards: &[u8; MAX_PLAYERS]) -> bool {
        r.whole[..r.whole_len as usize].iter().all(|&i| {
            let e = &t.log[i as usize];
            self.answer_allowed(cards, e.to, e.question, e.answer)
        })
    }

    /// Whether the deal that gives the seat dealt at depth `k` (see [`Record`]) the card at deck
    /// position `at[k]` fits the record: [`TofuKingdom::consistent`], from masks.
    pub(super) fn fits(&self, t: &Table, r: &Record, at: &[u8]) -> bool {
        let n = r.dealt_len as usize;
        if r.prince_contradicted || at.len() < n {
            return false;
        }
        let fit = (0..n).all(|k| r.own[k] >> at[k] & 1 == 1)
            && r.pairs().iter().all(|q| {
                q.allowed[at[q.earlier as usize] as usize] >> at[q.later as usize] & 1 == 1
            });
        fit && (r.whole_len == 0 || {
            let mut cards = [NO_CARD; MAX_PLAYERS];
            if let Some(c) = cards.get_mut(t.prince as usize) {
                *c = self.data.prince;
            }
            self.deal_in_seat_order(t, at, &mut cards);
            self.whole_fits(t, r, &cards)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Params, TofuKingdom};
    use crate::game::Game;
    use crate::rng_from_seed;
    use rand::seq::SliceRandom;
    use rand::Rng;

    /// The masks accept a deal exactly when `consistent` does, on random deals of positions
    /// reached in random games at every player count (mostly inconsistent deals).
    #[test]
    fn fits_agrees_with_consistent_on_random_deals() {
        let (mut fit, mut unfit) = (0, 0);
        for players in crate::tofu_kingdom::INFO.players() {
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
                    let mut cards = s.cards;
                    for (seat, &p) in (0..players).filter(|&x| x != t.prince).zip(&order) {
                        cards[seat as usize] = g.deck()[p as usize];
                    }
                    let consistent = g.consistent(t, &cards);
                    assert_eq!(g.fits(t, &r, &order), consistent, "{t:?} {cards:?}");
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
