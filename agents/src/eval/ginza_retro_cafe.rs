//! The Ginza Retro Café evaluation, in VP: a seat's points so far and what it holds toward more.
//!
//! - Order VP and coins (at the coin rate in force) count as they will at scoring.
//! - Its own bonus cards: the VP of a met condition (`bonus_met`), else the VP times the share of
//!   the condition met (`bonus_progress`) plus a prior (`bonus_prior`) for a card just drafted.
//! - Its tokens on orders of customers still here: the order's VP times `pending` (the customer
//!   may leave unserved).
//! - Its engine: Arrange cards at Lv.2 (`level`), dice limit above the start (`limit`), dice in
//!   the Dice area (`die`) and action tokens still to use this round (`token`).
//!
//! Opponents are valued without their bonus cards (hidden); the value is the seat's own total
//! minus `opponent_share` times the best opponent's.

use super::Evaluate;
use serde::{Deserialize, Serialize};
use shifu_engine::ginza_retro_cafe::data::BonusCondition;
use shifu_engine::ginza_retro_cafe::{GinzaRetroCafe, State};
use shifu_engine::Seat;

/// Weights of the Ginza Retro Café evaluation, in VP.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GinzaRetroCafeWeights {
    /// Per VP of a met bonus card.
    pub bonus_met: f64,
    /// Per VP of an unmet bonus card, times the share of its condition met.
    pub bonus_progress: f64,
    /// Per VP of any bonus card held.
    pub bonus_prior: f64,
    /// Per VP of an order the seat has a token on, at a customer still here.
    pub pending: f64,
    /// Per Arrange card at Lv.2.
    pub level: f64,
    /// Per step of dice limit above the start.
    pub limit: f64,
    /// Per die in the Dice area.
    pub die: f64,
    /// Per action token still to use this round.
    pub token: f64,
    /// Share of the best opponent's value subtracted.
    pub opponent_share: f64,
}

impl Default for GinzaRetroCafeWeights {
    fn default() -> Self {
        GinzaRetroCafeWeights {
            bonus_met: 1.0,
            bonus_progress: 0.6,
            bonus_prior: 0.2,
            pending: 0.6,
            level: 1.5,
            limit: 1.0,
            die: 0.3,
            token: 0.5,
            opponent_share: 0.5,
        }
    }
}

/// A seat's value without its bonus cards.
fn public_value(g: &GinzaRetroCafe, s: &State, seat: usize, w: &GinzaRetroCafeWeights) -> f64 {
    let p = g.points(s, seat);
    let mut v = f64::from(p.orders) + f64::from(s.coins[seat]) / f64::from(g.yen_per_vp());
    for pl in &s.places {
        for k in 0..3 {
            if pl.tokens[k].index() != Some(seat) {
                continue;
            }
            if let Some(order) = pl.orders[k].index() {
                v += w.pending * f64::from(g.data.orders[order].vp);
            }
        }
    }
    if s.is_over() {
        return v;
    }
    let levels = s.levels[seat].iter().filter(|&&l| l == 2).count() as f64;
    let above = f64::from(s.limit[seat].saturating_sub(g.data.rulebook.start_dice));
    v + w.level * levels
        + w.limit * above
        + w.die * f64::from(s.dice_count(seat))
        + w.token * f64::from(s.tokens[seat])
}

/// The share of a bonus card's condition a seat meets (1 when met).
fn progress(g: &GinzaRetroCafe, s: &State, seat: usize, b: usize) -> f64 {
    if g.bonus_met(s, seat, b) {
        return 1.0;
    }
    let (cat, sub) = g.order_counts(s, seat);
    match g.data.bonus[b].cond {
        BonusCondition::SubcategoryAtLeast(k, need) => {
            f64::from(sub[usize::from(k)].min(need)) / f64::from(need.max(1))
        }
        BonusCondition::EachAtLeastOne(bits) => {
            let want = bits.count_ones();
            let have = (0..16)
                .filter(|&k| bits & (1 << k) != 0 && sub[k] > 0)
                .count();
            have as f64 / f64::from(want.max(1))
        }
        BonusCondition::MostOfCategory(c, _) => {
            let mine = f64::from(cat[usize::from(c)]);
            let best = (0..s.players as usize)
                .map(|j| f64::from(g.order_counts(s, j).0[usize::from(c)]))
                .fold(0.0, f64::max);
            mine / (best + 1.0)
        }
        BonusCondition::MostOrderCards(_) => {
            let mine = f64::from(s.won_orders[seat].count_ones());
            let best = (0..s.players as usize)
                .map(|j| f64::from(s.won_orders[j].count_ones()))
                .fold(0.0, f64::max);
            mine / (best + 1.0)
        }
        BonusCondition::EachCategoryAtLeast(need) => {
            let total: u32 = need.iter().map(|&n| u32::from(n)).sum();
            let have: u32 = (0..3).map(|c| u32::from(cat[c].min(need[c]))).sum();
            f64::from(have) / f64::from(total.max(1))
        }
    }
}

fn own_value(g: &GinzaRetroCafe, s: &State, seat: usize, w: &GinzaRetroCafeWeights) -> f64 {
    let mut v = public_value(g, s, seat, w);
    for b in s.bonus_hand[seat].iter().filter_map(|b| b.index()) {
        let vp = f64::from(g.data.bonus[b].vp);
        let x = progress(g, s, seat, b);
        v += if x >= 1.0 {
            w.bonus_met * vp
        } else if s.is_over() {
            0.0
        } else {
            vp * (w.bonus_progress * x + w.bonus_prior)
        };
    }
    v
}

impl Evaluate for GinzaRetroCafe {
    type Weights = GinzaRetroCafeWeights;
    type Belief = ();

    fn evaluate(&self, s: &State, seat: Seat, w: &GinzaRetroCafeWeights) -> f64 {
        let me = own_value(self, s, usize::from(seat), w);
        let best_other = (0..usize::from(s.players))
            .filter(|&q| q != usize::from(seat))
            .map(|q| public_value(self, s, q, w))
            .fold(f64::NEG_INFINITY, f64::max);
        me - w.opponent_share * best_other
    }
}
