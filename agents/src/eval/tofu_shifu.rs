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
    cards, flag_index, CardSet, Dish, Flag, Hat, PlayerState, State, TileId, TofuShifu, MAX_TABLES,
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
    for (k, x) in a.iter_mut().enumerate() {
        *x = (g.cards_with_flag(flag_of_kind(k)) & !used).count_ones() as u8;
    }
    a
}

/// Eleven counts one per byte from the lowest, as [`TofuShifu::town_requirement_packed`] gives
/// them: Lantern, the four dishes, the four hats ([`flag_index`]), dishes in all, hats in all.
/// Each count is at most 127, so that a byte's top bit is free for the checks.
type Packed = u128;

/// The top bit of each of the eleven bytes.
const HIGH: Packed = 0x80_8080_8080_8080_8080_8080;
/// The low seven bits of each of the eleven bytes.
const LOW7: Packed = 0x7F_7F7F_7F7F_7F7F_7F7F_7F7F;

/// Eleven counts, packed.
fn pack(x: &[u8; 11]) -> Packed {
    let mut b = [0u8; 16];
    b[..11].copy_from_slice(x);
    u128::from_le_bytes(b)
}

/// `k` with its two totals, each count at most 127 (a larger count stands for 127: every
/// requirement asks for less, see [`progress`]).
fn packed(k: &Kinds) -> Packed {
    let total = |r: std::ops::Range<usize>| k[r].iter().map(|&v| v as u16).sum::<u16>();
    let mut b = [0u8; 11];
    for (x, &v) in b.iter_mut().zip(k) {
        *x = v.min(127);
    }
    b[9] = total(1..5).min(127) as u8;
    b[10] = total(5..9).min(127) as u8;
    pack(&b)
}

/// The sum of the bytes of `x` (each below 256).
fn byte_sum(x: Packed) -> u32 {
    const EVEN: u128 = 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    // Eight 16-bit lanes, then one multiply per half gathers them in its top lane.
    let pairs = (x & EVEN) + ((x >> 8) & EVEN);
    let half = |h: u64| (h.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32;
    half(pairs as u64) + half((pairs >> 64) as u64)
}

/// Bit `k` set for each byte `k` of `x` whose top bit is set.
fn top_bits(x: Packed) -> u16 {
    // Each byte's top bit moved to its lowest bit; one multiply per half gathers eight of them
    // (byte i lands on bit i of the top byte, without carries).
    let gather =
        |h: u64| ((h >> 7) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    (gather(x as u64) | gather((x >> 64) as u64) << 8) as u16
}

/// Progress toward one requirement (`want`: its counts [`TofuShifu::town_requirement_packed`],
/// each at most 127; `coins_asked`: its coins): the share of its upgrades and coins met, and
/// which flags would add to that share; `None` when the missing upgrades can no longer be had (no
/// remaining card supplies them). `have` and `avail` are the seat's counts and the flags still to
/// be had, [`packed`]: capped at 127, which decides as the counts would, since no count asked for
/// is more.
#[inline]
fn progress(
    want: Packed,
    coins_asked: u16,
    have: Packed,
    avail: Packed,
    coins: u16,
) -> Option<Progress> {
    let (need, missing, short) = missing_parts(want, have, avail)?;
    Some(Progress::new(need, missing, short, coins_asked, coins))
}

/// The requirement's parts (its counts summed), those missing, and the counts short (a bit
/// each, [`Packed`]'s order); `None` when more is missing of some kind than is still to be had.
#[inline]
fn missing_parts(want: Packed, have: Packed, avail: Packed) -> Option<(u32, u32, u16)> {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of every x86-64 target.
    return unsafe { missing_parts_sse2(want, have, avail) };
    #[cfg(not(target_arch = "x86_64"))]
    missing_parts_scalar(want, have, avail)
}

/// [`missing_parts`] in one SSE2 register: a saturating subtraction per byte gives what is
/// missing, and a sum of absolute differences against zero sums the bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn missing_parts_sse2(want: Packed, have: Packed, avail: Packed) -> Option<(u32, u32, u16)> {
    use std::arch::x86_64::*;
    let v = |x: Packed| _mm_set_epi64x((x >> 64) as i64, x as i64);
    let zero = _mm_setzero_si128();
    let want = v(want);
    // Per byte, want - have where want is the larger, else 0.
    let missing = _mm_subs_epu8(want, v(have));
    // Some kind missing more than is still to be had.
    let beyond = _mm_subs_epu8(missing, v(avail));
    if _mm_movemask_epi8(_mm_cmpeq_epi8(beyond, zero)) != 0xFFFF {
        return None;
    }
    let short = !_mm_movemask_epi8(_mm_cmpeq_epi8(missing, zero)) as u16;
    let sum = |x: __m128i| {
        let s = _mm_sad_epu8(x, zero);
        (_mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(s, s))) as u32
    };
    Some((sum(want), sum(missing), short))
}

/// [`missing_parts`] in two words (the other targets' path, and the SSE2 path's reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn missing_parts_scalar(want: Packed, have: Packed, avail: Packed) -> Option<(u32, u32, u16)> {
    // Per byte 128 + want - have: the top bit is set where want >= have, and the low seven
    // bits then hold what is missing.
    let t = (want | HIGH) - have;
    let ge = t & HIGH;
    let missing = t & LOW7 & (ge - (ge >> 7));
    // Missing more of some kind than is still to be had: per byte 128 + avail - missing.
    if ((avail | HIGH) - missing) & HIGH != HIGH {
        return None;
    }
    Some((byte_sum(want), byte_sum(missing), top_bits(missing + LOW7)))
}

/// How far one objective is, and what one more flag of each kind would do for it.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct Progress {
    /// The share of the requirement met (upgrades and coins).
    share: f64,
    /// Which of the eleven counts ([`Packed`]'s order) are short: one more flag of kind `k`
    /// advances count `k`, and the dishes' or hats' total when that is short.
    short: u16,
    /// The requirement's parts (upgrades, and one for the coins when it asks for any).
    frac_need: f64,
    /// Upgrade parts still missing.
    missing: u32,
    /// Whether the seat has the coins.
    paid: bool,
}

impl Progress {
    /// From the requirement's upgrade parts `need`, those `missing`, the short counts, and the
    /// coins asked and held.
    fn new(need: u32, missing: u32, short: u16, coins_asked: u16, coins: u16) -> Progress {
        let met = need - missing;
        let mut frac_need = need as f64;
        let mut frac_met = met as f64;
        if coins_asked > 0 {
            frac_need += 1.0;
            frac_met += (coins as f64 / coins_asked as f64).min(1.0);
        }
        if frac_need == 0.0 {
            return Progress {
                share: 1.0,
                short: 0,
                frac_need,
                missing: 0,
                paid: true,
            };
        }
        Progress {
            share: frac_met / frac_need,
            short,
            frac_need,
            missing,
            paid: coins >= coins_asked,
        }
    }

    /// The flag kinds (bit per [`flag_index`]) one more of which advances the objective.
    fn advanced_by(&self) -> u16 {
        let total = |bit: u16, kinds: u16| if self.short >> bit & 1 == 1 { kinds } else { 0 };
        (self.short & 0x1FF) | total(9, 0x1E) | total(10, 0x1E0)
    }

    /// The flag kinds one more of which advances two of the requirement's parts (its own count
    /// and the dishes' or hats' total); the other kinds of [`Self::advanced_by`] advance one.
    fn two_part_kinds(&self) -> u16 {
        let total = |bit: u16, kinds: u16| if self.short >> bit & 1 == 1 { kinds } else { 0 };
        self.short & (total(9, 0x1E) | total(10, 0x1E0))
    }

    /// How many of the requirement's parts one more flag of kind `k` advances (the definition
    /// [`Self::two_part_kinds`] is held to).
    #[cfg(test)]
    fn parts(&self, k: usize) -> u8 {
        let total = match k {
            1..=4 => self.short >> 9 & 1,
            5..=8 => self.short >> 10 & 1,
            _ => 0,
        };
        ((self.short >> k & 1) + total) as u8
    }
}

/// What the evaluation of every seat shares: the flags still to be had, and the open Town
/// objectives.
#[derive(Clone, Copy)]
struct Shared {
    /// Flags of each kind still to be had ([`available`]), [`packed`].
    avail: Packed,
    /// Kinds still to be had, a bit each.
    to_be_had: u16,
    /// The open Town objectives (the display and the coin stack's top), a bit each.
    town: u64,
    /// Every Player objective, a bit each.
    player: u8,
}

impl Shared {
    fn new(g: &TofuShifu, s: &State) -> Shared {
        let avail = available(g, s);
        let d = &g.data;
        let mut town = s.town_display as u64;
        if let Some(top) = g.coin_stack_top(s) {
            town |= 1 << top;
        }
        Shared {
            avail: packed(&avail),
            to_be_had: (0..9).fold(0u16, |m, k| m | u16::from(avail[k] > 0) << k),
            town: town & ((1u64 << d.town_objectives.len().min(63)) - 1),
            player: ((1u64 << d.player_objectives.len().min(63)) - 1) as u8,
        }
    }

    /// What seat `p` may still complete, in index order (Town objectives first), each as its
    /// packed counts and its coins.
    fn open_to<'a>(
        &self,
        g: &'a TofuShifu,
        p: &PlayerState,
    ) -> impl Iterator<Item = (Packed, u16)> + 'a {
        let player = (self.player & !p.player_done) as u64;
        bits(self.town)
            .map(|i| g.town_requirement_packed(i))
            .chain(bits(player).map(|i| g.player_requirement_packed(i)))
    }
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

/// The seat's objective progress, what one more flag of each kind in `wanted` (bit per
/// [`flag_index`]) would add to it (0 for the other kinds), and the most coins an open
/// objective asks for.
fn objective_progress(
    g: &TofuShifu,
    p: &PlayerState,
    shared: &Shared,
    wanted: u16,
    w: &TofuShifuWeights,
) -> (f64, [f64; 9], u16) {
    let have = packed(&upgrade_counts(g, p));
    let mut total = 0.0;
    let mut gain = [0.0; 9];
    let mut coins = 0;
    // A flag that completes an objective turns its progress into the objective itself.
    let completion = w.objective_completion * (w.objectives - w.objective_progress);
    for (want, asked) in shared.open_to(g, p) {
        coins = coins.max(asked);
        // An objective that can no longer be completed earns nothing.
        let Some(x) = progress(want, asked, have, shared.avail, p.coins) else {
            continue;
        };
        total += x.share;
        // Kinds the objective is not short of add nothing (weights are finite).
        let mut kinds = x.advanced_by() & shared.to_be_had & wanted;
        if kinds == 0 {
            continue;
        }
        // A flag advances one or two parts (its kind's count, and the dishes' or hats' total):
        // the gain of each, found once per objective (`advance` with the same operations).
        let two = x.two_part_kinds();
        let step = [
            w.objective_progress * (1.0 / x.frac_need),
            w.objective_progress * (2.0 / x.frac_need),
        ];
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let parts = 1 + (two >> k & 1) as u32;
            gain[k] += step[parts as usize - 1];
            // `completes`: those parts are all that is missing and the coins are there.
            if x.paid && parts == x.missing {
                gain[k] += completion;
            }
        }
    }
    (w.objective_progress * total, gain, coins)
}

/// Whether the seat can produce every dish `need` asks for (it has a flag of each), or could
/// after upgrades: 1, else 0.5 (a flag is missing).
/// `flagged`: [`dishes_flagged`] of the seat.
fn producible(flagged: u32, need: &[u8; 4]) -> f64 {
    if nonzero_bytes(u32::from_le_bytes(*need)) & !flagged == 0 {
        1.0
    } else {
        0.5
    }
}

/// The dishes the seat has a flag of, the top bit of a byte each (as [`nonzero_bytes`]).
fn dishes_flagged(p: &PlayerState) -> u32 {
    nonzero_bytes(u32::from_le_bytes(p.dish_flags))
}

/// The top bit of each non-zero byte of `x` ([`shifu_engine::bytes::nonzero_bytes`]).
fn nonzero_bytes(x: u32) -> u32 {
    shifu_engine::bytes::nonzero_bytes(u64::from(x)) as u32
}

/// Share of card `c`'s restaurant objective served at table `t`, or `None` when the table can
/// no longer complete it (its customers cannot take the missing dishes and no seat is free).
fn table_progress(g: &TofuShifu, p: &PlayerState, c: usize, t: usize) -> Option<f64> {
    let need = &g.data.cards[c].objective;
    let served = p.table_served(t);
    let per = g.data.customers_per_table as usize;
    let free = p.tables[t][..per].iter().filter(|x| x.is_none()).count();
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
                p.tables[t][k].index().is_some_and(|tile| {
                    g.data.customers[tile].orders & !p.served[t][k] & (1 << d) != 0
                })
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
    if p.objective_zone == 0 {
        // What the loop below gives with no objective set (the weights are finite).
        return 0.0;
    }
    let tables = g.tables_open(p).min(MAX_TABLES);
    let mut base = 0.0;
    // best[mask]: the best progress sum with the tables in `mask` taken.
    let mut best = [f64::NEG_INFINITY; 1 << MAX_TABLES];
    best[0] = 0.0;
    let flagged = dishes_flagged(p);
    for c in cards(p.objective_zone & g.coverable_objectives()) {
        let c = c as usize;
        base += w.restaurant_set * producible(flagged, &g.data.cards[c].objective);
        // In place, the largest masks first: a mask is read before any smaller one adds to it
        // (`max` over these sums, none NaN or -0, is the same in any order).
        for mask in (0..1usize << tables).rev() {
            let done = best[mask];
            if done == f64::NEG_INFINITY {
                continue;
            }
            for t in (0..tables).filter(|t| mask & (1 << t) == 0) {
                if let Some(x) = table_progress(g, p, c, t) {
                    let m = mask | (1 << t);
                    best[m] = best[m].max(done + x);
                }
            }
        }
    }
    // Masks past the open tables were never reached (they hold -inf, which `max` passes over).
    let matched = best[..1 << tables].iter().cloned().fold(0.0, f64::max);
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

/// The flag kinds (a bit per [`flag_index`]) the cards in `held` add as upgrades.
fn held_kinds(g: &TofuShifu, held: CardSet) -> u16 {
    let by_kind = g.cards_by_flag_kind();
    (0..9).fold(0, |m, k| m | u16::from(by_kind[k] & held != 0) << k)
}

/// The flag of kind `k` ([`flag_index`]).
fn flag_of_kind(k: usize) -> Flag {
    match k {
        0 => Flag::Lantern,
        1..=4 => Flag::Dish(Dish::from_index(k - 1)),
        _ => Flag::Hat(Hat::from_index(k - 5)),
    }
}

/// What the held cards are worth: each card at the best of becoming an upgrade, a restaurant
/// objective or a hat payment; only the best `hand_limit` count. Also the coins of the two
/// dearest upgrades among them, which the seat's next purchases need (with the dearest open
/// objective).
fn cards_value(
    g: &TofuShifu,
    p: &PlayerState,
    held: CardSet,
    flag_gain: &[f64; 9],
    w: &TofuShifuWeights,
) -> (f64, u16) {
    // A few cards are held, so a short buffer usually does (a longer one costs its zeroing).
    if held.count_ones() <= 16 {
        best_cards_value(g, p, held, flag_gain, w, &mut [0; 16])
    } else {
        best_cards_value(g, p, held, flag_gain, w, &mut [0; 128])
    }
}

/// `x` as an integer whose order is [`f64::total_cmp`]'s (the same bit operation), so that
/// values sort as integers; [`from_order_key`] gives `x` back, every bit.
fn order_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    b ^ (((b >> 63) as u64) >> 1) as i64
}

/// The value whose [`order_key`] is `k`.
fn from_order_key(k: i64) -> f64 {
    // The sign bit is left as it was, so the same operation undoes it.
    f64::from_bits((k ^ (((k >> 63) as u64) >> 1) as i64) as u64)
}

/// [`cards_value`], with `keys` as long as the cards held at least.
fn best_cards_value(
    g: &TofuShifu,
    p: &PlayerState,
    held: CardSet,
    flag_gain: &[f64; 9],
    w: &TofuShifuWeights,
    keys: &mut [i64],
) -> (f64, u16) {
    let mut n = 0;
    let mut dearest = [0u16; 2];
    let flagged = dishes_flagged(p);
    let coverable = held & g.coverable_objectives();
    // The cards whose objective can be covered, then the others: the keys are sorted below, so
    // their order changes nothing.
    for (set, covers) in [(coverable, true), (held & !coverable, false)] {
        for c in cards(set) {
            let card = &g.data.cards[c as usize];
            let x = g.upgrade_cost_coins(p, c as usize);
            if x > dearest[0] {
                dearest = [x, dearest[0]];
            } else if x > dearest[1] {
                dearest[1] = x;
            }
            let upgrade = w.card_upgrade
                * (flag_gain[flag_index(card.flag)] + engine_value(g, p, card.flag, w)
                    - w.coins * x as f64);
            let objective = if covers {
                w.card_objective * producible(flagged, &card.objective)
            } else {
                0.0
            };
            keys[n] = order_key(upgrade.max(objective).max(w.card_hat));
            n += 1;
        }
    }
    // The best first (as sorting the values by `total_cmp` would), summed in that order.
    let v = &mut keys[..n];
    // Hands are small: an insertion sort, the best first (equal keys are equal values, so the
    // order among them changes no sum).
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] < x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
    let value = v
        .iter()
        .take(g.hand_limit(p) as usize)
        .map(|&k| from_order_key(k))
        .sum();
    (value, dearest[0] + dearest[1])
}

/// One seat's total, before the opponent term.
fn seat_value(g: &TofuShifu, s: &State, seat: usize, shared: &Shared, w: &TofuShifuWeights) -> f64 {
    let p = &s.players[seat];
    let d = &g.data;
    let held = p.hand | p.rest;
    // What one more flag would add is asked only of the held cards' kinds (the cards' values
    // read no other).
    let wanted = held_kinds(g, held);
    let (progress, flag_gain, objective_coins) = objective_progress(g, p, shared, wanted, w);
    let (held_value, upgrade_coins) = cards_value(g, p, held, &flag_gain, w);
    let need = upgrade_coins + objective_coins;
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
            if let Some(tile) = p.tables[t][k].index() {
                let orders = d.customers[tile].orders;
                let open = (orders & !p.served[t][k]).count_ones() as f64;
                v += w.customers * open / orders.count_ones().max(1) as f64;
            }
        }
    }
    v + held_value
}

/// A weight set's bits, every field: the pattern names them all (no `..`), so a field added to
/// [`TofuShifuWeights`] must be added here.
fn weight_bits(w: &TofuShifuWeights) -> [u64; 17] {
    macro_rules! bits {
        ($($field:ident),*) => {{
            let TofuShifuWeights { $($field),* } = *w;
            [$($field),*].map(f64::to_bits)
        }};
    }
    bits!(
        objectives,
        objective_progress,
        objective_completion,
        restaurant_set,
        restaurant_progress,
        coins,
        coins_excess,
        dish_flags,
        hat_flags,
        tables,
        dishes,
        hats,
        customers,
        card_upgrade,
        card_objective,
        card_hat,
        opponent_share
    )
}

/// Slots of the memory of seat values, per thread: sets of two, the latest first (a power of
/// two). Two ways keep two seat states whose slots collide: in the MCTS benchmark's greedy
/// rollouts they miss 8% fewer lookups than one way.
const SEAT_SLOTS: usize = 64;
const _: () = assert!(SEAT_SLOTS.is_power_of_two() && SEAT_SLOTS >= 2);

/// One remembered seat value: [`seat_value`] of `player` with the shared part `avail` and
/// `town`.
#[derive(Clone, Copy)]
struct SeatSlot {
    avail: Packed,
    town: u64,
    player: PlayerState,
    value: f64,
}

/// The seat values found lately, for one game and one weight set: [`seat_value`] is a pure
/// function of the game, the weights, the seat's own state and [`Shared`]'s `avail` and `town`
/// (the rest of `Shared` follows from the game and `avail`).
struct SeatValues {
    game: u64,
    weights: [u64; 17],
    slots: [Option<SeatSlot>; SEAT_SLOTS],
}

thread_local! {
    /// A greedy step evaluates each action's result for every seat, and the other seats are
    /// mostly as they were: their values are looked up here.
    static SEAT_VALUES: std::cell::RefCell<SeatValues> = const {
        std::cell::RefCell::new(SeatValues {
            game: u64::MAX,
            weights: [0; 17],
            slots: [None; SEAT_SLOTS],
        })
    };
}

/// The slot of a seat's state: a few of its words that change often, mixed. (A seat's state
/// with another shared part takes the same slot: the older is of no more use.)
fn seat_slot(p: &PlayerState) -> usize {
    let fold = |x: u128| x as u64 ^ (x >> 64) as u64;
    // The first eight bytes of the tables (every seat at the default sizes).
    let eight = |t: [[u8; SEATS_PER_TABLE]; MAX_TABLES]| {
        let mut b = [0u8; 8];
        for (x, &v) in b.iter_mut().zip(t.as_flattened()) {
            *x = v;
        }
        u64::from_le_bytes(b)
    };
    let words = fold(p.hand)
        ^ fold(p.upgrades).rotate_left(13)
        ^ fold(p.objective_zone | p.rest).rotate_left(29)
        ^ u64::from(p.coins) << 48
        ^ u64::from(u32::from_le_bytes(p.dishes)) << 16
        ^ u64::from(u32::from_le_bytes(p.hats))
        ^ eight(p.served).rotate_left(3)
        ^ eight(p.tables.map(|row| row.map(TileId::to_byte))).rotate_left(53);
    (words.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (u64::BITS - SEAT_SLOTS.trailing_zeros()))
        as usize
}

/// [`seat_value`], remembered per thread.
fn remembered_seat_value(
    g: &TofuShifu,
    s: &State,
    seat: usize,
    shared: &Shared,
    w: &TofuShifuWeights,
) -> f64 {
    let p = &s.players[seat];
    SEAT_VALUES.with(|memo| {
        let mut memo = memo.borrow_mut();
        let weights = weight_bits(w);
        if memo.game != g.instance_id() || memo.weights != weights {
            *memo = SeatValues {
                game: g.instance_id(),
                weights,
                slots: [None; SEAT_SLOTS],
            };
        }
        // Two slots a set, the latest first.
        let set = seat_slot(p) & !1;
        for x in memo.slots[set..set + 2].iter().flatten() {
            if x.avail == shared.avail && x.town == shared.town && x.player == *p {
                return x.value;
            }
        }
        let value = seat_value(g, s, seat, shared, w);
        memo.slots[set + 1] = memo.slots[set];
        memo.slots[set] = Some(SeatSlot {
            avail: shared.avail,
            town: shared.town,
            player: *p,
            value,
        });
        value
    })
}

impl Evaluate for TofuShifu {
    type Weights = TofuShifuWeights;
    type Belief = ();

    fn evaluate(&self, s: &State, seat: Seat, w: &TofuShifuWeights) -> f64 {
        let shared = Shared::new(self, s);
        let me = remembered_seat_value(self, s, seat as usize, &shared, w);
        let best_other = (0..s.num_players as usize)
            .filter(|&q| q != seat as usize)
            .map(|q| remembered_seat_value(self, s, q, &shared, w))
            .fold(f64::NEG_INFINITY, f64::max);
        me - w.opponent_share * best_other
    }

    fn evaluate_all(&self, s: &State, w: &TofuShifuWeights, out: &mut [f64]) {
        let shared = Shared::new(self, s);
        let n = s.num_players as usize;
        let mut own = [0.0; 4];
        for (q, x) in own.iter_mut().enumerate().take(n) {
            // Cut rollouts rarely meet a seat's state twice: no memory here.
            *x = seat_value(self, s, q, &shared, w);
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use shifu_engine::DataFile;

    /// A count of `k` drawn mostly small, sometimes at or past the 127 cap.
    fn count(rng: &mut impl Rng) -> u8 {
        match rng.gen_range(0..20) {
            0 => rng.gen_range(120..=255),
            1..=4 => 0,
            _ => rng.gen_range(0..6),
        }
    }

    /// Count `k` of `kinds` in [`Packed`]'s order, the totals included, not capped.
    fn count_of(kinds: &Kinds, k: usize) -> u16 {
        match k {
            9 => kinds[1..5].iter().map(|&v| v as u16).sum(),
            10 => kinds[5..9].iter().map(|&v| v as u16).sum(),
            _ => kinds[k] as u16,
        }
    }

    /// [`progress`] one count at a time, on counts not capped.
    fn progress_by_count(
        want: &[u8; 11],
        coins_asked: u16,
        have: &Kinds,
        avail: &Kinds,
        coins: u16,
    ) -> Option<Progress> {
        let mut missing_sum = 0;
        let mut short = 0u16;
        for (k, &x) in want.iter().enumerate() {
            let missing = (x as u16).saturating_sub(count_of(have, k));
            if missing > count_of(avail, k) {
                return None;
            }
            missing_sum += missing as u32;
            short |= u16::from(missing > 0) << k;
        }
        let need = want.iter().map(|&x| x as u32).sum();
        Some(Progress::new(need, missing_sum, short, coins_asked, coins))
    }

    /// The packed check of a requirement decides as counting kind by kind does: the same share,
    /// short counts, missing parts and coins, for requirements (each count at most 127, as the
    /// data check ensures) and counts drawn at random, counts past the 127 cap included; and
    /// the two-word path of other targets decides as the SSE2 one.
    #[test]
    fn packed_progress_decides_as_counting_kind_by_kind() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut seen = [0u32; 3];
        for _ in 0..200_000 {
            let have: Kinds = std::array::from_fn(|_| count(&mut rng));
            let avail: Kinds = std::array::from_fn(|_| match rng.gen_range(0..6) {
                0 => 0,
                _ => count(&mut rng).max(1).saturating_mul(2),
            });
            let mut want: [u8; 11] = std::array::from_fn(|_| rng.gen_range(0..6) / 2);
            if rng.gen_range(0..50) == 0 {
                want[rng.gen_range(0..11)] = rng.gen_range(100..=127);
            }
            let (asked, coins) = (rng.gen_range(0..4), rng.gen_range(0..4));
            let fast = progress(pack(&want), asked, packed(&have), packed(&avail), coins);
            let slow = progress_by_count(&want, asked, &have, &avail, coins);
            assert_eq!(fast, slow, "want {want:?}, have {have:?}, avail {avail:?}");
            // The other targets' path decides as this one's.
            let args = (pack(&want), packed(&have), packed(&avail));
            assert_eq!(
                missing_parts_scalar(args.0, args.1, args.2),
                missing_parts(args.0, args.1, args.2)
            );
            if let Some(x) = &fast {
                // The kinds advancing two parts are those `parts` counts two for.
                for k in 0..9 {
                    let two = x.two_part_kinds() >> k & 1 == 1;
                    assert_eq!(two, x.parts(k) == 2, "kind {k}, short {:b}", x.short);
                    assert_eq!(x.advanced_by() >> k & 1 == 1, x.parts(k) > 0);
                }
            }
            seen[match &fast {
                None => 0,
                Some(x) if x.short == 0 => 1,
                Some(_) => 2,
            }] += 1;
        }
        assert!(seen.iter().all(|&n| n > 10_000), "{seen:?}");
    }

    /// The per-thread memory of seat values gives each seat's own value bit for bit, while two
    /// games and two weight sets take turns on one thread and every seat is asked at every step
    /// (another seat's upgrade changes what is still to be had while this seat stays the same).
    #[test]
    fn remembered_seat_values_are_the_seat_values() {
        use shifu_engine::tofu_shifu::{CardData, Params};
        use shifu_engine::{rng_from_seed, Game};
        let games = [
            TofuShifu::new(CardData::embedded(), Params::with_players(4)).unwrap(),
            TofuShifu::new(
                CardData::builtin("reconstructed").unwrap(),
                Params::with_players(3),
            )
            .unwrap(),
        ];
        let weights = [
            TofuShifuWeights::default(),
            TofuShifuWeights {
                card_hat: 0.2,
                objective_progress: 0.7,
                ..TofuShifuWeights::default()
            },
        ];
        let mut remembered = 0u32;
        let mut buf = Vec::new();
        for seed in 0..6u64 {
            let mut rngs = [rng_from_seed(seed), rng_from_seed(seed + 100)];
            let mut states = [0, 1].map(|i| games[i].new_state(&mut rngs[i]));
            let mut pick = rng_from_seed(seed + 200);
            for step in 0..4000 {
                // Blocks of 40 steps: the games take turns, and the weights every other block.
                let i = step / 40 % 2;
                let w = &weights[step / 80 % 2];
                let (g, s) = (&games[i], &mut states[i]);
                if g.to_move(s).is_none() {
                    continue;
                }
                let shared = Shared::new(g, s);
                for seat in 0..s.num_players as usize {
                    let want = seat_value(g, s, seat, &shared, w);
                    let got = remembered_seat_value(g, s, seat, &shared, w);
                    assert_eq!(got.to_bits(), want.to_bits(), "seed {seed} step {step}");
                    remembered += 1;
                }
                g.legal_actions(s, &mut buf);
                let a = buf[pick.gen_range(0..buf.len())];
                g.apply(s, a, &mut rngs[i]);
            }
        }
        assert!(remembered > 40_000, "{remembered}");
    }

    /// `producible` is its definition: a flag of every dish asked for. (The byte test behind it
    /// is `shifu_engine::bytes::nonzero_bytes`, tested there byte by byte.)
    #[test]
    fn dishes_asked_and_flagged_are_the_non_zero_counts() {
        let mut rng = shifu_engine::rng_from_seed(8);
        let mut p = PlayerState::default();
        for _ in 0..20_000 {
            let need: [u8; 4] = std::array::from_fn(|_| rng.gen_range(0..3));
            p.dish_flags = std::array::from_fn(|_| rng.gen_range(0..3));
            let by_definition = if (0..4).all(|d| need[d] == 0 || p.dish_flags[d] > 0) {
                1.0
            } else {
                0.5
            };
            assert_eq!(producible(dishes_flagged(&p), &need), by_definition);
        }
    }

    /// Calls `f` with every state (before each action) of random games at 2 to 4 players,
    /// seeds `0..seeds`.
    fn each_random_state(seeds: u64, mut f: impl FnMut(&TofuShifu, &State)) {
        use shifu_engine::tofu_shifu::Params;
        use shifu_engine::{rng_from_seed, Game};
        let mut buf = Vec::new();
        for players in shifu_engine::tofu_shifu::INFO.players() {
            let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
            for seed in 0..seeds {
                let mut rng = rng_from_seed(seed);
                let mut s = g.new_state(&mut rng);
                while g.to_move(&s).is_some() {
                    f(&g, &s);
                    g.legal_actions(&s, &mut buf);
                    let a = buf[rng.gen_range(0..buf.len())];
                    g.apply(&mut s, a, &mut rng);
                }
            }
        }
    }

    /// Asking only the held cards' flag kinds what one more flag adds changes nothing the
    /// evaluation reads: at every step of random games at 2 to 4 players, for every seat, the
    /// progress, the coins and the gains of the held kinds are those found asking every kind
    /// (to the bit), and some gains of other kinds were left out. The held kinds found from each
    /// kind's cards ([`held_kinds`]) are those of the held cards taken one by one.
    #[test]
    fn flag_gains_asked_of_held_kinds_are_those_of_every_kind() {
        let w = TofuShifuWeights::default();
        let (mut compared, mut left_out) = (0u32, 0u32);
        each_random_state(4, |g, s| {
            let shared = Shared::new(g, s);
            for p in &s.players[..s.num_players as usize] {
                let held = p.hand | p.rest;
                let wanted = cards(held).fold(0u16, |m, c| {
                    m | 1 << flag_index(g.data.cards[c as usize].flag)
                });
                assert_eq!(held_kinds(g, held), wanted);
                let (total, gain, coins) = objective_progress(g, p, &shared, 0x1FF, &w);
                let (t, got, c) = objective_progress(g, p, &shared, wanted, &w);
                assert_eq!((t.to_bits(), c), (total.to_bits(), coins));
                for k in 0..9 {
                    if wanted >> k & 1 == 1 {
                        assert_eq!(got[k].to_bits(), gain[k].to_bits(), "kind {k}");
                        compared += 1;
                    } else {
                        assert_eq!(got[k], 0.0);
                        left_out += u32::from(gain[k] != 0.0);
                    }
                }
            }
        });
        assert!(
            compared > 10_000 && left_out > 10_000,
            "{compared} {left_out}"
        );
    }

    /// The best progress of each restaurant objective card matched to its own open table (or
    /// to none), found by trying every assignment.
    fn best_assignment(g: &TofuShifu, p: &PlayerState, cards: &[usize], taken: u32) -> f64 {
        let Some((&c, rest)) = cards.split_first() else {
            return 0.0;
        };
        // Summed in card order, as the table of masks sums them.
        let mut best = best_assignment(g, p, rest, taken);
        for t in 0..g.tables_open(p).min(MAX_TABLES) {
            if taken & (1 << t) == 0 {
                if let Some(x) = table_progress(g, p, c, t) {
                    let after = best_assignment(g, p, rest, taken | 1 << t);
                    best = best.max(x + after);
                }
            }
        }
        best
    }

    /// [`restaurant_value`] matches the objective cards to tables as trying every assignment
    /// does, to the bit, in the states of random games (several cards and tables among them).
    #[test]
    fn restaurant_value_is_the_best_assignment_of_cards_to_tables() {
        let w = TofuShifuWeights::default();
        let mut several = 0u32;
        each_random_state(6, |g, s| {
            for p in &s.players[..s.num_players as usize] {
                let set: Vec<usize> = cards(p.objective_zone & g.coverable_objectives())
                    .map(usize::from)
                    .collect();
                let base: f64 = set.iter().fold(0.0, |b, &c| {
                    b + w.restaurant_set * producible(dishes_flagged(p), &g.data.cards[c].objective)
                });
                let tried = base + w.restaurant_progress * best_assignment(g, p, &set, 0);
                let got = restaurant_value(g, p, &w);
                assert_eq!(got.to_bits(), tried.to_bits(), "{got} {tried}");
                several += u32::from(set.len() >= 2 && g.tables_open(p) >= 2);
            }
        });
        assert!(several > 1_000, "{several}");
    }

    /// Each part of the memory's key counts: the same seat state asked again with fewer flags
    /// to be had, other open Town objectives, other weights, or another game gets that case's own
    /// value, not the one remembered (each differs from it).
    #[test]
    fn seat_values_are_remembered_per_game_weights_and_shared_part() {
        use shifu_engine::tofu_shifu::{CardData, Params};
        use shifu_engine::{rng_from_seed, Game};
        let g = TofuShifu::new(CardData::embedded(), Params::with_players(4)).unwrap();
        let mut params = Params::with_players(4);
        params.board_flags_count = true;
        let other_game = TofuShifu::new(CardData::embedded(), params).unwrap();
        let w = TofuShifuWeights::default();
        let other_w = TofuShifuWeights {
            objective_progress: 0.7,
            ..TofuShifuWeights::default()
        };
        // A midgame state.
        let mut rng = rng_from_seed(3);
        let mut s = g.new_state(&mut rng);
        let mut buf = Vec::new();
        for _ in 0..600 {
            g.legal_actions(&s, &mut buf);
            let a = buf[rng.gen_range(0..buf.len())];
            g.apply(&mut s, a, &mut rng);
        }
        assert!(g.to_move(&s).is_some());
        let seat = 1;
        let shared = Shared::new(&g, &s);
        let v = remembered_seat_value(&g, &s, seat, &shared, &w);
        assert_eq!(v.to_bits(), seat_value(&g, &s, seat, &shared, &w).to_bits());
        let no_flags = Shared {
            avail: 0,
            to_be_had: 0,
            ..shared
        };
        let no_town = Shared { town: 0, ..shared };
        let other_shared = Shared::new(&other_game, &s);
        let cases = [
            (&g, &no_flags, &w),
            (&g, &no_town, &w),
            (&g, &shared, &other_w),
            (&other_game, &other_shared, &w),
        ];
        for (i, (game, sh, weights)) in cases.into_iter().enumerate() {
            let want = seat_value(game, &s, seat, sh, weights);
            assert_ne!(want.to_bits(), v.to_bits(), "case {i} is not another value");
            let got = remembered_seat_value(game, &s, seat, sh, weights);
            assert_eq!(got.to_bits(), want.to_bits(), "case {i}");
            // And the first case once more, remembered or not.
            let first = remembered_seat_value(&g, &s, seat, &shared, &w);
            assert_eq!(first.to_bits(), v.to_bits(), "case {i}");
        }
    }

    /// Order keys sort as `total_cmp` sorts the values, and give every value back.
    #[test]
    fn order_keys_sort_as_total_cmp_and_give_the_value_back() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut xs = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::MIN_POSITIVE / 2.0,
            -f64::MIN_POSITIVE / 2.0,
            f64::MAX,
            f64::MIN,
        ];
        xs.extend((0..2000).map(|_| f64::from_bits(rng.gen())));
        xs.extend((0..2000).map(|_| rng.gen_range(-10.0..10.0)));
        for &a in &xs {
            assert_eq!(from_order_key(order_key(a)).to_bits(), a.to_bits());
        }
        for pair in xs.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert_eq!(order_key(a).cmp(&order_key(b)), a.total_cmp(&b), "{a} {b}");
        }
    }

    /// A flag of a kind advances the objective's own count of it and the total of its group.
    #[test]
    fn a_flag_advances_its_count_and_its_total() {
        let none = packed(&[0; 9]);
        let many = packed(&[9; 9]);
        // One Lantern, two Tofu dishes, one dish of any kind.
        let want = pack(&[1, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0]);
        let x = progress(want, 0, none, many, 0).unwrap();
        assert_eq!(x.missing, 6);
        assert_eq!(x.advanced_by(), 0b1_1111);
        assert_eq!(
            (x.parts(0), x.parts(1), x.parts(3), x.parts(5)),
            (1, 1, 2, 0)
        );
        assert_eq!(x.two_part_kinds(), 0b1000);
        // Short of a Lantern no card can still supply: nothing to be had.
        let no_lantern = packed(&[0, 9, 9, 9, 9, 9, 9, 9, 9]);
        assert_eq!(progress(want, 0, none, no_lantern, 0), None);
    }
}
