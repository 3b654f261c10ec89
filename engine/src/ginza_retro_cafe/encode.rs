//! Ginza Retro Café's fixed encoding for learners (see [`crate::encode`]). Card fields take one
//! value per card of the data file, so the lengths follow its counts (`shifu encoding --game
//! ginza-retro-cafe` prints them).
//!
//! Actions are the steps ([`Action`]): a serve names its order (place × slot), then its dice
//! one die at a time (a face each), then its help (own dice only, a common die of face 1..6,
//! or the Drink bonus); a reroll names its dice one at a time, then "roll". The choice begun
//! is observed as `picking`, `picking_order` and `picked`.

use super::action::{Action, Help};
use super::data::{MAX_CUSTOMERS, MAX_DICE, PERIODS};
use super::state::{Phase, Picking, MAX_PLAYERS, PLACES};
use super::{GinzaRetroCafe, Observation};
use crate::encode::{Blocks, Bound, Encoder, Encoding, Sink};

/// Ways to complete a serve: own dice only, a common die of face 1..6, the Drink bonus.
const HELPS: usize = 8;
/// Customer cards: `period * 16 + index`.
const CUSTOMER_CARDS: usize = PERIODS * MAX_CUSTOMERS;

impl GinzaRetroCafe {
    fn counts(&self) -> (usize, usize, usize) {
        (
            self.data.players.len(),
            self.data.bonus.len(),
            self.data.orders.len(),
        )
    }

    /// The action blocks, in [`Action`] order.
    fn blocks() -> Blocks<13> {
        Blocks::new([
            2,
            3,
            3,
            1,
            PLACES * 3,
            6,
            HELPS,
            12,
            6,
            1,
            MAX_DICE as usize + 1,
            MAX_DICE as usize + 1,
            1,
        ])
    }

    fn encode_seat<S: Sink>(&self, o: &Observation, q: usize, e: &mut Encoder<S>) {
        let s = &o.state;
        let (cards, bonus, orders) = self.counts();
        e.seat(Some(q as u8));
        for k in 0..2 {
            e.one_hot(
                ["dealt0", "dealt1"][k],
                "a player card dealt to this seat, if the observer sees it",
                s.card_dealt[q][k].index(),
                cards,
            );
        }
        e.one_hot(
            "card",
            "the chosen player card, once revealed",
            s.card[q].index(),
            cards,
        );
        e.values(
            "levels",
            "Arrange levels (Change, Reroll, Add) / 2",
            &s.levels[q].map(f32::from),
            0.5,
            0.0..=255.0,
        );
        e.scalar(
            "limit",
            "dice limit / 9",
            f32::from(s.limit[q]) / 9.0,
            Bound::count(255.0, 9.0),
        );
        e.values(
            "dice",
            "dice in the Dice area by face 1..6 / 9",
            &s.dice[q].map(f32::from),
            1.0 / 9.0,
            0.0..=255.0,
        );
        e.scalar(
            "tokens",
            "action tokens available",
            f32::from(s.tokens[q]),
            Bound::count(255.0, 1.0),
        );
        e.scalar(
            "parked",
            "action tokens parked",
            f32::from(s.parked[q]),
            Bound::count(255.0, 1.0),
        );
        e.bits(
            "parked_on",
            "where parked: Arrange cards 0..2, Dishwashing, set aside",
            u128::from(s.parked_on[q]),
            5,
        );
        e.scalar(
            "coins",
            "coins / 20",
            f32::from(s.coins[q]) / 20.0,
            Bound::count(f32::from(u16::MAX), 20.0),
        );
        e.bits(
            "won_orders",
            "order cards acquired, by order id",
            u128::from(s.won_orders[q]),
            orders,
        );
        e.scalar(
            "purple_held",
            "common dice in the personal supply",
            f32::from(s.purple_held[q]),
            Bound::count(255.0, 1.0),
        );
        e.flag(
            "bonus_used",
            "used the Drink bonus this round",
            s.bonus_used >> q & 1 == 1,
        );
        let slots = [
            ("bonus_offer0", s.bonus_offer[q][0]),
            ("bonus_offer1", s.bonus_offer[q][1]),
            ("bonus_offer2", s.bonus_offer[q][2]),
            ("bonus_hand0", s.bonus_hand[q][0]),
            ("bonus_hand1", s.bonus_hand[q][1]),
            ("bonus_passed0", s.bonus_passed[q][0]),
            ("bonus_passed1", s.bonus_passed[q][1]),
            ("bonus_discard", s.bonus_discard[q]),
        ];
        for (name, c) in slots {
            e.one_hot(
                name,
                "a bonus card, if the observer sees it (by card id)",
                c.index(),
                bonus,
            );
        }
        e.seat(None);
    }
}

impl Encoding for GinzaRetroCafe {
    fn encode<S: Sink>(&self, o: &Observation, e: &mut Encoder<S>) {
        let s = &o.state;
        let (_, _, orders) = self.counts();
        let observer = usize::from(o.seat);
        e.observer_and_players(observer, usize::from(s.players), MAX_PLAYERS);
        let (phase, seat) = match s.phase {
            Phase::ChoosePlayerCard { seat } => (0, Some(seat)),
            Phase::Draft { seat, .. } => (1, Some(seat)),
            Phase::Turn { seat } => (2, Some(seat)),
            Phase::Change { seat, .. } => (3, Some(seat)),
            Phase::Reroll { seat, .. } => (4, Some(seat)),
            Phase::Over => (5, None),
        };
        e.one_hot(
            "phase",
            "ChoosePlayerCard, Draft, Turn, Change, Reroll, Over",
            Some(phase),
            6,
        );
        e.seats_from(0);
        e.one_hot(
            "to_move",
            "the seat deciding",
            seat.map(usize::from),
            MAX_PLAYERS,
        );
        let (second, left, just) = match s.phase {
            Phase::Draft { second, .. } => (second, 0, [0; 6]),
            Phase::Change { left, .. } => (false, left, [0; 6]),
            Phase::Reroll { left, just, .. } => (false, left, just),
            _ => (false, 0, [0; 6]),
        };
        e.flag("second_pick", "the draft's second pick", second);
        e.scalar(
            "arrange_left",
            "dice changes or rerolls left / 9",
            f32::from(left) / 9.0,
            Bound::count(255.0, 9.0),
        );
        e.values(
            "just_rolled",
            "dice just rolled by face / 9 (Reroll phase)",
            &just.map(f32::from),
            1.0 / 9.0,
            0.0..=255.0,
        );
        let (picking, order) = match s.picking {
            Picking::Nothing => (0, None),
            Picking::Serve { place, slot, .. } => {
                (1, Some(usize::from(place) * 3 + usize::from(slot)))
            }
            Picking::Reroll { .. } => (2, None),
        };
        e.one_hot(
            "picking",
            "the choice begun step by step: none, a serve, a reroll",
            Some(picking),
            3,
        );
        e.one_hot(
            "picking_order",
            "the order being served (place * 3 + slot)",
            order,
            PLACES * 3,
        );
        e.values(
            "picked",
            "dice taken into the serve or picked to reroll so far, by face / 9",
            &s.picking.dice().map(f32::from),
            1.0 / 9.0,
            0.0..=255.0,
        );
        e.scalar(
            "round",
            "the round / 10",
            f32::from(s.round) / 10.0,
            Bound::count(255.0, 10.0),
        );
        e.one_hot(
            "start_player",
            "this round's start player",
            Some(usize::from(s.start_player)),
            MAX_PLAYERS,
        );
        e.one_hot(
            "first_start",
            "the first round's start player",
            Some(usize::from(s.first_start)),
            MAX_PLAYERS,
        );
        e.values(
            "common",
            "common dice in the common area by face / 9",
            &s.common.map(f32::from),
            1.0 / 9.0,
            0.0..=255.0,
        );
        for (p, pl) in s.places.iter().enumerate() {
            e.within(Some(("place", p)));
            e.one_hot(
                "customer",
                "the customer card (period * 16 + index)",
                pl.card.index(),
                CUSTOMER_CARDS,
            );
            e.scalar(
                "time",
                "rounds left on the Time marker",
                f32::from(pl.time),
                Bound::count(255.0, 1.0),
            );
            for k in 0..3 {
                e.one_hot(
                    ["order0", "order1", "order2"][k],
                    "an order card below the customer (order id)",
                    pl.orders[k].index(),
                    orders,
                );
                e.seats_from(0);
                e.one_hot(
                    ["token0", "token1", "token2"][k],
                    "the seat whose action token is on that order",
                    pl.tokens[k].index(),
                    MAX_PLAYERS,
                );
            }
        }
        e.within(None);
        e.values(
            "deck_sizes",
            "customer cards left in each time of day's deck / 16",
            &o.deck_sizes.map(|x| x as f32),
            1.0 / 16.0,
            0.0..=MAX_CUSTOMERS as f32,
        );
        for period in 0..PERIODS {
            e.within(Some(("period", period)));
            e.bits(
                "arrived",
                "customer cards of this time of day that have arrived",
                u128::from(s.arrived[period]),
                MAX_CUSTOMERS,
            );
        }
        e.within(None);
        e.bits(
            "order_deck",
            "order cards still in the Order decks",
            u128::from(s.order_deck),
            orders,
        );
        e.bits(
            "order_discard",
            "order cards discarded",
            u128::from(s.order_discard),
            orders,
        );
        e.scalar(
            "served",
            "customers served / 20",
            f32::from(s.served) / 20.0,
            Bound::count(255.0, 20.0),
        );
        e.scalar(
            "left_unserved",
            "customers who left unserved / 20",
            f32::from(s.left_unserved) / 20.0,
            Bound::count(255.0, 20.0),
        );
        for q in 0..MAX_PLAYERS {
            self.encode_seat(o, q, e);
        }
    }

    fn action_count(&self) -> usize {
        Self::blocks().total()
    }

    fn action_index(&self, a: Action) -> usize {
        let b = Self::blocks();
        let u = usize::from;
        match a {
            Action::ChooseCard(k) => b.at(0, u(k)),
            Action::Draft(k) => b.at(1, u(k)),
            Action::RaiseLevel(k) => b.at(2, u(k)),
            Action::RaiseLimit => b.at(3, 0),
            Action::Serve { place, slot } => b.at(4, u(place) * 3 + u(slot)),
            Action::ServeDie(face) => b.at(5, u(face) - 1),
            Action::ServeWith(h) => b.at(
                6,
                match h {
                    Help::Own => 0,
                    Help::Common(c) => u(c),
                    Help::Bonus => 7,
                },
            ),
            Action::Change { face, up } => b.at(7, (u(face) - 1) * 2 + usize::from(up)),
            Action::RerollDie(face) => b.at(8, u(face) - 1),
            Action::Roll => b.at(9, 0),
            Action::Add(k) => b.at(10, u(k)),
            Action::Wash(k) => b.at(11, u(k)),
            Action::Stop => b.at(12, 0),
        }
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        let (blk, k) = Self::blocks().find(index)?;
        let b = |x: usize| x as u8;
        Some(match blk {
            0 => Action::ChooseCard(b(k)),
            1 => Action::Draft(b(k)),
            2 => Action::RaiseLevel(b(k)),
            3 => Action::RaiseLimit,
            4 => Action::Serve {
                place: b(k / 3),
                slot: b(k % 3),
            },
            5 => Action::ServeDie(b(k) + 1),
            6 => Action::ServeWith(match k {
                0 => Help::Own,
                7 => Help::Bonus,
                c => Help::Common(b(c)),
            }),
            7 => Action::Change {
                face: b(k / 2) + 1,
                up: k % 2 == 1,
            },
            8 => Action::RerollDie(b(k) + 1),
            9 => Action::Roll,
            10 => Action::Add(b(k)),
            11 => Action::Wash(b(k)),
            _ => Action::Stop,
        })
    }
}
