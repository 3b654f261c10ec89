//! The forward pass used inside search: batched, reading the same weights as training, and
//! allocation-free once its buffers are sized.
//!
//! The input layer skips zero inputs (most of an encoding is one-hot and bit fields, mostly
//! zero), and the policy head computes only the legal actions' logits: a game with thousands of
//! action indices pays for the handful that are legal.

use crate::config::NetConfig;
use crate::weights::Weights;
use std::sync::Arc;

/// A network's weights laid out for inference: input-major weight matrices (`[in][out]`) for
/// the hidden layers, PyTorch's `[out][in]` for the policy head. Shared between agents.
#[derive(Debug)]
pub struct Net {
    config: NetConfig,
    /// `(weight [in][out], bias)` of the input layer, then of each block's two layers.
    hidden: Vec<(Vec<f32>, Vec<f32>)>,
    policy_w: Vec<f32>,
    policy_b: Vec<f32>,
    value_w: Vec<f32>,
    value_b: Vec<f32>,
}

/// `w` (`[out][inp]`) transposed to `[inp][out]`.
fn transpose(w: &[f32], out: usize, inp: usize) -> Vec<f32> {
    let mut t = vec![0.0; w.len()];
    for o in 0..out {
        for i in 0..inp {
            t[i * out + o] = w[o * inp + i];
        }
    }
    t
}

impl Net {
    /// The inference layout of `w`.
    pub fn new(w: &Weights) -> Arc<Self> {
        let c = &w.config;
        let (h, p) = (c.hidden, &w.params);
        let mut hidden = vec![(transpose(&p[0], h, c.inputs), p[1].clone())];
        for b in 0..c.blocks {
            for l in 0..2 {
                let k = 2 + 4 * b + 2 * l;
                hidden.push((transpose(&p[k], h, h), p[k + 1].clone()));
            }
        }
        let k = 2 + 4 * c.blocks;
        Arc::new(Net {
            config: c.clone(),
            hidden,
            policy_w: p[k].clone(),
            policy_b: p[k + 1].clone(),
            value_w: transpose(&p[k + 2], c.values(), h),
            value_b: p[k + 3].clone(),
        })
    }

    /// The network's game and shape.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }
}

/// `out = bias + x · w` for one row, `w` input-major; zero inputs cost nothing.
#[inline]
fn linear_row(x: &[f32], w: &[f32], bias: &[f32], out: &mut [f32]) {
    let n = out.len();
    out.copy_from_slice(bias);
    // Inputs are mostly zeros (one-hot fields): blocks of 8 that are all ±0 are skipped by one
    // vectorised test. The rest skip zeros one by one, so the sums are added in the same order
    // as one value at a time, and come out the same to the bit.
    const LANES: usize = 8;
    for (b, block) in x.chunks(LANES).enumerate() {
        if block.iter().fold(0u32, |a, v| a | v.to_bits()) & 0x7fff_ffff == 0 {
            continue;
        }
        for (j, &xi) in block.iter().enumerate() {
            if xi != 0.0 {
                let i = b * LANES + j;
                for (y, &wi) in out.iter_mut().zip(&w[i * n..(i + 1) * n]) {
                    *y += xi * wi;
                }
            }
        }
    }
}

fn relu(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

/// Batched inference over one [`Net`]: the caller fills up to [`Inference::capacity`] rows of
/// inputs and legal masks, runs [`Inference::forward`], and reads each row's policy
/// (probabilities over the action indices, 0 where illegal) and values (one per seat, relative
/// to the observer: entry 0 is the observer's, each in -1..1).
pub struct Inference {
    net: Arc<Net>,
    capacity: usize,
    inputs: Vec<f32>,
    mask: Vec<u8>,
    h: Vec<f32>,
    t: Vec<f32>,
    u: Vec<f32>,
    policy: Vec<f32>,
    value: Vec<f32>,
}

impl Inference {
    /// Buffers for batches of up to `capacity` rows (at least 1).
    pub fn new(net: Arc<Net>, capacity: usize) -> Self {
        let c = net.config().clone();
        let n = capacity.max(1);
        Inference {
            net,
            capacity: n,
            inputs: vec![0.0; n * c.inputs],
            mask: vec![0; n * c.actions],
            h: vec![0.0; c.hidden],
            t: vec![0.0; c.hidden],
            u: vec![0.0; c.hidden],
            policy: vec![0.0; n * c.actions],
            value: vec![0.0; n * c.values()],
        }
    }

    /// The most rows a batch may hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The network.
    pub fn net(&self) -> &Arc<Net> {
        &self.net
    }

    /// Row `i`'s input (the relative observation) and legal mask (1 where legal), to fill.
    pub fn row_mut(&mut self, i: usize) -> (&mut [f32], &mut [u8]) {
        let (n, a) = (self.net.config.inputs, self.net.config.actions);
        (
            &mut self.inputs[i * n..(i + 1) * n],
            &mut self.mask[i * a..(i + 1) * a],
        )
    }

    /// Runs the first `rows` rows.
    pub fn forward(&mut self, rows: usize) {
        assert!(rows <= self.capacity, "batch over capacity");
        for r in 0..rows {
            self.forward_row(r);
        }
    }

    fn forward_row(&mut self, r: usize) {
        let net = &*self.net;
        let c = &net.config;
        let x = &self.inputs[r * c.inputs..(r + 1) * c.inputs];
        let (w, b) = &net.hidden[0];
        linear_row(x, w, b, &mut self.h);
        relu(&mut self.h);
        for blk in net.hidden[1..].chunks(2) {
            linear_row(&self.h, &blk[0].0, &blk[0].1, &mut self.t);
            relu(&mut self.t);
            linear_row(&self.t, &blk[1].0, &blk[1].1, &mut self.u);
            for (h, &u) in self.h.iter_mut().zip(&self.u) {
                *h = (*h + u).max(0.0);
            }
        }
        let v = &mut self.value[r * c.values()..(r + 1) * c.values()];
        linear_row(&self.h, &net.value_w, &net.value_b, v);
        for x in v.iter_mut() {
            *x = x.tanh();
        }
        let mask = &self.mask[r * c.actions..(r + 1) * c.actions];
        let p = &mut self.policy[r * c.actions..(r + 1) * c.actions];
        let mut top = f32::NEG_INFINITY;
        for (a, (y, &m)) in p.iter_mut().zip(mask).enumerate() {
            *y = if m == 0 {
                f32::NEG_INFINITY
            } else {
                let w = &net.policy_w[a * c.hidden..(a + 1) * c.hidden];
                net.policy_b[a] + w.iter().zip(&self.h).map(|(w, h)| w * h).sum::<f32>()
            };
            top = top.max(*y);
        }
        // Softmax over the legal logits; an empty mask leaves zeros.
        let mut sum = 0.0;
        for y in p.iter_mut() {
            *y = if *y == f32::NEG_INFINITY {
                0.0
            } else {
                (*y - top).exp()
            };
            sum += *y;
        }
        if sum > 0.0 {
            for y in p.iter_mut() {
                *y /= sum;
            }
        }
    }

    /// Row `i`'s policy: a probability per action index, 0 where the mask is 0.
    pub fn policy(&self, i: usize) -> &[f32] {
        let a = self.net.config.actions;
        &self.policy[i * a..(i + 1) * a]
    }

    /// Row `i`'s values, one per seat counted from the observer, each in -1..1.
    pub fn value(&self, i: usize) -> &[f32] {
        let v = self.net.config.values();
        &self.value[i * v..(i + 1) * v]
    }
}

#[cfg(test)]
mod tests {
    use super::linear_row;

    /// Skipping all-zero blocks of inputs gives the bits of the plain loop that skips zeros one
    /// at a time (the inputs in order), whatever the length, with -0.0 and NaN among them.
    #[test]
    fn skipping_zero_blocks_gives_the_same_bits_as_value_by_value() {
        let (n, len) = (5, 37);
        let w: Vec<f32> = (0..n * len)
            .map(|k| ((k * 7919) % 101) as f32 / 13.0 - 3.7)
            .collect();
        let bias = [0.25, -1.0, 0.0, 3.5, 1e-3];
        for pattern in 0..64u64 {
            let x: Vec<f32> = (0..len)
                .map(|i| match (pattern.rotate_left(i as u32) ^ i as u64) % 9 {
                    0 => 1.0,
                    1 => -0.0,
                    2 => 0.3 + i as f32,
                    3 if pattern == 7 => f32::NAN,
                    _ => 0.0,
                })
                .collect();
            let mut fast = [0.0f32; 5];
            linear_row(&x, &w, &bias, &mut fast);
            let mut plain = bias;
            for (i, &xi) in x.iter().enumerate() {
                if xi != 0.0 {
                    for (y, &wi) in plain.iter_mut().zip(&w[i * n..(i + 1) * n]) {
                        *y += xi * wi;
                    }
                }
            }
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&plain), "pattern {pattern}");
        }
    }
}
