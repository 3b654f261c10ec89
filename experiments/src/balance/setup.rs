//! A balance run's set-up: the options checked, the axes probed against the game, every
//! setting's game built and its distance from the rulebook's measured, before any game is played.

use super::dims::Probe;
use super::objective::Plan;
use super::race::RaceConfig;
use super::space::{self, Axis, Setting, Value};
use super::BalanceArgs;
use crate::games::Playable;
use crate::runner::seat_specs;
use crate::setup::GameArgs;
use anyhow::{bail, Context, Result};
use shifu_agents::check_agent;

/// Settings that may drop others at a look: the best so many by the first objective. Each is a
/// test a setting faces, so fewer give a race more power; the best few drop nearly everything a
/// lower one would.
pub const ELIMINATORS: usize = 4;

/// Checks the numeric options.
pub(super) fn check_args(a: &BalanceArgs) -> Result<()> {
    crate::equivalence::check_margin(a.margin).map_err(anyhow::Error::msg)?;
    if !(a.error_rate > 0.0 && a.error_rate < 1.0) {
        bail!(
            "--error-rate {}: a probability above 0 and below 1",
            a.error_rate
        );
    }
    if a.first_look < 2 || a.first_look > a.max_games {
        bail!(
            "--first-look {}: at least 2 and at most --max-games ({})",
            a.first_look,
            a.max_games
        );
    }
    if a.finalists == 0 {
        bail!("--finalists must be at least 1");
    }
    if a.budget.is_some_and(|b| b < 2) {
        bail!("--budget must be at least 2 games");
    }
    if a.validation_games < 2 {
        bail!("--validation-games must be at least 2");
    }
    Ok(())
}

/// The axes of `--search`, each checked against the game: a `LO..HI` axis is per seat when the
/// game takes a single integer for the key, or else one per seat.
fn probes<G: Playable>(args: &BalanceArgs, seats: usize) -> Result<Vec<Probe>> {
    let mut probes: Vec<Probe> = Vec::new();
    for s in &args.search {
        let (key, spec) = space::parse_axis(s)?;
        if probes.iter().any(|a| a.key == key) {
            bail!("--search {key} is given twice; give all its values in one --search");
        }
        if key == "players" {
            bail!("--search players: a race compares settings seat by seat at one player count; run one per count with --players");
        }
        let per_seat = match &spec {
            space::AxisSpec::Ints(lo, _) => {
                let single = try_build::<G>(&args.game, &[format!("{key}={lo}")]);
                let each = vec![lo.to_string(); seats].join(",");
                match (
                    single,
                    try_build::<G>(&args.game, &[format!("{key}={each}")]),
                ) {
                    (Ok(()), _) => None,
                    (Err(_), Ok(())) => Some(seats),
                    (Err(e), Err(_)) => return Err(e.context(format!("--search {s}"))),
                }
            }
            _ => None,
        };
        probes.push(Probe {
            key,
            spec,
            per_seat,
        });
    }
    Ok(probes)
}

/// The axes listed: every value, every per-seat vector.
fn axes(probes: &[Probe]) -> Result<Vec<Axis>> {
    probes
        .iter()
        .map(|p| {
            Ok(Axis {
                key: p.key.clone(),
                values: p.spec.values(p.per_seat)?,
                per_seat: p.per_seat.is_some(),
            })
        })
        .collect()
}

fn try_build<G: Playable>(base: &GameArgs, set: &[String]) -> Result<()> {
    let mut ga = base.clone();
    ga.set.extend(set.iter().cloned());
    ga.build::<G>().map(|_| ())
}

/// The reference (rulebook) value of each axis: `--reference`, else the base game's parameter.
fn references<G: Playable>(
    args: &BalanceArgs,
    base: &G,
    axes: &[Probe],
) -> Result<Vec<Option<Value>>> {
    let toml: toml::Table = base.params_toml().parse().unwrap_or_default();
    axes.iter()
        .map(|a| {
            let given = args.reference.iter().find_map(|r| {
                r.split_once('=')
                    .filter(|(k, _)| k.trim() == a.key)
                    .map(|(_, v)| v.trim().to_string())
            });
            let text = given.or_else(|| base.default_setting(&a.key)).or_else(|| {
                toml.get(&a.key).map(|v| match v {
                    toml::Value::Array(x) => x
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
            });
            Ok(text.map(|t| Value {
                coords: t
                    .split(',')
                    .map(|x| x.trim().parse::<f64>())
                    .collect::<Result<Vec<_>, _>>()
                    .unwrap_or_default(),
                text: t,
            }))
        })
        .collect()
}

/// Everything a balance run needs, built and checked before any game is played.
pub struct Setup<G> {
    /// The settings, in order.
    pub settings: Vec<Setting>,
    /// Each setting's game.
    pub games: Vec<G>,
    /// Their distances from the reference.
    pub distances: Vec<f64>,
    /// Every axis has a reference (rulebook) value, so the distances mean something.
    pub has_reference: bool,
    /// The objectives.
    pub plan: Plan,
    /// The race's agents by seat.
    pub specs: Vec<String>,
    /// The validation's agents by seat.
    pub validate_specs: Vec<String>,
    /// Seats at the table.
    pub seats: usize,
    /// The race's settings.
    pub race: RaceConfig,
    /// The worker pool.
    pub pool: rayon::ThreadPool,
    /// The space as dimensions, for `--method ntbea` (the settings are then left unlisted).
    pub dims: Option<super::dims::Space>,
    /// The skill games of `--objective skill=MARGIN`.
    pub skill: Option<super::skill::Skill>,
    /// Games per recorded row: 1, plus the row's skill games.
    pub per_row: u64,
    /// The shard this process plays, in a sharded run.
    pub shard: Option<super::shard::Sharding>,
}

pub fn setup<G: Playable>(args: &BalanceArgs) -> Result<Setup<G>> {
    check_args(args)?;
    let base: G = args.game.build()?;
    let seats = base.num_seats();
    let probes = probes::<G>(args, seats)?;
    let sums: Vec<space::Sum> = args
        .sum
        .iter()
        .map(|s| space::parse_sum(s))
        .collect::<Result<_>>()?;
    let reference = references(args, &base, &probes)?;
    // The race lists every setting; NTBEA computes them from the dimensions when needed.
    let (axes, dims) = if args.method == super::search::Method::Ntbea {
        super::search::check_args(args)?;
        let dims = super::dims::Space::new(&probes, reference.clone())?;
        (Vec::new(), Some(dims))
    } else {
        (axes(&probes)?, None)
    };
    let settings = if dims.is_some() {
        Vec::new()
    } else {
        space::settings(&axes, &sums)?
    };
    let objectives = objectives::<G>(args, &probes, &reference)?;
    let plan = Plan::new::<G>(&objectives, seats, args.margin)?;
    let skill = super::skill::from_args(
        &objectives,
        args.strong.as_deref(),
        args.weak.as_deref(),
        &base,
        seats,
        super::skill::column(&plan.columns),
    )?;
    let per_row = 1 + skill.as_ref().map_or(0, super::skill::Skill::games_per_row);
    let games = settings
        .iter()
        .map(|s| {
            let mut ga = args.game.clone();
            ga.set.extend(s.set.iter().cloned());
            ga.build::<G>()
                .with_context(|| format!("setting {}", s.name()))
        })
        .collect::<Result<Vec<G>>>()?;
    let (specs, validate_specs) = agents(args, &base, seats)?;
    let has_reference = reference.iter().all(Option::is_some);
    let distances = settings
        .iter()
        .map(|s| space::distance(&axes, s, &reference))
        .collect();
    let race = race_config(args, settings.len() as u64, dims.is_some(), per_row);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    Ok(Setup {
        settings,
        games,
        distances,
        has_reference,
        plan,
        specs,
        validate_specs,
        seats,
        race,
        pool,
        dims,
        skill,
        per_row,
        shard: None,
    })
}

/// The objectives: the given ones, else `fair` (`target:win=0.5` for a cooperative game);
/// `distance` needs a rulebook value for every searched key.
fn objectives<G: Playable>(
    args: &BalanceArgs,
    probes: &[Probe],
    reference: &[Option<Value>],
) -> Result<Vec<String>> {
    let objectives = if args.objective.is_empty() {
        vec![if G::INFO.cooperative {
            "target:win=0.5".to_string()
        } else {
            "fair".to_string()
        }]
    } else {
        args.objective.clone()
    };
    if objectives.iter().any(|o| o == "distance") && reference.iter().any(Option::is_none) {
        let missing: Vec<&str> = probes
            .iter()
            .zip(reference)
            .filter(|(_, r)| r.is_none())
            .map(|(a, _)| a.key.as_str())
            .collect();
        bail!(
            "--objective distance: no rulebook value for {}; give it with --reference KEY=VALUE",
            missing.join(", ")
        );
    }
    Ok(objectives)
}

/// The race's and the validation's agent specs, one per seat, each checked against the game.
fn agents<G: Playable>(
    args: &BalanceArgs,
    base: &G,
    seats: usize,
) -> Result<(Vec<String>, Vec<String>)> {
    let specs = seat_specs(&args.agents, seats)?;
    let validate_specs = seat_specs(
        args.validate_agents.as_deref().unwrap_or(&args.agents),
        seats,
    )?;
    for s in specs.iter().chain(&validate_specs) {
        check_agent(base, s)?;
    }
    Ok((specs, validate_specs))
}

/// The race's looks and budget: by default 1,000 games per setting (at least 20,000), or
/// NTBEA's default evaluations; a full grid plays every setting to --max-games.
fn race_config(args: &BalanceArgs, settings: u64, ntbea: bool, per_row: u64) -> RaceConfig {
    let budget = if args.full_grid {
        settings * args.max_games * per_row
    } else {
        args.budget.unwrap_or(if ntbea {
            super::search::DEFAULT_EVALUATIONS * args.batch * per_row
        } else {
            (1_000 * settings).max(20_000) * per_row
        })
    };
    RaceConfig {
        first_look: args.first_look,
        max_games: args.max_games,
        budget,
        error_rate: args.error_rate,
        eliminators: ELIMINATORS,
        full_grid: args.full_grid,
    }
}
