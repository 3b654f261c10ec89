//! `shifu tournament`: every pairing of the listed agents in two-player games, both seat orders
//! on the same seeds, Bradley-Terry ratings on the Elo scale with bootstrap intervals; and an SPRT
//! mode that tests "A is stronger than B" and stops as soon as it is decided.

use crate::play::{seat_specs, split_specs};
use crate::setup::GameArgs;
use anyhow::{bail, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use shifu_agents::{build_agent, game_seed, play_game, Agent};
use shifu_engine::tofu_shifu::TofuShifu;
use shifu_engine::{Game, GameRng};

/// Options of `shifu tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The agents, comma-separated specs (at least two).
    #[arg(long)]
    agents: String,
    /// Seeds per pairing; each is played with both seat orders.
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
    #[arg(long)]
    threads: Option<usize>,
}

/// Plays seed `i` of a pairing with A in `a_seat`; returns A's score (1, 1/2 or 0).
fn duel_game(game: &TofuShifu, a: &str, b: &str, seed: u64, a_seat: usize) -> f64 {
    let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = (0..2)
        .map(|s| build_agent(if s == a_seat { a } else { b }, seed, s as u8).expect("checked"))
        .collect();
    let mut buf = Vec::new();
    play_game(game, &mut agents, seed, &mut buf)
        .outcome
        .win_share(a_seat as u8)
}

/// Bradley-Terry strengths by the MM algorithm (Hunter 2004) from `wins[i][j]` (i's score
/// against j), on the Elo scale with mean 0.
pub fn bradley_terry(wins: &[Vec<f64>]) -> Vec<f64> {
    let k = wins.len();
    let mut p = vec![1.0f64; k];
    for _ in 0..2000 {
        let mut next = p.clone();
        for i in 0..k {
            // A small prior (half a win and half a loss against a unit opponent) keeps an
            // unbeaten or winless agent finite.
            let w: f64 = wins[i].iter().sum::<f64>() + 0.5;
            let mut d = 1.0 / (p[i] + 1.0);
            for j in 0..k {
                if j != i {
                    let n = wins[i][j] + wins[j][i];
                    if n > 0.0 {
                        d += n / (p[i] + p[j]);
                    }
                }
            }
            next[i] = w / d;
        }
        let g = (next.iter().map(|x| x.ln()).sum::<f64>() / k as f64).exp();
        for x in next.iter_mut() {
            *x /= g;
        }
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-10 {
            break;
        }
    }
    p.iter().map(|x| 400.0 * x.log10()).collect()
}

pub fn run(args: TournamentArgs) -> Result<()> {
    let game = args.game.build()?;
    if game.num_seats() != 2 {
        bail!("tournament supports two-player games for now (Plackett-Luce ratings for 3-4 players are not built yet); pass --players 2");
    }
    let specs = split_specs(&args.agents);
    seat_specs(&specs.join(","), specs.len())?;
    if specs.len() < 2 {
        bail!("--agents needs at least two specs");
    }
    for s in &specs {
        build_agent::<TofuShifu>(s, 0, 0)?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    if args.sprt {
        return sprt(&args, &game, &specs, &pool);
    }
    let k = specs.len();
    // results[(i, j)] = per seed, i's total score over both seat orders against j.
    let pairs: Vec<(usize, usize)> = (0..k)
        .flat_map(|i| ((i + 1)..k).map(move |j| (i, j)))
        .collect();
    let per_pair: Vec<Vec<f64>> = pool.install(|| {
        pairs
            .par_iter()
            .map(|&(i, j)| {
                (0..args.seeds)
                    .into_par_iter()
                    .map(|s| {
                        let seed = game_seed(args.seed, s);
                        duel_game(&game, &specs[i], &specs[j], seed, 0)
                            + duel_game(&game, &specs[i], &specs[j], seed, 1)
                    })
                    .collect()
            })
            .collect()
    });
    let table = |sample: &dyn Fn(usize) -> usize| {
        let mut w = vec![vec![0.0; k]; k];
        for (p, &(i, j)) in pairs.iter().enumerate() {
            for s in 0..args.seeds as usize {
                let x = per_pair[p][sample(s)];
                w[i][j] += x;
                w[j][i] += 2.0 - x;
            }
        }
        w
    };
    let wins = table(&|s| s);
    let elo = bradley_terry(&wins);
    // Bootstrap over seeds (each seed's two games resampled together).
    let mut rng = GameRng::seed_from_u64(args.seed ^ 0x5EED);
    let n = args.seeds as usize;
    let mut boot: Vec<Vec<f64>> = vec![Vec::new(); k];
    for _ in 0..400 {
        let idx: Vec<usize> = (0..n).map(|_| rng.gen_range(0..n)).collect();
        let e = bradley_terry(&table(&|s| idx[s]));
        for a in 0..k {
            boot[a].push(e[a]);
        }
    }
    println!(
        "{}: {} agents, every pairing on {} seeds x 2 seat orders ({} games), master seed {}",
        game.name(),
        k,
        args.seeds,
        pairs.len() as u64 * args.seeds * 2,
        args.seed
    );
    println!();
    println!("| agent | Elo (Bradley-Terry, mean 0) | 95% bootstrap interval | score |");
    println!("| --- | --- | --- | --- |");
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]));
    for a in order {
        let mut b = boot[a].clone();
        b.sort_by(f64::total_cmp);
        let lo = b[(b.len() as f64 * 0.025) as usize];
        let hi = b[((b.len() as f64 * 0.975) as usize).min(b.len() - 1)];
        let played: f64 = (0..k).map(|j| wins[a][j] + wins[j][a]).sum();
        let score: f64 = wins[a].iter().sum();
        println!(
            "| {} | {:+.0} | [{:+.0}, {:+.0}] | {:.1} / {:.0} |",
            specs[a], elo[a], lo, hi, score, played
        );
    }
    Ok(())
}

/// The sequential probability ratio test of "A beats B with Elo difference elo1" against
/// "elo0", over games in seed order (both seat orders per seed).
fn sprt(
    args: &TournamentArgs,
    game: &TofuShifu,
    specs: &[String],
    pool: &rayon::ThreadPool,
) -> Result<()> {
    if specs.len() != 2 {
        bail!("--sprt takes exactly two agents, A then B");
    }
    if !(args.alpha > 0.0 && args.alpha < 0.5 && args.beta > 0.0 && args.beta < 0.5) {
        bail!("--alpha and --beta must be between 0 and 0.5");
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
    let mut score = 0.0;
    let batch = 2 * pool.current_num_threads() as u64;
    let mut next = 0u64;
    let mut decision = None;
    'outer: while next < args.seeds {
        let to = (next + batch).min(args.seeds);
        let results: Vec<(f64, f64)> = pool.install(|| {
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
            for x in [a, b] {
                games += 1;
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::bradley_terry;

    #[test]
    fn bradley_terry_orders_and_scales() {
        // A beats B 75% of the time: about 191 Elo apart (400 log10 3), shrunk a little by the prior.
        let wins = vec![vec![0.0, 75.0], vec![25.0, 0.0]];
        let e = bradley_terry(&wins);
        let gap = e[0] - e[1];
        assert!(gap > 170.0 && gap < 192.0, "{gap}");
        assert!((e[0] + e[1]).abs() < 1e-6);
    }
}
