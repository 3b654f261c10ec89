//! `shifu train`: tunes an agent's evaluation weights by self-play with CMA-ES (the `cmaes`
//! crate); `--method expert-iteration` trains a network instead ([`crate::expert`]).
//!
//! Each generation, every candidate plays `--games` games on the generation's common seeds, in
//! every seat in turn, against a pool of opponents: the starting weights, the incumbent, and the
//! earlier champions (each other seat takes the next pool member). Its fitness is its mean win
//! share. The generation's best candidate then challenges the incumbent in a duel on fresh seeds
//! (the candidate in one seat, the incumbent in all the others, the seats rotated) and becomes
//! the champion only when its win share beats the fair share 1/n at the one-sided significance
//! `--alpha`: noise cannot ratchet the weights. Everything is a function of `--seed`, whatever
//! the thread count; `--resume` replays the CMA-ES from the checkpoint's recorded fitness and
//! continues.

use crate::curve::{write_curve, CurveRow};
use crate::games::Playable;
use crate::runner::progress_bar;
use crate::setup::GameArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use shifu_agents::tune::{float_fields, to_toml, with_values};
use shifu_agents::{
    build_agent_with, check_agent, game_seed, parse_spec, play_game, splitmix64, Agent,
};
use statrs::distribution::{ContinuousCDF, Normal};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// Options of `shifu train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// What to train: `cmaes` tunes an agent's evaluation weights; `expert-iteration` trains a
    /// policy-value network for the `az:` agent by AlphaZero-style self-play.
    #[arg(long, value_enum, default_value = "cmaes")]
    pub(crate) method: Method,
    /// The agent whose weights are tuned (`greedy` or an `mcts:...` spec); its `weights=` file,
    /// or the defaults, is the starting point.
    #[arg(long, default_value = "greedy")]
    pub(crate) agent: String,
    /// The weights to tune, comma-separated (default: every floating-point weight).
    #[arg(long, value_delimiter = ',')]
    pub(crate) tune: Vec<String>,
    /// Bounds on tuned weights, comma-separated `name=lo:hi` (for example `steer=0:1` for a
    /// probability); a candidate's value outside is clamped into them.
    #[arg(long, value_delimiter = ',', value_name = "NAME=LO:HI")]
    pub(crate) bounds: Vec<String>,
    /// CMA-ES generations; with expert iteration, iterations.
    #[arg(long, default_value_t = 20)]
    pub(crate) generations: usize,
    /// Candidates per generation (default: CMA-ES's 4 + 3 ln d).
    #[arg(long)]
    pub(crate) population: Option<usize>,
    /// Games per candidate per generation, on common seeds; with expert iteration, self-play
    /// games per iteration.
    #[arg(long, default_value_t = 64)]
    pub(crate) games: u64,
    /// Initial step size, in units of each weight's starting magnitude (0.1 for a weight that
    /// starts at 0).
    #[arg(long, default_value_t = 0.3)]
    pub(crate) sigma: f64,
    /// Games of each acceptance duel (a multiple of the player count); with expert iteration,
    /// the gate's game cap (in a cooperative game, seeds: each is played by both teams).
    #[arg(long, default_value_t = 400)]
    pub(crate) duel_games: u64,
    /// One-sided significance at which a challenger replaces the incumbent; with expert
    /// iteration, the gate's SPRT false-acceptance rate.
    #[arg(long, default_value_t = 0.05)]
    pub(crate) alpha: f64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Output folder: curve.csv, curve.svg, champion.toml (or, with expert iteration,
    /// incumbent.safetensors and candidate.safetensors), checkpoint.json.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Continue from DIR/checkpoint.json (same settings).
    #[arg(long)]
    pub(crate) resume: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    pub(crate) threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) expert: crate::expert::ExpertArgs,
}

/// `shifu train --method`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// CMA-ES tuning of an agent's evaluation weights.
    Cmaes,
    /// Expert iteration: a policy-value network trained on its own search's games.
    ExpertIteration,
}

/// The settings a checkpoint must share with a resumed run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Settings {
    game: String,
    players: usize,
    params: String,
    agent: String,
    tune: Vec<String>,
    /// Each tuned weight's bounds (`None`: unbounded).
    bounds: Vec<Option<(f64, f64)>>,
    start: Vec<f64>,
    population: usize,
    games: u64,
    sigma: f64,
    duel_games: u64,
    alpha: f64,
    seed: u64,
}

/// One generation as recorded: every candidate's point and fitness, and the duel.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Generation {
    points: Vec<Vec<f64>>,
    fitness: Vec<f64>,
    row: CurveRow,
    accepted: Option<Vec<f64>>,
}

/// The checkpoint: the settings and every generation so far.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Checkpoint {
    settings: Settings,
    generations: Vec<Generation>,
}

/// The tuning problem: the game, the agent spec, which weights and how they are scaled.
struct Problem<'a, G: Playable> {
    game: &'a G,
    spec: &'a str,
    base: G::Weights,
    names: Vec<String>,
    start: Vec<f64>,
    scale: Vec<f64>,
    bounds: Vec<(f64, f64)>,
    pool: &'a rayon::ThreadPool,
}

impl<G: Playable + 'static> Problem<'_, G> {
    /// Weight `i` at CMA-ES coordinate `x`: its start plus `x` times its scale, within its
    /// bounds.
    fn value(&self, i: usize, x: f64) -> f64 {
        let (lo, hi) = self.bounds[i];
        (self.start[i] + x * self.scale[i]).clamp(lo, hi)
    }

    /// The weights at CMA-ES point `x` (each weight its start plus `x` times its scale).
    fn weights(&self, x: &[f64]) -> Result<G::Weights> {
        let values: Vec<(String, f64)> = (0..self.names.len())
            .map(|i| (self.names[i].clone(), self.value(i, x[i])))
            .collect();
        with_values(&self.base, &values).map_err(anyhow::Error::msg)
    }

    /// Mean win share of `me` over `games` games from `master`: in game j it sits in seat
    /// j mod n and each other seat s takes `field[(j + s) mod len]`.
    fn share(&self, me: &G::Weights, field: &[G::Weights], master: u64, games: u64) -> Result<f64> {
        let n = self.game.num_seats();
        // Collected, then summed in game order: the same total whatever the thread count.
        let shares: Vec<f64> = self.pool.install(|| {
            (0..games)
                .into_par_iter()
                .map(|j| -> Result<f64> {
                    let seed = game_seed(master, j);
                    let mine = (j % n as u64) as usize;
                    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(n);
                    for s in 0..n {
                        let w = if s == mine {
                            me
                        } else {
                            &field[(j as usize + s) % field.len()]
                        };
                        agents.push(build_agent_with::<G>(self.spec, seed, s as u8, Some(w))?);
                    }
                    let r = play_game(self.game, &mut agents, seed, &mut Vec::new());
                    Ok(r.outcome.win_share(mine as u8))
                })
                .collect::<Result<_>>()
        })?;
        Ok(shares.iter().sum::<f64>() / games as f64)
    }
}

/// A generation's seed for one purpose (0: fitness games, 1: the duel).
fn stream(seed: u64, generation: usize, purpose: u64) -> u64 {
    splitmix64(seed ^ splitmix64((generation as u64) << 1 | purpose))
}

pub fn run(args: TrainArgs) -> Result<()> {
    if args.method == Method::ExpertIteration {
        let result =
            crate::with_game!(args.game.game.as_str(), G => crate::expert::run::<G>(&args))?;
        return crate::render::emit(&result, args.json);
    }
    let result = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    crate::render::emit(&result, args.json)
}

fn run_game<G: Playable + 'static>(args: &TrainArgs) -> Result<TrainResult> {
    let game: G = args.game.build()?;
    let n = game.num_seats();
    if G::INFO.cooperative {
        // A candidate's seat shares its team's result with the field's seats, so its win share
        // against the fair share 1/n measures nothing.
        bail!(
            "--method cmaes: {} is cooperative, and CMA-ES scores one seat's weights against the others' win shares; train a team with --method expert-iteration (its gate compares teams on the same seeds)",
            G::INFO.name
        );
    }
    check_args(args, n)?;
    // The starting weights: the spec's file, or the defaults.
    let (name, _) = parse_spec(&args.agent)?;
    if name != "greedy" && name != "mcts" {
        bail!(
            "--agent {}: only greedy and mcts agents have weights to tune",
            args.agent
        );
    }
    check_agent(&game, &args.agent)?;
    let base: G::Weights = spec_weights::<G>(&args.agent)?;
    let (names, start) = tuned_weights::<G>(&base, &args.tune)?;
    let bounds = parse_bounds(&args.bounds, &names, &start)?;
    let d = names.len();
    let population = args
        .population
        .unwrap_or(4 + (3.0 * (d as f64).ln()).floor() as usize);
    if population < 2 {
        bail!("--population {population}: CMA-ES needs at least 2 candidates");
    }
    let settings = Settings {
        game: G::INFO.name.into(),
        players: n,
        params: args.game.set.join(" "),
        agent: args.agent.clone(),
        tune: names.clone(),
        bounds: bounds
            .iter()
            .map(|b| b.0.is_finite().then_some(*b))
            .collect(),
        start: start.clone(),
        population,
        games: args.games,
        sigma: args.sigma,
        duel_games: args.duel_games,
        alpha: args.alpha,
        seed: args.seed,
    };
    let checkpoint_path = args.out.join("checkpoint.json");
    let recorded = open_checkpoint(args, &checkpoint_path, &settings)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let problem = Problem {
        game: &game,
        spec: &args.agent,
        base: base.clone(),
        scale: start
            .iter()
            .map(|x| if x.abs() > 1e-9 { x.abs() } else { 0.1 })
            .collect(),
        bounds: within_domains::<G>(&names, &bounds),
        names,
        start,
        pool: &pool,
    };
    train(args, &problem, settings, recorded, &checkpoint_path)
}

/// The weights to tune (`--tune`, or every floating-point weight) and their starting values.
fn tuned_weights<G: Playable>(
    base: &G::Weights,
    tune: &[String],
) -> Result<(Vec<String>, Vec<f64>)> {
    let fields = float_fields(base);
    let names: Vec<String> = if tune.is_empty() {
        fields.iter().map(|f| f.0.clone()).collect()
    } else {
        tune.to_vec()
    };
    let mut start = Vec::new();
    for k in &names {
        match fields.iter().find(|f| &f.0 == k) {
            Some(f) => start.push(f.1),
            None => bail!(
                "--tune {k}: not a weight of {} (its weights: {})",
                G::INFO.name,
                fields
                    .iter()
                    .map(|f| f.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    if names.is_empty() {
        bail!("{} has no floating-point weights to tune", G::INFO.name);
    }
    Ok((names, start))
}

/// Each tuned weight's bounds (unbounded unless `--bounds` names it); the start must lie within.
fn parse_bounds(given: &[String], names: &[String], start: &[f64]) -> Result<Vec<(f64, f64)>> {
    let mut b = vec![(f64::NEG_INFINITY, f64::INFINITY); names.len()];
    for item in given {
        let parsed = item.split_once('=').and_then(|(k, r)| {
            let (lo, hi) = r.split_once(':')?;
            Some((
                k.trim(),
                lo.trim().parse::<f64>().ok()?,
                hi.trim().parse::<f64>().ok()?,
            ))
        });
        let Some((k, lo, hi)) = parsed else {
            bail!("--bounds {item}: give name=lo:hi, for example steer=0:1");
        };
        let Some(i) = names.iter().position(|n| n == k) else {
            bail!(
                "--bounds {item}: `{k}` is not among the tuned weights ({})",
                names.join(", ")
            );
        };
        if !(lo.is_finite() && hi.is_finite() && lo < hi && (lo..=hi).contains(&start[i])) {
            bail!(
                "--bounds {item}: give finite lo < hi around the start value {}",
                start[i]
            );
        }
        b[i] = (lo, hi);
    }
    Ok(b)
}

/// The bounds within which candidates are clamped: each `--bounds` range (or none) narrowed to
/// the weight's domain (a probability's 0 to 1, [`shifu_agents::eval::Evaluate::weight_domain`]), so no candidate
/// fails to load. Kept out of the checkpoint's settings: a run that died on a weight outside its
/// domain resumes.
fn within_domains<G: Playable>(names: &[String], bounds: &[(f64, f64)]) -> Vec<(f64, f64)> {
    names
        .iter()
        .zip(bounds)
        .map(|(name, &(lo, hi))| match G::weight_domain(name) {
            Some((dlo, dhi)) => (lo.max(dlo), hi.min(dhi)),
            None => (lo, hi),
        })
        .collect()
}

fn check_args(args: &TrainArgs, n: usize) -> Result<()> {
    if args.generations == 0 || args.games == 0 {
        bail!("--generations and --games must be at least 1");
    }
    if args.duel_games == 0 || !args.duel_games.is_multiple_of(n as u64) {
        bail!(
            "--duel-games {}: give a positive multiple of the {n} players, so every seat is played equally",
            args.duel_games
        );
    }
    if !(args.alpha > 0.0 && args.alpha < 0.5) {
        bail!(
            "--alpha {}: give a significance between 0 and 0.5",
            args.alpha
        );
    }
    if !(args.sigma.is_finite() && args.sigma > 0.0) {
        bail!("--sigma {}: give a step size > 0", args.sigma);
    }
    crate::runfile::check_writable_target(&args.out.join("champion.toml"))?;
    Ok(())
}

/// The weights an agent spec starts from: its `weights=` file, or the defaults.
fn spec_weights<G: Playable>(spec: &str) -> Result<G::Weights> {
    let (_, opts) = parse_spec(spec)?;
    match opts.iter().find(|(k, _)| k == "weights") {
        Some((_, p)) => shifu_agents::eval::load_weights(Path::new(p)).map_err(anyhow::Error::msg),
        None => Ok(G::Weights::default()),
    }
}

/// The recorded generations of a resumed run (none for a new one, which must not overwrite a
/// checkpoint). `--resume` without a checkpoint (a run killed before its first) starts fresh
/// and says so.
fn open_checkpoint(args: &TrainArgs, path: &Path, settings: &Settings) -> Result<Vec<Generation>> {
    let fresh = args.resume && !path.exists();
    if fresh {
        eprintln!(
            "--resume: no checkpoint {} yet (the run ended before its first); starting fresh",
            path.display()
        );
    }
    if !args.resume || fresh {
        if !fresh && path.exists() {
            bail!(
                "{} exists: continue it with --resume, or choose another --out",
                path.display()
            );
        }
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        return Ok(Vec::new());
    }
    let text =
        shifu_engine::files::read_text(path).context("--resume: cannot read the checkpoint")?;
    let c: Checkpoint = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a shifu train checkpoint", path.display()))?;
    if &c.settings != settings {
        bail!(
            "{}: written with other settings ({:?}); resume with the same ones",
            path.display(),
            c.settings
        );
    }
    Ok(c.generations)
}

/// The CMA-ES objective of a run: a candidate's fitness, or on a resumed run its recorded
/// fitness (the same point must come back). The first error stops the run.
struct Objective<'a, 'p, G: Playable> {
    args: &'a TrainArgs,
    p: &'a Problem<'p, G>,
    recorded: &'a [Generation],
    /// The generation being filled.
    current: RefCell<Generation>,
    failure: RefCell<Option<anyhow::Error>>,
    /// The opponents: the starting weights and the champions so far.
    field: RefCell<Vec<G::Weights>>,
    /// The generation's number.
    now: std::cell::Cell<usize>,
    bar: indicatif::ProgressBar,
}

impl<'a, 'p, G: Playable + 'static> Objective<'a, 'p, G> {
    /// The objective of a run from the first generation, with `field` the opponents.
    fn new(
        args: &'a TrainArgs,
        p: &'a Problem<'p, G>,
        recorded: &'a [Generation],
        settings: &Settings,
        field: Vec<G::Weights>,
    ) -> Self {
        Objective {
            args,
            p,
            recorded,
            current: RefCell::new(empty_generation()),
            failure: RefCell::new(None),
            field: RefCell::new(field),
            now: std::cell::Cell::new(0),
            bar: progress_bar(
                args.generations as u64 * per_generation(args, settings),
                args.quiet,
            ),
        }
    }

    /// CMA-ES minimises: minus the candidate's fitness (NaN after a failure).
    fn eval(&self, x: &cmaes::DVector<f64>) -> f64 {
        let mut g = self.current.borrow_mut();
        let k = g.points.len();
        let gen = self.now.get();
        let x: Vec<f64> = x.iter().copied().collect();
        // Replay a recorded generation: the same point must come back.
        if let Some(r) = self.recorded.get(gen) {
            if r.points.get(k) == Some(&x) {
                g.points.push(x);
                g.fitness.push(r.fitness[k]);
                return -r.fitness[k];
            }
            self.failure.borrow_mut().get_or_insert(anyhow::anyhow!(
                "the checkpoint does not replay at generation {} (was it written by another version?)",
                gen + 1
            ));
            return f64::NAN;
        }
        let (p, args) = (self.p, self.args);
        let fitness = p.weights(&x).and_then(|w| {
            p.share(
                &w,
                &self.field.borrow(),
                stream(args.seed, gen, 0),
                args.games,
            )
        });
        self.bar.inc(args.games);
        match fitness {
            Ok(f) => {
                g.points.push(x);
                g.fitness.push(f);
                -f
            }
            Err(e) => {
                self.failure.borrow_mut().get_or_insert(e);
                f64::NAN
            }
        }
    }
}

/// Where a run stands between generations.
struct Progress<G: Playable> {
    champions: Vec<G::Weights>,
    incumbent_x: Vec<f64>,
    generations: Vec<Generation>,
}

/// Games a generation plays: every candidate's, then the duel's.
fn per_generation(args: &TrainArgs, settings: &Settings) -> u64 {
    settings.population as u64 * args.games + args.duel_games
}

fn train<G: Playable + 'static>(
    args: &TrainArgs,
    p: &Problem<'_, G>,
    settings: Settings,
    recorded: Vec<Generation>,
    checkpoint_path: &Path,
) -> Result<TrainResult> {
    let d = p.names.len();
    let started = std::time::Instant::now();
    // The pool: the starting weights, then each champion in turn (the last is the incumbent).
    let mut run = Progress::<G> {
        champions: vec![p.weights(&vec![0.0; d])?],
        incumbent_x: vec![0.0; d],
        generations: Vec::new(),
    };
    let obj = Objective::new(args, p, &recorded, &settings, run.champions.clone());
    let mut cma = cmaes::CMAESOptions::new(vec![0.0; d], args.sigma)
        .population_size(settings.population)
        .seed(args.seed)
        .build(|x: &cmaes::DVector<f64>| obj.eval(x))
        .map_err(|e| anyhow::anyhow!("CMA-ES options: {e:?}"))?;
    for gen in 0..args.generations {
        obj.now.set(gen);
        let stop = cma.next();
        if let Some(e) = obj.failure.borrow_mut().take() {
            return Err(e);
        }
        let g = obj.current.replace(empty_generation());
        close_generation(&obj, g, gen, &settings, &mut run, started)?;
        if gen >= recorded.len() {
            save(
                args,
                p,
                &settings,
                &run.generations,
                &run.incumbent_x,
                checkpoint_path,
            )?;
        }
        if let Some(t) = stop {
            eprintln!(
                "CMA-ES stopped after generation {}: {:?}",
                gen + 1,
                t.reasons
            );
            break;
        }
    }
    obj.bar.finish_and_clear();
    Ok(result(
        args,
        p,
        &run.generations,
        &run.incumbent_x,
        started.elapsed().as_secs_f64(),
    ))
}

/// Ends generation `gen`: its duel (or, replayed, the recorded one), and a new champion when
/// the challenger won it.
fn close_generation<G: Playable + 'static>(
    obj: &Objective<'_, '_, G>,
    mut g: Generation,
    gen: usize,
    settings: &Settings,
    run: &mut Progress<G>,
    started: std::time::Instant,
) -> Result<()> {
    let (args, p) = (obj.args, obj.p);
    if let Some(r) = obj.recorded.get(gen) {
        // A replayed generation: its duel's outcome as recorded.
        g.row = r.row.clone();
        g.accepted = r.accepted.clone();
        obj.bar.inc(per_generation(args, settings));
    } else {
        duel(args, p, &mut g, gen, &run.incumbent_x, p.game.num_seats())?;
        obj.bar.inc(args.duel_games);
        g.row.elapsed_s = started.elapsed().as_secs_f64();
    }
    if let Some(x) = &g.accepted {
        run.incumbent_x = x.clone();
        run.champions.push(p.weights(x)?);
        *obj.field.borrow_mut() = run.champions.clone();
    }
    run.generations.push(g);
    Ok(())
}

fn empty_generation() -> Generation {
    Generation {
        points: Vec::new(),
        fitness: Vec::new(),
        row: CurveRow::default(),
        accepted: None,
    }
}

/// The generation's best candidate against the incumbent, on fresh seeds.
fn duel<G: Playable + 'static>(
    args: &TrainArgs,
    p: &Problem<'_, G>,
    g: &mut Generation,
    gen: usize,
    incumbent_x: &[f64],
    n: usize,
) -> Result<()> {
    let best = (0..g.fitness.len())
        .max_by(|&i, &j| g.fitness[i].total_cmp(&g.fitness[j]).then(j.cmp(&i)))
        .context("a generation with no candidates")?;
    let challenger = p.weights(&g.points[best])?;
    let incumbent = p.weights(incumbent_x)?;
    let games = args.duel_games;
    let shares = duel_shares(p, &challenger, &incumbent, stream(args.seed, gen, 1), games)?;
    let mean = shares.iter().sum::<f64>() / games as f64;
    let var =
        shares.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (games as f64 - 1.0).max(1.0);
    let se = (var / games as f64).sqrt().max(1e-12);
    let fair = 1.0 / n as f64;
    let z = (mean - fair) / se;
    let normal = Normal::new(0.0, 1.0).expect("the standard normal");
    let p_value = 1.0 - normal.cdf(z);
    let accepted = p_value < args.alpha;
    g.row = CurveRow {
        generation: gen + 1,
        best_fitness: g.fitness[best],
        mean_fitness: g.fitness.iter().sum::<f64>() / g.fitness.len() as f64,
        duel_share: mean,
        duel_lo: mean - 1.959_964 * se,
        duel_hi: mean + 1.959_964 * se,
        duel_elo: crate::sprt::elo_of_score(mean, n),
        p_value,
        accepted,
        champions: 0,
        elapsed_s: 0.0,
    };
    if accepted {
        g.accepted = Some(g.points[best].clone());
    }
    Ok(())
}

/// The challenger's win share in each duel game: it sits in seat j mod n, the incumbent in the
/// others.
fn duel_shares<G: Playable + 'static>(
    p: &Problem<'_, G>,
    challenger: &G::Weights,
    incumbent: &G::Weights,
    master: u64,
    games: u64,
) -> Result<Vec<f64>> {
    let n = p.game.num_seats();
    p.pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|j| -> Result<f64> {
                let seed = game_seed(master, j);
                let mine = (j % n as u64) as usize;
                let agents = (0..n)
                    .map(|s| {
                        let w = if s == mine { challenger } else { incumbent };
                        build_agent_with::<G>(p.spec, seed, s as u8, Some(w))
                    })
                    .collect::<Result<Vec<_>, _>>();
                let mut agents = agents?;
                let r = play_game(p.game, &mut agents, seed, &mut Vec::new());
                Ok(r.outcome.win_share(mine as u8))
            })
            .collect()
    })
}

/// Writes the checkpoint, the curve and the champion's weights (each through a temporary file).
fn save<G: Playable + 'static>(
    args: &TrainArgs,
    p: &Problem<'_, G>,
    settings: &Settings,
    generations: &[Generation],
    incumbent_x: &[f64],
    path: &Path,
) -> Result<()> {
    let c = Checkpoint {
        settings: settings.clone(),
        generations: generations.to_vec(),
    };
    write_file(path, &serde_json::to_string_pretty(&c)?)?;
    let mut rows: Vec<CurveRow> = generations.iter().map(|g| g.row.clone()).collect();
    let mut champions = 0;
    for r in rows.iter_mut() {
        champions += usize::from(r.accepted);
        r.champions = champions;
    }
    write_curve(&args.out, G::INFO.name, &rows)?;
    let w = p.weights(incumbent_x)?;
    let mut text = format!(
        "# {} weights tuned by `shifu train` ({} of {} generations, {} champions accepted; agent {}).\n",
        G::INFO.name,
        generations.len(),
        args.generations,
        champions,
        args.agent
    );
    text.push_str(&to_toml(&w).map_err(anyhow::Error::msg)?);
    write_file(&args.out.join("champion.toml"), &text)
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    Ok(shifu_engine::files::write_atomic(path, text.as_bytes())?)
}

/// One tuned weight: where it started and the champion's value.
#[derive(Debug, Clone, Serialize)]
pub struct TunedWeight {
    /// The weight's name.
    pub name: String,
    /// Its starting value.
    pub start: f64,
    /// The champion's value.
    pub champion: f64,
}

/// What `shifu train` ends with.
#[derive(Debug, Clone, Serialize)]
pub struct TrainResult {
    /// The game.
    pub game: String,
    /// The agent spec tuned.
    pub agent: String,
    /// Generations run.
    pub generations: usize,
    /// Candidates per generation.
    pub candidates: usize,
    /// Games per candidate.
    pub games: u64,
    /// Champions accepted.
    pub champions: usize,
    /// Games of each acceptance duel.
    pub duel_games: u64,
    /// The duels' one-sided significance.
    pub alpha: f64,
    /// Seconds (this process).
    pub seconds: f64,
    /// The tuned weights.
    pub weights: Vec<TunedWeight>,
    /// The output folder.
    pub out: String,
    /// The learning curve, one row per generation (as in curve.csv).
    pub curve: Vec<CurveRow>,
}

fn result<G: Playable + 'static>(
    args: &TrainArgs,
    p: &Problem<'_, G>,
    generations: &[Generation],
    incumbent_x: &[f64],
    seconds: f64,
) -> TrainResult {
    let mut curve: Vec<CurveRow> = generations.iter().map(|g| g.row.clone()).collect();
    let mut champions = 0;
    for r in curve.iter_mut() {
        champions += usize::from(r.accepted);
        r.champions = champions;
    }
    TrainResult {
        game: G::INFO.name.to_string(),
        agent: args.agent.clone(),
        generations: generations.len(),
        candidates: generations.first().map_or(0, |g| g.points.len()),
        games: args.games,
        champions: generations.iter().filter(|g| g.accepted.is_some()).count(),
        duel_games: args.duel_games,
        alpha: args.alpha,
        seconds,
        weights: p
            .names
            .iter()
            .enumerate()
            .map(|(i, k)| TunedWeight {
                name: k.clone(),
                start: p.start[i],
                champion: p.value(i, incumbent_x[i]),
            })
            .collect(),
        out: args.out.display().to_string(),
        curve,
    }
}

impl std::fmt::Display for TrainResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} {}: {} generations of {} candidates x {} games, {} champions accepted (duels of {} games, alpha {}); {:.1} s",
            self.game,
            self.agent,
            self.generations,
            self.candidates,
            self.games,
            self.champions,
            self.duel_games,
            self.alpha,
            self.seconds
        )?;
        writeln!(f, "\nweight              start      champion")?;
        for w in &self.weights {
            writeln!(f, "{:<18} {:>9.4} {:>11.4}", w.name, w.start, w.champion)?;
        }
        writeln!(
            f,
            "\nwrote {}: champion.toml, curve.csv, curve.svg, checkpoint.json",
            self.out
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_zero_at_the_fair_share_and_grows_with_it() {
        use crate::sprt::elo_of_score as elo;
        for n in 2..=8 {
            assert!(elo(1.0 / n as f64, n).abs() < 1e-9);
            assert!(elo(1.5 / n as f64, n) > 0.0);
        }
        assert!((elo(0.75, 2) - 400.0 * 3f64.log10()).abs() < 1e-9);
    }

    /// Issue 46: `shifu train --game tofu-kingdom` died with "-0.00085 is not a probability"
    /// when CMA-ES proposed a negative `steer`; candidates are now clamped into the domain.
    #[test]
    fn tofu_kingdom_candidates_stay_probabilities() {
        use shifu_engine::tofu_kingdom::TofuKingdom;
        let game = TofuKingdom::with_params(Default::default()).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let names: Vec<String> = ["steer", "points"].map(String::from).to_vec();
        let unbounded = vec![(f64::NEG_INFINITY, f64::INFINITY); 2];
        let p = Problem {
            game: &game,
            spec: "greedy",
            base: Default::default(),
            bounds: within_domains::<TofuKingdom>(&names, &unbounded),
            names,
            start: vec![0.5, 1.0],
            scale: vec![0.5, 1.0],
            pool: &pool,
        };
        for (x, steer) in [(-1.0017, 0.0), (5.0, 1.0), (0.5, 0.75)] {
            let w = p.weights(&[x, -7.0]).expect("a candidate always loads");
            assert_eq!(w.steer, steer);
            assert_eq!(w.points, -6.0, "a weight without a domain is not clamped");
        }
    }

    #[test]
    fn generation_streams_differ_by_purpose_and_generation() {
        assert_ne!(stream(1, 0, 0), stream(1, 0, 1));
        assert_ne!(stream(1, 0, 0), stream(1, 1, 0));
        assert_eq!(stream(7, 3, 1), stream(7, 3, 1));
    }
}
