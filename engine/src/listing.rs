//! One legal-move generator for three uses: listing the actions, counting them, and building only
//! the one a uniform draw picks.
//!
//! A game writes its generator once, against [`Sink`]. A `Vec` is a sink that lists. [`Counter`]
//! counts without writing: a run of actions handed over with [`Sink::extend`] adds its length and
//! is never walked. [`Pick`] runs the generator a second time to build action `index` only: a run
//! that does not hold it is skipped by its length, and a [`Sink::part`] that does not hold it (an
//! expensive stretch such as a turn's serves) is skipped by the length the count recorded.
//! [`draw_uniform`] puts the two passes together; Ginza Retro Café's
//! [`crate::Game::random_action`] calls it, since its turns list 32 actions on average, most of
//! them rerolls that are counted from a product and built from their number.
//!
//! The three agree by construction (one generator). `assert_counted_and_picked_as_listed`
//! holds every count and every pick to the listing at every step of random games, and the
//! randomized property tests hold `random_action` to listing and indexing under every rule
//! option.

use rand::Rng;

/// Where a generator puts the legal actions, in listing order.
pub(crate) trait Sink<A: Copy> {
    /// The next action.
    fn push(&mut self, a: A);

    /// The next `n` actions: `next` yields them one after another; `at(i)` builds the `i`-th
    /// (`i < n`) alone. Both must give the same actions.
    fn extend(&mut self, n: usize, next: impl FnMut() -> A, at: impl FnOnce(usize) -> A);

    /// A part of the listing that `f` writes into this sink. A counter records its length, so
    /// that the pick pass can skip it without running `f`. Parts are not nested.
    fn part(&mut self, f: impl FnOnce(&mut Self));

    /// Actions listed so far.
    fn listed(&self) -> usize;
}

impl<A: Copy> Sink<A> for Vec<A> {
    #[inline]
    fn push(&mut self, a: A) {
        Vec::push(self, a);
    }

    #[inline]
    fn extend(&mut self, n: usize, mut next: impl FnMut() -> A, _at: impl FnOnce(usize) -> A) {
        // One `extend` of a counted range: it reserves once and keeps the length in a register.
        Extend::extend(self, (0..n).map(|_| next()));
    }

    #[inline]
    fn part(&mut self, f: impl FnOnce(&mut Self)) {
        f(self)
    }

    #[inline]
    fn listed(&self) -> usize {
        self.len()
    }
}

/// Parts whose lengths a [`Counter`] records; later parts are run again by [`Pick`].
const RECORDED_PARTS: usize = 8;

/// Counts the legal actions without writing them, recording the length of each part.
#[derive(Debug, Clone)]
pub(crate) struct Counter {
    n: usize,
    parts: [usize; RECORDED_PARTS],
    recorded: usize,
    /// Inside a part (debug builds check that parts are not nested).
    #[cfg(debug_assertions)]
    in_part: bool,
}

impl Counter {
    /// At no actions.
    pub(crate) fn new() -> Counter {
        Counter {
            n: 0,
            parts: [0; RECORDED_PARTS],
            recorded: 0,
            #[cfg(debug_assertions)]
            in_part: false,
        }
    }
}

impl<A: Copy> Sink<A> for Counter {
    #[inline]
    fn push(&mut self, _a: A) {
        self.n += 1;
    }

    #[inline]
    fn extend(&mut self, n: usize, _next: impl FnMut() -> A, _at: impl FnOnce(usize) -> A) {
        self.n += n;
    }

    #[inline]
    fn part(&mut self, f: impl FnOnce(&mut Self)) {
        #[cfg(debug_assertions)]
        {
            assert!(!self.in_part, "parts are not nested");
            self.in_part = true;
        }
        let before = self.n;
        f(self);
        #[cfg(debug_assertions)]
        {
            self.in_part = false;
        }
        if self.recorded < RECORDED_PARTS {
            self.parts[self.recorded] = self.n - before;
            self.recorded += 1;
        }
    }

    #[inline]
    fn listed(&self) -> usize {
        self.n
    }
}

/// Builds only the action at `index` of the listing, skipping what the count has measured.
#[derive(Debug)]
pub(crate) struct Pick<'a, A> {
    index: usize,
    seen: usize,
    found: Option<A>,
    count: &'a Counter,
    part: usize,
}

impl<'a, A: Copy> Pick<'a, A> {
    /// For action `index` of a listing that `count` has counted.
    pub(crate) fn new(index: usize, count: &'a Counter) -> Self {
        Pick {
            index,
            seen: 0,
            found: None,
            count,
            part: 0,
        }
    }

    /// The action at the index, once the generator has run (none past the listing's end).
    pub(crate) fn found(&self) -> Option<A> {
        self.found
    }
}

impl<A: Copy> Sink<A> for Pick<'_, A> {
    #[inline]
    fn push(&mut self, a: A) {
        if self.seen == self.index {
            self.found = Some(a);
        }
        self.seen += 1;
    }

    #[inline]
    fn extend(&mut self, n: usize, _next: impl FnMut() -> A, at: impl FnOnce(usize) -> A) {
        if self.index >= self.seen && self.index - self.seen < n {
            self.found = Some(at(self.index - self.seen));
        }
        self.seen += n;
    }

    #[inline]
    fn part(&mut self, f: impl FnOnce(&mut Self)) {
        let k = self.part;
        self.part += 1;
        if k < self.count.recorded {
            let len = self.count.parts[k];
            let holds = self.index >= self.seen && self.index - self.seen < len;
            if !holds {
                self.seen += len;
                return;
            }
        }
        f(self)
    }

    #[inline]
    fn listed(&self) -> usize {
        self.seen
    }
}

/// A game's legal-move generator, written once against [`Sink`].
pub(crate) trait Listing {
    /// The game's state.
    type State;
    /// The game's action.
    type Action: Copy;

    /// Puts every legal action of `s` into `out`, in listing order (nothing once the game is
    /// over). A `Vec` must be empty first.
    fn list<S: Sink<Self::Action>>(&self, s: &Self::State, out: &mut S);
}

/// The action that listing and then indexing with `rng.gen_range(0..len)` gives, with the same
/// draw from `rng`, but built alone: the listing is counted, one index is drawn, and only that
/// action is built. `None` when nothing is legal (and nothing is drawn).
pub(crate) fn draw_uniform<L: Listing, R: Rng + ?Sized>(
    game: &L,
    s: &L::State,
    rng: &mut R,
) -> Option<L::Action> {
    let mut count = Counter::new();
    game.list(s, &mut count);
    if count.n == 0 {
        return None;
    }
    let index = rng.gen_range(0..count.n);
    let mut pick = Pick::new(index, &count);
    game.list(s, &mut pick);
    pick.found()
}

/// Holds a generator's count and every pick to its listing in `s`: the count is the listing's
/// length and pick `i` builds listed action `i`, whatever the parts skipped.
#[cfg(test)]
pub(crate) fn assert_counted_and_picked_as_listed<L: Listing>(game: &L, s: &L::State) -> usize
where
    L::Action: PartialEq + std::fmt::Debug,
{
    let mut listed = Vec::new();
    game.list(s, &mut listed);
    let mut count = Counter::new();
    game.list(s, &mut count);
    assert_eq!(count.n, listed.len(), "count against listing");
    for (i, &a) in listed.iter().enumerate() {
        let mut pick = Pick::new(i, &count);
        game.list(s, &mut pick);
        assert_eq!(pick.found(), Some(a), "pick {i} of {}", listed.len());
        assert_eq!(
            pick.listed(),
            listed.len(),
            "pick {i} saw the whole listing"
        );
    }
    let mut past = Pick::new(listed.len(), &count);
    game.list(s, &mut past);
    assert_eq!(past.found(), None, "a pick past the end");
    listed.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listing of `parts` parts, part `k` being `k % 5` pushes and then a run of `k % 3`,
    /// with pushes and runs between them: more parts than a counter records.
    struct Toy {
        parts: u32,
    }

    /// A run of `n` actions `(k, from)`, `(k, from + 1)`, ...
    fn run<S: Sink<(u32, u32)>>(out: &mut S, k: u32, from: u32, n: u32) {
        let mut j = from;
        out.extend(
            n as usize,
            || {
                j += 1;
                (k, j - 1)
            },
            |i| (k, from + i as u32),
        );
    }

    impl Listing for Toy {
        type State = ();
        type Action = (u32, u32);

        fn list<S: Sink<(u32, u32)>>(&self, _: &(), out: &mut S) {
            out.push((0, 0));
            for k in 0..self.parts {
                out.part(|out| {
                    for j in 0..k % 5 {
                        out.push((k, j));
                    }
                    run(out, k, 10, k % 3);
                });
                run(out, k, 100, k % 2);
            }
            if out.listed() % 2 == 0 {
                out.push((u32::MAX, 0));
            }
        }
    }

    #[test]
    fn counts_and_picks_agree_with_the_listing_past_the_recorded_parts() {
        for parts in [0, 1, 7, RECORDED_PARTS as u32, RECORDED_PARTS as u32 + 9] {
            let n = assert_counted_and_picked_as_listed(&Toy { parts }, &());
            assert!(n > parts as usize / 2, "{parts} parts listed {n}");
        }
    }

    #[test]
    fn a_uniform_draw_is_the_listed_action_at_the_drawn_index_with_the_same_draws() {
        let toy = Toy { parts: 40 };
        let mut listed = Vec::new();
        toy.list(&(), &mut listed);
        for seed in 0..500 {
            let mut by_listing = crate::rng_from_seed(seed);
            let mut by_draw = by_listing.clone();
            let want = listed[by_listing.gen_range(0..listed.len())];
            assert_eq!(draw_uniform(&toy, &(), &mut by_draw), Some(want));
            assert_eq!(by_draw.gen::<u64>(), by_listing.gen::<u64>());
        }
    }
}
