//! `shifu bench`: random playouts, single-core steps/s and all-core games/s, as JSON.

use crate::setup::GameArgs;
use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use shifu_agents::{game_seed, random_playout};
use std::time::Instant;

/// Options of `shifu bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seconds to run each measurement (at least one game is always played).
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Play exactly this many games per measurement instead of running for --seconds.
    #[arg(long)]
    games: Option<u64>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for the all-core measurement (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    threads: Option<usize>,
}

#[derive(Serialize)]
struct Report {
    game: String,
    players: usize,
    single_core: Measure,
    all_cores: Measure,
    threads: usize,
}

#[derive(Serialize)]
struct Measure {
    games: u64,
    steps: u64,
    seconds: f64,
    steps_per_sec: f64,
    games_per_sec: f64,
    avg_steps_per_game: f64,
}

impl Measure {
    fn new(games: u64, steps: u64, seconds: f64) -> Measure {
        Measure {
            games,
            steps,
            seconds,
            steps_per_sec: steps as f64 / seconds,
            games_per_sec: games as f64 / seconds,
            avg_steps_per_game: steps as f64 / games as f64,
        }
    }
}

pub fn run(args: BenchArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn run_game<G: crate::games::Playable>(args: &BenchArgs) -> Result<()> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 86_400.0) {
        anyhow::bail!(
            "--seconds must be a number of seconds above 0 and at most 86400, got {}",
            args.seconds
        );
    }
    if args.games == Some(0) {
        anyhow::bail!("--games must be at least 1");
    }
    let game: G = args.game.build()?;
    // Single core.
    let mut buf = Vec::with_capacity(64);
    let start = Instant::now();
    let (mut games, mut steps) = (0u64, 0u64);
    let more = |games: u64, start: &Instant| match args.games {
        Some(n) => games < n,
        None => games == 0 || start.elapsed().as_secs_f64() < args.seconds,
    };
    while more(games, &start) {
        steps += random_playout(&game, game_seed(args.seed, games), &mut buf);
        games += 1;
    }
    let single = Measure::new(games, steps, start.elapsed().as_secs_f64());

    // All cores: fixed batches until the time is up.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let threads = pool.current_num_threads();
    let start = Instant::now();
    let (mut games, mut steps) = (0u64, 0u64);
    let batch = args
        .games
        .unwrap_or((threads as u64) * 64)
        .min((threads as u64) * 64)
        .max(1);
    while more(games, &start) {
        let first = games;
        steps += pool.install(|| {
            (first..first + batch)
                .into_par_iter()
                .map_init(
                    || Vec::with_capacity(64),
                    |buf, i| random_playout(&game, game_seed(args.seed, i), buf),
                )
                .sum::<u64>()
        });
        games += batch;
    }
    let all = Measure::new(games, steps, start.elapsed().as_secs_f64());
    let report = Report {
        game: game.name().to_string(),
        players: game.num_seats(),
        single_core: single,
        all_cores: all,
        threads,
    };
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
