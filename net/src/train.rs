//! Training with candle: the same network as [`crate::infer`], with autograd and AdamW, on
//! batches of (relative observation, legal mask, target policy, target values).

use crate::config::NetConfig;
use crate::weights::Weights;
use candle_core::{DType, Device, Tensor, Var, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};

/// A logit added to illegal actions in training: finite, so that a zero target times its
/// log-probability stays 0 (an infinite one would give NaN gradients). Its probability is 0 in
/// `f32`, as in inference, where illegal logits are -∞.
const ILLEGAL: f32 = -1.0e9;

/// A training batch of `rows` positions, row-major.
#[derive(Debug, Clone, Copy)]
pub struct Batch<'a> {
    /// Positions in the batch.
    pub rows: usize,
    /// Relative observations (`rows × inputs`).
    pub inputs: &'a [f32],
    /// Legal masks (`rows × actions`, 1 where legal).
    pub mask: &'a [u8],
    /// Target policies (`rows × actions`, summing to 1 over the legal actions): the search's
    /// visit shares.
    pub policy: &'a [f32],
    /// Target values (`rows × players`, relative to the observer, each in -1..1).
    pub value: &'a [f32],
}

/// One training step's losses, before the update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Losses {
    /// Cross-entropy of the policy against the target policy, mean over rows.
    pub policy: f32,
    /// Squared error of the values, mean over rows and seats.
    pub value: f32,
}

/// Training settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainConfig {
    /// AdamW's learning rate.
    pub lr: f64,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            lr: 1e-3,
            weight_decay: 1e-4,
        }
    }
}

/// A network under training: its parameters as candle variables and an AdamW optimiser.
pub struct Trainer {
    config: NetConfig,
    vars: Vec<Var>,
    opt: AdamW,
}

fn linear(x: &Tensor, w: &Var, b: &Var) -> candle_core::Result<Tensor> {
    x.matmul(&w.as_tensor().t()?)?.broadcast_add(b.as_tensor())
}

impl Trainer {
    /// A trainer starting from `w`.
    pub fn new(w: &Weights, t: TrainConfig) -> candle_core::Result<Self> {
        let vars = w
            .config
            .tensors()
            .iter()
            .zip(&w.params)
            .map(|((_, shape), p)| Var::from_vec(p.clone(), shape.as_slice(), &Device::Cpu))
            .collect::<candle_core::Result<Vec<_>>>()?;
        let params = ParamsAdamW {
            lr: t.lr,
            weight_decay: t.weight_decay,
            ..Default::default()
        };
        let opt = AdamW::new(vars.clone(), params)?;
        Ok(Trainer {
            config: w.config.clone(),
            vars,
            opt,
        })
    }

    /// The current weights.
    pub fn weights(&self) -> candle_core::Result<Weights> {
        let params = self
            .vars
            .iter()
            .map(|v| v.as_tensor().flatten_all()?.to_vec1::<f32>())
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Weights {
            config: self.config.clone(),
            params,
        })
    }

    /// The masked policy logits and the values (after tanh) of a batch.
    fn heads(
        &self,
        rows: usize,
        inputs: &[f32],
        mask: &[u8],
    ) -> candle_core::Result<(Tensor, Tensor)> {
        let c = &self.config;
        let v = &self.vars;
        let x = Tensor::from_slice(inputs, (rows, c.inputs), &Device::Cpu)?;
        let mut h = linear(&x, &v[0], &v[1])?.relu()?;
        for b in 0..c.blocks {
            let k = 2 + 4 * b;
            let t = linear(&h, &v[k], &v[k + 1])?.relu()?;
            let t = linear(&t, &v[k + 2], &v[k + 3])?;
            h = (h + t)?.relu()?;
        }
        let k = 2 + 4 * c.blocks;
        let bias: Vec<f32> = mask
            .iter()
            .map(|&m| if m == 0 { ILLEGAL } else { 0.0 })
            .collect();
        let bias = Tensor::from_vec(bias, (rows, c.actions), &Device::Cpu)?;
        let logits = (linear(&h, &v[k], &v[k + 1])? + bias)?;
        let value = linear(&h, &v[k + 2], &v[k + 3])?.tanh()?;
        Ok((logits, value))
    }

    /// The policies (probabilities, 0 where illegal) and values of a batch, row-major: the
    /// reference the allocation-free inference is tested against.
    pub fn forward(
        &self,
        rows: usize,
        inputs: &[f32],
        mask: &[u8],
    ) -> candle_core::Result<(Vec<f32>, Vec<f32>)> {
        let (logits, value) = self.heads(rows, inputs, mask)?;
        let p = candle_nn::ops::softmax_last_dim(&logits)?;
        Ok((p.flatten_all()?.to_vec1()?, value.flatten_all()?.to_vec1()?))
    }

    /// One AdamW step on `b`; returns the losses before it. A NaN or infinite loss (a poisoned
    /// batch, an overflow) is returned without the update: the weights stay as they were.
    pub fn step(&mut self, b: &Batch<'_>) -> candle_core::Result<Losses> {
        let c = &self.config;
        let (logits, value) = self.heads(b.rows, b.inputs, b.mask)?;
        let logp = candle_nn::ops::log_softmax(&logits, D::Minus1)?;
        let target = Tensor::from_slice(b.policy, (b.rows, c.actions), &Device::Cpu)?;
        let policy = ((target * logp)?.sum(D::Minus1)?.mean_all()? * -1.0)?;
        let tv = Tensor::from_slice(b.value, (b.rows, c.values()), &Device::Cpu)?;
        let value = (value - tv)?.sqr()?.mean_all()?;
        let loss = (&policy + &value)?;
        let losses = Losses {
            policy: policy.to_dtype(DType::F32)?.to_scalar()?,
            value: value.to_scalar()?,
        };
        if losses.policy.is_finite() && losses.value.is_finite() {
            self.opt.backward_step(&loss)?;
        }
        Ok(losses)
    }
}
