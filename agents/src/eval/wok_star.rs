//! The Wok Star team evaluation: one value for the whole team (every seat gets the same), on a
//! scale where one day's goal met is worth 1.
//!
//! - Days met count 1 each.
//! - While a day runs: today's income as a share of today's goal (`income`), the ingredient stock
//!   (`stock` per token slot above the bottom, up to the slots the customers still to come need),
//!   a penalty while the waiting customer's dish is blocked (`blocked`), unused dice (`die`),
//!   washes left (`wash`) and Hustle tokens (`hustle`), and what the customers still to serve
//!   could bring (`potential`, times the team's means to serve them: any unused die, wash or
//!   stock).
//! - After closing and in Next Day Prep: the stock carried over, the recipes owned (their Regular
//!   customers' incomes against the next goal, `recipe`), upgrades (`upgrade`), Hustle tokens and
//!   advertised coupons (`coupon`, at most `coupon_cap` of them). Money left is worth nothing: it
//!   is lost when the next day opens.

use super::Evaluate;
use crate::Decision;
use rand::Rng;
use serde::{Deserialize, Serialize};
use shifu_engine::wok_star::{Action, Phase, State, WokStar};
use shifu_engine::{Game, Seat};

/// Weights of the Wok Star team evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WokStarWeights {
    /// Today's income, per share of today's goal.
    pub income: f64,
    /// Per ingredient slot above the bottom, up to the need of the customers to come.
    pub stock: f64,
    /// Penalty while the waiting customer's dish has an ingredient on the bottom slot.
    pub blocked: f64,
    /// Per unused die while a day runs.
    pub die: f64,
    /// Per wash left while a day runs.
    pub wash: f64,
    /// Per Hustle token in the pool.
    pub hustle: f64,
    /// Per share of today's goal the customers still to serve could bring.
    pub potential: f64,
    /// Per share of the next goal the owned recipes' Regular customers bring.
    pub recipe: f64,
    /// Per ingredient upgrade.
    pub upgrade: f64,
    /// Per advertised Coupon customer, up to `coupon_cap`.
    pub coupon: f64,
    /// Most advertised coupons valued.
    pub coupon_cap: f64,
}

impl Default for WokStarWeights {
    fn default() -> Self {
        WokStarWeights {
            income: 1.0,
            stock: 0.02,
            blocked: 0.1,
            die: 0.008,
            wash: 0.02,
            hustle: 0.006,
            potential: 0.3,
            recipe: 0.4,
            upgrade: 0.25,
            coupon: 0.02,
            coupon_cap: 2.0,
        }
    }
}

const COUPON_SLOTS: u8 = 5;

fn stock_value(g: &WokStar, s: &State, w: &WokStarWeights) -> f64 {
    // What the Regular customers still to come need of each ingredient (advertised coupons are
    // left out, so that advertising does not look like stock gained).
    let mut need = [0u32; 16];
    let mut deck = (s.deck & !coupon_mask()) | s.customer.map_or(0, |c| 1u128 << c);
    while deck != 0 {
        let c = deck.trailing_zeros() as usize;
        deck &= deck - 1;
        for &k in &g.data.recipes[c / 8].ingredients {
            need[k as usize] += 1;
        }
    }
    let min = g.data.track.min;
    let mut v = 0.0;
    for (k, &need) in need.iter().enumerate().take(g.data.ingredients.len()) {
        if s.ingredient_owner[k] != u8::MAX {
            let have = u32::from(s.track[k].saturating_sub(min));
            v += f64::from(have.min(need.max(1)));
        }
    }
    w.stock * v
}

impl Evaluate for WokStar {
    type Weights = WokStarWeights;

    fn cooperative(&self) -> bool {
        true
    }

    /// Next Day Prep is a shopping list: the greedy team buys whatever raises the evaluation
    /// most, and opens the next day only when nothing does (a one-ply look would open at once,
    /// since opening shows the day's prospects and a purchase shows only itself).
    fn greedy_choice<R: Rng + ?Sized>(
        &self,
        d: &Decision<'_, Self>,
        w: &WokStarWeights,
        rng: &mut R,
    ) -> Option<Action> {
        let s = d.determinize(rng);
        if s.phase != Phase::Prep {
            return None;
        }
        let now = self.evaluate(&s, d.seat(), w);
        let mut best = (Action::OpenDay, now + 1e-9);
        for &a in d.legal() {
            if a == Action::OpenDay {
                continue;
            }
            let mut t = s.clone();
            self.apply(&mut t, a, rng);
            let v = self.evaluate(&t, d.seat(), w);
            if v > best.1 {
                best = (a, v);
            }
        }
        Some(best.0)
    }

    fn evaluate(&self, s: &State, _seat: Seat, w: &WokStarWeights) -> f64 {
        let days = f64::from(s.days_met);
        if s.is_over() {
            return days;
        }
        let goals = self.goals();
        let day = (s.day as usize).clamp(1, 4) - 1;
        let goal = f64::from(goals[day].max(1));
        // What the team carries from day to day, valued the same in every phase so that no
        // phase change looks like a gain or a loss: recipes against the goal of the day they
        // will serve, upgrades, advertised coupons, stock and Hustle.
        let serving_day = match s.phase {
            Phase::Business | Phase::Washing | Phase::AfterClose { .. } => day,
            _ if s.opened => (day + 1).min(3),
            _ => day,
        };
        let mut regular = 0.0;
        for (r, rec) in self.data.recipes.iter().enumerate() {
            if s.recipe_owner[r] != u8::MAX {
                regular += rec.regular.iter().map(|&x| f64::from(x)).sum::<f64>();
            }
        }
        let upgrades: f64 = s.upgrades.iter().map(|&u| f64::from(u)).sum();
        // Coupons past the cap crowd the deck with $1 customers: each costs what one within it
        // gains.
        let c = f64::from((s.deck & coupon_mask()).count_ones());
        let coupons = c.min(w.coupon_cap) - (c - w.coupon_cap).max(0.0);
        let carried = days
            + w.recipe * regular / f64::from(goals[serving_day].max(1))
            + w.upgrade * upgrades
            + w.coupon * coupons
            + stock_value(self, s, w)
            + w.hustle * f64::from(s.hustle_pool);
        let income = w.income * (f64::from(s.income) / goal).min(1.5);
        match s.phase {
            Phase::Business | Phase::Washing => {
                let n = self.num_seats();
                // During a wash every dirty die is about to be rolled again.
                let dice: usize = if s.phase == Phase::Washing {
                    (0..n).map(|i| usize::from(s.dice_count[i])).sum()
                } else {
                    (0..n).map(|i| s.unused_dice(i)).sum()
                };
                let mut blocked = 0.0;
                let mut left = 0.0;
                if let Some(c) = s.customer {
                    let r = &self.data.recipes[c as usize / 8];
                    if r.ingredients
                        .iter()
                        .any(|&k| s.track[k as usize] <= self.data.track.min)
                    {
                        blocked = w.blocked;
                    }
                    left += f64::from(self.customer_income(c).0);
                }
                let mut deck = s.deck & !coupon_mask();
                while deck != 0 {
                    let c = deck.trailing_zeros() as u8;
                    deck &= deck - 1;
                    left += f64::from(self.customer_income(c).0);
                }
                let means = dice > 1 || s.washes_left > 0;
                let potential = if means {
                    w.potential * left / goal
                } else {
                    0.0
                };
                carried + income + potential - blocked
                    + w.die * dice as f64
                    + w.wash * f64::from(s.washes_left)
            }
            Phase::AfterClose { .. } => carried + income,
            _ => carried,
        }
    }
}

fn coupon_mask() -> u128 {
    let mut m = 0u128;
    for r in 0..16 {
        for k in COUPON_SLOTS as usize..8 {
            m |= 1u128 << (r * 8 + k);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use shifu_engine::rng_from_seed;
    use shifu_engine::wok_star::Params;

    fn opened(seed: u64) -> (WokStar, State) {
        let g = WokStar::with_params(Params::default()).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut seat = 0;
        while s.phase == Phase::GiveIngredients {
            let mut legal = Vec::new();
            g.legal_actions(&s, &mut legal);
            let a = if legal.contains(&Action::GiveIngredient(seat)) {
                Action::GiveIngredient(seat)
            } else {
                legal[0]
            };
            g.apply(&mut s, a, &mut rng);
            seat = (seat + 1) % 4;
        }
        (g, s)
    }

    #[test]
    fn serving_is_worth_more_than_waiting_and_waiting_more_than_closing() {
        let (g, mut s) = opened(1);
        let w = WokStarWeights::default();
        let r = s.customer.unwrap() as usize / 8;
        for &k in &g.data.recipes[r].ingredients {
            s.track[k as usize] = 2;
        }
        s.clock[s.recipe_owner[r] as usize] = 0;
        let value = |a: Action| {
            let mut t = s.clone();
            g.apply(&mut t, a, &mut rng_from_seed(2));
            g.evaluate(&t, 0, &w)
        };
        assert!(value(Action::Serve) > value(Action::Wait));
        assert!(value(Action::Wait) > value(Action::Close));
    }

    #[test]
    fn preparing_a_blocked_ingredient_beats_waiting() {
        let (g, mut s) = opened(3);
        let w = WokStarWeights::default();
        let seat = g.earliest(&s);
        let r = s.customer.unwrap() as usize / 8;
        let k = g.data.recipes[r].ingredients[0];
        s.ingredient_owner[k as usize] = seat;
        s.track[k as usize] = 0;
        s.dice[seat as usize] = [1, 2, 0, 0, 0];
        let mut legal = Vec::new();
        g.legal_actions(&s, &mut legal);
        let prep = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Prepare { ingredient, .. } if *ingredient == k))
            .unwrap();
        let value = |a: Action| {
            let mut t = s.clone();
            g.apply(&mut t, a, &mut rng_from_seed(2));
            g.evaluate(&t, 0, &w)
        };
        assert!(value(prep) > value(Action::Wait));
    }

    #[test]
    fn every_seat_gets_the_same_team_value() {
        let (g, s) = opened(4);
        let w = WokStarWeights::default();
        let v: Vec<f64> = (0..4).map(|seat| g.evaluate(&s, seat, &w)).collect();
        assert!(v.iter().all(|&x| x == v[0]));
    }
}

#[cfg(test)]
mod prep_tests {
    use super::*;
    use shifu_engine::rng_from_seed;
    use shifu_engine::wok_star::Params;

    #[test]
    fn advertising_past_the_cap_loses_value() {
        let g = WokStar::with_params(Params::with_players(2)).unwrap();
        let w = WokStarWeights::default();
        let mut rng = rng_from_seed(1);
        let mut s = g.new_state(&mut rng);
        s.phase = Phase::Prep;
        s.opened = true;
        s.pending = 0;
        for k in 0..10 {
            if s.track[k] > 0 {
                s.ingredient_owner[k] = 0;
            }
        }
        let mut values = vec![g.evaluate(&s, 0, &w)];
        for _ in 0..4 {
            g.apply(&mut s, Action::Advertise, &mut rng);
            values.push(g.evaluate(&s, 0, &w));
        }
        assert!(values[1] > values[0] && values[2] > values[1]);
        assert!(values[3] < values[2] && values[4] < values[3]);
    }
}
