//! `shifu export`: self-play as training data for outside learners, one row per decision in a
//! `.npz` archive that `numpy.load` reads (and pandas or polars through numpy).
//!
//! Arrays (n rows, one per decision, in game order then step order):
//! - `game` (int64): the game's index in the run; `seed` (uint64): its seed;
//! - `seat` (uint8): the deciding seat; `step` (int64): the decision's index in its game;
//! - `observation` (float32, n × L): the deciding seat's encoded observation
//!   (`shifu encoding --game G` gives the layout);
//! - `mask` (uint8, n × ⌈A/8⌉): the legal actions as bits, `np.unpackbits(mask, axis=1,
//!   count=A, bitorder="little")`, A the action count;
//! - `action` (int64): the index of the action taken;
//! - `reward` (float32, n × seats): each seat's share of the win at the end (1/k for each of k
//!   winners; in a cooperative game 1 for every seat when the team wins, else 0);
//! - `score` (float32, n × seats): each seat's final score;
//! - `capped` (uint8): the game was stopped by the round cap (it decided nothing);
//! - `action_count` (int64, one value): A.
//!
//! Games run in parallel in batches and are written in game order, so the file is the same
//! whatever the thread count, and memory holds one batch of games, not the run.

use crate::games::Playable;
use crate::npz::{Dtype, NpzWriter};
use crate::play::{progress_bar, seat_specs};
use crate::runfile::{differences, fnv_hex, weights_inputs, Manifest};
use crate::setup::GameArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shifu_agents::{build_agent, check_agent, game_rng, game_seed, Decision};
use shifu_engine::Outcome;
use std::path::PathBuf;

/// Options of `shifu export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Agent spec per seat, comma-separated; one spec is used for every seat.
    #[arg(long, default_value = "random")]
    agents: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Master seed; game i plays with seed splitmix64(seed ^ splitmix64(i)), as in `play`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The archive to write (.npz; through FILE.tmp, renamed when complete).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    threads: Option<usize>,
    /// Store the arrays uncompressed (faster to load, often 20 times larger); by default they
    /// are deflated at level 1, as numpy's `savez_compressed` does.
    #[arg(long)]
    store: bool,
    /// Keep one decision in K (those whose step plus game index is a multiple of K): more
    /// games in the same rows, for games whose decisions are many and alike (`step` keeps
    /// each kept decision's index in its game).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Continue an export that was killed, from its last checkpoint in FILE.parts/ (every
    /// 2 s); the archive is the one an uninterrupted run writes. The settings must be the
    /// killed run's.
    #[arg(long)]
    resume: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// An export's settings, recorded in `FILE.parts/` and compared on `--resume`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Settings {
    /// The run's identity, as a `play` run's manifest (one shard: all games).
    #[serde(flatten)]
    run: Manifest,
    /// `--every`.
    every: u64,
    /// `--store`.
    store: bool,
}

/// Where an export stands at a checkpoint: the games written and their counts.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct Mark {
    /// Games written (0 to this index).
    games: u64,
    /// Decisions written.
    decisions: u64,
    /// Games stopped by the round cap.
    capped: u64,
}

/// Seconds between checkpoints.
const CHECKPOINT_SECONDS: u64 = 2;

/// A test hook: with `SHIFU_TEST_KILL_EXPORT_AFTER=N`, the export kills itself (SIGKILL) right
/// after the first checkpoint at N games or more, as a kill from outside would; checkpoints are
/// then taken after every batch.
const KILL_AFTER: &str = "SHIFU_TEST_KILL_EXPORT_AFTER";

/// The decisions of one game.
struct GameRows {
    seed: u64,
    seats: Vec<u8>,
    observations: Vec<f32>,
    masks: Vec<u8>,
    actions: Vec<i64>,
    outcome: Outcome,
}

pub fn run(args: ExportArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn play_recorded<G: Playable + 'static>(
    game: &G,
    specs: &[String],
    master: u64,
    index: u64,
) -> Result<GameRows> {
    let seed = game_seed(master, index);
    let mut agents = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| build_agent::<G>(spec, seed, seat as u8))
        .collect::<Result<Vec<_>, _>>()?;
    let len = game.observation_len();
    let width = game.action_count().div_ceil(8);
    let mut rows = GameRows {
        seed,
        seats: Vec::new(),
        observations: Vec::new(),
        masks: Vec::new(),
        actions: Vec::new(),
        outcome: Outcome::from_keys(0, Default::default(), &[0u8; 0], false),
    };
    let mut rng = game_rng(seed);
    let mut state = game.new_state(&mut rng);
    let mut legal = Vec::new();
    while let Some(seat) = game.to_move(&state) {
        game.legal_actions(&state, &mut legal);
        let at = rows.observations.len();
        rows.observations.resize(at + len, 0.0);
        game.encode_observation(&state, seat, &mut rows.observations[at..]);
        let at = rows.masks.len();
        rows.masks.resize(at + width, 0);
        for &a in &legal {
            let i = game.action_index(a);
            rows.masks[at + i / 8] |= 1 << (i % 8);
        }
        let a = agents[seat as usize].choose(&Decision::new(game, &state, seat, &legal));
        rows.seats.push(seat);
        rows.actions.push(game.action_index(a) as i64);
        game.apply(&mut state, a, &mut rng);
    }
    rows.outcome = game
        .outcome(&state)
        .context("a finished game has an outcome")?;
    Ok(rows)
}

/// The export's settings, as recorded for a resume.
fn settings<G: Playable>(game: &G, args: &ExportArgs, specs: &[String]) -> Result<Settings> {
    let params = game.params_toml();
    Ok(Settings {
        run: Manifest {
            version: env!("CARGO_PKG_VERSION").to_string(),
            command: std::env::args().collect(),
            game: G::INFO.name.to_string(),
            players: game.num_seats(),
            agents: specs.to_vec(),
            param_set: fnv_hex(&params)[..8].to_string(),
            params,
            data: game.data_label(),
            master_seed: args.seed,
            games: args.games,
            shard_range: (0, args.games),
            shard: "0/1".into(),
            seed_rule: "game i plays with seed splitmix64(master_seed ^ splitmix64(i)); the game's RNG is ChaCha8 stream 0 of that seed, seat s's agent stream s+1".into(),
            data_hash: fnv_hex(&game.data_text()),
            inputs: weights_inputs(specs)?,
            // The archive has no event columns.
            events: None,
        },
        every: args.every,
        store: args.store,
    })
}

/// Opens the archive: fresh, or (with `--resume`) continued from a killed export's last
/// checkpoint when its settings are these. Returns the writer and where it stands.
fn open_archive(
    args: &ExportArgs,
    columns: &[(&'static str, Dtype, Option<usize>)],
    settings: &Settings,
) -> Result<(NpzWriter, Mark)> {
    let text = serde_json::to_string_pretty(settings)?;
    let leftover = if args.resume {
        NpzWriter::leftover(&args.out)?
    } else {
        None
    };
    let Some(left) = leftover else {
        if args.resume {
            eprintln!(
                "--resume: no export to continue at {}; starting fresh",
                args.out.display()
            );
        }
        let npz = NpzWriter::create(&args.out, columns, !args.store, &text)?;
        return Ok((npz, Mark::default()));
    };
    let old: Settings = serde_json::from_str(&left.settings)
        .context("--resume: the killed export's settings cannot be read")?;
    let mut d = differences(&old.run, &settings.run);
    if old.every != settings.every {
        d.push("--every".into());
    }
    if old.store != settings.store {
        d.push("--store".into());
    }
    if !d.is_empty() {
        bail!(
            "--resume: the export at {} was started with a different {}; run it with the same settings, or without --resume to start over",
            args.out.display(),
            d.join(", ")
        );
    }
    let Some(checkpoint) = left.checkpoint else {
        eprintln!("--resume: the killed export reached no checkpoint; starting fresh");
        let npz = NpzWriter::create(&args.out, columns, !args.store, &text)?;
        return Ok((npz, Mark::default()));
    };
    let mark: Mark = serde_json::from_value(checkpoint.mark.clone())
        .context("--resume: the killed export's checkpoint cannot be read")?;
    if mark.games > args.games {
        bail!("--resume: the checkpoint holds more games than --games");
    }
    let npz = NpzWriter::resume(&args.out, columns, !args.store, &checkpoint)?;
    eprintln!(
        "--resume: continuing {} after game {} of {}",
        args.out.display(),
        mark.games,
        args.games
    );
    Ok((npz, mark))
}

fn run_game<G: Playable + 'static>(args: &ExportArgs) -> Result<()> {
    let game: G = args.game.build()?;
    let seats = game.num_seats();
    let specs = seat_specs(&args.agents, seats)?;
    // Refuse a bad spec before any file is touched.
    for spec in &specs {
        check_agent(&game, spec)?;
    }
    if args.games == 0 {
        bail!("--games 0: nothing to export");
    }
    let (len, actions) = (game.observation_len(), game.action_count());
    let columns = archive_columns(len, actions, seats);
    let settings = settings(&game, args, &specs)?;
    let (mut npz, mut mark) = open_archive(args, &columns, &settings)?;
    let started = std::time::Instant::now();
    export_games(&game, args, &specs, &mut npz, &mut mark)?;
    npz.columns[10].i64(actions as i64)?;
    let rows = npz.finish()?;
    debug_assert_eq!(rows, mark.decisions);
    println!(
        "wrote {}: {} decisions from {} games of {} ({} players, agents {}), {} observation values and {} action indices a row; {:.1} s",
        args.out.display(),
        rows,
        args.games,
        G::INFO.name,
        seats,
        args.agents,
        len,
        actions,
        started.elapsed().as_secs_f64()
    );
    println!(
        "{}",
        crate::stats::capped_share(mark.capped, args.games, game.max_rounds())
    );
    if let Some(w) = crate::stats::capped_warning(mark.capped, args.games, game.max_rounds()) {
        eprintln!("{w}");
    }
    Ok(())
}

/// The archive's columns: name, type and values a row (`None`: one). `action_count` (the last)
/// holds one row, written at the end.
fn archive_columns(
    len: usize,
    actions: usize,
    seats: usize,
) -> [(&'static str, Dtype, Option<usize>); 11] {
    [
        ("game", Dtype::I64, None),
        ("seed", Dtype::U64, None),
        ("seat", Dtype::U8, None),
        ("step", Dtype::I64, None),
        ("observation", Dtype::F32, Some(len)),
        ("mask", Dtype::U8, Some(actions.div_ceil(8))),
        ("action", Dtype::I64, None),
        ("reward", Dtype::F32, Some(seats)),
        ("score", Dtype::F32, Some(seats)),
        ("capped", Dtype::U8, None),
        ("action_count", Dtype::I64, None),
    ]
}

/// Plays the games from `mark` on, in batches over the thread pool, writing each game's rows in
/// order and checkpointing the archive every [`CHECKPOINT_SECONDS`].
fn export_games<G: Playable + 'static>(
    game: &G,
    args: &ExportArgs,
    specs: &[String],
    npz: &mut NpzWriter,
    mark: &mut Mark,
) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let batch = 4 * pool.current_num_threads() as u64;
    let bar = progress_bar(args.games, args.quiet);
    bar.set_position(mark.games);
    let kill_after: Option<u64> = std::env::var(KILL_AFTER).ok().and_then(|v| v.parse().ok());
    let mut saved = std::time::Instant::now();
    while mark.games < args.games {
        let (first, last) = (mark.games, (mark.games + batch).min(args.games));
        let games: Vec<GameRows> = pool.install(|| {
            (first..last)
                .into_par_iter()
                .map(|i| play_recorded(game, specs, args.seed, i))
                .collect::<Result<_>>()
        })?;
        for (k, g) in games.iter().enumerate() {
            let seats = game.num_seats();
            mark.decisions += write_game(npz, first + k as u64, g, seats, args.every)?;
            mark.capped += u64::from(g.outcome.capped);
        }
        mark.games = last;
        bar.inc(last - first);
        if kill_after.is_some() || saved.elapsed().as_secs() >= CHECKPOINT_SECONDS {
            npz.checkpoint(serde_json::to_value(*mark)?)?;
            saved = std::time::Instant::now();
            if kill_after.is_some_and(|n| last >= n) {
                crate::runner::kill_self();
            }
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// Writes game `index`'s decisions (one in `every`) and returns how many it wrote.
fn write_game(
    npz: &mut NpzWriter,
    index: u64,
    g: &GameRows,
    seats: usize,
    every: u64,
) -> Result<u64> {
    let n = g.seats.len();
    let o = &g.outcome;
    let reward: Vec<f32> = (0..seats)
        .map(|s| o.learner_reward(s as u8) as f32)
        .collect();
    let score: Vec<f32> = o.score[..seats].iter().map(|&x| x as f32).collect();
    let len = g.observations.len() / n.max(1);
    let width = g.masks.len() / n.max(1);
    let c = &mut npz.columns;
    let mut kept = 0;
    for step in 0..n {
        if !(step as u64 + index).is_multiple_of(every) {
            continue;
        }
        kept += 1;
        c[0].i64(index as i64)?;
        c[1].u64(g.seed)?;
        c[2].u8s(&g.seats[step..step + 1])?;
        c[3].i64(step as i64)?;
        c[4].f32s(&g.observations[step * len..(step + 1) * len])?;
        c[5].u8s(&g.masks[step * width..(step + 1) * width])?;
        c[6].i64(g.actions[step])?;
        c[7].f32s(&reward)?;
        c[8].f32s(&score)?;
        c[9].u8s(&[u8::from(o.capped)])?;
    }
    Ok(kept)
}
