//! `shifu sweep`: a grid over parameters, the same seeds in every cell, a seat analysis per cell
//! with a Holm correction across cells, the most balanced cell, and the effect size the game count
//! can detect.

use crate::format::p_number;
use crate::games::Playable;
use crate::runner::{play_stream, progress_bar, seat_specs};
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
    /// The most balanced cell not decided by the round cap.
    pub most_balanced: Option<String>,
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
        write_csv(path, &result)?;
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
    let seats = games[0].num_seats();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads.unwrap_or(0))
        .build()?;
    let mut tallies = Vec::new();
    let bar = progress_bar(run.games * games.len() as u64, quiet);
    for g in games {
        let mut t = Tally::default();
        play_stream(g, specs, run.seed, run.rotate, 0..run.games, &pool, |r| {
            t.add(&r, seats);
            bar.inc(1);
            Ok(())
        })?;
        tallies.push(t);
    }
    bar.finish_and_clear();
    Ok(tallies)
}

fn run_game<G: Playable>(args: &SweepArgs) -> Result<SweepResult> {
    let (cells, games, specs) = prepare::<G>(args)?;
    let seats = games[0].num_seats();
    let tallies = play_cells(&games, &specs, &args.run, args.quiet)?;
    let max_rounds = games[0].max_rounds();
    let stats: Vec<SeatStats> = tallies
        .iter()
        .map(|t| {
            let j = Judging::totals(args.verdict.margin, args.run.seed, G::INFO.cooperative);
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
    let mut best: Option<usize> = None;
    for i in (0..stats.len()).filter(|&i| open[i]) {
        if best.is_none_or(|j| stats[i].balance > stats[j].balance) {
            best = Some(i);
        }
    }
    let n = args.run.games as f64;
    let out_cells = cells
        .iter()
        .zip(stats)
        .zip(&tallies)
        .enumerate()
        .map(|(i, ((c, stats), t))| SweepCell {
            cell: cell_name(c),
            stats,
            holm_p: open[i].then(|| kept_adj.next().unwrap_or(1.0)),
            event_shares: events
                .iter()
                .map(|(e, _)| t.events[*e] as f64 / n)
                .collect(),
        })
        .collect();
    let worst = tallies.iter().map(|t| t.capped).max().unwrap_or(0);
    let p0 = 1.0 / seats as f64;
    Ok(SweepResult {
        game: games[0].name().to_string(),
        players: seats,
        agents: specs,
        games_per_cell: args.run.games,
        master_seed: args.run.seed,
        rotate: args.run.rotate,
        events: events.into_iter().map(|(_, e)| e).collect(),
        cells: out_cells,
        most_balanced: best.map(|i| cell_name(&cells[i])),
        capped_warning: capped_warning(worst, args.run.games, max_rounds),
        equal_share: p0,
        detectable_effect: (1.959_964 + 0.841_621) * (p0 * (1.0 - p0) / n).sqrt(),
    })
}

impl SweepCell {
    /// The cell's row of the markdown table.
    fn table_row(&self) -> String {
        let st = &self.stats;
        let mut row = format!("| {} |", self.cell);
        for s in &st.seats {
            row.push_str(&format!(
                " {:.4} [{:.4}, {:.4}] |",
                s.win_share, s.ci_low, s.ci_high
            ));
        }
        let (p_text, adj_text, b_text) = match self.holm_p {
            Some(adj) => (
                p_number(st.p_value),
                p_number(adj),
                match &st.balance_interval {
                    Some(b) => format!(
                        "{:.4} | {:.4} [{:.4}, {:.4}]",
                        st.balance, b.corrected, b.ci_low, b.ci_high
                    ),
                    None => format!("{:.4} | n/a", st.balance),
                },
            ),
            None => {
                let cap = "(cap decides)".to_string();
                (cap.clone(), cap.clone(), format!("{cap} | {cap}"))
            }
        };
        let capped = st.capped.share;
        row.push_str(&format!(
            " {p_text} | {adj_text} | {b_text} | {:.1}%{} | {:.1} |",
            100.0 * capped,
            if capped > CAPPED_WARN { " (!)" } else { "" },
            st.mean_rounds
        ));
        for share in &self.event_shares {
            row.push_str(&format!(" {:.1}% |", 100.0 * share));
        }
        row
    }
}

impl std::fmt::Display for SweepResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} with {} players, agents {}, {} games per cell on the same seeds (master seed {}){}",
            self.game,
            self.players,
            self.agents.join(" | "),
            self.games_per_cell,
            self.master_seed,
            if self.rotate {
                ", agents rotated through the seats"
            } else {
                ""
            }
        )?;
        writeln!(f)?;
        let mut head = String::from("| cell |");
        for s in 1..=self.players {
            head.push_str(&format!(" seat {s} win share [95% CI] |"));
        }
        head.push_str(
            " chi-square p | Holm p | balance | balance corrected [95% CI] | capped | mean rounds |",
        );
        for e in &self.events {
            head.push_str(&format!(" {} |", e.replace('_', " ")));
        }
        writeln!(f, "{head}")?;
        writeln!(
            f,
            "|{}",
            " --- |".repeat(self.players + 7 + self.events.len())
        )?;
        for c in &self.cells {
            writeln!(f, "{}", c.table_row())?;
        }
        if let Some(w) = &self.capped_warning {
            writeln!(f)?;
            writeln!(f, "cells marked (!): {w}")?;
        }
        writeln!(f)?;
        match &self.most_balanced {
            Some(c) => writeln!(f, "most balanced cell: {c}")?,
            None => writeln!(
                f,
                "no most balanced cell: every cell is decided by the round cap (more than {:.0}% of its games capped); play stronger agents (--agents greedy) or raise max_rounds",
                100.0 * CAPPED_WARN
            )?,
        }
        writeln!(
            f,
            "detectable effect: with {} games per cell, a seat whose win rate differs from {:.3} by {:.4} or more is found at 5% significance with 80% power",
            self.games_per_cell, self.equal_share, self.detectable_effect
        )
    }
}

/// `--out`: one CSV row per cell, for `shifu report`.
fn write_csv(path: &std::path::Path, r: &SweepResult) -> Result<()> {
    shifu_engine::files::check_output(path)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["cell".to_string(), "games".into()];
    for s in 1..=r.players {
        head.extend([
            format!("win_share_{s}"),
            format!("ci_low_{s}"),
            format!("ci_high_{s}"),
        ]);
    }
    head.extend(
        [
            "chi_square_p",
            "holm_p",
            "balance",
            "balance_corrected",
            "balance_ci_low",
            "balance_ci_high",
            "capped",
            "mean_rounds",
        ]
        .map(String::from),
    );
    head.extend(r.events.iter().map(|e| format!("{e}_share")));
    w.write_record(&head)?;
    for c in &r.cells {
        let st = &c.stats;
        let mut row = vec![c.cell.clone(), r.games_per_cell.to_string()];
        for s in &st.seats {
            row.extend([
                s.win_share.to_string(),
                s.ci_low.to_string(),
                s.ci_high.to_string(),
            ]);
        }
        row.extend([
            st.p_value.to_string(),
            c.holm_p.unwrap_or(f64::NAN).to_string(),
            st.balance.to_string(),
        ]);
        let b = st.balance_interval.as_ref();
        row.extend(
            [
                b.map(|b| b.corrected),
                b.map(|b| b.ci_low),
                b.map(|b| b.ci_high),
            ]
            .map(|x| x.unwrap_or(f64::NAN).to_string()),
        );
        row.extend([st.capped.share.to_string(), st.mean_rounds.to_string()]);
        row.extend(c.event_shares.iter().map(|s| s.to_string()));
        w.write_record(&row)?;
    }
    Ok(shifu_engine::files::write_atomic(path, &w.into_inner()?)?)
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
