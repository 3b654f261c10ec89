//! The first steps of a turn, in segments: the upgrades and the serves' openings listed, the
//! rest (Change Dice Rolls, Reroll Dice, Add Dice, Wash Dishes) by count. The listing pushes
//! every segment; a random draw counts them and builds only the step drawn, so that a turn's
//! dozen or more cheap steps are never written. Both read the same segments, so they agree.

use super::action::Action;
use super::state::{State, PLACES};
use super::GinzaRetroCafe;
use crate::listing::Sink;

/// The most upgrades (three Arrange cards and the dice limit) and serve openings (an order in
/// each slot of each place) a turn offers.
const HEAD: usize = 4 + 3 * PLACES;

/// A turn's first steps, in listing order: the upgrades, the serve openings, the changes, the
/// reroll's first dice, the adds and the washes; "stop" alone when there is none of these.
pub(crate) struct TurnSteps {
    /// The upgrades, then the serve openings.
    head: [Action; HEAD],
    /// How many of `head` are listed.
    heads: usize,
    /// The faces a die may be changed from (bit `f`: face `f + 1`), none when the Change card
    /// is taken.
    changes: u8,
    /// The faces a reroll may begin with, none when the Reroll card is taken.
    rerolls: u8,
    /// The fewest dice added.
    add_from: u8,
    /// How many Add Dice steps.
    adds: usize,
    /// How many Wash Dishes steps.
    washes: usize,
}

impl Sink<Action> for TurnSteps {
    #[inline]
    fn push(&mut self, a: Action) {
        self.head[self.heads] = a;
        self.heads += 1;
    }

    fn extend(&mut self, n: usize, mut next: impl FnMut() -> Action) {
        for _ in 0..n {
            self.push(next());
        }
    }

    fn listed(&self) -> usize {
        self.heads
    }
}

impl GinzaRetroCafe {
    /// The first steps of `seat`'s turn in `s` (nothing begun).
    pub(crate) fn turn_steps(&self, s: &State, seat: usize) -> TurnSteps {
        let faces = super::moves::held_faces(&s.dice[seat]);
        let aw = self.add_and_wash(s, seat);
        let mut t = TurnSteps {
            head: [Action::Stop; HEAD],
            heads: 0,
            changes: if self.spot_free(s, seat, 0) { faces } else { 0 },
            rerolls: if self.spot_free(s, seat, 1) { faces } else { 0 },
            add_from: aw.add_from,
            adds: aw.adds,
            washes: aw.washes,
        };
        self.push_raises(s, seat, &mut super::moves::OneStep(&mut t));
        self.push_serve_openings(s, seat, &mut t);
        t
    }
}

impl TurnSteps {
    /// Steps listed (at least one: "stop").
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.others().max(1)
    }

    /// Steps other than "stop".
    #[inline]
    fn others(&self) -> usize {
        self.heads
            + change_count(self.changes)
            + self.rerolls.count_ones() as usize
            + self.adds
            + self.washes
    }

    /// Step `i` of the listing (`i < self.len()`).
    pub(crate) fn get(&self, mut i: usize) -> Action {
        if i < self.heads {
            return self.head[i];
        }
        i -= self.heads;
        let n = change_count(self.changes);
        if i < n {
            return changes(self.changes).nth(i).unwrap_or(Action::Stop);
        }
        i -= n;
        let n = self.rerolls.count_ones() as usize;
        if i < n {
            return rerolls(self.rerolls).nth(i).unwrap_or(Action::Stop);
        }
        i -= n;
        if i < self.adds {
            return Action::Add(self.add_from + i as u8);
        }
        i -= self.adds;
        if i < self.washes {
            return Action::Wash(i as u8);
        }
        Action::Stop
    }

    /// Pushes every step, in listing order.
    pub(crate) fn push_all(&self, out: &mut impl Sink<Action>) {
        for &a in &self.head[..self.heads] {
            out.push(a);
        }
        for a in changes(self.changes) {
            out.push(a);
        }
        for a in rerolls(self.rerolls) {
            out.push(a);
        }
        let mut k = self.add_from;
        out.extend(self.adds, || {
            k += 1;
            Action::Add(k - 1)
        });
        let mut k = 0u8;
        out.extend(self.washes, || {
            k += 1;
            Action::Wash(k - 1)
        });
        if self.others() == 0 {
            // Only with `stacked_tokens` off: every spot is taken and no dish can be served.
            out.push(Action::Stop);
        }
    }
}

/// The changes of the dice showing `faces`: each face down (but a 1), then up (but a 6).
fn change_count(faces: u8) -> usize {
    2 * faces.count_ones() as usize - usize::from(faces & 1) - usize::from(faces >> 5 & 1)
}

/// The changes of [`change_count`], face by face from the lowest.
fn changes(faces: u8) -> impl Iterator<Item = Action> {
    (0..6u8).filter(move |f| faces >> f & 1 != 0).flat_map(|f| {
        let down = (f > 0).then_some(Action::Change {
            face: f + 1,
            up: false,
        });
        let up = (f < 5).then_some(Action::Change {
            face: f + 1,
            up: true,
        });
        down.into_iter().chain(up)
    })
}

/// A reroll's first die, one of each face in `faces` from the lowest.
fn rerolls(faces: u8) -> impl Iterator<Item = Action> {
    (0..6u8)
        .filter(move |f| faces >> f & 1 != 0)
        .map(|f| Action::RerollDie(f + 1))
}
