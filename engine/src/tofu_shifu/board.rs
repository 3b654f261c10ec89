//! Tofu Shifu as a board (`shifu replay`): the market, the supply and the town objectives;
//! each seat's coins, hats, dishes, hand (others' private cards face down in a seat's view),
//! Rest zone, upgrades and customer tables.

use super::*;
use crate::board::Board;

/// A production card's cost in words: hats, dishes, coins.
fn cost(c: &ProductionCard) -> String {
    let mut parts = Vec::new();
    for (i, &n) in c.cost_hats.iter().enumerate() {
        if n > 0 {
            parts.push(format!("{n} {}", Hat::from_index(i).name()));
        }
    }
    for (i, &n) in c.cost_dishes.iter().enumerate() {
        if n > 0 {
            parts.push(format!("{n} {}", Dish::from_index(i).name()));
        }
    }
    if c.cost_coins > 0 {
        parts.push(format!("{} coins", c.cost_coins));
    }
    parts.join(" + ")
}

impl TofuShifu {
    /// The board `seat` sees (everything when `None`), drawn from its observation.
    pub(super) fn board_of(&self, s: &State, seat: Option<Seat>) -> Board {
        match seat {
            Some(k) => {
                let o = self.observe(s, k);
                self.draw(&o.public, o.deck_size, &o.hidden_hand_sizes)
            }
            None => self.draw(s, s.deck.count_ones(), &[0; MAX_PLAYERS]),
        }
    }

    /// The board of position `s` (with hidden cards removed in a seat's view), `deck` cards
    /// in the deck and `hidden[q]` private cards in seat q's hand.
    fn draw(&self, s: &State, deck: u32, hidden: &[u32; MAX_PLAYERS]) -> Board {
        let d = &self.data;
        let card = |r: &mut crate::board::Row, c: u8, note: &str| {
            let p = &d.cards[c as usize];
            r.card(
                p.id.clone(),
                cost(p),
                format!("{} hat{note}", p.hat_type.name()),
            );
        };
        let mut b = Board::new(format!(
            "round {}, turn {}, player {} to move, {}",
            s.round,
            s.turns + 1,
            s.current + 1,
            s.turn.phase
        ));
        let market = b.row("market", None);
        for i in 0..self.market_slots() {
            match s.market[i].index() {
                Some(c) => card(
                    market,
                    c as u8,
                    &format!(", price {}", d.market_prices.get(i).copied().unwrap_or(0)),
                ),
                None => {
                    market.text("empty slot");
                }
            }
        }
        market.face_down(deck, "deck");
        let supply = b.row("supply", None);
        supply.coins("coin reserve", s.reserve_coins);
        for (i, &n) in s.reserve_hats.iter().enumerate() {
            supply.hat(Hat::from_index(i).name(), n);
        }
        for (i, &n) in s.reserve_dishes.iter().enumerate() {
            supply.token(Dish::from_index(i).name(), n);
        }
        supply.token("customer tiles in the bag", s.bag.count_ones() as i64);
        let town = b.row("town objectives", None);
        for (i, o) in d.town_objectives.iter().enumerate() {
            if s.town_display & (1 << i) != 0 {
                town.card(
                    o.id.clone(),
                    format!("{} coins", o.requirement.coins),
                    "town objective",
                );
            }
        }
        for (q, p) in s.players[..s.num_players as usize].iter().enumerate() {
            let r = b.row(format!("player {}", q + 1), Some(q));
            r.coins("coins", p.coins);
            r.token("objectives", p.objectives() as i64);
            r.token("lanterns", p.lanterns);
            for (i, &n) in p.hats.iter().enumerate() {
                r.hat(Hat::from_index(i).name(), n);
            }
            for (i, &n) in p.dishes.iter().enumerate() {
                r.token(Dish::from_index(i).name(), n);
            }
            r.text(format!(
                "marker on {}",
                Space::from_index(p.marker as usize)
            ));
            for c in cards(p.hand) {
                card(r, c, ", in hand");
            }
            r.face_down(hidden[q], "private hand cards");
            for c in cards(p.rest) {
                card(r, c, ", Rest zone");
            }
            for c in cards(p.upgrades) {
                card(r, c, ", upgrade");
            }
            for t in 0..self.tables_open(p) {
                for (x, &m) in p.tables[t].iter().zip(p.served[t].iter()) {
                    if let Some(x) = x.index() {
                        let c = &d.customers[x];
                        r.card(
                            c.id.clone(),
                            format!("{} orders", c.orders),
                            format!("table {}, served {}", t + 1, m.count_ones()),
                        );
                    }
                }
            }
        }
        b
    }
}
