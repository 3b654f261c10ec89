//! The Tofu Shifu evaluation.

use super::Evaluate;
use serde::{Deserialize, Serialize};
use shifu_engine::tofu_shifu::{cards, State, TofuShifu, MAX_TABLES, NONE, SEATS_PER_TABLE};
use shifu_engine::Seat;

/// Weights of the Tofu Shifu evaluation. Each feature is for the evaluated seat; the value is
/// the seat's own total minus `opponent_share` times the best opponent's total.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TofuShifuWeights {
    /// Per completed objective (the score).
    pub objectives: f64,
    /// Per open Town or Player objective, times the fraction of its requirement met.
    pub objective_progress: f64,
    /// Per restaurant objective set and not yet completed, times the best fraction of its dishes
    /// already served at one table.
    pub restaurant_progress: f64,
    /// Per coin.
    pub coins: f64,
    /// Per cyan (dish) flag, times the dish's price / 4.
    pub dish_flags: f64,
    /// Per light brown (hat) flag.
    pub hat_flags: f64,
    /// Per open table beyond the first.
    pub tables: f64,
    /// Per dish token on the board, times its price / 4.
    pub dishes: f64,
    /// Per hat token on the board.
    pub hats: f64,
    /// Per seated customer.
    pub customers: f64,
    /// Per dish served to a seated customer (coins already earned, an objective nearer).
    pub served: f64,
    /// Per card in hand or Rest zone (options), up to the hand limit.
    pub cards: f64,
    /// How much the best opponent's total is subtracted (0 = play alone, 1 = zero-sum).
    pub opponent_share: f64,
}

impl Default for TofuShifuWeights {
    fn default() -> Self {
        TofuShifuWeights {
            objectives: 1.0,
            objective_progress: 0.35,
            restaurant_progress: 0.3,
            coins: 0.06,
            dish_flags: 0.12,
            hat_flags: 0.08,
            tables: 0.1,
            dishes: 0.05,
            hats: 0.03,
            customers: 0.04,
            served: 0.04,
            cards: 0.02,
            opponent_share: 0.5,
        }
    }
}

/// One seat's total, before the opponent term.
fn seat_value(g: &TofuShifu, s: &State, seat: usize, w: &TofuShifuWeights) -> f64 {
    let p = &s.players[seat];
    let d = &g.data;
    let mut v = w.objectives * p.objectives() as f64 + w.coins * p.coins as f64;
    // Progress toward objectives still open to this seat.
    let mut progress = 0.0;
    let (lantern, dish, hat) = {
        let mut dish = p.dish_flags;
        let mut hat = p.hat_flags;
        if !g.params.board_flags_count {
            for i in 0..4 {
                dish[i] -= d.board_dish_flags[i];
                hat[i] -= d.board_hat_flags[i];
            }
        }
        (p.lanterns, dish, hat)
    };
    let frac = |r: &shifu_engine::tofu_shifu::Requirement| {
        let mut need = 0.0;
        let mut have = 0.0;
        let mut add = |n: u8, h: u8| {
            need += n as f64;
            have += h.min(n) as f64;
        };
        add(r.lantern, lantern);
        for i in 0..4 {
            add(r.dish[i], dish[i]);
            add(r.hat[i], hat[i]);
        }
        let dish_total: u8 = dish.iter().sum();
        let hat_total: u8 = hat.iter().sum();
        add(r.dish_any + r.dish.iter().sum::<u8>(), dish_total);
        add(r.hat_any + r.hat.iter().sum::<u8>(), hat_total);
        if r.coins > 0 {
            need += 1.0;
            have += (p.coins as f64 / r.coins as f64).min(1.0);
        }
        if need == 0.0 {
            1.0
        } else {
            have / need
        }
    };
    for i in 0..d.town_objectives.len() {
        if s.town_display & (1 << i) != 0 || g.coin_stack_top(s) == Some(i as u8) {
            progress += frac(g.town_requirement(i));
        }
    }
    for i in 0..d.player_objectives.len() {
        if p.player_done & (1 << i) == 0 {
            progress += frac(g.player_requirement(i));
        }
    }
    v += w.objective_progress * progress;
    // Restaurant objectives set: the best table's share of the dishes they need.
    for c in cards(p.objective_zone) {
        let need = &d.cards[c as usize].objective;
        let total: u8 = need.iter().sum();
        let best = (0..MAX_TABLES)
            .map(|t| {
                let served = p.table_served(t);
                (0..4).map(|i| served[i].min(need[i])).sum::<u8>()
            })
            .max()
            .unwrap_or(0);
        v += w.restaurant_progress * best as f64 / total.max(1) as f64;
    }
    // The engine: flags, tables, tokens, customers, cards.
    for i in 0..4 {
        let price = d.dish_values[i] as f64 / 4.0;
        v += w.dish_flags * p.dish_flags[i] as f64 * price;
        v += w.dishes * p.dishes[i] as f64 * price;
        v += w.hat_flags * p.hat_flags[i] as f64;
        v += w.hats * p.hats[i] as f64;
    }
    v += w.tables * (g.tables_open(p) as f64 - 1.0);
    for t in 0..MAX_TABLES {
        for k in 0..SEATS_PER_TABLE {
            if p.tables[t][k] != NONE {
                v += w.customers + w.served * p.served[t][k].count_ones() as f64;
            }
        }
    }
    let held = (p.hand | p.rest).count_ones().min(g.hand_limit(p) as u32);
    v + w.cards * held as f64
}

impl Evaluate for TofuShifu {
    type Weights = TofuShifuWeights;

    fn evaluate(&self, s: &State, seat: Seat, w: &TofuShifuWeights) -> f64 {
        let me = seat_value(self, s, seat as usize, w);
        let best_other = (0..s.num_players as usize)
            .filter(|&q| q != seat as usize)
            .map(|q| seat_value(self, s, q, w))
            .fold(f64::NEG_INFINITY, f64::max);
        me - w.opponent_share * best_other
    }
}
