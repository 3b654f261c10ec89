//! Small statistics: Wilson score intervals, chi-square, balance, and how capped games are
//! reported.

/// Above this share of capped games a result is decided by the round cap, not by the rules.
pub const CAPPED_WARN: f64 = 0.05;

/// The capped share as it stands beside every headline: "capped 12.3% [11.0%, 13.6%] of 2000
/// games at the 200-round cap".
pub fn capped_share(capped: u64, games: u64, max_rounds: u32) -> String {
    let (lo, hi) = wilson(capped as f64, games as f64);
    format!(
        "capped {:.1}% [{:.1}%, {:.1}%] of {games} games at the {max_rounds}-round cap",
        100.0 * capped as f64 / games.max(1) as f64,
        100.0 * lo,
        100.0 * hi
    )
}

/// The warning printed when more than [`CAPPED_WARN`] of the games were capped.
pub fn capped_warning(capped: u64, games: u64, max_rounds: u32) -> Option<String> {
    let share = capped as f64 / games.max(1) as f64;
    (share > CAPPED_WARN).then(|| {
        format!(
            "WARNING: {:.1}% of the games were stopped by the {max_rounds}-round cap (more than {:.0}%): \
             their winners were decided by the tie-break at the cap, not by the rules' end. \
             This result describes the cap, not the game.",
            100.0 * share,
            100.0 * CAPPED_WARN
        )
    })
}

/// The Wilson score interval for `successes` out of `n` at ~95% (z = 1.96). Successes may be
/// fractional (shared wins count 1/k).
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The mean of `xs` (paired differences, one per seed) and its 95% interval, from the normal
/// approximation with the sample variance: (mean, low, high). One value gives a point.
pub fn mean_interval(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.959_964 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

/// The 95% interval of a difference of two paired proportions, A's minus B's, from the seeds
/// that only A won (`only_a`), that only B won (`only_b`) and all `seeds`: Agresti and Min's
/// (2005) Wald interval with half a seed added to each cell of the 2x2 table, so that seeds
/// without a discordant pair still give an interval rather than a point. (low, high), within
/// -1..1.
pub fn paired_difference_interval(only_a: f64, only_b: f64, seeds: f64) -> (f64, f64) {
    if seeds <= 0.0 {
        return (-1.0, 1.0);
    }
    let (b, c, n) = (only_a + 0.5, only_b + 0.5, seeds + 2.0);
    let d = (b - c) / n;
    let var = ((b + c) - (b - c) * (b - c) / n) / (n * n);
    let half = 1.959_964 * var.max(0.0).sqrt();
    ((d - half).max(-1.0), (d + half).min(1.0))
}

/// Pearson's chi-square test of observed win counts against equal chances: (statistic, degrees
/// of freedom, p-value). Shared wins count fractionally.
pub fn chi_square_equal(wins: &[f64]) -> (f64, f64, f64) {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let total: f64 = wins.iter().sum();
    let k = wins.len() as f64;
    if total <= 0.0 || wins.len() < 2 {
        return (0.0, k - 1.0, 1.0);
    }
    let expected = total / k;
    let stat: f64 = wins
        .iter()
        .map(|&o| (o - expected).powi(2) / expected)
        .sum();
    let df = k - 1.0;
    let p = ChiSquared::new(df).map(|d| d.sf(stat)).unwrap_or(f64::NAN);
    (stat, df, p)
}

/// Holm-Bonferroni adjusted p-values, in the input order.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adj = vec![0.0; m];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adj[i] = running;
    }
    adj
}

/// Balance: 1 minus the largest gap between two seats' win rates.
pub fn balance(rates: &[f64]) -> f64 {
    let max = rates.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = rates.iter().cloned().fold(f64::INFINITY, f64::min);
    1.0 - (max - min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_difference_interval_is_agresti_mins() {
        // 10 seeds only A won, 4 only B, of 50: cells 10.5 and 4.5 of 52.
        let (lo, hi) = paired_difference_interval(10.0, 4.0, 50.0);
        let d = 6.0 / 52.0;
        let half = 1.959_964 * ((15.0 - 36.0 / 52.0) / (52.0f64 * 52.0)).sqrt();
        assert!((lo - (d - half)).abs() < 1e-12 && (hi - (d + half)).abs() < 1e-12);
        // No seed differs: an interval around 0 that narrows with the seeds, not a point.
        let (lo4, hi4) = paired_difference_interval(0.0, 0.0, 4.0);
        let (lo400, hi400) = paired_difference_interval(0.0, 0.0, 400.0);
        assert!(lo4 < 0.0 && hi4 > 0.0 && (lo4 + hi4).abs() < 1e-12);
        assert!(hi400 < hi4 && lo400 > lo4);
    }

    #[test]
    fn mean_interval_is_the_normal_interval_of_the_mean() {
        let (m, lo, hi) = mean_interval(&[1.0, 0.0, 0.0, -1.0, 1.0]);
        assert!((m - 0.2).abs() < 1e-12);
        // Sample variance 0.7 over 5 values.
        let half = 1.959_964 * (0.7f64 / 5.0).sqrt();
        assert!((lo - (0.2 - half)).abs() < 1e-12 && (hi - (0.2 + half)).abs() < 1e-12);
        assert_eq!(mean_interval(&[0.5]), (0.5, 0.5, 0.5));
    }

    #[test]
    fn chi_square_known_values() {
        // Equal counts: statistic 0, p = 1.
        let (x, df, p) = chi_square_equal(&[25.0, 25.0, 25.0, 25.0]);
        assert_eq!((x, df), (0.0, 3.0));
        assert!((p - 1.0).abs() < 1e-12);
        // 60 vs 40 of 100: statistic 4, df 1, p = 0.0455.
        let (x, _, p) = chi_square_equal(&[60.0, 40.0]);
        assert!((x - 4.0).abs() < 1e-12);
        assert!((p - 0.0455).abs() < 1e-3, "{p}");
        assert!((balance(&[0.2, 0.3, 0.25]) - 0.9).abs() < 1e-12);
        // A huge imbalance underflows; it prints as a bound, not as zero.
        let (_, _, p) = chi_square_equal(&[400_000.0, 600_000.0]);
        assert_eq!(crate::format::p_value(p), "p < 1e-300");
    }

    #[test]
    fn capped_warning_only_above_five_percent() {
        assert!(capped_warning(5, 100, 200).is_none());
        let w = capped_warning(6, 100, 200).unwrap();
        assert!(w.contains("6.0%") && w.contains("200-round cap"), "{w}");
        assert!(capped_share(0, 10, 50).starts_with("capped 0.0% [0.0%, 27.8%] of 10 games"));
    }

    #[test]
    fn wilson_known_value() {
        // 50 of 100: 0.4038 .. 0.5962
        let (lo, hi) = wilson(50.0, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3);
    }
}
