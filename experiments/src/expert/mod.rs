//! `shifu train --method expert-iteration`: AlphaZero-style training of a policy-value network
//! ([`shifu_net`]) for the `az:` agent.
//!
//! Optionally, first a **warm start** ([`warm`]): the untrained network imitates an agent's
//! moves (`--warm-agent greedy --warm-games N`) so that its search finishes games.
//!
//! Each iteration:
//! 1. **Self-play** ([`selfplay`]): `--games` games of the incumbent's determinized PUCT search
//!    (its leaves valued by the network, or as `--search-options` says, for example by greedy
//!    rollouts), sharded over `--threads` (game j of iteration i from the seed, i and j
//!    alone), recording relative observations, legal actions, root visit shares and final
//!    outcomes (a game stopped by the round cap decides nothing: `--capped-value`), or the
//!    search's root values as value targets (`--value-target`).
//! 2. **Buffer** ([`buffer`]): the positions of the last `--buffer` games.
//! 3. **Training** ([`learn`]): `--epochs` passes of AdamW over the buffer, from the last
//!    candidate, with a fresh optimiser; NaN steps are reported and skipped.
//! 4. **Gating** ([`gate`]): the candidate plays the incumbent, seats rotated, until the SPRT
//!    ([`crate::sprt`]) decides or `--duel-games` games are played; it replaces the incumbent
//!    only on H1 (at the cap, the incumbent stays). In a cooperative game the two networks'
//!    teams play the same seeds instead ([`gate`]).
//! 5. **Checkpoint** ([`checkpoint`]) and the Elo curve ([`curve`]).

pub mod buffer;
pub mod checkpoint;
pub mod curve;
pub mod gate;
pub mod learn;
pub mod selfplay;
pub mod warm;

use crate::games::Playable;
use crate::runner::progress_bar;
use crate::sprt::Sprt;
use crate::train::TrainArgs;
use anyhow::{bail, Context, Result};
use buffer::Buffer;
use checkpoint::{Row, Settings, State};
use clap::Args;
use selfplay::{CappedValue, SampleBy, SelfPlay, Timing, ValueTarget};
use serde::Serialize;
use shifu_agents::{az_search_options, splitmix64, AzConfig};
use shifu_net::{Net, NetConfig, Weights};
use std::time::Instant;

/// Options of `shifu train` used only by `--method expert-iteration`.
#[derive(Args, Debug, Clone)]
pub struct ExpertArgs {
    /// Expert iteration: PUCT iterations per decision, in self-play and in the gate.
    #[arg(long, default_value_t = 64)]
    pub search_iters: u32,
    /// Expert iteration: PUCT's exploration constant.
    #[arg(long, default_value_t = 1.5)]
    pub c_puct: f32,
    /// Expert iteration: how the search values a leaf, as the `az:` agent's options (for
    /// example `rollout=1,rollout_by=greedy`: greedy rollouts instead of the network's value),
    /// in self-play, the gate and the match against greedy. Default: the network's value.
    #[arg(long, value_name = "AZ_OPTIONS")]
    pub search_options: Option<String>,
    /// Expert iteration: decisions per self-play game, from the start, whose move is drawn in
    /// proportion to the root visits (later ones take the most visited).
    #[arg(long, default_value_t = 30)]
    pub explore: u32,
    /// Expert iteration: games whose positions the replay buffer keeps (a sliding window).
    #[arg(long, default_value_t = 256)]
    pub buffer: usize,
    /// Expert iteration: training passes over the buffer per iteration.
    #[arg(long, default_value_t = 2)]
    pub epochs: usize,
    /// Expert iteration: positions per training step.
    #[arg(long, default_value_t = 128)]
    pub batch: usize,
    /// Expert iteration: AdamW's learning rate.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// Expert iteration: width of the network's hidden layers (1 to 4096).
    #[arg(long, default_value_t = shifu_net::DEFAULT_HIDDEN)]
    pub hidden: usize,
    /// Expert iteration: the network's residual blocks (0 to 16).
    #[arg(long, default_value_t = shifu_net::DEFAULT_BLOCKS)]
    pub blocks: usize,
    /// Expert iteration: the gate's SPRT H0, an Elo difference (candidate minus incumbent).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub elo0: f64,
    /// Expert iteration: the gate's SPRT H1, an Elo difference above --elo0.
    #[arg(long, default_value_t = 40.0, allow_hyphen_values = true)]
    pub elo1: f64,
    /// Expert iteration: the gate's probability of rejecting a candidate --elo1 stronger (its
    /// false-acceptance rate is --alpha).
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Expert iteration: games of each accepted or rejected incumbent against `greedy` per
    /// iteration, for the curve (0: none).
    #[arg(long, default_value_t = 0)]
    pub eval_games: u64,
    /// Expert iteration: one self-play decision in this many becomes a buffer row (a game's
    /// positions share one result; see the README).
    #[arg(long, default_value_t = 1)]
    pub sample_every: u32,
    /// Expert iteration: whose decisions the one-in-K counts of --sample-every and --warm-every
    /// run over: each seat's apart (`seat`), or every seat's in turn order (`game`, which can
    /// favour one seat where turns alternate; the committed bots' scripts give it).
    #[arg(long, value_enum, default_value = "seat")]
    pub sample_by: SampleBy,
    /// Expert iteration: the value target of a self-play game stopped by the round cap (`draw`:
    /// 0 for every seat; `skip`: leave its positions out; `ranks`: the cap's tie-break order).
    #[arg(long, value_enum, default_value = "draw")]
    pub capped_value: CappedValue,
    /// Expert iteration: the value target of a self-play position: the game's result
    /// (`outcome`, AlphaZero's z), the search's mean value of every seat at that decision's
    /// root (`search`, q), or their mean (`mix`). A capped game's result is as --capped-value
    /// says; its q is kept. The warm start's targets are results.
    #[arg(long, value_enum, default_value = "outcome")]
    pub value_target: ValueTarget,
    /// Expert iteration: before the first iteration, train the network to imitate this agent
    /// (for example `greedy`) over --warm-games games of it in every seat.
    #[arg(long, value_name = "SPEC")]
    pub warm_agent: Option<String>,
    /// Expert iteration: games of --warm-agent to imitate (0: no warm start).
    #[arg(long, default_value_t = 0)]
    pub warm_games: u64,
    /// Expert iteration: training passes over the warm start's positions.
    #[arg(long, default_value_t = 4)]
    pub warm_epochs: usize,
    /// Expert iteration: the warm start keeps one decision in this many from each game (a
    /// game's positions share its one result; see the README).
    #[arg(long, default_value_t = 8)]
    pub warm_every: u32,
}

/// The warm start's seed stream (apart from every iteration's).
fn warm_stream(seed: u64) -> u64 {
    splitmix64(seed ^ 0x7761_726d_7374_6172)
}

/// One of an iteration's seed streams (0: self-play, 1: gate, 2: training, 3: greedy match).
fn stream(seed: u64, iteration: usize, purpose: u64) -> u64 {
    splitmix64(seed ^ splitmix64(((iteration as u64) << 2) | purpose))
}

/// The settings checked, and the gate's SPRT among `rated` players ([`gate::rated_players`]);
/// `coop`: the game is cooperative.
fn check(t: &TrainArgs, n: usize, rated: usize, coop: bool) -> Result<Sprt> {
    let e = &t.expert;
    if t.generations == 0 || t.games == 0 {
        bail!("--generations (iterations) and --games (self-play games per iteration) must be at least 1");
    }
    if e.search_iters == 0 || e.search_iters > 1_000_000 {
        bail!("--search-iters {}: give 1 to 1000000", e.search_iters);
    }
    if !(e.c_puct.is_finite() && e.c_puct > 0.0) {
        bail!("--c-puct {}: give a positive number", e.c_puct);
    }
    if e.buffer == 0 || e.epochs == 0 || e.batch == 0 {
        bail!(
            "--buffer {}, --epochs {}, --batch {}: each must be at least 1",
            e.buffer,
            e.epochs,
            e.batch
        );
    }
    if !(e.lr.is_finite() && e.lr > 0.0 && e.lr <= 10.0) {
        bail!("--lr {}: give a learning rate above 0 and at most 10", e.lr);
    }
    if !(1..=4096).contains(&e.hidden) {
        bail!("--hidden {} is not from 1 to 4096", e.hidden);
    }
    if e.blocks > 16 {
        bail!("--blocks {} is more than 16", e.blocks);
    }
    // A cooperative game's gate plays seeds, each by both teams, so any count will do.
    let rotation = if coop { 1 } else { n as u64 };
    if t.duel_games == 0 || !t.duel_games.is_multiple_of(rotation) {
        bail!(
            "--duel-games {}: the gate's game cap; give a positive multiple of the {n} players",
            t.duel_games
        );
    }
    match (&e.warm_agent, e.warm_games) {
        (Some(_), 0) => bail!("--warm-agent needs --warm-games above 0"),
        (None, g) if g > 0 => bail!("--warm-games {g} needs --warm-agent (the agent to imitate)"),
        _ => {}
    }
    if !(1..=1000).contains(&e.warm_epochs) {
        bail!("--warm-epochs {}: give 1 to 1000", e.warm_epochs);
    }
    for (flag, k) in [
        ("--warm-every", e.warm_every),
        ("--sample-every", e.sample_every),
    ] {
        if !(1..=10_000).contains(&k) {
            bail!("{flag} {k}: give 1 to 10000");
        }
    }
    // The warm start holds its rows in memory: about 30 to 60 a game of Tofu Shifu at one
    // decision in 8, a few kB each.
    if e.warm_games.div_ceil(u64::from(e.warm_every)) > 20_000 {
        bail!(
            "--warm-games {} at --warm-every {}: more than 20000 games' worth of every decision (about 10 GB of rows); keep fewer games or fewer decisions a game",
            e.warm_games,
            e.warm_every
        );
    }
    if let Some(spec) = &e.warm_agent {
        if spec
            .split([',', ':'])
            .any(|o| o.strip_prefix("time_ms=").is_some_and(|v| v.trim() != "0"))
        {
            bail!("--warm-agent {spec}: a time budget makes the warm start depend on the machine's load; give the agent an iteration budget");
        }
    }
    leaf(e)?;
    let sprt = Sprt::new(e.elo0, e.elo1, t.alpha, e.beta, rated).map_err(anyhow::Error::msg)?;
    crate::runfile::check_writable_target(&t.out.join("checkpoint.json"))?;
    Ok(sprt)
}

/// The search's leaf options from `--search-options` (the default: the network's value alone).
fn leaf(e: &ExpertArgs) -> Result<AzConfig> {
    match &e.search_options {
        None => Ok(AzConfig::default()),
        Some(o) => az_search_options(o).with_context(|| format!("--search-options {o}")),
    }
}

fn settings(t: &TrainArgs, game: &str, n: usize) -> Settings {
    let e = &t.expert;
    Settings {
        game: game.into(),
        players: n,
        params: t.game.set.join(" "),
        games: t.games,
        search_iters: e.search_iters,
        c_puct: e.c_puct,
        explore: e.explore,
        buffer: e.buffer,
        epochs: e.epochs,
        batch: e.batch,
        lr: e.lr,
        hidden: e.hidden,
        blocks: e.blocks,
        elo0: e.elo0,
        elo1: e.elo1,
        alpha: t.alpha,
        beta: e.beta,
        gate_games: t.duel_games,
        eval_games: e.eval_games,
        seed: t.seed,
        capped_value: e.capped_value,
        warm_agent: e.warm_agent.clone(),
        warm_games: e.warm_games,
        warm_epochs: if e.warm_games > 0 { e.warm_epochs } else { 0 },
        warm_every: if e.warm_games > 0 { e.warm_every } else { 0 },
        sample_every: e.sample_every,
        sample_by: e.sample_by,
        search_options: e.search_options.clone().unwrap_or_default(),
        value_target: e.value_target,
    }
}

/// The state a run starts from: the checkpoint's on `--resume`, or an untrained network from
/// `--seed` (a new run never overwrites a checkpoint).
fn open(t: &TrainArgs, s: &Settings, first: &Weights, empty: Buffer) -> Result<State> {
    let path = t.out.join("checkpoint.json");
    if t.resume {
        if !t.out.is_dir() {
            bail!(
                "--resume: {} is not a folder with a checkpoint",
                t.out.display()
            );
        }
        if path.exists() {
            return checkpoint::load(&t.out, s, &empty);
        }
        eprintln!(
            "--resume: no checkpoint {} yet (the run ended before its first); starting fresh",
            path.display()
        );
    } else if path.exists() {
        bail!(
            "{} exists: continue it with --resume, or choose another --out",
            path.display()
        );
    }
    std::fs::create_dir_all(&t.out)
        .with_context(|| format!("--out: cannot create {}", t.out.display()))?;
    Ok(State {
        incumbent: first.clone(),
        candidate: first.clone(),
        buffer: empty,
        rows: Vec::new(),
        warm: None,
    })
}

/// What an expert-iteration run ends with.
#[derive(Debug, Clone, Serialize)]
pub struct ExpertResult {
    /// The game.
    pub game: String,
    /// Its player count.
    pub players: usize,
    /// Iterations done (all runs of this output folder).
    pub iterations: usize,
    /// Candidates accepted.
    pub accepted: usize,
    /// Positions in the replay buffer.
    pub positions: usize,
    /// The warm start, when the run had one.
    pub warm: Option<warm::Warm>,
    /// Share of this process's self-play time outside the network (game, encoding, tree).
    pub game_share: f64,
    /// Of it, the share encoding positions for the network.
    pub encode_share: f64,
    /// Seconds (this process).
    pub seconds: f64,
    /// The output folder.
    pub out: String,
    /// One row per iteration (as in curve.csv).
    pub curve: Vec<Row>,
}

/// Runs `shifu train --method expert-iteration` for game `G`.
pub fn run<G: Playable + 'static>(t: &TrainArgs) -> Result<ExpertResult> {
    let game: G = t.game.build()?;
    let n = game.num_seats();
    let sprt = check(t, n, gate::rated_players(&game), G::INFO.cooperative)?;
    let e = &t.expert;
    if let Some(spec) = &e.warm_agent {
        warm::check_agent::<G>(spec)?;
    }
    let s = settings(t, G::INFO.name, n);
    let config = NetConfig::for_game(&game, e.hidden, e.blocks);
    let first = Weights::init(config.clone(), t.seed);
    let empty = Buffer::new(config.inputs, config.actions, config.values(), e.buffer);
    let mut st = open(t, &s, &first, empty)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(t.threads.unwrap_or(0))
        .build()?;
    let per_iter = t.games + t.duel_games + e.eval_games;
    let todo = t.generations.saturating_sub(st.rows.len());
    let warm_todo = if st.rows.is_empty() { e.warm_games } else { 0 };
    let bar = progress_bar(warm_todo + todo as u64 * per_iter, t.quiet);
    let started = Instant::now();
    let mut timing = Timing::default();
    let sp = SelfPlay {
        iters: e.search_iters,
        c_puct: e.c_puct,
        explore: e.explore,
        capped: e.capped_value,
        value_target: e.value_target,
        sample_every: e.sample_every,
        sample_by: e.sample_by,
        leaf: leaf(e)?,
    };
    if let (Some(spec), true) = (&e.warm_agent, warm_todo > 0) {
        let l = learn::Learn {
            epochs: e.warm_epochs,
            batch: e.batch,
            lr: e.lr,
        };
        let inc = || bar.inc(1);
        let (w, warm) = warm::warm_start(
            &game,
            &st.candidate,
            spec,
            e.warm_games,
            e.warm_every,
            e.sample_by,
            l,
            e.capped_value,
            warm_stream(t.seed),
            &pool,
            &inc,
        )?;
        st.incumbent = w.clone();
        st.candidate = w;
        st.warm = Some(warm);
    }
    for it in st.rows.len()..t.generations {
        let row = iteration(t, &game, &sprt, sp, &mut st, it, &pool, &bar, &mut timing)?;
        st.rows.push(Row {
            elapsed_s: started.elapsed().as_secs_f64(),
            ..row
        });
        checkpoint::save(&t.out, &s, &st)?;
        curve::write(&t.out, G::INFO.name, &st.rows)?;
        bar.set_position(warm_todo + (it + 1 - (t.generations - todo)) as u64 * per_iter);
    }
    bar.finish_and_clear();
    if todo == 0 {
        eprintln!(
            "{}: {} iterations already done",
            t.out.display(),
            st.rows.len()
        );
    }
    Ok(ExpertResult {
        game: G::INFO.name.into(),
        players: n,
        iterations: st.rows.len(),
        accepted: st.rows.iter().filter(|r| r.accepted).count(),
        positions: st.buffer.positions(),
        warm: st.warm.clone(),
        game_share: timing.game_share(),
        encode_share: timing.encode_share(),
        seconds: started.elapsed().as_secs_f64(),
        out: t.out.display().to_string(),
        curve: st.rows,
    })
}

/// One iteration (see the module doc); returns its row, the state updated.
#[allow(clippy::too_many_arguments)]
fn iteration<G: Playable + 'static>(
    t: &TrainArgs,
    game: &G,
    sprt: &Sprt,
    sp: SelfPlay,
    st: &mut State,
    it: usize,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
    timing: &mut Timing,
) -> Result<Row> {
    let (e, n) = (&t.expert, gate::rated_players(game));
    let inc = || bar.inc(1);
    let incumbent = Net::new(&st.incumbent);
    let (games, tm) = selfplay::play_many(
        game,
        &incumbent,
        sp,
        stream(t.seed, it, 0),
        t.games,
        pool,
        &inc,
    );
    timing.add(tm);
    for g in games {
        st.buffer.push(g);
    }
    let l = learn::Learn {
        epochs: e.epochs,
        batch: e.batch,
        lr: e.lr,
    };
    let (candidate, learned) = learn::learn(&st.candidate, &st.buffer, l, stream(t.seed, it, 2))?;
    st.candidate = candidate;
    let cand = Net::new(&st.candidate);
    let g = gate::gate(
        game,
        &cand,
        &incumbent,
        sp,
        sprt,
        t.duel_games,
        stream(t.seed, it, 1),
        pool,
        &inc,
    );
    let (gate_elo, gate_lo, gate_hi) = g.score.elo(n);
    let prev = st.rows.last().cloned().unwrap_or_default();
    let (mut elo, mut var) = (
        prev.elo_vs_first,
        ((prev.elo_vs_first_hi - prev.elo_vs_first_lo) / 3.92).powi(2),
    );
    if g.accepted() {
        st.incumbent = st.candidate.clone();
        elo += gate_elo;
        var += ((gate_hi - gate_lo) / 3.92).powi(2);
    }
    let greedy = (e.eval_games > 0).then(|| {
        let net = Net::new(&st.incumbent);
        gate::versus_greedy(
            game,
            &net,
            sp,
            e.eval_games,
            stream(t.seed, it, 3),
            pool,
            &inc,
        )
    });
    let ge = greedy.map(|(s, _)| s.elo(n));
    Ok(Row {
        iteration: it + 1,
        positions: st.buffer.positions(),
        policy_loss: learned.policy_loss,
        value_loss: learned.value_loss,
        nan_steps: learned.nan_steps,
        gate_games: g.score.games,
        gate_score: g.score.mean,
        gate_elo,
        gate_lo,
        gate_hi,
        llr: g.llr,
        verdict: g.verdict.clone(),
        accepted: g.accepted(),
        accepted_total: prev.accepted_total + usize::from(g.accepted()),
        elo_vs_first: elo,
        elo_vs_first_lo: elo - 1.959_964 * var.sqrt(),
        elo_vs_first_hi: elo + 1.959_964 * var.sqrt(),
        greedy_games: e.eval_games,
        greedy_score: greedy.map(|(s, _)| s.mean),
        greedy_elo: ge.map(|x| x.0),
        greedy_lo: ge.map(|x| x.1),
        greedy_hi: ge.map(|x| x.2),
        game_share: tm.game_share(),
        selfplay_s: tm.total.as_secs_f64(),
        elapsed_s: 0.0,
        selfplay_games: tm.games,
        selfplay_capped: tm.capped,
        gate_capped: g.capped,
        greedy_capped: greedy.map_or(0, |(_, c)| c),
        encode_share: tm.encode_share(),
    })
}

impl std::fmt::Display for ExpertResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} at {} players, expert iteration: {} iterations, {} candidates accepted, {} positions in the buffer; {:.1} s",
            self.game, self.players, self.iterations, self.accepted, self.positions, self.seconds
        )?;
        writeln!(
            f,
            "self-play time: {:.1}% in the network's forward passes, {:.1}% outside them: {:.1}% encoding positions for the network, {:.1}% the game and the tree",
            100.0 * (1.0 - self.game_share),
            100.0 * self.game_share,
            100.0 * self.encode_share,
            100.0 * (self.game_share - self.encode_share).max(0.0)
        )?;
        if let Some(w) = &self.warm {
            writeln!(
                f,
                "warm start: imitated {} over {} games ({} capped), one decision in {}: {} positions, {} epochs: policy loss {:.3}, value loss {:.3}; {:.1} s",
                w.agent, w.games, w.capped, w.every, w.positions, w.epochs, w.policy_loss, w.value_loss, w.seconds
            )?;
            if w.held_out_games > 0 {
                writeln!(
                    f,
                    "  on {} held-out games: policy loss {:.3}, value loss {:.3}, the agent's move ranked first in {:.1}% of positions",
                    w.held_out_games,
                    w.held_out_policy_loss,
                    w.held_out_value_loss,
                    100.0 * w.held_out_agreement
                )?;
            }
        }
        writeln!(f, "\niter  positions  capped  p-loss  v-loss  gate games  score  elo [95%]          verdict  elo vs first")?;
        for r in &self.curve {
            writeln!(
                f,
                "{:>4} {:>10} {:>7} {:>7.3} {:>7.3} {:>11} {:>6.3}  {:>+5.0} [{:+.0}, {:+.0}] {:>8}  {:>+5.0}",
                r.iteration,
                r.positions,
                format!("{}/{}", r.selfplay_capped, r.selfplay_games),
                r.policy_loss,
                r.value_loss,
                r.gate_games,
                r.gate_score,
                r.gate_elo,
                r.gate_lo,
                r.gate_hi,
                r.verdict,
                r.elo_vs_first
            )?;
        }
        writeln!(
            f,
            "\nwrote {}: incumbent.safetensors (play it with az:model=...), candidate.safetensors, curve.csv, curve.svg, checkpoint.json, state/",
            self.out
        )
    }
}
