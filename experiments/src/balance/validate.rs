//! The finalists re-tested on fresh seeds: every finalist plays the same validation games (a
//! master seed the race never used), so the figures reported carry no winner's curse, and the
//! finalists are compared paired on those seeds (the bootstrap probability of being best).

use super::checkpoint::State;
use super::objective::{objective_value, Games, Plan};
use super::{validation_seed, BalanceArgs, Setup};
use crate::equivalence::{self, Component, Equivalence};
use crate::games::Playable;
use anyhow::Result;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Bootstrap resamples of the validation games.
pub const RESAMPLES: usize = 1_000;

/// A value with its 95% interval.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// What it is.
    pub name: String,
    /// Its value on the validation games.
    pub value: f64,
    /// The 95% interval: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// One finalist's validation.
#[derive(Debug, Clone, Serialize)]
pub struct Validated {
    /// The setting's index.
    pub setting: usize,
    /// Validation games played.
    pub games: u64,
    /// Games the round cap stopped.
    pub capped: u64,
    /// Mean rounds.
    pub mean_rounds: f64,
    /// Each metric (the seats' win shares among them), with delta-method intervals.
    pub metrics: Vec<Figure>,
    /// Each objective, with a percentile bootstrap interval (paired over the games).
    pub objectives: Vec<Figure>,
    /// The equivalence verdict of the first objective (`fair` or `target`), at the margin.
    pub equivalence: Option<Equivalence>,
    /// The share of bootstrap resamples in which this finalist has the lowest first objective.
    pub probability_best: f64,
}

/// Plays (or takes from the progress file) every finalist's validation games and measures them.
pub fn validate<G: Playable>(
    s: &Setup<G>,
    args: &BalanceArgs,
    finalists: &[usize],
    state: &mut State,
    progress: Option<&std::path::Path>,
    fingerprint: &str,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<Validated>> {
    let master = validation_seed(args.seed);
    for (i, &f) in finalists.iter().enumerate().skip(state.validated.len()) {
        let job = [(f, 0..args.validation_games)];
        let step = super::shard::validation_step(i);
        let g = super::shard::play_jobs(s, &step, &job, &s.validate_specs, master, bar)?;
        state.validated.extend(g);
        if let Some(p) = progress {
            super::checkpoint::save(p, fingerprint, state)?;
        }
    }
    let best = probability_best(&s.plan, &state.validated, args.seed);
    Ok(finalists
        .iter()
        .zip(&state.validated)
        .zip(best)
        .map(|((&f, g), (p, intervals))| {
            measure(&s.plan, f, g, s.distances[f], args.margin, p, intervals)
        })
        .collect())
}

fn measure(
    plan: &Plan,
    setting: usize,
    g: &Games,
    distance: f64,
    margin: f64,
    probability_best: f64,
    intervals: Vec<(f64, f64)>,
) -> Validated {
    let n = g.len();
    let z = equivalence::z(0.975);
    let lin: Vec<(f64, Vec<f64>)> = plan.metrics.iter().map(|m| g.linearized(m, n)).collect();
    let sd = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len().max(1) as f64;
        let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len().max(2) - 1) as f64;
        var.sqrt()
    };
    let metrics: Vec<Figure> = plan
        .metrics
        .iter()
        .zip(&lin)
        .map(|(m, (value, l))| {
            let se = sd(l) / (n.max(1) as f64).sqrt();
            Figure {
                name: m.name.clone(),
                value: *value,
                ci_low: value - z * se,
                ci_high: value + z * se,
            }
        })
        .collect();
    let values: Vec<f64> = lin.iter().map(|(v, _)| *v).collect();
    let objectives = plan
        .objectives
        .iter()
        .zip(intervals)
        .map(|(o, (lo, hi))| {
            if o.noisy() {
                let value = objective_value(o, &values);
                Figure {
                    name: o.name.clone(),
                    value,
                    ci_low: lo,
                    ci_high: hi,
                }
            } else {
                Figure {
                    name: o.name.clone(),
                    value: distance,
                    ci_low: distance,
                    ci_high: distance,
                }
            }
        })
        .collect();
    let capped = (0..n).filter(|&i| g.at(i, plan.capped) > 0.5).count() as u64;
    let mean_rounds = (0..n).map(|i| g.at(i, plan.rounds)).sum::<f64>() / n.max(1) as f64;
    let first = &plan.objectives[0];
    let equivalence = (!first.floor && first.noisy()).then(|| {
        // The first objective's metrics against their targets, each once.
        let mut comps: Vec<Component> = Vec::new();
        for gap in &first.gaps {
            let m = &plan.metrics[gap.metric];
            if comps.iter().any(|c| c.label == m.name) {
                continue;
            }
            let (value, l) = &lin[gap.metric];
            comps.push(Component {
                label: m.name.clone(),
                mean: *value,
                sd: sd(l),
                target: gap.target,
            });
        }
        equivalence::test(&comps, n as u64, 1, margin, (capped, n as u64))
    });
    Validated {
        setting,
        games: n as u64,
        capped,
        mean_rounds,
        metrics,
        objectives,
        equivalence,
        probability_best,
    }
}

/// For each finalist: the share of paired bootstrap resamples in which it has the lowest first
/// objective, and each objective's 95% percentile interval.
fn probability_best(plan: &Plan, sets: &[Games], seed: u64) -> Vec<(f64, Vec<(f64, f64)>)> {
    let k = sets.len();
    let n = sets.iter().map(Games::len).min().unwrap_or(0);
    if n == 0 {
        return vec![(0.0, vec![(f64::NAN, f64::NAN); plan.objectives.len()]); k];
    }
    let mut rng =
        rand_chacha::ChaCha8Rng::seed_from_u64(shifu_agents::splitmix64(seed ^ 0x626f_6f74));
    let mut wins = vec![0.0; k];
    let mut draws: Vec<Vec<Vec<f64>>> =
        vec![vec![Vec::with_capacity(RESAMPLES); plan.objectives.len()]; k];
    let mut counts = vec![0u32; n];
    let cols = plan.columns.len();
    for _ in 0..RESAMPLES {
        counts.iter_mut().for_each(|c| *c = 0);
        for _ in 0..n {
            counts[rng.gen_range(0..n)] += 1;
        }
        let mut firsts = Vec::with_capacity(k);
        for (f, g) in sets.iter().enumerate() {
            let mut sums = vec![0.0f64; cols];
            for (i, &c) in counts.iter().enumerate() {
                if c > 0 {
                    for (col, s) in sums.iter_mut().enumerate() {
                        *s += f64::from(c) * g.at(i, col);
                    }
                }
            }
            let values: Vec<f64> = plan
                .metrics
                .iter()
                .map(|m| {
                    if sums[m.den] > 0.0 {
                        sums[m.num] / sums[m.den]
                    } else {
                        0.0
                    }
                })
                .collect();
            for (o, obj) in plan.objectives.iter().enumerate() {
                draws[f][o].push(if obj.noisy() {
                    objective_value(obj, &values)
                } else {
                    0.0
                });
            }
            firsts.push(draws[f][0][draws[f][0].len() - 1]);
        }
        let low = firsts.iter().cloned().fold(f64::INFINITY, f64::min);
        let ties = firsts.iter().filter(|&&x| x == low).count() as f64;
        for (f, &x) in firsts.iter().enumerate() {
            if x == low {
                wins[f] += 1.0 / ties;
            }
        }
    }
    draws
        .into_iter()
        .zip(wins)
        .map(|(mut per_obj, w)| {
            let intervals = per_obj
                .iter_mut()
                .map(|d| {
                    d.sort_by(f64::total_cmp);
                    let at =
                        |q: f64| d[((q * (d.len() - 1) as f64).round() as usize).min(d.len() - 1)];
                    (at(0.025), at(0.975))
                })
                .collect();
            (w / RESAMPLES as f64, intervals)
        })
        .collect()
}
