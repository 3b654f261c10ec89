//! Gating: the candidate network plays the incumbent on fresh seeds, seats rotated (in game j
//! the candidate sits in seat j mod n, the incumbent in the others, each searching as in
//! self-play), and replaces it only when the SPRT ([`crate::sprt`]) accepts H1. Games are played
//! in parallel chunks but read in game order, so the verdict never depends on the thread count.
//! At the game cap without a verdict the incumbent stays. A game stopped by the round cap
//! decides nothing, so it scores the fair share 1/n for both sides (and is counted), except
//! under `--capped-value ranks`, which keeps the tie-break's winner as before.
//!
//! In a cooperative game (Wok Star) one network in one seat of a team says nothing about it
//! against the other, so each seed is played twice instead, once by a team of candidates in
//! every seat and once by a team of incumbents, and the seed scores 1 when only the candidates'
//! team wins, 0 when only the incumbents' does and 1/2 when both or neither do: a paired
//! comparison on shared seeds, rated as between two players ([`rated_players`]). The gate's cap
//! then counts seeds. A seed where the round cap stopped either game scores 1/2. The SPRT
//! weighs only the seeds where the teams' results differ ([`Sprt::run_paired`]): most seeds of
//! a hard difficulty are lost by both teams, and counting each as half a win and half a loss
//! would pull every verdict toward H0.
//!
//! The same match against `greedy` measures a network's strength on a fixed scale.

use super::selfplay::{CappedValue, SelfPlay};
use crate::games::Playable;
use crate::sprt::{elo_of_score, Sprt, Verdict};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shifu_agents::{agent_rng, build_agent, game_seed, play_game, Agent, AzAgent};
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

/// The players a gate score is rated among ([`crate::sprt`]): the seats, or 2 in a cooperative
/// game, where the score compares two teams on the same seeds.
pub fn rated_players<G: Playable>(game: &G) -> usize {
    if G::INFO.cooperative {
        2
    } else {
        game.num_seats()
    }
}

type Build<'a, G> = &'a (dyn Fn(u64, u8) -> Box<dyn Agent<G>> + Sync);

/// The first player's score in game j, and whether the round cap stopped the game (then the
/// score is the fair share 1/n, unless `capped` is `Ranks`): it sits in seat j mod n; `others`
/// builds the rest. In a cooperative game, [`play_teams`].
fn play<G: Playable + 'static>(
    game: &G,
    capped: CappedValue,
    me: Build<'_, G>,
    others: Build<'_, G>,
    master: u64,
    j: u64,
) -> (f64, bool) {
    if G::INFO.cooperative {
        return play_teams(game, capped, me, others, master, j);
    }
    let n = game.num_seats();
    let seed = game_seed(master, j);
    let mine = (j % n as u64) as u8;
    let o = play_seated(game, seed, |s| if s == mine { me } else { others });
    if o.capped && capped != CappedValue::Ranks {
        (1.0 / n as f64, true)
    } else {
        (o.win_share(mine), o.capped)
    }
}

/// One game from `seed`, seat s played by the agent that `builder(s)` builds.
fn play_seated<'a, G: Playable + 'static>(
    game: &G,
    seed: u64,
    builder: impl Fn(u8) -> Build<'a, G>,
) -> shifu_engine::Outcome {
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..game.num_seats() as u8)
        .map(|s| builder(s)(seed, s))
        .collect();
    play_game(game, &mut agents, seed, &mut Vec::new()).outcome
}

/// Seed j played by a team of `me` in every seat and by a team of `others`: 1 when only the
/// first team wins, 0 when only the second does, 1/2 otherwise or when the round cap stopped
/// either game (unless `capped` is `Ranks`); and whether it did.
fn play_teams<G: Playable + 'static>(
    game: &G,
    capped: CappedValue,
    me: Build<'_, G>,
    others: Build<'_, G>,
    master: u64,
    j: u64,
) -> (f64, bool) {
    let seed = game_seed(master, j);
    let (a, b) = (
        play_seated(game, seed, |_| me),
        play_seated(game, seed, |_| others),
    );
    let was_capped = a.capped || b.capped;
    if was_capped && capped != CappedValue::Ranks {
        return (0.5, true);
    }
    let won = |o: &shifu_engine::Outcome| f64::from(u8::from(o.is_winner(0)));
    (0.5 + 0.5 * (won(&a) - won(&b)), was_capped)
}

fn az<G: Playable + 'static>(
    net: &Arc<Net>,
    sp: SelfPlay,
    seed: u64,
    seat: u8,
) -> Box<dyn Agent<G>> {
    Box::new(AzAgent::<G>::new(
        sp.config(),
        net.clone(),
        agent_rng(seed, seat),
        "az".into(),
    ))
}

/// The SPRT gate of `candidate` against `incumbent`, up to `cap` games (seeds, each played by
/// both teams, in a cooperative game).
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
    let run = |scores: &[f64]| {
        if G::INFO.cooperative {
            sprt.run_paired(scores, cap)
        } else {
            sprt.run(scores, cap)
        }
    };
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
        let (games, _, _, v) = run(&scores);
        if v.is_some() {
            scores.truncate(games as usize);
            capped.truncate(games as usize);
            break;
        }
    }
    let (_, _, llr, v) = run(&scores);
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

/// The network's score against `greedy` in `games` games (seats rotated; in a cooperative game
/// its team against greedy's on `games` seeds, scored as in the gate), and how many of them the
/// round cap stopped.
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

    /// Wok Star is cooperative: a gate seed is one game per team on the same seed, scored by
    /// which teams won, not by one network's seat in a mixed team.
    #[test]
    fn a_cooperative_gate_pairs_two_teams_on_each_seed() {
        use shifu_engine::wok_star::{Params, WokStar};
        use shifu_engine::ParamFile;
        // Mild, where the greedy team wins about one game in nine.
        let mut p = Params::with_players(2);
        p.set("difficulty", "mild").unwrap();
        let game = WokStar::with_params(p).unwrap();
        assert_eq!(rated_players(&game), 2);
        let agent = |spec: &'static str| {
            move |seed, s| build_agent::<WokStar>(spec, seed, s).expect("builds")
        };
        let (greedy, random) = (agent("greedy"), agent("random"));
        let team_won = |spec: &'static str, seed| {
            let mut agents: Vec<Box<dyn Agent<WokStar>>> =
                (0..2).map(|s| agent(spec)(seed, s)).collect();
            play_game(&game, &mut agents, seed, &mut Vec::new())
                .outcome
                .is_winner(0)
        };
        let mut differing = 0;
        for j in 0..60 {
            let seed = game_seed(11, j);
            let (g, r) = (team_won("greedy", seed), team_won("random", seed));
            let want = 0.5 + 0.5 * (f64::from(u8::from(g)) - f64::from(u8::from(r)));
            let (score, capped) = play(&game, CappedValue::Draw, &greedy, &random, 11, j);
            assert_eq!((score, capped), (want, false), "seed {j}");
            differing += usize::from(g != r);
            // The same agent against itself on the same seed: the same game, a tie.
            assert_eq!(
                play(&game, CappedValue::Draw, &greedy, &greedy, 11, j).0,
                0.5
            );
        }
        assert!(differing > 0, "60 seeds and the teams never differ");
    }

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
