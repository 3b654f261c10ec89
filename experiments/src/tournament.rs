//! `shifu tournament`: every line-up of the listed agents in every seat order on the same seeds,
//! ratings on the Elo scale with bootstrap intervals (Bradley-Terry for two players,
//! Plackett-Luce for three or more); and an SPRT mode that tests "A is stronger than B" in
//! two-player games and stops as soon as it is decided.

use crate::games::Playable;
use crate::ratings::{plackett_luce, PlStats};
use crate::runner::{seat_specs, split_specs};
use crate::setup::GameArgs;
use crate::stats::{capped_share, capped_warning};
use crate::thinking::ThinkingTime;
use anyhow::{bail, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shifu_agents::{build_agent, check_agent, game_seed, play_game, timed, Agent, Thinking};
use shifu_engine::GameRng;

/// Options of `shifu tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The agents, comma-separated specs (at least two). With fewer agents than seats, every
    /// line-up seats each agent at least once (2 agents at 4 seats: AAAB, AABB, ABBB).
    #[arg(long)]
    agents: String,
    /// Seeds; each is played by every line-up in every distinct seat order.
    #[arg(long, default_value_t = 50)]
    seeds: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// SPRT mode: test whether the first agent is stronger than the second, stopping as soon as
    /// the test decides (or after --seeds seeds).
    #[arg(long)]
    sprt: bool,
    /// SPRT: Elo difference under the null hypothesis.
    #[arg(long, default_value_t = 0.0)]
    elo0: f64,
    /// SPRT: Elo difference under the alternative.
    #[arg(long, default_value_t = 50.0)]
    elo1: f64,
    /// SPRT: false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT: false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    threads: Option<usize>,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// One SPRT game: A's score (1, 1/2 or 0), whether the game was capped, and A's and B's
/// thinking time.
struct SprtGame {
    score: f64,
    capped: bool,
    a: Thinking,
    b: Thinking,
}

/// Plays seed `i` of a pairing with A in `a_seat`, both agents timed.
fn duel_game<G: Playable>(game: &G, a: &str, b: &str, seed: u64, a_seat: usize) -> SprtGame {
    let (mut agents, clocks): (Vec<Box<dyn Agent<G>>>, Vec<_>) = (0..2)
        .map(|s| {
            timed(build_agent(if s == a_seat { a } else { b }, seed, s as u8).expect("checked"))
        })
        .unzip();
    let mut buf = Vec::new();
    let o = play_game(game, &mut agents, seed, &mut buf).outcome;
    SprtGame {
        score: o.win_share(a_seat as u8),
        capped: o.capped,
        a: clocks[a_seat].read(),
        b: clocks[1 - a_seat].read(),
    }
}

/// The line-ups of a tournament of `k` agents at `n` seats, as sorted agent indices: every
/// `n`-combination of distinct agents when there are at least `n` agents; otherwise every
/// multiset of `n` agents in which each of the `k` agents appears.
pub fn lineups(k: usize, n: usize) -> Vec<Vec<usize>> {
    fn extend(k: usize, n: usize, from: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == n {
            out.push(cur.clone());
            return;
        }
        for a in from..k {
            cur.push(a);
            extend(k, n, a, cur, out);
            cur.pop();
        }
    }
    let mut all = Vec::new();
    extend(k, n, 0, &mut Vec::new(), &mut all);
    all.retain(|l| {
        let distinct = (0..k).filter(|a| l.contains(a)).count();
        if k >= n {
            distinct == n
        } else {
            distinct == k
        }
    });
    all
}

/// Every distinct seating of a line-up (its distinct permutations, in lexicographic order).
pub fn seatings(lineup: &[usize]) -> Vec<Vec<usize>> {
    let mut p = lineup.to_vec();
    p.sort_unstable();
    let mut out = vec![p.clone()];
    // Next lexicographic permutation, skipping repeats.
    loop {
        let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
            return out;
        };
        let j = (i..p.len())
            .rev()
            .find(|&j| p[j] > p[i - 1])
            .expect("exists");
        p.swap(i - 1, j);
        p[i..].reverse();
        out.push(p.clone());
    }
}

/// One tournament game: the agent index in each seat, each seat's rank and win share.
struct Played {
    seating: usize,
    rank: [u8; 8],
    share: [f64; 8],
    capped: bool,
    thinking: [Thinking; 8],
}

/// One agent's rating.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Rating {
    /// The agent's spec.
    pub agent: String,
    /// Its Elo (mean 0 over the agents).
    pub elo: f64,
    /// The 95% bootstrap interval (over seeds): low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// Its share of the wins in the seats it played.
    pub win_share: f64,
    /// Its mean finishing rank.
    pub mean_rank: f64,
    /// Seats it played.
    pub seats_played: f64,
    /// Its thinking time over every move it chose.
    pub thinking: ThinkingTime,
}

/// The ratings of a tournament.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ratings {
    /// The game.
    pub game: String,
    /// Seats at the table.
    pub players: usize,
    /// Agents in the tournament.
    pub agents: usize,
    /// Seatings played on every seed.
    pub seatings: usize,
    /// Line-ups behind them.
    pub lineups: usize,
    /// Seeds.
    pub seeds: u64,
    /// Games played.
    pub games: u64,
    /// The master seed.
    pub master_seed: u64,
    /// Games the round cap stopped.
    pub capped: u64,
    /// The round cap.
    pub max_rounds: u32,
    /// The warning printed when the cap stopped too many games.
    pub capped_warning: Option<String>,
    /// `Bradley-Terry` (two players) or `Plackett-Luce`.
    pub model: String,
    /// The agents, strongest first.
    pub ratings: Vec<Rating>,
}

/// The outcome of the sequential probability ratio test.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sprt {
    /// Agent A's spec.
    pub a: String,
    /// Agent B's spec.
    pub b: String,
    /// Elo difference under the null hypothesis.
    pub elo0: f64,
    /// Under the alternative.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The log-likelihood ratio's lower bound (accept H0).
    pub lower: f64,
    /// Its upper bound (accept H1).
    pub upper: f64,
    /// `H1` (A is stronger), `H0`, or `undecided` when the seeds ran out.
    pub decision: String,
    /// Games played.
    pub games: u64,
    /// A's score (wins, halves for draws).
    pub a_score: f64,
    /// The log-likelihood ratio at the end.
    pub llr: f64,
    /// Games the round cap stopped.
    pub capped: u64,
    /// The round cap.
    pub max_rounds: u32,
    /// The warning printed when the cap stopped too many games.
    pub capped_warning: Option<String>,
    /// A's thinking time over the games played.
    pub a_thinking: ThinkingTime,
    /// B's.
    pub b_thinking: ThinkingTime,
}

/// What `shifu tournament` finds: ratings, or with `--sprt` the test's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum TournamentResult {
    /// Every line-up in every seat order.
    Ratings(Ratings),
    /// `--sprt`.
    Sprt(Sprt),
}

pub fn run(args: TournamentArgs) -> Result<()> {
    let result = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    crate::render::emit(&result, args.json)
}

fn run_game<G: Playable>(args: &TournamentArgs) -> Result<TournamentResult> {
    let game: G = args.game.build()?;
    let n = game.num_seats();
    let specs = split_specs(&args.agents);
    seat_specs(&specs.join(","), specs.len())?;
    if specs.len() < 2 {
        bail!("--agents needs at least two specs");
    }
    if args.seeds == 0 {
        bail!("--seeds must be at least 1");
    }
    for s in &specs {
        check_agent(&game, s)?;
    }
    if G::INFO.cooperative {
        // Every seat shares the team's result, so seats in one game rank nothing.
        bail!(
            "{}: a cooperative game has no ranking among its seats to rate; compare two agents' teams on the same seeds with `shifu duel --game {} --agents A,B`",
            G::INFO.name,
            G::INFO.name
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    if args.sprt {
        if n != 2 {
            bail!("--sprt tests A against B in two-player games; pass --players 2");
        }
        return sprt(args, &game, &specs, &pool).map(TournamentResult::Sprt);
    }
    let seats: Vec<Vec<usize>> = lineups(specs.len(), n)
        .iter()
        .flat_map(|l| seatings(l))
        .collect();
    let played = play_seatings(args, &game, &specs, &seats, &pool);
    Ok(TournamentResult::Ratings(ratings(
        args, &game, &specs, &seats, &played,
    )))
}

/// Every seating on every seed, in order.
fn play_seatings<G: Playable>(
    args: &TournamentArgs,
    game: &G,
    specs: &[String],
    seats: &[Vec<usize>],
    pool: &rayon::ThreadPool,
) -> Vec<Played> {
    let n = game.num_seats();
    let per_seed = seats.len();
    pool.install(|| {
        (0..args.seeds as usize * per_seed)
            .into_par_iter()
            .map(|g| {
                let seed = game_seed(args.seed, (g / per_seed) as u64);
                let seating = g % per_seed;
                let (mut agents, clocks): (Vec<Box<dyn Agent<G>>>, Vec<_>) = seats[seating]
                    .iter()
                    .enumerate()
                    .map(|(s, &a)| timed(build_agent(&specs[a], seed, s as u8).expect("checked")))
                    .unzip();
                let o = play_game(game, &mut agents, seed, &mut Vec::new()).outcome;
                let mut share = [0.0; 8];
                for (s, x) in share.iter_mut().enumerate().take(n) {
                    *x = o.win_share(s as u8);
                }
                let mut thinking = [Thinking::default(); 8];
                for (t, c) in thinking.iter_mut().zip(&clocks) {
                    *t = c.read();
                }
                Played {
                    seating,
                    rank: o.rank,
                    share,
                    capped: o.capped,
                    thinking,
                }
            })
            .collect()
    })
}

/// Each agent's Elo (Plackett-Luce over all games) and its bootstrap over seeds (all the games
/// of a seed resampled together): the point estimates and the sorted resamples.
fn elo_with_bootstrap(
    args: &TournamentArgs,
    k: usize,
    n: usize,
    seats: &[Vec<usize>],
    played: &[Played],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let seed_stats: Vec<PlStats> = played
        .chunks(seats.len())
        .map(|games| {
            let mut st = PlStats::new(k);
            for p in games {
                st.add_game(&seats[p.seating], &p.rank[..n]);
            }
            st
        })
        .collect();
    let mut all = PlStats::new(k);
    for st in &seed_stats {
        all.merge(st);
    }
    let elo = plackett_luce(&all);
    let mut rng = GameRng::seed_from_u64(args.seed ^ 0x5EED);
    let count = seed_stats.len();
    let mut boot: Vec<Vec<f64>> = vec![Vec::new(); k];
    for _ in 0..400 {
        let mut st = PlStats::new(k);
        for _ in 0..count {
            st.merge(&seed_stats[rng.gen_range(0..count)]);
        }
        for (a, e) in plackett_luce(&st).into_iter().enumerate() {
            boot[a].push(e);
        }
    }
    for b in &mut boot {
        b.sort_by(f64::total_cmp);
    }
    (elo, boot)
}

/// The ratings table of a tournament's games.
fn ratings<G: Playable>(
    args: &TournamentArgs,
    game: &G,
    specs: &[String],
    seats: &[Vec<usize>],
    played: &[Played],
) -> Ratings {
    let (k, n) = (specs.len(), game.num_seats());
    let (elo, boot) = elo_with_bootstrap(args, k, n, seats, played);
    // Per agent: seats played, win shares and ranks summed.
    let mut seats_played = vec![0.0f64; k];
    let mut wins = vec![0.0f64; k];
    let mut ranks = vec![0.0f64; k];
    let mut thinking = vec![Thinking::default(); k];
    for p in played {
        for (s, &a) in seats[p.seating].iter().enumerate() {
            seats_played[a] += 1.0;
            wins[a] += p.share[s];
            ranks[a] += f64::from(p.rank[s]);
            thinking[a] = thinking[a].plus(p.thinking[s]);
        }
    }
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]));
    let capped = played.iter().filter(|p| p.capped).count() as u64;
    Ratings {
        game: game.name().to_string(),
        players: n,
        agents: k,
        seatings: seats.len(),
        lineups: lineups(k, n).len(),
        seeds: args.seeds,
        games: played.len() as u64,
        master_seed: args.seed,
        capped,
        max_rounds: game.max_rounds(),
        capped_warning: capped_warning(capped, played.len() as u64, game.max_rounds()),
        model: if n == 2 {
            "Bradley-Terry"
        } else {
            "Plackett-Luce"
        }
        .to_string(),
        ratings: order
            .into_iter()
            .map(|a| {
                let b = &boot[a];
                Rating {
                    agent: specs[a].clone(),
                    elo: elo[a],
                    ci_low: b[(b.len() as f64 * 0.025) as usize],
                    ci_high: b[((b.len() as f64 * 0.975) as usize).min(b.len() - 1)],
                    win_share: wins[a] / seats_played[a],
                    mean_rank: ranks[a] / seats_played[a],
                    seats_played: seats_played[a],
                    thinking: thinking[a].into(),
                }
            })
            .collect(),
    }
}

/// Milliseconds per move in a table cell: more digits for fast agents.
fn ms(v: f64) -> String {
    match v {
        v if v >= 10.0 => format!("{v:.1}"),
        v if v >= 0.1 => format!("{v:.2}"),
        v => format!("{v:.4}"),
    }
}

impl std::fmt::Display for Ratings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}, {} players: {} agents, {} seatings ({} line-up(s) in every seat order) on {} seeds = {} games, master seed {}",
            self.game, self.players, self.agents, self.seatings, self.lineups, self.seeds, self.games, self.master_seed
        )?;
        writeln!(
            f,
            "{}",
            capped_share(self.capped, self.games, self.max_rounds)
        )?;
        if let Some(w) = &self.capped_warning {
            writeln!(f, "{w}")?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "| agent | Elo ({}, mean 0) | 95% bootstrap interval | win share | mean rank | seats played | ms per move |",
            self.model
        )?;
        writeln!(f, "| --- | --- | --- | --- | --- | --- | --- |")?;
        for r in &self.ratings {
            writeln!(
                f,
                "| {} | {:+.0} | [{:+.0}, {:+.0}] | {:.3} | {:.2} | {:.0} | {} |",
                r.agent,
                r.elo,
                r.ci_low,
                r.ci_high,
                r.win_share,
                r.mean_rank,
                r.seats_played,
                ms(r.thinking.ms_per_move)
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "Elo differences: 100 points = the stronger agent finishes ahead of the weaker in 64% of their comparisons{}.",
            if self.players == 2 { "" } else { " (Plackett-Luce over the whole finishing order; shared ranks by Breslow's approximation)" }
        )
    }
}

impl std::fmt::Display for Sprt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "SPRT {} vs {}: H1 Elo {:+} against H0 Elo {:+} (alpha {}, beta {}); bounds [{:.3}, {:.3}]",
            self.a, self.b, self.elo1, self.elo0, self.alpha, self.beta, self.lower, self.upper
        )?;
        writeln!(
            f,
            "{} after {} games (A scored {:.1}); log-likelihood ratio {:.3}",
            match self.decision.as_str() {
                "H1" => "H1 accepted: A is stronger",
                "H0" => "H0 accepted: A is not stronger by the margin",
                _ => "undecided: the seed budget ran out",
            },
            self.games,
            self.a_score,
            self.llr
        )?;
        writeln!(
            f,
            "thinking time: A {}, B {} (wall clock per choice: it grows with the machine's load)",
            self.a_thinking, self.b_thinking
        )?;
        writeln!(
            f,
            "{}",
            capped_share(self.capped, self.games, self.max_rounds)
        )?;
        if let Some(w) = &self.capped_warning {
            writeln!(f, "{w}")?;
        }
        Ok(())
    }
}

impl std::fmt::Display for TournamentResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TournamentResult::Ratings(r) => r.fmt(f),
            TournamentResult::Sprt(s) => s.fmt(f),
        }
    }
}

/// Checks the SPRT's settings: two agents, rates below one half, finite Elo bounds in order.
fn check_sprt(args: &TournamentArgs, specs: &[String]) -> Result<()> {
    if specs.len() != 2 {
        bail!("--sprt takes exactly two agents, A then B");
    }
    if !(args.alpha > 0.0 && args.alpha < 0.5 && args.beta > 0.0 && args.beta < 0.5) {
        bail!("--alpha and --beta must be between 0 and 0.5");
    }
    if !(args.elo0.is_finite() && args.elo1.is_finite()) {
        bail!(
            "--elo0 and --elo1 must be finite numbers, got {} and {}",
            args.elo0,
            args.elo1
        );
    }
    if args.elo1 <= args.elo0 {
        bail!("--elo1 must be above --elo0");
    }
    Ok(())
}

/// Plays the SPRT's games in seed order (A first, then B first, on each seed), a batch of seeds
/// at a time on `pool`, handing each game to `take` until it returns
/// false or the seeds run out.
fn sprt_games<G: Playable>(
    args: &TournamentArgs,
    game: &G,
    specs: &[String],
    pool: &rayon::ThreadPool,
    mut take: impl FnMut(SprtGame) -> bool,
) {
    let batch = 2 * pool.current_num_threads() as u64;
    let mut next = 0u64;
    while next < args.seeds {
        let to = (next + batch).min(args.seeds);
        let results: Vec<(SprtGame, SprtGame)> = pool.install(|| {
            (next..to)
                .into_par_iter()
                .map(|s| {
                    let seed = game_seed(args.seed, s);
                    (
                        duel_game(game, &specs[0], &specs[1], seed, 0),
                        duel_game(game, &specs[0], &specs[1], seed, 1),
                    )
                })
                .collect()
        });
        for g in results.into_iter().flat_map(|(a, b)| [a, b]) {
            if !take(g) {
                return;
            }
        }
        next = to;
    }
}

/// The sequential probability ratio test of "A beats B with Elo difference elo1" against
/// "elo0", over games in seed order (both seat orders per seed).
fn sprt<G: Playable>(
    args: &TournamentArgs,
    game: &G,
    specs: &[String],
    pool: &rayon::ThreadPool,
) -> Result<Sprt> {
    check_sprt(args, specs)?;
    let p = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (p0, p1) = (p(args.elo0), p(args.elo1));
    let lower = (args.beta / (1.0 - args.alpha)).ln();
    let upper = ((1.0 - args.beta) / args.alpha).ln();
    let (mut llr, mut games, mut capped, mut score) = (0.0, 0u64, 0u64, 0.0);
    let mut decision = None;
    // Results are taken in seed order, so where the test stops does not depend on threads.
    let (mut a_thinking, mut b_thinking) = (Thinking::default(), Thinking::default());
    sprt_games(args, game, specs, pool, |g| {
        let (x, c) = (g.score, g.capped);
        a_thinking = a_thinking.plus(g.a);
        b_thinking = b_thinking.plus(g.b);
        games += 1;
        capped += c as u64;
        score += x;
        llr += x * (p1 / p0).ln() + (1.0 - x) * ((1.0 - p1) / (1.0 - p0)).ln();
        if llr >= upper || llr <= lower {
            decision = Some(llr >= upper);
        }
        decision.is_none()
    });
    Ok(Sprt {
        a: specs[0].clone(),
        b: specs[1].clone(),
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
        lower,
        upper,
        decision: match decision {
            Some(true) => "H1",
            Some(false) => "H0",
            None => "undecided",
        }
        .to_string(),
        games,
        a_score: score,
        llr,
        capped,
        max_rounds: game.max_rounds(),
        capped_warning: capped_warning(capped, games, game.max_rounds()),
        a_thinking: a_thinking.into(),
        b_thinking: b_thinking.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::{lineups, seatings};

    #[test]
    fn lineups_and_seatings() {
        // Three agents at four seats: each agent at least once.
        assert_eq!(
            lineups(3, 4),
            vec![vec![0, 0, 1, 2], vec![0, 1, 1, 2], vec![0, 1, 2, 2]]
        );
        // Four agents at three seats: the four 3-combinations.
        assert_eq!(lineups(4, 3).len(), 4);
        assert_eq!(lineups(2, 2), vec![vec![0, 1]]);
        assert_eq!(seatings(&[0, 1]), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(seatings(&[0, 1, 2]).len(), 6);
        // 4! / (2! 1! 1!) distinct seatings of 0,0,1,2.
        let s = seatings(&[0, 0, 1, 2]);
        assert_eq!(s.len(), 12);
        let mut d = s.clone();
        d.dedup();
        assert_eq!(d.len(), 12);
    }
}
