//! The Events variant: event cards shuffled into the Regular deck, their effects when drawn and
//! at Daily Accounting. "When an Event card is drawn from the Regular deck, follow the
//! instructions on the card. Once either 30-second timer is up, flip the empty timer, draw the
//! next Customer card, and proceed with the game as usual."

use super::clock::flip_emptier;
use super::data::{EventEffect, CUSTOMER_SLOTS};
use super::params::UndrawnEvents;
use super::setup::draw_bit;
use super::state::{State, DIRTY};
use super::WokStar;
use rand::Rng;

impl WokStar {
    /// Shuffles the day's event cards into the Regular deck (Events variant only).
    pub(crate) fn add_day_events<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        if !self.params.events {
            return;
        }
        for _ in 0..self.data.rulebook.events_per_day {
            if s.event_box == 0 {
                break;
            }
            let e = draw_bit(u128::from(s.event_box), rng);
            s.event_box &= !(1 << e);
            s.event_deck |= 1 << e;
        }
    }

    /// Reveals the next card of the Regular deck at `now`: a customer, or an event whose
    /// effect follows at once; nothing once no customer is left in the deck. `seat` is whoever revealed it (it makes any choice the event
    /// asks for).
    pub(crate) fn reveal_at<R: Rng + ?Sized>(
        &self,
        s: &mut State,
        seat: u8,
        now: u32,
        rng: &mut R,
    ) {
        let customers = s.deck.count_ones();
        let total = customers + s.event_deck.count_ones();
        s.customer = None;
        s.event = None;
        // "The Open for Business phase ends, if: ... All customers from the Regular deck are
        // served." Event cards still in the deck do not keep the day open: with no customer
        // left, nothing is revealed and the day closes.
        if customers == 0 {
            return;
        }
        // (Without events in the deck this is a plain draw of a customer.)
        if s.event_deck == 0 || rng.gen_range(0..total) < customers {
            let c = draw_bit(s.deck, rng);
            s.deck &= !(1u128 << c);
            s.customer = Some(c);
            return;
        }
        let e = draw_bit(u128::from(s.event_deck), rng);
        s.event_deck &= !(1 << e);
        s.events_today |= 1 << e;
        s.event = Some(e);
        s.event_at = now;
        self.immediate_effect(s, self.data.events[e as usize].act, seat, rng);
    }

    fn immediate_effect<R: Rng + ?Sized>(
        &self,
        s: &mut State,
        act: EventEffect,
        seat: u8,
        rng: &mut R,
    ) {
        let n = self.players as usize;
        let (min, max) = (self.data.track.min, self.data.track.max);
        let in_play = self.ingredients_in_play(s);
        let playing = |k: usize| in_play & (1 << k) != 0;
        let ingredients = self.data.ingredients.len();
        match act {
            EventEffect::DirtyDie(k) => {
                // Which dice: the first unused ones (the players' choice, made for them).
                for i in 0..n {
                    let c = s.dice_count[i] as usize;
                    let mut left = k;
                    for d in &mut s.dice[i][..c] {
                        if left > 0 && *d != DIRTY {
                            *d = DIRTY;
                            left -= 1;
                        }
                    }
                }
            }
            EventEffect::HighestDown(k) => {
                let top = (0..ingredients)
                    .filter(|&x| playing(x))
                    .max_by_key(|&x| (s.track[x], std::cmp::Reverse(x)));
                if let Some(x) = top {
                    s.track[x] = s.track[x].saturating_sub(k).max(min);
                }
            }
            EventEffect::AllDown(k) => {
                for x in (0..ingredients).filter(|&x| playing(x)) {
                    s.track[x] = s.track[x].saturating_sub(k).max(min);
                }
            }
            EventEffect::ZeroUp(k) => {
                for x in (0..ingredients).filter(|&x| playing(x)) {
                    if s.track[x] == min {
                        s.track[x] = (min + k).min(max);
                    }
                }
            }
            EventEffect::ChooseUp(k) => {
                if in_play != 0 {
                    s.choose = Some((seat, k));
                }
            }
            EventEffect::SkipWash => {
                if s.washes_left == self.data.rulebook.washes_per_day && s.washes_left > 1 {
                    s.washes_left -= 1;
                }
            }
            EventEffect::RerollUnused => {
                for i in 0..n {
                    let c = s.dice_count[i] as usize;
                    for d in &mut s.dice[i][..c] {
                        if *d != DIRTY {
                            *d = rng.gen_range(1..=6);
                        }
                    }
                }
            }
            EventEffect::CubesEach(k) => {
                for i in 0..n {
                    let take = k.min(s.cube_supply);
                    s.cube_supply -= take;
                    s.cubes[i] += take;
                }
            }
            EventEffect::HustleLose(k) => {
                let k = k.min(s.hustle_pool);
                s.hustle_pool -= k;
                s.hustle_supply += k;
            }
            EventEffect::HustleGain(k) => {
                let k = k.min(s.hustle_supply);
                s.hustle_supply -= k;
                s.hustle_pool += k;
            }
            EventEffect::Coupons(k) => {
                for _ in 0..k {
                    if s.coupons == 0 {
                        break;
                    }
                    let c = draw_bit(s.coupons, rng);
                    s.coupons &= !(1u128 << c);
                    s.deck |= 1u128 << c;
                }
            }
            EventEffect::DoubleNext => s.double_next = true,
            EventEffect::NoLateBonus(..) | EventEffect::PerOnTime(..) | EventEffect::Income(_) => {}
        }
    }

    /// When the showing event gives way: the moment the first running timer is up (at once
    /// when none runs).
    pub(crate) fn event_end(&self, s: &State) -> u32 {
        s.timers
            .iter()
            .filter(|t| t.standing && t.at.saturating_add(t.top) > s.event_at)
            .map(|t| t.at.saturating_add(t.top))
            .min()
            .unwrap_or(s.event_at)
    }

    /// Once the table clock passes the showing event's end, flips the empty timer and reveals
    /// the next card; closes the day when the deck is done.
    pub(crate) fn resolve_events<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) -> bool {
        while let Some(_e) = s.event {
            if s.choose.is_some() || s.second_cube.is_some() {
                return false;
            }
            let end = self.event_end(s);
            let now = s.clock[self.earliest(s) as usize];
            if now < end {
                return false;
            }
            flip_emptier(&mut s.timers, end, self.capacity, self.params.timer_flip);
            self.reveal_at(s, self.earliest(s), end, rng);
            if s.customer.is_none() && s.event.is_none() {
                return true;
            }
        }
        false
    }

    /// Daily Accounting, first step: the day's end-of-round events change the income; the
    /// events that appeared are discarded (with the undrawn ones under `undrawn_events =
    /// discard`).
    pub(crate) fn end_of_round_events(&self, s: &mut State) {
        let mut today = s.events_today;
        while today != 0 {
            let e = today.trailing_zeros() as usize;
            today &= today - 1;
            match self.data.events[e].act {
                EventEffect::NoLateBonus(bonus, penalty) => {
                    s.income += i32::from(if s.late == 0 { bonus } else { penalty });
                }
                EventEffect::PerOnTime(price, each) => {
                    let mut cards = s.on_time_cards;
                    let mut count = 0;
                    while cards != 0 {
                        let c = cards.trailing_zeros() as usize;
                        cards &= cards - 1;
                        if self.data.recipes[c / CUSTOMER_SLOTS].price == price {
                            count += 1;
                        }
                    }
                    s.income += i32::from(each) * count;
                }
                EventEffect::Income(delta) => s.income += i32::from(delta),
                _ => {}
            }
        }
        s.events_gone |= s.events_today;
        s.events_today = 0;
        if self.params.undrawn_events == UndrawnEvents::Discard {
            s.events_gone |= s.event_deck;
            s.event_deck = 0;
        }
        s.event = None;
        s.double_next = false;
        s.choose = None;
    }

    /// Grandma's Pantry: the chosen ingredient's token moves up.
    pub(crate) fn choose_ingredient(&self, s: &mut State, k: u8) {
        if let Some((_, by)) = s.choose.take() {
            let t = &mut s.track[k as usize];
            *t = (*t + by).min(self.data.track.max);
        }
    }

    /// Ingredients the Pantry may lift: those in play.
    pub(crate) fn choosable(&self, s: &State) -> impl Iterator<Item = u8> + '_ {
        let in_play = self.ingredients_in_play(s);
        (0..self.data.ingredients.len() as u8).filter(move |&k| in_play & (1 << k) != 0)
    }
}
