//! Applying an action. Every branch ends at a phase with at least one legal action, or at the
//! end of the game.

use super::*;

impl TofuShifu {
    /// Applies a legal action (unchecked).
    pub(crate) fn play<R: Rng + ?Sized>(&self, s: &mut State, a: Action, rng: &mut R) {
        let seat = s.current as usize;
        match a {
            Action::ClaimTown(i) => self.claim_town(s, i),
            Action::ClaimPlayer(i) => self.claim_player(s, i),
            Action::Move(space) => {
                // "Move your Shifu Marker to a board space, pay its Hat cost, then take the
                // corresponding board space action."
                let cost = self.space_cost(s, seat, space);
                let t = &mut s.turn;
                t.pending = cost;
                t.copied = false;
                t.card = CardId::NONE;
                s.players[seat].marker = space as u8;
                if space == Space::Copy {
                    s.turn.phase = Phase::CopyTarget;
                } else {
                    self.begin_action(s, space);
                }
            }
            Action::Pass => s.turn.phase = Phase::TurnEnd,
            Action::CopyTarget(space) => {
                s.turn.copied = true;
                self.begin_action(s, space);
            }
            Action::ChooseCard(c) => {
                s.turn.card = CardId::new(c);
                // The chosen card is shown as it is played.
                s.players[seat].hand_known |= 1u128 << c;
                if s.turn.action == Space::Upgrade {
                    // The card's own hat cost is paid like the signpost's.
                    let hats = self.data.cards[c as usize].cost_hats;
                    for (x, h) in s.turn.pending.iter_mut().zip(hats) {
                        *x += h;
                    }
                }
                self.start_payment(s);
            }
            Action::PayToken(h) => {
                let sym = Self::next_symbol(&s.turn.pending).expect("a symbol to pay");
                s.turn.pending[sym as usize] -= 1;
                let p = &mut s.players[seat];
                p.hats[h as usize] -= 1;
                // Flag tokens are spent before a loose Master token (the loose one would not
                // come back at Rest).
                if h == Hat::Master && p.hats[3] < p.loose_master {
                    p.loose_master = p.hats[3];
                }
                s.reserve_hats[h as usize] += 1;
                self.continue_payment(s, rng);
            }
            Action::PayCard(c) => {
                let sym = Self::next_symbol(&s.turn.pending).expect("a symbol to pay");
                s.turn.pending[sym as usize] -= 1;
                let p = &mut s.players[seat];
                let bit = 1u128 << c;
                p.hand &= !bit;
                p.hand_known &= !bit;
                p.rest |= bit; // "discard a card to your Rest zone"
                self.continue_payment(s, rng);
            }
            Action::SeatExtra(i) => {
                s.turn.pending = self.seat_options(s.turn.copied)[i as usize];
                s.turn.paying_extra = true;
                s.turn.phase = Phase::PayHats;
            }
            Action::SeatDraw => self.seat_draw(s, rng),
            Action::PlaceTile { tile, table } => {
                let p = &mut s.players[seat];
                let row = &mut p.tables[table as usize];
                let free = row.iter().position(|x| x.is_none()).expect("a free seat");
                row[free] = TileId::new(tile);
                p.served[table as usize][free] = 0;
                s.drawn &= !(1u64 << tile);
                self.continue_placing(s);
            }
            Action::ReturnTile(tile) => {
                // "Return unplaced customer tiles to the tile bag."
                s.drawn &= !(1u64 << tile);
                s.bag |= 1u64 << tile;
                self.continue_placing(s);
            }
            Action::ServeCustomer {
                table,
                seat: at,
                dish,
            } => {
                let d = dish as usize;
                let p = &mut s.players[seat];
                p.dishes[d] -= 1;
                // "Dish tokens sold to a customer are kept on the tile."
                p.served[table as usize][at as usize] |= 1 << d;
                self.gain_coins(s, seat, self.data.dish_values[d]);
                s.turn.cursor =
                    ((table as usize * SEATS_PER_TABLE + at as usize) * 4 + d + 1) as u8;
            }
            Action::SellToMarket(dish) => {
                let d = dish as usize;
                s.players[seat].dishes[d] -= 1;
                s.reserve_dishes[d] += 1;
                self.gain_coins(s, seat, self.data.dish_values[d]);
                s.turn.market_left -= 1;
                s.turn.cursor = Self::MARKET_KEY + d as u8;
            }
            Action::EndServe | Action::EndCheckout => s.turn.phase = Phase::TurnEnd,
            Action::CleanTable { table, objective } => {
                self.clean_table(s, table as usize, objective)
            }
            Action::Hire(slot) => {
                // "Gain a Production card from the Market area for free, adding to your Rest zone.
                // Shift the remaining Production cards right to fill the gap, then deal a new
                // Production card to the leftmost space."
                let c = s.market[slot as usize].get().expect("a card to hire");
                s.players[seat].rest |= 1u128 << c;
                for i in (1..=slot as usize).rev() {
                    s.market[i] = s.market[i - 1];
                }
                s.market[0] = Self::draw_card(s, rng);
                if s.players[seat].has(Bonus::HireDraw) {
                    let extra = Self::draw_card(s, rng);
                    if let Some(extra) = extra.get() {
                        s.players[seat].rest |= 1u128 << extra;
                    }
                }
                s.turn.phase = Phase::TurnEnd;
            }
            Action::Buy(slot) => {
                let c = s.market[slot as usize].get().expect("a card to buy");
                let price = self.buy_price(&s.players[seat], slot as usize, c);
                self.pay_coins(s, seat, price);
                s.players[seat].rest |= 1u128 << c;
                s.market[slot as usize] = CardId::NONE;
                s.turn.cursor = slot + 1;
            }
            Action::EndBuying => self.end_buying(s, rng),
            Action::ReturnCard(c) => {
                let p = &mut s.players[seat];
                let bit = 1u128 << c;
                p.hand &= !bit;
                p.hand_known &= !bit;
                p.rest |= bit;
                s.turn.cursor = c.saturating_add(1);
                if p.hand.count_ones() <= self.hand_limit(p) as u32 {
                    s.turn.phase = Phase::TurnEnd;
                }
            }
            Action::KeepCard(c) => {
                s.turn.kept |= 1u128 << c;
                s.turn.cursor = c.saturating_add(1);
                let p = &mut s.players[seat];
                if s.turn.kept.count_ones() >= self.hand_limit(p) as u32 {
                    let back = p.hand & !s.turn.kept;
                    p.hand = s.turn.kept;
                    p.hand_known &= s.turn.kept;
                    p.rest |= back;
                    s.turn.kept = 0;
                    s.turn.phase = Phase::TurnEnd;
                }
            }
            Action::EndTurn => self.end_turn(s),
        }
    }

    /// Starts the action of `space` (after moving, or after choosing it to copy).
    fn begin_action(&self, s: &mut State, space: Space) {
        s.turn.action = space;
        match space {
            Space::Upgrade | Space::SetObjective => s.turn.phase = Phase::ChooseCard,
            _ => self.start_payment(s),
        }
    }

    /// Enters the hat-payment phase, or skips it when nothing is owed.
    fn start_payment(&self, s: &mut State) {
        s.turn.paying_extra = false;
        if s.turn.pending.iter().all(|&x| x == 0) {
            self.perform(s);
        } else {
            s.turn.phase = Phase::PayHats;
        }
    }

    /// After one hat symbol is paid: pay the next, or go on.
    fn continue_payment<R: Rng + ?Sized>(&self, s: &mut State, _rng: &mut R) {
        if s.turn.pending.iter().any(|&x| x > 0) {
            return;
        }
        if s.turn.paying_extra {
            s.turn.paying_extra = false;
            s.turn.extra += 1;
            s.turn.phase = Phase::SeatExtra;
        } else {
            self.perform(s);
        }
    }

    /// Takes the board-space action once its hat cost is paid.
    fn perform(&self, s: &mut State) {
        let seat = s.current as usize;
        match s.turn.action {
            Space::Upgrade => {
                // "Play a card from your hand as an Upgrade card, paying its cost."
                let c = s.turn.card.index().expect("the upgrade card");
                let card = &self.data.cards[c];
                for d in 0..4 {
                    let n = card.cost_dishes[d];
                    s.players[seat].dishes[d] -= n;
                    s.reserve_dishes[d] += n as i16;
                }
                let coins = self.upgrade_coins(&s.players[seat], c);
                self.pay_coins(s, seat, coins);
                let p = &mut s.players[seat];
                let bit = 1u128 << c;
                p.hand &= !bit;
                p.hand_known &= !bit;
                p.upgrades |= bit;
                match card.flag {
                    Flag::Dish(d) => p.dish_flags[d as usize] += 1,
                    Flag::Hat(h) => p.hat_flags[h as usize] += 1,
                    Flag::Lantern => p.lanterns += 1,
                }
                s.turn.phase = Phase::TurnEnd;
            }
            Space::Produce => {
                // "Each cyan flag ... produces a Dish token. A flag with an unsold Dish token does
                // not produce an extra one."
                for d in 0..4 {
                    let p = &s.players[seat];
                    let want = p.dish_flags[d].saturating_sub(p.dishes[d]);
                    self.gain_dishes(s, seat, d, want);
                }
                if s.players[seat].has(Bonus::ProduceIncome) {
                    self.gain_coins(s, seat, 1);
                }
                s.turn.phase = Phase::TurnEnd;
            }
            Space::Seat => {
                s.turn.extra = 0;
                s.turn.phase = Phase::SeatExtra;
            }
            Space::Serve => {
                s.turn.cursor = 0;
                s.turn.market_left =
                    self.data.market_sales + s.players[seat].has(Bonus::MarketSellTwo) as u8;
                s.turn.phase = Phase::Serve;
            }
            Space::Checkout => {
                s.turn.cursor = 0;
                s.turn.phase = Phase::Checkout;
            }
            Space::Hire => s.turn.phase = Phase::Hire,
            Space::SetObjective => {
                // "Play a Production card as a Restaurant Objective ... face up."
                let p = &mut s.players[seat];
                let bit = 1u128 << s.turn.card.get().expect("the objective card");
                p.hand &= !bit;
                p.hand_known &= !bit;
                p.objective_zone |= bit;
                s.turn.phase = Phase::TurnEnd;
            }
            Space::Rest => {
                // "Refill hats. Each light brown flag ... refills a Hat token. A flag with an
                // unused Hat token does not produce an extra one."
                for h in 0..4 {
                    let p = &s.players[seat];
                    let loose = if h == 3 { p.loose_master } else { 0 };
                    let want = p.hat_flags[h].saturating_sub(p.hats[h] - loose);
                    self.gain_hats(s, seat, h, want);
                }
                s.turn.cursor = 0;
                s.turn.phase = Phase::RestBuy;
            }
            Space::Copy => unreachable!("Copy takes another space's action"),
        }
    }

    /// Seat: draw the tiles. "Draw 2 Customer Tiles from the Tile Bag. You may spend a maximum of
    /// 3 extra Waiter Hats to draw 2 extra tiles per extra hat spent."
    #[inline(never)]
    fn seat_draw<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let p = s.me();
        let mut n = self.data.seat_base_draw as u32
            + s.turn.extra as u32 * self.data.seat_extra_draw as u32;
        if p.has(Bonus::SeatPlusTwoTiles) {
            n += 2;
        }
        for _ in 0..n {
            if s.bag == 0 {
                break;
            }
            let t = random_tile(s.bag, rng);
            s.bag &= !(1u64 << t);
            s.drawn |= 1u64 << t;
        }
        s.turn.phase = Phase::PlaceTiles;
        self.continue_placing(s);
    }

    /// Seat: next tile, or the end of seating. With no free seat left, the remaining tiles go
    /// back to the bag at once (the only choice left).
    fn continue_placing(&self, s: &mut State) {
        if s.drawn != 0 && !self.has_free_seat(s.me()) {
            s.bag |= s.drawn;
            s.drawn = 0;
        }
        if s.drawn == 0 {
            s.turn.phase = Phase::TurnEnd;
        }
    }

    /// Checkout: "Clean up any number of tables, returning customer tiles to the tile bag and
    /// dish tokens to the reserve."
    #[inline(never)]
    fn clean_table(&self, s: &mut State, t: usize, objective: CardId) {
        let seat = s.current as usize;
        let p = s.players[seat];
        let served = p.table_served(t);
        let mut coins = 0u16;
        for i in 0..SEATS_PER_TABLE {
            let Some(tile) = p.tables[t][i].index() else {
                continue;
            };
            // "When a customer with a coin in hand leaves the table, you gain 1 coin."
            if self.data.customers[tile].coin_on_leave
                && (self.params.unserved_coin_customer_pays || p.served[t][i] != 0)
            {
                coins += 1;
            }
            s.bag |= 1u64 << tile;
        }
        if p.has(Bonus::CheckoutBonus) && served.iter().map(|&x| x as u32).sum::<u32>() >= 3 {
            coins += 1;
        }
        for d in 0..4 {
            s.reserve_dishes[d] += served[d] as i16;
        }
        {
            let pm = &mut s.players[seat];
            pm.tables[t] = [TileId::NONE; SEATS_PER_TABLE];
            pm.served[t] = [0; SEATS_PER_TABLE];
            // "Only one Objective can be completed per table."
            if let Some(objective) = objective.get() {
                let bit = 1u128 << objective;
                pm.objective_zone &= !bit;
                pm.restaurant_done |= bit;
            }
        }
        self.gain_coins(s, seat, coins);
        s.turn.cursor = t as u8 + 1;
    }

    /// Rest after buying: "shift the remaining Production cards right to fill the gap, and deal
    /// new Production cards to fill all empty spaces", then "Return all cards in the Rest zone to
    /// your hand", keeping at most the hand limit.
    #[inline(never)]
    fn end_buying<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let slots = self.market_slots;
        let mut packed = [CardId::NONE; MAX_MARKET];
        let mut j = slots;
        for i in (0..slots).rev() {
            if s.market[i].is_some() {
                j -= 1;
                packed[j] = s.market[i];
            }
        }
        for slot in (0..j).rev() {
            packed[slot] = Self::draw_card(s, rng);
        }
        s.market = packed;
        let seat = s.current as usize;
        let p = &mut s.players[seat];
        p.hand |= p.rest;
        p.hand_known |= p.rest; // the Rest zone is face up
        p.rest = 0;
        let limit = self.hand_limit(p) as u32;
        let size = p.hand.count_ones();
        if size > limit {
            s.turn.cursor = 0;
            s.turn.kept = 0;
            // "You can keep a maximum of 6 cards in your hand. ... You may choose which cards to
            // keep." Choosing the cards to return or the cards to keep is the same choice; ask
            // for whichever takes fewer steps.
            s.turn.phase = if size - limit <= limit {
                Phase::RestDiscard
            } else {
                Phase::RestKeep
            };
        } else {
            s.turn.phase = Phase::TurnEnd;
        }
    }

    /// Ends the turn. "Before each of the first player's rounds, if any player has completed 8
    /// or more Objectives, the game ends."
    #[inline(never)]
    fn end_turn(&self, s: &mut State) {
        s.turns += 1;
        let reached = s.me().objectives() >= self.end_objectives as u32;
        if reached && s.end_trigger.is_none() {
            // Objectives only grow on their owner's turn, so the first seat to end a turn at the
            // count is the one that reached it first.
            s.end_trigger = SeatId::new(s.current);
        }
        let next = (s.current + 1) % s.num_players;
        s.current = next;
        s.turn = TurnCtx::new();
        if reached && self.params.end_rule == EndRule::Immediate {
            // Variant (not the rulebook's): the game ends with the turn that reaches the count.
            s.turn.phase = Phase::GameOver;
            return;
        }
        if next == 0 {
            let n = s.num_players as usize;
            if s.players[..n]
                .iter()
                .any(|p| p.objectives() >= self.end_objectives as u32)
            {
                s.turn.phase = Phase::GameOver;
                return;
            }
            if s.round >= self.params.max_rounds {
                s.capped = true;
                s.turn.phase = Phase::GameOver;
                return;
            }
            s.round += 1;
        }
    }
}
