//! Applying an action.

use super::action::{Action, Die, Preparing};
use super::clock::flip_emptier;
use super::data::CUSTOMER_SLOTS;
use super::setup::draw_bit;
use super::state::{Closing, Phase, State, DIRTY, NOBODY};
use super::WokStar;
use rand::Rng;

impl WokStar {
    pub(crate) fn play<R: Rng + ?Sized>(&self, s: &mut State, a: Action, rng: &mut R) {
        // A preparation's first two steps only record what is chosen; the last completes it.
        let completed = match a {
            Action::Prepare { ingredient, method }
            | Action::PowerPrepare { ingredient, method } => {
                s.preparing = Some(Preparing {
                    power: matches!(a, Action::PowerPrepare { .. }),
                    ingredient,
                    method,
                    first: None,
                });
                return;
            }
            Action::UseDie(d) => match s.preparing.take() {
                Some(p) => match p.first {
                    None => {
                        s.preparing = Some(Preparing {
                            first: Some(d),
                            ..p
                        });
                        return;
                    }
                    Some(first) => Some((p, first)),
                },
                None => return,
            },
            _ => None,
        };
        self.play_turn(s, a, completed, rng);
    }

    /// Applies a complete choice: `a`, or with `completed = Some((p, first))` and
    /// `a = UseDie(second)`, the preparation `p` with both dice.
    pub(crate) fn play_turn<R: Rng + ?Sized>(
        &self,
        s: &mut State,
        a: Action,
        completed: Option<(Preparing, Die)>,
        rng: &mut R,
    ) {
        s.steps += 1;
        let d = &self.durations;
        let seat = match s.phase {
            Phase::Business | Phase::Washing => self.to_move_in_play(s),
            Phase::AfterClose { seat } => seat,
            _ => 0,
        };
        let i = seat as usize;
        let now = s.clock[i];
        let in_play = matches!(s.phase, Phase::Business | Phase::Washing);
        // A wait counts towards closing only while no event shows: then nothing but the clock
        // can change until somebody acts.
        let passing = matches!(a, Action::Wait) && s.event.is_none();
        let mut spent = 0u32;
        match a {
            Action::Character(c) => {
                if let Some(k) = s.character[..self.players as usize]
                    .iter()
                    .position(|&x| x == NOBODY)
                {
                    s.character[k] = c;
                }
                if !s.character[..self.players as usize].contains(&NOBODY) {
                    s.phase = self.after_characters();
                }
            }
            Action::UsePower | Action::SetDie { .. } => {
                spent = self.use_power(s, seat, now, a, rng);
            }
            Action::PowerServe { using } => {
                s.powers_used |= 1 << seat;
                spent = d.serve;
                self.serve_with(s, seat, now, Some(using), rng);
            }
            Action::UseDie(b) => {
                if let Some((p, a)) = completed {
                    if p.power {
                        s.powers_used |= 1 << seat;
                    }
                    let (k, m) = (p.ingredient, p.method);
                    let foreign = self.prepare(s, seat, k, m, a, b, p.power);
                    spent = d.prepare + d.pass * u32::from(foreign);
                }
            }
            Action::Prepare { .. } | Action::PowerPrepare { .. } => {}
            Action::ExtraDie(to) => {
                s.dice_count[to as usize] += self.data.rulebook.two_player_extra_dice;
                s.phase = Phase::GiveIngredients;
                if s.pending == 0 {
                    self.open_day(s, rng);
                }
            }
            Action::GiveIngredient(to) => {
                let k = s.pending.trailing_zeros() as usize;
                s.pending &= !(1 << k);
                s.ingredient_owner[k] = to;
                if s.pending == 0 {
                    if s.opened {
                        s.phase = Phase::Prep;
                    } else {
                        self.open_day(s, rng);
                    }
                }
            }
            Action::Serve => {
                spent = d.serve;
                self.serve(s, seat, now, rng);
            }
            Action::GainHustle(face) => {
                s.use_die(i, face);
                s.hustle_supply -= 1;
                s.hustle_pool += 1;
                spent = d.hustle;
            }
            Action::Rotate { owner, face, up } => {
                let o = owner as usize;
                let n = s.dice_count[o] as usize;
                if let Some(die) = s.dice[o][..n].iter_mut().find(|x| **x == face) {
                    // "You may also rotate a 1 to a 6 and a 6 to a 1."
                    *die = if up { face % 6 + 1 } else { (face + 4) % 6 + 1 };
                }
                s.hustle_pool -= 1;
                s.hustle_supply += 1;
                spent = d.hustle;
            }
            Action::HustleCubes { from, to } => {
                s.hustle_pool -= 1;
                s.hustle_supply += 1;
                s.cubes[from as usize] -= 1;
                s.cubes[to as usize] += 1;
                // "Move 2 Fortune cubes": the second follows, unless only this one is there.
                if self.cubes_at_table(s) >= 2 {
                    s.second_cube = Some(seat);
                }
                spent = d.hustle + d.pass;
            }
            Action::SecondCube { from, to } => {
                s.cubes[from as usize] -= 1;
                s.cubes[to as usize] += 1;
                s.second_cube = None;
                spent = d.pass;
            }
            Action::NoSecondCube => s.second_cube = None,
            Action::Wash => {
                s.washes_left -= 1;
                // "Stop both 30-second timers by laying them on their side."
                for t in &mut s.timers {
                    t.lay_down(now);
                }
                s.phase = Phase::Washing;
                spent = d.wash;
            }
            Action::EndWash => self.end_wash(s, now, rng),
            Action::Wait => spent = d.wait,
            Action::ChooseIngredient(k) => self.choose_ingredient(s, k),
            Action::Close => self.close_day(s, Closing::Chosen),
            Action::Done => {
                if seat + 1 < self.players {
                    s.phase = Phase::AfterClose { seat: seat + 1 };
                } else {
                    self.account(s, rng);
                }
            }
            Action::GiveCube(to) => {
                s.cubes[to as usize] += 1;
                s.cubes_to_give -= 1;
                if s.cubes_to_give == 0 {
                    self.start_prep(s, rng);
                }
            }
            Action::BuyRecipe { slot, seat: to } => {
                let r = s.offer[slot as usize] as usize;
                s.money -= i32::from(self.data.recipes[r].price);
                s.offer[slot as usize] = NOBODY;
                self.add_recipe(s, r, to);
                self.after_purchase(s, rng);
                if s.pending != 0 {
                    s.phase = Phase::GiveIngredients;
                }
            }
            Action::Upgrade(k) => {
                s.money -= i32::from(self.data.rulebook.upgrade_price);
                s.upgrades[k as usize] += 1;
                // "Remove 1 Hustle token from the leftmost covered method ... Add the Hustle
                // token to your collective Hustle pool."
                if s.hustle_covering > 0 {
                    s.hustle_covering -= 1;
                    s.hustle_pool += 1;
                }
            }
            Action::BuyHustle => {
                s.money -= i32::from(self.data.rulebook.hustle_price);
                s.hustle_supply -= 1;
                s.hustle_pool += 1;
            }
            Action::Advertise => {
                // "Flip the Coupon deck face-down and shuffle it. Take any number of cards and,
                // without looking at them, shuffle them into the Regular deck."
                let c = draw_bit(s.coupons, rng);
                s.coupons &= !(1u128 << c);
                s.deck |= 1u128 << c;
            }
            Action::OpenDay => {
                s.day += 1;
                s.money = 0; // "Unspent money is lost."
                s.offer = [NOBODY; 3];
                self.open_day(s, rng);
            }
        }
        if in_play {
            // (The end of a wash may already have moved the clock on by a roll.)
            s.clock[i] = s.clock[i].max(now.saturating_add(spent));
            if passing {
                s.waited |= 1 << seat;
            } else {
                s.waited = 0;
            }
            if s.phase == Phase::Business && self.resolve_events(s, rng) {
                self.close_day(s, Closing::DeckDone);
                return;
            }
            let settled =
                s.phase == Phase::Business && s.second_cube.is_none() && s.choose.is_none();
            if settled && self.all_waited(s) {
                self.close_day(s, Closing::AllWaited);
            } else if settled && s.clock[self.earliest(s) as usize] >= d.max_day {
                self.close_day(s, Closing::TimeLimit);
            }
        }
    }

    /// Whether the open rule `all_wait_closes` is on and every seat has waited in turn since the
    /// last other action: the team will not serve.
    pub(crate) fn all_waited(&self, s: &State) -> bool {
        self.params.all_wait_closes && u16::from(s.waited) == (1u16 << self.players) - 1
    }

    fn serve<R: Rng + ?Sized>(&self, s: &mut State, seat: u8, now: u32, rng: &mut R) {
        self.serve_with(s, seat, now, None, rng)
    }

    /// Serves the current customer; with `using`, that ingredient stands in for the one
    /// required ingredient on the bottom slot (Grandpa Wang's power).
    fn serve_with<R: Rng + ?Sized>(
        &self,
        s: &mut State,
        seat: u8,
        now: u32,
        using: Option<u8>,
        rng: &mut R,
    ) {
        let Some(c) = s.customer else { return };
        let r = c as usize / CUSTOMER_SLOTS;
        // Catering Order: "the next customer's dish must be prepared twice but pays double".
        let times: u8 = if s.double_next { 2 } else { 1 };
        let missing = using
            .and_then(|_| self.substitution(s, seat))
            .map(|(m, _)| m);
        s.double_next = false;
        for &k in &self.data.recipes[r].ingredients {
            if Some(k) != missing {
                s.track[k as usize] -= times;
            }
        }
        if let (Some(k), Some(_)) = (using, missing) {
            s.track[k as usize] -= times;
        }
        let at_empty = self.params.on_time_at_empty;
        let on_time = s.timers.iter().any(|t| t.running(now, at_empty));
        let (income, _) = self.customer_income(c);
        let i = seat as usize;
        let income = i32::from(income) * i32::from(times);
        if on_time {
            s.income += income;
            s.on_time[i] += 1;
            s.on_time_cards |= 1u128 << c;
        } else {
            // "It's worth $1 less at the end of the round."
            s.income += income - i32::from(self.data.rulebook.late_penalty);
            s.late += 1;
        }
        // Chris Wang: "when you serve a customer of the same recipe as the previous customer".
        if let Some(super::data::Power::SameRecipeBonus(bonus)) = self.power(s, seat) {
            if s.last_recipe == r as u8 {
                s.income += i32::from(bonus);
                s.powers_used |= 1 << seat;
            }
        }
        s.last_recipe = r as u8;
        s.served_count[i] += 1;
        s.served_total[i] += 1;
        if !on_time {
            s.late_total += 1;
        }
        s.served |= 1u128 << c;
        // "As soon as you serve a customer you must flip one of the timers and reveal the next
        // Customer card."
        flip_emptier(&mut s.timers, now, self.capacity, self.params.timer_flip);
        self.reveal_at(s, seat, now, rng);
        if s.customer.is_none() && s.event.is_none() {
            self.close_day(s, Closing::DeckDone);
        }
    }

    /// Prepares an ingredient; returns how many of the dice were other players'. With `free`,
    /// other players' dice cost no cube (Papa Wang's power).
    #[allow(clippy::too_many_arguments)]
    fn prepare(&self, s: &mut State, seat: u8, k: u8, m: u8, a: Die, b: Die, free: bool) -> u8 {
        let mut foreign = 0;
        for die in [a, b] {
            s.use_die(die.owner as usize, die.face);
            if die.owner != seat && free {
                foreign += 1;
            } else if die.owner != seat {
                // "You must hand a player 1 of your Fortune cubes when you take 1 of their dice."
                s.cubes[seat as usize] -= 1;
                s.cubes[die.owner as usize] += 1;
                foreign += 1;
            }
        }
        let gain = self.data.ingredients[k as usize].methods[m as usize].gain;
        let t = &mut s.track[k as usize];
        *t = (*t + gain).min(self.data.track.max);
        foreign
    }

    fn end_wash<R: Rng + ?Sized>(&self, s: &mut State, now: u32, rng: &mut R) {
        // "Stand up the timers and flip one over to start the timer again."
        for t in &mut s.timers {
            t.stand_up(now);
        }
        flip_emptier(&mut s.timers, now, self.capacity, self.params.timer_flip);
        // "Each player takes all their dice from the Dirty Dishes and rolls them."
        for i in 0..self.players as usize {
            let n = s.dice_count[i] as usize;
            let mut rolled = false;
            for die in &mut s.dice[i][..n] {
                if *die == DIRTY {
                    *die = rng.gen_range(1..=6);
                    rolled = true;
                }
            }
            if rolled {
                s.clock[i] = s.clock[i].max(now) + self.durations.roll;
            }
        }
        s.phase = Phase::Business;
    }
}
