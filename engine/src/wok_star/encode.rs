//! Wok Star's fixed encoding for learners (see [`crate::encode`]). Ingredient, recipe and
//! character fields take one value per entry of the data file, so the lengths follow its counts
//! (`shifu encoding --game wok-star` prints them). Wok Star is cooperative and every seat sees
//! the same table, so the observation differs between seats only in `observer`.
//!
//! Actions: one block a kind of [`Action`], in its order, the die step ([`Action::UseDie`]) last.
//! A preparation is three steps: its (ingredient, method), `ingredient * 4 + method` in the
//! `Prepare` block (or `PowerPrepare`'s), then two die classes, `owner * 6 + face - 1` in the
//! `UseDie` block. The pending preparation is in the observation (`preparing*` fields).

use super::action::{Action, Die};
use super::data::{CUSTOMER_SLOTS, DAYS, MAX_EVENTS, MAX_RECIPES, METHODS};
use super::state::{Closing, Phase, Short, MAX_DICE, MAX_PLAYERS, NOBODY};
use super::{Observation, WokStar};
use crate::encode::{Blocks, Bound, Encoder, Encoding, Sink};

/// Customer cards: a bit per recipe and slot.
const CUSTOMERS: usize = MAX_RECIPES * CUSTOMER_SLOTS;
/// A die class: owner and face.
const DIE_CLASSES: usize = MAX_PLAYERS * 6;
/// Seconds of table time the clocks are scaled by.
const DAY_MS: f32 = 600_000.0;

fn owner(x: u8) -> Option<usize> {
    Some(if x == NOBODY {
        MAX_PLAYERS
    } else {
        usize::from(x).min(MAX_PLAYERS - 1)
    })
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::ChooseCharacters => 0,
        Phase::ExtraDie => 1,
        Phase::GiveIngredients => 2,
        Phase::Business => 3,
        Phase::Washing => 4,
        Phase::AfterClose { .. } => 5,
        Phase::GiveCubes => 6,
        Phase::Prep => 7,
        Phase::Over => 8,
    }
}

fn closing_index(c: Closing) -> usize {
    match c {
        Closing::Open => 0,
        Closing::Chosen => 1,
        Closing::DeckDone => 2,
        Closing::TimeLimit => 3,
        Closing::AllWaited => 4,
    }
}

fn short_index(s: Short) -> usize {
    match s {
        Short::Nothing => 0,
        Short::Dice => 1,
        Short::Ingredients => 2,
        Short::Time => 3,
    }
}

fn die_index(d: Die) -> usize {
    usize::from(d.owner).min(MAX_PLAYERS - 1) * 6 + usize::from(d.face.clamp(1, 6) - 1)
}

fn die_of(i: usize) -> Die {
    Die {
        owner: (i / 6) as u8,
        face: (i % 6) as u8 + 1,
    }
}

impl WokStar {
    fn counts(&self) -> (usize, usize, usize) {
        (
            self.data.ingredients.len(),
            self.data.recipes.len(),
            self.data.characters.len(),
        )
    }

    /// The action blocks, in [`Action`] order (the die step last). A preparation begins with
    /// its (ingredient, method), then takes a die class (owner, face) a step.
    fn blocks(&self) -> Blocks<27> {
        let (i, _, c) = self.counts();
        let prepare = i * METHODS;
        let p = MAX_PLAYERS;
        Blocks::new([
            p,
            p,
            1,
            prepare,
            6,
            12 * p,
            p * p,
            p * p,
            1,
            1,
            1,
            i,
            c,
            1,
            i,
            prepare,
            36,
            1,
            1,
            1,
            p,
            3 * p,
            i,
            1,
            1,
            1,
            DIE_CLASSES,
        ])
    }

    fn prepare_index(ingredient: u8, method: u8) -> usize {
        usize::from(ingredient) * METHODS + usize::from(method)
    }

    fn prepare_of(k: usize) -> (u8, u8) {
        ((k / METHODS) as u8, (k % METHODS) as u8)
    }

    fn encode_seat<S: Sink>(&self, o: &Observation, q: usize, e: &mut Encoder<S>) {
        let s = &o.state;
        let (_, _, chars) = self.counts();
        e.seat(Some(q as u8));
        e.scalar(
            "clock",
            "table time since the day opened / 600 s",
            s.clock[q] as f32 / DAY_MS,
            Bound::measure(u32::MAX as f32 / DAY_MS, 2.0),
        );
        let mut faces = [0.0f32; 7];
        for &d in &s.dice[q][..usize::from(s.dice_count[q]).min(MAX_DICE)] {
            faces[usize::from(d).min(6)] += 1.0;
        }
        e.values(
            "dice",
            "dice by face: dirty, then faces 1 to 6 / 5",
            &faces,
            0.2,
            0.0..=MAX_DICE as f32,
        );
        e.scalar(
            "cubes",
            "Fortune cubes / 5",
            f32::from(s.cubes[q]) / 5.0,
            Bound::count(255.0, 5.0),
        );
        e.scalar(
            "on_time",
            "on-time customers today / 10",
            f32::from(s.on_time[q]) / 10.0,
            Bound::count(255.0, 10.0),
        );
        e.scalar(
            "served_count",
            "customers served today / 10",
            f32::from(s.served_count[q]) / 10.0,
            Bound::count(255.0, 10.0),
        );
        e.scalar(
            "served_total",
            "customers served over the game / 40",
            f32::from(s.served_total[q]) / 40.0,
            Bound::count(f32::from(u16::MAX), 40.0),
        );
        let c = s.character[q];
        e.one_hot(
            "character",
            "character card (Player Powers variant; zeros for none)",
            (c != NOBODY).then_some(usize::from(c)),
            chars,
        );
        e.flag(
            "power_used",
            "used its power this round",
            s.powers_used >> q & 1 == 1,
        );
        e.flag(
            "waited",
            "waited since the last other action",
            s.waited >> q & 1 == 1,
        );
        e.seat(None);
    }
}

impl Encoding for WokStar {
    fn encode<S: Sink>(&self, o: &Observation, e: &mut Encoder<S>) {
        let s = &o.state;
        let (ings, recipes, _) = self.counts();
        e.observer_and_players(usize::from(o.seat), usize::from(s.players), MAX_PLAYERS);
        e.one_hot(
            "phase",
            "ChooseCharacters, ExtraDie, GiveIngredients, Business, Washing, AfterClose, GiveCubes, Prep, Over",
            Some(phase_index(s.phase)),
            9,
        );
        let after = match s.phase {
            Phase::AfterClose { seat } => Some(usize::from(seat)),
            _ => None,
        };
        e.seats_from(0);
        e.one_hot(
            "after_close_seat",
            "the seat finishing after closing",
            after,
            MAX_PLAYERS,
        );
        e.one_hot(
            "day",
            "the day, one-hot from 0",
            Some(usize::from(s.day)),
            DAYS + 1,
        );
        e.flag("opened", "the first day has opened", s.opened);
        for (k, t) in s.timers.iter().enumerate() {
            e.within(Some(("timer", k)));
            e.scalar(
                "top",
                "sand in the top half / 30 s",
                t.top as f32 / 30_000.0,
                Bound::measure(u32::MAX as f32 / 30_000.0, 1.0),
            );
            e.scalar(
                "at",
                "table time of that reading / 600 s",
                t.at as f32 / DAY_MS,
                Bound::measure(u32::MAX as f32 / DAY_MS, 2.0),
            );
            e.flag(
                "standing",
                "standing (running while sand is left)",
                t.standing,
            );
        }
        e.within(None);
        e.scalar(
            "washes_left",
            "washes left today",
            f32::from(s.washes_left),
            Bound::count(255.0, 1.0),
        );
        e.bits(
            "tracker_cubes",
            "days whose goal cube is still on the tracker",
            u128::from(s.tracker_cubes),
            DAYS,
        );
        e.scalar(
            "cube_supply",
            "Fortune cubes in the supply / 10",
            f32::from(s.cube_supply) / 10.0,
            Bound::count(255.0, 10.0),
        );
        e.scalar(
            "cubes_to_give",
            "cubes still to hand out / 5",
            f32::from(s.cubes_to_give) / 5.0,
            Bound::count(255.0, 5.0),
        );
        e.scalar(
            "hustle_pool",
            "Hustle tokens in the pool / 5",
            f32::from(s.hustle_pool) / 5.0,
            Bound::count(255.0, 5.0),
        );
        e.scalar(
            "hustle_supply",
            "Hustle tokens in the supply / 5",
            f32::from(s.hustle_supply) / 5.0,
            Bound::count(255.0, 5.0),
        );
        e.scalar(
            "hustle_covering",
            "Hustle tokens covering methods / 5",
            f32::from(s.hustle_covering) / 5.0,
            Bound::count(255.0, 5.0),
        );
        for r in 0..recipes {
            e.within(Some(("recipe", r)));
            e.seats_from(0);
            e.one_hot(
                "owner",
                "owner seat, last: not in play",
                owner(s.recipe_owner[r]),
                MAX_PLAYERS + 1,
            );
        }
        for k in 0..ings {
            e.within(Some(("ingredient", k)));
            e.seats_from(0);
            e.one_hot(
                "owner",
                "owner seat, last: nobody",
                owner(s.ingredient_owner[k]),
                MAX_PLAYERS + 1,
            );
            e.flag(
                "pending",
                "waiting to be handed out",
                s.pending >> k & 1 == 1,
            );
            e.scalar(
                "upgrades",
                "methods uncovered by upgrades",
                f32::from(s.upgrades[k]),
                Bound::count(255.0, 1.0),
            );
            e.scalar(
                "track",
                "the token's slot on the track / 10",
                f32::from(s.track[k]) / 10.0,
                Bound::count(255.0, 10.0),
            );
        }
        e.within(None);
        e.bits(
            "deck",
            "customer cards in the Regular deck (recipe * 8 + slot; coupons folded out)",
            s.deck,
            CUSTOMERS,
        );
        e.bits(
            "coupons",
            "Coupon customers in the Coupon pile",
            s.coupons,
            CUSTOMERS,
        );
        e.bits("served", "customers served today", s.served, CUSTOMERS);
        e.one_hot(
            "customer",
            "the customer waiting",
            s.customer.map(usize::from),
            CUSTOMERS,
        );
        e.scalar(
            "advertised",
            "Coupon customers shuffled into the deck / 5",
            o.advertised as f32 / 5.0,
            Bound::count(CUSTOMERS as f32, 5.0),
        );
        e.scalar(
            "late",
            "customers served late today / 10",
            f32::from(s.late) / 10.0,
            Bound::count(255.0, 10.0),
        );
        e.scalar(
            "income",
            "today's income / 100",
            s.income as f32 / 100.0,
            Bound::signed(i32::MIN as f32, i32::MAX as f32, 100.0),
        );
        e.one_hot(
            "closing",
            "Open, Chosen, DeckDone, TimeLimit, AllWaited",
            Some(closing_index(s.closing)),
            5,
        );
        e.scalar(
            "money",
            "money for Next Day Prep / 100",
            s.money as f32 / 100.0,
            Bound::signed(i32::MIN as f32, i32::MAX as f32, 100.0),
        );
        for (k, &r) in s.offer.iter().enumerate() {
            e.within(Some(("offer", k)));
            e.one_hot(
                "recipe",
                "recipe on offer in Next Day Prep",
                (r != NOBODY).then_some(usize::from(r)),
                recipes,
            );
        }
        e.within(None);
        e.seats_from(0);
        e.one_hot(
            "second_cube",
            "seat with a second cube move pending",
            s.second_cube.map(usize::from),
            MAX_PLAYERS,
        );
        e.scalar(
            "days_met",
            "days whose goal was met",
            f32::from(s.days_met),
            Bound::count(255.0, 1.0),
        );
        e.scalar(
            "margin",
            "last income checked minus its goal / 100",
            s.margin as f32 / 100.0,
            Bound::signed(i32::MIN as f32, i32::MAX as f32, 100.0),
        );
        for d in 0..DAYS {
            e.within(Some(("day", d)));
            e.scalar(
                "income",
                "the day's income / 100",
                s.day_income[d] as f32 / 100.0,
                Bound::signed(i32::MIN as f32, i32::MAX as f32, 100.0),
            );
            e.one_hot(
                "closing",
                "why the day closed (as `closing`)",
                Some(closing_index(s.day_closing[d])),
                5,
            );
            e.one_hot(
                "short",
                "Nothing, Dice, Ingredients, Time",
                Some(short_index(s.day_short[d])),
                4,
            );
        }
        e.within(None);
        e.scalar(
            "late_total",
            "customers served late over the game / 40",
            f32::from(s.late_total) / 40.0,
            Bound::count(f32::from(u16::MAX), 40.0),
        );
        e.bits(
            "on_time_cards",
            "customers served on time today",
            s.on_time_cards,
            CUSTOMERS,
        );
        e.bits(
            "event_box",
            "event cards not in play (face down beside the board or in the deck)",
            u128::from(s.event_box),
            MAX_EVENTS,
        );
        e.scalar(
            "events_in_deck",
            "event cards shuffled into the deck",
            o.events_in_deck as f32,
            Bound::count(MAX_EVENTS as f32, 1.0),
        );
        e.bits(
            "events_today",
            "event cards that appeared today",
            u128::from(s.events_today),
            MAX_EVENTS,
        );
        e.bits(
            "events_gone",
            "event cards discarded",
            u128::from(s.events_gone),
            MAX_EVENTS,
        );
        e.one_hot(
            "event",
            "the event showing",
            s.event.map(usize::from),
            MAX_EVENTS,
        );
        e.scalar(
            "event_at",
            "when it was revealed / 600 s",
            s.event_at as f32 / DAY_MS,
            Bound::measure(u32::MAX as f32 / DAY_MS, 2.0),
        );
        e.flag(
            "double_next",
            "the next customer pays double (Catering Order)",
            s.double_next,
        );
        e.seats_from(0);
        e.one_hot(
            "choosing",
            "seat choosing an ingredient (Grandma's Pantry)",
            s.choose.map(|c| usize::from(c.0)),
            MAX_PLAYERS,
        );
        e.scalar(
            "choosing_steps",
            "by how much it moves",
            f32::from(s.choose.map_or(0, |c| c.1)),
            Bound::count(255.0, 1.0),
        );
        e.one_hot(
            "last_recipe",
            "recipe of the last customer served today",
            (s.last_recipe != NOBODY).then_some(usize::from(s.last_recipe)),
            recipes,
        );
        let p = s.preparing;
        e.flag(
            "preparing",
            "a preparation is pending between its steps",
            p.is_some(),
        );
        e.flag(
            "preparing_power",
            "it was begun by Papa Wang's power (no cubes)",
            p.is_some_and(|p| p.power),
        );
        e.one_hot(
            "preparing_ingredient",
            "its ingredient",
            p.map(|p| usize::from(p.ingredient)),
            ings,
        );
        e.one_hot(
            "preparing_method",
            "its method",
            p.map(|p| usize::from(p.method)),
            METHODS,
        );
        e.one_hot(
            "preparing_first_die",
            "its first die once taken: owner * 6 + face - 1",
            p.and_then(|p| p.first).map(die_index),
            DIE_CLASSES,
        );
        for q in 0..MAX_PLAYERS {
            self.encode_seat(o, q, e);
        }
    }

    fn action_count(&self) -> usize {
        self.blocks().total()
    }

    fn action_index(&self, a: Action) -> usize {
        let b = self.blocks();
        let u = usize::from;
        let p = MAX_PLAYERS;
        match a {
            Action::ExtraDie(x) => b.at(0, u(x)),
            Action::GiveIngredient(x) => b.at(1, u(x)),
            Action::Serve => b.at(2, 0),
            Action::Prepare { ingredient, method } => {
                b.at(3, Self::prepare_index(ingredient, method))
            }
            Action::UseDie(d) => b.at(26, die_index(d)),
            Action::GainHustle(f) => b.at(4, u(f) - 1),
            Action::Rotate { owner, face, up } => {
                b.at(5, u(owner) * 12 + (u(face) - 1) * 2 + usize::from(up))
            }
            Action::HustleCubes { from, to } => b.at(6, u(from) * p + u(to)),
            Action::SecondCube { from, to } => b.at(7, u(from) * p + u(to)),
            Action::NoSecondCube => b.at(8, 0),
            Action::Wash => b.at(9, 0),
            Action::EndWash => b.at(10, 0),
            Action::ChooseIngredient(x) => b.at(11, u(x)),
            Action::Character(x) => b.at(12, u(x)),
            Action::UsePower => b.at(13, 0),
            Action::PowerServe { using } => b.at(14, u(using)),
            Action::PowerPrepare { ingredient, method } => {
                b.at(15, Self::prepare_index(ingredient, method))
            }
            Action::SetDie { face, to } => b.at(16, (u(face) - 1) * 6 + u(to) - 1),
            Action::Wait => b.at(17, 0),
            Action::Close => b.at(18, 0),
            Action::Done => b.at(19, 0),
            Action::GiveCube(x) => b.at(20, u(x)),
            Action::BuyRecipe { slot, seat } => b.at(21, u(slot) * p + u(seat)),
            Action::Upgrade(x) => b.at(22, u(x)),
            Action::BuyHustle => b.at(23, 0),
            Action::Advertise => b.at(24, 0),
            Action::OpenDay => b.at(25, 0),
        }
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        let (blk, k) = self.blocks().find(index)?;
        let p = MAX_PLAYERS;
        let b = |x: usize| x as u8;
        Some(match blk {
            0 => Action::ExtraDie(b(k)),
            1 => Action::GiveIngredient(b(k)),
            2 => Action::Serve,
            3 | 15 => {
                let (ingredient, method) = Self::prepare_of(k);
                if blk == 3 {
                    Action::Prepare { ingredient, method }
                } else {
                    Action::PowerPrepare { ingredient, method }
                }
            }
            4 => Action::GainHustle(b(k) + 1),
            5 => Action::Rotate {
                owner: b(k / 12),
                face: b(k % 12 / 2) + 1,
                up: k % 2 == 1,
            },
            6 => Action::HustleCubes {
                from: b(k / p),
                to: b(k % p),
            },
            7 => Action::SecondCube {
                from: b(k / p),
                to: b(k % p),
            },
            8 => Action::NoSecondCube,
            9 => Action::Wash,
            10 => Action::EndWash,
            11 => Action::ChooseIngredient(b(k)),
            12 => Action::Character(b(k)),
            13 => Action::UsePower,
            14 => Action::PowerServe { using: b(k) },
            16 => Action::SetDie {
                face: b(k / 6) + 1,
                to: b(k % 6) + 1,
            },
            17 => Action::Wait,
            18 => Action::Close,
            19 => Action::Done,
            20 => Action::GiveCube(b(k)),
            21 => Action::BuyRecipe {
                slot: b(k / p),
                seat: b(k % p),
            },
            22 => Action::Upgrade(b(k)),
            23 => Action::BuyHustle,
            24 => Action::Advertise,
            25 => Action::OpenDay,
            _ => Action::UseDie(die_of(k)),
        })
    }
}
