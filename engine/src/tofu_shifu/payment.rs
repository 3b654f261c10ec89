//! Hat costs and the reserve: who may pay what, whether a space can be entered, and gains and
//! payments that keep tokens and coins conserved.

use super::*;

/// Hat counts packed one per byte, by [`Hat`], in the low five bytes of a word: what the payment
/// checks work on (a cost or a pool of payers; counts stay far below 128).
pub(crate) type PackedHats = u64;

/// Packs five counts into the low five bytes of a word.
#[inline]
pub(crate) fn pack(x: &HatCounts) -> PackedHats {
    u64::from_le_bytes([x[0], x[1], x[2], x[3], x[4], 0, 0, 0])
}

/// One hat of kind `h`, packed.
#[inline]
pub(crate) fn one(h: usize) -> PackedHats {
    1 << (8 * h)
}

/// Sums the low five bytes of a word.
#[inline]
fn byte_sum(x: u64) -> u64 {
    (x.wrapping_mul(0x01_0101_0101) >> 32) & 0xFF
}

/// For a set of kinds (bit per [`Hat`]), the mask of their bytes in a packed word.
const BYTE_MASK: [u64; 32] = {
    let mut m = [0u64; 32];
    let mut set = 0;
    while set < 32 {
        let mut k = 0;
        while k < 5 {
            if set & (1 << k) != 0 {
                m[set] |= 0xFF << (8 * k);
            }
            k += 1;
        }
        set += 1;
    }
    m
};

/// Most Hall conditions a [`HallCost`] keeps; a cost with more is checked by
/// [`TofuShifu::can_pay`].
const HALL_MAX: usize = 4;

/// A hat cost known when the game is built (a space's signpost cost), with the Hall conditions
/// that decide whether a pool pays it, found once: for each set of the cost's kinds, the kinds
/// able to pay some kind in it must number at least the set's demand. A condition implied by
/// another (fewer or the same payers, no more demand) is dropped, so the default data's costs
/// keep one or two.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HallCost {
    /// The cost, packed.
    pub(crate) packed: PackedHats,
    /// Conditions kept, or `u8::MAX` when more than [`HALL_MAX`] are needed.
    n: u8,
    /// Each condition's payer kinds, as a byte mask of a packed pool.
    payers: [u64; HALL_MAX],
    /// Each condition's demand.
    demand: [u64; HALL_MAX],
}

impl HallCost {
    /// Cost `c` (packed) with no conditions found: [`TofuShifu::can_pay`] decides. For costs met
    /// during play, where finding the conditions would cost more than it saves.
    pub(crate) fn generic(c: PackedHats) -> HallCost {
        HallCost {
            packed: c,
            n: u8::MAX,
            ..HallCost::default()
        }
    }

    /// The conditions of cost `c` (packed), with `payers_of` as in [`TofuShifu`].
    pub(crate) fn new(c: PackedHats, payers_of: &[u8; 32]) -> HallCost {
        let kinds = (0..5)
            .filter(|&k| (c >> (8 * k)) & 0xFF != 0)
            .fold(0u8, |m, k| m | 1 << k);
        let mut all: Vec<(u8, u64)> = (1..32u8)
            .filter(|&sub| sub & !kinds == 0)
            .map(|sub| {
                (
                    payers_of[sub as usize],
                    byte_sum(c & BYTE_MASK[sub as usize]),
                )
            })
            .collect();
        all.sort_unstable();
        all.dedup();
        // Condition (p, d) is implied by (q, e) when q's payers are among p's and e >= d.
        let implied = |&(p, d): &(u8, u64)| {
            all.iter()
                .any(|&(q, e)| (q, e) != (p, d) && q & !p == 0 && e >= d)
        };
        let kept: Vec<(u8, u64)> = all.iter().filter(|x| !implied(x)).copied().collect();
        let mut h = HallCost {
            packed: c,
            ..HallCost::default()
        };
        if kept.len() > HALL_MAX {
            h.n = u8::MAX;
            return h;
        }
        h.n = kept.len() as u8;
        for (i, &(p, d)) in kept.iter().enumerate() {
            h.payers[i] = BYTE_MASK[p as usize];
            h.demand[i] = d;
        }
        h
    }
}

/// What every space's check at the start of a turn shares.
struct Open<'a> {
    s: &'a State,
    seat: usize,
    /// Spaces with another player's marker, a bit each.
    occupied: u16,
    /// The player's payers, packed.
    pool: PackedHats,
    /// Spaces whose higher signpost cost the player pays.
    higher: u16,
    /// Spaces the player may enter and whose cost the pool pays, their action aside.
    enterable: u16,
}

/// The most hats a signpost cost may ask for in all for [`SignpostPays`] to hold its answers:
/// a pool's count of each kind is capped at this many, which changes no answer when every cost
/// asks for no more (each Hall condition's demand is at most the cost's total, and a capped
/// count that reaches the cap alone meets it).
const SIGNPOST_CAP: u64 = 3;

/// The index of pool `r` (packed) in [`SignpostPays`]: each kind's count capped at
/// [`SIGNPOST_CAP`], two bits a kind.
#[inline(always)]
fn capped_index(r: PackedHats) -> usize {
    (0..5).fold(0, |i, k| {
        i | (((r >> (8 * k)) & 0xFF).min(SIGNPOST_CAP) as usize) << (2 * k)
    })
}

/// Which signpost costs a pool of payers pays, found once when the game is built: for each pool
/// with its counts capped ([`capped_index`]), a bit per space for its lower cost and one for its
/// higher cost. Empty when some signpost cost asks for more than [`SIGNPOST_CAP`] hats; the
/// answers are then found by [`TofuShifu::pays`] each time.
#[derive(Debug, Clone, Default)]
pub(crate) struct SignpostPays(Box<[[u16; 2]]>);

impl SignpostPays {
    /// The table for signpost costs `costs` (each space's lower, then higher).
    pub(crate) fn new(g: &TofuShifu) -> SignpostPays {
        let costs = &g.space_costs;
        let most = costs.iter().flatten().map(|h| byte_sum(h.packed)).max();
        if most.unwrap_or(0) > SIGNPOST_CAP {
            return SignpostPays::default();
        }
        let table = (0..1usize << 10)
            .map(|i| {
                let pool = (0..5).fold(0, |r, k| r | (((i >> (2 * k)) & 3) as u64) << (8 * k));
                g.signpost_payable_by_costs(pool)
            })
            .collect();
        SignpostPays(table)
    }
}

/// A player's tables as one word, table by table, seat by seat.
#[inline(always)]
fn tables_bytes(t: &[[TileId; SEATS_PER_TABLE]; MAX_TABLES]) -> [u8; 8] {
    const _: () = assert!(SEATS_PER_TABLE * MAX_TABLES == 8);
    std::array::from_fn(|i| t[i / SEATS_PER_TABLE][i % SEATS_PER_TABLE].to_byte())
}

impl TofuShifu {
    /// For each space, whether pool `pool` (packed) pays its lower (bit in the first mask) and
    /// its higher signpost cost (the second).
    #[inline]
    pub(crate) fn signpost_payable(&self, pool: PackedHats) -> [u16; 2] {
        match self.signpost_pays.0.get(capped_index(pool)) {
            Some(&masks) => masks,
            None => self.signpost_payable_by_costs(pool),
        }
    }

    /// [`Self::signpost_payable`] found cost by cost.
    fn signpost_payable_by_costs(&self, pool: PackedHats) -> [u16; 2] {
        let mut masks = [0u16; 2];
        for (i, pair) in self.space_costs.iter().enumerate() {
            for (mask, cost) in masks.iter_mut().zip(pair) {
                *mask |= (self.pays(cost, pool) as u16) << i;
            }
        }
        masks
    }

    /// Whether pool `r` (packed) pays hat cost `h`: [`Self::can_pay`] from the conditions kept.
    #[inline(always)]
    pub(crate) fn pays(&self, h: &HallCost, r: PackedHats) -> bool {
        if h.n as usize > HALL_MAX {
            return self.can_pay(h.packed, r);
        }
        (0..h.n as usize).all(|i| byte_sum(r & h.payers[i]) >= h.demand[i])
    }
}

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
        if s.reserve_coins <= 0 && s.coins_out_round == 0 {
            s.coins_out_round = s.round;
        }
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

    /// The hats a player could pay with, by kind, packed: tokens plus hand cards (except
    /// `reserved`). "To pay one Hat cost, spend a Hat token to the reserve piles, or discard a
    /// card to your Rest zone." (The state's invariants bound tokens by flags, so no count
    /// reaches a byte's limit.)
    #[inline]
    pub(crate) fn payers(&self, p: &PlayerState, reserved: CardId) -> PackedHats {
        let hand = match reserved.get() {
            None => p.hand,
            Some(r) => p.hand & !(1u128 << r),
        };
        // A hand holds a few cards (about two at the start of a turn in random play): adding
        // each card's hat costs less than counting the hand's cards of each of five kinds.
        cards(hand).fold(u32::from_le_bytes(p.hats) as PackedHats, |r, c| {
            r + self.card_hat[c as usize % 128]
        })
    }

    /// Whether hats `r` (a pool) can pay every symbol of cost `c`, both packed. A transportation
    /// problem between cost kinds and payer kinds; by Hall's theorem it is feasible exactly when
    /// every set of cost kinds asks for no more than the payers able to pay some kind in the set.
    #[inline]
    pub(crate) fn can_pay(&self, c: PackedHats, r: PackedHats) -> bool {
        // A byte mask selects kinds and one multiply adds the selected bytes (counts are small,
        // so no byte overflows).
        if c == 0 {
            return true;
        }
        // One bit per kind with a non-zero cost: the high bit of each byte of `c + 0x7F..` is set
        // exactly when the byte is non-zero (bytes are below 128), and one multiply gathers the
        // five high bits into bits 32..37.
        let nonzero = (c + 0x7F_7F7F_7F7F) & 0x80_8080_8080;
        let kinds = ((nonzero >> 7).wrapping_mul(0x1_0204_0810) >> 32) as u8 & 0x1F;
        let mut sub = kinds;
        while sub != 0 {
            let demand = byte_sum(c & BYTE_MASK[sub as usize]);
            let supply = byte_sum(r & BYTE_MASK[self.payers_of[sub as usize] as usize]);
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
        [
            Hat::Master,
            Hat::Chef,
            Hat::Waiter,
            Hat::Cashier,
            Hat::Apprentice,
        ]
        .into_iter()
        .find(|&h| pending[h as usize] > 0)
    }

    // ---------------------------------------------------------------- entering a space

    /// Other players' markers on the Town map, a bit per space: the spaces with at least one
    /// (occupied), and those with as many as the space holds (full). Rest counts none.
    #[inline]
    pub(crate) fn markers(&self, s: &State, seat: usize) -> (u16, u16) {
        // `more[k]`: the spaces with more than `k` other markers.
        let mut more = [0u16; MAX_PLAYERS - 1];
        for (q, other) in s.players[..s.num_players as usize].iter().enumerate() {
            debug_assert!((other.marker as usize) < Space::ALL.len());
            let at = if q == seat {
                0
            } else {
                1u16 << (other.marker & 15)
            };
            for k in (1..more.len()).rev() {
                more[k] |= more[k - 1] & at;
            }
            more[0] |= at;
        }
        let town = !(1u16 << Space::Rest as u16);
        let full = (0..more.len()).fold(0, |f, k| f | more[k] & self.holds_at_most[k]);
        (more[0] & town, full & town)
    }

    /// The hat cost of moving to `space` now: "To move to a board space without another Shifu
    /// marker, pay the lower cost. Otherwise, pay the higher cost."
    pub fn space_cost(&self, s: &State, seat: usize, space: Space) -> HatCounts {
        let (occupied, _) = self.markers(s, seat);
        let def = &self.data.spaces[space as usize];
        if occupied >> space as usize & 1 == 0 || s.players[seat].has(Bonus::AlwaysLowerSignpost) {
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

    /// Whether `card` can be played as an upgrade after paying hat cost `space_cost`, with
    /// `pool` the player's payers including the card itself.
    pub(crate) fn upgrade_feasible_with(
        &self,
        p: &PlayerState,
        card: usize,
        space_cost: PackedHats,
        pool: PackedHats,
    ) -> bool {
        let c = &self.card_costs[card];
        let coins = if p.has(Bonus::UpgradeDiscount) {
            c.coins.saturating_sub(1)
        } else {
            c.coins
        };
        // Every dish count at least the cost's: one subtraction over four packed bytes.
        let have = u32::from_le_bytes(p.dishes) | 0x8080_8080;
        if p.coins < coins || (have - c.dishes) & 0x8080_8080 != 0x8080_8080 {
            return false;
        }
        self.can_pay(space_cost + c.hats, pool - one(c.hat_type as usize))
    }

    /// The cards whose upgrade coins the player has (after the upgrade discount power), looked
    /// up, or every card once the coins pass the table: a card left out certainly fails
    /// [`Self::upgrade_feasible_with`].
    pub(crate) fn coins_cover(&self, p: &PlayerState) -> CardSet {
        let coins = usize::from(p.coins) + usize::from(p.has(Bonus::UpgradeDiscount));
        self.coins_at_most
            .get(coins)
            .copied()
            .unwrap_or(CardSet::MAX)
    }

    /// Whether some card in hand can be played as an upgrade after paying `space_cost`. Cards
    /// with the same costs and hat type are tried once.
    fn any_upgrade_feasible(
        &self,
        p: &PlayerState,
        space_cost: PackedHats,
        pool: PackedHats,
    ) -> bool {
        let mut left = p.hand & self.coins_cover(p);
        while left != 0 {
            let c = left.trailing_zeros() as usize;
            if self.upgrade_feasible_with(p, c, space_cost, pool) {
                return true;
            }
            left &= !self.same_costs[c];
        }
        false
    }

    /// Unlocked tables with a free seat.
    pub(crate) fn has_free_seat(&self, p: &PlayerState) -> bool {
        // The seats in play, a byte each, 0xFF where open and 0 elsewhere: the empty ones are
        // none (all ones), so an open seat is empty when its byte of `!tables` is zero.
        let open = self.open_seats[self.tables_open(p)];
        let taken = !u64::from_le_bytes(tables_bytes(&p.tables)) | !open;
        (taken.wrapping_sub(0x0101_0101_0101_0101) & !taken & 0x8080_8080_8080_8080) != 0
    }

    /// Whether the action of `space` can be taken after paying `cost`, known to be payable from
    /// `pool` ("you must move to a different board space that you can afford and whose action
    /// you can take"; Upgrade and Set Objective check the cost again with the card).
    #[inline(always)]
    fn takeable_paid(
        &self,
        s: &State,
        seat: usize,
        space: Space,
        cost: &HallCost,
        pool: PackedHats,
    ) -> bool {
        let p = &s.players[seat];
        match space {
            Space::Rest => true,
            Space::Upgrade => self.any_upgrade_feasible(p, cost.packed, pool),
            Space::SetObjective => self.objective_settable(p, cost, pool),
            Space::Copy => false, // handled by `any_copy_target`
            _ => self.effective(s, p, space),
        }
    }

    /// Whether some card can be set as an objective after paying `cost`: some card must stay in
    /// hand to be set, so try leaving out one card of each hat type.
    fn objective_settable(&self, p: &PlayerState, cost: &HallCost, pool: PackedHats) -> bool {
        (0..5).any(|h| p.hand & self.cards_by_hat[h] != 0 && self.pays(cost, pool - one(h)))
    }

    /// Whether the action of a space whose payment is plain (every space but Rest, Upgrade, Set
    /// Objective and Copy) does something now, its hat cost aside.
    #[inline(always)]
    fn effective(&self, s: &State, p: &PlayerState, space: Space) -> bool {
        match space {
            Space::Hire => s.market[..self.market_slots].iter().any(|c| c.is_some()),
            _ if !self.params.require_effective_action => true,
            Space::Produce => {
                p.has(Bonus::ProduceIncome)
                    || (0..4).any(|d| p.dishes[d] < p.dish_flags[d] && self.reserve_has_dish(s, d))
            }
            Space::Seat => s.bag != 0 && self.has_free_seat(p),
            Space::Serve => u32::from_le_bytes(p.dishes) != 0,
            Space::Checkout => p.tables != [[TileId::NONE; SEATS_PER_TABLE]; MAX_TABLES],
            _ => true,
        }
    }

    /// Whether `target`'s action can be copied after paying `copy_cost`: "Copy the board space
    /// action occupied by another player's Shifu marker."
    pub(crate) fn copy_target_with(
        &self,
        s: &State,
        seat: usize,
        target: Space,
        occupied: u16,
        copy_cost: &HallCost,
        pool: PackedHats,
    ) -> bool {
        self.copy_occupied(s, seat, target, occupied)
            // Upgrade's and Set Objective's checks include the cost; Rest, free when entered,
            // still needs the Copy signpost's cost paid.
            && (matches!(target, Space::Upgrade | Space::SetObjective)
                || self.pays(copy_cost, pool))
            && self.takeable_paid(s, seat, target, copy_cost, pool)
    }

    /// Whether another player's marker occupies `target` for a copy (never Copy itself).
    #[inline(always)]
    fn copy_occupied(&self, s: &State, seat: usize, target: Space, occupied: u16) -> bool {
        match target {
            Space::Copy => false,
            // Rest is on each player board: occupied when another player's marker is on theirs.
            Space::Rest => {
                self.params.copy_can_target_rest
                    && (0..s.num_players as usize)
                        .any(|q| q != seat && s.players[q].marker == Space::Rest as u8)
            }
            _ => occupied >> target as usize & 1 == 1,
        }
    }

    /// Whether some target can be copied after paying `copy_cost`, known to be payable from
    /// `pool`.
    fn any_copy_target(
        &self,
        s: &State,
        seat: usize,
        occupied: u16,
        copy_cost: &HallCost,
        pool: PackedHats,
    ) -> bool {
        // The targets are the occupied spaces, and Rest where another player rests.
        let rest = self.copy_occupied(s, seat, Space::Rest, occupied);
        let mut targets =
            occupied & !(1 << Space::Copy as u16) | u16::from(rest) << Space::Rest as u16;
        while targets != 0 {
            let t = Space::ALL[targets.trailing_zeros() as usize];
            targets &= targets - 1;
            if self.takeable_paid(s, seat, t, copy_cost, pool) {
                return true;
            }
        }
        false
    }

    /// Writes `Move(space)` for every space the player may move its marker to now. Each space
    /// is checked by its own copy of [`Self::move_if_open`], so that its cost, capacity and
    /// action check are known when compiled (no loop, no jump on the space).
    pub(crate) fn legal_moves(&self, s: &State, seat: usize, out: &mut Vec<Action>) {
        let p = &s.players[seat];
        let (occupied, full) = self.markers(s, seat);
        let pool = self.payers(p, CardId::NONE);
        // "To move to a board space without another Shifu marker, pay the lower cost.
        // Otherwise, pay the higher cost."
        let higher = if p.has(Bonus::AlwaysLowerSignpost) {
            0
        } else {
            occupied
        };
        let [lower_paid, higher_paid] = self.signpost_payable(pool);
        // "You must move to a different board space"; "Each board space can hold a maximum
        // of 2 Shifu markers" (Copy: 1; Rest, on each player's board, has no limit). And every
        // space's action needs its cost paid first.
        let enterable =
            !full & !(1u16 << (p.marker & 15)) & (lower_paid & !higher | higher_paid & higher);
        if enterable == 0 {
            return;
        }
        let open = Open {
            s,
            seat,
            occupied,
            pool,
            higher,
            enterable,
        };
        // Every space of `Space::ALL`, in its order (the pattern fails to compile if a space is
        // added), each a constant once inlined: written out, as a loop is not unrolled.
        let [a, b, c, d, e, f, g, h, i] = Space::ALL;
        self.move_if_open(&open, a, out);
        self.move_if_open(&open, b, out);
        self.move_if_open(&open, c, out);
        self.move_if_open(&open, d, out);
        self.move_if_open(&open, e, out);
        self.move_if_open(&open, f, out);
        self.move_if_open(&open, g, out);
        self.move_if_open(&open, h, out);
        self.move_if_open(&open, i, out);
    }

    /// Writes `Move(space)` when the player may move its marker there now.
    #[inline(always)]
    fn move_if_open(&self, o: &Open<'_>, space: Space, out: &mut Vec<Action>) {
        let i = space as usize;
        if o.enterable >> i & 1 == 0 {
            return;
        }
        let cost = &self.space_costs[i][(o.higher >> i & 1) as usize];
        let ok = if space == Space::Copy {
            self.any_copy_target(o.s, o.seat, o.occupied, cost, o.pool)
        } else {
            self.takeable_paid(o.s, o.seat, space, cost, o.pool)
        };
        if ok {
            out.push(Action::Move(space));
        }
    }

    /// Whether the player may move its marker to `space` now.
    pub fn can_enter(&self, s: &State, seat: usize, space: Space) -> bool {
        let mut v = Vec::with_capacity(9);
        self.legal_moves(s, seat, &mut v);
        v.contains(&Action::Move(space))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng_from_seed;

    fn packed(i: usize) -> PackedHats {
        pack(&std::array::from_fn(|k| ((i >> (2 * k)) & 3) as u8))
    }

    /// A cost's kept Hall conditions decide as the full check does, for every cost and pool with
    /// up to three hats of each kind.
    #[test]
    fn hall_conditions_kept_decide_as_every_condition_does() {
        let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
        let mut answers = [0u32; 2];
        for ci in 0..1024 {
            let c = packed(ci);
            let h = HallCost::new(c, &g.payers_of);
            for ri in 0..1024 {
                let r = packed(ri);
                let want = g.can_pay(c, r);
                assert_eq!(g.pays(&h, r), want, "cost {c:x}, pool {r:x}");
                assert_eq!(g.pays(&HallCost::generic(c), r), want);
                answers[want as usize] += 1;
            }
        }
        assert!(answers[0] > 100_000 && answers[1] > 100_000, "{answers:?}");
        // The default data's signpost costs keep one or two conditions, none left to `can_pay`.
        for costs in &g.space_costs {
            for h in costs {
                assert!(h.n as usize <= 2, "{h:?}");
            }
        }
    }

    /// Every pool with up to five hats of each kind: the signpost costs looked up in
    /// [`SignpostPays`] are those [`TofuShifu::pays`] pays, and a signpost cost of more than
    /// three hats leaves the table empty and the answers to `pays`.
    #[test]
    fn signpost_costs_looked_up_are_those_paid() {
        let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
        assert_eq!(g.signpost_pays.0.len(), 1024);
        let mut big = CardData::builtin("calibrated").unwrap();
        big.spaces[Space::Serve as usize].higher = [0, 0, 2, 0, 2];
        let big = TofuShifu::new(big, Params::with_players(4)).unwrap();
        assert!(big.signpost_pays.0.is_empty());
        for g in [&g, &big] {
            let mut answers = [0u32; 2];
            for i in 0..6usize.pow(5) {
                let pool = (0..5).fold(0, |r, k| r | ((i / 6usize.pow(k) % 6) as u64) << (8 * k));
                let masks = g.signpost_payable(pool);
                for (space, costs) in g.space_costs.iter().enumerate() {
                    for (mask, cost) in masks.iter().zip(costs) {
                        let paid = g.pays(cost, pool);
                        assert_eq!(mask >> space & 1 == 1, paid, "space {space}, pool {pool:x}");
                        answers[paid as usize] += 1;
                    }
                }
            }
            assert!(answers[0] > 1_000 && answers[1] > 1_000, "{answers:?}");
        }
    }

    /// At every step of random games at 2 to 4 players, for every seat: the hats a hand pays
    /// with, added card by card, are its cards counted kind by kind (with no card set aside and
    /// with each one), and entering a space costs the lower cost exactly where no other
    /// player's marker is, counted one by one (or the seat always pays the lower one).
    #[test]
    fn payers_and_space_costs_agree_with_counting_by_kind_and_the_markers() {
        use crate::Game;
        use rand::Rng;
        for players in crate::tofu_shifu::INFO.players() {
            let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
            let mut buf = Vec::new();
            let mut seen = [0u32; 2];
            for seed in 0..30 {
                let mut rng = rng_from_seed(seed);
                let mut s = g.new_state(&mut rng);
                while g.to_move(&s).is_some() {
                    for seat in 0..players as usize {
                        let p = &s.players[seat];
                        let hand_cards = cards(p.hand).map(CardId::new);
                        for reserved in std::iter::once(CardId::NONE).chain(hand_cards) {
                            let hand = match reserved.get() {
                                None => p.hand,
                                Some(r) => p.hand & !(1u128 << r),
                            };
                            let want =
                                (0..5).fold(u32::from_le_bytes(p.hats) as PackedHats, |r, h| {
                                    r + (((hand & g.cards_by_hat[h]).count_ones() as PackedHats)
                                        << (8 * h))
                                });
                            assert_eq!(g.payers(p, reserved), want, "seed {seed}, seat {seat}");
                        }
                        for space in Space::ALL {
                            let def = &g.data.spaces[space as usize];
                            // Other players' markers counted one by one (Rest is each player's
                            // own and counts none).
                            let others = (0..players as usize)
                                .filter(|&q| q != seat && s.players[q].marker == space as u8)
                                .count();
                            let lower = space == Space::Rest
                                || others == 0
                                || p.has(Bonus::AlwaysLowerSignpost);
                            let want = if lower { def.lower } else { def.higher };
                            assert_eq!(g.space_cost(&s, seat, space), want, "{space:?}");
                            seen[lower as usize] += 1;
                        }
                    }
                    g.legal_actions(&s, &mut buf);
                    let a = buf[rng.gen_range(0..buf.len())];
                    g.apply(&mut s, a, &mut rng);
                }
            }
            assert!(seen[0] > 1_000 && seen[1] > 1_000, "{seen:?}");
        }
    }

    /// The cards whose coins a player has are those [`TofuShifu::upgrade_coins`] asks no more
    /// than the player's coins for (every card past the table), with and without the upgrade
    /// discount, for every coin count up to 40, on the default data and on data with cards
    /// dearer than the table looks up.
    #[test]
    fn cards_whose_coins_the_player_has_are_those_the_upgrade_asks_no_more_than() {
        let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
        let mut dear = CardData::builtin("calibrated").unwrap();
        for (i, c) in dear.cards.iter_mut().enumerate().step_by(7) {
            c.cost_coins = 14 + (i % 9) as u16;
        }
        let dear = TofuShifu::new(dear, Params::with_players(4)).unwrap();
        for g in [&g, &dear] {
            let mut p = g.set_up(&mut rng_from_seed(3)).players[0];
            let mut answers = [0u32; 2];
            for discount in [false, true] {
                p.bonuses = if discount {
                    Bonus::UpgradeDiscount.bit()
                } else {
                    0
                };
                for coins in 0..=40 {
                    p.coins = coins;
                    let cover = g.coins_cover(&p);
                    let past = usize::from(coins) + usize::from(discount) >= COINS_LOOKED_UP;
                    for c in 0..g.data.cards.len() {
                        let want = past || g.upgrade_coins(&p, c) <= coins;
                        assert_eq!(cover >> c & 1 == 1, want, "card {c}, {coins} coins");
                        answers[want as usize] += 1;
                    }
                }
            }
            assert!(answers[0] > 100 && answers[1] > 100, "{answers:?}");
        }
    }

    /// The free-seat check on the tables as one word finds a free seat exactly where a table
    /// in play has an empty seat among its first `customers_per_table`, for every filling of
    /// the tables, every number of lanterns and one or two customers a table.
    #[test]
    fn a_free_seat_is_found_where_a_table_in_play_has_one() {
        for per in [1, 2] {
            let mut data = CardData::builtin("calibrated").unwrap();
            data.customers_per_table = per;
            let g = TofuShifu::new(data, Params::with_players(4)).unwrap();
            let mut p = g.set_up(&mut rng_from_seed(1)).players[0];
            let mut answers = [0u32; 2];
            for lanterns in 0..4 {
                p.lanterns = lanterns;
                for filled in 0..=u8::MAX {
                    for (i, seat) in p.tables.as_flattened_mut().iter_mut().enumerate() {
                        *seat = if filled >> i & 1 == 1 {
                            TileId::new(i as u8)
                        } else {
                            TileId::NONE
                        };
                    }
                    let want = (0..g.tables_open(&p))
                        .any(|t| p.tables[t][..per as usize].contains(&TileId::NONE));
                    assert_eq!(g.has_free_seat(&p), want, "{per} {lanterns} {:?}", p.tables);
                    answers[want as usize] += 1;
                }
            }
            assert!(answers[0] > 10 && answers[1] > 10, "{answers:?}");
        }
    }
}
