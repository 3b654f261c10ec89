//! `shifu fit`: fits a learned evaluation (a value model of the encoded observation) to an
//! export of self-play, on final outcomes or TD(λ) returns, for MCTS's depth cut
//! (`mcts:...,leaf=model.json`).

use crate::games::Playable;
use crate::npz::read_array;
use crate::setup::GameArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use shifu_agents::learned::{fit, Dataset, FitOptions, ValueModel};
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
    /// The most observation bytes read into memory.
    #[arg(long, default_value_t = 4 << 30)]
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
    let data = load(args, game.observation_len(), game.num_seats())?;
    let mut model = match &args.init {
        None => ValueModel::new(game.name(), data.inputs, args.hidden, args.seed),
        Some(path) => {
            let m = ValueModel::load(path).map_err(anyhow::Error::msg)?;
            if m.game != game.name() || m.inputs != data.inputs {
                bail!(
                    "--init {}: a model of {} observations of {} values; this export is {} with {}",
                    path.display(),
                    m.game,
                    m.inputs,
                    game.name(),
                    data.inputs
                );
            }
            m
        }
    };
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
    model.note = format!(
        "shifu fit on {}{}: {} rows ({} held out), {} hidden units, target {}{}, {} epochs; held-out MSE {:.5} against {:.5} for the mean",
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
    );
    let tmp = args.out.with_extension("json.tmp");
    std::fs::write(&tmp, model.to_json())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
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

/// The export's rows of games that ended by the rules (capped games decide nothing), each with
/// the deciding seat's final reward; one game in ten held out.
fn load(args: &FitArgs, len: usize, seats: usize) -> Result<Dataset> {
    let path = &args.input;
    let obs = read_array(path, "observation", args.max_bytes)?;
    if obs.shape.len() != 2 || obs.shape[1] != len {
        bail!(
            "{}: observations of {:?} values; {} encodes {len} (export the same game and player count)",
            path.display(),
            obs.shape,
            args.game.game
        );
    }
    let rows = obs.shape[0];
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
    let (games, seat, step, capped) = (
        column("game")?,
        column("seat")?,
        column("step")?,
        column("capped")?,
    );
    let reward = read_array(path, "reward", small)?;
    if reward.shape != [rows, seats] {
        bail!(
            "{}: rewards of shape {:?}, not [{rows}, {seats}]",
            path.display(),
            reward.shape
        );
    }
    let reward = reward.f32s()?;
    let x_all = obs.f32s()?;
    let mut x = Vec::new();
    let mut r = Vec::new();
    let mut held_out = Vec::new();
    let mut chains: BTreeMap<(i64, i64), Vec<(i64, usize)>> = BTreeMap::new();
    for i in 0..rows {
        let s = seat[i];
        if capped[i] != 0 {
            continue;
        }
        let won = usize::try_from(s)
            .ok()
            .filter(|&s| s < seats)
            .map(|s| reward[i * seats + s]);
        if !won.is_some_and(|r| (0.0..=1.0).contains(&r))
            || !x_all[i * len..(i + 1) * len].iter().all(|v| v.is_finite())
        {
            bail!(
                "{}: row {i} has a seat, a reward (0 to 1) or an observation out of range",
                path.display()
            );
        }
        let k = r.len();
        x.extend_from_slice(&x_all[i * len..(i + 1) * len]);
        r.push(won.unwrap_or_default());
        held_out.push(games[i].rem_euclid(10) == 0);
        chains.entry((games[i], s)).or_default().push((step[i], k));
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
