//! `shifu seats`: pairwise seat contrasts (seat i's win share minus seat j's, with 95%
//! intervals and Holm-corrected p-values), an equivalence test, and the verdict in one plain
//! sentence. Without `--rotate` each game is a pair of seats playing the same game; with it
//! the unit is a seed, played once per rotation of the agents (common random numbers), so the
//! contrasts are paired on shared seeds.

use crate::format::p_value;
use crate::stats::holm;
use serde::Serialize;
use shifu_engine::{Outcome, MAX_SEATS};

/// The gap between two seats' win shares the equivalence test (TOST) takes as "equal".
pub const EQUIVALENCE_MARGIN: f64 = 0.02;

/// Normal quantiles used below.
const Z_975: f64 = 1.959_964;
const Z_95: f64 = 1.644_854;
const Z_80: f64 = 0.841_621;

/// Sums over units (games, or seeds under rotation) of each seat pair's win-share difference.
pub struct Contrasts {
    seats: usize,
    /// Games per unit: 1, or the seat count under rotation.
    per_unit: u64,
    /// The unit being filled and its wins so far, by seat.
    current: Option<u64>,
    wins: [f64; MAX_SEATS],
    units: u64,
    sum: [[f64; MAX_SEATS]; MAX_SEATS],
    sum_sq: [[f64; MAX_SEATS]; MAX_SEATS],
}

/// One seat pair's contrast.
pub struct Pair {
    /// The seats (0-based), `a < b`.
    pub a: usize,
    /// The second seat.
    pub b: usize,
    /// Seat a's win share minus seat b's.
    pub diff: f64,
    /// Its standard error.
    pub se: f64,
    /// Two-sided p-value of "no difference".
    pub p: f64,
    /// Holm-corrected over all pairs.
    pub holm: f64,
}

impl Contrasts {
    /// Contrasts of `seats` seats; `rotate` pairs games on shared seeds.
    pub fn new(seats: usize, rotate: bool) -> Self {
        Contrasts {
            seats,
            per_unit: if rotate { seats as u64 } else { 1 },
            current: None,
            wins: [0.0; MAX_SEATS],
            units: 0,
            sum: [[0.0; MAX_SEATS]; MAX_SEATS],
            sum_sq: [[0.0; MAX_SEATS]; MAX_SEATS],
        }
    }

    /// Adds game `index` (games arrive in order).
    pub fn add(&mut self, index: u64, o: &Outcome) {
        let unit = index / self.per_unit;
        if self.current != Some(unit) {
            self.close();
            self.current = Some(unit);
        }
        for s in 0..self.seats {
            self.wins[s] += o.win_share(s as u8) / self.per_unit as f64;
        }
    }

    /// Ends the unit being filled.
    fn close(&mut self) {
        if self.current.take().is_none() {
            return;
        }
        for a in 0..self.seats {
            for b in a + 1..self.seats {
                let d = self.wins[a] - self.wins[b];
                self.sum[a][b] += d;
                self.sum_sq[a][b] += d * d;
            }
        }
        self.units += 1;
        self.wins = [0.0; MAX_SEATS];
    }

    /// Units (games, or seeds under rotation) behind the contrasts.
    pub fn units(&self) -> u64 {
        self.units
    }

    /// Every seat pair's contrast, Holm-corrected.
    pub fn pairs(&mut self) -> Vec<Pair> {
        use statrs::distribution::{ContinuousCDF, Normal};
        self.close();
        let n = self.units.max(1) as f64;
        let normal = Normal::new(0.0, 1.0).expect("the standard normal");
        let mut pairs = Vec::new();
        for a in 0..self.seats {
            for b in a + 1..self.seats {
                let mean = self.sum[a][b] / n;
                let var = (self.sum_sq[a][b] / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
                let se = (var / n).sqrt();
                let p = if se > 0.0 {
                    2.0 * normal.sf((mean / se).abs())
                } else if mean == 0.0 {
                    1.0
                } else {
                    0.0
                };
                pairs.push(Pair {
                    a,
                    b,
                    diff: mean,
                    se,
                    p,
                    holm: 1.0,
                });
            }
        }
        let adj = holm(&pairs.iter().map(|p| p.p).collect::<Vec<_>>());
        for (p, h) in pairs.iter_mut().zip(adj) {
            p.holm = h;
        }
        pairs
    }

    /// Games needed to find a gap of `gap` between two seats with 80% power at 5%
    /// significance after the Holm (here Bonferroni, its first step) correction over all pairs,
    /// from the spread of the pairs' differences seen here.
    pub fn games_to_detect(&self, pairs: &[Pair], gap: f64) -> u64 {
        use statrs::distribution::{ContinuousCDF, Normal};
        let normal = Normal::new(0.0, 1.0).expect("the standard normal");
        let m = pairs.len().max(1) as f64;
        let z = normal.inverse_cdf(1.0 - 0.05 / (2.0 * m));
        let n = self.units.max(1) as f64;
        // The largest per-unit variance of a pair's difference.
        let var = pairs.iter().map(|p| p.se * p.se * n).fold(0.0, f64::max);
        let units = ((z + Z_80).powi(2) * var / (gap * gap)).ceil();
        units as u64 * self.per_unit
    }
}

/// One seat pair's contrast as reported: seats from 1, the 95% interval.
#[derive(Debug, Clone, Serialize)]
pub struct PairFigures {
    /// The first seat, from 1.
    pub seat_a: usize,
    /// The second seat.
    pub seat_b: usize,
    /// Seat a's win share minus seat b's.
    pub diff: f64,
    /// The 95% interval of the difference: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// Two-sided p-value of "no difference".
    pub p_value: f64,
    /// Holm-corrected over all pairs.
    pub holm_p: f64,
}

/// The contrast table and the verdict sentence.
#[derive(Debug, Clone, Serialize)]
pub struct ContrastReport {
    /// Whether the games were paired on shared seeds (agents rotated).
    pub paired_on_seeds: bool,
    /// Units behind the contrasts: seeds under rotation, else games.
    pub units: u64,
    /// Every seat pair.
    pub pairs: Vec<PairFigures>,
    /// The verdict in one plain sentence.
    pub verdict: String,
}

impl Contrasts {
    /// The contrast table and the verdict over a run of `games` games.
    pub fn report(&mut self, games: u64) -> ContrastReport {
        let pairs = self.pairs();
        ContrastReport {
            paired_on_seeds: self.per_unit > 1,
            units: self.units(),
            pairs: pairs
                .iter()
                .map(|p| PairFigures {
                    seat_a: p.a + 1,
                    seat_b: p.b + 1,
                    diff: p.diff,
                    ci_low: p.diff - Z_975 * p.se,
                    ci_high: p.diff + Z_975 * p.se,
                    p_value: p.p,
                    holm_p: p.holm,
                })
                .collect(),
            verdict: verdict(self, &pairs, games),
        }
    }
}

impl std::fmt::Display for ContrastReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.pairs.len();
        writeln!(
            f,
            "seat contrasts ({}; 95% intervals, p-values Holm-corrected over {n} pair{}):",
            if self.paired_on_seeds {
                format!("paired on {} shared seeds, agents rotated", self.units)
            } else {
                format!("the seats of the same {} games", self.units)
            },
            if n == 1 { "" } else { "s" }
        )?;
        for p in &self.pairs {
            writeln!(
                f,
                "  seat {} - seat {}: {:+.4} [{:+.4}, {:+.4}]  {} (Holm)",
                p.seat_a,
                p.seat_b,
                p.diff,
                p.ci_low,
                p.ci_high,
                p_value(p.holm_p)
            )?;
        }
        writeln!(f, "{}", self.verdict)
    }
}

/// One plain sentence: unequal only when a contrast is significant; otherwise what the data
/// cannot tell and what would, or equal within the margin when every pair's TOST passes.
fn verdict(c: &Contrasts, pairs: &[Pair], games: u64) -> String {
    let significant: Vec<&Pair> = pairs.iter().filter(|p| p.holm < 0.05).collect();
    if let Some(p) = significant
        .iter()
        .max_by(|x, y| x.diff.abs().total_cmp(&y.diff.abs()))
    {
        let (hi, lo) = if p.diff > 0.0 { (p.a, p.b) } else { (p.b, p.a) };
        return format!(
            "verdict: the seats are unequal: seat {} wins {:.3} more of the games than seat {} ({}, Holm-corrected){}.",
            hi + 1,
            p.diff.abs(),
            lo + 1,
            p_value(p.holm),
            if significant.len() > 1 {
                format!("; {} of {} pairs differ", significant.len(), pairs.len())
            } else {
                String::new()
            }
        );
    }
    // Intersection-union TOST: every pair's 90% interval inside the margin.
    let equivalent = c.units >= 2
        && pairs.iter().all(|p| {
            p.diff - Z_95 * p.se > -EQUIVALENCE_MARGIN && p.diff + Z_95 * p.se < EQUIVALENCE_MARGIN
        });
    if equivalent {
        return format!(
            "verdict: no seat differs from another by {EQUIVALENCE_MARGIN} or more in win share (equivalence test, TOST at 5%, every pair's 90% interval inside ±{EQUIVALENCE_MARGIN})."
        );
    }
    format!(
        "verdict: {games} games cannot tell the seats apart (no pair differs significantly, and the intervals are too wide to call them equal); finding a gap of {EQUIVALENCE_MARGIN} between two seats would take about {} games (5% significance after the Holm correction, 80% power).",
        c.games_to_detect(pairs, EQUIVALENCE_MARGIN)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(winner: u8) -> Outcome {
        Outcome {
            seats: 2,
            score: [0.0; MAX_SEATS],
            rank: [1; MAX_SEATS],
            winners: 1 << winner,
            capped: false,
            team_score: None,
        }
    }

    #[test]
    fn seats_verdict_says_unequal_only_when_significant() {
        let mut c = Contrasts::new(2, false);
        for i in 0..1000 {
            c.add(i, &outcome(u8::from(i % 10 >= 7)));
        }
        let v = c.report(1000).to_string();
        assert!(v.contains("unequal: seat 1 wins 0.400 more"), "{v}");
        let mut c = Contrasts::new(2, false);
        for i in 0..100 {
            c.add(i, &outcome((i % 2) as u8));
        }
        let v = c.report(100).to_string();
        assert!(v.contains("100 games cannot tell the seats apart"), "{v}");
        assert!(!v.contains("unequal") && !v.contains("fair"), "{v}");
    }

    #[test]
    fn seats_contrasts_under_rotation_pair_the_games_of_a_seed() {
        // Each seed played twice: the first seat always wins. Per seed the difference is 1.
        let mut c = Contrasts::new(2, true);
        for i in 0..40 {
            c.add(i, &outcome(0));
        }
        let pairs = c.pairs();
        assert_eq!(c.units(), 20);
        assert!((pairs[0].diff - 1.0).abs() < 1e-12 && pairs[0].holm < 1e-6);
    }
}
