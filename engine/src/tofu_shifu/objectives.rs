//! Town, Player and restaurant objectives.
//!
//! "To meet the requirement of a Town/Player Objective, you must complete the matching upgrades
//! shown on the Objective card. Some Objectives require Coins to complete. You must pay the coins
//! as you complete them." Town and Player objectives are completed during your own turn: before
//! and after the Shifu action (the only points in a turn where upgrades or coins can have changed
//! in a way that matters).

use super::*;

impl TofuShifu {
    /// Upgrade counts a player has for objectives: (lanterns, dish upgrades, hat upgrades).
    /// The board's printed flags count only with `board_flags_count`.
    pub(crate) fn upgrade_counts(&self, p: &PlayerState) -> (u8, DishCounts, [u8; 4]) {
        let mut dish = p.dish_flags;
        let mut hat = p.hat_flags;
        if !self.params.board_flags_count {
            for d in 0..4 {
                dish[d] -= self.data.board_dish_flags[d];
                hat[d] -= self.data.board_hat_flags[d];
            }
        }
        (p.lanterns, dish, hat)
    }

    /// Whether a player meets a requirement (upgrades and coins).
    pub fn meets(&self, p: &PlayerState, r: &Requirement) -> bool {
        if p.coins < r.coins {
            return false;
        }
        let (lantern, dish, hat) = self.upgrade_counts(p);
        if lantern < r.lantern {
            return false;
        }
        let mut dish_total = 0u32;
        let mut dish_needed = r.dish_any as u32;
        for d in 0..4 {
            if dish[d] < r.dish[d] {
                return false;
            }
            dish_total += dish[d] as u32;
            dish_needed += r.dish[d] as u32;
        }
        let mut hat_total = 0u32;
        let mut hat_needed = r.hat_any as u32;
        for h in 0..4 {
            if hat[h] < r.hat[h] {
                return false;
            }
            hat_total += hat[h] as u32;
            hat_needed += r.hat[h] as u32;
        }
        dish_total >= dish_needed && hat_total >= hat_needed
    }

    fn may_claim_town(&self, s: &State) -> bool {
        // "Each player can only take at most 1 Town Objective card each turn."
        !s.turn.town_claimed
            && !(self.params.objective_limit == ObjectiveLimit::OneTotal && s.turn.objective_claimed)
    }

    fn may_claim_player(&self, s: &State) -> bool {
        !(self.params.objective_limit == ObjectiveLimit::OneTotal && s.turn.objective_claimed)
    }

    /// Appends the objectives the player to move may complete now.
    pub(crate) fn legal_claims(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        if self.may_claim_town(s) {
            let mut display = s.town_display;
            while display != 0 {
                let i = display.trailing_zeros() as usize;
                display &= display - 1;
                if self.meets(p, &self.town_req[i]) {
                    out.push(Action::ClaimTown(i as u8));
                }
            }
            if let Some(top) = self.coin_stack_top(s) {
                if self.meets(p, &self.town_req[top as usize]) {
                    out.push(Action::ClaimTown(top));
                }
            }
        }
        if self.may_claim_player(s) {
            for i in 0..self.player_req.len() {
                if p.player_done & (1 << i) == 0 && self.meets(p, &self.player_req[i]) {
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
        let served = p.table_served(t);
        let need = &self.data.cards[card].objective;
        (0..4).all(|d| served[d] >= need[d])
    }
}
