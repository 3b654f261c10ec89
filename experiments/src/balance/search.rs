//! `shifu balance --method ntbea`: the space searched by [`super::ntbea`] instead of a race,
//! for spaces too large to list. Each evaluation plays `--batch` games of one setting on fresh
//! game indices of the race's master seed (evaluation e plays games `e·B .. (e+1)·B`), and its
//! value is the sum of the objectives (one objective: its value). The model's best settings and
//! the best evaluated one become the finalists, validated exactly as a race's are, on fresh
//! seeds. No progress file: `--resume` is refused.

use super::objective::Games;
use super::result::{BalanceResult, RaceSummary};
use super::{checkpoint, ntbea, play_games, race, result, setup, validate, BalanceArgs, Setup};
use crate::games::Playable;
use crate::runner::progress_bar;
use anyhow::{bail, Context, Result};
use serde::Serialize;

/// The evaluations of the default budget: `--budget` defaults to this many batches.
pub const DEFAULT_EVALUATIONS: u64 = 500;

/// How `shifu balance` searches the space.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// List every setting and race them on common seeds.
    Race,
    /// The N-Tuple Bandit Evolutionary Algorithm, for spaces too large to list.
    Ntbea,
}

/// One evaluation of the search.
#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    /// The setting as words.
    pub name: String,
    /// Each objective's value on the evaluation's games.
    pub objectives: Vec<f64>,
    /// Their sum: what the search minimizes.
    pub value: f64,
}

/// What the search did, for the result.
#[derive(Debug, Clone, Serialize)]
pub struct NtbeaSummary {
    /// Values per dimension (a per-seat axis gives one dimension per seat).
    pub dimensions: Vec<usize>,
    /// Evaluations made.
    pub evaluations: usize,
    /// Recorded games per evaluation (each with its skill games, if any).
    pub batch: u64,
    /// The UCB exploration constant, in units of the evaluations' spread.
    pub exploration: f64,
    /// Neighbours drawn at each step.
    pub neighbourhood: usize,
    /// Distinct settings evaluated.
    pub distinct_settings: usize,
    /// Games the search played.
    pub games: u64,
    /// The model's estimate of each finalist's summed objectives (biased: chosen on it).
    pub finalist_estimates: Vec<f64>,
    /// Every evaluation in order.
    pub evaluated: Vec<Evaluation>,
}

/// Checks the options `--method ntbea` takes and those it refuses.
pub fn check_args(a: &BalanceArgs) -> Result<()> {
    if !a.sum.is_empty() {
        bail!("--sum with --method ntbea: the search changes one seat's value at a time and cannot keep a total; use --method race (a total makes the space smaller) or drop --sum");
    }
    if a.full_grid {
        bail!("--full-grid lists every setting; it is a race option, not one of --method ntbea");
    }
    if a.resume {
        bail!("--resume is not supported with --method ntbea (its search keeps no progress file); run the command again without --resume");
    }
    if a.svg.is_some() {
        bail!("--svg draws a race; --method ntbea has none to draw");
    }
    if a.batch < 2 {
        bail!("--batch must be at least 2 games");
    }
    if !(a.exploration.is_finite() && a.exploration >= 0.0) {
        bail!("--exploration {}: a number of at least 0", a.exploration);
    }
    if a.neighbourhood == 0 {
        bail!("--neighbourhood must be at least 1");
    }
    Ok(())
}

/// Plays one evaluation: `--batch` games of the setting at `p` on game indices
/// `e·batch ..`, and returns its objectives' sum.
fn evaluate<G: Playable>(
    s: &Setup<G>,
    args: &BalanceArgs,
    (e, p): (usize, &[u32]),
    bar: &indicatif::ProgressBar,
    log: &mut Vec<Evaluation>,
) -> Result<f64> {
    let dims = s.dims.as_ref().context("no dimensions")?;
    let setting = dims.setting(p);
    let mut ga = args.game.clone();
    ga.set.extend(setting.set.iter().cloned());
    let game: G = ga
        .build()
        .with_context(|| format!("setting {}", setting.name()))?;
    let start = (e as u64).saturating_mul(args.batch);
    let mut games = Games::default();
    let range = start..start.saturating_add(args.batch);
    play_games(s, &game, &s.specs, args.seed, range, &mut games, bar)?;
    let m = race::measure(&s.plan, &games, games.len());
    let objectives = race::objective_values(&s.plan, &m, dims.distance(p));
    let value = objectives.iter().sum();
    log.push(Evaluation {
        name: setting.name(),
        objectives,
        value,
    });
    Ok(value)
}

/// Runs `shifu balance --method ntbea`.
pub fn run<G: Playable>(args: &BalanceArgs) -> Result<BalanceResult> {
    let mut s = setup::<G>(args)?;
    let started = std::time::Instant::now();
    let dims = s.dims.clone().context("no dimensions")?;
    let sizes = dims.sizes();
    let per_evaluation = args.batch.saturating_mul(s.per_row);
    let evaluations = usize::try_from(s.race.budget / per_evaluation).unwrap_or(usize::MAX);
    if evaluations == 0 {
        bail!(
            "--budget {} cannot pay for one evaluation of {per_evaluation} games (--batch {}); raise it or lower --batch",
            s.race.budget,
            args.batch
        );
    }
    let validation = args.finalists as u64 * args.validation_games * s.per_row;
    let bar = progress_bar(evaluations as u64 * per_evaluation + validation, args.quiet);
    let cfg = ntbea::Config {
        evaluations,
        exploration: args.exploration,
        neighbourhood: args.neighbourhood,
        seed: args.seed,
    };
    let mut log = Vec::with_capacity(evaluations);
    let outcome = ntbea::search(&sizes, &cfg, |e, p| {
        evaluate(&s, args, (e, p), &bar, &mut log)
    })?;
    let points = outcome.finalists(&sizes, args.finalists);
    let mut state = checkpoint::State::default();
    for p in &points {
        let setting = dims.setting(p);
        let mut ga = args.game.clone();
        ga.set.extend(setting.set.iter().cloned());
        s.games.push(ga.build::<G>()?);
        s.settings.push(setting);
        s.distances.push(dims.distance(p));
        state
            .entries
            .push(finalist_entry(&outcome, &log, p, args.batch));
    }
    state.spent = evaluations as u64 * per_evaluation;
    let finalists: Vec<usize> = (0..points.len()).collect();
    let validated = validate::validate(&s, args, &finalists, &mut state, None, "", &bar)?;
    bar.finish_and_clear();
    let summary = RaceSummary {
        critical_z: f64::NAN,
        looks: Vec::new(),
        stop: format!("the budget is spent: {evaluations} evaluations"),
        survivors: finalists.clone(),
        finalists,
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut r = result::build(&s, args, &state, summary, validated, seconds);
    r.settings = usize::try_from(dims.size()).unwrap_or(usize::MAX);
    r.full_grid_games = dims
        .size()
        .saturating_mul(s.race.max_games.saturating_mul(s.per_row));
    r.method = Method::Ntbea;
    let distinct: std::collections::HashSet<&Vec<u32>> =
        outcome.evaluated.iter().map(|(p, _)| p).collect();
    r.ntbea = Some(NtbeaSummary {
        dimensions: sizes,
        evaluations,
        batch: args.batch,
        exploration: args.exploration,
        neighbourhood: args.neighbourhood,
        distinct_settings: distinct.len(),
        games: state.spent,
        finalist_estimates: points.iter().map(|p| outcome.model.estimate(p)).collect(),
        evaluated: log,
    });
    Ok(r)
}

/// A finalist's entry: the games it played in the search and its objectives' mean over its
/// evaluations (none when only the model proposed it).
fn finalist_entry(
    outcome: &ntbea::Outcome,
    log: &[Evaluation],
    p: &[u32],
    batch: u64,
) -> race::Entry {
    let mine: Vec<&Evaluation> = outcome
        .evaluated
        .iter()
        .zip(log)
        .filter(|((q, _), _)| q == p)
        .map(|(_, e)| e)
        .collect();
    let k = mine.len();
    let estimate = match mine.first() {
        None => Vec::new(),
        Some(first) => (0..first.objectives.len())
            .map(|o| mine.iter().map(|e| e.objectives[o]).sum::<f64>() / k as f64)
            .collect(),
    };
    race::Entry {
        played: k as u64 * batch,
        estimate,
        ..race::Entry::default()
    }
}
