//! Training a candidate on the replay buffer: epochs of shuffled mini-batches through candle's
//! AdamW ([`shifu_net::Trainer`]), fresh each iteration (no optimiser state to checkpoint).
//! A step whose loss is NaN or infinite is counted and skipped (its update discarded); weights
//! that end non-finite anyway are dropped for the last good ones.

use super::buffer::Buffer;
use anyhow::{anyhow, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use shifu_net::{Batch, TrainConfig, Trainer, Weights};

/// What training did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Learned {
    /// Steps taken (mini-batches).
    pub steps: u64,
    /// Steps whose loss was NaN or infinite (their updates discarded).
    pub nan_steps: u64,
    /// Mean policy loss of the last epoch's finite steps.
    pub policy_loss: f64,
    /// Mean value loss of the last epoch's finite steps.
    pub value_loss: f64,
    /// Whether the weights came out non-finite and the start was kept.
    pub reverted: bool,
}

/// Training settings.
#[derive(Debug, Clone, Copy)]
pub struct Learn {
    /// Passes over the buffer.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// AdamW's learning rate.
    pub lr: f64,
}

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("training: {e}")
}

/// `start` trained on `buffer` with shuffles drawn from `seed`.
pub fn learn(start: &Weights, buffer: &Buffer, l: Learn, seed: u64) -> Result<(Weights, Learned)> {
    learn_with(start, buffer, l, seed, None)
}

/// [`learn`], with a test hook: step `poison` (counted from 0) gets a NaN value target.
pub(crate) fn learn_with(
    start: &Weights,
    buffer: &Buffer,
    l: Learn,
    seed: u64,
    poison: Option<u64>,
) -> Result<(Weights, Learned)> {
    let c = &start.config;
    let (ni, na, nv) = (c.inputs, c.actions, c.values());
    let tc = TrainConfig {
        lr: l.lr,
        ..TrainConfig::default()
    };
    let mut t = Trainer::new(start, tc).map_err(err)?;
    let mut order = buffer.index();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let bs = l.batch.min(order.len()).max(1);
    let (mut x, mut m, mut p, mut v) = (
        vec![0.0; bs * ni],
        vec![0u8; bs * na],
        vec![0.0; bs * na],
        vec![0.0; bs * nv],
    );
    let mut out = Learned::default();
    for _ in 0..l.epochs {
        order.shuffle(&mut rng);
        let (mut sum_p, mut sum_v, mut finite) = (0.0, 0.0, 0u64);
        for chunk in order.chunks(bs) {
            let rows = chunk.len();
            for (r, &pos) in chunk.iter().enumerate() {
                buffer.fill(
                    pos,
                    &mut x[r * ni..(r + 1) * ni],
                    &mut m[r * na..(r + 1) * na],
                    &mut p[r * na..(r + 1) * na],
                    &mut v[r * nv..(r + 1) * nv],
                );
            }
            if poison == Some(out.steps) {
                v[0] = f32::NAN;
            }
            let b = Batch {
                rows,
                inputs: &x[..rows * ni],
                mask: &m[..rows * na],
                policy: &p[..rows * na],
                value: &v[..rows * nv],
            };
            let losses = t.step(&b).map_err(err)?;
            out.steps += 1;
            if losses.policy.is_finite() && losses.value.is_finite() {
                sum_p += f64::from(losses.policy);
                sum_v += f64::from(losses.value);
                finite += 1;
            } else {
                out.nan_steps += 1;
                eprintln!(
                    "training: step {} has a non-finite loss (policy {}, value {}); its update is discarded",
                    out.steps, losses.policy, losses.value
                );
            }
        }
        out.policy_loss = sum_p / finite.max(1) as f64;
        out.value_loss = sum_v / finite.max(1) as f64;
    }
    let w = t.weights().map_err(err)?;
    if w.params.iter().flatten().all(|x| x.is_finite()) {
        Ok((w, out))
    } else {
        eprintln!("training: the weights came out non-finite; keeping the last good ones");
        out.reverted = true;
        Ok((start.clone(), out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expert::buffer::GameSamples;
    use shifu_net::NetConfig;

    fn setup() -> (Weights, Buffer) {
        let config = NetConfig {
            game: "test".into(),
            players: 2,
            inputs: 6,
            encoding_hash: 0,
            actions: 4,
            hidden: 8,
            blocks: 1,
        };
        let mut b = Buffer::new(6, 4, 2, 10);
        for k in 0..4u32 {
            b.push(GameSamples {
                input_len: vec![1, 2],
                input_index: vec![k % 6, 1, 4],
                input_value: vec![1.0, 1.0, 0.5],
                legal_len: vec![2, 2],
                legal_index: vec![0, 2, 1, 3],
                legal_policy: vec![0.9, 0.1, 0.3, 0.7],
                value: vec![1.0, -1.0, -1.0, 1.0],
            });
        }
        (Weights::init(config, 4), b)
    }

    const L: Learn = Learn {
        epochs: 3,
        batch: 3,
        lr: 1e-2,
    };

    #[test]
    fn training_is_a_function_of_its_seed() {
        let (w, b) = setup();
        let (a, la) = learn(&w, &b, L, 9).unwrap();
        let (a2, _) = learn(&w, &b, L, 9).unwrap();
        assert_eq!(a.to_bytes(), a2.to_bytes());
        assert_ne!(a, w);
        assert_eq!((la.steps, la.nan_steps, la.reverted), (9, 0, false));
        let (c, _) = learn(&w, &b, L, 10).unwrap();
        assert_ne!(a, c, "another seed shuffles otherwise");
    }

    #[test]
    fn a_nan_batch_is_reported_and_skipped_and_training_goes_on() {
        let (w, b) = setup();
        let (a, l) = learn_with(&w, &b, L, 9, Some(4)).unwrap();
        assert_eq!((l.steps, l.nan_steps, l.reverted), (9, 1, false));
        assert!(a.params.iter().flatten().all(|x| x.is_finite()));
        assert_ne!(a, w, "the other steps still trained");
        assert!(l.policy_loss.is_finite() && l.value_loss.is_finite());
    }
}
