//! Wok Star as a board (`shifu replay`): the day, money against the goal, the sand timers, the
//! customer waiting and the deck, the ingredient tracks, the recipes on offer, and each seat's
//! dice, cubes, recipes and clock.

use super::data::{CUSTOMER_SLOTS, DAYS};
use super::state::NOBODY;
use super::*;
use crate::board::Board;

impl WokStar {
    /// The board `seat` sees (everything when `None`), drawn from its observation: every seat
    /// sees the whole position but the advertised Coupon customers in the deck.
    pub(super) fn board_of(&self, s: &State, seat: Option<Seat>) -> Board {
        match seat {
            Some(k) => {
                let o = self.observe(s, k);
                self.draw(&o.state, o.advertised)
            }
            None => self.draw(s, 0),
        }
    }

    /// The board of position `s`, with `advertised` Coupon customers hidden in the deck.
    fn draw(&self, s: &State, advertised: u32) -> Board {
        let now = s.clock[self.earliest(s) as usize];
        let goal = self
            .goals
            .get((s.day as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let mut b = Board::new(format!(
            "day {} of {DAYS}, {}; days met {}",
            s.day, s.phase, s.days_met
        ));
        let secs = |ms: u32| f64::from(ms) / 1000.0;
        let table = b.row("table", None);
        table.coins("money", s.money);
        table.coins("income today", s.income);
        table.token("goal today", i64::from(goal));
        let total = f64::from(self.data.rulebook.timer_seconds);
        for (k, t) in s.timers.iter().enumerate() {
            let left = secs(t.left(now));
            let state = if t.standing { "standing" } else { "lying down" };
            table.timer(
                format!("sand timer {} ({state})", k + 1),
                left,
                total.max(left),
            );
        }
        table.token("washes left", s.washes_left);
        table.token("Hustle pool", s.hustle_pool);
        table.token("fortune cubes in supply", s.cube_supply);
        let customers = b.row("customers", None);
        match s.customer {
            Some(c) => {
                let r = &self.data.recipes[c as usize / CUSTOMER_SLOTS];
                let (income, coupon) = self.customer_income(c);
                customers.card(
                    r.name.clone(),
                    format!("${income}"),
                    format!(
                        "waiting{}, recipe of player {}",
                        if coupon { ", coupon" } else { "" },
                        u32::from(s.recipe_owner[c as usize / CUSTOMER_SLOTS]) + 1
                    ),
                );
            }
            None => {
                customers.text("no customer waiting");
            }
        }
        customers.face_down(s.deck.count_ones() + advertised, "customer deck");
        let kitchen = b.row("ingredients and recipes on offer", None);
        for k in 0..self.data.ingredients.len() {
            let owner = s.ingredient_owner[k];
            if owner == NOBODY && s.pending & (1 << k) == 0 {
                continue;
            }
            kitchen.card(
                self.data.ingredients[k].name.clone(),
                "",
                format!(
                    "track {}, {} methods, {}",
                    s.track[k],
                    self.open_methods(s, k),
                    if owner == NOBODY {
                        "unassigned".to_string()
                    } else {
                        format!("player {}", owner + 1)
                    }
                ),
            );
        }
        for &r in s.offer.iter().filter(|&&r| r != NOBODY) {
            let rec = &self.data.recipes[r as usize];
            kitchen.card(rec.name.clone(), format!("${}", rec.price), "on offer");
        }
        for i in 0..self.players as usize {
            let r = b.row(format!("player {}", i + 1), Some(i));
            r.timer("clock", secs(s.clock[i]), secs(now).max(secs(s.clock[i])));
            for &d in &s.dice[i][..s.dice_count[i] as usize] {
                r.die(d, "wok die");
            }
            r.token("fortune cubes", s.cubes[i]);
            r.token("served today", s.served_count[i]);
            r.token("on time", s.on_time[i]);
            for (k, rec) in self.data.recipes.iter().enumerate() {
                if s.recipe_owner[k] == i as u8 {
                    r.card(rec.name.clone(), format!("${}", rec.price), "recipe");
                }
            }
        }
        b
    }
}
