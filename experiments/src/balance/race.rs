//! Racing on common seeds: every setting still in the race plays the same games (game i has the
//! same seed in every setting), and at each look a setting leaves the race when a paired test
//! shows another setting better on every measured objective and no worse on the exact ones.
//!
//! **The test.** Setting c is dropped in favour of b when, for each measured objective, c's
//! worst gap `s_J·(m_J(c) − t_J)` exceeds *every* gap of b (and 0 for a range) by a one-sided
//! paired z-test on the games' delta-method values. If c is truly no worse than b, one of those
//! comparisons has a true difference ≤ 0, so the intersection-union test rejects with
//! probability at most J·α′ (J: the gaps c's worst could be). A setting faces at most E
//! eliminators at each of L looks, so with α′ = α / (E·L·J) the chance that the race ever drops
//! a given setting that no other setting beats (the best one, or any one of the Pareto set) is
//! at most α (Bonferroni over the tests that setting can face). The other settings need no
//! protection: dropping a setting that is truly worse than another is no error.

use super::objective::{objective_value, worst_gap, Games, Objective, Plan};
use crate::equivalence::z;
use serde::{Deserialize, Serialize};

/// How a race runs.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RaceConfig {
    /// Games per setting at the first look.
    pub first_look: u64,
    /// The most games one setting plays.
    pub max_games: u64,
    /// The most games the race plays in all.
    pub budget: u64,
    /// The error rate α: the chance of dropping a setting no other setting beats.
    pub error_rate: f64,
    /// Settings that may drop others at a look: the best so many by the first objective.
    pub eliminators: usize,
    /// No eliminations: every setting plays the most games.
    pub full_grid: bool,
}

impl RaceConfig {
    /// The looks: games per setting, doubling from the first to the most.
    pub fn looks(&self) -> Vec<u64> {
        let mut looks = vec![self.first_look.max(2)];
        while *looks.last().unwrap_or(&0) < self.max_games {
            let next = looks[looks.len() - 1].saturating_mul(2).min(self.max_games);
            looks.push(next);
        }
        looks
    }
}

/// Why a setting left the race.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Elimination {
    /// The look (from 1).
    pub look: usize,
    /// Games it had played.
    pub games: u64,
    /// The setting that beat it (its index).
    pub by: usize,
    /// The smallest z of the comparisons (all above the critical value).
    pub z: f64,
}

/// A setting in the race.
#[derive(Debug, Clone, Default)]
pub struct Entry {
    /// Its games so far (dropped when it leaves the race).
    pub games: Games,
    /// Games it played.
    pub played: u64,
    /// Its objectives' values at its last look.
    pub estimate: Vec<f64>,
    /// Its distance from the rulebook's setting.
    pub distance: f64,
    /// Why it left, if it did.
    pub out: Option<Elimination>,
}

/// A setting's metrics over its first `n` games: values and per-game linearizations.
pub struct Measured {
    /// Each metric's value.
    pub values: Vec<f64>,
    /// Each metric's per-game delta-method values.
    pub lin: Vec<Vec<f64>>,
}

/// Measures a setting's metrics over its first `n` games.
pub fn measure(plan: &Plan, g: &Games, n: usize) -> Measured {
    let (values, lin) = plan.metrics.iter().map(|m| g.linearized(m, n)).unzip();
    Measured { values, lin }
}

/// Every objective's value (`distance` for the exact one).
pub fn objective_values(plan: &Plan, m: &Measured, distance: f64) -> Vec<f64> {
    plan.objectives
        .iter()
        .map(|o| {
            if o.noisy() {
                objective_value(o, &m.values)
            } else {
                distance
            }
        })
        .collect()
}

/// The mean and standard error of per-game values.
fn mean_se(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut n, mut s, mut s2) = (0.0f64, 0.0f64, 0.0f64);
    for v in values {
        n += 1.0;
        s += v;
        s2 += v * v;
    }
    if n < 2.0 {
        return (s / n.max(1.0), f64::INFINITY);
    }
    let mean = s / n;
    let var = (s2 / n - mean * mean).max(0.0) * n / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The smallest z over the comparisons of c's worst gap with every gap of b on objective `o`.
fn objective_z(o: &Objective, c: &Measured, b: &Measured) -> f64 {
    let j = worst_gap(o, &c.values);
    let gj = &o.gaps[j];
    let cj = &c.lin[gj.metric];
    let c_gap = |g: usize| gj.sign * (cj[g] - gj.target);
    let n = cj.len();
    let mut worst = f64::INFINITY;
    let z_of = |(mean, se): (f64, f64)| {
        if se > 0.0 && se.is_finite() {
            mean / se
        } else if mean > 0.0 && se == 0.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        }
    };
    for gi in &o.gaps {
        let bi = &b.lin[gi.metric];
        let d = (0..n).map(|g| c_gap(g) - gi.sign * (bi[g] - gi.target));
        worst = worst.min(z_of(mean_se(d)));
    }
    if o.floor {
        worst = worst.min(z_of(mean_se((0..n).map(c_gap))));
    }
    worst
}

/// Whether a setting is shown good enough on objective `o`: every gap below the objective's
/// threshold by a one-sided test at critical value `zc` (for `fair` and `target`, this is the
/// equivalence test at the margin).
pub fn good_enough(o: &Objective, m: &Measured, zc: f64) -> bool {
    o.gaps.iter().all(|g| {
        let (mean, se) = mean_se(m.lin[g.metric].iter().map(|x| g.sign * (x - g.target)));
        mean + zc * se < o.good_below
    })
}

/// The critical value of a race with `looks` looks: one-sided at α / (eliminators × looks ×
/// gaps).
pub fn critical_z(plan: &Plan, cfg: &RaceConfig, looks: usize) -> f64 {
    let j = plan
        .objectives
        .iter()
        .map(|o| o.gaps.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let tests = (cfg.eliminators.max(1) * looks.max(1) * j) as f64;
    z(1.0 - cfg.error_rate / tests)
}

/// Where a look stands.
pub struct Look {
    /// The look, from 1.
    pub index: usize,
    /// Games per setting.
    pub games: u64,
    /// The critical z of an elimination.
    pub critical_z: f64,
    /// Settings that may drop others: the best so many by the first objective.
    pub eliminators: usize,
}

/// One look: settings in `alive` (all measured over the look's games in `measured`) drop out
/// when beaten. Returns the eliminations as (setting, elimination).
pub fn look(
    plan: &Plan,
    entries: &[Entry],
    alive: &[usize],
    measured: &[Measured],
    at: &Look,
) -> Vec<(usize, Elimination)> {
    let (look, n, zc, eliminators) = (at.index, at.games, at.critical_z, at.eliminators);
    // The eliminators: the best by the first objective.
    let mut order: Vec<usize> = (0..alive.len()).collect();
    order.sort_by(|&a, &b| {
        entries[alive[a]].estimate[0]
            .total_cmp(&entries[alive[b]].estimate[0])
            .then(alive[a].cmp(&alive[b]))
    });
    let exact: Vec<usize> = (0..plan.objectives.len())
        .filter(|&i| !plan.objectives[i].noisy())
        .collect();
    let mut out = Vec::new();
    for ci in 0..alive.len() {
        let c = alive[ci];
        for &bi in order.iter().take(eliminators) {
            let b = alive[bi];
            if b == c
                || exact
                    .iter()
                    .any(|&k| entries[b].estimate[k] > entries[c].estimate[k] + 1e-12)
            {
                continue;
            }
            let z = plan
                .objectives
                .iter()
                .filter(|o| o.noisy())
                .map(|o| objective_z(o, &measured[ci], &measured[bi]))
                .fold(f64::INFINITY, f64::min);
            if z > zc {
                out.push((
                    c,
                    Elimination {
                        look,
                        games: n,
                        by: b,
                        z,
                    },
                ));
                break;
            }
        }
    }
    out
}

/// The survivors' Pareto set on the objectives' estimates, best first by the first objective.
pub fn pareto(entries: &[Entry], alive: &[usize]) -> Vec<usize> {
    let dominates = |a: &Entry, b: &Entry| {
        a.estimate.iter().zip(&b.estimate).all(|(x, y)| x <= y)
            && a.estimate.iter().zip(&b.estimate).any(|(x, y)| x < y)
    };
    let mut front: Vec<usize> = alive
        .iter()
        .copied()
        .filter(|&c| !alive.iter().any(|&b| dominates(&entries[b], &entries[c])))
        .collect();
    front.sort_by(|&a, &b| {
        entries[a].estimate[0]
            .total_cmp(&entries[b].estimate[0])
            .then(a.cmp(&b))
    });
    front
}

/// The finalists: the survivors' Pareto set, then the next best survivors by the first
/// objective, `k` in all.
pub fn finalists(entries: &[Entry], alive: &[usize], k: usize) -> Vec<usize> {
    let mut out = pareto(entries, alive);
    let mut rest: Vec<usize> = alive.iter().copied().filter(|c| !out.contains(c)).collect();
    rest.sort_by(|&a, &b| {
        entries[a].estimate[0]
            .total_cmp(&entries[b].estimate[0])
            .then(a.cmp(&b))
    });
    out.extend(rest);
    out.truncate(k);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::objective::{Column, Gap, Metric};

    /// A two-seat plan: seat 1's win share against 1/2.
    fn plan() -> Plan {
        Plan {
            columns: vec![Column::One, Column::Position(0)],
            metrics: vec![Metric {
                name: "seat1".into(),
                num: 1,
                den: 0,
            }],
            objectives: vec![Objective {
                name: "fair".into(),
                gaps: vec![
                    Gap {
                        metric: 0,
                        sign: 1.0,
                        target: 0.5,
                    },
                    Gap {
                        metric: 0,
                        sign: -1.0,
                        target: 0.5,
                    },
                ],
                floor: false,
                good_below: 0.02,
            }],
            start_player: None,
            capped: 0,
            rounds: 0,
            seat_metrics: vec![0],
        }
    }

    /// `n` games in which seat 1 wins a share `p` (deterministically spread).
    fn games(p: f64, n: usize, phase: usize) -> Games {
        let mut data = Vec::new();
        for g in 0..n {
            let win = ((g + phase) as f64 * p).floor() != ((g + phase + 1) as f64 * p).floor();
            data.extend([1.0, f32::from(u8::from(win))]);
        }
        Games { columns: 2, data }
    }

    #[test]
    fn balance_race_drops_a_clearly_worse_setting_only() {
        let plan = plan();
        let n = 4000;
        let sets = [games(0.5, n, 0), games(0.7, n, 1), games(0.51, n, 2)];
        let measured: Vec<Measured> = sets.iter().map(|g| measure(&plan, g, n)).collect();
        let entries: Vec<Entry> = measured
            .iter()
            .map(|m| Entry {
                estimate: objective_values(&plan, m, 0.0),
                ..Entry::default()
            })
            .collect();
        let cfg = RaceConfig {
            first_look: 100,
            max_games: 6400,
            budget: 1_000_000,
            error_rate: 0.05,
            eliminators: 5,
            full_grid: false,
        };
        assert_eq!(cfg.looks(), [100, 200, 400, 800, 1600, 3200, 6400]);
        // The doubling saturates rather than overflowing at the largest counts.
        let huge = RaceConfig {
            max_games: u64::MAX,
            ..cfg.clone()
        };
        assert_eq!(huge.looks().last(), Some(&u64::MAX));
        let zc = critical_z(&plan, &cfg, 7);
        let at = Look {
            index: 1,
            games: n as u64,
            critical_z: zc,
            eliminators: 5,
        };
        let out = look(&plan, &entries, &[0, 1, 2], &measured, &at);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!((out[0].0, out[0].1.by), (1, 0));
        assert!(good_enough(&plan.objectives[0], &measured[0], 1.645));
        assert!(!good_enough(&plan.objectives[0], &measured[1], 1.645));
        assert_eq!(pareto(&entries, &[0, 2]), [0]);
    }
}
