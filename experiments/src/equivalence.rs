//! Statistics that can say "fair": an equivalence test (TOST) of every component (a seat's win
//! share, a team's win rate) against its target at a stated margin, and the three-way verdict
//! every `shifu` command prints:
//!
//! - **fair within the margin:** every component's 90% interval lies inside target ± margin
//!   (Schuirmann's two one-sided tests at 5%, joined as an intersection-union test, so no
//!   multiplicity correction is needed);
//! - **unfair:** some component differs from its target (two-sided, Bonferroni-Holm over the
//!   components at 5%) and the equivalence test fails;
//! - **undetermined:** neither, with the number of games that would settle it (80% power if the
//!   observed values were the truth).
//!
//! A large p-value is never read as fairness, and a cell the round cap decides gets no verdict.

use crate::stats::CAPPED_WARN;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

/// The default margin: every seat within ±0.02 of its fair share.
pub const DEFAULT_MARGIN: f64 = 0.02;
/// The significance level of both the equivalence and the difference test.
pub const ALPHA: f64 = 0.05;
/// The power assumed when estimating the games that would settle an undetermined verdict.
pub const POWER: f64 = 0.8;

fn normal() -> Normal {
    Normal::new(0.0, 1.0).expect("the standard normal")
}

/// The normal quantile `Φ⁻¹(p)`.
pub fn z(p: f64) -> f64 {
    normal().inverse_cdf(p)
}

/// The upper tail `1 − Φ(x)`.
pub fn upper_tail(x: f64) -> f64 {
    normal().sf(x)
}

/// Per-unit sums of several components (a unit is a game, or a seed played once per rotation):
/// their means and the spread of a unit's value, for the tests below.
#[derive(Debug, Clone, Default)]
pub struct UnitMeans {
    sum: Vec<f64>,
    sum_sq: Vec<f64>,
    /// Sums of products of two components' values, `k × k` row by row.
    sum_cross: Vec<f64>,
    units: u64,
}

impl UnitMeans {
    /// Sums for `k` components.
    pub fn new(k: usize) -> Self {
        UnitMeans {
            sum: vec![0.0; k],
            sum_sq: vec![0.0; k],
            sum_cross: vec![0.0; k * k],
            units: 0,
        }
    }

    /// Adds one unit's values (one per component).
    pub fn add(&mut self, values: &[f64]) {
        let n = self.sum.len();
        for (k, &v) in values.iter().enumerate().take(n) {
            self.sum[k] += v;
            self.sum_sq[k] += v * v;
            for (j, &w) in values.iter().enumerate().take(n) {
                self.sum_cross[k * n + j] += v * w;
            }
        }
        self.units += 1;
    }

    /// Components summed.
    pub fn len(&self) -> usize {
        self.sum.len()
    }

    /// Whether there are no components.
    pub fn is_empty(&self) -> bool {
        self.sum.is_empty()
    }

    /// The per-unit covariance of components `a` and `b` (n − 1 in the denominator).
    pub fn cov(&self, a: usize, b: usize) -> f64 {
        let n = self.units as f64;
        if n < 2.0 {
            return 0.0;
        }
        let k = self.sum.len();
        let (ma, mb) = (self.sum[a] / n, self.sum[b] / n);
        (self.sum_cross[a * k + b] / n - ma * mb) * n / (n - 1.0)
    }

    /// Units added.
    pub fn units(&self) -> u64 {
        self.units
    }

    /// Component `k`'s mean.
    pub fn mean(&self, k: usize) -> f64 {
        self.sum[k] / self.units.max(1) as f64
    }

    /// Component `k`'s per-unit standard deviation (n − 1 in the denominator).
    pub fn sd(&self, k: usize) -> f64 {
        let n = self.units as f64;
        if n < 2.0 {
            return 0.0;
        }
        let m = self.sum[k] / n;
        ((self.sum_sq[k] / n - m * m).max(0.0) * n / (n - 1.0)).sqrt()
    }

    /// The components against their targets, labelled.
    pub fn components(&self, labels: &[String], targets: &[f64]) -> Vec<Component> {
        (0..self.sum.len())
            .map(|k| Component {
                label: labels[k].clone(),
                mean: self.mean(k),
                sd: self.sd(k),
                target: targets[k],
            })
            .collect()
    }
}

/// One quantity under test: its mean over the units, the per-unit standard deviation, and the
/// value that would be fair.
#[derive(Debug, Clone, Serialize)]
pub struct Component {
    /// What it is, for example `seat 2` or `team win`.
    pub label: String,
    /// Its mean over the units.
    pub mean: f64,
    /// A unit's standard deviation (the mean's standard error is `sd / √units`).
    pub sd: f64,
    /// The fair value (1/n for a seat's win share).
    pub target: f64,
}

/// A component's figures in a verdict.
#[derive(Debug, Clone, Serialize)]
pub struct ComponentTest {
    /// What it is.
    pub label: String,
    /// Its mean.
    pub mean: f64,
    /// The fair value.
    pub target: f64,
    /// The 95% interval of the mean: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// The TOST p-value (the larger of the two one-sided p-values).
    pub p_equivalence: f64,
    /// The two-sided p-value of "the mean equals the target".
    pub p_difference: f64,
}

/// The three-way verdict, or none.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Every component lies within the margin of its target (TOST at 5%).
    Fair,
    /// Some component differs from its target and equivalence is not shown. `beyond_margin`:
    /// that component's 95% interval lies wholly outside target ± margin.
    Unfair {
        /// The gap is shown to exceed the margin, not only to exist.
        beyond_margin: bool,
    },
    /// The data cannot tell; about `games_needed` games in all would settle it.
    Undetermined {
        /// Games in all (these included) for 80% power if the observed values were the truth;
        /// none when no count would (every deviation exactly zero and the spread too).
        games_needed: Option<u64>,
    },
    /// No verdict: the round cap decides too many games, or there are too few.
    NoVerdict {
        /// Why.
        reason: String,
    },
}

/// An equivalence test's result: the verdict, its margin and p-values, and the components.
#[derive(Debug, Clone, Serialize)]
pub struct Equivalence {
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The margin: each component within target ± margin counts as fair.
    pub margin: f64,
    /// The intersection-union TOST p-value: the largest component's; below 0.05 is "fair".
    pub p_equivalence: f64,
    /// The Holm-corrected p-value of "every component equals its target" (the smallest
    /// component's p times the component count).
    pub p_difference: f64,
    /// The largest |mean − target| over the components.
    pub largest_deviation: f64,
    /// The component with that deviation.
    pub worst: String,
    /// Units behind the test (games, or seeds under rotation).
    pub units: u64,
    /// Games per unit.
    pub games_per_unit: u64,
    /// Games behind the test.
    pub games: u64,
    /// Every component's figures.
    pub components: Vec<ComponentTest>,
}

/// Tests `components` (means over `units` units of `games_per_unit` games each) for equivalence
/// to their targets at `margin`. `capped` is (capped games, games): above [`CAPPED_WARN`] the
/// round cap decides the result, and there is no verdict; `games` is also the count the verdict
/// names.
pub fn test(
    components: &[Component],
    units: u64,
    games_per_unit: u64,
    margin: f64,
    capped: (u64, u64),
) -> Equivalence {
    let n = units as f64;
    let k = components.len().max(1) as f64;
    let z975 = z(0.975);
    // The standard error is at least one game's worth: units that all agree exactly (under
    // rotation at 2 seats, one agent winning every game) still leave that much uncertainty.
    let se_floor = 1.0 / (units.max(1) * games_per_unit.max(1)) as f64;
    let tests: Vec<ComponentTest> = components
        .iter()
        .map(|c| {
            let se = (c.sd / n.max(1.0).sqrt()).max(se_floor);
            let d = c.mean - c.target;
            let (p_lo, p_hi, p_diff) = if se > 0.0 {
                (
                    upper_tail((d + margin) / se),
                    upper_tail((margin - d) / se),
                    2.0 * upper_tail(d.abs() / se),
                )
            } else {
                let inside = |x: f64| if x > 0.0 { 0.0 } else { 1.0 };
                (
                    inside(d + margin),
                    inside(margin - d),
                    if d == 0.0 { 1.0 } else { 0.0 },
                )
            };
            ComponentTest {
                label: c.label.clone(),
                mean: c.mean,
                target: c.target,
                ci_low: c.mean - z975 * se,
                ci_high: c.mean + z975 * se,
                p_equivalence: p_lo.max(p_hi),
                p_difference: p_diff.min(1.0),
            }
        })
        .collect();
    let p_equivalence = tests.iter().map(|t| t.p_equivalence).fold(0.0, f64::max);
    let p_min = tests.iter().map(|t| t.p_difference).fold(1.0, f64::min);
    let p_difference = (p_min * k).min(1.0);
    let (worst_i, largest) = components
        .iter()
        .enumerate()
        .map(|(i, c)| (i, (c.mean - c.target).abs()))
        .fold((0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
    let verdict = if capped.1 > 0 && capped.0 as f64 / capped.1 as f64 > CAPPED_WARN {
        Verdict::NoVerdict {
            reason: format!(
                "{:.1}% of the games were stopped by the round cap (more than {:.0}%)",
                100.0 * capped.0 as f64 / capped.1 as f64,
                100.0 * CAPPED_WARN
            ),
        }
    } else if units < 2 {
        Verdict::NoVerdict {
            reason: "fewer than 2 games".into(),
        }
    } else if p_equivalence < ALPHA {
        Verdict::Fair
    } else if p_difference < ALPHA {
        let beyond_margin = tests
            .iter()
            .any(|t| t.ci_low > t.target + margin || t.ci_high < t.target - margin);
        Verdict::Unfair { beyond_margin }
    } else {
        // Without spread, the floor of one game decides: the games at which it is small enough.
        let floor_games = (largest < margin)
            .then(|| ((z(1.0 - ALPHA) + z(POWER)) / (margin - largest)).ceil() as u64);
        Verdict::Undetermined {
            games_needed: units_needed(components, margin)
                .map(|u| (u.max(units + 1)).saturating_mul(games_per_unit.max(1)))
                .or(floor_games.map(|g| g.max((units + 1) * games_per_unit.max(1)))),
        }
    };
    Equivalence {
        verdict,
        margin,
        p_equivalence,
        p_difference,
        largest_deviation: largest,
        worst: components
            .get(worst_i)
            .map(|c| c.label.clone())
            .unwrap_or_default(),
        units,
        games_per_unit,
        games: if capped.1 > 0 {
            capped.1
        } else {
            units * games_per_unit.max(1)
        },
        components: tests,
    }
}

/// Units that would settle the verdict with 80% power if the observed means and spreads were
/// the truth: the fewer of what the equivalence test needs (every component inside the margin)
/// and what the difference test needs (the largest standardized deviation).
pub fn units_needed(components: &[Component], margin: f64) -> Option<u64> {
    let zp = z(POWER);
    let k = components.len().max(1) as f64;
    let z_eq = z(1.0 - ALPHA);
    let z_diff = z(1.0 - ALPHA / (2.0 * k));
    let mut tost: Option<f64> = Some(0.0);
    let mut diff: Option<f64> = None;
    for c in components {
        let d = (c.mean - c.target).abs();
        if c.sd <= 0.0 {
            continue;
        }
        let need_eq = (d < margin).then(|| ((z_eq + zp) * c.sd / (margin - d)).powi(2));
        tost = match (tost, need_eq) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
        if d > 0.0 {
            let need = ((z_diff + zp) * c.sd / d).powi(2);
            diff = Some(diff.map_or(need, |x: f64| x.min(need)));
        }
    }
    let tost = tost.filter(|&t| t > 0.0);
    let best = match (tost, diff) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    best.map(|u| u.ceil() as u64)
}

/// The seats' win shares as components against the fair share 1/n, from per-seat totals of a
/// run whose games are the units. A game's win share is 0, 1/k on a k-way shared win, or 1, so
/// its variance is at most p(1 − p): that bound is the spread used (exact without shared wins).
pub fn seat_components(wins: &[f64], games: u64) -> Vec<Component> {
    let n = games.max(1) as f64;
    let fair = 1.0 / wins.len().max(1) as f64;
    wins.iter()
        .enumerate()
        .map(|(s, &w)| {
            let p = w / n;
            Component {
                label: format!("seat {}", s + 1),
                mean: p,
                sd: (p * (1.0 - p)).max(0.0).sqrt(),
                target: fair,
            }
        })
        .collect()
}

impl Equivalence {
    /// The verdict in one plain sentence.
    pub fn sentence(&self) -> String {
        let m = self.margin;
        let worst = self.components.iter().find(|c| c.label == self.worst);
        let worst_text = worst
            .map(|c| {
                format!(
                    "{} {:.3} [{:.3}, {:.3}] against {:.3}",
                    c.label, c.mean, c.ci_low, c.ci_high, c.target
                )
            })
            .unwrap_or_default();
        let games = self.games;
        match &self.verdict {
            Verdict::Fair => format!(
                "verdict: fair within ±{m}: every {} lies within {m} of its fair value (TOST at 5%, p = {}; the largest gap: {worst_text}; {games} games).",
                self.noun(),
                crate::format::p_number(self.p_equivalence)
            ),
            Verdict::Unfair { beyond_margin } => format!(
                "verdict: unfair: {worst_text} (p = {} after Holm's correction; {}; {games} games).",
                crate::format::p_number(self.p_difference),
                if *beyond_margin {
                    format!("the gap exceeds the ±{m} margin")
                } else {
                    format!("whether the gap exceeds the ±{m} margin is not settled")
                }
            ),
            Verdict::Undetermined { games_needed } => format!(
                "verdict: undetermined at ±{m}: {games} games neither show a gap nor show every {} within the margin (largest gap: {worst_text}); {}.",
                self.noun(),
                match games_needed {
                    Some(g) => format!("about {g} games in all would settle it (80% power, if the observed shares are the truth)"),
                    None => "no game count would settle it from these figures".into(),
                }
            ),
            Verdict::NoVerdict { reason } => format!("verdict: none: {reason}."),
        }
    }

    fn noun(&self) -> &'static str {
        if self.components.iter().all(|c| c.label.starts_with("seat")) {
            "seat's win share"
        } else if self
            .components
            .iter()
            .all(|c| c.label.starts_with("turn position"))
        {
            "turn position's win share"
        } else {
            "value"
        }
    }
}

/// Checks a `--margin` value: a share strictly between 0 and 0.5.
pub fn check_margin(margin: f64) -> Result<f64, String> {
    if margin.is_finite() && margin > 0.0 && margin < 0.5 {
        Ok(margin)
    } else {
        Err(format!(
            "--margin {margin}: the equivalence margin is a share above 0 and below 0.5 (for example 0.02)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(shares: &[f64], games: u64) -> Equivalence {
        let wins: Vec<f64> = shares.iter().map(|s| s * games as f64).collect();
        test(
            &seat_components(&wins, games),
            games,
            1,
            DEFAULT_MARGIN,
            (0, games),
        )
    }

    #[test]
    fn equivalence_fair_only_when_every_interval_is_inside_the_margin() {
        // 40,000 games at exactly even shares: every 90% interval ±0.0036 is inside ±0.02.
        let e = seats(&[0.25, 0.25, 0.25, 0.25], 40_000);
        assert_eq!(e.verdict, Verdict::Fair, "{}", e.sentence());
        assert!(e.p_equivalence < 0.05);
        // 300 even games: a large p-value of the difference, but not fair.
        let e = seats(&[0.25, 0.25, 0.25, 0.25], 300);
        assert!(
            matches!(e.verdict, Verdict::Undetermined { games_needed: Some(g) } if g > 300),
            "{e:?}"
        );
        assert!(e.p_difference > 0.5);
        assert!(e.sentence().contains("undetermined"), "{}", e.sentence());
    }

    #[test]
    fn equivalence_unfair_when_a_seat_differs() {
        // The audit's example: seat 1 at 0.264 of 8,000 games is detectably above 0.25.
        let e = seats(&[0.264, 0.2453, 0.2453, 0.2454], 8_000);
        assert!(
            matches!(
                e.verdict,
                Verdict::Unfair {
                    beyond_margin: false
                }
            ),
            "{e:?}"
        );
        assert_eq!(e.worst, "seat 1");
        // One coin moves a seat by 5 points: beyond the margin.
        let e = seats(&[0.30, 0.2333, 0.2333, 0.2334], 20_000);
        assert_eq!(
            e.verdict,
            Verdict::Unfair {
                beyond_margin: true
            }
        );
        // A detectable gap inside the margin is still fair within it.
        let e = seats(&[0.505, 0.495], 400_000);
        assert_eq!(e.verdict, Verdict::Fair);
        assert!(e.p_difference < 0.05);
    }

    #[test]
    fn equivalence_games_needed_settles_the_verdict() {
        // Undetermined at 1,000 even games; at the count it names, the same shares are fair.
        let e = seats(&[0.25, 0.25, 0.25, 0.25], 1_000);
        let Verdict::Undetermined {
            games_needed: Some(g),
        } = e.verdict
        else {
            panic!("{e:?}")
        };
        assert!(g > 1_000 && g < 10_000, "{g}");
        assert_eq!(seats(&[0.25, 0.25, 0.25, 0.25], g).verdict, Verdict::Fair);
    }

    #[test]
    fn equivalence_never_fair_from_a_spread_of_zero() {
        // 20 seeds of 2 rotated games, every seat share exactly 1/2: not fair at 40 games.
        let mut u = UnitMeans::new(2);
        for _ in 0..20 {
            u.add(&[0.5, 0.5]);
        }
        let labels = ["seat 1".to_string(), "seat 2".to_string()];
        let e = test(
            &u.components(&labels, &[0.5, 0.5]),
            20,
            2,
            DEFAULT_MARGIN,
            (0, 40),
        );
        assert!(
            matches!(e.verdict, Verdict::Undetermined { games_needed: Some(g) } if g > 40),
            "{e:?}"
        );
    }

    #[test]
    fn equivalence_no_verdict_from_capped_games() {
        let wins = [50.0, 50.0];
        let e = test(&seat_components(&wins, 100), 100, 1, 0.02, (6, 100));
        assert!(matches!(e.verdict, Verdict::NoVerdict { .. }));
        assert!(e.sentence().contains("round cap"));
    }

    #[test]
    fn unit_means_match_a_direct_computation() {
        let mut u = UnitMeans::new(2);
        for x in [1.0, 0.0, 1.0, 1.0] {
            u.add(&[x, 1.0 - x]);
        }
        assert_eq!(u.units(), 4);
        assert!((u.mean(0) - 0.75).abs() < 1e-12);
        // Sample variance of 1,0,1,1 is 0.25.
        assert!((u.sd(0) - 0.5).abs() < 1e-12);
        // The two components move oppositely: their covariance is minus the variance.
        assert!((u.cov(0, 1) + 0.25).abs() < 1e-12 && (u.cov(0, 0) - 0.25).abs() < 1e-12);
        assert!(check_margin(0.0).is_err() && check_margin(0.02).is_ok());
    }
}
