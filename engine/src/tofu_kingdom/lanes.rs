//! One step of the deal enumeration (`worlds.rs`) on eight 16-bit lanes, one per depth: the
//! domains of the seats still to deal once a seat takes a card. On x86-64 the eight lanes are one
//! SSE2 register (about 25 instructions a card tried, against about 80 lane by lane); elsewhere
//! the same step runs lane by lane. A test holds the two to the same answers.

use super::data::MAX_CHARACTERS;
use super::state::MAX_PLAYERS;

/// Eight lanes, one per depth.
pub(super) type Lanes = [u16; MAX_PLAYERS];

/// Which lanes the step reads at one depth, for one number of seats dealt.
#[derive(Debug, Clone, Copy)]
pub(super) struct DepthMasks {
    /// `u16::MAX` in the lanes of the seats not dealt after this depth (dealt already, this one,
    /// or beyond the last): lanes whose domain may be empty.
    pub(super) outside: Lanes,
    /// `u16::MAX` in the lanes of the seats dealt after the next one.
    pub(super) after_next: Lanes,
    /// `u16::MAX` in the lane of the seat dealt next.
    pub(super) next: Lanes,
}

/// What the enumeration knows of one depth: the ties of each card there and the lanes its step
/// reads.
#[derive(Debug, Clone, Copy)]
pub(super) struct Depth {
    /// `ties[p][k]`: where the seat dealt at depth `k` may hold its card when the seat dealt at
    /// this depth holds the card at deck position `p` (every answer tying the two seats
    /// together), never at `p` itself.
    pub(super) ties: [Lanes; MAX_CHARACTERS],
    /// `MASKS[n][d]` for this record's `n` and this depth `d`, copied beside the ties: read from
    /// the table itself, the walk keeps one more address and spills registers (measured about
    /// 1,200 instructions a determinization more at 8 players).
    pub(super) masks: DepthMasks,
}

/// `MASKS[n][d]`: the masks of depth `d` when `n` seats are dealt.
pub(super) const MASKS: [[DepthMasks; MAX_PLAYERS]; MAX_PLAYERS + 1] = {
    let mut t = [[DepthMasks {
        outside: [u16::MAX; MAX_PLAYERS],
        after_next: [0; MAX_PLAYERS],
        next: [0; MAX_PLAYERS],
    }; MAX_PLAYERS]; MAX_PLAYERS + 1];
    let mut n = 0;
    while n <= MAX_PLAYERS {
        let mut d = 0;
        while d < MAX_PLAYERS {
            let mut k = d + 1;
            while k < n {
                t[n][d].outside[k] = 0;
                if k == d + 1 {
                    t[n][d].next[k] = u16::MAX;
                } else {
                    t[n][d].after_next[k] = u16::MAX;
                }
                k += 1;
            }
            d += 1;
        }
        n += 1;
    }
    t
};

/// `TIES_NONE[p]`: the ties of a card at deck position `p` to seats no answer ties to its
/// holder: every position but `p`.
pub(super) const TIES_NONE: [Lanes; MAX_CHARACTERS] = {
    let mut t = [[0; MAX_PLAYERS]; MAX_CHARACTERS];
    let mut p = 0;
    while p < MAX_CHARACTERS {
        t[p] = [!(1 << p); MAX_PLAYERS];
        p += 1;
    }
    t
};

/// The domains of the later seats when the seat at the depth of masks `m` takes a card whose ties
/// to the later seats are `ties` (which also take the card itself away): each narrowed by them;
/// then a later seat left one card forbids it to the next seat. Written to
/// `out`; returns false when a later seat is left nothing. Lanes outside the later seats are
/// don't-cares.
#[inline(always)]
pub(super) fn narrow(domains: &Lanes, ties: &Lanes, m: &DepthMasks, out: &mut Lanes) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        narrow_sse2(domains, ties, m, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        narrow_lane_by_lane(domains, ties, m, out)
    }
}

/// [`narrow`], lane by lane.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn narrow_lane_by_lane(domains: &Lanes, ties: &Lanes, m: &DepthMasks, out: &mut Lanes) -> bool {
    let mut forced = 0;
    for k in 0..MAX_PLAYERS {
        let d = domains[k] & ties[k];
        out[k] = d;
        if d & d.wrapping_sub(1) == 0 {
            forced |= d & m.after_next[k];
        }
    }
    let mut ok = true;
    for k in 0..MAX_PLAYERS {
        out[k] &= !(forced & m.next[k]);
        ok &= (out[k] | m.outside[k]) != 0;
    }
    ok
}

/// [`narrow`] in one SSE2 register.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn narrow_sse2(domains: &Lanes, ties: &Lanes, m: &DepthMasks, out: &mut Lanes) -> bool {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of every x86-64 target; the loads and the store read and write
    // 16-byte arrays (unaligned accesses).
    unsafe {
        let load = |a: &Lanes| _mm_loadu_si128(a.as_ptr().cast());
        let zero = _mm_setzero_si128();
        let x = _mm_and_si128(load(domains), load(ties));
        // Lanes with at most one card: x & (x - 1) == 0.
        let single = _mm_cmpeq_epi16(_mm_and_si128(x, _mm_add_epi16(x, _mm_set1_epi16(-1))), zero);
        // The cards of the later seats left one, OR-ed into every lane.
        let mut f = _mm_and_si128(_mm_and_si128(x, single), load(&m.after_next));
        f = _mm_or_si128(f, _mm_shuffle_epi32::<0x4E>(f));
        f = _mm_or_si128(f, _mm_shuffle_epi32::<0xB1>(f));
        f = _mm_or_si128(
            f,
            _mm_or_si128(_mm_slli_epi32::<16>(f), _mm_srli_epi32::<16>(f)),
        );
        let x = _mm_andnot_si128(_mm_and_si128(f, load(&m.next)), x);
        _mm_storeu_si128(out.as_mut_ptr().cast(), x);
        _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_or_si128(x, load(&m.outside)), zero)) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// The vector step and the lane-by-lane step agree on random domains, ties and depths,
    /// sparse ones included (so that lanes are often left one card or none).
    #[test]
    fn the_vector_step_narrows_as_the_lane_by_lane_step() {
        let mut rng = crate::rng_from_seed(5);
        let (mut kept, mut pruned) = (0, 0);
        for _ in 0..200_000 {
            let n = rng.gen_range(2..=MAX_PLAYERS);
            let depth = rng.gen_range(0..n - 1);
            let m = &MASKS[n][depth];
            let sparse = |rng: &mut crate::GameRng| -> u16 {
                rng.gen::<u16>() & rng.gen::<u16>() & rng.gen::<u16>() & 0x0FFF
            };
            let domains: Lanes = std::array::from_fn(|_| sparse(&mut rng) | sparse(&mut rng));
            let ties: Lanes = std::array::from_fn(|_| rng.gen::<u16>() | rng.gen::<u16>());
            let (mut a, mut b) = ([0; MAX_PLAYERS], [0; MAX_PLAYERS]);
            let ok = narrow(&domains, &ties, m, &mut a);
            assert_eq!(ok, narrow_lane_by_lane(&domains, &ties, m, &mut b));
            let later =
                |x: &Lanes| std::array::from_fn::<u16, MAX_PLAYERS, _>(|k| x[k] & !m.outside[k]);
            assert_eq!(later(&a), later(&b), "{domains:?} {ties:?} {m:?}");
            if ok {
                kept += 1;
            } else {
                pruned += 1;
            }
        }
        assert!(kept > 20_000 && pruned > 20_000, "{kept} {pruned}");
    }
}
