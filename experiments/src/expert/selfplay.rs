//! Self-play with search targets: games of the `az:` search (PUCT guided by the network,
//! determinized: each iteration samples hidden cards consistent with the mover's view), which
//! record at every decision with a choice the observer's relative observation, the legal
//! actions, and the root visit shares as the policy target; at the end, each row's value target
//! is the final outcome of every seat counted from that row's observer.

use super::buffer::GameSamples;
use crate::games::Playable;
use rand::Rng;
use rayon::prelude::*;
use shifu_agents::az::terminal_values;
use shifu_agents::{agent_rng, game_rng, game_seed, Agent, AzAgent, AzConfig, Decision};
use shifu_engine::GameRng;
use shifu_net::{Features, Net};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How self-play searches and explores.
#[derive(Debug, Clone, Copy)]
pub struct SelfPlay {
    /// PUCT iterations per decision.
    pub iters: u32,
    /// PUCT's exploration constant.
    pub c_puct: f32,
    /// Decisions per game (from the start) whose move is drawn in proportion to the root
    /// visits instead of the most visited: the games differ and the buffer sees more openings.
    pub explore: u32,
}

/// Where a game's time went.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timing {
    /// The whole game.
    pub total: Duration,
    /// The network's forward passes.
    pub net: Duration,
}

impl Timing {
    fn add(&mut self, o: Timing) {
        self.total += o.total;
        self.net += o.net;
    }

    /// The share of the time outside the network: the game (stepping, legal moves, sampling
    /// hidden cards, encoding) and the tree.
    pub fn game_share(&self) -> f64 {
        let t = self.total.as_secs_f64();
        if t > 0.0 {
            1.0 - self.net.as_secs_f64() / t
        } else {
            0.0
        }
    }
}

/// The stream of a game's exploration draws: apart from the game's and every seat's.
fn explore_rng(seed: u64) -> GameRng {
    let mut r = game_rng(seed);
    r.set_stream(1 << 32);
    r
}

/// One self-play game from `seed`, every seat the search over `net`.
pub fn play_one<G: Playable + 'static>(
    game: &G,
    net: &Arc<Net>,
    sp: SelfPlay,
    seed: u64,
) -> (GameSamples, Timing) {
    let started = Instant::now();
    let n = game.num_seats();
    let config = AzConfig {
        iters: sp.iters,
        time_ms: None,
        c_puct: sp.c_puct,
    };
    let mut agents: Vec<AzAgent<G>> = (0..n)
        .map(|s| {
            let mut a = AzAgent::new(
                config.clone(),
                net.clone(),
                agent_rng(seed, s as u8),
                "az".into(),
            );
            a.set_timing(true);
            a
        })
        .collect();
    let (mut rng, mut pick) = (game_rng(seed), explore_rng(seed));
    let mut state = game.new_state(&mut rng);
    let mut features = Features::new(game);
    let mut x = vec![0.0f32; net.config().inputs];
    let (mut legal, mut visits, mut observers) = (Vec::new(), Vec::new(), Vec::new());
    let mut g = GameSamples::default();
    let mut decisions = 0u32;
    while let Some(seat) = game.to_move(&state) {
        game.legal_actions(&state, &mut legal);
        let d = Decision::new(game, &state, seat, &legal);
        let mut a = agents[seat as usize].choose(&d);
        visits.clear();
        visits.extend(legal.iter().map(|&l| agents[seat as usize].root_visits(l)));
        let total: u32 = visits.iter().sum();
        if legal.len() > 1 && total > 0 {
            features.observation(game, &d.observation(), seat, &mut x);
            let before = g.input_index.len();
            for (i, &v) in x.iter().enumerate() {
                if v != 0.0 {
                    g.input_index.push(i as u32);
                    g.input_value.push(v);
                }
            }
            g.input_len.push((g.input_index.len() - before) as u32);
            g.legal_len.push(legal.len() as u32);
            for (l, &v) in legal.iter().zip(&visits) {
                g.legal_index.push(game.action_index(*l) as u32);
                g.legal_policy.push(v as f32 / total as f32);
            }
            observers.push(seat);
            if decisions < sp.explore {
                let mut r = pick.gen_range(0..total);
                for (l, &v) in legal.iter().zip(&visits) {
                    if r < v {
                        a = *l;
                        break;
                    }
                    r -= v;
                }
            }
            decisions += 1;
        }
        game.apply(&mut state, a, &mut rng);
    }
    let o = game
        .outcome(&state)
        .expect("a finished game has an outcome");
    let v = terminal_values(game, &o, n);
    for &seat in &observers {
        g.value.extend((0..n).map(|j| v[(seat as usize + j) % n]));
    }
    let net_time = agents.iter().map(|a| a.net_time()).sum();
    (
        g,
        Timing {
            total: started.elapsed(),
            net: net_time,
        },
    )
}

/// `games` self-play games from master seed `master` (game j from `game_seed(master, j)`), in
/// game order whatever the thread count; `done` is called after each game.
pub fn play_many<G: Playable + 'static>(
    game: &G,
    net: &Arc<Net>,
    sp: SelfPlay,
    master: u64,
    games: u64,
    pool: &rayon::ThreadPool,
    done: &(dyn Fn() + Sync),
) -> (Vec<GameSamples>, Timing) {
    let played: Vec<(GameSamples, Timing)> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|j| {
                let r = play_one(game, net, sp, game_seed(master, j));
                done();
                r
            })
            .collect()
    });
    let mut timing = Timing::default();
    let mut out = Vec::with_capacity(played.len());
    for (g, t) in played {
        timing.add(t);
        out.push(g);
    }
    (out, timing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shifu_engine::tofu_shifu::{Params, TofuShifu};
    use shifu_engine::Game;
    use shifu_net::{NetConfig, Weights};

    #[test]
    fn a_game_records_visit_shares_and_outcomes_from_each_observer() {
        let game = TofuShifu::with_params(Params::with_players(2)).unwrap();
        let net = Net::new(&Weights::init(NetConfig::for_game(&game, 8, 0), 1));
        let sp = SelfPlay {
            iters: 8,
            c_puct: 1.5,
            explore: 4,
        };
        let (g, t) = play_one(&game, &net, sp, 3);
        assert!(g.rows() > 5);
        assert!(t.net > Duration::ZERO && t.total > t.net);
        let mut k = 0;
        for &len in &g.legal_len {
            let s: f32 = g.legal_policy[k..k + len as usize].iter().sum();
            assert!((s - 1.0).abs() < 1e-5, "visit shares sum to {s}");
            k += len as usize;
        }
        // Two players: each row's values are the observer's and the other's, opposite.
        for r in g.value.chunks(2) {
            assert!(r[0] == -r[1] && r[0].abs() <= 1.0, "{r:?}");
        }
        let (again, _) = play_one(&game, &net, sp, 3);
        assert_eq!(again, g, "a game is a function of its seed");
        assert_eq!(game.num_seats(), 2);
    }
}
