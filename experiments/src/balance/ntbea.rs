//! The N-Tuple Bandit Evolutionary Algorithm (NTBEA; Lucas, Liu and Perez-Liebana 2018, as in
//! TAG), minimizing a noisy function over a grid of discrete dimensions too large to list.
//!
//! A point is one value index per dimension. The model keeps, for each *tuple* of dimensions
//! (every single dimension, every pair when there are at most [`MAX_PAIRED`] dimensions, and
//! the full tuple), the count and mean of the evaluations seen for each pattern of values.
//! A point's estimate is the mean, over the tuples whose pattern has been seen, of those means;
//! its exploration bonus is the mean over all tuples of `sqrt(ln(1 + N) / (n + ε))` (N the
//! evaluations, n the pattern's count), in units of the spread of the evaluations so far.
//!
//! Each step evaluates the current point once, then draws `neighbourhood` neighbours (each
//! dimension changed with probability 1/D, at least one, to a uniformly drawn other value) and
//! moves to the one with the lowest `estimate − c·spread·bonus`. The draws come from one ChaCha8
//! generator seeded from the run's seed, so the search is the same whatever the thread count.

use anyhow::Result;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// Pairs of dimensions are modelled up to this many dimensions.
pub const MAX_PAIRED: usize = 12;

/// The ε of an unseen pattern's bonus.
const EPSILON: f64 = 0.5;

/// How the search runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Evaluations in all.
    pub evaluations: usize,
    /// The UCB exploration constant c.
    pub exploration: f64,
    /// Neighbours drawn at each step.
    pub neighbourhood: usize,
    /// The generator's seed.
    pub seed: u64,
}

/// The n-tuple model: per tuple, per pattern, the count and the sum of the evaluations.
#[derive(Debug, Clone)]
pub struct Model {
    tuples: Vec<Vec<usize>>,
    stats: Vec<HashMap<Vec<u32>, (u32, f64)>>,
    n: u32,
    sum: f64,
    sum2: f64,
}

impl Model {
    /// A model of `dims` dimensions: the 1-tuples, the pairs (up to [`MAX_PAIRED`]) and the
    /// full tuple.
    pub fn new(dims: usize) -> Model {
        let mut tuples: Vec<Vec<usize>> = (0..dims).map(|d| vec![d]).collect();
        if dims > 2 && dims <= MAX_PAIRED {
            for a in 0..dims {
                tuples.extend((a + 1..dims).map(|b| vec![a, b]));
            }
        }
        if dims > 1 {
            tuples.push((0..dims).collect());
        }
        Model {
            stats: vec![HashMap::new(); tuples.len()],
            tuples,
            n: 0,
            sum: 0.0,
            sum2: 0.0,
        }
    }

    fn pattern(t: &[usize], p: &[u32]) -> Vec<u32> {
        t.iter().map(|&d| p[d]).collect()
    }

    /// Records an evaluation of point `p`.
    pub fn add(&mut self, p: &[u32], v: f64) {
        for (t, s) in self.tuples.iter().zip(&mut self.stats) {
            let e = s.entry(Self::pattern(t, p)).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += v;
        }
        self.n += 1;
        self.sum += v;
        self.sum2 += v * v;
    }

    /// The model's estimate of `p`: the mean of the seen tuples' means (the mean of every
    /// evaluation when none is seen).
    pub fn estimate(&self, p: &[u32]) -> f64 {
        let (mut total, mut seen) = (0.0, 0usize);
        for (t, s) in self.tuples.iter().zip(&self.stats) {
            if let Some(&(n, sum)) = s.get(&Self::pattern(t, p)) {
                total += sum / f64::from(n);
                seen += 1;
            }
        }
        if seen == 0 {
            self.sum / f64::from(self.n.max(1))
        } else {
            total / seen as f64
        }
    }

    /// The exploration bonus of `p`.
    pub fn bonus(&self, p: &[u32]) -> f64 {
        let ln = (1.0 + f64::from(self.n)).ln();
        let total: f64 = self
            .tuples
            .iter()
            .zip(&self.stats)
            .map(|(t, s)| {
                let n = s.get(&Self::pattern(t, p)).map_or(0, |e| e.0);
                (ln / (f64::from(n) + EPSILON)).sqrt()
            })
            .sum();
        total / self.tuples.len().max(1) as f64
    }

    /// The spread (standard deviation) of the evaluations so far; 1 before there is one.
    pub fn spread(&self) -> f64 {
        let n = f64::from(self.n);
        if self.n < 2 {
            return 1.0;
        }
        let var = (self.sum2 / n - (self.sum / n).powi(2)).max(0.0) * n / (n - 1.0);
        if var > 0.0 {
            var.sqrt()
        } else {
            1.0
        }
    }

    /// The point of each dimension's best 1-tuple mean (unseen values count as the mean).
    pub fn best_by_dimension(&self, sizes: &[usize]) -> Vec<u32> {
        let overall = self.sum / f64::from(self.n.max(1));
        sizes
            .iter()
            .enumerate()
            .map(|(d, &size)| {
                let mean = |v: u32| {
                    self.stats[d]
                        .get(&vec![v])
                        .map_or(overall, |&(n, s)| s / f64::from(n))
                };
                (0..size as u32)
                    .min_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(a.cmp(&b)))
                    .unwrap_or(0)
            })
            .collect()
    }
}

/// A search's record: every evaluation in order, and the model.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// (point, value) per evaluation.
    pub evaluated: Vec<(Vec<u32>, f64)>,
    /// The model after the last evaluation.
    pub model: Model,
}

/// A neighbour of `p`: each dimension of more than one value changed with probability 1/D,
/// at least one changed; `p` itself when no dimension can change.
fn neighbour(p: &[u32], sizes: &[usize], rng: &mut impl Rng) -> Vec<u32> {
    let free: Vec<usize> = (0..sizes.len()).filter(|&d| sizes[d] > 1).collect();
    let mut q = p.to_vec();
    if free.is_empty() {
        return q;
    }
    let forced = free[rng.gen_range(0..free.len())];
    for &d in &free {
        if d == forced || rng.gen_bool(1.0 / free.len() as f64) {
            let other = rng.gen_range(0..sizes[d] as u32 - 1);
            q[d] = if other >= p[d] { other + 1 } else { other };
        }
    }
    q
}

/// Minimizes `eval` (called with the evaluation's number and the point) over the grid of
/// `sizes` values per dimension.
pub fn search(
    sizes: &[usize],
    cfg: &Config,
    mut eval: impl FnMut(usize, &[u32]) -> Result<f64>,
) -> Result<Outcome> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(shifu_agents::splitmix64(
        cfg.seed ^ 0x6e74_6265_6100_0000,
    ));
    let mut model = Model::new(sizes.len());
    let mut current: Vec<u32> = sizes
        .iter()
        .map(|&s| rng.gen_range(0..s.max(1) as u32))
        .collect();
    let mut evaluated = Vec::with_capacity(cfg.evaluations);
    for e in 0..cfg.evaluations {
        let v = eval(e, &current)?;
        model.add(&current, v);
        evaluated.push((current.clone(), v));
        let scale = cfg.exploration * model.spread();
        let mut best: Option<(f64, Vec<u32>)> = None;
        for _ in 0..cfg.neighbourhood.max(1) {
            let q = neighbour(&current, sizes, &mut rng);
            let score = model.estimate(&q) - scale * model.bonus(&q);
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, q));
            }
        }
        current = best.map_or(current, |(_, q)| q);
    }
    Ok(Outcome { evaluated, model })
}

impl Outcome {
    /// The finalists: the best `k − 1` points by the model's estimate (among the evaluated
    /// points and each dimension's best value together), then the best evaluated point (by the
    /// mean of its own evaluations) if not among them, else the model's next; `k` in all at
    /// most, best first.
    pub fn finalists(&self, sizes: &[usize], k: usize) -> Vec<Vec<u32>> {
        let mut own: Vec<(Vec<u32>, u32, f64)> = Vec::new();
        for (p, v) in &self.evaluated {
            match own.iter_mut().find(|(q, _, _)| q == p) {
                Some(e) => {
                    e.1 += 1;
                    e.2 += v;
                }
                None => own.push((p.clone(), 1, *v)),
            }
        }
        let mut candidates: Vec<Vec<u32>> = own.iter().map(|(p, _, _)| p.clone()).collect();
        let by_dim = self.model.best_by_dimension(sizes);
        if !candidates.contains(&by_dim) {
            candidates.push(by_dim);
        }
        let mut scored: Vec<(f64, Vec<u32>)> = candidates
            .into_iter()
            .map(|p| (self.model.estimate(&p), p))
            .collect();
        scored.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        let best_evaluated = own
            .iter()
            .min_by(|a, b| (a.2 / f64::from(a.1)).total_cmp(&(b.2 / f64::from(b.1))))
            .map(|(p, _, _)| p.clone());
        let mut out: Vec<Vec<u32>> = scored.into_iter().map(|(_, p)| p).take(k.max(1)).collect();
        if let Some(b) = best_evaluated {
            if !out.contains(&b) {
                if out.len() >= k.max(1) {
                    out.pop();
                }
                out.push(b);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_ntbea_finds_the_optimum_of_a_noisy_function() {
        // 10^5 points; the minimum at (2, 7, 4, 0, 9), each step away costing 0.1, and noise
        // of sd 0.1 on every evaluation.
        let sizes = [10usize; 5];
        let target = [2u32, 7, 4, 0, 9];
        let f = |p: &[u32]| -> f64 {
            p.iter()
                .zip(&target)
                .map(|(&a, &b)| f64::from(a.abs_diff(b)))
                .sum::<f64>()
                / 10.0
        };
        for seed in [1u64, 2, 3] {
            let mut noise = rand_chacha::ChaCha8Rng::seed_from_u64(seed + 100);
            // About normal, sd 0.1: a sum of four uniforms.
            let mut normal = move || {
                let u: f64 = (0..4).map(|_| noise.gen::<f64>()).sum();
                (u - 2.0) * 0.1 * 3f64.sqrt()
            };
            let cfg = Config {
                evaluations: 1000,
                exploration: 1.0,
                neighbourhood: 50,
                seed,
            };
            let out = search(&sizes, &cfg, |_, p| Ok(f(p) + normal())).unwrap();
            assert_eq!(out.evaluated.len(), 1000);
            let finalists = out.finalists(&sizes, 3);
            assert!(finalists.len() <= 3);
            assert_eq!(finalists[0], target, "seed {seed}: {finalists:?}");
            // 1,000 evaluations over 100,000 points: the search returns to the optimum.
            assert!(out.evaluated.iter().filter(|(p, _)| p == &target).count() > 10);
        }
    }

    #[test]
    fn balance_ntbea_neighbours_differ_and_stay_on_the_grid() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let sizes = [3usize, 1, 4];
        for _ in 0..200 {
            let q = neighbour(&[2, 0, 3], &sizes, &mut rng);
            assert_ne!(q, [2, 0, 3]);
            assert!(q.iter().zip(&sizes).all(|(&v, &s)| (v as usize) < s));
        }
        assert_eq!(neighbour(&[0], &[1], &mut rng), [0]);
    }
}
