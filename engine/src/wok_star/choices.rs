//! The flat list of complete choices: the definition twin of the compact steps. It lists every
//! decision whole, a preparation with its ingredient, method and both dice
//! ([`Choice::Prepare`]), as the legal list did before preparations were split into steps. It
//! works from any state: while a preparation is pending it lists the complete preparations
//! consistent with what is pending. [`WokStar::step_toward`] gives the compact step toward a
//! complete choice, and the tests check that the steps reach exactly these choices.

#[cfg(test)]
use super::action::Die;
use super::action::{Action, Choice, Preparing};
use super::moves::{Listing, DIE_CLASS};
#[cfg(test)]
use super::params::ForeignDice;
use super::state::State;
use super::WokStar;
use crate::Game;
use rand::Rng;

impl Listing for Vec<Choice> {
    fn put(&mut self, a: Action) {
        self.push(Choice::Single(a));
    }

    fn put_all(&mut self, it: impl Iterator<Item = Action>) {
        self.extend(it.map(Choice::Single));
    }

    fn preparations(&mut self, g: &WokStar, s: &State, seat: u8, free: Option<u8>) -> u8 {
        g.legal_prepare_with(s, seat, self, free)
    }
}

/// Whether complete choice `c` continues the pending preparation `p`.
fn continues(c: &Choice, p: Preparing) -> bool {
    match *c {
        Choice::Single(_) => false,
        Choice::Prepare {
            power,
            ingredient,
            method,
            a,
            ..
        } => {
            power == p.power
                && ingredient == p.ingredient
                && method == p.method
                && p.first.is_none_or(|f| f == a)
        }
    }
}

impl WokStar {
    /// Every complete choice open in `s`, into `out` (cleared first): while a preparation is
    /// pending ([`State::preparing`]), the complete preparations that continue it.
    pub fn choices(&self, s: &State, out: &mut Vec<Choice>) {
        out.clear();
        self.list(s, out);
        if let Some(p) = s.preparing {
            out.retain(|c| continues(c, p));
        }
    }

    /// The compact step (a legal action in `s`) toward complete choice `c`, one of
    /// [`Self::choices`]`(s)`: a single action itself; a preparation's ingredient and method,
    /// then its first die, then its second, as far as `s` has taken them.
    pub fn step_toward(&self, s: &State, c: Choice) -> Action {
        match c {
            Choice::Single(a) => a,
            Choice::Prepare {
                power,
                ingredient,
                method,
                a,
                b,
            } => match s.preparing {
                None if power => Action::PowerPrepare { ingredient, method },
                None => Action::Prepare { ingredient, method },
                Some(Preparing { first: None, .. }) => Action::UseDie(a),
                Some(_) => Action::UseDie(b),
            },
        }
    }

    /// Applies complete choice `c` (one of [`Self::choices`]`(s)`) in one call, as the legal
    /// list's actions were applied before preparations were split into steps.
    pub fn apply_choice<R: Rng + ?Sized>(&self, s: &mut State, c: Choice, rng: &mut R) {
        match c {
            Choice::Single(a) => self.apply(s, a, rng),
            Choice::Prepare {
                power,
                ingredient,
                method,
                a,
                b,
            } => {
                s.preparing = None;
                let p = Preparing {
                    power,
                    ingredient,
                    method,
                    first: None,
                };
                self.play_turn(s, Action::UseDie(b), Some((p, a)), rng);
            }
        }
    }

    /// The complete preparations open to `seat` (with `free = Some(n)`, those using 1 to `n`
    /// other players' dice without giving cubes: Papa Wang's power). In the order of
    /// [`Self::legal_prepare_pairwise`] (ingredient, method, first die class, second die class),
    /// but from bit masks ([`super::moves::DiceMasks`]): only the preparations listed are
    /// visited, and a first die's are written by one `extend` of a counted range. Returns the
    /// faces `seat`'s own unused dice show (face `f` at bit `f - 1`).
    pub(crate) fn legal_prepare_with(
        &self,
        s: &State,
        seat: u8,
        out: &mut Vec<Choice>,
        free: Option<u8>,
    ) -> u8 {
        let (masks, faces) = self.dice_masks(s, seat, free);
        if masks.is_empty() {
            return faces;
        }
        let power = free.is_some();
        self.for_each_method(s, seat, |k, m, needs, pair| {
            if masks.partners[usize::from(needs)] == [0, 0] {
                return;
            }
            let mut firsts = masks.firsts(pair);
            while firsts != 0 {
                let i = firsts.trailing_zeros();
                firsts &= firsts - 1;
                let a = DIE_CLASS[(i & 31) as usize];
                let mut js = masks.seconds(pair, needs, i);
                out.extend((0..js.count_ones()).map(|_| {
                    let j = js.trailing_zeros();
                    js &= js.wrapping_sub(1);
                    Choice::Prepare {
                        power,
                        ingredient: k as u8,
                        method: m as u8,
                        a,
                        b: DIE_CLASS[(j & 31) as usize],
                    }
                }));
            }
        });
        faces
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

    /// [`Self::legal_prepare_with`] by its definition: every (ingredient, method) `seat` may
    /// prepare by and every pair of die classes, each checked. The tests compare the two.
    #[cfg(test)]
    pub(crate) fn legal_prepare_pairwise(
        &self,
        s: &State,
        seat: u8,
        out: &mut Vec<Choice>,
        free: Option<u8>,
    ) {
        let (classes, len) = self.die_classes(s, seat, free.is_some());
        let classes = &classes[..len];
        let top = self.data.track.max;
        let refuse = self.params.track_top == super::params::TrackTop::Refuse;
        for (k, ing) in self.data.ingredients.iter().enumerate() {
            if s.ingredient_owner[k] != seat {
                continue;
            }
            for m in 0..self.open_methods(s, k) {
                let method = ing.methods[m];
                if refuse && s.track[k] + method.gain > top {
                    continue;
                }
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
                            out.push(Choice::Prepare {
                                power: free.is_some(),
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
    }
}

#[cfg(test)]
mod tests {
    use super::super::params::{ForeignDice, Params, TrackTop};
    use super::super::WokStar;
    use crate::{rng_from_seed, Game};
    use rand::Rng;

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
                            g.choices(&s, &mut legal);
                            let c = legal[rng.gen_range(0..legal.len())];
                            g.apply_choice(&mut s, c, &mut rng);
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} preparations compared");
    }
}
