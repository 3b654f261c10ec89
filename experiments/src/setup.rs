//! The options every subcommand shares: which game, how many players, which data and
//! parameters.

use anyhow::Result;
use clap::Args;
use shifu_engine::{BuildOptions, Present};
use std::path::PathBuf;

/// How many worker threads a run may ask for, per core: more only thrash (`--threads 5000` drove
/// the load average to several hundred).
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads a run may ask for: [`THREADS_PER_CORE`] × the cores.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * THREADS_PER_CORE
}

/// Checks a thread count against [`max_threads`]; 0 means all cores.
pub fn check_threads(n: usize) -> std::result::Result<usize, String> {
    let max = max_threads();
    if n > max {
        return Err(format!(
            "{n} threads is more than {max} ({THREADS_PER_CORE} per core on this machine's {} cores); \
             give at most {max}, or 0 for one per core",
            max / THREADS_PER_CORE
        ));
    }
    Ok(n)
}

/// Parses `--threads` (clap value parser): a count of at most [`max_threads`].
pub fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|e| format!("`{s}` is not a thread count: {e}"))?;
    check_threads(n)
}

/// `--game`'s help: the registered games, from the engine's list.
fn game_help() -> String {
    format!("The game: {}", shifu_engine::registry::names_in_prose())
}

/// Game, players, data and parameters.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game (the help lists the registered games).
    #[arg(long, default_value = "tofu-shifu", help = game_help())]
    pub game: String,
    /// Number of players (overrides `players` in --config and --set).
    #[arg(long)]
    pub players: Option<u8>,
    /// A card data file replacing the default one, or a built-in set by name: builtin:calibrated
    /// (Tofu Shifu's default), builtin:reconstructed or builtin:alternative.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// A TOML parameter file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A parameter override, for example --set start_coins=2,2,2,3 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl GameArgs {
    /// Builds the game these options describe, as game type `G` (see [`crate::with_game!`]).
    pub fn build<G: Present>(&self) -> Result<G> {
        let options = BuildOptions {
            players: self.players,
            data: self.data.as_deref(),
            config: self.config.as_deref(),
            set: &self.set,
        };
        Ok(G::build(&options)?)
    }
}

/// Which agents play how many games from which seed: shared by `play`, `seats` and `sweep`.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Agent spec per seat, comma-separated; one spec is used for every seat. The default is
    /// greedy: random agents leave about half of Tofu Shifu's games at the round cap, which then
    /// decides the result (`--agents random` for a quick smoke test).
    #[arg(long, default_value = "greedy")]
    pub agents: String,
    /// Number of games (in a sweep: per cell, on the same seeds).
    #[arg(long, default_value_t = 10_000)]
    pub games: u64,
    /// Master seed; game i plays with seed splitmix64(seed ^ splitmix64(i)).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seat rotation (common random numbers): each seed is played once per seat with the agents
    /// rotated, agent j in seat (j + r) mod n in rotation r; --games counts all the games.
    #[arg(long)]
    pub rotate: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    pub threads: Option<usize>,
}

/// Parses `--margin` (clap value parser): a share above 0 and below 0.5.
pub fn parse_margin(s: &str) -> std::result::Result<f64, String> {
    let m: f64 = s
        .parse()
        .map_err(|e| format!("`{s}` is not a margin (a share such as 0.02): {e}"))?;
    crate::equivalence::check_margin(m)
}

/// The equivalence margin of the fairness verdict: shared by `play`, `seats`, `sweep` and
/// `report`, every command that prints one.
#[derive(Args, Debug, Clone, Copy)]
pub struct VerdictArgs {
    /// The equivalence margin: the seats are called fair only when every seat's win share is
    /// shown (TOST at 5%) to lie within this distance of 1/n.
    #[arg(long, default_value_t = crate::equivalence::DEFAULT_MARGIN, value_parser = crate::setup::parse_margin)]
    pub margin: f64,
}

impl Default for VerdictArgs {
    fn default() -> Self {
        VerdictArgs {
            margin: crate::equivalence::DEFAULT_MARGIN,
        }
    }
}
