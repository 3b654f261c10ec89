//! `shifu dose`: two designer analyses on common seeds (game i has the same seed in every
//! setting), each a fitted slope with a 95% interval.
//!
//! - `--vary key=LO..HI:STEP` (or `LO..HI`, or `a/b/c`): a dose–response curve. Per value, each
//!   seat's win share, the unfairness, the mean rounds and the capped share; then the slope of
//!   each seat's win share and of the mean rounds per unit of the parameter.
//! - `--per-seat key=LO..HI`: the value of one unit of a per-seat parameter (one start coin).
//!   Per-seat vectors are played (all of them, or a seeded random sample of `--vectors`), and
//!   `win = α_seat + β·(units − mean)` is fitted by least squares with seat fixed effects.
//!
//! Both fits use a cluster-robust sandwich variance clustered by game index: one cluster holds
//! game i of every setting and all its seats, so the intervals respect the pairing (a seed deals
//! the same cards in every setting) and the seats' shares summing to 1 (see [`fit`]). Settings
//! with more than [`CAPPED_WARN`] of their games capped are left out of the fits and named.

pub mod design;
pub mod fit;
pub mod result;

use crate::games::Playable;
use crate::runner::{play_stream, progress_bar, seat_specs};
use crate::setup::{GameArgs, RunArgs};
use crate::stats::CAPPED_WARN;
use anyhow::{bail, Context, Result};
use clap::Args;
use nalgebra::{DMatrix, DVector};
use result::{CoinResult, DosePoint, DoseResult, DoseRun, Header, VectorCell};
use shifu_agents::check_agent;

/// Options of `shifu dose`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("analysis").required(true).args(["vary", "per_seat"])))]
pub struct DoseArgs {
    #[command(flatten)]
    game: GameArgs,
    /// A dose–response curve over one parameter: `key=LO..HI:STEP` (reals), `key=LO..HI`
    /// (integers) or `key=a/b/c` (numbers); --games games per value, on the same seeds.
    #[arg(long, value_name = "KEY=VALUES")]
    vary: Option<String>,
    /// The value of one unit of a per-seat parameter: `key=LO..HI`, for example
    /// `start_coins=0..3`; --games games per vector, on the same seeds.
    #[arg(long = "per-seat", value_name = "KEY=LO..HI")]
    per_seat: Option<String>,
    /// With --per-seat: the most vectors played. All of them when the range has at most this
    /// many (a full factorial), else this many distinct ones drawn with --seed.
    #[arg(long, default_value_t = 64, value_name = "N")]
    vectors: usize,
    #[command(flatten)]
    run: RunArgs,
    /// Also write one CSV row per value or vector.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `shifu dose`.
pub fn run(args: DoseArgs) -> Result<()> {
    if args.run.games < 2 {
        bail!("--games must be at least 2: the interval clusters by game");
    }
    if args.run.rotate {
        bail!("--rotate moves the agents through the seats; a dose analysis measures the seats, so it plays without rotation");
    }
    if args.vectors < 2 {
        bail!("--vectors must be at least 2");
    }
    let result = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    if let Some(path) = &args.out {
        shifu_engine::files::check_output(path)?;
        shifu_engine::files::write_atomic(path, &result.csv()?)?;
    }
    crate::render::emit(&result, args.json)
}

/// Builds the game with extra `--set` strings.
fn build<G: Playable>(base: &GameArgs, set: &[String]) -> Result<G> {
    let mut ga = base.clone();
    ga.set.extend(set.iter().cloned());
    ga.build::<G>()
}

fn run_game<G: Playable>(args: &DoseArgs) -> Result<DoseRun> {
    let base: G = build(&args.game, &[])?;
    let seats = base.num_seats();
    let specs = seat_specs(&args.run.agents, seats)?;
    for s in &specs {
        check_agent(&base, s)?;
    }
    let header = Header {
        game: base.name().to_string(),
        players: seats,
        agents: specs.clone(),
        games_per_setting: args.run.games,
        master_seed: args.run.seed,
        max_rounds: base.max_rounds(),
        variance: "cluster-robust sandwich (CR1), clustered by game index: one cluster is game i in every setting, all seats; t with clusters-1 degrees of freedom".into(),
    };
    if let Some(v) = &args.vary {
        let (key, values) = design::parse_vary(v)?;
        let settings: Vec<Vec<String>> = values
            .iter()
            .map(|(_, t)| vec![format!("{key}={t}")])
            .collect();
        let games = build_all::<G>(&args.game, &settings, v)?;
        let played = play_all(&games, &specs, args)?;
        return Ok(DoseRun::Dose(dose(header, key, &values, &played)?));
    }
    let p = args.per_seat.as_deref().unwrap_or_default();
    let (key, lo, hi) = design::parse_per_seat(p)?;
    check_per_seat::<G>(&args.game, &key, lo, seats, p)?;
    let (design, vectors) = design::vectors(lo, hi, seats, args.vectors, args.run.seed);
    let settings: Vec<Vec<String>> = vectors
        .iter()
        .map(|v| vec![format!("{key}={}", join(v))])
        .collect();
    let games = build_all::<G>(&args.game, &settings, p)?;
    let played = play_all(&games, &specs, args)?;
    Ok(DoseRun::Coin(coin(header, key, design, &vectors, &played)?))
}

/// A vector as `--set` text.
fn join(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Refuses a `--per-seat` key the game does not take one value per seat for.
fn check_per_seat<G: Playable>(
    base: &GameArgs,
    key: &str,
    lo: i64,
    seats: usize,
    opt: &str,
) -> Result<()> {
    if build::<G>(base, &[format!("{key}={lo}")]).is_ok() {
        bail!("--per-seat `{opt}`: {key} is not a per-seat parameter (it takes a single value); use --vary");
    }
    build::<G>(base, &[format!("{key}={}", join(&vec![lo; seats]))])
        .map(|_| ())
        .with_context(|| {
            format!("--per-seat `{opt}`: {key} does not take {seats} values (one per seat)")
        })
}

/// Builds every setting's game before any is played, so that a bad value fails first.
fn build_all<G: Playable>(base: &GameArgs, settings: &[Vec<String>], opt: &str) -> Result<Vec<G>> {
    settings
        .iter()
        .map(|s| build::<G>(base, s).with_context(|| format!("{opt}: setting {}", s.join(" "))))
        .collect::<Result<_>>()
        .map_err(|e| {
            let hint = crate::suggest::vary_hint(&[opt.to_string()], &format!("{e:#}"));
            match hint {
                Some(h) => anyhow::anyhow!("{e:#}; {h}"),
                None => e,
            }
        })
}

/// One setting's games, in game order.
pub struct Played {
    /// Win share by game then seat (`games × seats`).
    pub win: Vec<f64>,
    /// Rounds by game.
    pub rounds: Vec<f64>,
    /// Capped games.
    pub capped: u64,
}

impl Played {
    /// The share of capped games.
    pub fn capped_share(&self) -> f64 {
        self.capped as f64 / self.rounds.len().max(1) as f64
    }

    /// Whether the round cap decides this setting (left out of the fits).
    pub fn decided_by_cap(&self) -> bool {
        self.capped_share() > CAPPED_WARN
    }
}

/// Plays every setting on the same seeds (games 0..--games of the master seed).
fn play_all<G: Playable>(games: &[G], specs: &[String], args: &DoseArgs) -> Result<Vec<Played>> {
    let seats = games[0].num_seats();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.run.threads.unwrap_or(0))
        .build()?;
    let n = args.run.games;
    let bar = progress_bar(n * games.len() as u64, args.quiet);
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let mut p = Played {
            win: Vec::with_capacity(n as usize * seats),
            rounds: Vec::with_capacity(n as usize),
            capped: 0,
        };
        play_stream(g, specs, args.run.seed, false, 0..n, &pool, |r| {
            p.win
                .extend((0..seats).map(|s| r.outcome.win_share(s as u8)));
            p.rounds.push(f64::from(r.rounds));
            p.capped += u64::from(r.outcome.capped);
            bar.inc(1);
            Ok(())
        })?;
        out.push(p);
    }
    bar.finish_and_clear();
    Ok(out)
}

/// Each seat's mean win share over a setting's games.
fn shares(p: &Played, seats: usize) -> Vec<f64> {
    let n = p.rounds.len().max(1) as f64;
    (0..seats)
        .map(|s| p.win.iter().skip(s).step_by(seats).sum::<f64>() / n)
        .collect()
}

/// The dose–response curve and its slopes.
fn dose(
    header: Header,
    key: String,
    values: &[(f64, String)],
    played: &[Played],
) -> Result<DoseResult> {
    let seats = header.players;
    let points: Vec<DosePoint> = values
        .iter()
        .zip(played)
        .map(|((v, t), p)| DosePoint::new(*v, t.clone(), &shares(p, seats), p))
        .collect();
    let kept: Vec<usize> = (0..played.len())
        .filter(|&i| !played[i].decided_by_cap())
        .collect();
    let n = header.games_per_setting as usize;
    let mut slopes = None;
    if kept.len() >= 2 {
        let x: Vec<f64> = kept
            .iter()
            .flat_map(|&i| std::iter::repeat_n(values[i].0, n))
            .collect();
        let cluster: Vec<usize> = kept.iter().flat_map(|_| 0..n).collect();
        let seat_slopes = (0..seats)
            .map(|s| {
                let y: Vec<f64> = kept
                    .iter()
                    .flat_map(|&i| played[i].win.iter().skip(s).step_by(seats).copied())
                    .collect();
                fit::slope(&x, &y, &cluster)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let rounds: Vec<f64> = kept
            .iter()
            .flat_map(|&i| played[i].rounds.iter().copied())
            .collect();
        let rounds_slope = fit::slope(&x, &rounds, &cluster)?;
        slopes = Some((seat_slopes, rounds_slope));
    }
    Ok(DoseResult::new(header, key, points, kept.len(), slopes))
}

/// The value of one unit per seat: `win = α_seat + β·(units − mean)` with seat fixed effects.
fn coin(
    header: Header,
    key: String,
    design: design::Design,
    vectors: &[Vec<i64>],
    played: &[Played],
) -> Result<CoinResult> {
    let seats = header.players;
    let n = header.games_per_setting as usize;
    let cells: Vec<VectorCell> = vectors
        .iter()
        .zip(played)
        .map(|(v, p)| VectorCell::new(join(v), &shares(p, seats), p))
        .collect();
    let kept: Vec<usize> = (0..played.len())
        .filter(|&i| !played[i].decided_by_cap())
        .collect();
    if kept.is_empty() {
        return Ok(CoinResult::new(header, key, design, cells, None));
    }
    let mean = kept
        .iter()
        .flat_map(|&i| vectors[i].iter())
        .map(|&c| c as f64)
        .sum::<f64>()
        / (kept.len() * seats) as f64;
    let rows = kept.len() * n * seats;
    let k = seats + 1;
    let mut x = DMatrix::<f64>::zeros(rows, k);
    let mut y = DVector::<f64>::zeros(rows);
    let mut cluster = Vec::with_capacity(rows);
    let mut r = 0;
    for &i in &kept {
        for g in 0..n {
            for s in 0..seats {
                x[(r, s)] = 1.0;
                x[(r, seats)] = vectors[i][s] as f64 - mean;
                y[r] = played[i].win[g * seats + s];
                cluster.push(g);
                r += 1;
            }
        }
    }
    let fit = fit::cluster_ols(
        &x,
        &y,
        &cluster,
        "the kept vectors do not vary the units apart from the seats",
    )?;
    Ok(CoinResult::new(
        header,
        key,
        design,
        cells,
        Some(result::CoinFit::new(&fit, &kept, mean, seats, n)),
    ))
}
