//! The legal actions of each phase. Writes into the caller's buffer; never allocates once the
//! buffer has grown.

use super::payment::{one, pack, HallCost};
use super::*;

/// Cards of `hand` that may be picked next when `left` more are to be picked in increasing id
/// order from `cursor` on: a card qualifies when enough higher cards remain for the rest, so
/// every card from `cursor` on but the highest `left - 1`, lowest first.
fn next_in_order(hand: CardSet, cursor: u8, left: u32) -> impl Iterator<Item = u8> {
    let from = if cursor as usize >= MAX_CARDS {
        0
    } else {
        hand & !((1u128 << cursor) - 1)
    };
    let qualify = from.count_ones().saturating_sub(left.saturating_sub(1));
    cards(from).take(qualify as usize)
}

impl TofuShifu {
    /// Clears `out` and writes the legal actions of the player to move. Each phase has its own
    /// function, so that a phase saves only the registers its own listing needs.
    pub(crate) fn legal(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        match s.turn.phase {
            Phase::GameOver => {}
            Phase::TurnStart => self.legal_turn_start(s, out),
            Phase::CopyTarget => self.legal_copy_target(s, out),
            Phase::ChooseCard => self.legal_choose_card(s, out),
            Phase::PayHats => self.legal_pay_hats(s, out),
            Phase::SeatExtra => self.legal_seat_extra(s, out),
            Phase::PlaceTiles => self.legal_place_tiles(s, out),
            Phase::Serve => self.legal_serve(s, out),
            Phase::Checkout => self.legal_checkout(s, out),
            Phase::Hire => self.legal_hire(s, out),
            Phase::RestBuy => self.legal_rest_buy(s, out),
            Phase::RestDiscard => self.legal_rest_discard(s, out),
            Phase::RestKeep => self.legal_rest_keep(s, out),
            Phase::TurnEnd => self.legal_turn_end(s, out),
        }
    }

    /// Objectives to complete, then the spaces to move to (or a pass).
    #[inline(never)]
    fn legal_turn_start(&self, s: &State, out: &mut Vec<Action>) {
        let seat = s.current as usize;
        self.legal_claims(s, out);
        let before = out.len();
        self.legal_moves(s, seat, out);
        if out.len() == before {
            // A player who cannot enter any space passes (documented in the README).
            out.push(Action::Pass);
        }
    }

    /// The occupied spaces whose action the player may copy.
    #[inline(never)]
    fn legal_copy_target(&self, s: &State, out: &mut Vec<Action>) {
        let seat = s.current as usize;
        let p = s.me();
        let t = &s.turn;
        let (occupied, _) = self.markers(s, seat);
        let pool = self.payers(p, CardId::NONE);
        let cost = HallCost::generic(pack(&t.pending));
        for space in Space::ALL {
            if self.copy_target_with(s, seat, space, occupied, &cost, pool) {
                out.push(Action::CopyTarget(space));
            }
        }
    }

    /// The hand cards the player may play as the upgrade or objective.
    #[inline(never)]
    fn legal_choose_card(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        let cost = pack(&t.pending);
        let pool = self.payers(p, CardId::NONE);
        let hand = if t.action == Space::Upgrade {
            p.hand & self.coins_cover(p)
        } else {
            p.hand
        };
        for c in cards(hand) {
            let ok = match t.action {
                Space::Upgrade => self.upgrade_feasible_with(p, c as usize, cost, pool),
                // The card is set, so it cannot pay: the pool without it.
                _ => self.can_pay(
                    cost,
                    pool - one(self.card_costs[c as usize].hat_type as usize),
                ),
            };
            if ok {
                out.push(Action::ChooseCard(c));
            }
        }
    }

    /// The tokens and cards that may pay the next hat symbol.
    #[inline(never)]
    fn legal_pay_hats(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        let Some(sym) = Self::next_symbol(&t.pending) else {
            return;
        };
        let rest = pack(&t.pending) - one(sym as usize);
        let hand = match t.card.get() {
            None => p.hand,
            Some(c) => p.hand & !(1u128 << c),
        };
        // The kinds of hat (a bit each) that may pay the symbol, and their cards.
        let (ok, payable) = if rest == 0 {
            // The last symbol: any hat able to pay it may.
            let sym = sym as usize;
            (self.payers_of[1 << sym], self.cards_paying[sym])
        } else {
            // Whether paying with a hat of kind `h` (token or card alike) leaves the rest
            // payable depends only on `h`: decide it once per kind.
            let pool = self.payers(p, t.card);
            let mut ok = 0u8;
            let mut payable: CardSet = 0;
            for h in 0..5 {
                if (pool >> (8 * h)) & 0xFF > 0
                    && self.data.pays[h][sym as usize]
                    && self.can_pay(rest, pool - one(h))
                {
                    ok |= 1 << h;
                    payable |= self.cards_by_hat[h];
                }
            }
            (ok, payable)
        };
        for h in Hat::TOKENS {
            if ok >> h as u8 & 1 == 1 && p.hats[h as usize] > 0 {
                out.push(Action::PayToken(h));
            }
        }
        for c in cards(hand & payable) {
            out.push(Action::PayCard(c));
        }
    }

    /// The extra Seat payments the player can make, and the draw.
    #[inline(never)]
    fn legal_seat_extra(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        if t.extra < self.data.seat_max_extra {
            let pool = self.payers(p, CardId::NONE);
            for (i, opt) in self.seat_options(t.copied).iter().enumerate() {
                if self.can_pay(pack(opt), pool) {
                    out.push(Action::SeatExtra(i as u8));
                }
            }
        }
        out.push(Action::SeatDraw);
    }

    /// The tables the drawn tile may go to, and its return to the bag.
    #[inline(never)]
    fn legal_place_tiles(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let tile = s.drawn.trailing_zeros() as u8;
        let per = self.data.customers_per_table as usize;
        let mut offered_empty = false;
        for table in 0..self.tables_open(p) {
            let seats = &p.tables[table][..per];
            if !seats.contains(&TileId::NONE) {
                continue;
            }
            // Empty tables are interchangeable: offer only the first one.
            if seats.iter().all(|x| x.is_none()) {
                if offered_empty {
                    continue;
                }
                offered_empty = true;
            }
            out.push(Action::PlaceTile {
                tile,
                table: table as u8,
            });
        }
        out.push(Action::ReturnTile(tile));
    }

    /// The customers and market sales the player may serve next, and the end of serving.
    #[inline(never)]
    fn legal_serve(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        // The dish kinds the player holds, a bit each.
        let held = (0..4).fold(0u8, |m, d| m | ((p.dishes[d] > 0) as u8) << d);
        for table in 0..MAX_TABLES {
            for seat_i in 0..SEATS_PER_TABLE {
                let Some(tile) = p.tables[table][seat_i].index() else {
                    continue;
                };
                let mut open = self.data.customers[tile].orders & !p.served[table][seat_i] & held;
                while open != 0 {
                    let d = open.trailing_zeros() as usize;
                    open &= open - 1;
                    let key = ((table * SEATS_PER_TABLE + seat_i) * 4 + d) as u8;
                    if key >= t.cursor {
                        out.push(Action::ServeCustomer {
                            table: table as u8,
                            seat: seat_i as u8,
                            dish: Dish::from_index(d),
                        });
                    }
                }
            }
        }
        if t.market_left > 0 {
            for d in 0..4 {
                if p.dishes[d] > 0 && Self::MARKET_KEY + d as u8 >= t.cursor {
                    out.push(Action::SellToMarket(Dish::from_index(d)));
                }
            }
        }
        out.push(Action::EndServe);
    }

    /// The tables the player may clean next, with the objectives each completes.
    #[inline(never)]
    fn legal_checkout(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        for table in (t.cursor as usize)..MAX_TABLES {
            if p.table_customers(table) == 0 {
                continue;
            }
            out.push(Action::CleanTable {
                table: table as u8,
                objective: CardId::NONE,
            });
            let served = p.table_served_packed(table);
            for c in cards(p.objective_zone) {
                if self.restaurant_objective_served(served, c as usize) {
                    out.push(Action::CleanTable {
                        table: table as u8,
                        objective: CardId::new(c),
                    });
                }
            }
        }
        out.push(Action::EndCheckout);
    }

    /// The market slots to hire from.
    #[inline(never)]
    fn legal_hire(&self, s: &State, out: &mut Vec<Action>) {
        for slot in 0..self.market_slots {
            if s.market[slot].is_some() {
                out.push(Action::Hire(slot as u8));
            }
        }
    }

    /// The market cards the player may buy next, and the end of buying.
    #[inline(never)]
    fn legal_rest_buy(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        for slot in (t.cursor as usize)..self.market_slots {
            let Some(c) = s.market[slot].get() else {
                continue;
            };
            if p.coins >= self.buy_price(p, slot, c) {
                out.push(Action::Buy(slot as u8));
            }
        }
        out.push(Action::EndBuying);
    }

    /// The next card to return to the Rest zone.
    #[inline(never)]
    fn legal_rest_discard(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        let excess = p.hand.count_ones() - self.hand_limit(p) as u32;
        for c in next_in_order(p.hand, t.cursor, excess) {
            out.push(Action::ReturnCard(c));
        }
    }

    /// The next card to keep.
    #[inline(never)]
    fn legal_rest_keep(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.me();
        let t = &s.turn;
        let need = self.hand_limit(p) as u32 - t.kept.count_ones();
        for c in next_in_order(p.hand, t.cursor, need) {
            out.push(Action::KeepCard(c));
        }
    }

    /// Objectives to complete, then the end of the turn.
    #[inline(never)]
    fn legal_turn_end(&self, s: &State, out: &mut Vec<Action>) {
        self.legal_claims(s, out);
        out.push(Action::EndTurn);
    }

    /// Serve's cursor value for market sales (after every customer key).
    pub(crate) const MARKET_KEY: u8 = (MAX_TABLES * SEATS_PER_TABLE * 4) as u8;

    /// The Seat extra-payment options (fewer when Seat is copied: "When the Seat action is
    /// copied, you cannot use 2 Apprentice Hats in place of a Waiter Hat").
    pub(crate) fn seat_options(&self, copied: bool) -> &[HatCounts] {
        if copied {
            &self.data.seat_extra_options_copied
        } else {
            &self.data.seat_extra_options
        }
    }

    /// The price of buying the card in a market slot at Rest.
    pub fn buy_price(&self, p: &PlayerState, slot: usize, card: u8) -> u16 {
        let base = match self.price_mode {
            PriceMode::Slot => self.market_prices[slot],
            PriceMode::Card => self.data.cards[card as usize].card_price,
        };
        if p.has(Bonus::RestDiscount) {
            base.saturating_sub(1)
        } else {
            base
        }
    }
}
