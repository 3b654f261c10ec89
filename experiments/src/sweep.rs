//! `shifu sweep`: a grid over parameters, the same seeds in every cell, a seat analysis per cell
//! with a Holm correction across cells and an equivalence verdict, each cell's paired difference
//! to a baseline cell ([`crate::paired`]), the fairest cell with its bootstrap probability of
//! being the fairest and the command that re-tests it on fresh seeds, and the effect size the
//! game count can detect.

use crate::games::Playable;
use crate::paired::{paired_bootstrap, share_differences, unfairness, CellShares, Interval};
use crate::runner::{play_stream, progress_bar, seat_specs};
use crate::seats::SeatUnits;
use crate::setup::{GameArgs, RunArgs, VerdictArgs};
use crate::stats::{capped_warning, CAPPED_WARN};
use crate::summary::{Judging, SeatStats};
use crate::tally::Tally;
use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use shifu_agents::check_agent;
use shifu_engine::present::EventKind;

/// Options of `shifu sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    game: GameArgs,
    /// A parameter and its values: `key=v1/v2/v3` (values may contain commas, as lists do) or
    /// `key=v1,v2,v3` for single values. Repeat for a grid.
    #[arg(long, value_name = "KEY=VALUES")]
    vary: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    verdict: VerdictArgs,
    /// The baseline cell every other is compared with, by its overrides as the table names it
    /// (for example --baseline "start_coins=2,2,2,2"); the first cell by default.
    #[arg(long, value_name = "KEY=VALUE...")]
    baseline: Option<String>,
    /// Also write one CSV row per cell (for `shifu report`, which draws a heatmap).
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Splits `key=values` into the key and its values.
fn parse_vary(v: &str) -> Result<(String, Vec<String>)> {
    let (k, vals) = v
        .split_once('=')
        .with_context(|| format!("--vary `{v}`: expected key=v1/v2 or key=v1,v2"))?;
    let sep = if vals.contains('/') { '/' } else { ',' };
    let values: Vec<String> = vals.split(sep).map(|x| x.trim().to_string()).collect();
    if values.iter().any(|x| x.is_empty()) {
        bail!("--vary `{v}`: an empty value");
    }
    Ok((k.trim().to_string(), values))
}

pub use crate::stats::holm;

/// The grid's cells, each a list of key=value overrides, from `--vary` options.
pub fn grid(vary: &[String]) -> Result<Vec<Vec<(String, String)>>> {
    let axes: Vec<(String, Vec<String>)> =
        vary.iter().map(|v| parse_vary(v)).collect::<Result<_>>()?;
    if axes.iter().any(|(k, _)| k == "players") {
        bail!("--vary players: a grid compares cells seat by seat, so it keeps one player count; run one sweep per count with --players");
    }
    for (i, (k, _)) in axes.iter().enumerate() {
        if axes[..i].iter().any(|(j, _)| j == k) {
            bail!("--vary {k} is given twice; give all its values in one --vary");
        }
    }
    let mut cells: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (k, values) in &axes {
        cells = cells
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((k.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    Ok(cells)
}

/// A cell's name: its overrides as `key=value` words.
pub fn cell_name(c: &[(String, String)]) -> String {
    c.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Builds every cell's game first, so that a bad value fails before any game is played.
pub fn build_cells<G: Playable>(
    base: &GameArgs,
    cells: &[Vec<(String, String)>],
) -> Result<Vec<G>> {
    cells
        .iter()
        .map(|c| {
            let mut ga = base.clone();
            ga.set.extend(c.iter().map(|(k, v)| format!("{k}={v}")));
            ga.build().with_context(|| format!("cell {}", cell_name(c)))
        })
        .collect()
}

/// One cell of a sweep: its settings, seat table and the game's supply events.
#[derive(Debug, Clone, Serialize)]
pub struct SweepCell {
    /// The cell's overrides as `key=value` words.
    pub cell: String,
    /// The seat table and the test of equal chances.
    pub stats: SeatStats,
    /// The chi-square p-value Holm-corrected across the cells; none when the round cap decides
    /// the cell (it takes no part in the correction).
    pub holm_p: Option<f64>,
    /// Share of games in which each of the game's `RanOut` events happened, in the order of
    /// [`SweepResult::events`].
    pub event_shares: Vec<f64>,
    /// Unfairness: the largest |win share − 1/n| over the seats (over the turn positions from
    /// the first start player where the game draws one); none in a cooperative game.
    pub unfairness: Option<f64>,
    /// The paired difference to the baseline cell; none for the baseline itself and in a
    /// cooperative game.
    pub to_baseline: Option<ToBaseline>,
    /// The bootstrap probability that this cell has the lowest unfairness of the grid; none
    /// when the round cap decides the cell (it cannot be best) or the game is cooperative.
    pub p_best: Option<f64>,
}

/// A cell's paired difference to the baseline cell, unit by unit on the shared seeds.
#[derive(Debug, Clone, Serialize)]
pub struct ToBaseline {
    /// Each seat's (or turn position's) win-share difference, this cell minus the baseline,
    /// with a normal 95% interval.
    pub shares: Vec<Interval>,
    /// The difference in unfairness, with a 95% paired-bootstrap percentile interval.
    pub unfairness: Interval,
}

/// The fairest cell of the grid and how sure that is.
#[derive(Debug, Clone, Serialize)]
pub struct BestCell {
    /// The cell.
    pub cell: String,
    /// Its unfairness.
    pub unfairness: f64,
    /// Its bootstrap probability of having the lowest unfairness.
    pub p_best: f64,
    /// The command that re-tests it on fresh seeds.
    pub retest: String,
}

/// What `shifu sweep` finds.
#[derive(Debug, Clone, Serialize)]
pub struct SweepResult {
    /// The game.
    pub game: String,
    /// Seats at the table.
    pub players: usize,
    /// The agent specs by seat.
    pub agents: Vec<String>,
    /// Games per cell, on the same seeds.
    pub games_per_cell: u64,
    /// The master seed.
    pub master_seed: u64,
    /// Whether the agents were rotated through the seats.
    pub rotate: bool,
    /// The game's events shown per cell (by label: `coins_out_round` is `coins_out`).
    pub events: Vec<String>,
    /// Every cell of the grid.
    pub cells: Vec<SweepCell>,
    /// The baseline cell of the paired differences.
    pub baseline: String,
    /// What the components of the verdicts and differences are: `seat`, or `turn position`
    /// (from the first start player, where the game draws one).
    pub components: String,
    /// Units behind the paired comparison: games, or seeds under rotation.
    pub units: u64,
    /// The fairest cell not decided by the round cap, by unfairness; none when every cell is
    /// decided by the cap or the game is cooperative.
    pub best: Option<BestCell>,
    /// Replicates of the paired bootstrap.
    pub replicates: usize,
    /// The warning for the cell with the most capped games, when it is over the limit.
    pub capped_warning: Option<String>,
    /// The equal share 1/n.
    pub equal_share: f64,
    /// The gap from the equal share found at 5% significance with 80% power.
    pub detectable_effect: f64,
}

pub fn run(args: SweepArgs) -> Result<()> {
    let result = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    if let Some(path) = &args.out {
        crate::sweep_table::write_csv(path, &result)?;
    }
    crate::render::emit(&result, args.json)
}

/// The game's events a sweep and a calibration show: those of kind [`EventKind::RanOut`] (the
/// round at which a supply ran out), by index and label.
pub fn round_events<G: Playable>() -> Vec<(usize, String)> {
    G::EVENTS
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == EventKind::RanOut)
        .map(|(i, e)| (i, e.label.to_string()))
        .collect()
}

/// A grid's cells, each a list of key=value overrides.
pub type Cells = Vec<Vec<(String, String)>>;

/// Checks the settings and builds every cell's game; returns the cells, their games and the
/// agent specs by seat.
fn prepare<G: Playable>(args: &SweepArgs) -> Result<(Cells, Vec<G>, Vec<String>)> {
    if args.vary.is_empty() {
        bail!("give at least one --vary key=values");
    }
    if args.run.games == 0 {
        bail!("--games must be at least 1");
    }
    let cells = grid(&args.vary)?;
    let games: Vec<G> =
        build_cells(&args.game, &cells).map_err(|e| {
            match crate::suggest::vary_hint(&args.vary, &format!("{e:#}")) {
                Some(hint) => anyhow::anyhow!("{e:#}; {hint}"),
                None => e,
            }
        })?;
    let seats = games[0].num_seats();
    let specs = seat_specs(&args.run.agents, seats)?;
    for s in &specs {
        check_agent(&games[0], s)?;
    }
    if args.run.rotate && specs.iter().all(|s| s == &specs[0]) {
        bail!("--rotate with the same agent in every seat would play each seed {seats} times identically; drop --rotate");
    }
    Ok((cells, games, specs))
}

/// Plays every cell on the same seeds: one tally a cell.
pub fn play_cells<G: Playable>(
    games: &[G],
    specs: &[String],
    run: &RunArgs,
    quiet: bool,
) -> Result<Vec<Tally<G::Stats>>> {
    let played = play_cells_with_units(games, specs, run, quiet, false)?;
    Ok(played.into_iter().map(|(t, _)| t).collect())
}

/// Plays every cell on the same seeds: a tally a cell, and its per-unit win shares (by turn
/// position where the game draws a start player), each unit's kept when `keep`.
pub fn play_cells_with_units<G: Playable>(
    games: &[G],
    specs: &[String],
    run: &RunArgs,
    quiet: bool,
    keep: bool,
) -> Result<Vec<(Tally<G::Stats>, SeatUnits)>> {
    let seats = games[0].num_seats();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads.unwrap_or(0))
        .build()?;
    let mut cells = Vec::new();
    let bar = progress_bar(run.games * games.len() as u64, quiet);
    let by_position = crate::summary::start_event(G::EVENTS).is_some();
    for g in games {
        let mut t = Tally::default();
        let mut u = SeatUnits::new(seats, run.rotate, by_position);
        if keep {
            u = u.keeping();
        }
        play_stream(g, specs, run.seed, run.rotate, 0..run.games, &pool, |r| {
            t.add(&r, seats);
            u.add(r.index, &r.outcome, crate::play::first_start::<G>(&r));
            bar.inc(1);
            Ok(())
        })?;
        cells.push((t, u));
    }
    bar.finish_and_clear();
    Ok(cells)
}

fn run_game<G: Playable>(args: &SweepArgs) -> Result<SweepResult> {
    let (cells, games, specs) = prepare::<G>(args)?;
    let names: Vec<String> = cells.iter().map(|c| cell_name(c)).collect();
    let base = baseline_index(&names, args.baseline.as_deref())?;
    let seats = games[0].num_seats();
    let mut played = play_cells_with_units(&games, &specs, &args.run, args.quiet, true)?;
    let max_rounds = games[0].max_rounds();
    let coop = G::INFO.cooperative;
    let stats: Vec<SeatStats> = played
        .iter_mut()
        .map(|(t, u)| {
            let j = Judging {
                margin: args.verdict.margin,
                seed: args.run.seed,
                cooperative: coop,
                units: Some(u.shares()),
            };
            SeatStats::new(t, &specs, args.run.rotate, max_rounds, &j)
        })
        .collect();
    // Cells the round cap decides give no verdict: no p-value, no balance, not the best cell,
    // and no part in the Holm correction.
    let open: Vec<bool> = stats
        .iter()
        .map(|s| s.capped.share <= CAPPED_WARN)
        .collect();
    let kept: Vec<f64> = (0..stats.len())
        .filter(|&i| open[i])
        .map(|i| stats[i].p_value)
        .collect();
    let mut kept_adj = holm(&kept).into_iter();
    let events = round_events::<G>();
    let shares: Vec<CellShares<'_>> = played
        .iter()
        .map(|(_, u)| CellShares {
            shares: u.kept(),
            k: u.components(),
        })
        .collect();
    let paired = (!coop).then(|| paired_bootstrap(&shares, &open, base, args.run.seed));
    let unfair: Vec<f64> = shares.iter().map(|c| unfairness(&c.means())).collect();
    let n = args.run.games as f64;
    let out_cells: Vec<SweepCell> = names
        .iter()
        .zip(stats)
        .zip(&played)
        .enumerate()
        .map(|(i, ((name, stats), (t, _)))| SweepCell {
            cell: name.clone(),
            stats,
            holm_p: open[i].then(|| kept_adj.next().unwrap_or(1.0)),
            event_shares: events
                .iter()
                .map(|(e, _)| t.events[*e] as f64 / n)
                .collect(),
            unfairness: (!coop).then_some(unfair[i]),
            to_baseline: paired.as_ref().filter(|_| i != base).map(|p| ToBaseline {
                shares: share_differences(shares[i], shares[base]),
                unfairness: p.unfairness_diff[i],
            }),
            p_best: paired.as_ref().and_then(|p| p.p_best[i]),
        })
        .collect();
    let best = (0..out_cells.len())
        .filter(|&i| open[i] && !coop)
        .min_by(|&x, &y| unfair[x].total_cmp(&unfair[y]))
        .map(|i| BestCell {
            cell: names[i].clone(),
            unfairness: unfair[i],
            p_best: out_cells[i].p_best.unwrap_or(0.0),
            retest: retest_command(args, &specs, &cells[i]),
        });
    let worst = played.iter().map(|(t, _)| t.capped).max().unwrap_or(0);
    let p0 = 1.0 / seats as f64;
    let by_position = crate::summary::start_event(G::EVENTS).is_some();
    Ok(SweepResult {
        game: games[0].name().to_string(),
        players: seats,
        agents: specs,
        games_per_cell: args.run.games,
        master_seed: args.run.seed,
        rotate: args.run.rotate,
        events: events.into_iter().map(|(_, e)| e).collect(),
        cells: out_cells,
        baseline: names[base].clone(),
        components: if by_position { "turn position" } else { "seat" }.into(),
        units: shares.first().map_or(0, |c| c.units() as u64),
        best,
        replicates: crate::paired::REPLICATES,
        capped_warning: capped_warning(worst, args.run.games, max_rounds),
        equal_share: p0,
        detectable_effect: (1.959_964 + 0.841_621) * (p0 * (1.0 - p0) / n).sqrt(),
    })
}

/// The index of the `--baseline` cell among the cells `names` (the first when none is given).
fn baseline_index(names: &[String], baseline: Option<&str>) -> Result<usize> {
    let Some(b) = baseline else {
        return Ok(0);
    };
    names.iter().position(|n| n == b.trim()).with_context(|| {
        format!(
            "--baseline `{b}` is not a cell of the grid; the cells are: {}",
            names.join("; ")
        )
    })
}

/// The `shifu seats` command that plays cell `cell` of the sweep `args` again on fresh seeds
/// (another master seed): a cell picked as the best of a grid is favoured by its own seeds'
/// luck, and only fresh games measure it without that bias.
fn retest_command(args: &SweepArgs, specs: &[String], cell: &[(String, String)]) -> String {
    let g = &args.game;
    let mut words = vec![
        "shifu seats".to_string(),
        format!("--game {}", g.game),
        format!("--players {}", specs.len()),
        format!("--agents {}", quote(&args.run.agents)),
        format!("--games {}", args.run.games),
    ];
    if let Some(d) = &g.data {
        words.push(format!("--data {}", quote(&d.display().to_string())));
    }
    if let Some(c) = &g.config {
        words.push(format!("--config {}", quote(&c.display().to_string())));
    }
    let sets = g
        .set
        .iter()
        .cloned()
        .chain(cell.iter().map(|(k, v)| format!("{k}={v}")));
    words.extend(sets.map(|s| format!("--set {}", quote(&s))));
    if args.run.rotate {
        words.push("--rotate".into());
    }
    if (args.verdict.margin - crate::equivalence::DEFAULT_MARGIN).abs() > 0.0 {
        words.push(format!("--margin {}", args.verdict.margin));
    }
    words.push(format!("--seed {}", args.run.seed.wrapping_add(1)));
    words.join(" ")
}

/// `s` quoted for a POSIX shell when it holds anything but plain word characters.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,:/+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_splits_lists_on_slashes_and_values_on_commas() {
        let (k, v) = parse_vary("start_coins=1,2,2,3/2,2,2,2").unwrap();
        assert_eq!(k, "start_coins");
        assert_eq!(v, vec!["1,2,2,3", "2,2,2,2"]);
        let (_, v) = parse_vary("town_objective_cost_scale=0.5,1,1.5").unwrap();
        assert_eq!(v, vec!["0.5", "1", "1.5"]);
        assert!(parse_vary("nokey").is_err());
    }

    #[test]
    fn holm_adjusts_in_step_down_order() {
        let adj = holm(&[0.01, 0.04, 0.03]);
        // Sorted: 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max so far 0.06.
        assert!((adj[0] - 0.03).abs() < 1e-12);
        assert!((adj[2] - 0.06).abs() < 1e-12);
        assert!((adj[1] - 0.06).abs() < 1e-12);
    }
}
