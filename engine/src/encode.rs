//! Fixed encodings for learners: each game's observation as a fixed-length `f32` vector with a
//! documented layout, and each of its actions as an index below a game-wide bound.
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    /// The field's name, for example `seat1.coins`.
    pub name: String,
    /// Index of its first value in the vector.
    pub offset: usize,
    /// Number of values.
    pub len: usize,
    /// What the values mean and how they are scaled.
    pub doc: &'static str,
}

/// Writes named fields into an observation vector; on a recording pass, also their layout.
///
/// Writing past the end of the vector is ignored (the length is still counted), so an encoder
/// that writes more or fewer values than the layout says is caught by [`Encoder::written`].
pub struct Encoder<'a> {
    out: &'a mut [f32],
    at: usize,
    prefix: Option<(&'static str, usize)>,
    layout: Option<&'a mut Vec<Field>>,
}

impl<'a> Encoder<'a> {
    /// An encoder writing into `out` from its start.
    pub fn new(out: &'a mut [f32]) -> Self {
        Encoder {
            out,
            at: 0,
            prefix: None,
            layout: None,
        }
    }

    /// An encoder that also records each field into `layout`.
    pub fn recording(out: &'a mut [f32], layout: &'a mut Vec<Field>) -> Self {
        Encoder {
            out,
            at: 0,
            prefix: None,
            layout: Some(layout),
        }
    }

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

    fn field(&mut self, name: &str, len: usize, doc: &'static str) {
        if let Some(l) = self.layout.as_deref_mut() {
            let name = match self.prefix {
                Some((list, k)) => format!("{list}{k}.{name}"),
                None => name.to_string(),
            };
            l.push(Field {
                name,
                offset: self.at,
                len,
                doc,
            });
        }
    }

    fn put(&mut self, v: f32) {
        if let Some(x) = self.out.get_mut(self.at) {
            *x = v;
        }
        self.at += 1;
    }

    /// One value.
    pub fn scalar(&mut self, name: &str, doc: &'static str, v: f32) {
        self.field(name, 1, doc);
        self.put(v);
    }

    /// A flag: 1 or 0.
    pub fn flag(&mut self, name: &str, doc: &'static str, v: bool) {
        self.scalar(name, doc, if v { 1.0 } else { 0.0 });
    }

    /// `n` values, 1 at `v` and 0 elsewhere (all 0 for `None` or `v >= n`).
    pub fn one_hot(&mut self, name: &str, doc: &'static str, v: Option<usize>, n: usize) {
        self.field(name, n, doc);
        for i in 0..n {
            self.put(if v == Some(i) { 1.0 } else { 0.0 });
        }
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
    pub fn bits(&mut self, name: &str, doc: &'static str, mask: u128, n: usize) {
        self.field(name, n, doc);
        for i in 0..n {
            self.put(if i < 128 && mask >> i & 1 == 1 {
                1.0
            } else {
                0.0
            });
        }
    }

    /// The values of `v`, each multiplied by `scale`.
    pub fn values(&mut self, name: &str, doc: &'static str, v: &[f32], scale: f32) {
        self.field(name, v.len(), doc);
        for &x in v {
            self.put(x * scale);
        }
    }
}

/// A game's fixed encoding for learners: observation vector and action indices.
///
/// Contract (checked by the tests of every game): the observation vector has the same length in
/// every position, depends only on [`Game::observation`], and every action legal anywhere maps
/// to an index below [`Encoding::action_count`] and back.
pub trait Encoding: Game {
    /// Writes the encoding of `obs` through `e`.
    fn encode(&self, obs: &Self::Observation, e: &mut Encoder<'_>);

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
        e.scalar("a", "", 2.0);
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
