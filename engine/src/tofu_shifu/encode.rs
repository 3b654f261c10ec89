//! Tofu Shifu's fixed encoding for learners (see [`crate::encode`]). Card and customer-tile
//! sets take one value per card or tile of the card file, so the lengths follow the file's
//! counts (`shifu encoding --game tofu-shifu` prints them for the data given).

use super::state::Phase;
use super::types::*;
use super::{Action, Observation, TofuShifu};
use crate::encode::{Blocks, Bound, Encoder, Encoding, Sink};

const PHASES: usize = 14;

/// Field names of the table seats, table-major.
const CUSTOMER: [&str; MAX_TABLES * SEATS_PER_TABLE] = [
    "table0_seat0_customer",
    "table0_seat1_customer",
    "table1_seat0_customer",
    "table1_seat1_customer",
    "table2_seat0_customer",
    "table2_seat1_customer",
    "table3_seat0_customer",
    "table3_seat1_customer",
];
const SERVED: [&str; MAX_TABLES * SEATS_PER_TABLE] = [
    "table0_seat0_served",
    "table0_seat1_served",
    "table1_seat0_served",
    "table1_seat1_served",
    "table2_seat0_served",
    "table2_seat1_served",
    "table3_seat0_served",
    "table3_seat1_served",
];

fn phase_index(p: Phase) -> usize {
    p as usize
}

impl TofuShifu {
    fn counts(&self) -> (usize, usize) {
        (self.data.cards.len(), self.data.customers.len())
    }

    fn seat_extras(&self) -> usize {
        self.data
            .seat_extra_options
            .len()
            .max(self.data.seat_extra_options_copied.len())
    }

    /// The action blocks, in [`Action`] order.
    fn blocks(&self) -> Blocks<23> {
        let (c, t) = self.counts();
        Blocks::new([
            MAX_TOWN_OBJECTIVES,
            MAX_PLAYER_OBJECTIVES,
            Space::ALL.len(),
            1,
            Space::ALL.len(),
            c,
            Hat::ALL.len(),
            c,
            self.seat_extras(),
            1,
            t * MAX_TABLES,
            t,
            MAX_TABLES * SEATS_PER_TABLE * 4,
            4,
            1,
            MAX_TABLES * (c + 1),
            1,
            MAX_MARKET,
            MAX_MARKET,
            1,
            c,
            c,
            1,
        ])
    }

    fn encode_player<S: Sink>(&self, o: &Observation, q: usize, e: &mut Encoder<S>) {
        let (c, t) = self.counts();
        let p = &o.public.players[q];
        e.seat(Some(q as u8));
        e.scalar(
            "coins",
            "coins / 20",
            f32::from(p.coins) / 20.0,
            Bound::count(f32::from(u16::MAX), 20.0),
        );
        e.one_hot(
            "marker",
            "the space of the Shifu marker (Upgrade, Produce, Seat, Serve, Checkout, Hire, Set Objective, Copy, Rest)",
            Some(usize::from(p.marker)),
            Space::ALL.len(),
        );
        e.bits(
            "hand_seen",
            "hand cards the observer can see (all its own; others' cards shown to the table), by card id",
            p.hand,
            c,
        );
        e.scalar(
            "hand_hidden",
            "hand cards the observer cannot see / 10",
            o.hidden_hand_sizes[q] as f32 / 10.0,
            Bound::count(c as f32, 10.0),
        );
        e.bits("rest", "cards in the rest area, by card id", p.rest, c);
        e.bits("upgrades", "upgrade cards, by card id", p.upgrades, c);
        e.bits(
            "objective_zone",
            "restaurant objective cards set, by card id",
            p.objective_zone,
            c,
        );
        e.bits(
            "restaurant_done",
            "restaurant objectives completed, by card id",
            p.restaurant_done,
            c,
        );
        e.bits(
            "town_done",
            "town objectives completed, by index in the card file",
            u128::from(p.town_done),
            MAX_TOWN_OBJECTIVES,
        );
        e.bits(
            "player_done",
            "player objectives completed, by index",
            u128::from(p.player_done),
            MAX_PLAYER_OBJECTIVES,
        );
        e.bits(
            "bonuses",
            "town-objective bonus powers held",
            u128::from(p.bonuses),
            16,
        );
        e.values(
            "dishes",
            "dish tokens (Soymilk, Silken Tofu, Tofu, Dried Tofu) / 5",
            &p.dishes.map(f32::from),
            0.2,
            0.0..=255.0,
        );
        e.values(
            "hats",
            "hat tokens (Chef, Waiter, Cashier, Master) / 5",
            &p.hats.map(f32::from),
            0.2,
            0.0..=255.0,
        );
        e.scalar(
            "loose_master",
            "loose Master hats / 5",
            f32::from(p.loose_master) / 5.0,
            Bound::count(255.0, 5.0),
        );
        e.values(
            "dish_flags",
            "dish flags by dish",
            &p.dish_flags.map(f32::from),
            1.0,
            0.0..=255.0,
        );
        e.values(
            "hat_flags",
            "hat flags by hat",
            &p.hat_flags.map(f32::from),
            1.0,
            0.0..=255.0,
        );
        e.scalar(
            "lanterns",
            "lanterns / 5",
            f32::from(p.lanterns) / 5.0,
            Bound::count(255.0, 5.0),
        );
        for table in 0..MAX_TABLES {
            for seat in 0..SEATS_PER_TABLE {
                let k = table * SEATS_PER_TABLE + seat;
                e.one_hot(
                    CUSTOMER[k],
                    "the customer tile at this table seat, by tile id",
                    p.tables[table][seat].index(),
                    t,
                );
                e.bits(
                    SERVED[k],
                    "dishes served to that customer (bit per dish)",
                    u128::from(p.served[table][seat]),
                    4,
                );
            }
        }
        e.seat(None);
    }
}

impl Encoding for TofuShifu {
    fn encode<S: Sink>(&self, o: &Observation, e: &mut Encoder<S>) {
        let s = &o.public;
        let (c, t) = self.counts();
        let turn = &s.turn;
        e.observer_and_players(
            usize::from(o.observer),
            usize::from(s.num_players),
            MAX_PLAYERS,
        );
        e.seats_from(0);
        e.one_hot(
            "current",
            "the seat to move",
            Some(usize::from(s.current)),
            MAX_PLAYERS,
        );
        e.scalar(
            "round",
            "the round / 50",
            f32::from(s.round) / 50.0,
            Bound::count(f32::from(u16::MAX), 50.0),
        );
        e.one_hot(
            "phase",
            "the turn's phase (TurnStart, CopyTarget, ChooseCard, PayHats, SeatExtra, PlaceTiles, Serve, Checkout, Hire, RestBuy, RestDiscard, RestKeep, TurnEnd, GameOver)",
            Some(phase_index(turn.phase)),
            PHASES,
        );
        e.one_hot(
            "action",
            "the space whose action the turn is taking",
            Some(turn.action as usize),
            Space::ALL.len(),
        );
        e.flag("copied", "the action is copied", turn.copied);
        e.one_hot(
            "card",
            "the card being used, by card id",
            turn.card.index(),
            c,
        );
        e.values(
            "pending",
            "hats still to pay (Chef, Waiter, Cashier, Master, Apprentice) / 5",
            &turn.pending.map(f32::from),
            0.2,
            0.0..=255.0,
        );
        e.flag(
            "paying_extra",
            "paying for extra customers",
            turn.paying_extra,
        );
        e.scalar(
            "extra",
            "extra customers paid / 5",
            f32::from(turn.extra) / 5.0,
            Bound::count(255.0, 5.0),
        );
        e.scalar(
            "cursor",
            "the phase's cursor (increasing-order choices) / 128",
            f32::from(turn.cursor) / 128.0,
            Bound::count(255.0, 128.0),
        );
        e.scalar(
            "market_left",
            "market sales left this turn",
            f32::from(turn.market_left),
            Bound::count(255.0, 1.0),
        );
        e.bits("kept", "cards kept at rest, by card id", turn.kept, c);
        e.flag(
            "town_claimed",
            "a town objective was claimed this turn",
            turn.town_claimed,
        );
        e.flag(
            "objective_claimed",
            "an objective was claimed this turn",
            turn.objective_claimed,
        );
        e.scalar(
            "deck",
            "cards in the deck / 50",
            o.deck_size as f32 / 50.0,
            Bound::count(c as f32, 50.0),
        );
        for slot in 0..MAX_MARKET {
            e.within(Some(("market", slot)));
            e.one_hot(
                "card",
                "the market card in this slot, by card id",
                s.market[slot].index(),
                c,
            );
        }
        e.within(None);
        e.bits(
            "bag",
            "customer tiles in the bag, by tile id",
            u128::from(s.bag),
            t,
        );
        e.bits(
            "drawn",
            "customer tiles drawn and not yet placed",
            u128::from(s.drawn),
            t,
        );
        e.bits(
            "town_display",
            "town objectives in the face-up display, by index",
            u128::from(s.town_display),
            MAX_TOWN_OBJECTIVES,
        );
        e.scalar(
            "coin_stack_taken",
            "coin-stack objectives taken / 8",
            f32::from(s.coin_stack_taken) / 8.0,
            Bound::count(255.0, 8.0),
        );
        e.values(
            "reserve_dishes",
            "dish tokens in the reserve / 20",
            &s.reserve_dishes.map(f32::from),
            0.05,
            f32::from(i16::MIN)..=f32::from(i16::MAX),
        );
        e.values(
            "reserve_hats",
            "hat tokens in the reserve / 20",
            &s.reserve_hats.map(f32::from),
            0.05,
            f32::from(i16::MIN)..=f32::from(i16::MAX),
        );
        e.scalar(
            "reserve_coins",
            "coins in the reserve / 100",
            s.reserve_coins as f32 / 100.0,
            Bound::signed(i32::MIN as f32, i32::MAX as f32, 100.0),
        );
        e.flag(
            "coins_out",
            "the coin reserve has run out",
            s.coins_out_round != 0,
        );
        e.flag("deck_out", "the deck has run out", s.deck_out_round != 0);
        e.seats_from(0);
        e.one_hot(
            "end_trigger",
            "the seat that triggered the game end",
            s.end_trigger.index(),
            MAX_PLAYERS,
        );
        for q in 0..MAX_PLAYERS {
            self.encode_player(o, q, e);
        }
    }

    fn action_count(&self) -> usize {
        self.blocks().total()
    }

    fn action_index(&self, a: Action) -> usize {
        let b = self.blocks();
        let (c, _) = self.counts();
        let u = usize::from;
        match a {
            Action::ClaimTown(i) => b.at(0, u(i)),
            Action::ClaimPlayer(i) => b.at(1, u(i)),
            Action::Move(sp) => b.at(2, sp as usize),
            Action::Pass => b.at(3, 0),
            Action::CopyTarget(sp) => b.at(4, sp as usize),
            Action::ChooseCard(x) => b.at(5, u(x)),
            Action::PayToken(h) => b.at(6, h as usize),
            Action::PayCard(x) => b.at(7, u(x)),
            Action::SeatExtra(i) => b.at(8, u(i)),
            Action::SeatDraw => b.at(9, 0),
            Action::PlaceTile { tile, table } => b.at(10, u(tile) * MAX_TABLES + u(table)),
            Action::ReturnTile(x) => b.at(11, u(x)),
            Action::ServeCustomer { table, seat, dish } => b.at(
                12,
                (u(table) * SEATS_PER_TABLE + u(seat)) * 4 + dish as usize,
            ),
            Action::SellToMarket(d) => b.at(13, d as usize),
            Action::EndServe => b.at(14, 0),
            Action::CleanTable { table, objective } => {
                b.at(15, u(table) * (c + 1) + objective.index().unwrap_or(c))
            }
            Action::EndCheckout => b.at(16, 0),
            Action::Hire(i) => b.at(17, u(i)),
            Action::Buy(i) => b.at(18, u(i)),
            Action::EndBuying => b.at(19, 0),
            Action::ReturnCard(x) => b.at(20, u(x)),
            Action::KeepCard(x) => b.at(21, u(x)),
            Action::EndTurn => b.at(22, 0),
        }
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        let (blk, k) = self.blocks().find(index)?;
        let (c, _) = self.counts();
        let b = |x: usize| x as u8;
        Some(match blk {
            0 => Action::ClaimTown(b(k)),
            1 => Action::ClaimPlayer(b(k)),
            2 => Action::Move(Space::ALL[k]),
            3 => Action::Pass,
            4 => Action::CopyTarget(Space::ALL[k]),
            5 => Action::ChooseCard(b(k)),
            6 => Action::PayToken(Hat::ALL[k]),
            7 => Action::PayCard(b(k)),
            8 => Action::SeatExtra(b(k)),
            9 => Action::SeatDraw,
            10 => Action::PlaceTile {
                tile: b(k / MAX_TABLES),
                table: b(k % MAX_TABLES),
            },
            11 => Action::ReturnTile(b(k)),
            12 => Action::ServeCustomer {
                table: b(k / (SEATS_PER_TABLE * 4)),
                seat: b(k / 4 % SEATS_PER_TABLE),
                dish: Dish::ALL[k % 4],
            },
            13 => Action::SellToMarket(Dish::ALL[k]),
            14 => Action::EndServe,
            15 => Action::CleanTable {
                table: b(k / (c + 1)),
                objective: if k % (c + 1) == c {
                    CardId::NONE
                } else {
                    CardId::new(b(k % (c + 1)))
                },
            },
            16 => Action::EndCheckout,
            17 => Action::Hire(b(k)),
            18 => Action::Buy(b(k)),
            19 => Action::EndBuying,
            20 => Action::ReturnCard(b(k)),
            21 => Action::KeepCard(b(k)),
            _ => Action::EndTurn,
        })
    }
}
