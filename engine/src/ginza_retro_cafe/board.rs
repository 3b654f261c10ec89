//! Ginza Retro Cafe as a board (`shifu replay`): the customers at the counter with their
//! orders and time markers, the common dice, and each seat's player card, dice, tokens, yen,
//! levels and bonus cards (face down where the seat looking cannot see them).

use super::action::faces_text;
use super::apply::arrange_name;
use super::data::CATEGORIES;
use super::*;
use crate::board::{Board, Row};

/// Adds dice from counts by face (`counts[f]` dice showing `f + 1`).
fn dice(r: &mut Row, counts: &[u8; 6], label: &str) {
    for (f, &n) in counts.iter().enumerate() {
        for _ in 0..n.min(12) {
            r.die(f as u8 + 1, label);
        }
    }
}

impl GinzaRetroCafe {
    /// The board `seat` sees (everything when `None`), drawn from its observation.
    pub(super) fn board_of(&self, s: &State, seat: Option<Seat>) -> Board {
        match seat {
            Some(k) => {
                let o = self.observe(s, k);
                self.draw(&o.state, o.deck_sizes)
            }
            None => self.draw(s, s.deck.map(|d| d.count_ones())),
        }
    }

    /// The board of position `s` (blanked where a seat cannot see), with `decks` customers in
    /// each time of day's deck.
    fn draw(&self, s: &State, decks: [u32; 3]) -> Board {
        let mut b = Board::new(format!(
            "round {}, {}; start player {}; customers served {}, left {}",
            s.round,
            s.phase,
            s.start_player + 1,
            s.served,
            s.left_unserved
        ));
        let common = b.row("common dice", None);
        dice(common, &s.common, "common");
        for (i, &n) in decks.iter().enumerate() {
            common.face_down(n, format!("customer deck {}", i + 1));
        }
        match s.picking {
            Picking::Nothing => {}
            Picking::Serve { place, slot, dice } => {
                common.text(format!(
                    "serving place {}, slot {} with {}",
                    place + 1,
                    slot + 1,
                    faces_text(&dice)
                ));
            }
            Picking::Reroll { dice } => {
                common.text(format!("rerolling {}", faces_text(&dice)));
            }
        }
        let counter = b.row("customers and orders", None);
        for (k, pl) in s.places.iter().enumerate() {
            let Some(card) = pl.card.index() else {
                continue;
            };
            let c = &self.data.customers[card / 16][card % 16];
            counter.card(c.name.clone(), "", format!("place {}", k + 1));
            counter.timer(
                format!("place {} time", k + 1),
                f64::from(pl.time),
                f64::from(self.data.rulebook.time_marker),
            );
            for o in 0..3 {
                let Some(order) = pl.orders[o].index() else {
                    continue;
                };
                let card = &self.data.orders[order];
                let token = match pl.tokens[o].get() {
                    Some(t) => format!(", token of player {}", t + 1),
                    None => String::new(),
                };
                counter.card(
                    card.name.clone(),
                    String::from(card.serve),
                    format!(
                        "{}, ¥{}, {} VP{token}",
                        CATEGORIES[usize::from(card.category)],
                        card.coins,
                        card.vp
                    ),
                );
            }
        }
        for i in 0..usize::from(self.players) {
            let p = self.points(s, i);
            let r = b.row(format!("player {}", i + 1), Some(i));
            match s.card[i].index() {
                Some(_) => {
                    r.card(self.player_card_name(s.card[i]), "", "player card");
                }
                None => {
                    r.face_down(1, "player card");
                }
            }
            r.coins("yen", s.coins[i]);
            r.token("action tokens", s.tokens[i]);
            r.token("parked tokens", s.parked[i]);
            r.token("order VP", i64::from(p.orders));
            r.token("dice limit", s.limit[i]);
            for k in 0..3 {
                r.token(format!("{} level", arrange_name(k as u8)), s.levels[i][k]);
            }
            dice(r, &s.dice[i], "own");
            for c in s.bonus_hand[i].iter().chain(&s.bonus_offer[i]) {
                if let Some(c) = c.index() {
                    let bonus = &self.data.bonus[c];
                    r.card(bonus.name.clone(), "", format!("bonus, {} VP", bonus.vp));
                }
            }
        }
        b
    }
}
