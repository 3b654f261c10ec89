//! The clock model: table time in milliseconds, each seat's own clock, and the two sand timers.
//!
//! Every action takes a number of seconds of table time ([`super::Durations`]). Each seat has
//! its own clock; the seat whose clock is earliest acts next (the lower seat on a tie), its
//! action takes effect at that instant, and its clock then moves on by the action's duration.
//! Effects therefore happen in time order, and simultaneous play is exact within the model.
//! The two 30-second timers run on this table clock.

use super::params::TimerFlip;
use serde::{Deserialize, Serialize};

/// One sand timer: the sand left in its top half at a moment, and whether it stands (runs) or
/// lies on its side (stopped, during a wash).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Timer {
    /// Milliseconds of sand in the top half at time `at`.
    pub top: u32,
    /// The table time `top` was measured at.
    pub at: u32,
    /// Standing (running while sand is left) or lying down (stopped).
    pub standing: bool,
}

impl Timer {
    /// A standing timer with all its sand at the bottom.
    pub fn empty(at: u32) -> Timer {
        Timer {
            top: 0,
            at,
            standing: true,
        }
    }

    /// Sand left in the top half at time `now` (not before `at`).
    pub fn left(&self, now: u32) -> u32 {
        if self.standing {
            self.top.saturating_sub(now.saturating_sub(self.at))
        } else {
            self.top
        }
    }

    /// Whether the timer is running at `now`: standing with sand still falling. With
    /// `at_empty`, the instant it runs out still counts.
    pub fn running(&self, now: u32, at_empty: bool) -> bool {
        if !self.standing {
            return false;
        }
        let left = self.left(now);
        left > 0 || (at_empty && self.top > 0 && now.saturating_sub(self.at) == self.top)
    }

    /// Flips the timer at `now`.
    pub fn flip(&mut self, now: u32, capacity: u32, how: TimerFlip) {
        let left = self.left(now);
        self.top = match how {
            TimerFlip::Sand => capacity - left.min(capacity),
            TimerFlip::Refill => capacity,
        };
        self.at = now;
        self.standing = true;
    }

    /// Lays the timer on its side at `now`: the sand stops.
    pub fn lay_down(&mut self, now: u32) {
        self.top = self.left(now);
        self.at = now;
        self.standing = false;
    }

    /// Stands the timer up at `now`: the sand runs again.
    pub fn stand_up(&mut self, now: u32) {
        self.at = now;
        self.standing = true;
    }
}

/// Flips whichever timer holds less sand in its top half (an empty one if there is one): the
/// flip that gives the team the most time, so the choice the rulebook leaves to the players is
/// made for them.
pub fn flip_emptier(timers: &mut [Timer; 2], now: u32, capacity: u32, how: TimerFlip) {
    let k = usize::from(timers[1].left(now) < timers[0].left(now));
    timers[k].flip(now, capacity, how);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sand_timer_flip_leaves_what_had_run_down() {
        let mut t = Timer::empty(0);
        t.flip(0, 30_000, TimerFlip::Sand);
        assert_eq!(t.left(10_000), 20_000);
        t.flip(10_000, 30_000, TimerFlip::Sand);
        assert_eq!(t.left(10_000), 10_000);
        assert!(t.running(19_999, false));
        assert!(!t.running(20_000, false));
        assert!(t.running(20_000, true));
        t.flip(25_000, 30_000, TimerFlip::Refill);
        assert_eq!(t.left(25_000), 30_000);
    }

    #[test]
    fn a_timer_lying_down_stops() {
        let mut t = Timer::empty(0);
        t.flip(0, 30_000, TimerFlip::Sand);
        t.lay_down(5_000);
        assert_eq!(t.left(60_000), 25_000);
        assert!(!t.running(6_000, false));
        t.stand_up(60_000);
        assert_eq!(t.left(70_000), 15_000);
    }

    #[test]
    fn the_emptier_timer_is_flipped() {
        let mut ts = [Timer::empty(0), Timer::empty(0)];
        ts[0].flip(0, 30_000, TimerFlip::Sand);
        flip_emptier(&mut ts, 1_000, 30_000, TimerFlip::Sand);
        assert_eq!((ts[0].left(1_000), ts[1].left(1_000)), (29_000, 30_000));
    }
}
