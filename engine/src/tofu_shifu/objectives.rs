//! Town, Player and restaurant objectives.
//!
//! "To meet the requirement of a Town/Player Objective, you must complete the matching upgrades
//! shown on the Objective card. Some Objectives require Coins to complete. You must pay the coins
//! as you complete them." Town and Player objectives are completed during your own turn: before
//! and after the Shifu action (the only points in a turn where upgrades or coins can have changed
//! in a way that matters).

use super::*;
use std::cell::Cell;

/// The high bit of each of the 11 bytes used by packed counts.
const HIGH: u128 = 0x80_8080_8080_8080_8080_8080;

/// Packs 11 counts (each below 128) one per byte.
fn pack11(b: [u8; 11]) -> u128 {
    let mut x = 0u128;
    for (i, &v) in b.iter().enumerate() {
        x |= (v as u128) << (8 * i);
    }
    x
}

/// A requirement's upgrade counts packed one per byte: lantern, four dish kinds, four hat kinds,
/// dishes in all, hats in all.
pub(crate) fn pack_requirement(r: &Requirement) -> u128 {
    let dish_all = r.dish.iter().sum::<u8>() + r.dish_any;
    let hat_all = r.hat.iter().sum::<u8>() + r.hat_any;
    pack11([
        r.lantern, r.dish[0], r.dish[1], r.dish[2], r.dish[3], r.hat[0], r.hat[1], r.hat[2],
        r.hat[3], dish_all, hat_all,
    ])
}

/// An objective's requirement in the form the move generator checks.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FastRequirement {
    /// Coins to pay.
    pub coins: u16,
    /// Upgrade counts packed by [`pack_requirement`].
    pub packed: u128,
}

impl FastRequirement {
    pub(crate) fn new(r: &Requirement) -> Self {
        FastRequirement {
            coins: r.coins,
            packed: pack_requirement(r),
        }
    }
}

/// Whether each of the four counts packed one per byte in `have` is at least the one in `need`
/// (all below 128).
#[inline]
fn covers4(have: u32, need: u32) -> bool {
    ((have | 0x8080_8080) - need) & 0x8080_8080 == 0x8080_8080
}

/// Whether every packed count in `have` is at least the one in `need` (all bytes below 128).
#[inline]
fn covers(have: u128, need: u128) -> bool {
    ((have | HIGH) - need) & HIGH == HIGH
}

/// One remembered answer of [`TofuShifu::covered`]: the objectives whose upgrades a player with
/// flags `flags` ([`flags_key`]) and lanterns `tag & 0xFF` covers in the game whose id is
/// `tag >> 8`.
#[derive(Clone, Copy)]
struct Covered {
    flags: u64,
    tag: u64,
    objectives: u32,
}

/// A player's dish flags (low four bytes) and hat flags (high four), as loaded: what the
/// memory of covered objectives is keyed by, with the lanterns, so that a lookup packs nothing.
#[inline(always)]
fn flags_key(p: &PlayerState) -> u64 {
    u64::from(u32::from_le_bytes(p.dish_flags)) | u64::from(u32::from_le_bytes(p.hat_flags)) << 32
}

/// Slots of the memory of covered objectives, per thread: sets of two (a power of two).
const COVERED_SLOTS: usize = 64;
const _: () = assert!(COVERED_SLOTS.is_power_of_two() && COVERED_SLOTS >= 2);

#[cfg(test)]
thread_local! {
    /// Lookups of the memory of covered objectives on this thread, and those it missed.
    static LOOKUPS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// The first of the two slots of the memory of covered objectives where a player with flags
/// `flags` ([`flags_key`]) and lanterns `lanterns` may be.
#[inline]
fn covered_set(flags: u64, lanterns: u8) -> usize {
    // The lanterns are spread by a multiply before they are folded in.
    let folded = flags ^ u64::from(lanterns).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    // Fibonacci hashing: the product's top bits pick the set.
    let sets = COVERED_SLOTS / 2;
    2 * (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (u64::BITS - sets.trailing_zeros())) as usize
}

thread_local! {
    /// The covered objectives found lately, in one of the two slots of the set their counts
    /// hash to, the latest first. A player's upgrades change a few times a game, so the same
    /// counts come back turn after turn; two ways keep two players whose counts share a set
    /// (a direct-mapped memory missed a quarter of lookups when they did).
    static COVERED: [Cell<Covered>; COVERED_SLOTS] = const {
        [const {
            Cell::new(Covered {
                flags: 0,
                tag: u64::MAX,
                objectives: 0,
            })
        }; COVERED_SLOTS]
    };
}

impl TofuShifu {
    /// The objectives whose upgrades player `p`'s cover, coins aside: Town objective `i` at bit
    /// `i`, Player objective `j` at bit `16 + j`. Remembered per thread, keyed by the player's
    /// flags, so that a turn usually looks it up instead of checking each open objective.
    #[inline]
    fn covered(&self, p: &PlayerState) -> u32 {
        let flags = flags_key(p);
        let tag = self.id << 8 | u64::from(p.lanterns);
        let set = covered_set(flags, p.lanterns);
        COVERED.with(|memo| {
            let (first, second) = (memo[set].get(), memo[set + 1].get());
            let is = |m: &Covered| m.flags == flags && m.tag == tag;
            #[cfg(test)]
            LOOKUPS.with(|c| {
                let (n, missed) = c.get();
                c.set((n + 1, missed + u64::from(!(is(&first) || is(&second)))));
            });
            if is(&first) {
                return first.objectives;
            }
            if is(&second) {
                return second.objectives;
            }
            self.remember_covered(&memo[set..set + 2], p, tag)
        })
    }

    /// [`Self::covered`] when the memory misses: checks each objective and remembers the answer
    /// in the first of slots `ways`, moving what was there to the second. Kept out of line, so
    /// that a lookup that hits saves no registers for it.
    #[cold]
    #[inline(never)]
    fn remember_covered(&self, ways: &[Cell<Covered>], p: &PlayerState, tag: u64) -> u32 {
        let counts = self.packed_counts(p);
        let mut objectives = 0u32;
        for (i, r) in self.town_fast[..self.town_req.len()].iter().enumerate() {
            objectives |= u32::from(covers(counts, r.packed)) << i;
        }
        for (j, r) in self.player_fast[..self.player_req.len()].iter().enumerate() {
            objectives |= u32::from(covers(counts, r.packed)) << (16 + j);
        }
        ways[1].set(ways[0].get());
        ways[0].set(Covered {
            flags: flags_key(p),
            tag,
            objectives,
        });
        objectives
    }

    /// The player's upgrade counts packed like [`pack_requirement`].
    fn packed_counts(&self, p: &PlayerState) -> u128 {
        let mut dish = u32::from_le_bytes(p.dish_flags);
        let mut hat = u32::from_le_bytes(p.hat_flags);
        if !self.params.board_flags_count {
            // Board flags are a floor under the flag counts: no byte borrows.
            dish -= u32::from_le_bytes(self.data.board_dish_flags);
            hat -= u32::from_le_bytes(self.data.board_hat_flags);
        }
        let sum4 = |x: u32| (x.wrapping_mul(0x0101_0101) >> 24) as u128;
        (p.lanterns as u128)
            | (dish as u128) << 8
            | (hat as u128) << 40
            | sum4(dish) << 72
            | sum4(hat) << 80
    }

    /// Whether a player meets a requirement (upgrades and coins).
    pub fn meets(&self, p: &PlayerState, r: &Requirement) -> bool {
        p.coins >= r.coins && covers(self.packed_counts(p), pack_requirement(r))
    }

    fn may_claim_town(&self, s: &State) -> bool {
        // "Each player can only take at most 1 Town Objective card each turn."
        let one_total = self.params.objective_limit == ObjectiveLimit::OneTotal;
        !(s.turn.town_claimed || one_total && s.turn.objective_claimed)
    }

    fn may_claim_player(&self, s: &State) -> bool {
        !(self.params.objective_limit == ObjectiveLimit::OneTotal && s.turn.objective_claimed)
    }

    /// Appends the objectives the player to move may complete now.
    #[inline(always)]
    pub(crate) fn legal_claims(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let covered = self.covered(p);
        if self.may_claim_town(s) {
            let mut display = s.town_display & covered as u16;
            while display != 0 {
                let i = display.trailing_zeros() as usize;
                display &= display - 1;
                if p.coins >= self.town_fast[i].coins {
                    out.push(Action::ClaimTown(i as u8));
                }
            }
            if let Some(top) = self.coin_stack_top(s) {
                let i = top as usize % MAX_TOWN_OBJECTIVES;
                if covered >> i & 1 == 1 && p.coins >= self.town_fast[i].coins {
                    out.push(Action::ClaimTown(top));
                }
            }
        }
        if self.may_claim_player(s) {
            let mut open = self.player_all & !p.player_done & (covered >> 16) as u8;
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                if p.coins >= self.player_fast[i].coins {
                    out.push(Action::ClaimPlayer(i as u8));
                }
            }
        }
    }

    /// Completes a Town objective: pays its coins, flips it into the player's zone, and grants
    /// its bonus power.
    pub(crate) fn claim_town(&self, s: &mut State, i: u8) {
        let seat = s.current as usize;
        let coins = self.town_req[i as usize].coins;
        self.pay_coins(s, seat, coins);
        if s.town_display & (1 << i) != 0 {
            s.town_display &= !(1 << i);
        } else {
            s.coin_stack_taken += 1;
        }
        s.players[seat].town_done |= 1 << i;
        s.turn.town_claimed = true;
        s.turn.objective_claimed = true;
        if let Some(b) = self.data.town_objectives[i as usize].bonus {
            s.players[seat].bonuses |= b.bit();
            if b == Bonus::OneShot2cMaster {
                // "Immediately gain 2 coins and 1 Master hat token (not tied to a flag)."
                self.gain_coins(s, seat, 2);
                let got = self.gain_hats(s, seat, Hat::Master as usize, 1);
                s.players[seat].loose_master += got;
            }
        }
    }

    /// Completes a Player objective.
    pub(crate) fn claim_player(&self, s: &mut State, i: u8) {
        let seat = s.current as usize;
        let coins = self.player_req[i as usize].coins;
        self.pay_coins(s, seat, coins);
        s.players[seat].player_done |= 1 << i;
        s.turn.objective_claimed = true;
    }

    /// Whether restaurant objective `card` is met by the dishes served at table `t`: "a table
    /// must have each of the Dish tokens shown on the Objective card been served to either
    /// customer."
    pub fn restaurant_objective_met(&self, p: &PlayerState, t: usize, card: usize) -> bool {
        self.restaurant_objective_served(p.table_served_packed(t), card)
    }

    /// [`Self::restaurant_objective_met`] from the table's served dishes packed one per byte
    /// ([`PlayerState::table_served_packed`]), for checking several objectives at one table.
    #[inline]
    pub(crate) fn restaurant_objective_served(&self, served: u32, card: usize) -> bool {
        covers4(served, self.card_costs[card].objective)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{rng_from_seed, Game};
    use rand::Rng;

    /// The memory of covered objectives answers almost every lookup in search-like play: many
    /// short random continuations of one midgame position, where the same few upgrade counts
    /// come back again and again. (Folding the counts' halves with XOR alone put a single dish
    /// flag in the slot of no flag at all, and missed about one lookup in four in the MCTS
    /// benchmark's rollouts.)
    #[test]
    fn the_memory_of_covered_objectives_answers_almost_every_lookup() {
        let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
        let mut buf = Vec::new();
        // Positions 2 and 4 have two players whose counts share a slot of a direct-mapped
        // memory of 64 slots (a quarter of their lookups missed there).
        for seed in 1..=6 {
            let mut rng = rng_from_seed(seed);
            let mut root = g.new_state(&mut rng);
            for _ in 0..400 {
                g.legal_actions(&root, &mut buf);
                let a = buf[rng.gen_range(0..buf.len())];
                g.apply(&mut root, a, &mut rng);
            }
            assert!(g.to_move(&root).is_some());
            let before = LOOKUPS.with(Cell::get);
            for _ in 0..500 {
                let mut s = root.clone();
                for _ in 0..60 {
                    if g.to_move(&s).is_none() {
                        break;
                    }
                    g.legal_actions(&s, &mut buf);
                    let a = buf[rng.gen_range(0..buf.len())];
                    g.apply(&mut s, a, &mut rng);
                }
            }
            let after = LOOKUPS.with(Cell::get);
            let (lookups, misses) = (after.0 - before.0, after.1 - before.1);
            assert!(lookups > 5_000, "{lookups}");
            assert!(
                misses * 50 < lookups,
                "position {seed}: {misses} misses in {lookups} lookups"
            );
        }
    }

    /// The claims listed from the remembered covered objectives: every open objective whose
    /// requirement [`TofuShifu::meets`] checks, in the listing's order.
    fn claims_by_each_requirement(g: &TofuShifu, s: &State) -> Vec<Action> {
        let p = s.me();
        let mut out = Vec::new();
        if g.may_claim_town(s) {
            for i in (0..MAX_TOWN_OBJECTIVES).filter(|&i| s.town_display >> i & 1 == 1) {
                if g.meets(p, &g.town_req[i]) {
                    out.push(Action::ClaimTown(i as u8));
                }
            }
            if let Some(top) = g.coin_stack_top(s) {
                if g.meets(p, &g.town_req[top as usize % MAX_TOWN_OBJECTIVES]) {
                    out.push(Action::ClaimTown(top));
                }
            }
        }
        if g.may_claim_player(s) {
            for i in (0..g.player_req.len()).filter(|&i| p.player_done >> i & 1 == 0) {
                if g.meets(p, &g.player_req[i]) {
                    out.push(Action::ClaimPlayer(i as u8));
                }
            }
        }
        out
    }

    /// Games whose objectives differ take turns on one thread, so that each meets the others'
    /// remembered answers (the first two pack the same counts alike, but one asks one upgrade
    /// less for each Player objective): the claims listed are those each requirement allows.
    #[test]
    fn covered_objectives_remembered_list_the_claims_each_requirement_allows() {
        let with = |f: fn(&mut Params)| {
            let mut p = Params::with_players(4);
            f(&mut p);
            TofuShifu::with_params(p).unwrap()
        };
        let a = with(|_| {});
        let b = with(|p| p.player_objective_upgrade_delta = -1);
        let c = with(|p| p.board_flags_count = true);
        let games = [&a, &b, &c];
        let mut rngs = [1, 2, 3].map(rng_from_seed);
        let mut states = [0, 1, 2].map(|k| games[k].new_state(&mut rngs[k]));
        let (mut buf, mut checked, mut claims) = (Vec::new(), 0, 0);
        for step in 0..600_000 {
            let k = step % 3;
            let (g, s, rng) = (games[k], &mut states[k], &mut rngs[k]);
            if g.to_move(s).is_none() {
                *s = g.new_state(rng);
            }
            if matches!(s.turn.phase, Phase::TurnStart | Phase::TurnEnd) {
                let mut listed = Vec::new();
                g.legal_claims(s, &mut listed);
                assert_eq!(listed, claims_by_each_requirement(g, s), "{s:?}");
                checked += 1;
                claims += listed.len();
            }
            g.legal_actions(s, &mut buf);
            let action = buf[rng.gen_range(0..buf.len())];
            g.apply(s, action, rng);
        }
        assert!(checked > 50_000 && claims > 1_000, "{checked} {claims}");
    }
}
