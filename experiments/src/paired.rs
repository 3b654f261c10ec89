//! Paired comparisons of cells that play the same seeds (a sweep's grid): unit i (a game, or a
//! seed under rotation) of one cell is unit i of every other, so a difference between two cells
//! is measured unit by unit and the seeds' own luck cancels.
//!
//! - each component's (a seat's, or a turn position's) win-share difference to a baseline cell:
//!   the mean of the per-unit differences, with a normal 95% interval;
//! - unfairness, the largest |win share − 1/n|, and its difference to the baseline, with a 95%
//!   percentile interval from a paired bootstrap (the same units drawn for every cell);
//! - each cell's bootstrap probability of having the lowest unfairness of the grid.
//!
//! The bootstrap is seeded from the run's master seed (ChaCha8), so a run prints the same
//! figures every time.

use crate::bootstrap::quantile;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Bootstrap replicates of the paired comparison.
pub const REPLICATES: usize = 1000;

/// The ChaCha8 stream of the paired bootstrap (seeded with the run's master seed).
const PAIRED_STREAM: u64 = 0x0009_a1ed;

/// An estimate with its 95% interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Interval {
    /// The estimate.
    pub estimate: f64,
    /// Low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// One cell's per-unit shares: `k` values per unit, unit by unit.
#[derive(Clone, Copy)]
pub struct CellShares<'a> {
    /// The shares.
    pub shares: &'a [f32],
    /// Components per unit.
    pub k: usize,
}

impl CellShares<'_> {
    /// Units held.
    pub fn units(&self) -> usize {
        self.shares.len() / self.k.max(1)
    }

    /// The mean share of each component.
    pub fn means(&self) -> Vec<f64> {
        let n = self.units().max(1) as f64;
        let mut m = vec![0.0; self.k];
        for unit in self.shares.chunks_exact(self.k) {
            for (a, &x) in m.iter_mut().zip(unit) {
                *a += f64::from(x);
            }
        }
        m.iter().map(|x| x / n).collect()
    }
}

/// Unfairness: the largest |share − 1/n| over the components.
pub fn unfairness(means: &[f64]) -> f64 {
    let fair = 1.0 / means.len().max(1) as f64;
    means.iter().map(|m| (m - fair).abs()).fold(0.0, f64::max)
}

/// Each component's win-share difference `cell − base`, unit by unit, with a normal 95%
/// interval.
pub fn share_differences(cell: CellShares<'_>, base: CellShares<'_>) -> Vec<Interval> {
    let n = cell.units().min(base.units());
    let k = cell.k;
    (0..k)
        .map(|j| {
            let d =
                |u: usize| f64::from(cell.shares[u * k + j]) - f64::from(base.shares[u * k + j]);
            let mean = (0..n).map(d).sum::<f64>() / n.max(1) as f64;
            let var = if n > 1 {
                (0..n).map(|u| (d(u) - mean).powi(2)).sum::<f64>() / (n - 1) as f64
            } else {
                0.0
            };
            let half = crate::equivalence::z(0.975) * (var / n.max(1) as f64).sqrt();
            Interval {
                estimate: mean,
                ci_low: mean - half,
                ci_high: mean + half,
            }
        })
        .collect()
}

/// What the paired bootstrap finds for every cell.
pub struct Paired {
    /// Each cell's unfairness minus the baseline's, with its 95% percentile interval.
    pub unfairness_diff: Vec<Interval>,
    /// Each open cell's probability of the lowest unfairness; none for a closed cell.
    pub p_best: Vec<Option<f64>>,
}

/// The paired bootstrap of `cells` (same units, same order): `open` marks the cells that may be
/// best (not decided by the round cap); `base` is the baseline; `seed` the run's master seed.
pub fn paired_bootstrap(cells: &[CellShares<'_>], open: &[bool], base: usize, seed: u64) -> Paired {
    let units = cells.iter().map(|c| c.units()).min().unwrap_or(0);
    let observed: Vec<f64> = cells.iter().map(|c| unfairness(&c.means())).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(PAIRED_STREAM);
    let mut u_star = vec![vec![0.0; REPLICATES]; cells.len()];
    let mut idx = vec![0usize; units];
    for b in 0..REPLICATES {
        for i in idx.iter_mut() {
            *i = rng.gen_range(0..units.max(1));
        }
        for (c, cell) in cells.iter().enumerate() {
            let mut sum = vec![0.0f64; cell.k];
            for &u in &idx {
                for (s, &x) in sum
                    .iter_mut()
                    .zip(&cell.shares[u * cell.k..(u + 1) * cell.k])
                {
                    *s += f64::from(x);
                }
            }
            let means: Vec<f64> = sum.iter().map(|s| s / units.max(1) as f64).collect();
            u_star[c][b] = unfairness(&means);
        }
    }
    let mut wins = vec![0u32; cells.len()];
    for b in 0..REPLICATES {
        let best = (0..cells.len())
            .filter(|&c| open[c])
            .min_by(|&x, &y| u_star[x][b].total_cmp(&u_star[y][b]));
        if let Some(c) = best {
            wins[c] += 1;
        }
    }
    let unfairness_diff = (0..cells.len())
        .map(|c| {
            let mut d: Vec<f64> = (0..REPLICATES)
                .map(|b| u_star[c][b] - u_star[base][b])
                .collect();
            d.sort_by(f64::total_cmp);
            Interval {
                estimate: observed[c] - observed[base],
                ci_low: quantile(&d, 0.025),
                ci_high: quantile(&d, 0.975),
            }
        })
        .collect();
    Paired {
        unfairness_diff,
        p_best: (0..cells.len())
            .map(|c| open[c].then(|| f64::from(wins[c]) / REPLICATES as f64))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `units` two-seat units: seat 1 wins the first `wins` of them.
    fn cell(units: usize, wins: usize) -> Vec<f32> {
        (0..units)
            .flat_map(|u| if u < wins { [1.0, 0.0] } else { [0.0, 1.0] })
            .collect()
    }

    #[test]
    fn paired_differences_cancel_the_seeds_luck() {
        // The cells agree on every unit but 30 of 1000: the difference is 0.03 with a narrow
        // interval, though each cell's own share has a ±0.03 interval.
        let (a, b) = (cell(1000, 500), cell(1000, 530));
        let d = share_differences(
            CellShares { shares: &b, k: 2 },
            CellShares { shares: &a, k: 2 },
        );
        assert!((d[0].estimate - 0.03).abs() < 1e-9, "{d:?}");
        assert!(d[0].ci_low > 0.018 && d[0].ci_high < 0.042, "{d:?}");
    }

    #[test]
    fn probability_of_being_best_favours_the_fairest_open_cell() {
        let (fair, off, worse) = (cell(2000, 1000), cell(2000, 1200), cell(2000, 1000));
        let cells = [
            CellShares { shares: &off, k: 2 },
            CellShares {
                shares: &fair,
                k: 2,
            },
            CellShares {
                shares: &worse,
                k: 2,
            },
        ];
        // The third cell is closed (the round cap decides it): it is never best.
        let p = paired_bootstrap(&cells, &[true, true, false], 0, 1);
        assert_eq!(p.p_best[2], None);
        assert!(p.p_best[1].unwrap() > 0.99, "{:?}", p.p_best);
        let d = p.unfairness_diff[1];
        assert!((d.estimate + 0.1).abs() < 1e-9 && d.ci_high < 0.0, "{d:?}");
        // The same seed gives the same figures.
        let q = paired_bootstrap(&cells, &[true, true, false], 0, 1);
        assert_eq!(q.unfairness_diff[1].ci_low, d.ci_low);
    }
}
