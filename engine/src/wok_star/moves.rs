//! The legal actions: the compact steps ([`Game::legal_actions`](crate::Game::legal_actions)),
//! and the listing they share with the flat list of complete choices (`choices.rs`). A
//! preparation is offered as its ingredient and method first ([`Action::Prepare`]), then die by
//! die ([`Action::UseDie`]); every step offered leads to at least one complete preparation.

use super::action::{Action, Die, Preparing};
use super::data::Power;
use super::params::{ForeignDice, HustleDice, TrackTop};
use super::state::{Phase, State, MAX_DICE, MAX_PLAYERS, NOBODY};
use super::WokStar;
use crate::bytes::bytes_equal;

/// Where a listing goes: the compact steps (`Vec<Action>`) or the complete choices
/// (`Vec<Choice>`). Everything but a preparation is the same single action in both.
pub(crate) trait Listing {
    /// Lists one action.
    fn put(&mut self, a: Action);
    /// Lists these actions, in order.
    fn put_all(&mut self, it: impl Iterator<Item = Action>);
    /// Lists the preparations open to `seat` (with `free`, Papa Wang's); returns the faces
    /// `seat`'s own unused dice show (face `f` at bit `f - 1`).
    fn preparations(&mut self, g: &WokStar, s: &State, seat: u8, free: Option<u8>) -> u8;
}

impl Listing for Vec<Action> {
    fn put(&mut self, a: Action) {
        self.push(a);
    }

    fn put_all(&mut self, it: impl Iterator<Item = Action>) {
        self.extend(it);
    }

    fn preparations(&mut self, g: &WokStar, s: &State, seat: u8, free: Option<u8>) -> u8 {
        g.legal_prepare_starts(s, seat, self, free)
    }
}

impl WokStar {
    /// The compact legal steps: while a preparation is pending, its next die; otherwise every
    /// decision, a preparation by its first step.
    pub(crate) fn legal(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        match s.preparing {
            Some(p) => self.legal_dice(s, self.preparer(s), p, out),
            None => self.list(s, out),
        }
    }

    /// The seat completing a pending preparation: the one to move.
    pub(crate) fn preparer(&self, s: &State) -> u8 {
        match s.phase {
            Phase::AfterClose { seat } => seat,
            _ => self.to_move_in_play(s),
        }
    }

    /// Every decision open in `s`, pending preparation aside, into `out` (not cleared).
    pub(crate) fn list<L: Listing>(&self, s: &State, out: &mut L) {
        let n = self.players;
        match s.phase {
            Phase::Over => {}
            Phase::ExtraDie => out.put_all((0..n).map(Action::ExtraDie)),
            Phase::ChooseCharacters => {
                for c in 0..self.data.characters.len() as u8 {
                    if !s.character.contains(&c) {
                        out.put(Action::Character(c));
                    }
                }
            }
            Phase::GiveIngredients => self.legal_give_ingredient(s, out),
            Phase::GiveCubes => out.put_all((0..n).map(Action::GiveCube)),
            Phase::Prep => self.legal_prep(s, out),
            Phase::AfterClose { seat } => {
                if s.second_cube == Some(seat) {
                    self.legal_second_cube(s, out);
                    return;
                }
                let faces = out.preparations(self, s, seat, None);
                self.legal_gain_hustle(s, faces, out);
                if self.params.hustle_after_close {
                    self.legal_spend_hustle(s, seat, faces, out);
                }
                out.put(Action::Done);
            }
            Phase::Business | Phase::Washing => {
                let seat = self.to_move_in_play(s);
                if s.choose.is_some_and(|(c, _)| c == seat) {
                    out.put_all(self.choosable(s).map(Action::ChooseIngredient));
                    return;
                }
                if s.second_cube == Some(seat) {
                    self.legal_second_cube(s, out);
                    return;
                }
                let washing = s.phase == Phase::Washing;
                if !washing && self.can_serve(s, seat) {
                    out.put(Action::Serve);
                }
                let faces = out.preparations(self, s, seat, None);
                self.legal_gain_hustle(s, faces, out);
                self.legal_spend_hustle(s, seat, faces, out);
                if !washing {
                    self.legal_powers(s, seat, out);
                }
                if washing {
                    out.put(Action::EndWash);
                } else {
                    if self.can_wash(s) {
                        out.put(Action::Wash);
                    }
                    out.put(Action::Wait);
                    out.put(Action::Close);
                }
            }
        }
    }

    /// The seat acting in Open for Business: the one finishing a Hustle's cube moves, else the
    /// one whose clock is earliest.
    pub(crate) fn to_move_in_play(&self, s: &State) -> u8 {
        if let Some((seat, _)) = s.choose {
            return seat;
        }
        s.second_cube.unwrap_or_else(|| self.earliest(s))
    }

    /// Whether `seat` can serve the current customer: it owns the recipe and no ingredient
    /// token is on the bottom slot.
    pub(crate) fn can_serve(&self, s: &State, seat: u8) -> bool {
        let Some(c) = s.customer else { return false };
        let r = c as usize / super::data::CUSTOMER_SLOTS;
        let times = if s.double_next { 2 } else { 1 };
        s.recipe_owner[r] == seat
            && self.data.recipes[r]
                .ingredients
                .iter()
                .all(|&k| s.track[k as usize] >= self.data.track.min + times)
    }

    /// Whether the Dishwasher may run now.
    pub(crate) fn can_wash(&self, s: &State) -> bool {
        let n = self.players as usize;
        let dirty = (0..n).any(|i| s.dirty_dice(i) > 0);
        let unused = (0..n).any(|i| s.unused_dice(i) > 0);
        s.washes_left > 0 && dirty && (self.params.wash_with_unused_dice || !unused)
    }

    fn legal_give_ingredient<L: Listing>(&self, s: &State, out: &mut L) {
        let n = self.players as usize;
        let pending = s.pending.count_ones() as usize;
        // "Each player should have at least 1 Ingredient card." That binds only once the cards
        // waiting are no more than the players without one, so the owners are walked only
        // when the cards waiting are no more than the players.
        let without = if !s.opened && pending <= n {
            let mut holds = [false; super::state::MAX_PLAYERS];
            for &o in &s.ingredient_owner {
                if o != NOBODY {
                    holds[o as usize] = true;
                }
            }
            (0..n).fold(0u8, |m, i| m | u8::from(!holds[i]) << i)
        } else {
            0
        };
        let must = without != 0 && pending <= without.count_ones() as usize;
        for i in 0..n {
            if !must || without & (1 << i) != 0 {
                out.put(Action::GiveIngredient(i as u8));
            }
        }
    }

    fn legal_prep<L: Listing>(&self, s: &State, out: &mut L) {
        let rb = &self.data.rulebook;
        for (slot, &r) in s.offer.iter().enumerate() {
            if r != NOBODY && s.money >= i32::from(self.data.recipes[r as usize].price) {
                for seat in 0..self.players {
                    out.put(Action::BuyRecipe {
                        slot: slot as u8,
                        seat,
                    });
                }
            }
        }
        if s.money >= i32::from(rb.upgrade_price) {
            for k in 0..self.data.ingredients.len() {
                if s.ingredient_owner[k] != NOBODY && s.upgrades[k] < rb.covered_methods {
                    out.put(Action::Upgrade(k as u8));
                }
            }
        }
        if s.money >= i32::from(rb.hustle_price) && s.hustle_supply > 0 {
            out.put(Action::BuyHustle);
        }
        if s.coupons != 0 {
            out.put(Action::Advertise);
        }
        out.put(Action::OpenDay);
    }

    /// Methods open on ingredient card `k`: the uncovered ones.
    pub(crate) fn open_methods(&self, s: &State, k: usize) -> usize {
        let covered = usize::from(self.data.rulebook.covered_methods);
        super::data::METHODS - covered + usize::from(s.upgrades[k]).min(covered)
    }

    /// The preparations `seat` may begin (with `free = Some(n)`, those using 1 to `n` other
    /// players' dice without giving cubes, Papa Wang's power): each (ingredient, method) with at
    /// least one pair of dice, as [`Action::Prepare`] (or [`Action::PowerPrepare`]). Returns the
    /// faces `seat`'s own unused dice show (face `f` at bit `f - 1`).
    pub(crate) fn legal_prepare_starts(
        &self,
        s: &State,
        seat: u8,
        out: &mut Vec<Action>,
        free: Option<u8>,
    ) -> u8 {
        let (masks, faces) = self.dice_masks(s, seat, free);
        if masks.is_empty() {
            return faces;
        }
        self.for_each_method(s, seat, |k, m, needs, pair| {
            if masks.partners[usize::from(needs)] == [0, 0] {
                return;
            }
            let mut firsts = masks.firsts(pair);
            while firsts != 0 {
                let i = firsts.trailing_zeros();
                firsts &= firsts - 1;
                if masks.seconds(pair, needs, i) != 0 {
                    let (ingredient, method) = (k as u8, m as u8);
                    out.push(if free.is_some() {
                        Action::PowerPrepare { ingredient, method }
                    } else {
                        Action::Prepare { ingredient, method }
                    });
                    return;
                }
            }
        });
        faces
    }

    /// The next die of the pending preparation `p`: a first die with at least one partner, or
    /// the first die's partners (at or after it in die class order).
    fn legal_dice(&self, s: &State, seat: u8, p: Preparing, out: &mut Vec<Action>) {
        let free = if p.power {
            match self.power(s, seat) {
                Some(Power::FreeForeignDice(n)) => Some(n),
                _ => return,
            }
        } else {
            None
        };
        let (k, m) = (usize::from(p.ingredient), usize::from(p.method));
        let (Some(pairs), Some(ing)) = (self.pair_faces.get(k), self.data.ingredients.get(k))
        else {
            return;
        };
        let (Some(pair), Some(method)) = (pairs.get(m), ing.methods.get(m)) else {
            return;
        };
        let needs = method.needs_other_players_die;
        let (masks, _) = self.dice_masks(s, seat, free);
        let firsts = masks.firsts(pair);
        match p.first {
            None => {
                let mut firsts = firsts;
                while firsts != 0 {
                    let i = firsts.trailing_zeros();
                    firsts &= firsts - 1;
                    if masks.seconds(pair, needs, i) != 0 {
                        out.push(Action::UseDie(DIE_CLASS[(i & 31) as usize]));
                    }
                }
            }
            Some(a) => {
                let Some(i) = die_class_index(a) else { return };
                if firsts & (1 << i) == 0 {
                    return;
                }
                let mut js = masks.seconds(pair, needs, i);
                out.extend((0..js.count_ones()).map(|_| {
                    let j = js.trailing_zeros();
                    js &= js.wrapping_sub(1);
                    Action::UseDie(DIE_CLASS[(j & 31) as usize])
                }));
            }
        }
    }

    /// Calls `f(ingredient, method, needs another player's die, pair faces)` for each method
    /// `seat` may prepare by: its own ingredients' open methods, less those refused at the top
    /// of the track.
    pub(crate) fn for_each_method(
        &self,
        s: &State,
        seat: u8,
        mut f: impl FnMut(usize, usize, bool, &[u8; 7]),
    ) {
        let refuse = self.params.track_top == TrackTop::Refuse;
        let top = self.data.track.max;
        let mut owned = self.owned_ingredients(s, seat);
        while owned != 0 {
            let k = owned.trailing_zeros() as usize;
            owned &= owned - 1;
            let methods = &self.data.ingredients[k].methods;
            let pair_faces = &self.pair_faces[k];
            for m in 0..self.open_methods(s, k) {
                let method = methods[m];
                if refuse && s.track[k] + method.gain > top {
                    continue;
                }
                f(k, m, method.needs_other_players_die, &pair_faces[m]);
            }
        }
    }

    /// The die classes `seat` may prepare with and which pairs the cube rules allow (with
    /// `free`, Papa Wang's), and the faces its own unused dice show.
    pub(crate) fn dice_masks(&self, s: &State, seat: u8, free: Option<u8>) -> (DiceMasks, u8) {
        let (present, twice) = die_classes_present(s, self.players, seat, free);
        let own = present & (0x3F << (6 * seat));
        let faces = (own >> (6 * seat)) as u8;
        debug_assert_eq!(faces, self.own_faces(s, seat));
        let others = present & !own;
        // Whether two dice of which `foreign` belong to others may be used together, for a
        // method that needs another player's die (`needs_other`) or not.
        let allowed = |foreign: u8, needs_other: bool| {
            let cubes = match free {
                None => foreign <= s.cubes[seat as usize],
                Some(n) => foreign != 0 && foreign <= n,
            };
            cubes
                && (!needs_other
                    || match self.params.fourth_method {
                        ForeignDice::AtLeastOne => foreign >= 1,
                        ForeignDice::ExactlyOne => foreign == 1,
                    })
        };
        let with = |foreign: u8, needs_other: bool| {
            let own = if allowed(foreign, needs_other) {
                own
            } else {
                0
            };
            let others = if allowed(foreign + 1, needs_other) {
                others
            } else {
                0
            };
            own | others
        };
        // The partners of a first die of `seat`'s own, and of another player's, by whether the
        // method needs another player's die: the same for every method, so found once. Without
        // a cube or free dice only the seat's own dice pair, and only for a method that needs
        // none of another player's.
        let partners = if s.cubes[seat as usize] == 0 && free.is_none() {
            debug_assert_eq!(
                [false, true].map(|needs| [with(0, needs), with(1, needs)]),
                [[own, 0], [0, 0]]
            );
            [[own, 0], [0, 0]]
        } else {
            [false, true].map(|needs| [with(0, needs), with(1, needs)])
        };
        let masks = DiceMasks {
            present,
            twice,
            seat,
            partners,
        };
        (masks, faces)
    }

    /// The ingredient cards `seat` owns, a bit each.
    fn owned_ingredients(&self, s: &State, seat: u8) -> u16 {
        bytes_equal(&s.ingredient_owner, seat) & self.ingredient_cards()
    }

    /// The faces `seat`'s unused dice show, face `f` at bit `f - 1` (as
    /// [`Self::legal_prepare_with`] returns them, which debug builds check against this).
    fn own_faces(&self, s: &State, seat: u8) -> u8 {
        let seat = seat as usize;
        let mut faces = 0u8;
        for &d in &s.dice[seat][..usize::from(s.dice_count[seat]).min(MAX_DICE)] {
            faces |= FACE_BIT[usize::from(d)];
        }
        faces
    }

    /// Gaining a Hustle with a die of each of `faces` (the seat's own, as
    /// [`Self::legal_prepare`] returns them).
    fn legal_gain_hustle<L: Listing>(&self, s: &State, mut faces: u8, out: &mut L) {
        if s.hustle_supply == 0 {
            return;
        }
        out.put_all((0..faces.count_ones()).map(|_| {
            let f = faces.trailing_zeros() as u8 + 1;
            faces &= faces.wrapping_sub(1);
            Action::GainHustle(f)
        }));
    }

    /// Spending a Hustle: an unused die turned up or down, or a cube moved. "Anyone can use
    /// Hustle tokens in the pool ... Rotate 1 unused die up or down 1 value": any seat's die
    /// under `hustle_dice = any`; `seat`'s own (whose faces are `faces`) under `own`.
    fn legal_spend_hustle<L: Listing>(&self, s: &State, seat: u8, faces: u8, out: &mut L) {
        if s.hustle_pool == 0 {
            return;
        }
        for owner in 0..self.players {
            let mut faces = if owner == seat {
                faces
            } else if self.params.hustle_dice == HustleDice::Any {
                self.own_faces(s, owner)
            } else {
                0
            };
            out.put_all((0..2 * faces.count_ones()).map(|n| {
                let f = faces.trailing_zeros() as u8 + 1;
                let up = n % 2 == 0;
                if !up {
                    faces &= faces.wrapping_sub(1);
                }
                Action::Rotate { owner, face: f, up }
            }));
        }
        if self.cubes_at_table(s) > 0 {
            self.legal_cube_moves(s, out, false);
        }
    }

    /// The Fortune cubes the players hold.
    pub(crate) fn cubes_at_table(&self, s: &State) -> u32 {
        s.cubes[..usize::from(self.players).min(MAX_PLAYERS)]
            .iter()
            .map(|&c| u32::from(c))
            .sum()
    }

    /// A Hustle's second cube: "Move 2 Fortune cubes from any player to any other player." It
    /// may be left unmoved only where fewer than 2 cubes are at the table.
    fn legal_second_cube<L: Listing>(&self, s: &State, out: &mut L) {
        if self.cubes_at_table(s) >= 2 {
            self.legal_cube_moves(s, out, true);
        } else {
            out.put(Action::NoSecondCube);
        }
    }

    fn legal_cube_moves<L: Listing>(&self, s: &State, out: &mut L, second: bool) {
        for from in 0..self.players {
            if s.cubes[from as usize] == 0 {
                continue;
            }
            for to in 0..self.players {
                if to != from {
                    out.put(if second {
                        Action::SecondCube { from, to }
                    } else {
                        Action::HustleCubes { from, to }
                    });
                }
            }
        }
    }
}

/// Face `d` at bit `d - 1`; a dirty die (0), and anything above 6, at none.
const FACE_BIT: [u8; 256] = {
    let mut b = [0u8; 256];
    let mut d = 1;
    while d <= 6 {
        b[d] = 1 << (d - 1);
        d += 1;
    }
    b
};

/// Die class `i` (bit `6 * owner + face - 1` of [`die_classes_present`]'s masks), padded to 32
/// so that a class found by `trailing_zeros` of a `u32` needs no bounds check.
pub(crate) const DIE_CLASS: [Die; 32] = {
    let mut d = [Die { owner: 0, face: 0 }; 32];
    let mut i = 0;
    while i < 24 {
        d[i] = Die {
            owner: (i / 6) as u8,
            face: (i % 6) as u8 + 1,
        };
        i += 1;
    }
    d
};

/// The die class index of `d` (`6 * owner + face - 1`), if it names one.
pub(crate) fn die_class_index(d: Die) -> Option<u32> {
    (usize::from(d.owner) < MAX_PLAYERS && (1..=6).contains(&d.face))
        .then(|| 6 * u32::from(d.owner) + u32::from(d.face) - 1)
}

/// The die classes a seat may prepare with, as bit masks over die classes (bit
/// `6 * owner + face - 1`), and which partners the cube rules allow a first die: a first die's
/// partners are the classes whose face meets the method's condition
/// ([`WokStar::pair_faces`], copied to every owner's six bits by one multiply) and whose owner
/// the cube rules allow.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DiceMasks {
    /// The classes with an unused die the seat may take.
    present: u32,
    /// The classes with two such dice or more.
    twice: u32,
    /// The seat preparing.
    seat: u8,
    /// The partners the cube rules allow, by whether the method needs another player's die,
    /// then by whether the first die is another player's.
    pub(crate) partners: [[u32; 2]; 2],
}

impl DiceMasks {
    /// Whether no pair of dice may be used at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.partners == [[0, 0], [0, 0]]
    }

    /// The classes that may come first for a method whose pair faces are `pair`: those whose
    /// face meets its condition with some face (a superset of those with a partner).
    pub(crate) fn firsts(&self, pair: &[u8; 7]) -> u32 {
        self.present & (u32::from(pair[0]) * 0x41041)
    }

    /// The partners of first class `i` for a method whose pair faces are `pair`: at or after it
    /// in class order (the same class needs two dice).
    pub(crate) fn seconds(&self, pair: &[u8; 7], needs_other: bool, i: u32) -> u32 {
        let a = DIE_CLASS[(i & 31) as usize];
        let fits = u32::from(pair[usize::from(a.face)]) * 0x41041;
        self.partners[usize::from(needs_other)][usize::from(a.owner != self.seat)]
            & fits
            & !((1u32 << (i & 31)) - 1)
            & !(!self.twice & (1 << (i & 31)))
    }
}

/// The die classes `seat` may use, a bit each (bit `6 * owner + face - 1`), and those with two
/// dice or more: its own dice, and the others' when it has a cube to give or `free` dice.
fn die_classes_present(s: &State, players: u8, seat: u8, free: Option<u8>) -> (u32, u32) {
    if s.cubes[seat as usize] == 0 && free.is_none() {
        let (seen, again) = faces_present(s, seat);
        return (seen << (6 * seat), again << (6 * seat));
    }
    let (mut present, mut twice) = (0u32, 0u32);
    for owner in 0..players.min(MAX_PLAYERS as u8) {
        let (seen, again) = faces_present(s, owner);
        present |= seen << (6 * owner);
        twice |= again << (6 * owner);
    }
    (present, twice)
}

/// The faces `owner`'s unused dice show (face `f` at bit `f - 1`), and those two dice or more
/// show.
#[inline]
fn faces_present(s: &State, owner: u8) -> (u32, u32) {
    let o = usize::from(owner);
    let (mut seen, mut again) = (0u32, 0u32);
    for &d in &s.dice[o][..usize::from(s.dice_count[o]).min(MAX_DICE)] {
        let bit = u32::from(FACE_BIT[usize::from(d)]);
        again |= seen & bit;
        seen |= bit;
    }
    (seen, again)
}

#[cfg(test)]
mod tests {
    use super::super::params::Params;
    use super::super::WokStar;
    use crate::{rng_from_seed, Game};
    use rand::Rng;

    /// The earliest seat is the one with the least clock, the lower seat on a tie, at 2 to 4
    /// players, for clocks drawn from a few values (many ties) and from the whole range.
    #[test]
    fn the_earliest_seat_has_the_least_clock_and_the_lower_seat_wins_a_tie() {
        let mut rng = rng_from_seed(3);
        for players in crate::wok_star::INFO.players() {
            let g = WokStar::with_params(Params::with_players(players)).unwrap();
            let mut s = g.new_state(&mut rng);
            for k in 0..20_000 {
                for c in &mut s.clock {
                    *c = if k % 2 == 0 {
                        rng.gen_range(0..3)
                    } else {
                        rng.gen()
                    };
                }
                let n = usize::from(players);
                let least = *s.clock[..n].iter().min().unwrap();
                let want = s.clock[..n].iter().position(|&c| c == least).unwrap();
                assert_eq!(usize::from(g.earliest(&s)), want, "{:?}", s.clock);
            }
        }
    }
}
