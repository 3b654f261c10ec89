//! `shifu duel`: agent A against agent B, A rotated through every seat on the same seeds.

use crate::games::Playable;
use crate::play::split_specs;
use crate::setup::GameArgs;
use crate::stats::{capped_share, capped_warning, wilson};
use anyhow::{bail, Result};
use clap::Args;
use rayon::prelude::*;
use shifu_agents::{build_agent, check_agent, game_seed, play_game, Agent};

/// Options of `shifu duel`.
#[derive(Args, Debug)]
pub struct DuelArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Two agent specs, A then B: A takes one seat, B every other seat.
    #[arg(long)]
    agents: String,
    /// Seeds; each is played once with A in every seat (games = seeds x players).
    #[arg(long, default_value_t = 100)]
    seeds: u64,
    /// Master seed; seed i is splitmix64(seed ^ splitmix64(i)).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    threads: Option<usize>,
    /// Also print the result as one markdown table row.
    #[arg(long)]
    markdown: bool,
}

pub fn run(args: DuelArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn run_game<G: Playable>(args: &DuelArgs) -> Result<()> {
    let game: G = args.game.build()?;
    let n = game.num_seats();
    let specs = split_specs(&args.agents);
    if specs.len() != 2 {
        bail!(
            "--agents takes exactly two specs, A and B, got {}",
            specs.len()
        );
    }
    for s in &specs {
        check_agent(&game, s)?;
    }
    if args.seeds == 0 {
        bail!("--seeds must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let started = std::time::Instant::now();
    let jobs: Vec<(u64, usize)> = (0..args.seeds)
        .flat_map(|i| (0..n).map(move |seat| (i, seat)))
        .collect();
    // (A's win share, A's normalised rank reward, capped, rounds) per game.
    let results: Vec<(f64, f64, bool, u32)> = pool.install(|| {
        jobs.par_iter()
            .map_init(Vec::new, |buf, &(i, a_seat)| {
                let seed = game_seed(args.seed, i);
                let mut agents: Vec<Box<dyn Agent<G>>> = (0..n)
                    .map(|s| {
                        let spec = if s == a_seat { &specs[0] } else { &specs[1] };
                        build_agent(spec, seed, s as u8).expect("checked")
                    })
                    .collect();
                let r = play_game(&game, &mut agents, seed, buf);
                let o = r.outcome;
                let rank = o.rank[a_seat] as f64;
                let norm = if n > 1 {
                    (n as f64 - rank) / (n as f64 - 1.0)
                } else {
                    1.0
                };
                (o.win_share(a_seat as u8), norm, o.capped, r.rounds)
            })
            .collect()
    });
    let games = results.len() as f64;
    let wins: f64 = results.iter().map(|r| r.0).sum();
    let rank: f64 = results.iter().map(|r| r.1).sum::<f64>() / games;
    let capped = results.iter().filter(|r| r.2).count();
    let rounds = results.iter().map(|r| r.3 as f64).sum::<f64>() / games;
    let (lo, hi) = wilson(wins, games);
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} players: A = {} vs B = {}; {} seeds x {n} seats = {} games (master seed {})",
        n,
        specs[0],
        specs[1],
        args.seeds,
        results.len(),
        args.seed
    );
    println!(
        "A win share {:.4}  95% CI [{:.4}, {:.4}]  (equal strength: {:.4}); A rank score {:.3}",
        wins / games,
        lo,
        hi,
        1.0 / n as f64,
        rank
    );
    println!(
        "{}; mean rounds {rounds:.1}; {secs:.0} s",
        capped_share(capped as u64, results.len() as u64, game.max_rounds())
    );
    if let Some(w) = capped_warning(capped as u64, results.len() as u64, game.max_rounds()) {
        println!("{w}");
    }
    if args.markdown {
        println!(
            "| {} | {} | {n} | {} | {:.3} | [{:.3}, {:.3}] | {:.1}% | {:.0} |",
            specs[0],
            specs[1],
            results.len(),
            wins / games,
            lo,
            hi,
            100.0 * capped as f64 / games,
            rounds
        );
    }
    Ok(())
}
