//! The library behind the `shifu` command: every subcommand's implementation, so that other
//! front ends (the Python module in `python/`) run exactly the same code. The command itself
//! (`src/main.rs`) only parses arguments and calls [`play::run`] and its siblings.

// Statistics walk parallel per-seat arrays; index loops say that best.
#![allow(clippy::needless_range_loop)]

pub mod bench;
pub mod calibrate;
pub mod curve;
pub mod data;
pub mod duel;
pub mod encoding;
pub mod export;
pub mod fit;
pub mod games;
pub mod npz;
pub mod play;
pub mod ratings;
pub mod report;
pub mod runfile;
pub mod setup;
pub mod show;
pub mod stats;
pub mod sweep;
pub mod tournament;
pub mod train;
