//! Least squares with a cluster-robust (sandwich) variance, for `shifu dose`.
//!
//! The observations of one cluster (one seed: the same game index in every setting, all its
//! seats) are dependent: seats' win shares in a game sum to 1, and a seed deals the same cards
//! in every setting. The sandwich variance `(X'X)⁻¹ (Σ_g s_g s_gᵀ) (X'X)⁻¹`, with `s_g` the sum
//! of `x·residual` over cluster g, allows any dependence inside a cluster and none between
//! them. It is scaled by the usual small-sample factor `G/(G−1) · (N−1)/(N−K)` (Stata's CR1),
//! and intervals use Student's t with G−1 degrees of freedom.

use nalgebra::{DMatrix, DVector};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// An estimate with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The point estimate.
    pub estimate: f64,
    /// Its cluster-robust standard error.
    pub std_error: f64,
    /// The 95% interval's low end.
    pub ci_low: f64,
    /// The 95% interval's high end.
    pub ci_high: f64,
}

impl Estimate {
    /// An estimate with a standard error and the t quantile for 95%.
    pub fn new(estimate: f64, std_error: f64, t: f64) -> Estimate {
        Estimate {
            estimate,
            std_error,
            ci_low: estimate - t * std_error,
            ci_high: estimate + t * std_error,
        }
    }
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:+.4} [{:+.4}, {:+.4}]",
            self.estimate, self.ci_low, self.ci_high
        )
    }
}

/// A least-squares fit: the coefficients and their cluster-robust covariance.
#[derive(Debug, Clone)]
pub struct ClusterFit {
    /// The coefficients, in the design's column order.
    pub coef: DVector<f64>,
    /// Their covariance (CR1 sandwich).
    pub cov: DMatrix<f64>,
    /// Clusters with at least one observation.
    pub clusters: usize,
    /// The 97.5% quantile of Student's t with `clusters − 1` degrees of freedom.
    pub t: f64,
}

/// Why a fit failed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FitError {
    /// `X'X` is singular: the design cannot tell the coefficients apart.
    #[error("the design cannot separate the coefficients (X'X is singular): {0}")]
    Singular(&'static str),
    /// Fewer than two clusters, or no more observations than coefficients.
    #[error("too few observations: {0} clusters, {1} observations for {2} coefficients")]
    TooFew(usize, usize, usize),
}

impl ClusterFit {
    /// Coefficient `j` with its interval.
    pub fn estimate(&self, j: usize) -> Estimate {
        Estimate::new(self.coef[j], self.cov[(j, j)].max(0.0).sqrt(), self.t)
    }

    /// A linear combination `w · coef` with its interval.
    pub fn combination(&self, w: &DVector<f64>) -> Estimate {
        let var = (w.transpose() * &self.cov * w)[(0, 0)];
        Estimate::new(w.dot(&self.coef), var.max(0.0).sqrt(), self.t)
    }
}

/// Ordinary least squares of `y` on the columns of `x`, with the sandwich covariance clustered
/// by `cluster` (ids from 0; `x`, `y` and `cluster` have one entry per observation). `what`
/// names the design in the error when it is singular.
pub fn cluster_ols(
    x: &DMatrix<f64>,
    y: &DVector<f64>,
    cluster: &[usize],
    what: &'static str,
) -> Result<ClusterFit, FitError> {
    let (n, k) = x.shape();
    let groups = cluster.iter().max().map_or(0, |&g| g + 1);
    let mut used = vec![false; groups];
    cluster.iter().for_each(|&g| used[g] = true);
    let g_count = used.iter().filter(|&&u| u).count();
    if g_count < 2 || n <= k {
        return Err(FitError::TooFew(g_count, n, k));
    }
    let xtx = x.transpose() * x;
    let inv = xtx
        .clone()
        .cholesky()
        .map(|c| c.inverse())
        .ok_or(FitError::Singular(what))?;
    let coef = &inv * (x.transpose() * y);
    let resid = y - x * &coef;
    let mut scores = DMatrix::<f64>::zeros(groups, k);
    for (r, &g) in cluster.iter().enumerate() {
        for j in 0..k {
            scores[(g, j)] += x[(r, j)] * resid[r];
        }
    }
    let meat = scores.transpose() * &scores;
    let (gf, nf, kf) = (g_count as f64, n as f64, k as f64);
    let scale = gf / (gf - 1.0) * (nf - 1.0) / (nf - kf);
    let cov = &inv * meat * &inv * scale;
    let t = StudentsT::new(0.0, 1.0, gf - 1.0)
        .map(|d| d.inverse_cdf(0.975))
        .unwrap_or(1.959_964);
    Ok(ClusterFit {
        coef,
        cov,
        clusters: g_count,
        t,
    })
}

/// The slope of `y` on `x` with an intercept, clustered by `cluster`.
pub fn slope(x: &[f64], y: &[f64], cluster: &[usize]) -> Result<Estimate, FitError> {
    let design = DMatrix::from_fn(x.len(), 2, |r, c| if c == 0 { 1.0 } else { x[r] });
    let fit = cluster_ols(
        &design,
        &DVector::from_column_slice(y),
        cluster,
        "every kept value is the same",
    )?;
    Ok(fit.estimate(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn dose_slope_covers_a_known_slope_and_matches_per_seed_slopes() {
        // y = 0.3 + 0.1·x + a seed effect shared across x + noise, 400 seeds × 5 doses.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let xs = [0.5, 0.75, 1.0, 1.25, 1.5];
        let (mut x, mut y, mut g) = (Vec::new(), Vec::new(), Vec::new());
        let mut per_seed = Vec::new();
        for seed in 0..400 {
            let shared: f64 = rng.gen_range(-0.3..0.3);
            let mut ys = Vec::new();
            for &d in &xs {
                let v = 0.3 + 0.1 * d + shared + rng.gen_range(-0.2..0.2);
                x.push(d);
                y.push(v);
                g.push(seed);
                ys.push(v);
            }
            // The seed's own least-squares slope.
            let mx = xs.iter().sum::<f64>() / 5.0;
            let my = ys.iter().sum::<f64>() / 5.0;
            let sxy: f64 = xs.iter().zip(&ys).map(|(a, b)| (a - mx) * (b - my)).sum();
            let sxx: f64 = xs.iter().map(|a| (a - mx).powi(2)).sum();
            per_seed.push(sxy / sxx);
        }
        let s = slope(&x, &y, &g).unwrap();
        assert!(s.ci_low < 0.1 && 0.1 < s.ci_high, "{s}");
        // Balanced design: the pooled slope is the mean of the per-seed slopes, and the
        // sandwich variance is their variance over n, up to the CR1 factor.
        let n = per_seed.len() as f64;
        let mean = per_seed.iter().sum::<f64>() / n;
        let var = per_seed.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / (n - 1.0) / n;
        assert!((s.estimate - mean).abs() < 1e-12);
        let (nf, k) = (x.len() as f64, 2.0);
        let cr1_vs_block = (nf - 1.0) / (nf - k);
        assert!(
            (s.std_error.powi(2) - var * cr1_vs_block).abs() < 1e-12 * var.max(1.0),
            "{} vs {}",
            s.std_error.powi(2),
            var
        );
    }

    #[test]
    fn sandwich_matches_a_hand_computation() {
        // Four observations in two clusters, y on (1, x).
        let x = DMatrix::from_row_slice(4, 2, &[1.0, 0.0, 1.0, 1.0, 1.0, 2.0, 1.0, 3.0]);
        let y = DVector::from_column_slice(&[1.0, 2.0, 2.0, 5.0]);
        let fit = cluster_ols(&x, &y, &[0, 0, 1, 1], "test").unwrap();
        // OLS: mean x 1.5, mean y 2.5, Sxy = 6, Sxx = 5 → b = 1.2, a = 0.7.
        assert!((fit.coef[1] - 1.2).abs() < 1e-12 && (fit.coef[0] - 0.7).abs() < 1e-12);
        // Residuals: 0.3, 0.1, -1.1, 0.7. Scores per cluster: (0.4, 0.1), (-0.4, -0.1).
        // (X'X)⁻¹ = [[0.7, -0.3], [-0.3, 0.2]]; meat = [[0.32, 0.08], [0.08, 0.02]].
        let inv = DMatrix::from_row_slice(2, 2, &[0.7, -0.3, -0.3, 0.2]);
        let meat = DMatrix::from_row_slice(2, 2, &[0.32, 0.08, 0.08, 0.02]);
        let scale = 2.0 / 1.0 * 3.0 / 2.0;
        let want = &inv * meat * &inv * scale;
        assert!((&fit.cov - &want).abs().max() < 1e-12, "{}", fit.cov);
        assert_eq!(fit.clusters, 2);
        // t with 1 degree of freedom: 12.706.
        assert!((fit.t - 12.706).abs() < 1e-3);
    }

    #[test]
    fn seat_effects_and_a_common_coin_slope_are_recovered() {
        // win = α_seat + 0.05·(coins − the game's mean coins), clusters of 3 seats whose shares
        // sum to 1. With the others' coins drawn independently, own coins alone move the win
        // by 0.05·(1 − 1/3) per coin: that is the β the fit estimates.
        let alpha = [0.40, 0.33, 0.27];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (mut rows, mut y, mut g) = (Vec::new(), Vec::new(), Vec::new());
        for game in 0..3000 {
            let coins: Vec<f64> = (0..3).map(|_| rng.gen_range(0..4) as f64).collect();
            let mean = coins.iter().sum::<f64>() / 3.0;
            let p: Vec<f64> = (0..3)
                .map(|s| alpha[s] + 0.05 * (coins[s] - mean))
                .collect();
            let u: f64 = rng.gen();
            let winner = if u < p[0] {
                0
            } else if u < p[0] + p[1] {
                1
            } else {
                2
            };
            for s in 0..3 {
                let mut r = vec![0.0; 4];
                r[s] = 1.0;
                r[3] = coins[s] - 1.5;
                rows.extend(r);
                y.push(f64::from(u8::from(s == winner)));
                g.push(game);
            }
        }
        let x = DMatrix::from_row_slice(y.len(), 4, &rows);
        let fit = cluster_ols(&x, &DVector::from_vec(y), &g, "test").unwrap();
        let beta = fit.estimate(3);
        let want = 0.05 * 2.0 / 3.0;
        assert!(beta.ci_low < want && want < beta.ci_high, "{beta}");
        assert!(beta.ci_low > 0.0, "{beta}");
        for (s, &a) in alpha.iter().enumerate() {
            let e = fit.estimate(s);
            assert!(e.ci_low < a && a < e.ci_high, "seat {s}: {e}");
        }
        let bad = DMatrix::from_row_slice(4, 2, &[1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
        let y = DVector::from_column_slice(&[1.0, 0.0, 1.0, 0.0]);
        assert!(matches!(
            cluster_ols(&bad, &y, &[0, 0, 1, 1], "x"),
            Err(FitError::Singular(_))
        ));
    }
}
