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
    cards, flag_index, CardSet, Dish, Flag, Hat, PlayerState, State, TofuShifu, MAX_TABLES, NONE,
    SEATS_PER_TABLE,
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

/// Upgrade counts in lanes: Lantern, four dishes, four hats ([`flag_index`]), then dishes in all
/// and hats in all; the last five lanes are zero. Sixteen lanes of `u16`, so that the compiler
/// checks a requirement with a few vector instructions.
type Lanes = [u16; 16];

/// `k` in lanes, with its two totals.
fn lanes(k: &Kinds) -> Lanes {
    let mut x = [0u16; 16];
    for (l, &v) in x.iter_mut().zip(k) {
        *l = v as u16;
    }
    x[9] = k[1..5].iter().map(|&v| v as u16).sum();
    x[10] = k[5..9].iter().map(|&v| v as u16).sum();
    x
}

/// Progress toward one requirement (`want`: its counts as
/// [`TofuShifu::town_requirement_counts`] gives them, `coins_asked`: its coins): the share of
/// its upgrades and coins met, and what one more flag of each kind would add to that share;
/// `None` when the missing upgrades can no longer be had (no remaining card supplies them).
/// `have` and `avail` are the seat's counts and the flags still to be had, in lanes.
fn progress(
    want: &[u8; 11],
    coins_asked: u16,
    have: &Lanes,
    avail: &Lanes,
    coins: u16,
) -> Option<Progress> {
    let mut wants = [0u16; 16];
    for (w, &x) in wants.iter_mut().zip(want) {
        *w = x as u16;
    }
    let mut missing = [0u16; 16];
    let mut beyond = false;
    for k in 0..16 {
        missing[k] = wants[k].saturating_sub(have[k]);
        beyond |= missing[k] > avail[k];
    }
    if beyond {
        return None;
    }
    let need: u32 = wants.iter().map(|&x| x as u32).sum();
    let met = need - missing.iter().map(|&x| x as u32).sum::<u32>();
    // A specific kind advances its own part, and the dishes' or hats' total when that is short
    // ("DISH:ANY" and "HAT:ANY" on top of the specific ones).
    let (dish, hat) = ((missing[9] > 0) as u8, (missing[10] > 0) as u8);
    let mut short = [0u8; 9];
    for (k, x) in short.iter_mut().enumerate() {
        let total = match k {
            1..=4 => dish,
            5..=8 => hat,
            _ => 0,
        };
        *x = (missing[k] > 0) as u8 + total;
    }
    let mut frac_need = need as f64;
    let mut frac_met = met as f64;
    if coins_asked > 0 {
        frac_need += 1.0;
        frac_met += (coins as f64 / coins_asked as f64).min(1.0);
    }
    if frac_need == 0.0 {
        return Some(Progress {
            share: 1.0,
            short: [0; 9],
            frac_need,
            missing: 0,
            paid: true,
        });
    }
    Some(Progress {
        share: frac_met / frac_need,
        short,
        frac_need,
        missing: need - met,
        paid: coins >= coins_asked,
    })
}

/// How far one objective is, and what one more flag of each kind would do for it.
struct Progress {
    /// The share of the requirement met (upgrades and coins).
    share: f64,
    /// How many of the requirement's parts one more flag of each kind advances: each part is
    /// worth `1 / frac_need` of the share.
    short: [u8; 9],
    /// The requirement's parts (upgrades, and one for the coins when it asks for any).
    frac_need: f64,
    /// Upgrade parts still missing.
    missing: u32,
    /// Whether the seat has the coins.
    paid: bool,
}

impl Progress {
    /// What one more flag of kind `k` adds to the share.
    fn advance(&self, k: usize) -> f64 {
        self.short[k] as f64 / self.frac_need
    }

    /// Whether one more flag of kind `k` completes the objective: those parts are all that is
    /// missing and the coins are there.
    fn completes(&self, k: usize) -> bool {
        self.paid && self.short[k] > 0 && self.short[k] as u32 == self.missing
    }
}

/// What the seat may still complete, in index order (Town objectives first): open Town
/// objectives (the display and the coin stack's top) and its own open Player objectives, each
/// as its counts ([`TofuShifu::town_requirement_counts`]) and its coins.
fn open_objectives<'a>(
    g: &'a TofuShifu,
    s: &'a State,
    p: &'a PlayerState,
) -> impl Iterator<Item = ([u8; 11], u16)> + 'a {
    let d = &g.data;
    let mut town = s.town_display as u64;
    if let Some(top) = g.coin_stack_top(s) {
        town |= 1 << top;
    }
    town &= (1u64 << d.town_objectives.len().min(63)) - 1;
    let player = ((1u64 << d.player_objectives.len().min(63)) - 1) & !(p.player_done as u64);
    bits(town)
        .map(move |i| (g.town_requirement_counts(i), g.town_requirement(i).coins))
        .chain(bits(player).map(move |i| {
            (
                g.player_requirement_counts(i),
                g.player_requirement(i).coins,
            )
        }))
}

/// The set bits of `x`, lowest first.
fn bits(mut x: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

/// The seat's objective progress, what one more flag of each kind would add to it, and the
/// most coins an open objective asks for.
fn objective_progress(
    g: &TofuShifu,
    s: &State,
    p: &PlayerState,
    avail: &Kinds,
    w: &TofuShifuWeights,
) -> (f64, [f64; 9], u16) {
    let have = lanes(&upgrade_counts(g, p));
    let can = lanes(avail);
    let mut total = 0.0;
    let mut gain = [0.0; 9];
    let mut coins = 0;
    // A flag that completes an objective turns its progress into the objective itself.
    let completion = w.objective_completion * (w.objectives - w.objective_progress);
    for (want, asked) in open_objectives(g, s, p) {
        coins = coins.max(asked);
        // An objective that can no longer be completed earns nothing.
        let Some(x) = progress(&want, asked, &have, &can, p.coins) else {
            continue;
        };
        total += x.share;
        // Kinds the objective is not short of add nothing (weights are finite).
        for k in (0..9).filter(|&k| avail[k] > 0 && x.short[k] > 0) {
            gain[k] += w.objective_progress * x.advance(k);
            if x.completes(k) {
                gain[k] += completion;
            }
        }
    }
    (w.objective_progress * total, gain, coins)
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

/// Coins the seat's next purchases need: its two dearest useful upgrades in hand and the dearest
/// open objective (`objective`, from [`objective_progress`]).
fn coins_needed(g: &TofuShifu, p: &PlayerState, held: CardSet, objective: u16) -> u16 {
    let mut upgrade = [0u16; 2];
    for c in cards(held) {
        let x = g.upgrade_cost_coins(p, c as usize);
        if x > upgrade[0] {
            upgrade = [x, upgrade[0]];
        } else if x > upgrade[1] {
            upgrade[1] = x;
        }
    }
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
    let (progress, flag_gain, objective_coins) = objective_progress(g, s, p, avail, w);
    let held = p.hand | p.rest;
    let need = coins_needed(g, p, held, objective_coins);
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
