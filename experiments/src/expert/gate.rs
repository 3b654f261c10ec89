//! Gating: the candidate network plays the incumbent on fresh seeds, seats rotated (in game j
//! the candidate sits in seat j mod n, the incumbent in the others, each searching as in
//! self-play), and replaces it only when the SPRT ([`crate::sprt`]) accepts H1. Games are played
//! in parallel chunks but read in game order, so the verdict never depends on the thread count.
//! At the game cap without a verdict the incumbent stays. A game stopped by the round cap
//! decides nothing, so it scores the fair share 1/n for both sides (and is counted), except
//! under `--capped-value ranks`, which keeps the tie-break's winner as before.
//!
//! The same match against `greedy` measures a network's strength on a fixed scale.

use super::selfplay::{CappedValue, SelfPlay};
use crate::games::Playable;
use crate::sprt::{elo_of_score, Sprt, Verdict};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shifu_agents::{agent_rng, build_agent, game_seed, play_game, Agent, AzAgent, AzConfig};
use shifu_net::Net;
use std::sync::Arc;

/// A match's result for the first player (the candidate, or the network against greedy).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Games played (read).
    pub games: u64,
    /// Mean score (win share).
    pub mean: f64,
    /// Its standard error (see [`Score::elo`]).
    pub se: f64,
}

impl Score {
    fn of(scores: &[f64]) -> Score {
        let n = scores.len() as f64;
        if scores.is_empty() {
            return Score::default();
        }
        let mean = scores.iter().sum::<f64>() / n;
        let mut var = scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        if var == 0.0 {
            // Every game scored alike (a few games, all won): the Bernoulli variance at the
            // Laplace estimate, so the interval is not a point.
            let p = (mean * n + 1.0) / (n + 2.0);
            var = p * (1.0 - p);
        }
        Score {
            games: scores.len() as u64,
            mean,
            se: (var / n).sqrt(),
        }
    }

    /// The Elo difference and its 95% interval (normal approximation on the score; a sample
    /// without variance takes the Bernoulli variance at the Laplace estimate).
    pub fn elo(&self, players: usize) -> (f64, f64, f64) {
        let z = 1.959_964 * self.se;
        (
            elo_of_score(self.mean, players),
            elo_of_score(self.mean - z, players),
            elo_of_score(self.mean + z, players),
        )
    }
}

/// The gate's outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    /// The candidate's score over the games read.
    pub score: Score,
    /// The final log-likelihood ratio.
    pub llr: f64,
    /// `H1` (accepted), `H0` (rejected) or `cap` (no verdict: rejected).
    pub verdict: String,
    /// Games read that the round cap stopped (each scored 1/n).
    #[serde(default)]
    pub capped: u64,
}

impl Gate {
    /// Whether the candidate replaces the incumbent.
    pub fn accepted(&self) -> bool {
        self.verdict == "H1"
    }
}

/// The first player's score in game j, and whether the round cap stopped the game (then the
/// score is the fair share 1/n, unless `capped` is `Ranks`): it sits in seat j mod n; `others`
/// builds the rest.
fn play<G: Playable + 'static>(
    game: &G,
    capped: CappedValue,
    me: &(dyn Fn(u64, u8) -> Box<dyn Agent<G>> + Sync),
    others: &(dyn Fn(u64, u8) -> Box<dyn Agent<G>> + Sync),
    master: u64,
    j: u64,
) -> (f64, bool) {
    let n = game.num_seats();
    let seed = game_seed(master, j);
    let mine = (j % n as u64) as u8;
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..n as u8)
        .map(|s| {
            if s == mine {
                me(seed, s)
            } else {
                others(seed, s)
            }
        })
        .collect();
    let o = play_game(game, &mut agents, seed, &mut Vec::new()).outcome;
    if o.capped && capped != CappedValue::Ranks {
        (1.0 / n as f64, true)
    } else {
        (o.win_share(mine), o.capped)
    }
}

fn az<G: Playable + 'static>(
    net: &Arc<Net>,
    sp: SelfPlay,
    seed: u64,
    seat: u8,
) -> Box<dyn Agent<G>> {
    let c = AzConfig {
        iters: sp.iters,
        time_ms: None,
        c_puct: sp.c_puct,
        rollout: 0.0,
        ..AzConfig::default()
    };
    Box::new(AzAgent::<G>::new(
        c,
        net.clone(),
        agent_rng(seed, seat),
        "az".into(),
    ))
}

/// The SPRT gate of `candidate` against `incumbent`, up to `cap` games.
#[allow(clippy::too_many_arguments)]
pub fn gate<G: Playable + 'static>(
    game: &G,
    candidate: &Arc<Net>,
    incumbent: &Arc<Net>,
    sp: SelfPlay,
    sprt: &Sprt,
    cap: u64,
    master: u64,
    pool: &rayon::ThreadPool,
    done: &(dyn Fn() + Sync),
) -> Gate {
    let n = game.num_seats() as u64;
    let me = |seed, s| az::<G>(candidate, sp, seed, s);
    let others = |seed, s| az::<G>(incumbent, sp, seed, s);
    // Chunks of whole seat rotations, at least one game per thread.
    let chunk = (pool.current_num_threads() as u64).max(1).div_ceil(n) * n;
    let (mut scores, mut capped) = (Vec::new(), Vec::new());
    while (scores.len() as u64) < cap {
        let from = scores.len() as u64;
        let to = (from + chunk).min(cap);
        let more: Vec<(f64, bool)> = pool.install(|| {
            (from..to)
                .into_par_iter()
                .map(|j| {
                    let s = play(game, sp.capped, &me, &others, master, j);
                    done();
                    s
                })
                .collect()
        });
        scores.extend(more.iter().map(|m| m.0));
        capped.extend(more.iter().map(|m| m.1));
        let (games, _, _, v) = sprt.run(&scores, cap);
        if v.is_some() {
            scores.truncate(games as usize);
            capped.truncate(games as usize);
            break;
        }
    }
    let (_, _, llr, v) = sprt.run(&scores, cap);
    Gate {
        score: Score::of(&scores),
        llr,
        verdict: match v {
            Some(Verdict::H1) => "H1",
            Some(Verdict::H0) => "H0",
            None => "cap",
        }
        .into(),
        capped: capped.iter().filter(|&&c| c).count() as u64,
    }
}

/// The network's score against `greedy` in `games` games (seats rotated), and how many of them
/// the round cap stopped.
pub fn versus_greedy<G: Playable + 'static>(
    game: &G,
    net: &Arc<Net>,
    sp: SelfPlay,
    games: u64,
    master: u64,
    pool: &rayon::ThreadPool,
    done: &(dyn Fn() + Sync),
) -> (Score, u64) {
    let me = |seed, s| az::<G>(net, sp, seed, s);
    let others =
        |seed, s| build_agent::<G>("greedy", seed, s).expect("greedy builds for every game");
    let played: Vec<(f64, bool)> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|j| {
                let s = play(game, sp.capped, &me, &others, master, j);
                done();
                s
            })
            .collect()
    });
    let scores: Vec<f64> = played.iter().map(|p| p.0).collect();
    let capped = played.iter().filter(|p| p.1).count() as u64;
    (Score::of(&scores), capped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_give_elo_intervals_around_the_mean() {
        let s = Score::of(&[1.0, 0.0, 0.5, 1.0]);
        assert_eq!((s.games, s.mean), (4, 0.625));
        let (e, lo, hi) = s.elo(2);
        assert!(lo < e && e < hi && e > 0.0);
        // All won: still an interval, not a point.
        let (e, lo, hi) = Score::of(&[1.0, 1.0]).elo(2);
        assert!(lo < hi && hi >= e, "{lo} {e} {hi}");
        assert_eq!(Score::of(&[]).games, 0);
    }
}
