//! Balance with its bias removed and a 95% interval, by a parametric bootstrap of the seats'
//! mean win shares, seeded from the run's master seed (ChaCha8), so the same run prints the same
//! figures.
//!
//! Balance (1 − the largest gap between two seats' win shares) is biased down by noise: the
//! range of noisy shares exceeds the range of the true ones, so a perfectly fair four-seat game
//! scores 0.941 on average at 300 games. The bootstrap draws the mean share vector `B` times from
//! the normal law with the observed means and covariance (the per-unit covariance over the units;
//! games as units from the totals: the multinomial covariance `diag(p) − ppᵀ`), and gives:
//! - the corrected balance `1 − max(0, 2R − mean R*)`, the bootstrap bias correction of the range
//!   `R`;
//! - a conservative 95% interval `[1 − R*₉₇.₅, 1 − max(0, 2R − R*₉₇.₅)]`: the range's upper end is
//!   the bootstrap's 97.5th percentile (biased up, so balance's low end is low), its lower end
//!   the basic bootstrap's (kept at 0 or more, so balance's high end is at most 1). Near equal
//!   shares the range is not smooth and the plain bootstrap intervals shrink to a point; this
//!   one keeps a fair game's spread;
//! - the balance a perfectly fair game with the same spread scores on average at this count:
//!   the yardstick for the raw figure.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use statrs::distribution::Normal;

/// Bootstrap replicates.
pub const REPLICATES: usize = 2000;

/// The ChaCha8 stream of the balance bootstrap (seeded with the run's master seed).
const BALANCE_STREAM: u64 = 0x00ba_1ace;

/// Balance corrected for the game count, with its interval.
#[derive(Debug, Clone, Serialize)]
pub struct BalanceInterval {
    /// `1 − max(0, 2R − mean R*)`: balance with the bootstrap's estimate of the noise's bias
    /// removed (at most 1).
    pub corrected: f64,
    /// The conservative 95% bootstrap interval: low end.
    pub ci_low: f64,
    /// High end (at most 1).
    pub ci_high: f64,
    /// The raw balance a perfectly fair game with the same spread scores on average at this
    /// count.
    pub fair_game: f64,
    /// Bootstrap replicates.
    pub replicates: usize,
}

/// The range (largest minus smallest) of `x`.
pub fn range(x: &[f64]) -> f64 {
    let max = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = x.iter().cloned().fold(f64::INFINITY, f64::min);
    max - min
}

/// The lower-triangular `L` with `L Lᵀ = a` for a positive semidefinite `k × k` matrix `a` (row
/// by row); a column whose pivot is zero (a share fixed by the others) stays zero.
pub fn cholesky_psd(a: &[f64], k: usize) -> Vec<f64> {
    let scale = (0..k).map(|i| a[i * k + i].abs()).fold(0.0, f64::max);
    let mut l = vec![0.0f64; k * k];
    for j in 0..k {
        let d = a[j * k + j] - (0..j).map(|m| l[j * k + m].powi(2)).sum::<f64>();
        if d <= 1e-12 * scale {
            continue;
        }
        let ljj = d.sqrt();
        l[j * k + j] = ljj;
        for i in j + 1..k {
            let s: f64 = (0..j).map(|m| l[i * k + m] * l[j * k + m]).sum();
            l[i * k + j] = (a[i * k + j] - s) / ljj;
        }
    }
    l
}

/// The multinomial covariance `diag(p) − ppᵀ` of one game's win shares, row by row.
pub fn multinomial_cov(p: &[f64]) -> Vec<f64> {
    let k = p.len();
    let mut c = vec![0.0; k * k];
    for a in 0..k {
        for b in 0..k {
            c[a * k + b] = if a == b { p[a] } else { 0.0 } - p[a] * p[b];
        }
    }
    c
}

/// The `q` quantile (0..1) of sorted `x`, by linear interpolation.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Balance of the mean shares `means` over `units` units whose per-unit covariance is `cov`
/// (row by row), corrected and with its 95% interval; `seed` is the run's master seed.
pub fn balance_interval(means: &[f64], cov: &[f64], units: u64, seed: u64) -> BalanceInterval {
    let k = means.len();
    let n = units.max(1) as f64;
    let scaled: Vec<f64> = cov.iter().map(|c| c / n).collect();
    let l = cholesky_psd(&scaled, k);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(BALANCE_STREAM);
    let normal = Normal::new(0.0, 1.0).expect("the standard normal");
    let fair = 1.0 / k.max(1) as f64;
    let (mut ranges, mut fair_sum) = (Vec::with_capacity(REPLICATES), 0.0);
    let (mut z, mut x, mut y) = (vec![0.0; k], vec![0.0; k], vec![0.0; k]);
    for _ in 0..REPLICATES {
        for v in z.iter_mut() {
            *v = rand::distributions::Distribution::sample(&normal, &mut rng);
        }
        for i in 0..k {
            let e: f64 = (0..=i).map(|m| l[i * k + m] * z[m]).sum();
            x[i] = means[i] + e;
            y[i] = fair + e;
        }
        ranges.push(range(&x));
        fair_sum += range(&y);
    }
    ranges.sort_by(f64::total_cmp);
    let r = range(means);
    let mean_star = ranges.iter().sum::<f64>() / REPLICATES as f64;
    BalanceInterval {
        corrected: 1.0 - (2.0 * r - mean_star).max(0.0),
        ci_low: (1.0 - quantile(&ranges, 0.975)).max(0.0),
        ci_high: 1.0 - (2.0 * r - quantile(&ranges, 0.975)).max(0.0),
        fair_game: 1.0 - fair_sum / REPLICATES as f64,
        replicates: REPLICATES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_totals(p: &[f64], games: u64, seed: u64) -> BalanceInterval {
        balance_interval(p, &multinomial_cov(p), games, seed)
    }

    #[test]
    fn balance_fair_game_yardstick_matches_the_audit() {
        // The audit: a fair 4-seat game scores 0.941 on average at 300 games, 0.977 at 2,000.
        let b = from_totals(&[0.25; 4], 300, 1);
        assert!((b.fair_game - 0.941).abs() < 0.004, "{b:?}");
        let b = from_totals(&[0.25; 4], 2000, 1);
        assert!((b.fair_game - 0.977).abs() < 0.002, "{b:?}");
    }

    #[test]
    fn balance_correction_moves_a_noisy_fair_game_towards_one() {
        // Shares as noisy as a fair game's at 300 games: the raw balance is 0.94; the corrected
        // one is higher, and the interval reaches 1.
        let p = [0.27, 0.24, 0.26, 0.23];
        let b = from_totals(&p, 300, 7);
        assert!(b.corrected > 0.96 && b.corrected <= 1.0, "{b:?}");
        assert!(b.ci_high == 1.0 && b.ci_low < 0.95, "{b:?}");
        // A large gap seen over many games is barely corrected, and the interval excludes 1.
        let p = [0.35, 0.25, 0.2, 0.2];
        let b = from_totals(&p, 20_000, 7);
        assert!((b.corrected - 0.85).abs() < 0.005, "{b:?}");
        assert!(b.ci_low < b.corrected && b.corrected < b.ci_high && b.ci_high < 1.0);
    }

    #[test]
    fn balance_interval_of_exactly_equal_shares_keeps_a_fair_games_spread() {
        // 60 two-seat games split 30/30: balance 1, but the interval is not a point.
        let b = from_totals(&[0.5, 0.5], 60, 1);
        assert_eq!((b.corrected, b.ci_high), (1.0, 1.0));
        assert!(b.ci_low < 0.8 && b.ci_low > 0.6, "{b:?}");
    }

    #[test]
    fn balance_bootstrap_is_deterministic_per_seed() {
        let p = [0.3, 0.2, 0.25, 0.25];
        let (a, b) = (from_totals(&p, 500, 3), from_totals(&p, 500, 3));
        assert_eq!((a.corrected, a.ci_low), (b.corrected, b.ci_low));
        let c = from_totals(&p, 500, 4);
        assert_ne!(a.ci_low, c.ci_low);
    }

    #[test]
    fn cholesky_of_a_multinomial_covariance_reproduces_it() {
        let p = [0.5, 0.3, 0.2];
        let a = multinomial_cov(&p);
        let l = cholesky_psd(&a, 3);
        for i in 0..3 {
            for j in 0..3 {
                let s: f64 = (0..3).map(|m| l[i * 3 + m] * l[j * 3 + m]).sum();
                assert!((s - a[i * 3 + j]).abs() < 1e-12, "{i} {j}");
            }
        }
    }
}
