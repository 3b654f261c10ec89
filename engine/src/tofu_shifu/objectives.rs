//! Town, Player and restaurant objectives.
//!
//! "To meet the requirement of a Town/Player Objective, you must complete the matching upgrades
//! shown on the Objective card. Some Objectives require Coins to complete. You must pay the coins
//! as you complete them." Town and Player objectives are completed during your own turn: before
//! and after the Shifu action (the only points in a turn where upgrades or coins can have changed
//! in a way that matters).

use super::*;

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

/// The 11 counts packed by [`pack11`].
pub(crate) fn unpack11(x: u128) -> [u8; 11] {
    let b = x.to_le_bytes();
    [
        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
    ]
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

    /// Met by a player with `coins` and packed upgrade counts `counts`.
    #[inline]
    fn met(&self, coins: u16, counts: u128) -> bool {
        coins >= self.coins && covers(counts, self.packed)
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

impl TofuShifu {
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
    pub(crate) fn legal_claims(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let counts = self.packed_counts(p);
        if self.may_claim_town(s) {
            let mut display = s.town_display;
            while display != 0 {
                let i = display.trailing_zeros() as usize;
                display &= display - 1;
                if self.town_fast[i].met(p.coins, counts) {
                    out.push(Action::ClaimTown(i as u8));
                }
            }
            if let Some(top) = self.coin_stack_top(s) {
                if self.town_fast[top as usize % MAX_TOWN_OBJECTIVES].met(p.coins, counts) {
                    out.push(Action::ClaimTown(top));
                }
            }
        }
        if self.may_claim_player(s) {
            let mut open = self.player_all & !p.player_done;
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                if self.player_fast[i].met(p.coins, counts) {
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
