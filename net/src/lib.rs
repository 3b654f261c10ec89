//! # shifu-net
//!
//! Policy-value networks for shifu games: a residual MLP over a game's encoding, relative to
//! the observer ([`shifu_engine::SeatRotation`]), with a policy head over the game's action
//! indices (illegal ones masked) and a value head giving each seat's expected outcome, counted
//! from the observer, in -1..1.
//!
//! The network: `h = relu(stem(x))`; per block `h = relu(h + fc2(relu(fc1(h))))`; then
//! `policy(h)` (logits, masked, softmax) and `tanh(value(h))`.
//!
//! - [`Weights`]: the parameters, created from a seed, saved as safetensors with the game and
//!   shape in the metadata, loaded with every check a hostile file needs.
//! - `Trainer` (feature `train`, on by default): the same network in candle, with autograd
//!   and AdamW.
//! - [`Inference`]: the forward pass for search, batched and allocation-free once warm.
//! - [`Features`]: a position's relative input and legal mask.

#![warn(missing_docs)]

mod config;
mod features;
mod infer;
#[cfg(feature = "train")]
mod train;
mod weights;

pub use config::{encoding_hash, NetConfig, DEFAULT_BLOCKS, DEFAULT_HIDDEN, FORMAT_VERSION};
pub use features::Features;
pub use infer::{Inference, Net};
#[cfg(feature = "train")]
pub use train::{Batch, Losses, TrainConfig, Trainer};
pub use weights::{canonical_safetensors, NetError, Weights};
