//! Applying an action.

use super::action::{faces_text, Choice, Serve};
use super::choices::{ASIDE_SPOT, WASH_SPOT};
use super::state::{CardId, Phase, Picking, Place, SeatId, State};
use super::{roll, GinzaRetroCafe};
use rand::Rng;

impl GinzaRetroCafe {
    /// Applies a complete choice at once, as the rulebook states it (the definition twin of
    /// taking its steps, [`GinzaRetroCafe::step_toward`]); what was begun of it is dropped.
    /// The choice must be one of [`GinzaRetroCafe::choices`].
    pub fn play_choice<R: Rng + ?Sized>(&self, s: &mut State, a: Choice, rng: &mut R) {
        let n = self.players;
        s.picking = Picking::Nothing;
        match (s.phase, a) {
            (Phase::ChoosePlayerCard { seat }, Choice::ChooseCard(k)) => {
                let i = usize::from(seat);
                s.card[i] = s.card_dealt[i][usize::from(k)];
                s.turns = s.turns.saturating_add(1);
                if seat + 1 < n {
                    s.phase = Phase::ChoosePlayerCard { seat: seat + 1 };
                } else {
                    self.after_cards(s, rng);
                }
            }
            (Phase::Draft { seat, second }, Choice::Draft(k)) => {
                let i = usize::from(seat);
                let c = s.bonus_offer[i][usize::from(k)];
                s.bonus_offer[i][usize::from(k)] = CardId::NONE;
                s.turns = s.turns.saturating_add(1);
                s.bonus_hand[i][usize::from(second)] = c;
                if second {
                    // "remove the remaining card face down from the game"
                    s.bonus_discard[i] = s.bonus_offer[i]
                        .iter()
                        .copied()
                        .find(|c| c.is_some())
                        .unwrap_or(CardId::NONE);
                    s.bonus_offer[i] = [CardId::NONE; 3];
                }
                if seat + 1 < n {
                    s.phase = Phase::Draft {
                        seat: seat + 1,
                        second,
                    };
                } else if !second {
                    self.pass_bonus(s);
                    s.phase = Phase::Draft {
                        seat: 0,
                        second: true,
                    };
                } else {
                    self.after_draft(s, rng);
                }
            }
            (Phase::Turn { seat }, Choice::RaiseLevel(k)) => {
                let i = usize::from(seat);
                s.coins[i] -= u16::from(self.arrange_price(s, i));
                s.levels[i][usize::from(k)] = 2;
            }
            (Phase::Turn { seat }, Choice::RaiseLimit) => {
                let i = usize::from(seat);
                let price =
                    self.limit_prices[usize::from(s.limit[i] - self.data.rulebook.start_dice)];
                s.coins[i] -= u16::from(price);
                s.limit[i] += 1;
                s.dice[i][usize::from(roll(rng)) - 1] += 1;
            }
            (Phase::Turn { seat }, Choice::Serve(sv)) => {
                self.serve(s, usize::from(seat), sv, rng);
                self.end_turn(s, seat, rng);
            }
            (Phase::Turn { seat }, Choice::Change { face, up }) => {
                self.park(s, usize::from(seat), 0);
                change(s, usize::from(seat), face, up);
                let steps = self.data.rulebook.change_steps
                    [usize::from(s.levels[usize::from(seat)][0]) - 1];
                self.continue_or_end(
                    s,
                    seat,
                    Phase::Change {
                        seat,
                        left: steps - 1,
                    },
                    steps > 1,
                    rng,
                );
            }
            (Phase::Change { seat, left }, Choice::Change { face, up }) => {
                change(s, usize::from(seat), face, up);
                self.continue_or_end(
                    s,
                    seat,
                    Phase::Change {
                        seat,
                        left: left - 1,
                    },
                    left > 1,
                    rng,
                );
            }
            (Phase::Turn { seat }, Choice::Reroll(d)) => {
                self.park(s, usize::from(seat), 1);
                let just = reroll(s, usize::from(seat), &d, rng);
                let times =
                    self.data.rulebook.rerolls[usize::from(s.levels[usize::from(seat)][1]) - 1];
                self.continue_or_end(
                    s,
                    seat,
                    Phase::Reroll {
                        seat,
                        left: times - 1,
                        just,
                    },
                    times > 1,
                    rng,
                );
            }
            (Phase::Reroll { seat, left, .. }, Choice::Reroll(d)) => {
                let just = reroll(s, usize::from(seat), &d, rng);
                self.continue_or_end(
                    s,
                    seat,
                    Phase::Reroll {
                        seat,
                        left: left - 1,
                        just,
                    },
                    left > 1,
                    rng,
                );
            }
            (Phase::Turn { seat }, Choice::Add(k)) => {
                let i = usize::from(seat);
                self.park(s, i, 2);
                for _ in 0..k {
                    s.dice[i][usize::from(roll(rng)) - 1] += 1;
                }
                self.end_turn(s, seat, rng);
            }
            (Phase::Turn { seat }, Choice::Wash(k)) => {
                let i = usize::from(seat);
                self.park(s, i, WASH_SPOT);
                s.dice[i][0] -= k;
                let table = &self.data.players[s.player_card(i)].dishwashing;
                let gain = table[usize::from(k)];
                self.pay_out(s, i, gain);
                self.end_turn(s, seat, rng);
            }
            (Phase::Turn { seat }, Choice::Stop) => {
                // No legal action (stacked tokens off): the token is set aside for the round.
                self.park(s, usize::from(seat), ASIDE_SPOT);
                self.end_turn(s, seat, rng);
            }
            (Phase::Change { seat, .. } | Phase::Reroll { seat, .. }, Choice::Stop) => {
                self.end_turn(s, seat, rng);
            }
            (phase, a) => debug_assert!(false, "{a:?} does not fit {phase:?}"),
        }
    }

    /// Puts a seat's action token on an Arrange card (0..3), the Dishwashing area (3) or aside
    /// (4); it comes back at the end of the round.
    fn park(&self, s: &mut State, seat: usize, spot: u8) {
        s.tokens[seat] -= 1;
        s.parked[seat] += 1;
        s.parked_on[seat] |= 1 << spot;
    }

    fn continue_or_end<R: Rng + ?Sized>(
        &self,
        s: &mut State,
        seat: u8,
        next: Phase,
        more: bool,
        rng: &mut R,
    ) {
        if more {
            s.phase = next;
        } else {
            self.end_turn(s, seat, rng);
        }
    }

    /// The turn ends: it passes to the left (or the round ends).
    fn end_turn<R: Rng + ?Sized>(&self, s: &mut State, seat: u8, rng: &mut R) {
        s.turns = s.turns.saturating_add(1);
        if s.is_over() {
            return;
        }
        self.next_turn(s, seat + 1, rng);
    }

    /// Pays a seat from the bank (what the bank holds, when it is finite).
    pub(crate) fn pay_out(&self, s: &mut State, seat: usize, amount: u8) {
        let mut amount = u32::from(amount);
        if self.params.finite_bank {
            let held: u32 = s.coins.iter().map(|&c| u32::from(c)).sum();
            amount = amount.min(u32::from(self.data.rulebook.bank_yen).saturating_sub(held));
        }
        s.coins[seat] = s.coins[seat].saturating_add(amount as u16);
    }

    /// Serve a Dish, and a customer whose orders all have tokens is served.
    fn serve<R: Rng + ?Sized>(&self, s: &mut State, seat: usize, sv: Serve, rng: &mut R) {
        let (p, slot) = (usize::from(sv.place), usize::from(sv.slot));
        s.tokens[seat] -= 1;
        s.places[p].tokens[slot] = SeatId::from_index(seat);
        for f in 0..6 {
            s.dice[seat][f] -= sv.dice[f];
        }
        if sv.common > 0 {
            s.coins[seat] -= u16::from(self.common_price(s, seat));
            s.common[usize::from(sv.common) - 1] -= 1;
            s.purple_held[seat] += 1;
        }
        if sv.bonus {
            s.bonus_used |= 1 << seat;
        }
        let order = s.places[p].orders[slot].index().expect("an order to serve");
        self.pay_out(s, seat, self.data.orders[order].coins);
        let pl = s.places[p];
        if (0..3).all(|k| pl.orders[k].is_none() || pl.tokens[k].is_some()) {
            self.served(s, p, rng);
        }
    }

    /// "Successfully served a customer": the token owners take the order cards and their
    /// tokens back, ¥2 to a player with two or more tokens there, and a new customer arrives.
    fn served<R: Rng + ?Sized>(&self, s: &mut State, p: usize, rng: &mut R) {
        let pl = s.places[p];
        let mut on = [0u8; 4];
        for k in 0..3 {
            if let Some(o) = pl.tokens[k].index() {
                let order = pl.orders[k].get().expect("an order under a token");
                s.won_orders[o] |= 1 << order;
                s.tokens[o] += 1;
                on[o] += 1;
            }
        }
        for (seat, &k) in on.iter().enumerate() {
            if k >= 2 {
                self.pay_out(s, seat, self.data.rulebook.multi_order_bonus);
            }
        }
        s.places[p] = Place::EMPTY;
        s.served += 1;
        self.arrive(s, p, rng);
        if s.customers_here() == 0 {
            // 4-5: "end the game and go to Scoring without passing the turn".
            s.phase = Phase::Over;
        }
    }

    /// A name for any complete choice, legal or not (an illegal one is named in an error
    /// message).
    pub fn name_choice(&self, s: &State, a: Choice) -> String {
        let seat = s.seat().map(usize::from).unwrap_or(0).min(3);
        match a {
            Choice::ChooseCard(k) => {
                let c = s.card_dealt[seat]
                    .get(usize::from(k))
                    .copied()
                    .unwrap_or(CardId::NONE);
                format!("keep player card {}", self.player_card_name(c))
            }
            Choice::Draft(k) => {
                let c = s.bonus_offer[seat].get(usize::from(k)).copied();
                match c
                    .and_then(CardId::index)
                    .and_then(|c| self.data.bonus.get(c))
                {
                    Some(b) => format!("keep bonus card {} ({} VP)", b.name, b.vp),
                    None => format!("keep bonus card {k}"),
                }
            }
            Choice::RaiseLevel(k) => format!("raise {} to Lv.2", arrange_name(k)),
            Choice::RaiseLimit => "raise the dice limit".into(),
            Choice::Serve(sv) => {
                let o = s
                    .places
                    .get(usize::from(sv.place))
                    .and_then(|pl| pl.orders.get(usize::from(sv.slot)))
                    .and_then(|o| o.index());
                let order = o
                    .and_then(|o| self.data.orders.get(o))
                    .map(|o| format!("{} ({})", o.name, String::from(o.serve)))
                    .unwrap_or_else(|| "an order".into());
                let mut t = format!("serve {order} with {}", faces_text(&sv.dice));
                if sv.common > 0 {
                    t += &format!(" + common {}", sv.common);
                }
                if sv.bonus {
                    t += " + Drink bonus";
                }
                t
            }
            Choice::Change { face, up } => {
                let to = if up {
                    face.saturating_add(1)
                } else {
                    face.saturating_sub(1)
                };
                format!("change a {face} to {to}")
            }
            Choice::Reroll(d) => format!("reroll {}", faces_text(&d)),
            Choice::Add(k) => format!("add {k} dice"),
            Choice::Wash(k) => format!("wash dishes with {k} ones"),
            Choice::Stop => "stop".into(),
        }
    }

    /// A player card's name.
    pub(crate) fn player_card_name(&self, c: CardId) -> String {
        c.index()
            .and_then(|c| self.data.players.get(c))
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "?".into())
    }
}

/// An Arrange card's name.
pub(crate) fn arrange_name(k: u8) -> &'static str {
    ["Change Dice Rolls", "Reroll Dice", "Add Dice"][usize::from(k.min(2))]
}

fn change(s: &mut State, seat: usize, face: u8, up: bool) {
    let f = usize::from(face) - 1;
    s.dice[seat][f] -= 1;
    s.dice[seat][if up { f + 1 } else { f - 1 }] += 1;
}

/// Rerolls dice; returns the new faces of the rerolled dice.
fn reroll<R: Rng + ?Sized>(s: &mut State, seat: usize, d: &[u8; 6], rng: &mut R) -> [u8; 6] {
    let mut just = [0u8; 6];
    for f in 0..6 {
        s.dice[seat][f] -= d[f];
        for _ in 0..d[f] {
            just[usize::from(roll(rng)) - 1] += 1;
        }
    }
    for f in 0..6 {
        s.dice[seat][f] += just[f];
    }
    just
}
