//! The Player Powers variant: each player's Wang Family character, its power used once per
//! round ("To use a power, follow the instructions on your Wang Family Character card, then flip
//! it over to indicate the power has been used. You may flip it back over during the Next Day
//! Prep.").

use super::action::Action;
use super::data::{Power, CUSTOMER_SLOTS};
use super::moves::Listing;
use super::state::{State, DIRTY, NOBODY};
use super::WokStar;
use rand::Rng;

impl WokStar {
    /// The power `seat` may still use this round, if any.
    pub(crate) fn power(&self, s: &State, seat: u8) -> Option<Power> {
        if !self.params.powers || s.powers_used & (1 << seat) != 0 {
            return None;
        }
        let c = *s.character.get(seat as usize)?;
        self.data.characters.get(c as usize).map(|x| x.act)
    }

    /// The power actions open to `seat` in Open for Business.
    pub(crate) fn legal_powers<L: Listing>(&self, s: &State, seat: u8, out: &mut L) {
        let Some(power) = self.power(s, seat) else {
            return;
        };
        let i = seat as usize;
        match power {
            Power::SameRecipeBonus(_) => {}
            Power::RefillTimer => {
                let now = s.clock[i];
                if s.timers.iter().any(|t| t.running(now, false)) {
                    out.put(Action::UsePower);
                }
            }
            Power::RerollDirty => {
                if s.dirty_dice(i) > 0 {
                    out.put(Action::UsePower);
                }
            }
            Power::Substitute => {
                if let Some((_, subs)) = self.substitution(s, seat) {
                    for k in 0..self.data.ingredients.len() {
                        if subs & (1 << k) != 0 {
                            out.put(Action::PowerServe { using: k as u8 });
                        }
                    }
                }
            }
            Power::FreeForeignDice(n) => {
                out.preparations(self, s, seat, Some(n));
            }
            Power::SetDie => {
                let n = s.dice_count[i] as usize;
                let mut faces = 0u8;
                for &d in &s.dice[i][..n] {
                    if d != DIRTY {
                        faces |= 1 << (d - 1);
                    }
                }
                for face in 1..=6u8 {
                    if faces & (1 << (face - 1)) != 0 {
                        for to in (1..=6u8).filter(|&t| t != face) {
                            out.put(Action::SetDie { face, to });
                        }
                    }
                }
            }
        }
    }

    /// Grandpa's serve: the one required ingredient on the bottom slot, and the ingredients
    /// that may stand in for it (in play, above the bottom, not in the recipe). `None` unless
    /// exactly one required ingredient is missing.
    pub(crate) fn substitution(&self, s: &State, seat: u8) -> Option<(u8, u16)> {
        let c = s.customer?;
        let r = c as usize / CUSTOMER_SLOTS;
        if s.recipe_owner[r] != seat {
            return None;
        }
        let recipe = &self.data.recipes[r];
        let times = if s.double_next { 2 } else { 1 };
        let need = self.data.track.min + times;
        let missing: Vec<u8> = recipe
            .ingredients
            .iter()
            .copied()
            .filter(|&k| s.track[k as usize] < need)
            .collect();
        if missing.len() != 1 {
            return None;
        }
        let in_play = self.ingredients_in_play(s);
        let mut subs = 0u16;
        for k in 0..self.data.ingredients.len() {
            if in_play & (1 << k) != 0
                && recipe.ingredient_set & (1 << k) == 0
                && s.track[k] >= need
            {
                subs |= 1 << k;
            }
        }
        (subs != 0).then_some((missing[0], subs))
    }

    /// Applies a power action for `seat` at `now`; returns the seconds (ms) it took.
    pub(crate) fn use_power<R: Rng + ?Sized>(
        &self,
        s: &mut State,
        seat: u8,
        now: u32,
        a: Action,
        rng: &mut R,
    ) -> u32 {
        let i = seat as usize;
        s.powers_used |= 1 << seat;
        let d = &self.durations;
        match (self.power_of(s, seat), a) {
            (Some(Power::RefillTimer), Action::UsePower) => {
                // "flip a running timer back to full": the running one with less sand.
                let k = (0..2)
                    .filter(|&k| s.timers[k].running(now, false))
                    .min_by_key(|&k| s.timers[k].left(now))
                    .unwrap_or(0);
                s.timers[k].top = self.capacity;
                s.timers[k].at = now;
                d.hustle
            }
            (Some(Power::RerollDirty), Action::UsePower) => {
                let n = s.dice_count[i] as usize;
                for die in &mut s.dice[i][..n] {
                    if *die == DIRTY {
                        *die = rng.gen_range(1..=6);
                    }
                }
                d.roll
            }
            (_, Action::SetDie { face, to }) => {
                let n = s.dice_count[i] as usize;
                if let Some(die) = s.dice[i][..n].iter_mut().find(|x| **x == face) {
                    *die = to;
                }
                d.hustle
            }
            _ => 0,
        }
    }

    /// The power of `seat`'s character, used or not.
    pub(crate) fn power_of(&self, s: &State, seat: u8) -> Option<Power> {
        let c = *s.character.get(seat as usize)?;
        if c == NOBODY {
            return None;
        }
        self.data.characters.get(c as usize).map(|x| x.act)
    }
}
