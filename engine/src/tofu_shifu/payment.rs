//! Hat costs and the reserve: who may pay what, whether a space can be entered, and gains and
//! payments that keep tokens and coins conserved.

use super::*;

impl TofuShifu {
    // ---------------------------------------------------------------- reserve (conservation)

    /// Gives a player up to `n` coins from the reserve (all `n` when the reserve is infinite).
    pub(crate) fn gain_coins(&self, s: &mut State, seat: usize, n: u16) {
        let n = if self.params.finite_reserve {
            (n as i32).min(s.reserve_coins.max(0)) as u16
        } else {
            n
        };
        s.reserve_coins -= n as i32;
        s.players[seat].coins += n;
    }

    /// Pays `n` coins from a player to the reserve.
    pub(crate) fn pay_coins(&self, s: &mut State, seat: usize, n: u16) {
        debug_assert!(s.players[seat].coins >= n);
        s.players[seat].coins -= n;
        s.reserve_coins += n as i32;
    }

    /// Gives a player up to `n` dish tokens of kind `d` from the reserve; returns how many.
    pub(crate) fn gain_dishes(&self, s: &mut State, seat: usize, d: usize, n: u8) -> u8 {
        let n = if self.params.finite_reserve {
            (n as i16).min(s.reserve_dishes[d].max(0)) as u8
        } else {
            n
        };
        s.reserve_dishes[d] -= n as i16;
        s.players[seat].dishes[d] += n;
        n
    }

    /// Gives a player up to `n` hat tokens of kind `h` from the reserve; returns how many.
    pub(crate) fn gain_hats(&self, s: &mut State, seat: usize, h: usize, n: u8) -> u8 {
        let n = if self.params.finite_reserve {
            (n as i16).min(s.reserve_hats[h].max(0)) as u8
        } else {
            n
        };
        s.reserve_hats[h] -= n as i16;
        s.players[seat].hats[h] += n;
        n
    }

    /// Whether the reserve can give at least one dish of kind `d`.
    pub(crate) fn reserve_has_dish(&self, s: &State, d: usize) -> bool {
        !self.params.finite_reserve || s.reserve_dishes[d] > 0
    }

    // ---------------------------------------------------------------- hat payment

    /// The hats a player could pay with, by kind: tokens plus hand cards (except `reserved`).
    /// "To pay one Hat cost, spend a Hat token to the reserve piles, or discard a card to your
    /// Rest zone."
    pub(crate) fn payers(&self, p: &PlayerState, reserved: u8) -> HatCounts {
        let hand = if reserved == NONE {
            p.hand
        } else {
            p.hand & !(1u128 << reserved)
        };
        let mut r = [0u8; 5];
        for (h, x) in r.iter_mut().enumerate() {
            *x = (hand & self.cards_by_hat[h]).count_ones() as u8;
            if h < 4 {
                *x += p.hats[h];
            }
        }
        r
    }

    /// Whether hats `pool` can pay every symbol of `cost`. A transportation problem between
    /// cost kinds and payer kinds; by Hall's theorem it is feasible exactly when every set of
    /// cost kinds asks for no more than the payers able to pay some kind in the set.
    pub(crate) fn can_pay(&self, cost: &HatCounts, pool: &HatCounts) -> bool {
        let mut kinds = 0u8;
        for (h, &c) in cost.iter().enumerate() {
            if c > 0 {
                kinds |= 1 << h;
            }
        }
        let mut sub = kinds;
        while sub != 0 {
            let mut demand = 0u32;
            for (h, &c) in cost.iter().enumerate() {
                if sub & (1 << h) != 0 {
                    demand += c as u32;
                }
            }
            let payers = self.payers_of[sub as usize];
            let mut supply = 0u32;
            for (h, &x) in pool.iter().enumerate() {
                if payers & (1 << h) != 0 {
                    supply += x as u32;
                }
            }
            if demand > supply {
                return false;
            }
            sub = (sub - 1) & kinds;
        }
        true
    }

    /// The hat symbol paid next: costs are paid in a fixed order (most constrained first), so
    /// that the same payment is not listed in every order.
    pub(crate) fn next_symbol(pending: &HatCounts) -> Option<Hat> {
        [Hat::Master, Hat::Chef, Hat::Waiter, Hat::Cashier, Hat::Apprentice]
            .into_iter()
            .find(|&h| pending[h as usize] > 0)
    }

    // ---------------------------------------------------------------- entering a space

    /// Other players' markers on a Town-map space.
    pub(crate) fn others_at(&self, s: &State, seat: usize, space: Space) -> u8 {
        if space == Space::Rest {
            return 0;
        }
        (0..s.num_players as usize)
            .filter(|&q| q != seat && s.players[q].marker == space as u8)
            .count() as u8
    }

    /// The hat cost of moving to `space`: "To move to a board space without another Shifu
    /// marker, pay the lower cost. Otherwise, pay the higher cost."
    pub fn space_cost(&self, s: &State, seat: usize, space: Space) -> HatCounts {
        let def = &self.data.spaces[space as usize];
        if s.players[seat].has(Bonus::AlwaysLowerSignpost) || self.others_at(s, seat, space) == 0 {
            def.lower
        } else {
            def.higher
        }
    }

    /// The coins an upgrade with `card` costs this player.
    pub(crate) fn upgrade_coins(&self, p: &PlayerState, card: usize) -> u16 {
        let c = self.data.cards[card].cost_coins;
        if p.has(Bonus::UpgradeDiscount) {
            c.saturating_sub(1)
        } else {
            c
        }
    }

    /// Whether `card` can be played as an upgrade after paying hat cost `space_cost`.
    pub(crate) fn upgrade_feasible(
        &self,
        p: &PlayerState,
        card: usize,
        space_cost: &HatCounts,
    ) -> bool {
        let c = &self.data.cards[card];
        if p.coins < self.upgrade_coins(p, card) {
            return false;
        }
        if (0..4).any(|d| p.dishes[d] < c.cost_dishes[d]) {
            return false;
        }
        let mut cost = *space_cost;
        for (x, &h) in cost.iter_mut().zip(c.cost_hats.iter()) {
            *x += h;
        }
        self.can_pay(&cost, &self.payers(p, card as u8))
    }

    /// Unlocked tables with a free seat.
    pub(crate) fn has_free_seat(&self, p: &PlayerState) -> bool {
        let per = self.data.customers_per_table as usize;
        (0..self.tables_open(p)).any(|t| p.tables[t][..per].contains(&NONE))
    }

    /// Whether the action of `space` can be taken after paying `cost` ("you must move to a
    /// different board space that you can afford and whose action you can take").
    pub(crate) fn takeable(&self, s: &State, seat: usize, space: Space, cost: &HatCounts) -> bool {
        let p = &s.players[seat];
        let effective = self.params.require_effective_action;
        match space {
            Space::Rest => true,
            Space::Upgrade => {
                crate::tofu_shifu::types::cards(p.hand).any(|c| self.upgrade_feasible(p, c as usize, cost))
            }
            Space::SetObjective => {
                crate::tofu_shifu::types::cards(p.hand).any(|c| self.can_pay(cost, &self.payers(p, c)))
            }
            Space::Copy => false, // handled by `copy_targets`
            _ => {
                if !self.can_pay(cost, &self.payers(p, NONE)) {
                    return false;
                }
                match space {
                    Space::Hire => s.market[..self.market_slots].iter().any(|&c| c != NONE),
                    _ if !effective => true,
                    Space::Produce => {
                        p.has(Bonus::ProduceIncome)
                            || (0..4).any(|d| {
                                p.dishes[d] < p.dish_flags[d] && self.reserve_has_dish(s, d)
                            })
                    }
                    Space::Seat => s.bag != 0 && self.has_free_seat(p),
                    Space::Serve => p.dishes.iter().any(|&x| x > 0),
                    Space::Checkout => (0..MAX_TABLES).any(|t| p.table_customers(t) > 0),
                    _ => true,
                }
            }
        }
    }

    /// Whether `space` can be copied: "Copy the board space action occupied by another player's
    /// Shifu marker."
    pub(crate) fn copy_target_ok(&self, s: &State, seat: usize, target: Space) -> bool {
        if target == Space::Copy || (target == Space::Rest && !self.params.copy_can_target_rest) {
            return false;
        }
        let occupied = (0..s.num_players as usize)
            .any(|q| q != seat && s.players[q].marker == target as u8);
        if !occupied {
            return false;
        }
        let cost = self.space_cost(s, seat, Space::Copy);
        self.takeable(s, seat, target, &cost)
    }

    /// Whether the player may move its marker to `space` now.
    pub fn can_enter(&self, s: &State, seat: usize, space: Space) -> bool {
        let p = &s.players[seat];
        if p.marker == space as u8 {
            return false; // "You must move to a different board space"
        }
        if space != Space::Rest
            && self.others_at(s, seat, space) >= self.data.spaces[space as usize].capacity
        {
            return false; // "Each board space can hold a maximum of 2 Shifu markers" (Copy: 1)
        }
        if space == Space::Copy {
            return Space::ALL.iter().any(|&t| self.copy_target_ok(s, seat, t));
        }
        let cost = self.space_cost(s, seat, space);
        self.takeable(s, seat, space, &cost)
    }
}
