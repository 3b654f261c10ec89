//! One legal-move generator for two uses: listing the actions and counting them.
//!
//! A game writes its generator once, against [`Sink`]. A `Vec` is a sink that lists. [`Counter`]
//! counts without writing: a run of actions handed over with [`Sink::extend`] adds its length and
//! is never walked. Ginza Retro Café writes its listing this way, and counts where it only asks
//! whether a serve has any step. (It used to draw its random action by counting and then
//! building only the action drawn; since its serves and rerolls are taken die by die, a turn
//! lists few steps, and listing them once into a `Vec` costs less than walking the generator
//! twice.)
//!
//! The two agree by construction (one generator); `assert_counted_as_listed` holds every count to
//! the listing at every step of random games.

/// Where a generator puts the legal actions, in listing order.
pub(crate) trait Sink<A: Copy> {
    /// The next action.
    fn push(&mut self, a: A);

    /// The next `n` actions, which `next` yields one after another (a counter never calls it).
    fn extend(&mut self, n: usize, next: impl FnMut() -> A);

    /// Actions listed so far.
    fn listed(&self) -> usize;
}

impl<A: Copy> Sink<A> for Vec<A> {
    #[inline]
    fn push(&mut self, a: A) {
        Vec::push(self, a);
    }

    #[inline]
    fn extend(&mut self, n: usize, mut next: impl FnMut() -> A) {
        // One `extend` of a counted range: it reserves once and keeps the length in a register.
        Extend::extend(self, (0..n).map(|_| next()));
    }

    #[inline]
    fn listed(&self) -> usize {
        self.len()
    }
}

/// Counts the legal actions without writing them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counter {
    n: usize,
}

impl Counter {
    /// At no actions.
    pub(crate) fn new() -> Counter {
        Counter { n: 0 }
    }
}

impl<A: Copy> Sink<A> for Counter {
    #[inline]
    fn push(&mut self, _a: A) {
        self.n += 1;
    }

    #[inline]
    fn extend(&mut self, n: usize, _next: impl FnMut() -> A) {
        self.n += n;
    }

    #[inline]
    fn listed(&self) -> usize {
        self.n
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

/// Holds a generator's count to its listing in `s`; returns the listing's length.
#[cfg(test)]
pub(crate) fn assert_counted_as_listed<L: Listing>(game: &L, s: &L::State) -> usize {
    let mut listed = Vec::new();
    game.list(s, &mut listed);
    let mut count = Counter::new();
    game.list(s, &mut count);
    assert_eq!(count.n, listed.len(), "count against listing");
    listed.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listing of `parts` stretches, stretch `k` being `k % 5` pushes and then a run of
    /// `k % 3`, with runs between them.
    struct Toy {
        parts: u32,
    }

    /// A run of `n` actions `(k, from)`, `(k, from + 1)`, ...
    fn run<S: Sink<(u32, u32)>>(out: &mut S, k: u32, from: u32, n: u32) {
        let mut j = from;
        out.extend(n as usize, || {
            j += 1;
            (k, j - 1)
        });
    }

    impl Listing for Toy {
        type State = ();
        type Action = (u32, u32);

        fn list<S: Sink<(u32, u32)>>(&self, _: &(), out: &mut S) {
            out.push((0, 0));
            for k in 0..self.parts {
                for j in 0..k % 5 {
                    out.push((k, j));
                }
                run(out, k, 10, k % 3);
                run(out, k, 100, k % 2);
            }
            if out.listed() % 2 == 0 {
                out.push((u32::MAX, 0));
            }
        }
    }

    #[test]
    fn counts_agree_with_the_listing() {
        for parts in [0, 1, 7, 17] {
            let n = assert_counted_as_listed(&Toy { parts }, &());
            assert!(n > parts as usize / 2, "{parts} parts listed {n}");
        }
        let mut listed = Vec::new();
        Toy { parts: 3 }.list(&(), &mut listed);
        assert_eq!(
            listed,
            [
                (0, 0),
                (1, 0),
                (1, 10),
                (1, 100),
                (2, 0),
                (2, 1),
                (2, 10),
                (2, 11),
                (u32::MAX, 0)
            ]
        );
    }
}
