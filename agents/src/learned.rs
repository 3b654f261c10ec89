//! A learned evaluation: a value model of a seat's encoded observation ([`shifu_engine::Encoding`]),
//! linear or with one hidden layer, whose output (a logistic) estimates the seat's final reward
//! (its share of the win). `shifu fit` trains it on exported self-play, on final outcomes (Monte
//! Carlo) or TD(λ) returns; MCTS uses it at its depth cut (`mcts:...,leaf=model.json`).

use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// A value model: `sigmoid(w2 · tanh(W1 x + b1) + b2)`, or `sigmoid(w1 · x + b2)` when
/// `hidden` is 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueModel {
    /// The game whose encoding it reads (`tofu-shifu`, ...).
    pub game: String,
    /// The observation length it was fitted on.
    pub inputs: usize,
    /// Hidden units (0: linear).
    pub hidden: usize,
    /// First-layer weights, row-major (hidden × inputs), or the linear weights (inputs).
    pub w1: Vec<f32>,
    /// First-layer biases (hidden; empty when linear).
    pub b1: Vec<f32>,
    /// Output weights (hidden; empty when linear).
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
    /// How it was fitted (free text).
    #[serde(default)]
    pub note: String,
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

impl ValueModel {
    /// A new model with small random first-layer weights (zero output weights: it starts at
    /// one half everywhere).
    pub fn new(game: &str, inputs: usize, hidden: usize, seed: u64) -> ValueModel {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let scale = 1.0 / (inputs.max(1) as f32).sqrt();
        let n1 = if hidden == 0 { inputs } else { hidden * inputs };
        let w1 = (0..n1)
            .map(|_| {
                if hidden == 0 {
                    0.0
                } else {
                    (rng.gen::<f32>() * 2.0 - 1.0) * scale
                }
            })
            .collect();
        ValueModel {
            game: game.to_string(),
            inputs,
            hidden,
            w1,
            b1: vec![0.0; hidden],
            w2: vec![0.0; hidden],
            b2: 0.0,
            note: String::new(),
        }
    }

    /// The estimated reward of observation `x`; `h` is scratch for the hidden layer.
    pub fn predict(&self, x: &[f32], h: &mut Vec<f32>) -> f32 {
        sigmoid(self.logit(x, h))
    }

    /// The output before the logistic; fills `h` with the hidden activations.
    pub fn logit(&self, x: &[f32], h: &mut Vec<f32>) -> f32 {
        if self.hidden == 0 {
            return dot(&self.w1, x) + self.b2;
        }
        h.clear();
        for j in 0..self.hidden {
            let row = &self.w1[j * self.inputs..(j + 1) * self.inputs];
            h.push((dot(row, x) + self.b1[j]).tanh());
        }
        dot(&self.w2, h) + self.b2
    }

    /// Checks the sizes and that every number is finite; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        let n1 = if self.hidden == 0 {
            Some(self.inputs)
        } else {
            self.hidden.checked_mul(self.inputs)
        }
        .ok_or_else(|| {
            format!(
                "fields `hidden` ({}) and `inputs` ({}): too large",
                self.hidden, self.inputs
            )
        })?;
        let expect = [
            ("w1", self.w1.len(), n1),
            ("b1", self.b1.len(), self.hidden),
            ("w2", self.w2.len(), self.hidden),
        ];
        for (name, got, want) in expect {
            if got != want {
                return Err(format!(
                    "field `{name}`: {got} values, {want} expected for {} inputs and {} hidden units",
                    self.inputs, self.hidden
                ));
            }
        }
        let all = self.w1.iter().chain(&self.b1).chain(&self.w2);
        if let Some(x) = all
            .chain(std::iter::once(&self.b2))
            .find(|x| !x.is_finite())
        {
            return Err(format!("a weight is {x}, not a finite number"));
        }
        Ok(())
    }

    /// Reads and checks a model file (JSON).
    pub fn load(path: &Path) -> Result<ValueModel, String> {
        let text = shifu_engine::files::read_text(path).map_err(|e| e.to_string())?;
        let m: ValueModel =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        m.validate()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(m)
    }

    /// Parses and checks a model from JSON text.
    pub fn load_from_str(text: &str) -> Result<ValueModel, String> {
        let m: ValueModel = serde_json::from_str(text).map_err(|e| e.to_string())?;
        m.validate()?;
        Ok(m)
    }

    /// The model as JSON, which [`ValueModel::load`] reads.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a model serialises")
    }
}

/// The dot product, summed in eight lanes (which the compiler vectorises: a strict left-to-right
/// sum cannot be, and made the learned leaf evaluation the bulk of a search's time).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let (a, b) = (&a[..a.len().min(b.len())], &b[..a.len().min(b.len())]);
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut acc = [0.0f32; 8];
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// Models loaded so far, by path: the agents of every game of a run share one copy.
pub fn shared_model(path: &Path) -> Result<Arc<ValueModel>, String> {
    static CACHE: OnceLock<Mutex<HashMap<std::path::PathBuf, Arc<ValueModel>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(m) = cache.lock().map_err(|e| e.to_string())?.get(path) {
        return Ok(m.clone());
    }
    let m = Arc::new(ValueModel::load(path)?);
    cache
        .lock()
        .map_err(|e| e.to_string())?
        .insert(path.to_path_buf(), m.clone());
    Ok(m)
}

/// Training data: rows of encoded observations with the deciding seat's final reward, grouped
/// by game and seat in step order (for TD(λ) returns).
pub struct Dataset {
    /// Observation length.
    pub inputs: usize,
    /// Observations, row-major.
    pub x: Vec<f32>,
    /// The deciding seat's final reward, by row.
    pub reward: Vec<f32>,
    /// Each (game, seat)'s rows in step order.
    pub chains: Vec<Vec<usize>>,
    /// Rows held out for validation (whole games).
    pub held_out: Vec<bool>,
}

/// How a model is fitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitOptions {
    /// Passes over the training rows.
    pub epochs: usize,
    /// Adam's step size.
    pub lr: f32,
    /// Rows per step.
    pub batch: usize,
    /// `None`: Monte Carlo targets (the final reward); `Some(λ)`: TD(λ) returns, recomputed
    /// with the current model before each epoch.
    pub lambda: Option<f32>,
    /// Shuffling seed.
    pub seed: u64,
}

/// Mean squared error of the model against the final rewards, on held-out rows and on
/// training rows, beside that of predicting the training rows' mean.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct FitReport {
    /// Training rows.
    pub train_rows: usize,
    /// Held-out rows.
    pub held_out_rows: usize,
    /// MSE on the training rows against their final reward.
    pub train_mse: f64,
    /// MSE on the held-out rows.
    pub held_out_mse: f64,
    /// MSE on the held-out rows of the constant that predicts the training mean.
    pub baseline_mse: f64,
}

impl Dataset {
    fn row(&self, i: usize) -> &[f32] {
        &self.x[i * self.inputs..(i + 1) * self.inputs]
    }

    /// The targets: final rewards, or λ-returns under `model`.
    fn targets(&self, model: &ValueModel, lambda: Option<f32>) -> Vec<f32> {
        let Some(l) = lambda else {
            return self.reward.clone();
        };
        let mut t = self.reward.clone();
        let mut h = Vec::new();
        for chain in &self.chains {
            let Some(&last) = chain.last() else { continue };
            let mut g = self.reward[last];
            t[last] = g;
            for w in chain.windows(2).rev() {
                let next_value = model.predict(self.row(w[1]), &mut h);
                g = (1.0 - l) * next_value + l * g;
                t[w[0]] = g;
            }
        }
        t
    }

    fn mse(&self, model: &ValueModel, rows: impl Iterator<Item = usize>) -> f64 {
        let mut h = Vec::new();
        let (mut s, mut n) = (0.0f64, 0usize);
        for i in rows {
            let e = f64::from(model.predict(self.row(i), &mut h) - self.reward[i]);
            s += e * e;
            n += 1;
        }
        s / n.max(1) as f64
    }
}

/// Adam's moment estimates for one parameter vector.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Self {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, p: &mut [f32], g: &[f32], lr: f32, t: i32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..p.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            p[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// Fits `model` to `data` by Adam on the squared error of its output, and reports.
pub fn fit(model: &mut ValueModel, data: &Dataset, o: &FitOptions) -> FitReport {
    let train: Vec<usize> = (0..data.reward.len())
        .filter(|&i| !data.held_out[i])
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(o.seed);
    let (nh, ni) = (model.hidden, model.inputs);
    let (mut g1, mut gb1, mut g2) = (vec![0.0; model.w1.len()], vec![0.0; nh], vec![0.0; nh]);
    let (mut m1, mut mb1, mut m2, mut mb2) = (
        Moments::new(model.w1.len()),
        Moments::new(nh),
        Moments::new(nh),
        Moments::new(1),
    );
    let mut h = Vec::new();
    let mut t = 0;
    let mut order = train.clone();
    for _ in 0..o.epochs {
        let targets = data.targets(model, o.lambda);
        // Fisher-Yates with the fit's own stream: the same fit for the same seed.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.gen_range(0..=i));
        }
        for batch in order.chunks(o.batch.max(1)) {
            g1.fill(0.0);
            gb1.fill(0.0);
            g2.fill(0.0);
            let mut gb2 = 0.0f32;
            for &r in batch {
                let x = data.row(r);
                let y = sigmoid(model.logit(x, &mut h));
                // d(y - t)^2 / dz = 2 (y - t) y (1 - y).
                let dz = 2.0 * (y - targets[r]) * y * (1.0 - y) / batch.len() as f32;
                gb2 += dz;
                if nh == 0 {
                    for (g, &xi) in g1.iter_mut().zip(x) {
                        *g += dz * xi;
                    }
                    continue;
                }
                for j in 0..nh {
                    g2[j] += dz * h[j];
                    let dh = dz * model.w2[j] * (1.0 - h[j] * h[j]);
                    gb1[j] += dh;
                    if dh != 0.0 {
                        for (g, &xi) in g1[j * ni..(j + 1) * ni].iter_mut().zip(x) {
                            *g += dh * xi;
                        }
                    }
                }
            }
            t += 1;
            m1.step(&mut model.w1, &g1, o.lr, t);
            if nh > 0 {
                mb1.step(&mut model.b1, &gb1, o.lr, t);
                m2.step(&mut model.w2, &g2, o.lr, t);
            }
            let mut b2 = [model.b2];
            mb2.step(&mut b2, &[gb2], o.lr, t);
            model.b2 = b2[0];
        }
    }
    let held: Vec<usize> = (0..data.reward.len())
        .filter(|&i| data.held_out[i])
        .collect();
    let mean = train
        .iter()
        .map(|&i| f64::from(data.reward[i]))
        .sum::<f64>()
        / train.len().max(1) as f64;
    let baseline = held
        .iter()
        .map(|&i| (mean - f64::from(data.reward[i])).powi(2))
        .sum::<f64>()
        / held.len().max(1) as f64;
    FitReport {
        train_rows: train.len(),
        held_out_rows: held.len(),
        train_mse: data.mse(model, train.iter().copied()),
        held_out_mse: data.mse(model, held.iter().copied()),
        baseline_mse: baseline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lane_summed_dot_product_matches_the_plain_sum() {
        for n in 0..40 {
            let a: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin()).collect();
            let b: Vec<f32> = (0..n).map(|i| (i as f32 * 0.11).cos()).collect();
            let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-4, "{n}");
        }
    }

    /// Rows whose reward is 1 when feature 0 is on: a model must learn it.
    fn toy(rows: usize) -> Dataset {
        let inputs = 5;
        let mut x = Vec::new();
        let mut reward = Vec::new();
        for i in 0..rows {
            let on = i % 3 == 0;
            x.extend([f32::from(u8::from(on)), 1.0, 0.0, (i % 7) as f32 / 7.0, 0.5]);
            reward.push(if on { 1.0 } else { 0.0 });
        }
        Dataset {
            inputs,
            x,
            reward,
            chains: (0..rows).map(|i| vec![i]).collect(),
            held_out: (0..rows).map(|i| i % 10 == 0).collect(),
        }
    }

    #[test]
    fn linear_and_hidden_models_learn_a_separable_outcome() {
        for hidden in [0, 4] {
            let data = toy(600);
            let mut m = ValueModel::new("toy", 5, hidden, 1);
            let o = FitOptions {
                epochs: 60,
                lr: 0.05,
                batch: 32,
                lambda: None,
                seed: 3,
            };
            let r = fit(&mut m, &data, &o);
            assert!(r.held_out_mse < 0.1 * r.baseline_mse, "{hidden}: {r:?}");
            m.validate().unwrap();
            let back = ValueModel::load_from_str(&m.to_json()).unwrap();
            assert_eq!(back, m);
        }
    }

    #[test]
    fn td_lambda_targets_run_back_from_the_final_reward() {
        let mut data = toy(3);
        data.reward = vec![1.0, 1.0, 1.0];
        data.chains = vec![vec![0, 1, 2]];
        let m = ValueModel::new("toy", 5, 0, 1); // predicts 0.5 everywhere
        let t = data.targets(&m, Some(0.5));
        assert_eq!(t[2], 1.0);
        assert!((t[1] - 0.75).abs() < 1e-6, "{t:?}"); // 0.5 * 0.5 + 0.5 * 1
        assert!((t[0] - 0.625).abs() < 1e-6, "{t:?}"); // 0.5 * 0.5 + 0.5 * 0.75
        assert_eq!(data.targets(&m, Some(1.0)), vec![1.0; 3]);
    }

    #[test]
    fn a_model_with_the_wrong_sizes_or_a_nan_is_refused() {
        let mut m = ValueModel::new("toy", 5, 2, 1);
        m.b1.pop();
        assert!(m.validate().unwrap_err().contains("b1"));
        let mut m = ValueModel::new("toy", 5, 0, 1);
        m.b2 = f32::NAN;
        assert!(m.validate().unwrap_err().contains("finite"));
        // Sizes whose product overflows are refused, not wrapped into a match.
        let huge = r#"{"game":"toy","inputs":4294967297,"hidden":4294967297,"w1":[1.0],"b1":[],"w2":[],"b2":0.0}"#;
        let e = ValueModel::load_from_str(huge).unwrap_err();
        assert!(e.contains("too large"), "{e}");
    }
}
