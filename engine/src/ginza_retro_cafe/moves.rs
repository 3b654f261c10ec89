//! The legal steps ([`Action`]): every complete choice ([`Choice`], listed in `choices.rs`) taken
//! as small steps. A serve: its order, then (a Drink) the dice one by one, lowest face first,
//! then how it is completed ([`Help`]); a reroll: the dice one by one, lowest face first, then
//! "roll". A step is listed only when some complete choice follows it, so no step leads to a
//! dead end; the others are listed as the choices are.
//!
//! Which totals of the seat's own dice a Drink accepts with each help is a set of totals, a bit
//! each in a word (the dice total 54 at most); which totals the dice left can add is another,
//! built by shifts. A die is offered when the two meet.

use super::action::{Action, Choice, Help};
use super::choices::{dish_serves, packed, push_dishes};
use super::data::Condition;
use super::params::DrinkDice;
use super::state::{Phase, Picking, State};
use super::GinzaRetroCafe;
use crate::bytes::nonzero_bytes;
use crate::listing::{Listing, Sink};

impl Listing for GinzaRetroCafe {
    type State = State;
    type Action = Action;

    fn list<S: Sink<Action>>(&self, s: &State, out: &mut S) {
        let Some(seat) = s.seat().map(usize::from) else {
            return;
        };
        match s.picking {
            Picking::Nothing => {}
            Picking::Serve { place, slot, dice } => {
                return self.push_serve_steps(s, seat, place, slot, &dice, out);
            }
            Picking::Reroll { dice } => return push_reroll_steps(&reroll_pool(s), &dice, out),
        }
        match s.phase {
            Phase::Turn { .. } => self.legal_steps_turn(s, seat, out),
            Phase::Reroll { just, .. } => {
                push_reroll_steps(&just, &[0; 6], out);
                if self.params.arrange_partial {
                    out.push(Action::Stop);
                }
            }
            // The other phases' choices are one step each.
            _ => self.list_choices(s, &mut OneStep(out)),
        }
    }
}

impl GinzaRetroCafe {
    pub(crate) fn legal(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        self.list(s, out);
    }

    fn legal_steps_turn(&self, s: &State, seat: usize, out: &mut impl Sink<Action>) {
        self.turn_steps(s, seat).push_all(out);
    }

    /// The order at a place and slot, if there is one.
    pub(crate) fn order_at(&self, s: &State, place: u8, slot: u8) -> Option<Condition> {
        let o = s
            .places
            .get(usize::from(place))?
            .orders
            .get(usize::from(slot))?
            .index()?;
        Some(self.data.orders.get(o)?.serve)
    }

    /// What a seat may add to its dice in a serve.
    fn extras(&self, s: &State, seat: usize) -> Extras {
        let common_ok = s.coins[seat] >= u16::from(self.common_price(s, seat));
        let common_bytes = if common_ok { held_bytes(&s.common) } else { 0 };
        Extras {
            commons: gather_faces(common_bytes),
            common_bytes,
            bonus: self
                .drink_bonus(s, seat)
                .filter(|_| s.bonus_used & (1 << seat) == 0),
            minimal: self.params.drink_dice == DrinkDice::Minimal,
        }
    }

    /// The first steps of the serves a seat can make: each order with at least one serve.
    pub(crate) fn push_serve_openings(&self, s: &State, seat: usize, out: &mut impl Sink<Action>) {
        let extras = self.extras(s, seat);
        let dice = &s.dice[seat];
        // The total of all the dice (computed at the first Drink).
        let mut total = None;
        for (p, pl) in s.places.iter().enumerate() {
            if !pl.occupied() {
                continue;
            }
            for slot in 0..3 {
                let Some(order) = pl.orders[slot].index() else {
                    continue;
                };
                if pl.tokens[slot].is_some() {
                    continue;
                }
                let open = match self.data.orders[order].serve {
                    Condition::Faces(need) => dish_helps(dice, &need, extras.common_bytes) != 0,
                    Condition::SumAtLeast(n) => {
                        let drink = extras.drink(n);
                        if extras.minimal {
                            let mut count = crate::listing::Counter::new();
                            push_drink_steps(&drink, dice, &[0; 6], &mut count);
                            Sink::<Action>::listed(&count) > 0
                        } else {
                            let total = *total.get_or_insert_with(|| dice_total(dice));
                            let open = drink.open_to(total);
                            debug_assert_eq!(
                                open,
                                subset_totals(dice, 0).1 & drink.any_totals(7) != 0
                            );
                            open
                        }
                    }
                };
                if open {
                    out.push(Action::Serve {
                        place: p as u8,
                        slot: slot as u8,
                    });
                }
            }
        }
    }

    /// The steps of a serve begun: for a Drink, a further die of each face some serve takes,
    /// then each help that serves with the dice taken; for a Dish, each help that serves it.
    fn push_serve_steps(
        &self,
        s: &State,
        seat: usize,
        place: u8,
        slot: u8,
        taken: &[u8; 6],
        out: &mut impl Sink<Action>,
    ) {
        let extras = self.extras(s, seat);
        match self.order_at(s, place, slot) {
            Some(Condition::Faces(need)) => {
                let mut helps = dish_helps(&s.dice[seat], &need, extras.common_bytes);
                while helps != 0 {
                    let h = helps.trailing_zeros() as u8;
                    helps &= helps - 1;
                    out.push(Action::ServeWith(help_of(h)));
                }
            }
            Some(Condition::SumAtLeast(n)) => {
                push_drink_steps(&extras.drink(n), &s.dice[seat], taken, out);
            }
            None => {}
        }
    }
}

/// The dice a reroll picks from: the Dice area on a turn, the dice just rerolled after.
fn reroll_pool(s: &State) -> [u8; 6] {
    match s.phase {
        Phase::Reroll { just, .. } => just,
        Phase::Turn { seat } => s.dice[usize::from(seat)],
        _ => [0; 6],
    }
}

/// The steps of a reroll from `pool` with `picked` so far: a further die of each face not below
/// the highest picked, then "roll" once a die is picked.
fn push_reroll_steps(pool: &[u8; 6], picked: &[u8; 6], out: &mut impl Sink<Action>) {
    let top = picked.iter().rposition(|&k| k > 0);
    for f in top.unwrap_or(0)..6 {
        if pool[f] > picked[f] {
            out.push(Action::RerollDie(f as u8 + 1));
        }
    }
    if top.is_some() {
        out.push(Action::Roll);
    }
}

/// What a seat may add to its own dice in a serve.
struct Extras {
    /// The faces of the common dice it may buy: bit `f` for face `f + 1`.
    commons: u8,
    /// The same faces as [`push_dishes`] takes them: the top bit of byte `f` for face `f + 1`.
    common_bytes: u64,
    /// Its once-a-round Drink bonus, if it has one unused.
    bonus: Option<u8>,
    /// Whether a Drink takes only dice of which none can be left out ([`DrinkDice::Minimal`]).
    minimal: bool,
}

impl Extras {
    fn drink(&self, n: u8) -> Drink {
        Drink {
            n: i32::from(n),
            commons: self.commons,
            bonus: self.bonus.map(i32::from),
            minimal: self.minimal,
        }
    }
}

/// A Drink order asking for a total of `n`, and what the seat may add to its dice.
struct Drink {
    n: i32,
    commons: u8,
    bonus: Option<i32>,
    minimal: bool,
}

impl Drink {
    /// The totals of the seat's own dice (bit `k`: total `k`) that serve with `help`, when the
    /// lowest of those dice shows `low` (7 for none). As the listing of the complete serves
    /// states them: the dice alone reach `n`; a common die of face `c`, or the bonus, covers
    /// what they lack; with [`DrinkDice::Minimal`], leaving out the lowest die (own or
    /// common) falls short. The dice alone and the bonus need at least one die.
    fn totals(&self, help: Help, low: i32) -> u64 {
        let n = self.n;
        let minimal = self.minimal;
        match help {
            Help::Own => span(n.max(1), if minimal { n + low - 1 } else { 63 }),
            Help::Common(c) => {
                let c = i32::from(c);
                let top = if minimal && low < c {
                    n - c + low - 1
                } else {
                    n - 1
                };
                span(n - c, top)
            }
            Help::Bonus => match self.bonus {
                Some(b) if minimal => span((n - b).max(1), (n - 1).min(n - b + low - 1)),
                Some(b) => span((n - b).max(1), n - 1),
                None => 0,
            },
        }
    }

    /// Whether some serve is open to dice of `total` in all, without the minimal rule: whether
    /// they make a total of [`Self::any_totals`]`(7)`. There, each help's totals run up to
    /// `n - 1` and the dice alone's on from `n` (from 1 when `n` is 0), so together they are
    /// every total from the least some help accepts; and the largest total the dice make is
    /// all of them.
    fn open_to(&self, total: i32) -> bool {
        let n = self.n;
        let mut least = n.max(1);
        if n >= 1 && self.commons != 0 {
            let top = 8 - self.commons.leading_zeros() as i32;
            least = least.min((n - top).max(0));
        }
        if let Some(b) = self.bonus.filter(|&b| n >= 2 && b >= 1) {
            least = least.min((n - b).max(1));
        }
        total >= least
    }

    /// The totals some help the seat has serves with.
    fn any_totals(&self, low: i32) -> u64 {
        let mut m = self.totals(Help::Own, low) | self.totals(Help::Bonus, low);
        let mut c = self.commons;
        while c != 0 {
            let f = c.trailing_zeros() as u8;
            c &= c - 1;
            m |= self.totals(Help::Common(f + 1), low);
        }
        m
    }
}

/// Pushes the steps of a Drink serve with `taken` of the seat's `dice` so far: a die of each face
/// not below the highest taken after which some serve remains, then each help that serves with
/// the dice taken.
fn push_drink_steps(d: &Drink, dice: &[u8; 6], taken: &[u8; 6], out: &mut impl Sink<Action>) {
    let top = taken.iter().rposition(|&k| k > 0);
    let from = top.unwrap_or(0);
    let low = taken
        .iter()
        .position(|&k| k > 0)
        .map_or(7, |f| f as i32 + 1);
    let sum: i32 = (0..6).map(|f| (f as i32 + 1) * i32::from(taken[f])).sum();
    let mut left = [0u8; 6];
    for f in from..6 {
        left[f] = dice[f].saturating_sub(taken[f]);
    }
    let (after, _) = subset_totals(&left, from);
    // With a die taken (or without the minimal rule) the lowest die is known already.
    let known = (top.is_some() || !d.minimal).then(|| d.any_totals(low));
    for f in from..6 {
        if left[f] == 0 {
            continue;
        }
        let face = f as i32 + 1;
        let goal = known.unwrap_or_else(|| d.any_totals(face));
        if shl(after[f], sum + face) & goal != 0 {
            out.push(Action::ServeDie(face as u8));
        }
    }
    let at = shl(1, sum);
    if at & d.totals(Help::Own, low) != 0 {
        out.push(Action::ServeWith(Help::Own));
    }
    let mut c = d.commons;
    while c != 0 {
        let face = c.trailing_zeros() as u8 + 1;
        c &= c - 1;
        if at & d.totals(Help::Common(face), low) != 0 {
            out.push(Action::ServeWith(Help::Common(face)));
        }
    }
    if at & d.totals(Help::Bonus, low) != 0 {
        out.push(Action::ServeWith(Help::Bonus));
    }
}

/// The total of dice counted per face.
fn dice_total(dice: &[u8; 6]) -> i32 {
    (0..6).map(|f| (f as i32 + 1) * i32::from(dice[f])).sum()
}

/// The totals dice (count per face) make, faces `from + 1` and up only: `.0[f]` those the dice
/// of faces `f + 1` and up less one of face `f + 1` make (for each face with a die), `.1` those
/// all of them make. Bit `k` stands for total `k`; the empty choice makes 0.
fn subset_totals(dice: &[u8; 6], from: usize) -> ([u64; 6], u64) {
    let mut after = [0u64; 6];
    let mut made = 1u64;
    for f in (from..6).rev() {
        if dice[f] == 0 {
            continue;
        }
        let face = f + 1;
        let mut m = made;
        for _ in 1..dice[f] {
            m |= m << face;
        }
        after[f] = m;
        made = m | m << face;
    }
    (after, made)
}

/// The bits `lo..=hi` of a word (none where the range is empty), the range cut to `0..=63`.
fn span(lo: i32, hi: i32) -> u64 {
    let (lo, hi) = (lo.max(0), hi.min(63));
    if lo > hi {
        0
    } else {
        (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
    }
}

/// `m` shifted up by `k` (none past the word).
fn shl(m: u64, k: i32) -> u64 {
    if (0..64).contains(&k) {
        m << k
    } else {
        0
    }
}

/// The helps a Dish asking for `need` is served with, from the listing of its complete serves:
/// bit 0 the seat's dice alone, bit `c` a common die of face `c` standing in for one of them.
/// `commons`: the faces of the common dice the seat may buy, as [`held_bytes`] gives them.
#[inline]
fn dish_helps(dice: &[u8; 6], need: &[u8; 6], commons: u64) -> u8 {
    match dish_serves(dice, need, commons) {
        Some((own, stand_ins)) => u8::from(own) | gather_faces(stand_ins) << 1,
        None => dish_helps_listed(dice, need, commons),
    }
}

/// [`dish_helps`] from the serves [`push_dishes`] lists (for counts above 126).
#[cold]
fn dish_helps_listed(dice: &[u8; 6], need: &[u8; 6], commons: u64) -> u8 {
    let base = super::Serve {
        place: 0,
        slot: 0,
        dice: [0; 6],
        common: 0,
        bonus: false,
    };
    let mut helps = HelpSet(0);
    push_dishes(dice, need, commons, base, &mut helps);
    helps.0
}

/// The faces of which `dice` (count per face) hold a die: the top bit of byte `f` for face
/// `f + 1`.
#[inline]
fn held_bytes(dice: &[u8; 6]) -> u64 {
    nonzero_bytes(packed(dice))
}

/// The faces of which `dice` hold a die: bit `f` for face `f + 1`.
#[inline]
pub(crate) fn held_faces(dice: &[u8; 6]) -> u8 {
    gather_faces(held_bytes(dice))
}

/// The top bit of byte `f` (bytes 0 to 5) moved to bit `f`. One multiply moves bit `8f` to
/// `56 + f`, and nothing else lands on bits 56 to 61.
#[inline]
fn gather_faces(bytes: u64) -> u8 {
    ((((bytes >> 7) & 0x0101_0101_0101).wrapping_mul(0x0102_0408_1020_0000) >> 56) & 0x3F) as u8
}

/// The help of bit `h` of [`dish_helps`] (7: the bonus).
fn help_of(h: u8) -> Help {
    match h {
        0 => Help::Own,
        7 => Help::Bonus,
        c => Help::Common(c),
    }
}

/// A sink that keeps only the helps of the serves pushed, as [`dish_helps`] numbers them.
struct HelpSet(u8);

impl Sink<Choice> for HelpSet {
    fn push(&mut self, c: Choice) {
        if let Choice::Serve(sv) = c {
            self.0 |= 1
                << match sv.help() {
                    Help::Own => 0,
                    Help::Common(c) => c.min(6),
                    Help::Bonus => 7,
                };
        }
    }

    fn extend(&mut self, n: usize, mut next: impl FnMut() -> Choice) {
        for _ in 0..n {
            self.push(next());
        }
    }

    fn listed(&self) -> usize {
        self.0.count_ones() as usize
    }
}

/// A sink of the choices taken in one step (all but serves and rerolls), handing each to a
/// sink of steps as its step.
pub(crate) struct OneStep<'a, S>(pub(crate) &'a mut S);

impl<S: Sink<Action>> Sink<Choice> for OneStep<'_, S> {
    #[inline]
    fn push(&mut self, c: Choice) {
        self.0.push(first_step(c));
    }

    #[inline]
    fn extend(&mut self, n: usize, mut next: impl FnMut() -> Choice) {
        self.0.extend(n, move || first_step(next()));
    }

    #[inline]
    fn listed(&self) -> usize {
        self.0.listed()
    }
}

/// The first step of a complete choice, from a state where nothing is begun.
pub(crate) fn first_step(c: Choice) -> Action {
    match c {
        Choice::ChooseCard(k) => Action::ChooseCard(k),
        Choice::Draft(k) => Action::Draft(k),
        Choice::RaiseLevel(k) => Action::RaiseLevel(k),
        Choice::RaiseLimit => Action::RaiseLimit,
        Choice::Serve(sv) => Action::Serve {
            place: sv.place,
            slot: sv.slot,
        },
        Choice::Change { face, up } => Action::Change { face, up },
        Choice::Reroll(d) => match d.iter().position(|&k| k > 0) {
            Some(f) => Action::RerollDie(f as u8 + 1),
            None => Action::Roll,
        },
        Choice::Add(k) => Action::Add(k),
        Choice::Wash(k) => Action::Wash(k),
        Choice::Stop => Action::Stop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ginza_retro_cafe::Params;
    use crate::Game;
    use rand::Rng;

    #[test]
    fn every_step_is_counted_as_listed() {
        let mut checked = 0;
        for bits in 0..8u32 {
            for players in crate::ginza_retro_cafe::INFO.players() {
                let p = Params {
                    players,
                    drink_dice: if bits & 1 != 0 {
                        DrinkDice::Minimal
                    } else {
                        DrinkDice::Any
                    },
                    arrange_partial: bits & 2 == 0,
                    stacked_tokens: bits & 4 == 0,
                    ..Params::default()
                };
                let g = GinzaRetroCafe::with_params(p).unwrap();
                let mut legal = Vec::new();
                for seed in 0..6u64 {
                    let mut rng = crate::rng_from_seed(seed + 10 * u64::from(bits));
                    let mut s = g.new_state(&mut rng);
                    while g.to_move(&s).is_some() {
                        checked += crate::listing::assert_counted_as_listed(&g, &s);
                        g.legal_actions(&s, &mut legal);
                        let a = legal[rng.gen_range(0..legal.len())];
                        g.apply(&mut s, a, &mut rng);
                    }
                    crate::listing::assert_counted_as_listed(&g, &s);
                }
            }
        }
        assert!(checked > 100_000, "only {checked} actions counted");
    }

    #[test]
    fn the_faces_held_are_those_with_a_die() {
        let mut rng = crate::rng_from_seed(5);
        for k in 0..20_000 {
            let mut dice = [0u8; 6];
            for d in &mut dice {
                *d = if k % 2 == 0 {
                    rng.gen_range(0..3)
                } else {
                    rng.gen()
                };
            }
            let want = (0..6).fold(0u8, |m, f| m | u8::from(dice[f] > 0) << f);
            assert_eq!(held_faces(&dice), want, "{dice:?}");
            let bytes = (0..6).fold(0u64, |m, f| m | u64::from(want >> f & 1) << (8 * f + 7));
            assert_eq!(held_bytes(&dice), bytes, "{dice:?}");
        }
    }

    #[test]
    fn subset_totals_are_the_totals_of_every_choice_of_dice() {
        let dice = [2, 0, 1, 0, 3, 1];
        let (after, all) = subset_totals(&dice, 0);
        let mut want = 0u64;
        for a in 0..=2 {
            for c in 0..=1 {
                for e in 0..=3 {
                    for f in 0..=1 {
                        want |= 1 << (a + 3 * c + 5 * e + 6 * f);
                    }
                }
            }
        }
        assert_eq!(all, want);
        // Less one 5: the 5s and 6s left (two 5s, one 6).
        let mut five = 0u64;
        for e in 0..=2 {
            for f in 0..=1 {
                five |= 1 << (5 * e + 6 * f);
            }
        }
        assert_eq!(after[4], five);
        assert_eq!(span(3, 5), 0b111000);
        assert_eq!(span(5, 3), 0);
        assert_eq!(span(-4, 1), 0b11);
        assert_eq!(span(60, 90), 0b1111 << 60);
    }
}
