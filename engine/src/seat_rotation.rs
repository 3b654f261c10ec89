//! The observation vector relative to its observer: seats renumbered so that the observer is
//! seat 0, the next seat in turn order seat 1, and so on.
//!
//! An encoding names seats absolutely ([`crate::encode`]). A learner shared by every seat reads
//! positions better from its own point of view, so [`SeatRotation`] permutes the vector of any
//! game, from its layout alone:
//! - the fields of seat `k` (named `seatK.…`, from [`Encoder::seat`](crate::Encoder::seat)) move
//!   to relative seat `(k - observer) mod players`;
//! - the entries of a field that name seats ([`Field::seats_from`]: "the seat to move", "the
//!   asked seat") are rotated the same way.
//!
//! The `observer` field is not rotated: it still tells the absolute seat, which turn order and
//! the action indices (Tofu Kingdom's "ask seat 2") depend on. Seats at or beyond the player
//! count stay where they are (they hold zeros).

use crate::encode::{Encoding, Field};
use crate::game::Seat;

/// A permutation of a game's observation vector for each observer (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRotation {
    players: usize,
    len: usize,
    /// `source[o * len + i]`: the absolute index that relative index `i` reads for observer `o`.
    source: Vec<u32>,
    /// The same permutation as runs of consecutive indices, for copying whole blocks: observer
    /// `o`'s runs are `runs[starts[o]..starts[o + 1]]`.
    runs: Vec<Run>,
    starts: Vec<usize>,
}

/// `len` values read from `from..` and written to `to..`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    to: u32,
    from: u32,
    len: u32,
}

/// `source` (one observer's) as maximal runs of consecutive indices.
fn runs_of(source: &[u32], runs: &mut Vec<Run>) {
    for (i, &from) in source.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if r.to + r.len == i as u32 && r.from + r.len == from => r.len += 1,
            _ => runs.push(Run {
                to: i as u32,
                from,
                len: 1,
            }),
        }
    }
}

/// The seat and the rest of a field name `seatK.rest`.
fn seat_of(name: &str) -> Option<(usize, &str)> {
    let tail = name.strip_prefix("seat")?;
    let (k, rest) = tail.split_once('.')?;
    Some((k.parse().ok()?, rest))
}

impl SeatRotation {
    /// The rotation of a layout for `players` seats.
    pub fn new(layout: &[Field], players: usize) -> Self {
        let len = layout.last().map_or(0, |f| f.offset + f.len);
        let players = players.max(1);
        let by_name: std::collections::HashMap<&str, &Field> =
            layout.iter().map(|f| (f.name.as_str(), f)).collect();
        let mut source = Vec::with_capacity(players * len);
        for o in 0..players {
            for f in layout {
                let from = match seat_of(&f.name) {
                    Some((k, rest)) if k < players => {
                        let name = format!("seat{}.{rest}", (k + o) % players);
                        by_name
                            .get(name.as_str())
                            .copied()
                            .filter(|g| g.len == f.len)
                    }
                    _ => None,
                }
                .unwrap_or(f);
                for e in 0..f.len {
                    let e = match f.seats_from {
                        Some(s) if e >= s && e - s < players => s + (e - s + o) % players,
                        _ => e,
                    };
                    source.push((from.offset + e) as u32);
                }
            }
        }
        let (mut runs, mut starts) = (Vec::new(), vec![0]);
        for o in 0..players {
            let first = runs.len();
            runs_of(&source[o * len..(o + 1) * len], &mut runs);
            // A run never spans two observers: `runs_of` starts afresh at `to` 0.
            debug_assert!(runs.get(first).is_none_or(|r| r.to == 0));
            starts.push(runs.len());
        }
        SeatRotation {
            players,
            len,
            source,
            runs,
            starts,
        }
    }

    /// The rotation of `game`'s encoding.
    pub fn of<G: Encoding>(game: &G) -> Self {
        SeatRotation::new(&game.layout(), game.num_seats())
    }

    /// Length of the vectors it permutes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vectors are empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The absolute index that relative index `i` reads for `observer`.
    pub fn source(&self, observer: Seat, i: usize) -> usize {
        let o = usize::from(observer) % self.players;
        self.source[o * self.len + i] as usize
    }

    /// Writes `absolute` (an observation of `observer`, as encoded) relative to the observer
    /// into `relative` (both [`SeatRotation::len`] long; extra values are left alone).
    /// An index past the end of `absolute` reads 0.
    pub fn rotate(&self, observer: Seat, absolute: &[f32], relative: &mut [f32]) {
        let o = usize::from(observer) % self.players;
        // Whole blocks move (a seat's fields, the fields that stay), so copying runs costs
        // a few copies where a gather would cost one indexed load a value.
        for r in &self.runs[self.starts[o]..self.starts[o + 1]] {
            let (to, from, len) = (r.to as usize, r.from as usize, r.len as usize);
            let Some(out) = relative.get_mut(to..) else {
                break;
            };
            let n = len.min(out.len());
            let out = &mut out[..n];
            let have = absolute.len().saturating_sub(from).min(out.len());
            if have > 0 {
                out[..have].copy_from_slice(&absolute[from..from + have]);
            }
            out[have..].fill(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Bound, Encoder};

    /// Two seats of two fields each, a "seat to move" one-hot and a flag.
    fn layout() -> Vec<Field> {
        let mut layout = Vec::new();
        let mut e = Encoder::recording(&mut [], &mut layout);
        for k in 0..3u8 {
            e.seat(Some(k));
            e.scalar("coins", "", 0.0, Bound::count(9.0, 1.0));
            e.flag("ready", "", false);
        }
        e.seat(None);
        e.seats_from(1);
        e.one_hot("mover", "nobody, then seats", None, 4);
        e.flag("over", "", false);
        layout
    }

    #[test]
    fn seat_blocks_and_seat_entries_rotate_with_the_observer() {
        let r = SeatRotation::new(&layout(), 3);
        // seat0 (coins, ready), seat1, seat2, mover (nobody, s0, s1, s2), over.
        let abs = [10., 11., 20., 21., 30., 31., 0., 0., 0., 1., 7.];
        let mut rel = [0.0; 11];
        r.rotate(0, &abs, &mut rel);
        assert_eq!(rel, abs);
        r.rotate(1, &abs, &mut rel);
        assert_eq!(rel, [20., 21., 30., 31., 10., 11., 0., 0., 1., 0., 7.]);
        r.rotate(2, &abs, &mut rel);
        assert_eq!(rel, [30., 31., 10., 11., 20., 21., 0., 1., 0., 0., 7.]);
    }

    /// Copying runs gives what reading `source` index by index gives, for every observer, and
    /// reads 0 past the end of a short vector.
    #[test]
    fn rotating_by_runs_is_the_indexwise_permutation() {
        let r = SeatRotation::new(&layout(), 3);
        let abs: Vec<f32> = (0..11).map(|i| i as f32 + 1.0).collect();
        for o in 0..3u8 {
            let mut rel = [0.0; 11];
            r.rotate(o, &abs, &mut rel);
            let want: Vec<f32> = (0..11).map(|i| abs[r.source(o, i)]).collect();
            assert_eq!(rel.to_vec(), want);
            let mut short = [9.0; 11];
            r.rotate(o, &abs[..6], &mut short);
            let want: Vec<f32> = (0..11)
                .map(|i| abs[..6].get(r.source(o, i)).copied().unwrap_or(0.0))
                .collect();
            assert_eq!(short.to_vec(), want);
        }
        assert!(r.runs.len() < 3 * 11, "runs merge consecutive indices");
    }

    #[test]
    fn seats_beyond_the_player_count_stay() {
        let r = SeatRotation::new(&layout(), 2);
        let abs = [10., 11., 20., 21., 30., 31., 0., 1., 0., 0., 7.];
        let mut rel = [0.0; 11];
        r.rotate(1, &abs, &mut rel);
        assert_eq!(rel, [20., 21., 10., 11., 30., 31., 0., 0., 1., 0., 7.]);
    }
}
