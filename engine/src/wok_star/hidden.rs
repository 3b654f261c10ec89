//! What a seat sees, and determinization. Wok Star hides the same things from every seat: the
//! order of the Regular deck (never stored: customers are drawn at random as they are revealed)
//! and which face-down Coupon customers were advertised into it, and (Events variant) which
//! event cards were shuffled into it.

use super::data::{CUSTOMER_SLOTS, MAX_RECIPES, MAX_REGULAR};
use super::setup::draw_bit;
use super::state::State;
use super::WokStar;
use crate::game::Seat;
use rand::Rng;
use serde::Serialize;

/// The Coupon customer card slots of every recipe (bit set over customer card ids).
pub const COUPON_SLOTS: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < MAX_RECIPES {
        let mut k = MAX_REGULAR;
        while k < CUSTOMER_SLOTS {
            m |= 1u128 << (r * CUSTOMER_SLOTS + k);
            k += 1;
        }
        r += 1;
    }
    m
};

/// What every seat sees: the whole position except which Coupon customers are in the Regular
/// deck; only how many.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    /// The observing seat.
    pub seat: u8,
    /// The position with the deck's Coupon customers folded back into the Coupon pile.
    pub state: State,
    /// How many Coupon customers are in the Regular deck.
    pub advertised: u32,
    /// How many event cards are in the Regular deck (which ones is hidden).
    pub events_in_deck: u32,
}

impl WokStar {
    pub(crate) fn observe(&self, s: &State, seat: u8) -> Observation {
        let mut v = s.clone();
        let in_deck = s.deck & COUPON_SLOTS;
        v.deck &= !COUPON_SLOTS;
        v.coupons |= in_deck;
        v.event_box |= s.event_deck;
        v.event_deck = 0;
        Observation {
            seat,
            state: v,
            advertised: in_deck.count_ones(),
            events_in_deck: s.event_deck.count_ones(),
        }
    }

    /// A copy in which the advertised Coupon customers are drawn again from every Coupon
    /// customer nobody has seen.
    pub(crate) fn sample_hidden<R: Rng + ?Sized>(
        &self,
        s: &State,
        _observer: Seat,
        rng: &mut R,
    ) -> State {
        let mut v = s.clone();
        let in_deck = s.deck & COUPON_SLOTS;
        let mut unseen = in_deck | s.coupons;
        let mut deck = s.deck & !COUPON_SLOTS;
        for _ in 0..in_deck.count_ones() {
            let c = draw_bit(unseen, rng);
            unseen &= !(1u128 << c);
            deck |= 1u128 << c;
        }
        v.deck = deck;
        v.coupons = unseen;
        let mut unseen_events = s.event_deck | s.event_box;
        let mut events = 0u16;
        for _ in 0..s.event_deck.count_ones() {
            let e = draw_bit(u128::from(unseen_events), rng);
            unseen_events &= !(1 << e);
            events |= 1 << e;
        }
        v.event_deck = events;
        v.event_box = unseen_events;
        v
    }
}
