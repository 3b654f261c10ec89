//! Between the steps ([`Action`]) and the complete choices ([`Choice`]): applying a step, the
//! choice a step completes, the next step toward a choice, and the steps' names.

use super::action::{faces_text, Action, Choice, Help, Serve};
use super::data::Condition;
use super::moves::first_step;
use super::state::{Picking, State};
use super::GinzaRetroCafe;
use crate::game::{Game, IllegalAction};
use rand::Rng;

impl GinzaRetroCafe {
    /// Applies a step: one that begins or continues a choice records it in
    /// [`State::picking`]; one that completes a choice applies it ([`Self::play_choice`]).
    pub(crate) fn play<R: Rng + ?Sized>(&self, s: &mut State, a: Action, rng: &mut R) {
        match a {
            Action::Serve { place, slot } => {
                s.picking = Picking::Serve {
                    place,
                    slot,
                    dice: [0; 6],
                }
            }
            Action::ServeDie(face) => {
                if let Picking::Serve { dice, .. } = &mut s.picking {
                    dice[usize::from(face) - 1] += 1;
                }
            }
            Action::RerollDie(face) => {
                let mut dice = s.picking.dice();
                dice[usize::from(face) - 1] += 1;
                s.picking = Picking::Reroll { dice };
            }
            _ => match self.completed(s, a) {
                Some(c) => self.play_choice(s, c, rng),
                None => debug_assert!(false, "{a:?} completes nothing in {:?}", s.picking),
            },
        }
    }

    /// The complete choice that step `a` completes in `s`, or `None` when it begins or
    /// continues one (or completes nothing that `s` has begun).
    pub fn completed(&self, s: &State, a: Action) -> Option<Choice> {
        Some(match a {
            Action::Serve { .. } | Action::ServeDie(_) | Action::RerollDie(_) => return None,
            Action::ServeWith(help) => {
                let Picking::Serve { place, slot, dice } = s.picking else {
                    return None;
                };
                let dice = match self.order_at(s, place, slot)? {
                    // A Dish's faces name its dice, less the one a common die stands in for.
                    Condition::Faces(mut need) => {
                        if let Help::Common(c) = help {
                            let f = usize::from(c.clamp(1, 6)) - 1;
                            need[f] = need[f].saturating_sub(1);
                        }
                        need
                    }
                    Condition::SumAtLeast(_) => dice,
                };
                let (common, bonus) = match help {
                    Help::Own => (0, false),
                    Help::Common(c) => (c, false),
                    Help::Bonus => (0, true),
                };
                Choice::Serve(Serve {
                    place,
                    slot,
                    dice,
                    common,
                    bonus,
                })
            }
            Action::Roll => match s.picking {
                Picking::Reroll { dice } => Choice::Reroll(dice),
                _ => return None,
            },
            Action::ChooseCard(k) => Choice::ChooseCard(k),
            Action::Draft(k) => Choice::Draft(k),
            Action::RaiseLevel(k) => Choice::RaiseLevel(k),
            Action::RaiseLimit => Choice::RaiseLimit,
            Action::Change { face, up } => Choice::Change { face, up },
            Action::Add(k) => Choice::Add(k),
            Action::Wash(k) => Choice::Wash(k),
            Action::Stop => Choice::Stop,
        })
    }

    /// The next step toward the complete choice `c`, one of [`Self::choices`] in `s`: taking
    /// such steps until one completes `c` ([`Self::completed`]) has the effect of
    /// [`Self::play_choice`] with the same random stream.
    pub fn step_toward(&self, s: &State, c: Choice) -> Action {
        let taken = s.picking.dice();
        let next_die = |dice: &[u8; 6]| (0..6).find(|&f| dice[f] > taken[f]).map(|f| f as u8 + 1);
        match (c, s.picking) {
            (Choice::Serve(sv), Picking::Serve { place, slot, .. }) => {
                let drink = matches!(
                    self.order_at(s, place, slot),
                    Some(Condition::SumAtLeast(_))
                );
                match next_die(&sv.dice).filter(|_| drink) {
                    Some(face) => Action::ServeDie(face),
                    None => Action::ServeWith(sv.help()),
                }
            }
            (Choice::Reroll(d), _) => match next_die(&d) {
                Some(face) => Action::RerollDie(face),
                None => Action::Roll,
            },
            (c, _) => first_step(c),
        }
    }

    /// A name for any step, legal or not (an illegal one is named in an error message): a step
    /// that completes a choice is named as the choice is.
    pub(crate) fn name_action(&self, s: &State, a: Action) -> String {
        if let Some(c) = self.completed(s, a) {
            return self.name_choice(s, c);
        }
        match a {
            Action::Serve { place, slot } => {
                let o = s
                    .places
                    .get(usize::from(place))
                    .and_then(|pl| pl.orders.get(usize::from(slot)))
                    .and_then(|o| o.index())
                    .and_then(|o| self.data.orders.get(o));
                match o {
                    Some(o) => format!("serve {} ({}): begin", o.name, String::from(o.serve)),
                    None => format!("serve the order at place {place}, slot {slot}: begin"),
                }
            }
            Action::ServeDie(face) => match s.picking {
                Picking::Serve { dice, .. } if dice != [0; 6] => {
                    format!("serve with a {face} (after {})", faces_text(&dice))
                }
                _ => format!("serve with a {face}"),
            },
            Action::RerollDie(face) => match s.picking {
                Picking::Reroll { dice } => {
                    format!("reroll a {face} (after {})", faces_text(&dice))
                }
                _ => format!("reroll a {face}"),
            },
            Action::ServeWith(h) => format!("serve with {h:?}"),
            _ => format!("{a:?}"),
        }
    }
}

impl GinzaRetroCafe {
    /// Takes the steps of the complete choice `c` if it is one of [`Self::choices`]; otherwise
    /// returns an error and leaves `s` untouched.
    pub fn apply_choice_checked<R: Rng + ?Sized>(
        &self,
        s: &mut State,
        c: Choice,
        rng: &mut R,
    ) -> Result<(), IllegalAction> {
        let mut choices = Vec::new();
        self.choices(s, &mut choices);
        if !choices.contains(&c) {
            return Err(IllegalAction {
                action: self.name_choice(s, c),
                seat: s.seat(),
                reason: if choices.is_empty() {
                    "the game is over".to_string()
                } else {
                    format!("not among the {} complete choices here", choices.len())
                },
            });
        }
        loop {
            let a = self.step_toward(s, c);
            let last = self.completed(s, a).is_some();
            self.apply(s, a, rng);
            if last {
                return Ok(());
            }
        }
    }
}
