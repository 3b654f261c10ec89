//! `shifu fit`: fits a learned evaluation (a value model of the encoded observation) to an
//! export of self-play, on final outcomes or TD(λ) returns, for MCTS's depth cut
//! (`mcts:...,leaf=model.json`).

use crate::games::Playable;
use crate::npz::{read_array, read_f32_rows};
use crate::setup::GameArgs;
use anyhow::{bail, Result};
use clap::Args;
use shifu_agents::learned::{fit, Dataset, FitOptions, FitReport, ValueModel};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Options of `shifu fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The export to learn from (`shifu export`, same game and player count).
    #[arg(long, value_name = "FILE.npz")]
    input: PathBuf,
    /// The model file to write (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Hidden units (0: a linear model).
    #[arg(long, default_value_t = 32)]
    hidden: usize,
    /// Targets: the final reward (`outcome`, Monte Carlo) or TD(λ) returns (`td`).
    #[arg(long, default_value = "outcome", value_parser = ["outcome", "td"])]
    target: String,
    /// λ of the TD(λ) returns.
    #[arg(long, default_value_t = 0.8)]
    lambda: f32,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.003)]
    lr: f32,
    /// Rows per step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Start from this model (a generate-fit-evaluate loop's previous round) instead of fresh
    /// weights; its game and input length must match, and it sets the hidden units.
    #[arg(long, value_name = "MODEL.json")]
    init: Option<PathBuf>,
    /// Seed of the initial weights and the shuffling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The most observation bytes held in memory (default 1 GiB). A larger export is sampled
    /// by whole games, read as a stream, and the note says how many games were kept; raise
    /// it to fit on more, or export with `--every K` to spread the same rows over more games.
    #[arg(long, default_value_t = 1 << 30)]
    max_bytes: u64,
}

pub fn run(args: FitArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn run_game<G: Playable>(args: &FitArgs) -> Result<()> {
    let game: G = args.game.build()?;
    if !(args.lambda.is_finite() && (0.0..=1.0).contains(&args.lambda)) {
        bail!("--lambda {}: give a value from 0 to 1", args.lambda);
    }
    if !(args.lr.is_finite() && args.lr > 0.0) || args.epochs == 0 || args.batch == 0 {
        bail!("--lr must be > 0, --epochs and --batch at least 1");
    }
    crate::runfile::check_writable_target(&args.out)?;
    let (data, sample) = load(args, game.observation_len(), game.num_seats())?;
    let mut model = initial_model(args, game.name(), data.inputs)?;
    let hidden = model.hidden;
    let lambda = (args.target == "td").then_some(args.lambda);
    let started = std::time::Instant::now();
    let report = fit(
        &mut model,
        &data,
        &FitOptions {
            epochs: args.epochs,
            lr: args.lr,
            batch: args.batch,
            lambda,
            seed: args.seed,
        },
    );
    model.note = note(args, &sample, &report, hidden, lambda);
    shifu_engine::files::write_atomic(&args.out, model.to_json().as_bytes())?;
    println!("{}", model.note);
    println!(
        "training MSE {:.5}; {:.1} s; wrote {} (use it as mcts:...,leaf={})",
        report.train_mse,
        started.elapsed().as_secs_f64(),
        args.out.display(),
        args.out.display()
    );
    Ok(())
}

/// The model to train: a new one, or `--init`'s (which must fit this export).
fn initial_model(args: &FitArgs, game: &str, inputs: usize) -> Result<ValueModel> {
    let Some(path) = &args.init else {
        return Ok(ValueModel::new(game, inputs, args.hidden, args.seed));
    };
    let m = ValueModel::load(path).map_err(anyhow::Error::msg)?;
    if m.game != game || m.inputs != inputs {
        bail!(
            "--init {}: a model of {} observations of {} values; this export is {game} with {inputs}",
            path.display(),
            m.game,
            m.inputs,
        );
    }
    Ok(m)
}

/// The model's note: what it was fitted on and how well.
fn note(
    args: &FitArgs,
    sample: &Sample,
    report: &FitReport,
    hidden: usize,
    lambda: Option<f32>,
) -> String {
    let sampled = if sample.kept_games < sample.games {
        format!(
            " (a sample of {} of its {} games, to keep observations within --max-bytes {})",
            sample.kept_games, sample.games, args.max_bytes
        )
    } else {
        String::new()
    };
    format!(
        "shifu fit on {}{sampled}{}: {} rows ({} held out), {} hidden units, target {}{}, {} epochs; held-out MSE {:.5} against {:.5} for the mean",
        args.input.display(),
        args.init
            .as_ref()
            .map(|p| format!(" from {}", p.display()))
            .unwrap_or_default(),
        report.train_rows,
        report.held_out_rows,
        hidden,
        args.target,
        lambda.map(|l| format!(" (lambda {l})")).unwrap_or_default(),
        args.epochs,
        report.held_out_mse,
        report.baseline_mse
    )
}

/// The export's rows of games that ended by the rules (capped games decide nothing), each with
/// the deciding seat's final reward; one game in ten held out. Games past `--max-bytes` of
/// observations are left out (see [`sample_games`]); the second value says how many were kept.
fn load(args: &FitArgs, len: usize, seats: usize) -> Result<(Dataset, Sample)> {
    let path = &args.input;
    // The small columns first (8 bytes a row each): they say which rows the sample keeps.
    let game_col = read_array(path, "game", 1 << 30)?;
    let rows = game_col.shape[0];
    let small = 64 * rows as u64 + (1 << 20);
    let column = |name: &str| -> Result<Vec<i64>> {
        let a = read_array(path, name, small)?;
        let v = a.i64s()?;
        if v.len() != rows {
            bail!(
                "{}: array `{name}` has {} rows, not {rows}",
                path.display(),
                v.len()
            );
        }
        Ok(v)
    };
    let games = game_col.i64s()?;
    let (seat, step, capped) = (column("seat")?, column("step")?, column("capped")?);
    let reward = read_array(path, "reward", small)?;
    if reward.shape != [rows, seats] {
        bail!(
            "{}: rewards of shape {:?}, not [{rows}, {seats}]",
            path.display(),
            reward.shape
        );
    }
    let reward = reward.f32s()?;
    let row_bytes = 4 * len as u64;
    let (keep, sample) = sample_games(&games, &capped, row_bytes, args.max_bytes, args.seed);
    if sample.kept_games == 0 && sample.games > 0 {
        bail!(
            "{}: --max-bytes {} holds no whole game's observations; raise it, or export with --every K",
            path.display(),
            args.max_bytes
        );
    }
    // Every kept row is a row of the dataset, in order: the observations are used as read.
    let (shape, x) = read_f32_rows(path, "observation", args.max_bytes, |i| keep[i])?;
    if shape.len() != 2 || shape[1] != len {
        bail!(
            "{}: observations of {:?} values; {} encodes {len} (export the same game and player count)",
            path.display(),
            shape,
            args.game.game
        );
    }
    let cols = Columns {
        games: &games,
        seat: &seat,
        step: &step,
        reward: &reward,
        keep: &keep,
    };
    let data = dataset(path, &cols, x, len, seats)?;
    Ok((data, sample))
}

/// The small columns of an export, one entry a row, and which rows the sample keeps.
struct Columns<'a> {
    games: &'a [i64],
    seat: &'a [i64],
    step: &'a [i64],
    reward: &'a [f32],
    keep: &'a [bool],
}

/// The dataset of the kept rows: `x` holds their observations (`len` values each), in order.
fn dataset(
    path: &std::path::Path,
    c: &Columns<'_>,
    x: Vec<f32>,
    len: usize,
    seats: usize,
) -> Result<Dataset> {
    let mut r = Vec::new();
    let mut held_out = Vec::new();
    let mut chains: BTreeMap<(i64, i64), Vec<(i64, usize)>> = BTreeMap::new();
    let mut at = 0;
    for i in 0..c.games.len() {
        let s = c.seat[i];
        if !c.keep[i] {
            continue;
        }
        let x_row = &x[at * len..(at + 1) * len];
        at += 1;
        let won = usize::try_from(s)
            .ok()
            .filter(|&s| s < seats)
            .map(|s| c.reward[i * seats + s]);
        if !won.is_some_and(|r| (0.0..=1.0).contains(&r)) || !x_row.iter().all(|v| v.is_finite()) {
            bail!(
                "{}: row {i} has a seat, a reward (0 to 1) or an observation out of range",
                path.display()
            );
        }
        let k = r.len();
        r.push(won.unwrap_or_default());
        held_out.push(c.games[i].rem_euclid(10) == 0);
        chains
            .entry((c.games[i], s))
            .or_default()
            .push((c.step[i], k));
    }
    if r.is_empty() {
        bail!(
            "{}: no decision from a game that ended by the rules",
            path.display()
        );
    }
    Ok(Dataset {
        inputs: len,
        x,
        reward: r,
        chains: chains
            .into_values()
            .map(|mut c| {
                c.sort();
                c.into_iter().map(|x| x.1).collect()
            })
            .collect(),
        held_out,
    })
}

/// Which games a fit keeps: every game that ended by the rules while their observations fit in
/// `max_bytes`, else whole games in a seeded pseudo-random order until the next would not fit.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Sample {
    kept_games: usize,
    games: usize,
}

/// The rows to keep (by row) and the [`Sample`]: rows of capped games are never kept; whole
/// games are taken in the order of a hash of their index and `seed` (independent of the one
/// game in ten held out) while their rows of `row_bytes` fit in `max_bytes`.
fn sample_games(
    games: &[i64],
    capped: &[i64],
    row_bytes: u64,
    max_bytes: u64,
    seed: u64,
) -> (Vec<bool>, Sample) {
    let mut rows_of: BTreeMap<i64, u64> = BTreeMap::new();
    for (g, c) in games.iter().zip(capped) {
        if *c == 0 {
            *rows_of.entry(*g).or_default() += 1;
        }
    }
    let mut order: Vec<(u64, i64)> = rows_of
        .keys()
        .map(|&g| {
            (
                shifu_agents::splitmix64(seed ^ shifu_agents::splitmix64(g as u64)),
                g,
            )
        })
        .collect();
    order.sort_unstable();
    let mut kept = std::collections::BTreeSet::new();
    let mut bytes = 0u64;
    for (_, g) in order {
        let more = rows_of[&g] * row_bytes;
        if bytes + more > max_bytes {
            break;
        }
        bytes += more;
        kept.insert(g);
    }
    let keep = games
        .iter()
        .zip(capped)
        .map(|(g, c)| *c == 0 && kept.contains(g))
        .collect();
    let sample = Sample {
        kept_games: kept.len(),
        games: rows_of.len(),
    };
    (keep, sample)
}
