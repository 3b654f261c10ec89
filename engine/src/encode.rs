//! Fixed encodings for learners: each game's observation as a fixed-length vector with a
//! documented layout, and each of its actions as an index below a game-wide bound.
//!
//! The vector comes in two forms from one encoding pass: `f32` values (counts scaled to about
//! 0..1), or `u8` values, a quarter of the memory, exact for flags, one-hot and bit fields and
//! for counts up to 255 (see [`Bound`]). Every field declares the bound its values lie in, so a
//! learner can build a bounded observation space ([`Encoding::bounds`]).
//!
//! A game implements [`Encoding`] by writing its observation through an [`Encoder`], one named
//! field at a time. The same code writes the vector and, on a recording pass, the layout
//! ([`Field`]: name, offset, length, meaning), so the two cannot drift apart; `shifu encoding
//! --game NAME` prints it.
//!
//! The encoding is computed from [`Game::observation`] alone, so it holds nothing the seat cannot
//! see. Seats are absolute (`seat0` is the first player), as in the action indices, and every
//! encoding says which seat observes, so a learner shared by every seat knows whose view it
//! reads.

use crate::game::{Game, Seat};
use rand::SeedableRng;

/// One named field of an encoding.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Field {
    /// The field's name, for example `seat1.coins`.
    pub name: String,
    /// Index of its first value in the vector.
    pub offset: usize,
    /// Number of values.
    pub len: usize,
    /// What the values mean and how they are scaled.
    pub doc: &'static str,
    /// The values each of its entries can take, and their `u8` form.
    pub bound: Bound,
    /// Where the field's entries start to name seats, one entry per seat (a one-hot "which
    /// seat"), if they do: [`crate::SeatRotation`] rotates them with the observer. Not printed
    /// by `shifu encoding`.
    #[serde(skip)]
    pub seats_from: Option<usize>,
}

/// The values one field's entries can take in the `f32` observation, and how the `u8`
/// observation stores them.
///
/// Every reachable position encodes to a value in `low..=high`. The `u8` observation stores a
/// value `v` as `q = round((v - zero) / step)` clamped to `0..=255`, which reads back as
/// `zero + q * step`: exact for flags, one-hot and bit fields (`zero` 0, `step` 1) and for
/// counts from 0 to 255 (`step` is one count), clamped beyond.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Bound {
    /// The smallest value.
    pub low: f32,
    /// The largest value.
    pub high: f32,
    /// The value the `u8` form 0 stands for.
    pub zero: f32,
    /// The value of one `u8` step.
    pub step: f32,
}

impl Bound {
    /// 0 or 1: flags, one-hot and bit fields.
    pub const UNIT: Bound = Bound {
        low: 0.0,
        high: 1.0,
        zero: 0.0,
        step: 1.0,
    };

    /// A count from 0 to `max`, encoded as `count / div`; the `u8` form is the count itself
    /// (clamped to 255).
    pub fn count(max: f32, div: f32) -> Bound {
        Bound {
            low: 0.0,
            high: max / div,
            zero: 0.0,
            step: 1.0 / div,
        }
    }

    /// A count from `min` to `max` (`min < 0`), encoded as `count / div`; the `u8` form is
    /// `count + 128` (clamped to `0..=255`: counts from -128 to 127 are exact).
    pub fn signed(min: f32, max: f32, div: f32) -> Bound {
        Bound {
            low: min / div,
            high: max / div,
            zero: -128.0 / div,
            step: 1.0 / div,
        }
    }

    /// A measure from 0 to `high` (a time, say); the `u8` form splits `0..=top` into 255 even
    /// steps (clamped above `top`).
    pub fn measure(high: f32, top: f32) -> Bound {
        Bound {
            low: 0.0,
            high,
            zero: 0.0,
            step: top / 255.0,
        }
    }

    /// The `u8` form of `v`.
    #[inline]
    pub fn quantize(&self, v: f32) -> u8 {
        // Rounds half up; `as` saturates at 0 and 255 (and takes NaN to 0).
        ((v - self.zero) / self.step + 0.5) as u8
    }

    /// The value the `u8` form `q` stands for.
    pub fn dequantize(&self, q: u8) -> f32 {
        self.zero + f32::from(q) * self.step
    }
}

/// Where an [`Encoder`] writes: `f32` values (`&mut [f32]`), their `u8` form (`&mut [u8]`), or
/// `f32` values with the layout recorded ([`Recording`]). The encoder is generic over it, so
/// each form is compiled on its own, with no branch on the form per value.
///
/// Writes past the end of the vector are ignored.
pub trait Sink {
    /// Whether the encoder records each field (the recording pass).
    const RECORDS: bool = false;
    /// Writes a 1 at `i`.
    fn one(&mut self, i: usize);
    /// Writes `v` at `i`: as it is, or in its `u8` form under `bound`.
    fn value(&mut self, i: usize, v: f32, bound: &Bound);
    /// Writes the counts `v` from `i` on: each times `scale`, or in the `u8` form, the count
    /// minus `zero` (rounded half up, saturating).
    fn counts(&mut self, i: usize, v: &[f32], scale: f32, zero: f32);
    /// Records one field (only called when [`Sink::RECORDS`]).
    fn record(&mut self, _field: Field) {}
}

impl Sink for &mut [f32] {
    #[inline(always)]
    fn one(&mut self, i: usize) {
        if let Some(x) = self.get_mut(i) {
            *x = 1.0;
        }
    }
    #[inline(always)]
    fn value(&mut self, i: usize, v: f32, _bound: &Bound) {
        if let Some(x) = self.get_mut(i) {
            *x = v;
        }
    }
    #[inline(always)]
    fn counts(&mut self, i: usize, v: &[f32], scale: f32, _zero: f32) {
        if let Some(o) = self.get_mut(i..i + v.len()) {
            for (y, &x) in o.iter_mut().zip(v) {
                *y = x * scale;
            }
        }
    }
}

impl Sink for &mut [u8] {
    #[inline(always)]
    fn one(&mut self, i: usize) {
        if let Some(x) = self.get_mut(i) {
            *x = 1;
        }
    }
    #[inline(always)]
    fn value(&mut self, i: usize, v: f32, bound: &Bound) {
        if let Some(x) = self.get_mut(i) {
            *x = bound.quantize(v);
        }
    }
    #[inline(always)]
    fn counts(&mut self, i: usize, v: &[f32], _scale: f32, zero: f32) {
        if let Some(o) = self.get_mut(i..i + v.len()) {
            for (y, &x) in o.iter_mut().zip(v) {
                // Rounds half up; `as` saturates at 0 and 255.
                *y = (x - zero + 0.5) as u8;
            }
        }
    }
}

/// The recording pass's [`Sink`]: `f32` values, and each field into a layout.
pub struct Recording<'a> {
    out: &'a mut [f32],
    layout: &'a mut Vec<Field>,
}

impl Sink for Recording<'_> {
    const RECORDS: bool = true;
    fn one(&mut self, i: usize) {
        self.out.one(i);
    }
    fn value(&mut self, i: usize, v: f32, bound: &Bound) {
        self.out.value(i, v, bound);
    }
    fn counts(&mut self, i: usize, v: &[f32], scale: f32, zero: f32) {
        self.out.counts(i, v, scale, zero);
    }
    fn record(&mut self, field: Field) {
        self.layout.push(field);
    }
}

/// Writes named fields into an observation vector through a [`Sink`] (`f32` values, `u8`
/// values, or `f32` values and their layout).
///
/// The vector is zero-filled once and only the non-zero values are written, so a one-hot or bit
/// field costs what it holds, not its length. Writing past the end of the vector is ignored
/// (the length is still counted), so an encoder that writes more or fewer values than the
/// layout says is caught by [`Encoder::written`].
pub struct Encoder<S> {
    out: S,
    at: usize,
    prefix: Option<(&'static str, usize)>,
    seats_from: Option<usize>,
}

impl<'a> Encoder<&'a mut [f32]> {
    /// An encoder writing `f32` values into `out` from its start.
    pub fn new(out: &'a mut [f32]) -> Self {
        out.fill(0.0);
        Encoder {
            out,
            at: 0,
            prefix: None,
            seats_from: None,
        }
    }
}

impl<'a> Encoder<&'a mut [u8]> {
    /// An encoder writing the `u8` form of each value (see [`Bound`]) into `out`.
    pub fn new_u8(out: &'a mut [u8]) -> Self {
        out.fill(0);
        Encoder {
            out,
            at: 0,
            prefix: None,
            seats_from: None,
        }
    }
}

impl<'a> Encoder<Recording<'a>> {
    /// An encoder writing `f32` values into `out` that also records each field into `layout`.
    pub fn recording(out: &'a mut [f32], layout: &'a mut Vec<Field>) -> Self {
        out.fill(0.0);
        Encoder {
            out: Recording { out, layout },
            at: 0,
            prefix: None,
            seats_from: None,
        }
    }
}

impl<S: Sink> Encoder<S> {
    /// Values written so far.
    pub fn written(&self) -> usize {
        self.at
    }

    /// Names the fields that follow as belonging to seat `k` (`None`: fields of the table).
    pub fn seat(&mut self, k: Option<u8>) {
        self.prefix = k.map(|k| ("seat", usize::from(k)));
    }

    /// Names the fields that follow as belonging to entry `k` of the list `list`, for example
    /// `log3.answer` (`None`: fields of the table).
    pub fn within(&mut self, entry: Option<(&'static str, usize)>) {
        self.prefix = entry;
    }

    /// Marks the next field's entries from `k` on as naming seats, one per seat (see
    /// [`Field::seats_from`]).
    pub fn seats_from(&mut self, k: usize) {
        self.seats_from = Some(k);
    }

    #[inline(always)]
    fn field(&mut self, name: &str, len: usize, doc: &'static str, bound: Bound) {
        if S::RECORDS {
            self.record(name, len, doc, bound);
        }
    }

    /// Records one field (the recording pass only).
    #[cold]
    #[inline(never)]
    fn record(&mut self, name: &str, len: usize, doc: &'static str, bound: Bound) {
        let name = match self.prefix {
            Some((list, k)) => format!("{list}{k}.{name}"),
            None => name.to_string(),
        };
        self.out.record(Field {
            name,
            offset: self.at,
            len,
            doc,
            bound,
            seats_from: self.seats_from.take(),
        });
    }

    /// One value, within `bound`.
    #[inline]
    pub fn scalar(&mut self, name: &str, doc: &'static str, v: f32, bound: Bound) {
        self.field(name, 1, doc, bound);
        self.out.value(self.at, v, &bound);
        self.at += 1;
    }

    /// A flag: 1 or 0.
    #[inline]
    pub fn flag(&mut self, name: &str, doc: &'static str, v: bool) {
        self.field(name, 1, doc, Bound::UNIT);
        if v {
            self.out.one(self.at);
        }
        self.at += 1;
    }

    /// `n` values, 1 at `v` and 0 elsewhere (all 0 for `None` or `v >= n`).
    #[inline]
    pub fn one_hot(&mut self, name: &str, doc: &'static str, v: Option<usize>, n: usize) {
        self.field(name, n, doc, Bound::UNIT);
        if let Some(v) = v.filter(|&v| v < n) {
            self.out.one(self.at + v);
        }
        self.at += n;
    }

    /// The two fields every game's vector starts with: `observer` (the observing seat) and
    /// `players` (the player count), each one-hot, for a game of at most `max_players` seats.
    pub fn observer_and_players(&mut self, observer: usize, players: usize, max_players: usize) {
        self.one_hot(
            "observer",
            "the observing seat",
            Some(observer),
            max_players,
        );
        self.one_hot(
            "players",
            "number of players, one-hot from 0",
            Some(players),
            max_players + 1,
        );
    }

    /// The low `n` bits of `mask`, one value (1 or 0) per bit.
    #[inline]
    pub fn bits(&mut self, name: &str, doc: &'static str, mask: u128, n: usize) {
        self.field(name, n, doc, Bound::UNIT);
        let m = if n >= 128 {
            mask
        } else {
            mask & ((1u128 << n) - 1)
        };
        // In 64-bit halves: a bit costs a few instructions, where a 128-bit loop costs twenty.
        for (half, base) in [(m as u64, self.at), ((m >> 64) as u64, self.at + 64)] {
            let mut x = half;
            while x != 0 {
                self.out.one(base + x.trailing_zeros() as usize);
                x &= x - 1;
            }
        }
        self.at += n;
    }

    /// The values of `v`, counts in `range`, each multiplied by `scale`. The `u8` form holds the
    /// count (clamped to 255), or the count + 128 when `range` takes in negative counts.
    #[inline]
    pub fn values(
        &mut self,
        name: &str,
        doc: &'static str,
        v: &[f32],
        scale: f32,
        range: std::ops::RangeInclusive<f32>,
    ) {
        let zero = if *range.start() < 0.0 { -128.0 } else { 0.0 };
        let bound = Bound {
            low: range.start() * scale,
            high: range.end() * scale,
            zero: zero * scale,
            step: scale,
        };
        self.field(name, v.len(), doc, bound);
        self.out.counts(self.at, v, scale, zero);
        self.at += v.len();
    }
}

/// A game's fixed encoding for learners: observation vector and action indices.
///
/// Contract (checked by the tests of every game): the observation vector has the same length in
/// every position, depends only on [`Game::observation`], and every action legal anywhere maps
/// to an index below [`Encoding::action_count`] and back.
pub trait Encoding: Game {
    /// Writes the encoding of `obs` through `e`.
    fn encode<S: Sink>(&self, obs: &Self::Observation, e: &mut Encoder<S>);

    /// The bound on action indices: every action's index is below it.
    fn action_count(&self) -> usize;

    /// The action's index (below [`Encoding::action_count`]).
    fn action_index(&self, action: Self::Action) -> usize;

    /// The action with this index, if any action has it.
    fn index_action(&self, index: usize) -> Option<Self::Action>;

    /// The layout of the observation vector, field by field (from a recording pass over a new
    /// game's first observation).
    fn layout(&self) -> Vec<Field> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        let s = self.new_state(&mut rng);
        let obs = self.observation(&s, 0);
        let mut layout = Vec::new();
        let mut e = Encoder::recording(&mut [], &mut layout);
        self.encode(&obs, &mut e);
        layout
    }

    /// Length of the observation vector.
    fn observation_len(&self) -> usize {
        self.layout().last().map_or(0, |f| f.offset + f.len)
    }

    /// Writes the encoding of `seat`'s observation of `state` into `out` and returns how many
    /// values the encoder wrote (equal to `out.len()` when `out` is
    /// [`Encoding::observation_len`] long).
    fn encode_observation(&self, state: &Self::State, seat: Seat, out: &mut [f32]) -> usize {
        let obs = self.observation(state, seat);
        let mut e = Encoder::new(out);
        self.encode(&obs, &mut e);
        e.written()
    }

    /// Writes the `u8` form (see [`Bound`]) of `seat`'s observation of `state` into `out`, and
    /// returns how many values the encoder wrote.
    fn encode_observation_u8(&self, state: &Self::State, seat: Seat, out: &mut [u8]) -> usize {
        let obs = self.observation(state, seat);
        let mut e = Encoder::new_u8(out);
        self.encode(&obs, &mut e);
        e.written()
    }

    /// Each value's bound, in vector order (from [`Encoding::layout`]).
    fn bounds(&self) -> Vec<Bound> {
        self.layout()
            .iter()
            .flat_map(|f| std::iter::repeat_n(f.bound, f.len))
            .collect()
    }

    /// Writes the legal-action mask of `state` into `out` (length [`Encoding::action_count`]):
    /// 1 where the action with that index is legal. `legal` is a scratch buffer.
    fn legal_mask(&self, state: &Self::State, legal: &mut Vec<Self::Action>, out: &mut [u8]) {
        out.fill(0);
        self.legal_actions(state, legal);
        for &a in legal.iter() {
            if let Some(x) = out.get_mut(self.action_index(a)) {
                *x = 1;
            }
        }
    }
}

/// Index arithmetic for actions: variants laid out one after another, each a block of
/// `size` indices.
#[derive(Debug, Clone, Copy)]
pub struct Blocks<const N: usize> {
    starts: [usize; N],
    total: usize,
}

impl<const N: usize> Blocks<N> {
    /// Blocks of the given sizes, in order.
    pub const fn new(sizes: [usize; N]) -> Self {
        let mut starts = [0; N];
        let mut total = 0;
        let mut i = 0;
        while i < N {
            starts[i] = total;
            total += sizes[i];
            i += 1;
        }
        Blocks { starts, total }
    }

    /// The number of indices in all blocks.
    pub const fn total(&self) -> usize {
        self.total
    }

    /// The index of offset `k` within block `b`.
    pub const fn at(&self, b: usize, k: usize) -> usize {
        self.starts[b] + k
    }

    /// The block holding `index` and the offset within it.
    pub fn find(&self, index: usize) -> Option<(usize, usize)> {
        if index >= self.total {
            return None;
        }
        let b = self.starts.partition_point(|&s| s <= index) - 1;
        Some((b, index - self.starts[b]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_find_inverts_at() {
        let b = Blocks::new([3, 0, 5, 1]);
        assert_eq!(b.total(), 9);
        for (blk, size) in [(0, 3), (2, 5), (3, 1)] {
            for k in 0..size {
                assert_eq!(b.find(b.at(blk, k)), Some((blk, k)));
            }
        }
        assert_eq!(b.find(9), None);
    }

    #[test]
    fn the_encoder_records_what_it_writes() {
        let mut out = [9.0f32; 8];
        let mut layout = Vec::new();
        let mut e = Encoder::recording(&mut out, &mut layout);
        e.scalar("a", "", 2.0, Bound::count(10.0, 1.0));
        e.seat(Some(1));
        e.one_hot("b", "", Some(1), 3);
        e.seat(None);
        e.bits("c", "", 0b10, 3);
        e.flag("d", "", true);
        assert_eq!(e.written(), 8);
        assert_eq!(out, [2.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0]);
        let names: Vec<_> = layout.iter().map(|f| (f.name.as_str(), f.offset)).collect();
        assert_eq!(names, [("a", 0), ("seat1.b", 1), ("c", 4), ("d", 7)]);
    }
}
