//! Self-play with search targets: games of the `az:` search (PUCT guided by the network,
//! determinized: each iteration samples hidden cards consistent with the mover's view), which
//! record at every decision with a choice the observer's relative observation, the legal
//! actions, and the root visit shares as the policy target; at the end, each row's value target
//! is the final outcome of every seat counted from that row's observer. A game stopped by the
//! round cap decides nothing: by default ([`CappedValue::Draw`]) its rows' value target is 0
//! for every seat, not the cap's tie-break. [`ValueTarget`] can train the value head towards
//! the search's own estimate at the root instead, or the mean of the two.

use super::buffer::GameSamples;
use crate::games::Playable;
use rand::Rng;
use rayon::prelude::*;
use shifu_agents::az::terminal_values;
use shifu_agents::{agent_rng, game_rng, game_seed, Agent, AzAgent, AzConfig, Decision};
use shifu_engine::{GameRng, Outcome};
use shifu_net::{Features, Net};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The value target of a game stopped by the round cap.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum CappedValue {
    /// 0 for every seat, the value of a game that decided nothing (the default).
    #[default]
    Draw,
    /// No rows: the game's positions are left out of the buffer.
    Skip,
    /// The outcome the cap's tie-breaks give (ranks by score at the cap), as for a game ended
    /// by its rules. It teaches a network that stalling ahead wins.
    Ranks,
}

/// What a self-play row's value target is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum ValueTarget {
    /// The game's result for every seat (AlphaZero's z; a capped game's as [`CappedValue`]
    /// says). Every position of a game shares it, so a network can learn to recognise the
    /// game rather than judge the position (the default; the committed bots' target).
    #[default]
    Outcome,
    /// The search's mean backed-up value of every seat at the root of that decision (q): a
    /// target of its own for each position, as noisy as the search is weak.
    Search,
    /// The mean of the two, (z + q) / 2.
    Mix,
}

impl ValueTarget {
    /// The target of one seat from the game's result `z` and the search's root value `q`
    /// (`None`: the decision was not searched, and the target is `z`).
    pub fn combine(self, z: f32, q: Option<f32>) -> f32 {
        match (self, q) {
            (ValueTarget::Outcome, _) | (_, None) => z,
            (ValueTarget::Search, Some(q)) => q,
            (ValueTarget::Mix, Some(q)) => 0.5 * (z + q),
        }
    }
}

/// Which seats' decisions the one-in-K count of `--sample-every` and `--warm-every` runs over.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum SampleBy {
    /// Each seat's decisions are counted apart: every seat keeps one of its decisions in K, so
    /// each seat gives its share of the rows whatever the turn order (the default).
    #[default]
    Seat,
    /// One count over every seat's decisions in turn order: where turns alternate, K can fall
    /// on one seat's turns more often (Ginza at 2 players: seat 1 took 57% to 59% of the rows
    /// at K = 2, 4 and 8). The committed bots were trained this way.
    Game,
}

/// Keeps the first decision with a choice, then every K-th, counted as [`SampleBy`] says.
#[derive(Debug, Clone)]
pub struct Sampler {
    every: u32,
    by: SampleBy,
    counts: [u32; shifu_engine::MAX_SEATS],
}

impl Sampler {
    /// One decision in `every` (at least 1), counted by `by`.
    pub fn new(every: u32, by: SampleBy) -> Self {
        Sampler {
            every: every.max(1),
            by,
            counts: [0; shifu_engine::MAX_SEATS],
        }
    }

    /// Whether this decision with a choice of `seat` becomes a row; counts it.
    pub fn keep(&mut self, seat: u8) -> bool {
        let i = match self.by {
            SampleBy::Seat => usize::from(seat) % shifu_engine::MAX_SEATS,
            SampleBy::Game => 0,
        };
        let keep = self.counts[i].is_multiple_of(self.every);
        self.counts[i] += 1;
        keep
    }
}

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
    /// The value target of a capped game.
    pub capped: CappedValue,
    /// What the value targets are: the game's result, the search's root values, or both.
    pub value_target: ValueTarget,
    /// One decision with a choice in this many becomes a buffer row (the first, then every
    /// `sample_every`-th): a game's positions share one result, and a network trained on all of
    /// them learns to recognise the game instead of judging the position.
    pub sample_every: u32,
    /// Whose decisions the one-in-`sample_every` count runs over.
    pub sample_by: SampleBy,
    /// How the search values a leaf (`--search-options`: rollouts, their policy and length,
    /// the hand-written evaluation), as the `az:` agent's options do; its `iters`, `time_ms`
    /// and `c_puct` are ignored ([`SelfPlay::config`] sets them). The default: the network's
    /// value alone.
    pub leaf: AzConfig,
}

impl SelfPlay {
    /// The search's configuration: `iters` PUCT iterations (no time limit), `c_puct`, and the
    /// leaf options of `leaf`. Self-play, the gate and the match against greedy all use it.
    pub fn config(&self) -> AzConfig {
        AzConfig {
            iters: self.iters,
            time_ms: None,
            c_puct: self.c_puct,
            ..self.leaf
        }
    }
}

/// Records decisions as buffer rows: the observer's relative observation (sparse), the legal
/// actions with their target probabilities.
pub struct Recorder {
    features: Features,
    x: Vec<f32>,
    observers: Vec<u8>,
    /// Each row's search values at the root, by absolute seat (`None`: not searched).
    roots: Vec<Option<[f32; shifu_engine::MAX_SEATS]>>,
    /// The rows so far.
    pub samples: GameSamples,
}

impl Recorder {
    /// A recorder for `game` and a network of `inputs` inputs.
    pub fn new<G: Playable>(game: &G, inputs: usize) -> Self {
        Recorder {
            features: Features::new(game),
            x: vec![0.0; inputs],
            observers: Vec::new(),
            roots: Vec::new(),
            samples: GameSamples::default(),
        }
    }

    /// Records decision `d` of `seat`, with `targets[i]` the target probability of `legal[i]`.
    pub fn row<G: Playable>(
        &mut self,
        game: &G,
        d: &Decision<'_, G>,
        seat: u8,
        legal: &[G::Action],
        targets: impl Iterator<Item = f32>,
    ) {
        let g = &mut self.samples;
        self.features
            .observation(game, &d.observation(), seat, &mut self.x);
        let before = g.input_index.len();
        for (i, &v) in self.x.iter().enumerate() {
            if v != 0.0 {
                g.input_index.push(i as u32);
                g.input_value.push(v);
            }
        }
        g.input_len.push((g.input_index.len() - before) as u32);
        g.legal_len.push(legal.len() as u32);
        for (l, p) in legal.iter().zip(targets) {
            g.legal_index.push(game.action_index(*l) as u32);
            g.legal_policy.push(p);
        }
        self.observers.push(seat);
        self.roots.push(None);
    }

    /// Gives the last row the search's root values `v` (by absolute seat), for
    /// [`ValueTarget::Search`] and [`ValueTarget::Mix`].
    pub fn root_values(&mut self, v: Option<[f32; shifu_engine::MAX_SEATS]>) {
        if let Some(last) = self.roots.last_mut() {
            *last = v;
        }
    }

    /// The rows with their value targets from the game's outcome `o` (see [`CappedValue`]) and
    /// the search's root values, as `target` says.
    pub fn finish<G: Playable>(
        mut self,
        game: &G,
        o: &Outcome,
        capped: CappedValue,
        target: ValueTarget,
    ) -> GameSamples {
        let n = game.num_seats();
        if o.capped && capped == CappedValue::Skip {
            return GameSamples::default();
        }
        let v = if o.capped && capped == CappedValue::Draw {
            [0.0; shifu_engine::MAX_SEATS]
        } else {
            terminal_values(game, o, n)
        };
        for (&seat, q) in self.observers.iter().zip(&self.roots) {
            self.samples.value.extend((0..n).map(|j| {
                let k = (seat as usize + j) % n;
                target.combine(v[k], q.map(|q| q[k]))
            }));
        }
        self.samples
    }
}

/// Where a game's time went.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timing {
    /// The whole game.
    pub total: Duration,
    /// The network's forward passes.
    pub net: Duration,
    /// Encoding positions (and legal masks) as the network's inputs.
    pub encode: Duration,
    /// Games played.
    pub games: u64,
    /// Of them, games stopped by the round cap.
    pub capped: u64,
}

impl Timing {
    /// Adds another game's (or batch's) timing.
    pub fn add(&mut self, o: Timing) {
        self.total += o.total;
        self.net += o.net;
        self.encode += o.encode;
        self.games += o.games;
        self.capped += o.capped;
    }

    /// The share of the time encoding positions for the network (part of
    /// [`Timing::game_share`]).
    pub fn encode_share(&self) -> f64 {
        let t = self.total.as_secs_f64();
        if t > 0.0 {
            self.encode.as_secs_f64() / t
        } else {
            0.0
        }
    }

    /// The share of the time outside the network's forward passes: the game (stepping, legal
    /// moves, sampling hidden cards), encoding its positions, and the tree.
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
    let config = sp.config();
    let mut agents: Vec<AzAgent<G>> = (0..n)
        .map(|s| {
            let mut a = AzAgent::new(config, net.clone(), agent_rng(seed, s as u8), "az".into());
            a.set_timing(true);
            a
        })
        .collect();
    let (mut rng, mut pick) = (game_rng(seed), explore_rng(seed));
    let mut state = game.new_state(&mut rng);
    let mut rec = Recorder::new(game, net.config().inputs);
    let (mut legal, mut visits) = (Vec::new(), Vec::new());
    let mut decisions = 0u32;
    let mut sampler = Sampler::new(sp.sample_every, sp.sample_by);
    while let Some(seat) = game.to_move(&state) {
        game.legal_actions(&state, &mut legal);
        let d = Decision::new(game, &state, seat, &legal);
        let mut a = agents[seat as usize].choose(&d);
        visits.clear();
        visits.extend(legal.iter().map(|&l| agents[seat as usize].root_visits(l)));
        let total: u32 = visits.iter().sum();
        if legal.len() > 1 && total > 0 {
            if sampler.keep(seat) {
                rec.row(
                    game,
                    &d,
                    seat,
                    &legal,
                    visits.iter().map(|&v| v as f32 / total as f32),
                );
                rec.root_values(agents[seat as usize].root_values());
            }
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
    let g = rec.finish(game, &o, sp.capped, sp.value_target);
    let net_time = agents.iter().map(|a| a.net_time()).sum();
    let encode_time = agents.iter().map(|a| a.encode_time()).sum();
    (
        g,
        Timing {
            total: started.elapsed(),
            net: net_time,
            encode: encode_time,
            games: 1,
            capped: u64::from(o.capped),
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
            capped: CappedValue::Draw,
            value_target: ValueTarget::Outcome,
            sample_every: 1,
            sample_by: SampleBy::Game,
            leaf: AzConfig::default(),
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

    /// A game stopped by the round cap decides nothing: with the default `draw` its rows'
    /// value targets are 0, `skip` drops its rows, `ranks` keeps the cap's tie-break order.
    #[test]
    fn capped_value_gives_capped_games_no_winner() {
        let mut params = Params::with_players(2);
        params.max_rounds = 2;
        let game = TofuShifu::with_params(params).unwrap();
        let net = Net::new(&Weights::init(NetConfig::for_game(&game, 8, 0), 1));
        let sp = |capped| SelfPlay {
            iters: 4,
            c_puct: 1.5,
            explore: 0,
            capped,
            value_target: ValueTarget::Outcome,
            sample_every: 1,
            sample_by: SampleBy::Game,
            leaf: AzConfig::default(),
        };
        let (draw, t) = play_one(&game, &net, sp(CappedValue::Draw), 5);
        assert_eq!(
            (t.games, t.capped),
            (1, 1),
            "two rounds cannot finish a game"
        );
        assert!(draw.rows() > 0 && draw.value.iter().all(|&v| v == 0.0));
        let (skip, _) = play_one(&game, &net, sp(CappedValue::Skip), 5);
        assert_eq!(skip.rows(), 0);
        let (ranks, _) = play_one(&game, &net, sp(CappedValue::Ranks), 5);
        assert_eq!(ranks.rows(), draw.rows());
        assert!(
            ranks.value.iter().any(|&v| v != 0.0),
            "the tie-break ranks the seats"
        );
        assert_eq!(ranks.input_index, draw.input_index, "the same game");
        // One decision in 3: the same game, a third of its rows.
        let third = SelfPlay {
            sample_every: 3,
            ..sp(CappedValue::Draw)
        };
        let (sampled, _) = play_one(&game, &net, third, 5);
        assert_eq!(sampled.rows(), draw.rows().div_ceil(3));
        assert_eq!(sampled.legal_len[1], draw.legal_len[3]);
    }

    /// `--value-target`: the same games, with each row's value target the game's result (z),
    /// the search's root value of each seat (q, one of its own per position), or (z + q) / 2.
    #[test]
    fn value_targets_are_the_result_the_search_or_their_mean() {
        use shifu_engine::ginza_retro_cafe::{GinzaRetroCafe, Params};
        // Ginza's games end within four rounds, even between untrained networks.
        let game = GinzaRetroCafe::with_params(Params::with_players(2)).unwrap();
        let net = Net::new(&Weights::init(NetConfig::for_game(&game, 8, 0), 1));
        let sp = |value_target| SelfPlay {
            iters: 8,
            c_puct: 1.5,
            explore: 4,
            capped: CappedValue::Draw,
            value_target,
            sample_every: 1,
            sample_by: SampleBy::Game,
            leaf: AzConfig::default(),
        };
        let (z, _) = play_one(&game, &net, sp(ValueTarget::Outcome), 3);
        let (q, _) = play_one(&game, &net, sp(ValueTarget::Search), 3);
        let (m, _) = play_one(&game, &net, sp(ValueTarget::Mix), 3);
        assert_eq!(
            z.input_index, q.input_index,
            "the target never changes a move"
        );
        assert_eq!(z.legal_policy, m.legal_policy);
        assert!(q.value.iter().all(|v| v.abs() <= 1.0));
        // z is one result per observer; q differs from position to position.
        let mine = |g: &GameSamples| g.value.chunks(2).map(|r| r[0]).collect::<Vec<f32>>();
        let (zs, qs) = (mine(&z), mine(&q));
        assert!(zs.iter().all(|v| v.abs() == 1.0), "a winner: {zs:?}");
        assert!(qs.windows(2).any(|w| w[0] != w[1]), "{qs:?}");
        assert_ne!(zs, qs);
        for ((a, b), c) in z.value.iter().zip(&q.value).zip(&m.value) {
            assert!((0.5 * (a + b) - c).abs() < 1e-6, "{a} {b} {c}");
        }
        assert_eq!(ValueTarget::Mix.combine(1.0, None), 1.0, "no search: z");
    }

    /// `--sample-by seat`: where turns alternate, one count over the game keeps one seat's
    /// decisions only (K = 2 of two alternating seats); a count per seat keeps each seat's share.
    #[test]
    fn sampling_by_seat_keeps_each_seats_share_of_the_rows() {
        let turns = [0u8, 1].repeat(10);
        let kept = |by| {
            let mut s = Sampler::new(2, by);
            let mut per_seat = [0; 2];
            for &seat in &turns {
                if s.keep(seat) {
                    per_seat[usize::from(seat)] += 1;
                }
            }
            per_seat
        };
        assert_eq!(kept(SampleBy::Game), [10, 0]);
        assert_eq!(kept(SampleBy::Seat), [5, 5]);
        // K = 1 keeps everything either way; the first decision of each seat is kept.
        let mut s = Sampler::new(1, SampleBy::Game);
        assert!(turns.iter().all(|&t| s.keep(t)));
        let mut s = Sampler::new(3, SampleBy::Seat);
        assert!(s.keep(1) && s.keep(0) && !s.keep(1) && !s.keep(0));
    }
}
