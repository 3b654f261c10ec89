//! `shifu play`: many games in parallel, win rates by seat.

use crate::setup::GameArgs;
use crate::stats::wilson;
use anyhow::{bail, Result};
use clap::Args;
use rayon::prelude::*;
use shifu_agents::{build_agent, game_seed, play_game, Agent};
use shifu_engine::tofu_shifu::TofuShifu;
use shifu_engine::{Game, MAX_SEATS};

/// Options of `shifu play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Agent spec per seat, comma-separated; one spec is used for every seat.
    #[arg(long, default_value = "random")]
    agents: String,
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Master seed; game i plays with seed splitmix64(seed ^ splitmix64(i)).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Clone, Copy, Default)]
struct Tally {
    games: u64,
    win: [f64; MAX_SEATS],
    rank: [f64; MAX_SEATS],
    score: [f64; MAX_SEATS],
    capped: u64,
    rounds: u64,
    steps: u64,
    shared: u64,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        for i in 0..MAX_SEATS {
            self.win[i] += o.win[i];
            self.rank[i] += o.rank[i];
            self.score[i] += o.score[i];
        }
        self.capped += o.capped;
        self.rounds += o.rounds;
        self.steps += o.steps;
        self.shared += o.shared;
        self
    }
}

/// Splits the agents option into one spec per seat.
pub fn seat_specs(agents: &str, seats: usize) -> Result<Vec<String>> {
    let specs: Vec<String> = split_specs(agents);
    match specs.len() {
        1 => Ok(vec![specs[0].clone(); seats]),
        n if n == seats => Ok(specs),
        n => bail!("--agents names {n} agents for {seats} seats; give one per seat or one for all"),
    }
}

/// Splits on commas that start a new spec (a comma followed by `key=` stays inside a spec).
pub fn split_specs(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        let continues = part.contains('=') && !part.contains(':');
        match out.last_mut() {
            Some(last) if continues => {
                last.push(',');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

pub fn run(args: PlayArgs) -> Result<()> {
    let game = args.game.build()?;
    let seats = game.num_seats();
    let specs = seat_specs(&args.agents, seats)?;
    // Check every spec before starting.
    for (i, s) in specs.iter().enumerate() {
        build_agent::<TofuShifu>(s, 0, i as u8)?;
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let started = std::time::Instant::now();
    let tally = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .fold(
                || (Tally::default(), Vec::new()),
                |(mut t, mut buf), i| {
                    let seed = game_seed(args.seed, i);
                    let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = specs
                        .iter()
                        .enumerate()
                        .map(|(s, spec)| build_agent(spec, seed, s as u8).expect("checked"))
                        .collect();
                    let rec = play_game(&game, &mut agents, seed, &mut buf);
                    let o = rec.outcome;
                    t.games += 1;
                    for s in 0..seats {
                        t.win[s] += o.win_share(s as u8);
                        t.rank[s] += o.rank[s] as f64;
                        t.score[s] += o.score[s];
                    }
                    t.capped += o.capped as u64;
                    t.shared += (o.winner_count() > 1) as u64;
                    t.rounds += rec.rounds as u64;
                    t.steps += rec.steps;
                    (t, buf)
                },
            )
            .map(|(t, _)| t)
            .reduce(Tally::default, Tally::merge)
    });
    let secs = started.elapsed().as_secs_f64();
    let n = tally.games as f64;
    println!(
        "{} with {seats} players, {} games, master seed {}, agents {}",
        game.name(),
        tally.games,
        args.seed,
        specs.join(" | ")
    );
    println!("card data: {} ({})", game.data.source, game.data.status);
    println!();
    println!("seat  agent            win share   95% CI             mean rank  mean objectives");
    for (s, spec) in specs.iter().enumerate() {
        let (lo, hi) = wilson(tally.win[s], n);
        println!(
            "{:>4}  {:<16} {:>9.4}   [{:.4}, {:.4}]   {:>9.3}  {:>15.3}",
            s + 1,
            spec,
            tally.win[s] / n,
            lo,
            hi,
            tally.rank[s] / n,
            tally.score[s] / n
        );
    }
    println!();
    println!(
        "shared wins {:.2}%, capped at {} rounds {:.2}%, mean rounds {:.1}, mean steps {:.1}",
        100.0 * tally.shared as f64 / n,
        game.params.max_rounds,
        100.0 * tally.capped as f64 / n,
        tally.rounds as f64 / n,
        tally.steps as f64 / n
    );
    println!(
        "{:.1} s, {:.0} games/s, {:.0} steps/s",
        secs,
        n / secs,
        tally.steps as f64 / secs
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_per_seat_and_keep_options() {
        assert_eq!(seat_specs("random", 3).unwrap(), vec!["random"; 3]);
        assert_eq!(
            seat_specs("mcts:iters=10,c=0.5,random", 2).unwrap(),
            vec!["mcts:iters=10,c=0.5", "random"]
        );
        assert!(seat_specs("random,random", 3).is_err());
    }
}
