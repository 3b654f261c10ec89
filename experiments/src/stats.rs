//! Small statistics: Wilson score intervals.

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

#[cfg(test)]
mod tests {
    use super::*;

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
