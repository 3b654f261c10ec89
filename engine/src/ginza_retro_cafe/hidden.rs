//! What a seat sees, and determinization.
//!
//! Hidden from a seat: the other seats' player cards before the reveal and the cards they
//! declined; the other seats' bonus cards (dealt, kept, passed, removed) except the two passed
//! to it; which customers were drawn into the Customer deck; the order of every deck (never
//! stored: cards are drawn at random as they come out).

use super::state::{CardId, Phase, State, MAX_PLAYERS};
use super::{draw_bit, GinzaRetroCafe};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;

/// What one seat sees.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    /// The observing seat.
    pub seat: u8,
    /// The position with what the seat cannot see blanked (none or 0).
    pub state: State,
    /// Customers left in the Customer deck of each time of day.
    pub deck_sizes: [u32; 3],
}

impl GinzaRetroCafe {
    pub(crate) fn observe(&self, s: &State, seat: u8) -> Observation {
        let mut v = s.clone();
        let me = usize::from(seat);
        for j in 0..MAX_PLAYERS {
            if j == me {
                continue;
            }
            v.card_dealt[j] = [CardId::NONE; 2];
            if !s.cards_revealed() {
                v.card[j] = CardId::NONE;
            }
            v.bonus_offer[j] = [CardId::NONE; 3];
            v.bonus_hand[j] = [CardId::NONE; 2];
            v.bonus_passed[j] = [CardId::NONE; 2];
            v.bonus_discard[j] = CardId::NONE;
        }
        v.card_box = 0;
        v.bonus_box = 0;
        v.deck = [0; 3];
        Observation {
            seat,
            state: v,
            deck_sizes: s.deck.map(|d| d.count_ones()),
        }
    }

    /// The bonus cards `seat` has seen: its own offer, hand, passed and removed cards, and the
    /// two passed to it.
    fn seen_bonus(&self, s: &State, seat: usize) -> u64 {
        let n = usize::from(self.players);
        let mut m = 0u64;
        let right = (seat + n - 1) % n;
        let own = s.bonus_offer[seat]
            .iter()
            .chain(&s.bonus_hand[seat])
            .chain(&s.bonus_passed[seat])
            .chain(std::iter::once(&s.bonus_discard[seat]))
            .chain(&s.bonus_passed[right]);
        for c in own.filter_map(|c| c.get()) {
            m |= 1 << c;
        }
        m
    }

    /// A copy in which what `observer` cannot see is drawn again: unseen player cards and bonus
    /// cards are relabelled by a random permutation (so every seat's hand keeps its place in the
    /// deal and the draft), the observer's left neighbour's keep of the two cards the observer
    /// passed is redrawn, and the Customer decks are drawn again from the unseen customers.
    pub(crate) fn sample_hidden<R: Rng + ?Sized>(
        &self,
        s: &State,
        observer: u8,
        rng: &mut R,
    ) -> State {
        let mut v = s.clone();
        let o = usize::from(observer);
        let n = usize::from(self.players);
        // Player cards.
        let mut seen = 0u64;
        for c in s.card_dealt[o].iter().filter_map(|c| c.get()) {
            seen |= 1 << c;
        }
        if s.cards_revealed() {
            for c in s.card[..n].iter().filter_map(|c| c.get()) {
                seen |= 1 << c;
            }
        }
        let mut order = [CardId::NONE; 8];
        for j in 0..n {
            if j != o {
                order[2 * j..2 * j + 2].copy_from_slice(&s.card_dealt[j]);
            }
        }
        let map = redeal(self.data.players.len(), seen, &order, rng);
        for j in 0..n {
            v.card_dealt[j] = s.card_dealt[j].map(|c| relabel(&map, c));
            v.card[j] = relabel(&map, s.card[j]);
        }
        v.card_box = relabel_set(&map, u64::from(s.card_box)) as u16;
        // Bonus cards.
        let mut order = [CardId::NONE; 24];
        for j in 0..n {
            if j != o {
                let at = &mut order[6 * j..6 * j + 6];
                at[..3].copy_from_slice(&s.bonus_offer[j]);
                at[3..5].copy_from_slice(&s.bonus_hand[j]);
                at[5] = s.bonus_discard[j];
            }
        }
        let map = redeal(self.data.bonus.len(), self.seen_bonus(s, o), &order, rng);
        for j in 0..n {
            v.bonus_offer[j] = s.bonus_offer[j].map(|c| relabel(&map, c));
            v.bonus_hand[j] = s.bonus_hand[j].map(|c| relabel(&map, c));
            v.bonus_passed[j] = s.bonus_passed[j].map(|c| relabel(&map, c));
            v.bonus_discard[j] = relabel(&map, s.bonus_discard[j]);
        }
        v.bonus_box = relabel_set(&map, u64::from(s.bonus_box)) as u16;
        let left = (o + 1) % n;
        let second_done = s.bonus_discard[left].is_some();
        if second_done {
            // Which of the two cards the observer passed its left neighbour kept is unseen.
            let pair = s.bonus_passed[o];
            let (lo, hi) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            let (kept, removed) = if rng.gen_bool(0.5) {
                (lo, hi)
            } else {
                (hi, lo)
            };
            v.bonus_hand[left][1] = kept;
            v.bonus_discard[left] = removed;
        }
        // Customers: which ones are still in the deck.
        if !matches!(
            s.phase,
            Phase::ChoosePlayerCard { .. } | Phase::Draft { .. }
        ) {
            for p in 0..3 {
                let all = (1u64 << self.data.customers[p].len()) - 1;
                let mut pool = all & !u64::from(s.arrived[p]);
                let mut deck = 0u64;
                for _ in 0..s.deck[p].count_ones() {
                    let c = draw_bit(pool, rng);
                    pool &= !(1 << c);
                    deck |= 1 << c;
                }
                v.deck[p] = deck as u16;
            }
        }
        v
    }
}

/// A relabelling of card ids `0..len` that fixes every card in `seen` and deals the unseen ones
/// afresh: the unseen cards met in `order` (the hidden positions, in a fixed order) get a random
/// arrangement of the unseen cards, the rest (never dealt) what is left. It depends only on
/// which positions are hidden and on `rng`, never on which unseen card lies where.
fn redeal<R: Rng + ?Sized>(len: usize, seen: u64, order: &[CardId], rng: &mut R) -> [u8; 16] {
    let mut map = [0u8; 16];
    for (i, m) in map.iter_mut().enumerate() {
        *m = i as u8;
    }
    let mut fresh = [0u8; 16];
    let mut k = 0;
    for i in 0..len.min(16) {
        if seen & (1 << i) == 0 {
            fresh[k] = i as u8;
            k += 1;
        }
    }
    fresh[..k].shuffle(rng);
    let mut next = 0;
    let mut done = seen;
    let mut assign = |c: u8| {
        if usize::from(c) < len.min(16) && done & (1 << c) == 0 {
            done |= 1 << c;
            map[usize::from(c)] = fresh[next];
            next += 1;
        }
    };
    for c in order.iter().filter_map(|c| c.get()) {
        assign(c);
    }
    for c in 0..len.min(16) as u8 {
        assign(c);
    }
    map
}

fn relabel(map: &[u8; 16], c: CardId) -> CardId {
    match c.index() {
        None => CardId::NONE,
        Some(c) => CardId::new(map[c]),
    }
}

fn relabel_set(map: &[u8; 16], set: u64) -> u64 {
    let mut out = 0u64;
    let mut m = set;
    while m != 0 {
        out |= 1 << map[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    out
}
