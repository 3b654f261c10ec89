//! `shifu tournament`: every line-up of the listed agents in every seat order on the same seeds,
//! ratings on the Elo scale with bootstrap intervals (Bradley-Terry for two players,
//! Plackett-Luce for three or more); and an SPRT mode that tests "A is stronger than B" in
//! two-player games and stops as soon as it is decided.

use crate::games::Playable;
use crate::play::{seat_specs, split_specs};
use crate::ratings::{plackett_luce, PlStats};
use crate::setup::GameArgs;
use crate::stats::{capped_share, capped_warning};
use anyhow::{bail, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use shifu_agents::{build_agent, check_agent, game_seed, play_game, Agent};
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
}

/// Plays seed `i` of a pairing with A in `a_seat`; returns A's score (1, 1/2 or 0) and whether
/// the game was capped.
fn duel_game<G: Playable>(game: &G, a: &str, b: &str, seed: u64, a_seat: usize) -> (f64, bool) {
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..2)
        .map(|s| build_agent(if s == a_seat { a } else { b }, seed, s as u8).expect("checked"))
        .collect();
    let mut buf = Vec::new();
    let o = play_game(game, &mut agents, seed, &mut buf).outcome;
    (o.win_share(a_seat as u8), o.capped)
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
}

pub fn run(args: TournamentArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn run_game<G: Playable>(args: &TournamentArgs) -> Result<()> {
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    if args.sprt {
        if n != 2 {
            bail!("--sprt tests A against B in two-player games; pass --players 2");
        }
        return sprt(args, &game, &specs, &pool);
    }
    let k = specs.len();
    let seats: Vec<Vec<usize>> = lineups(k, n).iter().flat_map(|l| seatings(l)).collect();
    let per_seed = seats.len();
    let played: Vec<Played> = pool.install(|| {
        (0..args.seeds as usize * per_seed)
            .into_par_iter()
            .map(|g| {
                let seed = game_seed(args.seed, (g / per_seed) as u64);
                let seating = g % per_seed;
                let mut agents: Vec<Box<dyn Agent<G>>> = seats[seating]
                    .iter()
                    .enumerate()
                    .map(|(s, &a)| build_agent(&specs[a], seed, s as u8).expect("checked"))
                    .collect();
                let o = play_game(&game, &mut agents, seed, &mut Vec::new()).outcome;
                let capped = o.capped;
                let mut share = [0.0; 8];
                for (s, x) in share.iter_mut().enumerate().take(n) {
                    *x = o.win_share(s as u8);
                }
                Played {
                    seating,
                    rank: o.rank,
                    share,
                    capped,
                }
            })
            .collect()
    });
    let seed_stats: Vec<PlStats> = played
        .chunks(per_seed)
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
    // Bootstrap over seeds (all the games of a seed resampled together).
    let mut rng = GameRng::seed_from_u64(args.seed ^ 0x5EED);
    let seeds = seed_stats.len();
    let mut boot: Vec<Vec<f64>> = vec![Vec::new(); k];
    for _ in 0..400 {
        let mut st = PlStats::new(k);
        for _ in 0..seeds {
            st.merge(&seed_stats[rng.gen_range(0..seeds)]);
        }
        for (a, e) in plackett_luce(&st).into_iter().enumerate() {
            boot[a].push(e);
        }
    }
    // Per agent: seats played, win shares and ranks summed.
    let mut seats_played = vec![0.0f64; k];
    let mut wins = vec![0.0f64; k];
    let mut ranks = vec![0.0f64; k];
    for p in &played {
        for (s, &a) in seats[p.seating].iter().enumerate() {
            seats_played[a] += 1.0;
            wins[a] += p.share[s];
            ranks[a] += f64::from(p.rank[s]);
        }
    }
    println!(
        "{}, {} players: {} agents, {} seatings ({} line-up(s) in every seat order) on {} seeds = {} games, master seed {}",
        game.name(),
        n,
        k,
        per_seed,
        lineups(k, n).len(),
        args.seeds,
        played.len(),
        args.seed
    );
    let capped = played.iter().filter(|p| p.capped).count() as u64;
    println!(
        "{}",
        capped_share(capped, played.len() as u64, game.max_rounds())
    );
    if let Some(w) = capped_warning(capped, played.len() as u64, game.max_rounds()) {
        println!("{w}");
    }
    println!();
    println!(
        "| agent | Elo ({}, mean 0) | 95% bootstrap interval | win share | mean rank | seats played |",
        if n == 2 { "Bradley-Terry" } else { "Plackett-Luce" }
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]));
    for a in order {
        let mut b = boot[a].clone();
        b.sort_by(f64::total_cmp);
        let lo = b[(b.len() as f64 * 0.025) as usize];
        let hi = b[((b.len() as f64 * 0.975) as usize).min(b.len() - 1)];
        println!(
            "| {} | {:+.0} | [{:+.0}, {:+.0}] | {:.3} | {:.2} | {:.0} |",
            specs[a],
            elo[a],
            lo,
            hi,
            wins[a] / seats_played[a],
            ranks[a] / seats_played[a],
            seats_played[a]
        );
    }
    println!();
    println!(
        "Elo differences: 100 points = the stronger agent finishes ahead of the weaker in 64% of their comparisons{}.",
        if n == 2 { "" } else { " (Plackett-Luce over the whole finishing order; shared ranks by Breslow's approximation)" }
    );
    Ok(())
}

/// The sequential probability ratio test of "A beats B with Elo difference elo1" against
/// "elo0", over games in seed order (both seat orders per seed).
fn sprt<G: Playable>(
    args: &TournamentArgs,
    game: &G,
    specs: &[String],
    pool: &rayon::ThreadPool,
) -> Result<()> {
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
    let p = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (p0, p1) = (p(args.elo0), p(args.elo1));
    let lower = (args.beta / (1.0 - args.alpha)).ln();
    let upper = ((1.0 - args.beta) / args.alpha).ln();
    let mut llr = 0.0;
    let mut games = 0u64;
    let mut capped = 0u64;
    let mut score = 0.0;
    let batch = 2 * pool.current_num_threads() as u64;
    let mut next = 0u64;
    let mut decision = None;
    'outer: while next < args.seeds {
        let to = (next + batch).min(args.seeds);
        let results: Vec<((f64, bool), (f64, bool))> = pool.install(|| {
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
        // Results are taken in seed order, so where the test stops does not depend on threads.
        for (a, b) in results {
            for (x, c) in [a, b] {
                games += 1;
                capped += c as u64;
                score += x;
                llr += x * (p1 / p0).ln() + (1.0 - x) * ((1.0 - p1) / (1.0 - p0)).ln();
                if llr >= upper {
                    decision = Some(true);
                    break 'outer;
                }
                if llr <= lower {
                    decision = Some(false);
                    break 'outer;
                }
            }
        }
        next = to;
    }
    println!(
        "SPRT {} vs {}: H1 Elo {:+} against H0 Elo {:+} (alpha {}, beta {}); bounds [{:.3}, {:.3}]",
        specs[0], specs[1], args.elo1, args.elo0, args.alpha, args.beta, lower, upper
    );
    println!(
        "{} after {games} games (A scored {score:.1}); log-likelihood ratio {llr:.3}",
        match decision {
            Some(true) => "H1 accepted: A is stronger",
            Some(false) => "H0 accepted: A is not stronger by the margin",
            None => "undecided: the seed budget ran out",
        }
    );
    println!("{}", capped_share(capped, games, game.max_rounds()));
    if let Some(w) = capped_warning(capped, games, game.max_rounds()) {
        println!("{w}");
    }
    Ok(())
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
