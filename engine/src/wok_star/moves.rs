//! The legal actions.

use super::action::{Action, Die};
#[cfg(test)]
use super::data::Method;
use super::params::{ForeignDice, HustleDice, TrackTop};
use super::state::{Phase, State, MAX_DICE, MAX_PLAYERS, NOBODY};
use super::WokStar;
use crate::bytes::bytes_equal;

impl WokStar {
    pub(crate) fn legal(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        let n = self.players;
        match s.phase {
            Phase::Over => {}
            Phase::ExtraDie => out.extend((0..n).map(Action::ExtraDie)),
            Phase::ChooseCharacters => {
                for c in 0..self.data.characters.len() as u8 {
                    if !s.character.contains(&c) {
                        out.push(Action::Character(c));
                    }
                }
            }
            Phase::GiveIngredients => self.legal_give_ingredient(s, out),
            Phase::GiveCubes => out.extend((0..n).map(Action::GiveCube)),
            Phase::Prep => self.legal_prep(s, out),
            Phase::AfterClose { seat } => {
                if s.second_cube == Some(seat) {
                    self.legal_second_cube(s, out);
                    return;
                }
                let faces = self.legal_prepare(s, seat, out);
                self.legal_gain_hustle(s, faces, out);
                if self.params.hustle_after_close {
                    self.legal_spend_hustle(s, seat, faces, out);
                }
                out.push(Action::Done);
            }
            Phase::Business | Phase::Washing => {
                let seat = self.to_move_in_play(s);
                if s.choose.is_some_and(|(c, _)| c == seat) {
                    out.extend(self.choosable(s).map(Action::ChooseIngredient));
                    return;
                }
                if s.second_cube == Some(seat) {
                    self.legal_second_cube(s, out);
                    return;
                }
                let washing = s.phase == Phase::Washing;
                if !washing && self.can_serve(s, seat) {
                    out.push(Action::Serve);
                }
                let faces = self.legal_prepare(s, seat, out);
                self.legal_gain_hustle(s, faces, out);
                self.legal_spend_hustle(s, seat, faces, out);
                if !washing {
                    self.legal_powers(s, seat, out);
                }
                if washing {
                    out.push(Action::EndWash);
                } else {
                    if self.can_wash(s) {
                        out.push(Action::Wash);
                    }
                    out.push(Action::Wait);
                    out.push(Action::Close);
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

    fn legal_give_ingredient(&self, s: &State, out: &mut Vec<Action>) {
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
                out.push(Action::GiveIngredient(i as u8));
            }
        }
    }

    fn legal_prep(&self, s: &State, out: &mut Vec<Action>) {
        let rb = &self.data.rulebook;
        for (slot, &r) in s.offer.iter().enumerate() {
            if r != NOBODY && s.money >= i32::from(self.data.recipes[r as usize].price) {
                for seat in 0..self.players {
                    out.push(Action::BuyRecipe {
                        slot: slot as u8,
                        seat,
                    });
                }
            }
        }
        if s.money >= i32::from(rb.upgrade_price) {
            for k in 0..self.data.ingredients.len() {
                if s.ingredient_owner[k] != NOBODY && s.upgrades[k] < rb.covered_methods {
                    out.push(Action::Upgrade(k as u8));
                }
            }
        }
        if s.money >= i32::from(rb.hustle_price) && s.hustle_supply > 0 {
            out.push(Action::BuyHustle);
        }
        if s.coupons != 0 {
            out.push(Action::Advertise);
        }
        out.push(Action::OpenDay);
    }

    /// Methods open on ingredient card `k`: the uncovered ones.
    pub(crate) fn open_methods(&self, s: &State, k: usize) -> usize {
        let covered = usize::from(self.data.rulebook.covered_methods);
        super::data::METHODS - covered + usize::from(s.upgrades[k]).min(covered)
    }

    /// Every (owner, face) class of unused dice `seat` may take, with its count.
    #[cfg(test)]
    fn die_classes(&self, s: &State, seat: u8, free: bool) -> ([(Die, u8); 24], usize) {
        let mut classes = [(Die { owner: 0, face: 0 }, 0u8); 24];
        let mut len = 0;
        for owner in 0..self.players {
            if owner != seat && s.cubes[seat as usize] == 0 && !free {
                continue;
            }
            for face in 1..=6u8 {
                let c = s.count_face(owner as usize, face);
                if c > 0 {
                    classes[len] = (Die { owner, face }, c as u8);
                    len += 1;
                }
            }
        }
        (classes, len)
    }

    /// The preparations open to `seat`; returns the faces its unused dice show (face `f` at bit
    /// `f - 1`), which its Hustles list.
    pub(crate) fn legal_prepare(&self, s: &State, seat: u8, out: &mut Vec<Action>) -> u8 {
        self.legal_prepare_with(s, seat, out, None)
    }

    /// The (ingredient, method) pairs `seat` may prepare with: its own ingredients' open
    /// methods, less those refused at the top of the track: the definition
    /// [`Self::legal_prepare_pairwise`] walks.
    #[cfg(test)]
    fn preparable_methods<'a>(
        &'a self,
        s: &'a State,
        seat: u8,
    ) -> impl Iterator<Item = (usize, usize, Method)> + 'a {
        let top = self.data.track.max;
        self.data
            .ingredients
            .iter()
            .enumerate()
            .filter(move |&(k, _)| s.ingredient_owner[k] == seat)
            .flat_map(move |(k, ing)| {
                (0..self.open_methods(s, k)).map(move |m| (k, m, ing.methods[m]))
            })
            .filter(move |&(k, _, method)| {
                !(self.params.track_top == TrackTop::Refuse && s.track[k] + method.gain > top)
            })
    }

    /// The preparations open to `seat`; with `free = Some(n)`, those using 1 to `n` other
    /// players' dice without giving cubes (Papa Wang's power). In the order of
    /// [`Self::legal_prepare_pairwise`] (ingredient, method, first die class, second die class),
    /// but from bit masks: die class (owner, face) is bit `6 * owner + face - 1`, so a first
    /// die's partners are the classes whose face meets the method's condition
    /// ([`WokStar::pair_faces`], copied to every owner's six bits by one multiply) and whose
    /// owner the cube rules allow, and only the preparations listed are visited. A first die's
    /// preparations are written by one `extend` of a counted range, which reserves once and
    /// keeps the list's length in a register. Returns the faces `seat`'s own unused dice show
    /// (face `f` at bit `f - 1`).
    pub(crate) fn legal_prepare_with(
        &self,
        s: &State,
        seat: u8,
        out: &mut Vec<Action>,
        free: Option<u8>,
    ) -> u8 {
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
        // method needs another player's die: the same for every method, so found once.
        let partners_by_need = [false, true].map(|needs| [with(0, needs), with(1, needs)]);
        if partners_by_need == [[0, 0], [0, 0]] {
            return faces;
        }
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
                let partners = partners_by_need[usize::from(method.needs_other_players_die)];
                if partners == [0, 0] {
                    continue;
                }
                let faces = &pair_faces[m];
                // Only dice whose face meets the condition with some face can come first.
                let mut firsts = present & (u32::from(faces[0]) * 0x41041);
                while firsts != 0 {
                    let i = firsts.trailing_zeros();
                    firsts &= firsts - 1;
                    let a = DIE_CLASS[(i & 31) as usize];
                    let fits = u32::from(faces[usize::from(a.face)]) * 0x41041;
                    // The second class comes at or after the first; the same class needs two
                    // dice.
                    let mut js = partners[usize::from(a.owner != seat)]
                        & fits
                        & !((1u32 << i) - 1)
                        & !(!twice & (1 << i));
                    if js == 0 {
                        continue;
                    }
                    out.extend((0..js.count_ones()).map(|_| {
                        let j = js.trailing_zeros();
                        js &= js.wrapping_sub(1);
                        Action::Prepare {
                            ingredient: k as u8,
                            method: m as u8,
                            a,
                            b: DIE_CLASS[(j & 31) as usize],
                        }
                    }));
                }
            }
        }
        faces
    }

    /// The ingredient cards `seat` owns, a bit each.
    fn owned_ingredients(&self, s: &State, seat: u8) -> u16 {
        bytes_equal(&s.ingredient_owner, seat) & self.ingredient_cards()
    }

    /// [`Self::legal_prepare_with`] by its definition: every pair of die classes, each checked.
    /// The tests compare the two.
    #[cfg(test)]
    pub(crate) fn legal_prepare_pairwise(
        &self,
        s: &State,
        seat: u8,
        out: &mut Vec<Action>,
        free: Option<u8>,
    ) {
        let (classes, len) = self.die_classes(s, seat, free.is_some());
        let classes = &classes[..len];
        for (k, m, method) in self.preparable_methods(s, seat) {
            for i in 0..classes.len() {
                for j in i..classes.len() {
                    let (a, ca) = classes[i];
                    let (b, _) = classes[j];
                    if i == j && ca < 2 {
                        continue;
                    }
                    let foreign = u8::from(a.owner != seat) + u8::from(b.owner != seat);
                    match free {
                        None if foreign > s.cubes[seat as usize] => continue,
                        Some(n) if foreign == 0 || foreign > n => continue,
                        _ => {}
                    }
                    if method.needs_other_players_die {
                        let ok = match self.params.fourth_method {
                            ForeignDice::AtLeastOne => foreign >= 1,
                            ForeignDice::ExactlyOne => foreign == 1,
                        };
                        if !ok {
                            continue;
                        }
                    }
                    if method.condition.holds(a.face, b.face) {
                        out.push(Action::Prepare {
                            ingredient: k as u8,
                            method: m as u8,
                            a,
                            b,
                        });
                    }
                }
            }
        }
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
    fn legal_gain_hustle(&self, s: &State, mut faces: u8, out: &mut Vec<Action>) {
        if s.hustle_supply == 0 {
            return;
        }
        out.extend((0..faces.count_ones()).map(|_| {
            let f = faces.trailing_zeros() as u8 + 1;
            faces &= faces.wrapping_sub(1);
            Action::GainHustle(f)
        }));
    }

    /// Spending a Hustle: an unused die turned up or down, or a cube moved. "Anyone can use
    /// Hustle tokens in the pool ... Rotate 1 unused die up or down 1 value": any seat's die
    /// under `hustle_dice = any`; `seat`'s own (whose faces are `faces`) under `own`.
    fn legal_spend_hustle(&self, s: &State, seat: u8, faces: u8, out: &mut Vec<Action>) {
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
            out.extend((0..2 * faces.count_ones()).map(|n| {
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
    fn legal_second_cube(&self, s: &State, out: &mut Vec<Action>) {
        if self.cubes_at_table(s) >= 2 {
            self.legal_cube_moves(s, out, true);
        } else {
            out.push(Action::NoSecondCube);
        }
    }

    fn legal_cube_moves(&self, s: &State, out: &mut Vec<Action>, second: bool) {
        for from in 0..self.players {
            if s.cubes[from as usize] == 0 {
                continue;
            }
            for to in 0..self.players {
                if to != from {
                    out.push(if second {
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
const DIE_CLASS: [Die; 32] = {
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

/// The die classes `seat` may use, a bit each (bit `6 * owner + face - 1`), and those with two
/// dice or more: its own dice, and the others' when it has a cube to give or `free` dice.
fn die_classes_present(s: &State, players: u8, seat: u8, free: Option<u8>) -> (u32, u32) {
    let (mut present, mut twice) = (0u32, 0u32);
    let others_too = s.cubes[seat as usize] != 0 || free.is_some();
    for owner in 0..players.min(MAX_PLAYERS as u8) {
        if owner != seat && !others_too {
            continue;
        }
        let (mut seen, mut again) = (0u32, 0u32);
        let o = owner as usize;
        for &d in &s.dice[o][..usize::from(s.dice_count[o]).min(MAX_DICE)] {
            let bit = u32::from(FACE_BIT[usize::from(d)]);
            again |= seen & bit;
            seen |= bit;
        }
        present |= seen << (6 * owner);
        twice |= again << (6 * owner);
    }
    (present, twice)
}

#[cfg(test)]
mod tests {
    use super::super::params::{ForeignDice, Params, TrackTop};
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

    /// The mask enumeration lists exactly the preparations the pairwise definition does, in the
    /// same order, for every seat, with and without Papa Wang's free dice, under both readings
    /// of the top of the track and of the fourth method, over random games at 2 to 4 players.
    #[test]
    fn prepare_masks_list_what_the_pairwise_definition_lists() {
        let mut checked = 0u64;
        for players in crate::wok_star::INFO.players() {
            for track_top in [TrackTop::Cap, TrackTop::Refuse] {
                for fourth_method in [ForeignDice::AtLeastOne, ForeignDice::ExactlyOne] {
                    let g = WokStar::with_params(Params {
                        track_top,
                        fourth_method,
                        ..Params::with_players(players)
                    })
                    .unwrap();
                    let (mut fast, mut slow, mut legal) = (Vec::new(), Vec::new(), Vec::new());
                    for seed in 0..200u64 {
                        let mut rng = rng_from_seed(seed);
                        let mut s = g.new_state(&mut rng);
                        while g.to_move(&s).is_some() {
                            for seat in 0..players {
                                for free in [None, Some(1), Some(2)] {
                                    fast.clear();
                                    slow.clear();
                                    g.legal_prepare_with(&s, seat, &mut fast, free);
                                    g.legal_prepare_pairwise(&s, seat, &mut slow, free);
                                    assert_eq!(fast, slow, "seed {seed}, seat {seat}, {free:?}");
                                    checked += fast.len() as u64;
                                }
                            }
                            g.legal_actions(&s, &mut legal);
                            let a = legal[rng.gen_range(0..legal.len())];
                            g.apply(&mut s, a, &mut rng);
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} preparations compared");
    }
}
