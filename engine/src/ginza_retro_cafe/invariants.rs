//! Conservation checks: dice per colour, common dice, action tokens, coins, order cards, customer
//! cards, player cards and bonus cards. Used by the tests after every action, and by the state
//! load check (so a state that passes cannot make the rules index out of range).

use super::data::Condition;
use super::data::MAX_DICE;
use super::state::{CardId, Phase, Picking, State, MAX_PLAYERS};
use super::GinzaRetroCafe;

impl GinzaRetroCafe {
    /// Checks every invariant of `s`; the error says which one fails.
    pub fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        if s.players != self.players {
            return Err(format!("players: {} in a {n}-player game", s.players));
        }
        self.check_phase(s)?;
        self.check_picking(s)?;
        self.check_player_cards(s)?;
        self.check_bonus_cards(s)?;
        let set_up = s.round > 0 || s.is_over();
        let dealt_dice = !matches!(s.phase, Phase::ChoosePlayerCard { .. });
        for i in 0..MAX_PLAYERS {
            let d = s.dice_count(i);
            if i >= n {
                if d != 0 || s.tokens[i] != 0 || s.coins[i] != 0 || s.won_orders[i] != 0 {
                    return Err(format!(
                        "dice[{i}], tokens[{i}], coins[{i}], won_orders[{i}]: seat {i} does not \
                         play, yet has dice, tokens, coins or orders"
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
                return Err(format!(
                    "dice[{i}], limit[{i}]: seat {i} has {d} dice with limit {} (from {} to {})",
                    s.limit[i],
                    self.data.rulebook.start_dice,
                    self.top_limit()
                ));
            }
            if s.limit[i] > MAX_DICE.min(self.data.rulebook.dice_per_colour) {
                return Err(format!("limit[{i}]: {} past its colour's dice", s.limit[i]));
            }
            if s.levels[i].iter().any(|&l| !(1..=2).contains(&l)) {
                return Err(format!("levels[{i}]: an Arrange level is not 1 or 2"));
            }
            let on_orders: u8 = s
                .places
                .iter()
                .flat_map(|p| p.tokens)
                .filter(|t| t.index() == Some(i))
                .count() as u8;
            if u16::from(s.tokens[i]) + u16::from(s.parked[i]) + u16::from(on_orders)
                != u16::from(self.tokens)
            {
                return Err(format!(
                    "tokens[{i}], parked[{i}], places.tokens: seat {i} has {} tokens in hand, {} \
                     parked, {on_orders} on orders; it has {}",
                    s.tokens[i], s.parked[i], self.tokens
                ));
            }
        }
        let purple: u32 = s.common.iter().map(|&k| u32::from(k)).sum::<u32>()
            + s.purple_held.iter().map(|&k| u32::from(k)).sum::<u32>();
        if set_up && purple != u32::from(self.data.rulebook.common_dice) {
            return Err(format!(
                "common, purple_held: {purple} common dice, the game has {}",
                self.data.rulebook.common_dice
            ));
        }
        let coins: u32 = s.coins.iter().map(|&c| u32::from(c)).sum();
        if self.params.finite_bank && coins > u32::from(self.data.rulebook.bank_yen) {
            return Err(format!(
                "coins: players hold ¥{coins}, the box has ¥{}",
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
        let out: [(&str, bool); 15] = [
            (
                "places",
                s.places.iter().all(|p| *p == super::state::Place::EMPTY),
            ),
            ("deck", s.deck == [0; 3]),
            ("arrived", s.arrived == [0; 3]),
            ("order_deck", s.order_deck == 0),
            ("order_discard", s.order_discard == 0),
            ("won_orders", s.won_orders == [0; MAX_PLAYERS]),
            ("coins", s.coins == [0; MAX_PLAYERS]),
            ("parked", s.parked == [0; MAX_PLAYERS]),
            ("parked_on", s.parked_on == [0; MAX_PLAYERS]),
            ("purple_held", s.purple_held == [0; MAX_PLAYERS]),
            ("common", s.common == [0; 6]),
            ("served", s.served == 0),
            ("left_unserved", s.left_unserved == 0),
            ("bonus_used", s.bonus_used == 0),
            ("round", s.round == 0),
        ];
        match out.iter().find(|(_, clean)| !clean) {
            None => Ok(()),
            Some((field, _)) => Err(format!(
                "{field}: set before the set-up is done (round 0, choosing player and bonus \
                 cards)"
            )),
        }
    }

    /// The two bonus cards seat `i` passed left: none before the pass, then two known cards
    /// that the seat on its left was offered (still offered, kept second, or removed).
    fn check_passed(&self, s: &State, i: usize, passed: bool) -> Result<(), String> {
        let pair = s.bonus_passed[i];
        if !passed {
            return if pair == [CardId::NONE; 2] {
                Ok(())
            } else {
                Err(format!(
                    "bonus_passed[{i}]: passed before the first pick is done"
                ))
            };
        }
        let n = usize::from(self.players);
        let left = (i + 1) % n;
        let at_left = |c: CardId| {
            c.is_some()
                && (s.bonus_offer[left].contains(&c)
                    || s.bonus_hand[left][1] == c
                    || s.bonus_discard[left] == c)
        };
        if pair[0] == pair[1] || !pair.iter().all(|&c| at_left(c)) {
            return Err(format!(
                "bonus_passed[{i}]: {pair:?} are not two bonus cards the seat on the left was \
                 offered (bonus_offer[{left}], bonus_hand[{left}], bonus_discard[{left}])"
            ));
        }
        Ok(())
    }

    fn check_phase(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        if let Some(seat) = s.seat() {
            if seat >= n {
                return Err(format!(
                    "phase.seat: seat {seat} to move in a {n}-player game"
                ));
            }
        }
        match s.phase {
            Phase::Turn { seat } if s.tokens[usize::from(seat)] == 0 => Err(format!(
                "phase, tokens[{seat}]: seat {seat} has a turn without an action token"
            )),
            Phase::Turn { .. } | Phase::Change { .. } | Phase::Reroll { .. } if s.round == 0 => {
                Err("phase, round: a turn in round 0, before the set-up is done".into())
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
                    Err(format!(
                        "phase.Change.left: a Change with {left} adjustments left"
                    ))
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
                        "phase.Reroll.left, phase.Reroll.just: a Reroll with {left} left and \
                         dice just rerolled not in the Dice area"
                    ))
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }

    /// A choice begun step by step: a serve on a turn, of an order with no token, with dice the
    /// seat has (none for a Dish); a reroll on a turn or after one, of dice the seat has (just
    /// rerolled, after one), at least one.
    fn check_picking(&self, s: &State) -> Result<(), String> {
        let taken = s.picking.dice();
        let fits = |pool: &[u8; 6]| taken.iter().zip(pool).all(|(t, p)| t <= p);
        let ok = match (s.picking, s.phase) {
            (Picking::Nothing, _) => true,
            (Picking::Serve { place, slot, .. }, Phase::Turn { seat }) => {
                let free = s
                    .places
                    .get(usize::from(place))
                    .and_then(|pl| pl.tokens.get(usize::from(slot)))
                    .is_some_and(|t| t.is_none());
                match self.order_at(s, place, slot) {
                    Some(Condition::Faces(_)) => free && taken == [0; 6],
                    Some(Condition::SumAtLeast(_)) => free && fits(&s.dice[usize::from(seat)]),
                    None => false,
                }
            }
            (Picking::Reroll { .. }, Phase::Turn { seat }) => {
                taken != [0; 6] && fits(&s.dice[usize::from(seat)])
            }
            (Picking::Reroll { .. }, Phase::Reroll { just, .. }) => taken != [0; 6] && fits(&just),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "picking: {:?} cannot be begun in {:?}",
                s.picking, s.phase
            ))
        }
    }

    fn check_player_cards(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        let all = (1u64 << self.data.players.len()) - 1;
        let mut seen = u64::from(s.card_box);
        if seen & !all != 0 {
            return Err("card_box: a player card id past the data's cards".into());
        }
        for i in 0..n {
            for &c in &s.card_dealt[i] {
                let Some(c) = c.get().filter(|&c| c < 64 && all & (1 << c) != 0) else {
                    return Err(format!(
                        "card_dealt[{i}]: player card {c:?} is missing or unknown"
                    ));
                };
                if seen & (1 << c) != 0 {
                    return Err(format!(
                        "card_dealt[{i}], card_box: player card {c} is dealt twice or both dealt \
                         and in the box"
                    ));
                }
                seen |= 1 << c;
            }
            let chosen = match s.phase {
                Phase::ChoosePlayerCard { seat } => i < usize::from(seat),
                _ => true,
            };
            let ok = if chosen {
                s.card[i].is_some() && s.card_dealt[i].contains(&s.card[i])
            } else {
                s.card[i].is_none()
            };
            if !ok {
                return Err(format!(
                    "card[{i}]: the chosen player card is not one of those dealt to seat {i} \
                     (card_dealt[{i}]), or is chosen before seat {i}'s turn to choose"
                ));
            }
        }
        if seen != all {
            return Err(
                "card_box, card_dealt: player cards are neither dealt nor in the box".into(),
            );
        }
        Ok(())
    }

    fn check_bonus_cards(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        let all = (1u64 << self.data.bonus.len()) - 1;
        let mut seen = u64::from(s.bonus_box);
        let mut add = |c: CardId| -> Result<(), String> {
            let Some(c) = c.get() else {
                return Ok(());
            };
            if u64::from(c) >= 64 || all & (1 << c) == 0 || seen & (1 << c) != 0 {
                return Err(format!(
                    "bonus_box, bonus_offer, bonus_hand, bonus_discard: bonus card {c} is \
                     unknown or in two places"
                ));
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
            return Err(
                "bonus_box, bonus_offer, bonus_hand, bonus_discard: bonus cards are missing".into(),
            );
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
            let hand = s.bonus_hand[i].iter().filter(|c| c.is_some()).count();
            let offer = s.bonus_offer[i].iter().filter(|c| c.is_some()).count();
            let want_offer = if !passed {
                3 - kept
            } else if kept == 2 {
                0
            } else {
                2
            };
            let want = [kept >= 1, kept >= 2];
            if (0..2).any(|k| s.bonus_hand[i][k].is_some() != want[k]) || offer != want_offer {
                return Err(format!(
                    "bonus_hand[{i}], bonus_offer[{i}], phase: {hand} bonus cards kept and \
                     {offer} offered, expected {kept} and {want_offer}"
                ));
            }
            if (kept == 2) != s.bonus_discard[i].is_some() {
                return Err(format!(
                    "bonus_discard[{i}]: a removed bonus card only after the second pick"
                ));
            }
            self.check_passed(s, i, passed)?;
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
                return Err(format!(
                    "{what}: an order card is unknown or in two places (order_deck, \
                     order_discard, won_orders, places.orders)"
                ));
            }
            seen |= m;
            Ok(())
        };
        add(s.order_deck, "order_deck")?;
        add(s.order_discard, "order_discard")?;
        for i in 0..usize::from(self.players) {
            add(s.won_orders[i], &format!("won_orders[{i}]"))?;
        }
        for (k, pl) in s.places.iter().enumerate() {
            self.check_place(s, k, pl, &mut add)?;
        }
        if seen != all_orders {
            return Err(
                "order_deck, order_discard, won_orders, places.orders: order cards are missing"
                    .into(),
            );
        }
        self.check_customers(s)
    }

    /// One place: an arrived customer, its Time marker, the orders of the ranks it asks for,
    /// each recorded with `add`, and the tokens on them.
    fn check_place(
        &self,
        s: &State,
        k: usize,
        pl: &super::state::Place,
        add: &mut dyn FnMut(u64, &str) -> Result<(), String>,
    ) -> Result<(), String> {
        if !pl.occupied() {
            if *pl != super::state::Place::EMPTY {
                return Err(format!(
                    "places[{k}].card, places[{k}]: an empty place holds orders, tokens or \
                     a Time marker"
                ));
            }
            return Ok(());
        }
        let card = pl.card.get().expect("an occupied place");
        let (p, c) = (usize::from(card / 16), usize::from(card % 16));
        if p >= 3 || c >= self.data.customers[p].len() || s.arrived[p] & (1 << c) == 0 {
            return Err(format!(
                "places[{k}].card, arrived: customer {card} has not arrived"
            ));
        }
        if pl.time == 0 || pl.time > self.data.rulebook.time_marker {
            return Err(format!(
                "places[{k}].time: Time marker {}, not from 1 to {}",
                pl.time, self.data.rulebook.time_marker
            ));
        }
        let wanted = &self.data.customers[p][c].orders;
        for slot in 0..3 {
            if (slot < wanted.len()) != pl.orders[slot].is_some() {
                return Err(format!(
                    "places[{k}].orders: {} orders, the customer asks for {}",
                    pl.order_count(),
                    wanted.len()
                ));
            }
            let Some(o) = pl.orders[slot].get() else {
                if pl.tokens[slot].is_some() {
                    return Err(format!("places[{k}].tokens: a token on no order"));
                }
                continue;
            };
            if u32::from(o) >= 64
                || self.data.orders.get(usize::from(o)).map(|x| x.rank) != Some(wanted[slot])
            {
                return Err(format!(
                    "places[{k}].orders: order {o} is not of the rank asked for"
                ));
            }
            add(1 << o, &format!("places[{k}].orders"))?;
            if let Some(seat) = pl.tokens[slot].get().filter(|&t| t >= self.players) {
                return Err(format!("places[{k}].tokens: a token of seat {seat}"));
            }
        }
        if (0..3).all(|slot| pl.orders[slot].is_none() || pl.tokens[slot].is_some()) {
            return Err(format!(
                "places[{k}].tokens: every order has a token, yet the customer is here"
            ));
        }
        Ok(())
    }

    /// Customer decks and arrivals, the order decks against the orders asked for, and the
    /// customers arrived against those here, served and gone.
    fn check_customers(&self, s: &State) -> Result<(), String> {
        for p in 0..3 {
            let all = (1u32 << self.data.customers[p].len()) - 1;
            let (d, a) = (u32::from(s.deck[p]), u32::from(s.arrived[p]));
            if d & a != 0 || (d | a) & !all != 0 {
                return Err(format!(
                    "deck[{p}], arrived[{p}]: a customer both in the deck and arrived, or unknown"
                ));
            }
            if (d | a).count_ones() != u32::from(self.players) {
                return Err(format!(
                    "deck[{p}], arrived[{p}]: the deck had {} customers, not one per player",
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
                    "order_deck, arrived: order deck {}: {left} left after {asked} drawn",
                    r + 1
                ));
            }
        }
        let here = s.places.iter().filter(|p| p.occupied()).count() as u32;
        let arrived: u32 = s.arrived.iter().map(|a| a.count_ones()).sum();
        if arrived != here + u32::from(s.served) + u32::from(s.left_unserved) {
            return Err(format!(
                "arrived, places, served, left_unserved: {arrived} customers arrived, {here} \
                 here, {} served, {} left",
                s.served, s.left_unserved
            ));
        }
        if s.is_over() != (here == 0) {
            return Err("phase, places: the game is over exactly when no customer is left".into());
        }
        Ok(())
    }
}
