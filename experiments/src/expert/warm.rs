//! The warm start: before the first iteration, the untrained network imitates an agent
//! (`--warm-agent`, `greedy` for example) over `--warm-games` games of that agent in every seat.
//! Every `--warm-every`-th decision with a choice becomes a row whose policy target is the
//! agent's move (one-hot) and whose value target is the game's outcome from the row's observer,
//! capped games as in self-play ([`CappedValue`]).
//!
//! Why one decision in K: a game's positions share its deal (the cards in the market, the
//! customers drawn) and its one result, so a network trained on all of them learns to recognise
//! the game and recall its winner. On 1,000 greedy games of Tofu Shifu at 2 players, every
//! decision kept, the value loss was 0.031 on the training games and 1.178 on 100 held-out ones,
//! worse than always answering 0. Fewer positions from more games (greedy's games are cheap)
//! is AlphaGo's remedy for its value network.
//!
//! Why: an untrained network's search plays so aimlessly that most self-play games of Tofu
//! Shifu end at the round cap, which decides nothing, so its value targets carry no signal and
//! the loop never starts (the first long run of this command stalled there). An imitated agent
//! that finishes its games gives the search a policy prior and a value that both point to the
//! end of the game; expert iteration then improves on it. AlphaGo started from imitation too.

use super::buffer::Buffer;
use super::learn::{self, Learn, Learned};
use super::selfplay::{CappedValue, Recorder, SampleBy, Sampler, ValueTarget};
use crate::games::Playable;
use anyhow::{anyhow, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shifu_agents::{build_agent, game_rng, game_seed, Agent, Decision};
use shifu_net::{Inference, Net, Weights};

/// What the warm start did (kept in the checkpoint and in the run's result).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Warm {
    /// The imitated agent's spec.
    pub agent: String,
    /// Its games.
    pub games: u64,
    /// Of them, games stopped by the round cap.
    pub capped: u64,
    /// One decision with a choice in this many became a row.
    #[serde(default)]
    pub every: u32,
    /// Training rows.
    pub positions: usize,
    /// Training passes over them.
    pub epochs: usize,
    /// Mean policy loss of the last epoch.
    pub policy_loss: f64,
    /// Mean value loss of the last epoch.
    pub value_loss: f64,
    /// Steps whose loss was not finite (skipped).
    pub nan_steps: u64,
    /// Games held out of training (every tenth, from 10 games on) to measure overfitting.
    #[serde(default)]
    pub held_out_games: u64,
    /// On their positions: the policy's cross-entropy against the agent's moves.
    #[serde(default)]
    pub held_out_policy_loss: f64,
    /// The value head's mean squared error against the results.
    #[serde(default)]
    pub held_out_value_loss: f64,
    /// The share of positions where the policy's most likely move is the agent's.
    #[serde(default)]
    pub held_out_agreement: f64,
    /// Seconds it took.
    pub seconds: f64,
}

/// Is game j of `games` held out? Every tenth, when there are at least 10.
fn held_out(j: u64, games: u64) -> bool {
    games >= 10 && j % 10 == 9
}

/// The held-out losses and agreement of `w` on `buffer` (through the search's forward pass).
fn evaluate(w: &Weights, buffer: &Buffer) -> (f64, f64, f64) {
    let c = &w.config;
    let mut inf = Inference::new(Net::new(w), 1);
    let (mut p, mut v) = (vec![0.0; c.actions], vec![0.0; c.values()]);
    let index = buffer.index();
    let (mut ce, mut mse, mut hits) = (0.0, 0.0, 0usize);
    for &pos in &index {
        let (x, m) = inf.row_mut(0);
        buffer.fill(pos, x, m, &mut p, &mut v);
        inf.forward(1);
        let q = inf.policy(0);
        ce -= p
            .iter()
            .zip(q)
            .filter(|(&t, _)| t > 0.0)
            .map(|(&t, &y)| f64::from(t) * f64::from(y.max(1e-12)).ln())
            .sum::<f64>();
        mse += inf
            .value(0)
            .iter()
            .zip(&v)
            .map(|(&y, &t)| f64::from(y - t).powi(2))
            .sum::<f64>()
            / v.len() as f64;
        let best = (0..q.len()).max_by(|&a, &b| q[a].total_cmp(&q[b]));
        hits += usize::from(best.is_some_and(|b| p[b] == 1.0));
    }
    let n = index.len().max(1) as f64;
    (ce / n, mse / n, hits as f64 / n)
}

/// Checks that `spec` builds an agent for `G` (before anything is played).
pub fn check_agent<G: Playable + 'static>(spec: &str) -> Result<()> {
    build_agent::<G>(spec, 0, 0)
        .map(|_| ())
        .map_err(|e| anyhow!("--warm-agent {spec}: {e}"))
}

/// One game of `spec` in every seat from `seed`, recorded for imitation.
fn demonstration<G: Playable + 'static>(
    game: &G,
    spec: &str,
    inputs: usize,
    capped: CappedValue,
    every: u32,
    by: SampleBy,
    seed: u64,
) -> Result<(super::buffer::GameSamples, bool)> {
    let n = game.num_seats();
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..n as u8)
        .map(|s| build_agent::<G>(spec, seed, s).map_err(|e| anyhow!("--warm-agent {spec}: {e}")))
        .collect::<Result<_>>()?;
    let mut rng = game_rng(seed);
    let mut state = game.new_state(&mut rng);
    let mut rec = Recorder::new(game, inputs);
    let mut legal = Vec::new();
    let mut sampler = Sampler::new(every, by);
    while let Some(seat) = game.to_move(&state) {
        game.legal_actions(&state, &mut legal);
        let d = Decision::new(game, &state, seat, &legal);
        let a = agents[seat as usize].choose(&d);
        if legal.len() > 1 && sampler.keep(seat) {
            rec.row(
                game,
                &d,
                seat,
                &legal,
                legal.iter().map(|&l| f32::from(u8::from(l == a))),
            );
        }
        game.apply(&mut state, a, &mut rng);
    }
    let o = game
        .outcome(&state)
        .expect("a finished game has an outcome");
    Ok((rec.finish(game, &o, capped, ValueTarget::Outcome), o.capped))
}

/// `start` trained to imitate `spec` over `games` games from master seed `master` (game j from
/// `game_seed(master, j)`, the same rows whatever the thread count), one decision in `every`.
#[allow(clippy::too_many_arguments)]
pub fn warm_start<G: Playable + 'static>(
    game: &G,
    start: &Weights,
    spec: &str,
    games: u64,
    every: u32,
    by: SampleBy,
    l: Learn,
    capped: CappedValue,
    master: u64,
    pool: &rayon::ThreadPool,
    done: &(dyn Fn() + Sync),
) -> Result<(Weights, Warm)> {
    let started = std::time::Instant::now();
    let c = &start.config;
    let played: Vec<_> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|j| {
                let r = demonstration(
                    game,
                    spec,
                    c.inputs,
                    capped,
                    every,
                    by,
                    game_seed(master, j),
                );
                done();
                r
            })
            .collect::<Result<Vec<_>>>()
    })?;
    let mut buffer = Buffer::new(c.inputs, c.actions, c.values(), games as usize);
    let mut test = Buffer::new(c.inputs, c.actions, c.values(), games as usize);
    let mut capped_games = 0;
    for (j, (g, was_capped)) in played.into_iter().enumerate() {
        capped_games += u64::from(was_capped);
        if held_out(j as u64, games) {
            // A game without rows (capped, under --capped-value skip) measures nothing.
            if g.rows() > 0 {
                test.push(g);
            }
        } else {
            buffer.push(g);
        }
    }
    let positions = buffer.positions();
    if positions == 0 {
        return Ok((
            start.clone(),
            Warm {
                agent: spec.into(),
                games,
                capped: capped_games,
                every,
                epochs: l.epochs,
                seconds: started.elapsed().as_secs_f64(),
                ..Warm::default()
            },
        ));
    }
    let (
        w,
        Learned {
            policy_loss,
            value_loss,
            nan_steps,
            ..
        },
    ) = learn::learn(start, &buffer, l, master ^ 0x5741_524d)?;
    let (hp, hv, ha) = if test.positions() > 0 {
        evaluate(&w, &test)
    } else {
        (0.0, 0.0, 0.0)
    };
    Ok((
        w,
        Warm {
            agent: spec.into(),
            games,
            capped: capped_games,
            every,
            positions,
            epochs: l.epochs,
            policy_loss,
            value_loss,
            nan_steps,
            held_out_games: test.games() as u64,
            held_out_policy_loss: hp,
            held_out_value_loss: hv,
            held_out_agreement: ha,
            seconds: started.elapsed().as_secs_f64(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shifu_engine::tofu_shifu::{Params, TofuShifu};
    use shifu_net::NetConfig;

    #[test]
    fn warm_start_teaches_the_network_greedys_moves() {
        let game = TofuShifu::with_params(Params::with_players(2)).unwrap();
        let start = Weights::init(NetConfig::for_game(&game, 32, 0), 3);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let l = Learn {
            epochs: 6,
            batch: 64,
            lr: 3e-3,
        };
        let run = |threads_pool: &rayon::ThreadPool, games: u64| {
            warm_start(
                &game,
                &start,
                "greedy",
                games,
                1,
                SampleBy::Seat,
                l,
                CappedValue::Draw,
                11,
                threads_pool,
                &|| {},
            )
            .unwrap()
        };
        let (w, warm) = run(&pool, 4);
        assert_eq!((warm.games, warm.capped), (4, 0), "greedy ends its games");
        assert!(warm.positions > 100, "{warm:?}");
        // Greedy's moves become the network's first choice more often than chance would allow:
        // replay a greedy game and count how often the policy's top move is greedy's.
        let (g, _) = demonstration(
            &game,
            "greedy",
            w.config.inputs,
            CappedValue::Draw,
            1,
            SampleBy::Seat,
            99,
        )
        .unwrap();
        let mut replay = Buffer::new(w.config.inputs, w.config.actions, 2, 1);
        replay.push(g);
        let (ce0, _, before) = evaluate(&start, &replay);
        let (ce1, _, after) = evaluate(&w, &replay);
        assert!(
            after > before + 0.2 && after > 0.5,
            "agreement {before} -> {after}"
        );
        assert!(ce1 < ce0, "cross-entropy {ce0} -> {ce1}");
        assert_eq!(warm.held_out_games, 0, "fewer than 10 games: none held out");
        // The same rows and weights on one thread.
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let (w1, warm1) = run(&one, 4);
        assert_eq!((w1.params, warm1.positions), (w.params, warm.positions));
        // From 10 games on, every tenth game is held out and measured.
        let (_, ten) = run(&pool, 10);
        assert_eq!(ten.held_out_games, 1);
        // One decision in 5 counted over the game: a fifth of the rows (rounded up per game).
        let of = |every, by| demonstration(&game, "greedy", 8, CappedValue::Draw, every, by, 5);
        let (all, _) = of(1, SampleBy::Game).unwrap();
        let (fifth, _) = of(5, SampleBy::Game).unwrap();
        assert_eq!(fifth.rows(), all.rows().div_ceil(5));
        assert_eq!(
            fifth.legal_len[1], all.legal_len[5],
            "rows 0, 5, 10, ... are kept"
        );
        // Counted per seat: each of the two seats keeps a fifth of its own decisions, so about
        // as many rows in all, and the same rows at K = 1.
        assert_eq!(of(1, SampleBy::Seat).unwrap().0, all);
        let per_seat = of(5, SampleBy::Seat).unwrap().0.rows();
        assert!(
            per_seat.abs_diff(fifth.rows()) <= 2,
            "{per_seat} {}",
            fifth.rows()
        );
        assert!(
            ten.held_out_agreement > 0.3 && ten.held_out_policy_loss.is_finite(),
            "{ten:?}"
        );
    }
}
