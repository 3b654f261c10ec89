//! `shifu duel`: agent A against agent B, A rotated through every seat on the same seeds.
//!
//! In a cooperative game (Wok Star) there is no seat to rotate: each seed is played once by a
//! team of A in every seat and once by a team of B, and the result is both teams' win rates
//! and their paired difference on the shared seeds ([`TeamDuel`]).

use crate::games::Playable;
use crate::runner::split_specs;
use crate::setup::GameArgs;
use crate::sprt::elo_of_score;
use crate::stats::{capped_share, capped_warning, paired_difference_interval, wilson};
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
    /// Seeds; each is played once with A in every seat (games = seeds x players; in a
    /// cooperative game once by A's team and once by B's: games = 2 x seeds).
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
    /// Also write one CSV row per game to FILE (replaced atomically): the seed, A's seat and
    /// A's result, so that two duels on the same seeds can be compared seed by seed
    /// (`results/paired_duels.py`).
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
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
    /// A's share of the wins (cooperative: A's team's win rate).
    pub a_win_share: f64,
    /// Its Wilson 95% interval: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// A's share at equal strength, 1/n (cooperative: B's team's win rate on the same seeds).
    pub equal_share: f64,
    /// A's mean rank reward, from 0 (always last) to 1 (always first); cooperative: A's team's
    /// win rate.
    pub a_rank_score: f64,
    /// In a competitive game, the 95% interval of A's rank score: normal over the seeds, each
    /// seed's mean over A's seats (the games of a seed share its deal), as (low, high). Equal
    /// strength scores 0.5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_rank_ci: Option<(f64, f64)>,
    /// In a competitive game, A's rating against B with its 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_elo: Option<EloInterval>,
    /// In a cooperative game, A's team against B's on the same seeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<TeamDuel>,
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

/// A's rating against B in Elo, read from A's win share and its Wilson bounds through the
/// Plackett–Luce model of the winner: A, against `n - 1` copies of B, wins `r / (r + n - 1)`
/// of the games, with `r = 10^(Elo / 400)`. Positive: A is the stronger; at 3 players and more
/// it is the "rating interval above B's" of issue 50's targets. A bound is `None` where it is
/// unbounded (a share of 0 or 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EloInterval {
    /// The point estimate.
    pub elo: Option<f64>,
    /// The 95% interval's low end.
    pub low: Option<f64>,
    /// Its high end.
    pub high: Option<f64>,
}

impl EloInterval {
    /// From a win share, its interval and the seat count.
    pub fn from_share(share: f64, low: f64, high: f64, players: usize) -> Self {
        // A Wilson bound at 0 or 1 can miss it by a rounding error.
        let elo = |p: f64| (p > 1e-9 && p < 1.0 - 1e-9).then(|| elo_of_score(p, players));
        EloInterval {
            elo: elo(share),
            low: elo(low),
            high: elo(high),
        }
    }
}

impl std::fmt::Display for EloInterval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bound = |x: Option<f64>, inf: &str| x.map_or(inf.to_string(), |x| format!("{x:+.0}"));
        write!(
            f,
            "{} Elo [{}, {}]",
            bound(self.elo, if self.low.is_some() { "+inf" } else { "-inf" }),
            bound(self.low, "-inf"),
            bound(self.high, "+inf")
        )
    }
}

/// A cooperative duel: each seed played by A's team and by B's.
#[derive(Debug, Clone, Serialize)]
pub struct TeamDuel {
    /// B's team's win rate.
    pub b_win_rate: f64,
    /// Its Wilson 95% interval: low end.
    pub b_ci_low: f64,
    /// High end.
    pub b_ci_high: f64,
    /// A's win rate minus B's, paired on the seeds.
    pub difference: f64,
    /// Its 95% interval (Agresti and Min's for paired proportions,
    /// [`crate::stats::paired_difference_interval`]): low end.
    pub difference_low: f64,
    /// High end.
    pub difference_high: f64,
    /// Seeds that only A's team won.
    pub only_a: u64,
    /// Seeds that only B's team won.
    pub only_b: u64,
}

pub fn run(args: DuelArgs) -> Result<()> {
    if let Some(path) = &args.out {
        // Refused before the games are played, not after.
        crate::duel_csv::check_target(path)?;
    }
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
    index: u64,
    seed: u64,
    /// A's seat; cooperative: 0 for A's team's game, 1 for B's.
    a_seat: usize,
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
    let coop = G::INFO.cooperative;
    // (seed, A's seat); cooperative: (seed, 0) for A's team and (seed, 1) for B's.
    let per_seed = if coop { 2 } else { n };
    let jobs: Vec<(u64, usize)> = (0..args.seeds)
        .flat_map(|i| (0..per_seed).map(move |seat| (i, seat)))
        .collect();
    Ok(pool.install(|| {
        jobs.par_iter()
            .map_init(Vec::new, |buf, &(i, a_seat)| {
                let seed = game_seed(args.seed, i);
                let (mut agents, clocks): (Vec<Box<dyn Agent<G>>>, Vec<_>) = (0..n)
                    .map(|s| {
                        let a = if coop { a_seat == 0 } else { s == a_seat };
                        let spec = if a { &specs[0] } else { &specs[1] };
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
                let team = |of_a: bool| {
                    (0..n)
                        .filter(|&s| {
                            if coop {
                                of_a == (a_seat == 0)
                            } else {
                                of_a == (s == a_seat)
                            }
                        })
                        .fold(Thinking::default(), |t, s| t.plus(clocks[s].read()))
                };
                DuelGame {
                    index: i,
                    seed,
                    a_seat,
                    // Cooperative: the team's result, 1 for a win (every seat wins).
                    share: if coop {
                        f64::from(u8::from(o.is_winner(0)))
                    } else {
                        o.win_share(a_seat as u8)
                    },
                    rank: norm,
                    capped: o.capped,
                    rounds: r.rounds,
                    a: team(true),
                    b: team(false),
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
    if let Some(path) = &args.out {
        write_games(path, G::INFO.cooperative, args.seed, n, &results)?;
    }
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
    let (mut lo, mut hi) = wilson(wins, games);
    let (mut a_win_share, mut equal_share) = (wins / games, 1.0 / n as f64);
    let mut a_rank_score = results.iter().map(|r| r.rank).sum::<f64>() / games;
    let teams = G::INFO.cooperative.then(|| {
        let t = team_duel(&results);
        let seeds = args.seeds as f64;
        a_win_share = results.iter().step_by(2).map(|r| r.share).sum::<f64>() / seeds;
        (lo, hi) = wilson(a_win_share * seeds, seeds);
        (equal_share, a_rank_score) = (t.b_win_rate, a_win_share);
        t
    });
    let a_elo = teams
        .is_none()
        .then(|| EloInterval::from_share(a_win_share, lo, hi, n));
    let a_rank_ci = if teams.is_none() {
        rank_interval(&results, n)
    } else {
        None
    };
    Ok(DuelResult {
        game: game.name().to_string(),
        players: n,
        a: specs[0].clone(),
        b: specs[1].clone(),
        seeds: args.seeds,
        games: results.len() as u64,
        master_seed: args.seed,
        a_win_share,
        ci_low: lo,
        ci_high: hi,
        equal_share,
        a_rank_score,
        a_rank_ci,
        a_elo,
        teams,
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

/// The 95% interval of A's rank score over the seeds (games in seed order, `n` a seed, each
/// seed's mean over A's seats), normal with the sample variance; `None` under two seeds, where
/// no variance can be estimated.
fn rank_interval(results: &[DuelGame], n: usize) -> Option<(f64, f64)> {
    let per_seed: Vec<f64> = results
        .chunks(n)
        .map(|seed| seed.iter().map(|r| r.rank).sum::<f64>() / n as f64)
        .collect();
    if per_seed.len() < 2 {
        return None;
    }
    let (_, low, high) = crate::stats::mean_interval(&per_seed);
    Some((low, high))
}

/// `--out`: one row per game in seed order. Competitive: `a_seat` is A's seat (1-based),
/// `side` is `A`, and the result is A's. Cooperative: `a_seat` is empty, `side` says whose team
/// played (`A`: A in every seat; `B`), and the result is that team's.
fn write_games(
    path: &std::path::Path,
    coop: bool,
    master_seed: u64,
    players: usize,
    results: &[DuelGame],
) -> Result<()> {
    let rows = results.iter().map(|r| crate::duel_csv::DuelRow {
        players,
        master_seed,
        seed_index: r.index,
        seed: r.seed,
        a_seat: (!coop).then_some(r.a_seat + 1),
        side: if coop && r.a_seat == 1 { "B" } else { "A" },
        win_share: r.share,
        // A cooperative game has no ranks: the team's result, as in the summary.
        rank_score: if coop { r.share } else { r.rank },
        capped: r.capped,
        rounds: r.rounds,
    });
    crate::duel_csv::write_duel_rows(path, rows)
}

/// A's team against B's from the games in seed order, A's team first on each seed.
fn team_duel(results: &[DuelGame]) -> TeamDuel {
    let (a, b): (Vec<f64>, Vec<f64>) = results.chunks(2).map(|p| (p[0].share, p[1].share)).unzip();
    let seeds = b.len() as f64;
    let b_wins = b.iter().sum::<f64>();
    let (b_ci_low, b_ci_high) = wilson(b_wins, seeds);
    let only = |f: fn(f64, f64) -> bool| a.iter().zip(&b).filter(|(x, y)| f(**x, **y)).count();
    let (only_a, only_b) = (only(|x, y| x > y), only(|x, y| x < y));
    let (difference_low, difference_high) =
        paired_difference_interval(only_a as f64, only_b as f64, seeds);
    TeamDuel {
        b_win_rate: b_wins / seeds,
        b_ci_low,
        b_ci_high,
        difference: (only_a as f64 - only_b as f64) / seeds,
        difference_low,
        difference_high,
        only_a: only_a as u64,
        only_b: only_b as u64,
    }
}

impl DuelResult {
    /// The text of a cooperative duel (after the header line).
    fn fmt_teams(&self, t: &TeamDuel, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "team win rate: A {:.4} [{:.4}, {:.4}], B {:.4} [{:.4}, {:.4}] (Wilson 95%)",
            self.a_win_share, self.ci_low, self.ci_high, t.b_win_rate, t.b_ci_low, t.b_ci_high
        )?;
        writeln!(
            f,
            "A minus B, paired on the seeds: {:+.4} [{:+.4}, {:+.4}]; seeds won by A's team only {}, by B's only {}",
            t.difference, t.difference_low, t.difference_high, t.only_a, t.only_b
        )
    }
}

impl std::fmt::Display for DuelResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.players;
        if let Some(t) = &self.teams {
            writeln!(
                f,
                "{n} players, cooperative: A's team = {} vs B's team = {}; {} seeds x 2 teams = {} games (master seed {})",
                self.a, self.b, self.seeds, self.games, self.master_seed
            )?;
            self.fmt_teams(t, f)?;
        } else {
            writeln!(
                f,
                "{} players: A = {} vs B = {}; {} seeds x {n} seats = {} games (master seed {})",
                n, self.a, self.b, self.seeds, self.games, self.master_seed
            )?;
            write!(
                f,
                "A win share {:.4}  95% CI [{:.4}, {:.4}]  (equal strength: {:.4}); A rank score {:.3}",
                self.a_win_share, self.ci_low, self.ci_high, self.equal_share, self.a_rank_score
            )?;
            if let Some((low, high)) = self.a_rank_ci {
                write!(
                    f,
                    " [{low:.3}, {high:.3}] over the seeds (equal strength: 0.5)"
                )?;
            }
            writeln!(f)?;
            if let Some(e) = &self.a_elo {
                writeln!(
                    f,
                    "A's rating against B: {e} (A wins r / (r + {}) of games, r = 10^(Elo/400))",
                    n - 1
                )?;
            }
        }
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
        if let (true, Some(t)) = (self.markdown, &self.teams) {
            writeln!(
                f,
                "| {} | {} | {n} | {} | {:.3} | [{:.3}, {:.3}] | {:.3} | [{:.3}, {:.3}] | {:+.3} | [{:+.3}, {:+.3}] | {:.1}% |",
                self.a,
                self.b,
                self.games,
                self.a_win_share,
                self.ci_low,
                self.ci_high,
                t.b_win_rate,
                t.b_ci_low,
                t.b_ci_high,
                t.difference,
                t.difference_low,
                t.difference_high,
                100.0 * self.capped as f64 / self.games as f64,
            )?;
        } else if self.markdown {
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

#[cfg(test)]
mod tests {
    use super::{rank_interval, DuelGame, EloInterval};
    use shifu_agents::Thinking;

    fn game(rank: f64) -> DuelGame {
        DuelGame {
            index: 0,
            seed: 0,
            a_seat: 0,
            share: 0.0,
            rank,
            capped: false,
            rounds: 1,
            a: Thinking::default(),
            b: Thinking::default(),
        }
    }

    #[test]
    fn the_rank_interval_is_over_seeds_and_needs_two() {
        // One seed (two seats): no variance to estimate, so no interval rather than a point.
        assert_eq!(rank_interval(&[game(1.0), game(0.0)], 2), None);
        // Seeds with means 0.5, 1 and 0: the interval is around their mean, 0.5, and wide.
        let games: Vec<_> = [1.0, 0.0, 1.0, 1.0, 0.0, 0.0].map(game).into();
        let (low, high) = rank_interval(&games, 2).unwrap();
        assert!((low + high - 1.0).abs() < 1e-12 && low < 0.0 && high > 1.0);
    }

    #[test]
    fn a_win_share_reads_as_elo_against_b_at_any_seat_count() {
        // The Ginza confirmation: 0.5445 of 4,000 two-player games is about +31 Elo.
        let e = EloInterval::from_share(0.5445, 0.529, 0.560, 2);
        assert_eq!(e.elo.map(f64::round), Some(31.0));
        assert!(e.low.unwrap() < 31.0 && e.high.unwrap() > 31.0);
        // At 3 players the fair share, 1/3, is 0 Elo; half the wins is r = 2: +120 Elo.
        let e = EloInterval::from_share(1.0 / 3.0, 0.3, 0.5, 3);
        assert!(e.elo.unwrap().abs() < 1e-9);
        assert!((e.high.unwrap() - 400.0 * 2f64.log10()).abs() < 1e-9);
        // Every game won or none: that side of the interval is unbounded.
        let e = EloInterval::from_share(1.0, 0.98, 1.0, 2);
        assert_eq!((e.elo, e.high), (None, None));
        assert!(e.low.unwrap() > 600.0);
        assert_eq!(
            e.to_string(),
            format!("+inf Elo [{:+.0}, +inf]", e.low.unwrap())
        );
        let e = EloInterval::from_share(1.0, 0.9, 1.0 - 1e-15, 3);
        assert_eq!(e.high, None);
        let e = EloInterval::from_share(0.0, 0.0, 0.02, 2);
        assert_eq!(
            e.to_string(),
            format!("-inf Elo [-inf, {:+.0}]", e.high.unwrap())
        );
    }
}
