//! The library behind the `shifu` command: every subcommand's implementation, so that other
//! front ends (the Python module in `python/`) run exactly the same code. The command itself
//! (`src/main.rs`) only parses arguments and calls [`play::run`] and its siblings.

// Statistics walk parallel per-seat arrays; index loops say that best.
#![allow(clippy::needless_range_loop)]

#[cfg(feature = "balance")]
pub mod balance;
#[cfg(feature = "cli")]
pub mod bench;
pub mod bootstrap;
#[cfg(feature = "cli")]
pub mod calibrate;
#[cfg(feature = "cli")]
pub mod completions;
#[cfg(feature = "cli")]
pub mod contract;
#[cfg(feature = "cli")]
pub mod curve;
#[cfg(feature = "cli")]
pub mod data;
#[cfg(feature = "cli")]
pub mod dose;
#[cfg(feature = "cli")]
pub mod duel;
#[cfg(feature = "cli")]
pub mod encoding;
pub mod equivalence;
#[cfg(feature = "cli")]
pub mod export;
#[cfg(feature = "cli")]
pub mod fit;
pub mod format;
pub mod game_log;
pub mod games;
pub mod hash;
#[cfg(feature = "cli")]
pub mod limits;
#[cfg(feature = "cli")]
pub mod mechanics;
#[cfg(feature = "cli")]
pub mod net;
#[cfg(feature = "cli")]
pub mod npz;
#[cfg(feature = "cli")]
pub mod paired;
pub mod play;
#[cfg(feature = "cli")]
pub mod ratings;
pub mod render;
#[cfg(feature = "cli")]
pub mod replay;
#[cfg(feature = "cli")]
pub mod report;
#[cfg(feature = "cli")]
pub mod report_html;
pub mod row;
pub mod runfile;
pub mod runner;
pub mod seats;
pub mod setup;
#[cfg(feature = "cli")]
pub mod show;
pub mod stats;
#[cfg(feature = "balance")]
pub mod suggest;
pub mod summary;
#[cfg(feature = "cli")]
pub mod sweep;
#[cfg(feature = "cli")]
pub mod sweep_table;
pub mod tally;
#[cfg(feature = "cli")]
pub mod tournament;
#[cfg(feature = "cli")]
pub mod train;
