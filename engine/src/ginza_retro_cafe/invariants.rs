//! Conservation checks: dice per colour, common dice, action tokens, coins, order cards, customer
//! cards, player cards and bonus cards. Used by the tests after every action, and by the state
//! load check (so a state that passes cannot make the rules index out of range).

use super::data::MAX_DICE;
use super::state::{Phase, State, MAX_PLAYERS, NONE};
use super::GinzaRetroCafe;

impl GinzaRetroCafe {
    /// Checks every invariant of `s`; the error says which one fails.
    pub fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        if s.players != self.players {
            return Err(format!("players {} in a {n}-player game", s.players));
        }
        self.check_phase(s)?;
        self.check_player_cards(s)?;
        self.check_bonus_cards(s)?;
        let set_up = s.round > 0 || s.is_over();
        let dealt_dice = !matches!(s.phase, Phase::ChoosePlayerCard { .. });
        for i in 0..MAX_PLAYERS {
            let d = s.dice_count(i);
            if i >= n {
                if d != 0 || s.tokens[i] != 0 || s.coins[i] != 0 || s.won_orders[i] != 0 {
                    return Err(format!(
                        "seat {i} does not play, yet has dice, tokens or coins"
                    ));
                }
                continue;
            }
            if !dealt_dice {
                continue;
            }
            // "in play + supply = 9": the Dice area never holds more than the colour's dice.
            if d > s.limit[i]
                || s.limit[i] > self.top_limit()
                || s.limit[i] < self.data.rulebook.start_dice
            {
                return Err(format!("seat {i} has {d} dice with limit {}", s.limit[i]));
            }
            if s.limit[i] > MAX_DICE.min(self.data.rulebook.dice_per_colour) {
                return Err(format!(
                    "seat {i}: limit {} past its colour's dice",
                    s.limit[i]
                ));
            }
            if s.levels[i].iter().any(|&l| !(1..=2).contains(&l)) {
                return Err(format!("seat {i}: an Arrange level is not 1 or 2"));
            }
            let on_orders: u8 = s
                .places
                .iter()
                .flat_map(|p| p.tokens)
                .filter(|&t| usize::from(t) == i)
                .count() as u8;
            if u16::from(s.tokens[i]) + u16::from(s.parked[i]) + u16::from(on_orders)
                != u16::from(self.tokens)
            {
                return Err(format!(
                    "seat {i}: {} tokens in hand, {} parked, {on_orders} on orders; it has {}",
                    s.tokens[i], s.parked[i], self.tokens
                ));
            }
        }
        let purple: u32 = s.common.iter().map(|&k| u32::from(k)).sum::<u32>()
            + s.purple_held.iter().map(|&k| u32::from(k)).sum::<u32>();
        if set_up && purple != u32::from(self.data.rulebook.common_dice) {
            return Err(format!(
                "{purple} common dice, the game has {}",
                self.data.rulebook.common_dice
            ));
        }
        let coins: u32 = s.coins.iter().map(|&c| u32::from(c)).sum();
        if self.params.finite_bank && coins > u32::from(self.data.rulebook.bank_yen) {
            return Err(format!(
                "players hold ¥{coins}, the box has ¥{}",
                self.data.rulebook.bank_yen
            ));
        }
        if set_up {
            self.check_orders_and_customers(s)?;
        } else {
            self.check_nothing_dealt_yet(s)?;
        }
        Ok(())
    }

    /// Before the customers are set up, no customer, order, coin or parked token is out.
    fn check_nothing_dealt_yet(&self, s: &State) -> Result<(), String> {
        let clean = s.places.iter().all(|p| *p == super::state::Place::EMPTY)
            && s.deck == [0; 3]
            && s.arrived == [0; 3]
            && s.order_deck == 0
            && s.order_discard == 0
            && s.won_orders == [0; MAX_PLAYERS]
            && s.coins == [0; MAX_PLAYERS]
            && s.parked == [0; MAX_PLAYERS]
            && s.parked_on == [0; MAX_PLAYERS]
            && s.purple_held == [0; MAX_PLAYERS]
            && s.common == [0; 6]
            && s.served == 0
            && s.left_unserved == 0
            && s.bonus_used == 0;
        if clean {
            Ok(())
        } else {
            Err(
                "set-up: customers, orders, coins or tokens are out before the set-up is done"
                    .into(),
            )
        }
    }

    fn check_phase(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        if let Some(seat) = s.seat() {
            if seat >= n {
                return Err(format!("seat {seat} to move in a {n}-player game"));
            }
        }
        match s.phase {
            Phase::Turn { seat } if s.tokens[usize::from(seat)] == 0 => {
                Err(format!("seat {seat} has a turn without an action token"))
            }
            Phase::Turn { .. } | Phase::Change { .. } | Phase::Reroll { .. } if s.round == 0 => {
                Err("a turn before the set-up is done".into())
            }
            Phase::Change { seat, left } => {
                let max = self
                    .data
                    .rulebook
                    .change_steps
                    .into_iter()
                    .max()
                    .unwrap_or(1);
                if left == 0 || left >= max || s.dice_count(usize::from(seat)) == 0 {
                    Err(format!("a Change with {left} adjustments left"))
                } else {
                    Ok(())
                }
            }
            Phase::Reroll { seat, left, just } => {
                let max = self.data.rulebook.rerolls.into_iter().max().unwrap_or(1);
                let have = &s.dice[usize::from(seat)];
                if left == 0
                    || left >= max
                    || just.iter().zip(have).any(|(j, h)| j > h)
                    || just.iter().all(|&k| k == 0)
                {
                    Err(format!(
                        "a Reroll with {left} left and dice just rerolled not in the Dice area"
                    ))
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }

    fn check_player_cards(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        let all = (1u64 << self.data.players.len()) - 1;
        let mut seen = u64::from(s.card_box);
        if seen & !all != 0 {
            return Err("a player card id past the data's cards".into());
        }
        for i in 0..n {
            for &c in &s.card_dealt[i] {
                if c == NONE || u64::from(c) >= 64 || all & (1 << c) == 0 || seen & (1 << c) != 0 {
                    return Err(format!(
                        "seat {i}: a dealt player card is missing, unknown or dealt twice"
                    ));
                }
                seen |= 1 << c;
            }
            let chosen = match s.phase {
                Phase::ChoosePlayerCard { seat } => i < usize::from(seat),
                _ => true,
            };
            let ok = if chosen {
                s.card[i] != NONE && s.card_dealt[i].contains(&s.card[i])
            } else {
                s.card[i] == NONE
            };
            if !ok {
                return Err(format!(
                    "seat {i}: the chosen player card is not one of those dealt"
                ));
            }
        }
        if seen != all {
            return Err("player cards are missing".into());
        }
        Ok(())
    }

    fn check_bonus_cards(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        let all = (1u64 << self.data.bonus.len()) - 1;
        let mut seen = u64::from(s.bonus_box);
        let mut add = |c: u8| -> Result<(), String> {
            if c == NONE {
                return Ok(());
            }
            if u64::from(c) >= 64 || all & (1 << c) == 0 || seen & (1 << c) != 0 {
                return Err(format!("bonus card {c} is unknown or in two places"));
            }
            seen |= 1 << c;
            Ok(())
        };
        for i in 0..n {
            for &c in s.bonus_offer[i].iter().chain(&s.bonus_hand[i]) {
                add(c)?;
            }
            add(s.bonus_discard[i])?;
        }
        if seen != all {
            return Err("bonus cards are missing".into());
        }
        let (picks, passed) = match s.phase {
            Phase::ChoosePlayerCard { .. } => (0, false),
            Phase::Draft {
                seat,
                second: false,
            } => (usize::from(seat), false),
            Phase::Draft { seat, second: true } => (n + usize::from(seat), true),
            _ => (2 * n, true),
        };
        for i in 0..n {
            let kept = usize::from(i < picks) + usize::from(picks > n + i);
            let hand = s.bonus_hand[i].iter().filter(|&&c| c != NONE).count();
            let offer = s.bonus_offer[i].iter().filter(|&&c| c != NONE).count();
            let want_offer = if !passed {
                3 - kept
            } else if kept == 2 {
                0
            } else {
                2
            };
            let want = [kept >= 1, kept >= 2];
            if (0..2).any(|k| (s.bonus_hand[i][k] != NONE) != want[k]) || offer != want_offer {
                return Err(format!("seat {i}: {hand} bonus cards kept and {offer} offered, expected {kept} and {want_offer}"));
            }
            if (kept == 2) != (s.bonus_discard[i] != NONE) {
                return Err(format!(
                    "seat {i}: a removed bonus card before the second pick"
                ));
            }
            if passed && s.bonus_passed[i].contains(&NONE) {
                return Err(format!("seat {i} passed no bonus cards"));
            }
        }
        Ok(())
    }

    fn check_orders_and_customers(&self, s: &State) -> Result<(), String> {
        let all_orders = if self.data.orders.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.data.orders.len()) - 1
        };
        let mut seen = 0u64;
        let mut add = |m: u64, what: &str| -> Result<(), String> {
            if m & seen != 0 || m & !all_orders != 0 {
                return Err(format!("an order card {what} is unknown or in two places"));
            }
            seen |= m;
            Ok(())
        };
        add(s.order_deck, "in the deck")?;
        add(s.order_discard, "discarded")?;
        for i in 0..usize::from(self.players) {
            add(s.won_orders[i], "won")?;
        }
        for (k, pl) in s.places.iter().enumerate() {
            if !pl.occupied() {
                if *pl != super::state::Place::EMPTY {
                    return Err(format!("empty place {k} holds orders or tokens"));
                }
                continue;
            }
            let (p, c) = (usize::from(pl.card / 16), usize::from(pl.card % 16));
            if p >= 3 || c >= self.data.customers[p].len() || s.arrived[p] & (1 << c) == 0 {
                return Err(format!("place {k}: customer {} has not arrived", pl.card));
            }
            if pl.time == 0 || pl.time > self.data.rulebook.time_marker {
                return Err(format!("place {k}: Time marker {}", pl.time));
            }
            let wanted = &self.data.customers[p][c].orders;
            for slot in 0..3 {
                let o = pl.orders[slot];
                if (slot < wanted.len()) != (o != NONE) {
                    return Err(format!(
                        "place {k}: {} orders, the customer asks for {}",
                        pl.order_count(),
                        wanted.len()
                    ));
                }
                if o == NONE {
                    if pl.tokens[slot] != NONE {
                        return Err(format!("place {k}: a token on no order"));
                    }
                    continue;
                }
                if u32::from(o) >= 64
                    || self.data.orders.get(usize::from(o)).map(|x| x.rank) != Some(wanted[slot])
                {
                    return Err(format!("place {k}: order {o} is not of the rank asked for"));
                }
                add(1 << o, "at a customer")?;
                if pl.tokens[slot] != NONE && pl.tokens[slot] >= self.players {
                    return Err(format!("place {k}: a token of seat {}", pl.tokens[slot]));
                }
            }
            if (0..3).all(|slot| pl.orders[slot] == NONE || pl.tokens[slot] != NONE) {
                return Err(format!(
                    "place {k}: every order has a token, yet the customer is here"
                ));
            }
        }
        if seen != all_orders {
            return Err("order cards are missing".into());
        }
        for p in 0..3 {
            let all = (1u32 << self.data.customers[p].len()) - 1;
            let (d, a) = (u32::from(s.deck[p]), u32::from(s.arrived[p]));
            if d & a != 0 || (d | a) & !all != 0 {
                return Err(format!(
                    "time of day {p}: a customer both in the deck and arrived"
                ));
            }
            if (d | a).count_ones() != u32::from(self.players) {
                return Err(format!(
                    "time of day {p}: the deck had {} customers, not one per player",
                    (d | a).count_ones()
                ));
            }
        }
        // Orders drawn are exactly the orders the arrived customers asked for, so the decks
        // never run dry for the customers still to come.
        for r in 0..3u8 {
            let asked: usize = (0..3)
                .map(|p| {
                    (0..self.data.customers[p].len())
                        .filter(|&c| s.arrived[p] & (1 << c) != 0)
                        .map(|c| {
                            self.data.customers[p][c]
                                .orders
                                .iter()
                                .filter(|&&o| o == r)
                                .count()
                        })
                        .sum::<usize>()
                })
                .sum();
            let left = (s.order_deck & self.data.rank_set(r)).count_ones() as usize;
            if left + asked != self.data.rank_set(r).count_ones() as usize {
                return Err(format!(
                    "order deck {}: {left} left after {asked} drawn",
                    r + 1
                ));
            }
        }
        let here = s.places.iter().filter(|p| p.occupied()).count() as u32;
        let arrived: u32 = s.arrived.iter().map(|a| a.count_ones()).sum();
        if arrived != here + u32::from(s.served) + u32::from(s.left_unserved) {
            return Err(format!(
                "{arrived} customers arrived, {here} here, {} served, {} left",
                s.served, s.left_unserved
            ));
        }
        if s.is_over() != (here == 0) {
            return Err("the game is over exactly when no customer is left".into());
        }
        Ok(())
    }
}
