//! `shifu balance`: searches a declared parameter space for the settings that best meet declared
//! objectives under a declared agent, then re-tests the best on fresh seeds.
//!
//! 1. **The space** ([`space`]): `--search` axes (per-seat integer vectors, integer and real
//!    ranges, lists) and `--sum` totals, every setting listed.
//! 2. **The race** ([`race`]): every setting plays the same games (common seeds); at each look
//!    (games per setting doubling) a paired test drops the settings shown worse, at a stated
//!    error rate (no setting that no other beats is dropped, but with chance α), until one is left, every survivor is shown good enough, the looks
//!    end or the budget is spent.
//!
//!    Or, for a space too large to list, `--method ntbea` ([`search`], [`ntbea`]): the
//!    N-Tuple Bandit Evolutionary Algorithm over the space's dimensions ([`dims`]), each
//!    evaluation a batch of games of one setting; the model's best become the finalists.
//! 3. **The validation** ([`validate`]): the survivors' Pareto set (at most `--finalists`) plays
//!    fresh seeds the race never saw, so the figures reported carry no winner's curse; each gets
//!    its seat shares with intervals and the equivalence verdict at `--margin`.

pub mod api;
pub mod chart;
pub mod checkpoint;
pub mod dims;
pub mod ntbea;
pub mod objective;
pub mod race;
pub mod result;
pub mod search;
pub mod setup;
pub mod shard;
pub mod skill;
pub mod space;
pub mod validate;

use crate::games::Playable;
use crate::runner::{play_stream, progress_bar};
use crate::setup::GameArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use objective::Games;
use race::Entry;
use result::{BalanceResult, RaceSummary};
pub use setup::{setup, Setup};

/// Options of `shifu balance`.
#[derive(Args, Debug, Clone)]
pub struct BalanceArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// A searched parameter: `key=LO..HI` (integers; a per-seat vector when the game takes one
    /// value per seat), `key=LO..HI:STEP` (reals) or `key=a/b/c` (a list). Repeat for more axes.
    #[arg(long, value_name = "KEY=SPACE", required = true)]
    pub search: Vec<String>,
    /// A fixed total over a per-seat axis, for example `start_coins=8` (repeatable).
    #[arg(long, value_name = "KEY=N")]
    pub sum: Vec<String>,
    /// An objective to minimize: `fair` (the largest seat deviation from 1/n, by turn position
    /// from the first start player where the game has one), `target:METRIC=V`,
    /// `range:METRIC=LO..HI` or `distance` (from the rulebook's setting). Repeat for a Pareto
    /// set. Default: `fair`, or `target:win=0.5` for a cooperative game.
    #[arg(long, value_name = "OBJECTIVE")]
    pub objective: Vec<String>,
    /// The rulebook's value of a searched parameter, for `distance` (default: the game's own).
    #[arg(long, value_name = "KEY=VALUE")]
    pub reference: Vec<String>,
    /// The stronger agent of `--objective skill=MARGIN` (one spec, for example mcts:iters=200).
    #[arg(long, value_name = "SPEC")]
    pub strong: Option<String>,
    /// The weaker agent of `--objective skill=MARGIN` (one spec, for example random).
    #[arg(long, value_name = "SPEC")]
    pub weak: Option<String>,
    /// The search: `race` (every setting listed and raced on common seeds) or `ntbea` (the
    /// N-Tuple Bandit Evolutionary Algorithm, for spaces too large to list).
    #[arg(long, value_enum, default_value = "race")]
    pub method: search::Method,
    /// NTBEA: games per evaluation (one setting, fresh game indices of the race's seed).
    #[arg(long, default_value_t = 100)]
    pub batch: u64,
    /// NTBEA: the UCB exploration constant, in units of the evaluations' spread.
    #[arg(long, default_value_t = 1.0)]
    pub exploration: f64,
    /// NTBEA: neighbours of the current setting the model scores at each step.
    #[arg(long, default_value_t = 50)]
    pub neighbourhood: usize,
    /// Agent spec per seat (one for all seats) in the race.
    #[arg(long, default_value = "greedy")]
    pub agents: String,
    /// The agents of the validation games (default: the race's), for example a stronger one.
    #[arg(long, value_name = "SPECS")]
    pub validate_agents: Option<String>,
    /// The equivalence margin: a seat (or a target) within ± this counts as fair.
    #[arg(long, default_value_t = crate::equivalence::DEFAULT_MARGIN)]
    pub margin: f64,
    /// The race's error rate: the chance that it drops a setting no other setting beats (the
    /// best, or one of the Pareto set).
    #[arg(long, default_value_t = 0.05)]
    pub error_rate: f64,
    /// Games per setting at the first look (then doubling).
    #[arg(long, default_value_t = 100)]
    pub first_look: u64,
    /// The most games one setting plays in the race.
    #[arg(long, default_value_t = 12_800)]
    pub max_games: u64,
    /// The most games the race plays in all (default: 1,000 per setting, at least 20,000; NTBEA:
    /// 500 evaluations of --batch games).
    #[arg(long)]
    pub budget: Option<u64>,
    /// No race: every setting plays --max-games games (the exhaustive grid a race is measured
    /// against), then the best are validated as usual.
    #[arg(long)]
    pub full_grid: bool,
    /// Settings re-tested on fresh seeds: at most this many of the survivors' Pareto set.
    #[arg(long, default_value_t = 3)]
    pub finalists: usize,
    /// Games per finalist in the validation, on seeds the race never used.
    #[arg(long, default_value_t = 10_000)]
    pub validation_games: u64,
    /// Master seed of the race; the validation's is derived from it (the result names it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    pub threads: Option<usize>,
    /// Write the result (JSON) here; progress is kept beside it (`FILE.race`) for `--resume`.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Continue a killed run of the same command from its progress file.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Draw the race (each setting's estimate and the games it played) as an SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Sharding across machines (`--shard`, `--shard-count`, `--shard-wait`).
    #[command(flatten)]
    pub shard: shard::ShardArgs,
}

/// Runs `shifu balance`.
pub fn run(args: BalanceArgs) -> Result<()> {
    let (result, shard) = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    if let Some(sh) = shard.as_ref().filter(|sh| sh.k != 0) {
        // Every shard prints the result; shard 0 alone writes the files.
        shard::finish(sh)?;
        return crate::render::emit(&result, args.json);
    }
    if let Some(svg) = &args.svg {
        let text = chart::race_chart(&result).context("drawing the race chart")?;
        shifu_engine::files::write_atomic(svg, text.as_bytes())?;
    }
    if let Some(out) = &args.out {
        let text = serde_json::to_string_pretty(&result)?;
        shifu_engine::files::write_atomic(out, text.as_bytes())?;
    }
    if let Some(sh) = &shard {
        // The parts go once the result is written.
        shard::finish(sh)?;
    }
    crate::render::emit(&result, args.json)
}

/// The validation's master seed: derived from the race's, never one of its game seeds' masters.
pub fn validation_seed(seed: u64) -> u64 {
    shifu_agents::splitmix64(seed ^ 0x7661_6c69_6461_7465)
}

/// Plays games `range` of `game` from master seed `master`, recording the plan's columns (and
/// each game's skill games, for `--objective skill=MARGIN`).
pub fn play_games<G: Playable>(
    s: &Setup<G>,
    game: &G,
    specs: &[String],
    master: u64,
    range: std::ops::Range<u64>,
    games: &mut Games,
    bar: &indicatif::ProgressBar,
) -> Result<()> {
    games.columns = s.plan.columns.len();
    let at = games.len();
    play_stream(game, specs, master, false, range.clone(), &s.pool, |r| {
        s.plan.record(&r, s.seats, &mut games.data);
        bar.inc(1);
        Ok(())
    })?;
    match &s.skill {
        Some(k) => skill::play(s, k, game, master, range, at, games, bar),
        None => Ok(()),
    }
}

/// Runs the balance `args` describe in memory: the result, and the shard it played (none for a
/// one-machine run; its parts are left for [`shard::finish`]). Writes only the progress file
/// (and a sharded run's parts).
pub fn run_game<G: Playable>(
    args: &BalanceArgs,
) -> Result<(BalanceResult, Option<shard::Sharding>)> {
    if args.method == search::Method::Ntbea {
        if args.shard.shard.is_some() || args.shard.shard_count.is_some() {
            bail!("--method ntbea runs on one machine: --shard and --shard-count are for the race");
        }
        return Ok((search::run::<G>(args)?, None));
    }
    let mut s = setup::<G>(args)?;
    let started = std::time::Instant::now();
    let fingerprint = checkpoint::fingerprint(args);
    s.shard = shard::Sharding::new(&args.shard, args.out.as_deref(), &fingerprint, args.resume)?;
    // A sharded run's progress is its parts.
    let progress = (s.shard.is_none())
        .then(|| args.out.as_ref().map(|o| checkpoint::path(o)))
        .flatten();
    let mut state = match (&progress, args.resume) {
        (Some(p), true) if p.exists() => checkpoint::load(p, &fingerprint, s.settings.len(), s.plan.columns.len())?,
        (Some(p), false) if p.exists() => bail!(
            "{} exists: a run with this --out was stopped; continue it with --resume, or remove the file",
            p.display()
        ),
        _ => checkpoint::State::new(&s.distances),
    };
    for (e, &d) in state.entries.iter_mut().zip(&s.distances) {
        e.distance = d;
        if e.out.is_none() && e.games.len() as u64 != e.played {
            bail!(
                "{}: the progress file does not match its games; remove it to start again",
                progress
                    .as_deref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            );
        }
    }
    let bar = progress_bar(s.race.budget, args.quiet);
    bar.set_position(state.spent);
    let summary = run_race(
        &s,
        args,
        &mut state,
        progress.as_deref(),
        &fingerprint,
        &bar,
    )?;
    bar.set_length(
        state.spent + (summary.finalists.len() as u64) * args.validation_games * s.per_row,
    );
    let validated = validate::validate(
        &s,
        args,
        &summary.finalists,
        &mut state,
        progress.as_deref(),
        &fingerprint,
        &bar,
    )?;
    bar.finish_and_clear();
    let result = result::build(
        &s,
        args,
        &state,
        summary,
        validated,
        started.elapsed().as_secs_f64(),
    );
    if let Some(p) = &progress {
        std::fs::remove_file(p).ok();
    }
    Ok((result, s.shard))
}

/// The race: looks until one setting is left, every survivor is shown good enough, the looks
/// end or the budget is spent.
fn run_race<G: Playable>(
    s: &Setup<G>,
    args: &BalanceArgs,
    state: &mut checkpoint::State,
    progress: Option<&std::path::Path>,
    fingerprint: &str,
    bar: &indicatif::ProgressBar,
) -> Result<RaceSummary> {
    let looks = s.race.looks();
    let zc = if s.race.full_grid {
        f64::INFINITY
    } else {
        race::critical_z(&s.plan, &s.race, looks.len())
    };
    let mut stop = state.stop.clone();
    while stop.is_none() {
        let alive: Vec<usize> = (0..s.settings.len())
            .filter(|&i| state.entries[i].out.is_none())
            .collect();
        let look = state.looks_done;
        let have = state.entries[alive[0]].played;
        let mut n = looks[look.min(looks.len() - 1)];
        let left = s.race.budget.saturating_sub(state.spent);
        let row_cost = (alive.len() as u64).saturating_mul(s.per_row);
        if (n - have).saturating_mul(row_cost) > left {
            n = have + left / row_cost;
        }
        if n <= have || n < 2 {
            if look == 0 {
                bail!(
                    "--budget {} cannot give each of the {} settings 2 games; raise it or narrow the space",
                    s.race.budget,
                    alive.len()
                );
            }
            stop = Some("the budget is spent".into());
            break;
        }
        let jobs: Vec<_> = alive
            .iter()
            .map(|&c| (c, state.entries[c].played..n))
            .collect();
        let step = shard::look_step(look + 1);
        let played = shard::play_jobs(s, &step, &jobs, &s.specs, args.seed, bar)?;
        for (&c, g) in alive.iter().zip(played) {
            let e = &mut state.entries[c];
            e.games.columns = g.columns;
            e.games.data.extend(g.data);
            state.spent += (n - e.played) * s.per_row;
            e.played = n;
        }
        stop = race_look(
            s,
            state,
            &alive,
            look + 1,
            n,
            zc,
            n == looks[looks.len() - 1],
        );
        state.looks_done = look + 1;
        state.stop = stop.clone();
        if let Some(p) = progress {
            checkpoint::save(p, fingerprint, state)?;
        }
    }
    let alive: Vec<usize> = (0..s.settings.len())
        .filter(|&i| state.entries[i].out.is_none())
        .collect();
    let finalists = race::finalists(&state.entries, &alive, args.finalists);
    Ok(RaceSummary {
        critical_z: zc,
        looks: looks.clone(),
        stop: stop.unwrap_or_default(),
        survivors: alive,
        finalists,
    })
}

/// One look's measurements and eliminations; `Some(reason)` when the race stops.
fn race_look<G: Playable>(
    s: &Setup<G>,
    state: &mut checkpoint::State,
    alive: &[usize],
    look: usize,
    n: u64,
    zc: f64,
    last: bool,
) -> Option<String> {
    let measured: Vec<race::Measured> = alive
        .iter()
        .map(|&c| race::measure(&s.plan, &state.entries[c].games, n as usize))
        .collect();
    for (m, &c) in measured.iter().zip(alive) {
        let d = state.entries[c].distance;
        state.entries[c].estimate = race::objective_values(&s.plan, m, d);
    }
    let at = race::Look {
        index: look,
        games: n,
        critical_z: zc,
        eliminators: s.race.eliminators,
    };
    let out = race::look(&s.plan, &state.entries, alive, &measured, &at);
    for (c, e) in out {
        state.entries[c].out = Some(e);
        state.entries[c].games = Games::default();
    }
    let left: Vec<usize> = (0..alive.len())
        .filter(|&i| state.entries[alive[i]].out.is_none())
        .collect();
    // Every survivor good enough on every measured objective, Bonferroni over the survivors.
    let zg = crate::equivalence::z(1.0 - s.race.error_rate / left.len().max(1) as f64);
    let all_good = left.iter().all(|&i| {
        s.plan
            .objectives
            .iter()
            .filter(|o| o.noisy())
            .all(|o| race::good_enough(o, &measured[i], zg))
    });
    if left.len() == 1 {
        Some("one setting is left".into())
    } else if all_good && !s.race.full_grid {
        Some(format!(
            "every one of the {} settings left is shown good enough",
            left.len()
        ))
    } else if last {
        Some(format!("the looks end at {n} games per setting"))
    } else {
        None
    }
}

/// The entries of a fresh race: no games, the distances known.
pub fn fresh_entries(distances: &[f64]) -> Vec<Entry> {
    distances
        .iter()
        .map(|&d| Entry {
            distance: d,
            ..Entry::default()
        })
        .collect()
}
