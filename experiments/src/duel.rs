//! `shifu duel`: agent A against agent B, A rotated through every seat on the same seeds.

use crate::games::Playable;
use crate::runner::split_specs;
use crate::setup::GameArgs;
use crate::stats::{capped_share, capped_warning, wilson};
use crate::thinking::ThinkingTime;
use anyhow::{bail, Result};
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use shifu_agents::{build_agent, check_agent, game_seed, play_game, timed, Agent, Thinking};

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
    /// Print the result as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// What `shifu duel` finds.
#[derive(Debug, Clone, Serialize)]
pub struct DuelResult {
    /// The game.
    pub game: String,
    /// Seats at the table.
    pub players: usize,
    /// Agent A's spec.
    pub a: String,
    /// Agent B's spec.
    pub b: String,
    /// Seeds played (each once with A in every seat).
    pub seeds: u64,
    /// Games played.
    pub games: u64,
    /// The master seed.
    pub master_seed: u64,
    /// A's share of the wins.
    pub a_win_share: f64,
    /// Its Wilson 95% interval: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// A's share at equal strength, 1/n.
    pub equal_share: f64,
    /// A's mean rank reward, from 0 (always last) to 1 (always first).
    pub a_rank_score: f64,
    /// Games the round cap stopped.
    pub capped: u64,
    /// The round cap.
    pub max_rounds: u32,
    /// The warning printed when the cap stopped too many games.
    pub capped_warning: Option<String>,
    /// Mean rounds per game.
    pub mean_rounds: f64,
    /// Seconds the games took.
    pub seconds: f64,
    /// A's thinking time over its moves.
    pub a_thinking: ThinkingTime,
    /// B's, over the moves of every seat B played.
    pub b_thinking: ThinkingTime,
    /// Whether the text adds a markdown table row (`--markdown`).
    #[serde(skip)]
    pub markdown: bool,
}

pub fn run(args: DuelArgs) -> Result<()> {
    let result = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    crate::render::emit(&result, args.json)
}

/// The game, A and B, checked.
fn prepare<G: Playable>(args: &DuelArgs) -> Result<(G, Vec<String>)> {
    let game: G = args.game.build()?;
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
    Ok((game, specs))
}

/// One duel game's result for A: its win share, its normalised rank reward, whether the game
/// was capped, its rounds, and A's and B's thinking time.
struct DuelGame {
    share: f64,
    rank: f64,
    capped: bool,
    rounds: u32,
    a: Thinking,
    b: Thinking,
}

/// Plays every seed with A in every seat, each agent timed ([`shifu_agents::timed`]).
fn play_all<G: Playable>(args: &DuelArgs, game: &G, specs: &[String]) -> Result<Vec<DuelGame>> {
    let n = game.num_seats();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let jobs: Vec<(u64, usize)> = (0..args.seeds)
        .flat_map(|i| (0..n).map(move |seat| (i, seat)))
        .collect();
    Ok(pool.install(|| {
        jobs.par_iter()
            .map_init(Vec::new, |buf, &(i, a_seat)| {
                let seed = game_seed(args.seed, i);
                let (mut agents, clocks): (Vec<Box<dyn Agent<G>>>, Vec<_>) = (0..n)
                    .map(|s| {
                        let spec = if s == a_seat { &specs[0] } else { &specs[1] };
                        timed(build_agent(spec, seed, s as u8).expect("checked"))
                    })
                    .unzip();
                let r = play_game(game, &mut agents, seed, buf);
                let o = r.outcome;
                let rank = o.rank[a_seat] as f64;
                let norm = if n > 1 {
                    (n as f64 - rank) / (n as f64 - 1.0)
                } else {
                    1.0
                };
                let b = (0..n)
                    .filter(|&s| s != a_seat)
                    .fold(Thinking::default(), |t, s| t.plus(clocks[s].read()));
                DuelGame {
                    share: o.win_share(a_seat as u8),
                    rank: norm,
                    capped: o.capped,
                    rounds: r.rounds,
                    a: clocks[a_seat].read(),
                    b,
                }
            })
            .collect()
    }))
}

fn run_game<G: Playable>(args: &DuelArgs) -> Result<DuelResult> {
    let (game, specs) = prepare::<G>(args)?;
    let n = game.num_seats();
    let started = std::time::Instant::now();
    let results = play_all(args, &game, &specs)?;
    let games = results.len() as f64;
    let wins: f64 = results.iter().map(|r| r.share).sum();
    let capped = results.iter().filter(|r| r.capped).count() as u64;
    let thinking = |f: fn(&DuelGame) -> Thinking| {
        ThinkingTime::from(
            results
                .iter()
                .fold(Thinking::default(), |t, r| t.plus(f(r))),
        )
    };
    let (lo, hi) = wilson(wins, games);
    Ok(DuelResult {
        game: game.name().to_string(),
        players: n,
        a: specs[0].clone(),
        b: specs[1].clone(),
        seeds: args.seeds,
        games: results.len() as u64,
        master_seed: args.seed,
        a_win_share: wins / games,
        ci_low: lo,
        ci_high: hi,
        equal_share: 1.0 / n as f64,
        a_rank_score: results.iter().map(|r| r.rank).sum::<f64>() / games,
        capped,
        max_rounds: game.max_rounds(),
        capped_warning: capped_warning(capped, results.len() as u64, game.max_rounds()),
        mean_rounds: results.iter().map(|r| r.rounds as f64).sum::<f64>() / games,
        seconds: started.elapsed().as_secs_f64(),
        a_thinking: thinking(|r| r.a),
        b_thinking: thinking(|r| r.b),
        markdown: args.markdown,
    })
}

impl std::fmt::Display for DuelResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.players;
        writeln!(
            f,
            "{} players: A = {} vs B = {}; {} seeds x {n} seats = {} games (master seed {})",
            n, self.a, self.b, self.seeds, self.games, self.master_seed
        )?;
        writeln!(
            f,
            "A win share {:.4}  95% CI [{:.4}, {:.4}]  (equal strength: {:.4}); A rank score {:.3}",
            self.a_win_share, self.ci_low, self.ci_high, self.equal_share, self.a_rank_score
        )?;
        writeln!(
            f,
            "{}; mean rounds {:.1}; {:.0} s",
            capped_share(self.capped, self.games, self.max_rounds),
            self.mean_rounds,
            self.seconds
        )?;
        if let Some(w) = &self.capped_warning {
            writeln!(f, "{w}")?;
        }
        writeln!(
            f,
            "thinking time: A {}, B {} (wall clock per choice: it grows with the machine's load)",
            self.a_thinking, self.b_thinking
        )?;
        if self.markdown {
            writeln!(
                f,
                "| {} | {} | {n} | {} | {:.3} | [{:.3}, {:.3}] | {:.1}% | {:.0} |",
                self.a,
                self.b,
                self.games,
                self.a_win_share,
                self.ci_low,
                self.ci_high,
                100.0 * self.capped as f64 / self.games as f64,
                self.mean_rounds
            )?;
        }
        Ok(())
    }
}
