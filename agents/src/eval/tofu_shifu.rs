//! The Tofu Shifu evaluation: how near a seat is to completing objectives, in objectives.
//!
//! A seat's value is its completed objectives plus what it holds toward more:
//! - progress toward each Town and Player objective it can still complete (an objective whose
//!   missing upgrades no remaining card can supply earns nothing);
//! - its restaurant objectives, each matched to a different table ("Only one Objective can be
//!   completed per table"), by the share of the dishes already served there;
//! - its engine (flags, tables), tokens and seated customers;
//! - its cards, each valued for the best thing it can become: an upgrade (the flag's value toward
//!   objectives and income, less its coins), a restaurant objective, or a hat payment;
//! - its coins, at full value up to what its next purchases need and little beyond.
//!
//! The value is the seat's own total minus `opponent_share` times the best opponent's total.

use super::Evaluate;
use serde::{Deserialize, Serialize};
use shifu_engine::tofu_shifu::{
    cards, flag_index, CardSet, Dish, Flag, Hat, PlayerState, Requirement, State, TofuShifu,
    MAX_TABLES, NONE, SEATS_PER_TABLE,
};
use shifu_engine::Seat;

/// Weights of the Tofu Shifu evaluation, in objectives (a completed objective is worth
/// `objectives`). Every feature is the evaluated seat's own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TofuShifuWeights {
    /// Per completed objective (the score).
    pub objectives: f64,
    /// Per open Town or Player objective the seat can still complete, times the fraction of its
    /// requirement met.
    pub objective_progress: f64,
    /// A card whose upgrade would complete an open objective counts this share of the jump from
    /// that objective's progress to the objective itself.
    pub objective_completion: f64,
    /// Per restaurant objective set and still completable (its dishes can be produced and some
    /// customers order them).
    pub restaurant_set: f64,
    /// Per restaurant objective, times the share of its dishes served at the table matched to it
    /// (each table serves one objective).
    pub restaurant_progress: f64,
    /// Per coin, up to the coins the seat's next purchases need.
    pub coins: f64,
    /// Per coin beyond that need (coins still break ties at the end).
    pub coins_excess: f64,
    /// Per cyan (dish) flag, times the dish's price / 4 (income).
    pub dish_flags: f64,
    /// Per light brown (hat) flag.
    pub hat_flags: f64,
    /// Per open table beyond the first.
    pub tables: f64,
    /// Per dish token on the board, per coin of its price.
    pub dishes: f64,
    /// Per hat token on the board.
    pub hats: f64,
    /// Per seated customer, times the share of its orders still open.
    pub customers: f64,
    /// A card as an upgrade is worth this share of what the upgrade would add, less its coins.
    pub card_upgrade: f64,
    /// A card as a restaurant objective that can be completed.
    pub card_objective: f64,
    /// A card as a hat payment (every card can pay a hat).
    pub card_hat: f64,
    /// How much the best opponent's total is subtracted (0 = play alone, 1 = zero-sum).
    pub opponent_share: f64,
}

impl Default for TofuShifuWeights {
    fn default() -> Self {
        TofuShifuWeights {
            objectives: 1.0,
            objective_progress: 0.4,
            objective_completion: 0.5,
            restaurant_set: 0.3,
            restaurant_progress: 0.45,
            coins: 0.05,
            coins_excess: 0.01,
            dish_flags: 0.12,
            hat_flags: 0.08,
            tables: 0.06,
            dishes: 0.03,
            hats: 0.03,
            customers: 0.04,
            card_upgrade: 0.3,
            card_objective: 0.25,
            card_hat: 0.03,
            opponent_share: 0.5,
        }
    }
}

/// Upgrade counts by flag kind ([`flag_index`]): Lantern, four dishes, four hats.
type Kinds = [u8; 9];

/// The seat's upgrade counts as objectives read them (board flags only when they count).
fn upgrade_counts(g: &TofuShifu, p: &PlayerState) -> Kinds {
    let d = &g.data;
    let mut k = [0u8; 9];
    k[0] = p.lanterns;
    for i in 0..4 {
        let (board_dish, board_hat) = if g.params.board_flags_count {
            (0, 0)
        } else {
            (d.board_dish_flags[i], d.board_hat_flags[i])
        };
        k[1 + i] = p.dish_flags[i].saturating_sub(board_dish);
        k[5 + i] = p.hat_flags[i].saturating_sub(board_hat);
    }
    k
}

/// Flags of each kind still to be had: cards not yet played as an upgrade or an objective.
fn available(g: &TofuShifu, s: &State) -> Kinds {
    let mut used: CardSet = 0;
    for p in &s.players[..s.num_players as usize] {
        used |= p.upgrades | p.objective_zone | p.restaurant_done;
    }
    let mut a = [0u8; 9];
    for (i, x) in a.iter_mut().enumerate() {
        let f = match i {
            0 => Flag::Lantern,
            1..=4 => Flag::Dish(Dish::from_index(i - 1)),
            _ => Flag::Hat(Hat::from_index(i - 5)),
        };
        *x = (g.cards_with_flag(f) & !used).count_ones() as u8;
    }
    a
}

/// Progress toward one requirement: the share of its upgrades and coins met, and what one more
/// flag of each kind would add to that share; `None` when the missing upgrades can no longer be
/// had (no remaining card supplies them).
fn progress(r: &Requirement, have: &Kinds, avail: &Kinds, coins: u16) -> Option<Progress> {
    let mut need = 0u32;
    let mut met = 0u32;
    let mut short = [0u8; 9];
    // Specific kinds: Lantern, each dish, each hat.
    let wants = [
        r.lantern, r.dish[0], r.dish[1], r.dish[2], r.dish[3], r.hat[0], r.hat[1], r.hat[2],
        r.hat[3],
    ];
    for k in 0..9 {
        let missing = wants[k].saturating_sub(have[k]);
        if missing > avail[k] {
            return None;
        }
        need += wants[k] as u32;
        met += (wants[k] - missing) as u32;
        short[k] = (missing > 0) as u8;
    }
    // Dishes and hats in all ("DISH:ANY" and "HAT:ANY" on top of the specific ones).
    for (range, want) in [
        (1..5, r.dish_any + r.dish.iter().sum::<u8>()),
        (5..9, r.hat_any + r.hat.iter().sum::<u8>()),
    ] {
        let got: u32 = have[range.clone()].iter().map(|&x| x as u32).sum();
        let can: u32 = avail[range.clone()].iter().map(|&x| x as u32).sum();
        let missing = (want as u32).saturating_sub(got);
        if missing > can {
            return None;
        }
        need += want as u32;
        met += want as u32 - missing;
        if missing > 0 {
            for x in &mut short[range] {
                *x += 1;
            }
        }
    }
    let mut frac_need = need as f64;
    let mut frac_met = met as f64;
    if r.coins > 0 {
        frac_need += 1.0;
        frac_met += (coins as f64 / r.coins as f64).min(1.0);
    }
    if frac_need == 0.0 {
        return Some(Progress {
            share: 1.0,
            advance: [0.0; 9],
            completes: [false; 9],
        });
    }
    // One more flag of kind `k` advances `short[k]` parts, each worth 1/need of the share; it
    // completes the objective when those parts are all that is missing and the coins are there.
    let missing = need - met;
    let paid = coins >= r.coins;
    Some(Progress {
        share: frac_met / frac_need,
        advance: short.map(|x| x as f64 / frac_need),
        completes: short.map(|x| paid && x > 0 && x as u32 == missing),
    })
}

/// How far one objective is, and what one more flag of each kind would do for it.
struct Progress {
    /// The share of the requirement met (upgrades and coins).
    share: f64,
    /// What one more flag of each kind adds to the share.
    advance: [f64; 9],
    /// Whether one more flag of each kind completes the objective.
    completes: [bool; 9],
}

/// What the seat may still complete: open Town objectives (the display and the coin stack's
/// top) and its own open Player objectives.
fn open_objectives<'a>(
    g: &'a TofuShifu,
    s: &'a State,
    p: &'a PlayerState,
) -> impl Iterator<Item = &'a Requirement> + 'a {
    let d = &g.data;
    let town = (0..d.town_objectives.len())
        .filter(move |&i| s.town_display & (1 << i) != 0 || g.coin_stack_top(s) == Some(i as u8))
        .map(move |i| g.town_requirement(i));
    let player = (0..d.player_objectives.len())
        .filter(move |&i| p.player_done & (1 << i) == 0)
        .map(move |i| g.player_requirement(i));
    town.chain(player)
}

/// The seat's objective progress, and what one more flag of each kind would add to it.
fn objective_progress(
    g: &TofuShifu,
    s: &State,
    p: &PlayerState,
    avail: &Kinds,
    w: &TofuShifuWeights,
) -> (f64, [f64; 9]) {
    let have = upgrade_counts(g, p);
    let mut total = 0.0;
    let mut gain = [0.0; 9];
    for r in open_objectives(g, s, p) {
        // An objective that can no longer be completed earns nothing.
        if let Some(x) = progress(r, &have, avail, p.coins) {
            total += x.share;
            for k in 0..9 {
                if avail[k] > 0 {
                    gain[k] += w.objective_progress * x.advance[k];
                    if x.completes[k] {
                        // The flag turns the objective's progress into the objective itself.
                        gain[k] += w.objective_completion * (w.objectives - w.objective_progress);
                    }
                }
            }
        }
    }
    (w.objective_progress * total, gain)
}

/// Whether the seat can produce every dish `need` asks for (it has a flag of each), or could
/// after upgrades: 1, else 0.5 (a flag is missing).
fn producible(p: &PlayerState, need: &[u8; 4]) -> f64 {
    if (0..4).all(|d| need[d] == 0 || p.dish_flags[d] > 0) {
        1.0
    } else {
        0.5
    }
}

/// Share of card `c`'s restaurant objective served at table `t`, or `None` when the table can
/// no longer complete it (its customers cannot take the missing dishes and no seat is free).
fn table_progress(g: &TofuShifu, p: &PlayerState, c: usize, t: usize) -> Option<f64> {
    let need = &g.data.cards[c].objective;
    let served = p.table_served(t);
    let per = g.data.customers_per_table as usize;
    let free = p.tables[t][..per].iter().filter(|&&x| x == NONE).count();
    let total: u8 = need.iter().sum();
    let mut met = 0u8;
    for d in 0..4 {
        let got = served[d].min(need[d]);
        met += got;
        let missing = (need[d] - got) as usize;
        if missing == 0 {
            continue;
        }
        let takers = (0..per)
            .filter(|&k| {
                let tile = p.tables[t][k];
                tile != NONE
                    && g.data.customers[tile as usize].orders & !p.served[t][k] & (1 << d) != 0
            })
            .count();
        if takers + free < missing {
            return None;
        }
    }
    Some(met as f64 / total.max(1) as f64)
}

/// The restaurant objectives set: each completable one earns `restaurant_set`, and each is
/// matched to a different open table (best total progress) for `restaurant_progress`.
fn restaurant_value(g: &TofuShifu, p: &PlayerState, w: &TofuShifuWeights) -> f64 {
    let tables = g.tables_open(p).min(MAX_TABLES);
    let mut base = 0.0;
    // best[mask]: the best progress sum with the tables in `mask` taken.
    let mut best = [f64::NEG_INFINITY; 1 << MAX_TABLES];
    best[0] = 0.0;
    for c in cards(p.objective_zone) {
        let c = c as usize;
        if !g.objective_coverable(c) {
            continue;
        }
        base += w.restaurant_set * producible(p, &g.data.cards[c].objective);
        let mut next = best;
        for (mask, &done) in best.iter().enumerate().take(1 << tables) {
            if done == f64::NEG_INFINITY {
                continue;
            }
            for t in (0..tables).filter(|t| mask & (1 << t) == 0) {
                if let Some(x) = table_progress(g, p, c, t) {
                    let m = mask | (1 << t);
                    next[m] = next[m].max(done + x);
                }
            }
        }
        best = next;
    }
    let matched = best.iter().cloned().fold(0.0, f64::max);
    base + w.restaurant_progress * matched
}

/// What one flag of a kind adds to the engine (income, hat refills, a table).
fn engine_value(g: &TofuShifu, p: &PlayerState, f: Flag, w: &TofuShifuWeights) -> f64 {
    match f {
        Flag::Dish(d) => w.dish_flags * g.data.dish_values[d as usize] as f64 / 4.0,
        Flag::Hat(_) => w.hat_flags,
        Flag::Lantern if g.tables_open(p) < g.data.tables_total as usize => w.tables,
        Flag::Lantern => 0.0,
    }
}

/// Coins the seat's next purchases need: its two dearest useful upgrades in hand, the coin
/// stack's top objective, and the dearest open objective whose coins it lacks.
fn coins_needed(g: &TofuShifu, s: &State, p: &PlayerState, held: CardSet) -> u16 {
    let mut upgrade = [0u16; 2];
    for c in cards(held) {
        let x = g.upgrade_cost_coins(p, c as usize);
        if x > upgrade[0] {
            upgrade = [x, upgrade[0]];
        } else if x > upgrade[1] {
            upgrade[1] = x;
        }
    }
    let objective = open_objectives(g, s, p).map(|r| r.coins).max().unwrap_or(0);
    upgrade[0] + upgrade[1] + objective
}

/// What the held cards are worth: each card at the best of becoming an upgrade, a restaurant
/// objective or a hat payment; only the best `hand_limit` count.
fn cards_value(
    g: &TofuShifu,
    p: &PlayerState,
    held: CardSet,
    flag_gain: &[f64; 9],
    w: &TofuShifuWeights,
) -> f64 {
    let mut values = [0.0f64; 128];
    let mut n = 0;
    for c in cards(held) {
        let card = &g.data.cards[c as usize];
        let coins = g.upgrade_cost_coins(p, c as usize) as f64;
        let upgrade = w.card_upgrade
            * (flag_gain[flag_index(card.flag)] + engine_value(g, p, card.flag, w)
                - w.coins * coins);
        let objective = if g.objective_coverable(c as usize) {
            w.card_objective * producible(p, &card.objective)
        } else {
            0.0
        };
        values[n] = upgrade.max(objective).max(w.card_hat);
        n += 1;
    }
    let v = &mut values[..n];
    v.sort_unstable_by(|a, b| b.total_cmp(a));
    v.iter().take(g.hand_limit(p) as usize).sum()
}

/// One seat's total, before the opponent term.
fn seat_value(g: &TofuShifu, s: &State, seat: usize, avail: &Kinds, w: &TofuShifuWeights) -> f64 {
    let p = &s.players[seat];
    let d = &g.data;
    let (progress, flag_gain) = objective_progress(g, s, p, avail, w);
    let held = p.hand | p.rest;
    let need = coins_needed(g, s, p, held);
    let coins =
        p.coins.min(need) as f64 * w.coins + p.coins.saturating_sub(need) as f64 * w.coins_excess;
    let mut v = w.objectives * p.objectives() as f64 + progress + coins;
    v += restaurant_value(g, p, w);
    for i in 0..4 {
        let price = d.dish_values[i] as f64;
        v += w.dish_flags * p.dish_flags[i] as f64 * price / 4.0;
        v += w.dishes * p.dishes[i] as f64 * price;
        v += w.hat_flags * p.hat_flags[i] as f64;
        v += w.hats * p.hats[i] as f64;
    }
    v += w.tables * (g.tables_open(p) as f64 - 1.0);
    for t in 0..MAX_TABLES {
        for k in 0..SEATS_PER_TABLE {
            let tile = p.tables[t][k];
            if tile != NONE {
                let orders = d.customers[tile as usize].orders;
                let open = (orders & !p.served[t][k]).count_ones() as f64;
                v += w.customers * open / orders.count_ones().max(1) as f64;
            }
        }
    }
    v + cards_value(g, p, held, &flag_gain, w)
}

impl Evaluate for TofuShifu {
    type Weights = TofuShifuWeights;
    type Belief = ();

    fn evaluate(&self, s: &State, seat: Seat, w: &TofuShifuWeights) -> f64 {
        let avail = available(self, s);
        let me = seat_value(self, s, seat as usize, &avail, w);
        let best_other = (0..s.num_players as usize)
            .filter(|&q| q != seat as usize)
            .map(|q| seat_value(self, s, q, &avail, w))
            .fold(f64::NEG_INFINITY, f64::max);
        me - w.opponent_share * best_other
    }

    fn evaluate_all(&self, s: &State, w: &TofuShifuWeights, out: &mut [f64]) {
        let avail = available(self, s);
        let n = s.num_players as usize;
        let mut own = [0.0; 4];
        for (q, x) in own.iter_mut().enumerate().take(n) {
            *x = seat_value(self, s, q, &avail, w);
        }
        for (seat, x) in out.iter_mut().enumerate().take(n) {
            let best_other = (0..n)
                .filter(|&q| q != seat)
                .map(|q| own[q])
                .fold(f64::NEG_INFINITY, f64::max);
            *x = own[seat] - w.opponent_share * best_other;
        }
    }
}
