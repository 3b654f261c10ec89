//! `shifu calibrate`: sweep parameters (for Tofu Shifu, the reconstruction knobs) on the same
//! seeds and report, per cell, how long games last and how often they end by the rules or run a
//! supply dry, against stated targets. The documented procedure behind the default data.

use crate::games::Playable;
use crate::runner::seat_specs;
use crate::setup::{GameArgs, RunArgs};
use crate::stats::wilson;
use crate::sweep::{build_cells, cell_name, grid, play_cells};
use crate::tally::Tally;
use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use shifu_agents::check_agent;
use std::path::PathBuf;

/// Options of `shifu calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    #[command(flatten)]
    game: GameArgs,
    /// A parameter and its values, as in `shifu sweep` (repeat for a grid; none: one cell, the
    /// game as given).
    #[arg(long, value_name = "KEY=VALUES")]
    vary: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
    /// Target mean game length in rounds, LO-HI.
    #[arg(long, default_value = "20-40", value_name = "LO-HI")]
    target_rounds: String,
    /// Largest share of games stopped by the round cap that meets the target.
    #[arg(long, default_value_t = 0.0, value_name = "SHARE")]
    max_capped: f64,
    /// Largest share of games in which a supply runs out (each of the game's `RanOut` events,
    /// for Tofu Shifu the coin reserve and the deck) that meets the target.
    #[arg(long, default_value_t = 0.05, value_name = "SHARE")]
    max_run_out: f64,
    /// Also write one CSV row per cell.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The targets a cell is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Targets {
    /// Mean rounds, lowest and highest.
    pub rounds: (f64, f64),
    /// Largest capped share.
    pub capped: f64,
    /// Largest share of games with a supply run out.
    pub run_out: f64,
}

/// Parses `LO-HI`.
fn parse_range(s: &str) -> Result<(f64, f64)> {
    let (lo, hi) = s
        .split_once('-')
        .with_context(|| format!("--target-rounds `{s}`: expected LO-HI, for example 20-40"))?;
    let lo: f64 = lo
        .trim()
        .parse()
        .context("--target-rounds: LO is not a number")?;
    let hi: f64 = hi
        .trim()
        .parse()
        .context("--target-rounds: HI is not a number")?;
    if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi) {
        bail!("--target-rounds `{s}`: need 0 <= LO <= HI");
    }
    Ok((lo, hi))
}

/// One cell's figures.
#[derive(Debug, Clone, Serialize)]
pub struct CellFigures {
    /// Games played.
    pub games: u64,
    /// Mean rounds and the half-width of its 95% interval.
    pub rounds: (f64, f64),
    /// Share of games stopped by the round cap.
    pub capped: f64,
    /// Share of games in which each supply ran out, by event name.
    pub run_out: Vec<(String, f64)>,
}

impl CellFigures {
    fn from_tally<G: Playable>(t: &Tally<G::Stats>) -> CellFigures {
        let n = t.games.max(1) as f64;
        CellFigures {
            games: t.games,
            rounds: t.mean_rounds(),
            capped: t.capped as f64 / n,
            run_out: crate::sweep::round_events::<G>()
                .into_iter()
                .map(|(i, label)| (label, t.events[i] as f64 / n))
                .collect(),
        }
    }

    /// The targets this cell misses (empty when it meets them all).
    pub fn misses(&self, t: &Targets) -> Vec<String> {
        let mut m = Vec::new();
        if self.rounds.0 < t.rounds.0 || self.rounds.0 > t.rounds.1 {
            m.push("rounds".to_string());
        }
        if self.capped > t.capped {
            m.push("capped".to_string());
        }
        for (e, share) in &self.run_out {
            if *share > t.run_out {
                m.push(e.replace('_', " "));
            }
        }
        m
    }

    /// How far the cell is from the targets: 0 when it meets them, else the sum of the
    /// relative misses (used to rank cells when none meets every target).
    pub fn distance(&self, t: &Targets) -> f64 {
        let (lo, hi) = t.rounds;
        let r = self.rounds.0;
        let rounds = if r < lo {
            (lo - r) / lo.max(1.0)
        } else if r > hi {
            (r - hi) / hi.max(1.0)
        } else {
            0.0
        };
        let over = |x: f64, max: f64| (x - max).max(0.0);
        rounds
            + over(self.capped, t.capped)
            + self
                .run_out
                .iter()
                .map(|(_, s)| over(*s, t.run_out))
                .sum::<f64>()
    }
}

/// The cell to choose: among those meeting every target, the one whose mean length is nearest
/// the middle of the target range; if none meets them, the nearest miss.
pub fn choose(cells: &[CellFigures], t: &Targets) -> Option<usize> {
    let mid = (t.rounds.0 + t.rounds.1) / 2.0;
    let key = |c: &CellFigures| (c.distance(t), (c.rounds.0 - mid).abs());
    (0..cells.len()).min_by(|&a, &b| {
        key(&cells[a])
            .partial_cmp(&key(&cells[b]))
            .unwrap_or(std::cmp::Ordering::Equal)
    })
}

/// A second route to the targets: among the other cells meeting every target, the one that sets
/// the most parameters to values different from cell `chosen`'s (ties: mean length nearest the
/// middle of the range). A robustness check runs findings on both.
pub fn alternative(
    cells: &[Vec<(String, String)>],
    figures: &[CellFigures],
    t: &Targets,
    chosen: usize,
) -> Option<usize> {
    let mid = (t.rounds.0 + t.rounds.1) / 2.0;
    let differ = |i: usize| {
        cells[i]
            .iter()
            .filter(|kv| !cells[chosen].contains(kv))
            .count()
    };
    (0..cells.len())
        .filter(|&i| i != chosen && figures[i].misses(t).is_empty())
        .max_by(|&a, &b| {
            differ(a).cmp(&differ(b)).then(
                (figures[b].rounds.0 - mid)
                    .abs()
                    .total_cmp(&(figures[a].rounds.0 - mid).abs()),
            )
        })
}

/// One cell of a calibration: its settings, its figures and the targets it misses.
#[derive(Debug, Clone, Serialize)]
pub struct CalibrateCell {
    /// The cell's overrides as `key=value` words (empty: the game as given).
    pub cell: String,
    /// Its figures.
    pub figures: CellFigures,
    /// The targets it misses.
    pub missed: Vec<String>,
}

/// What `shifu calibrate` finds.
#[derive(Debug, Clone, Serialize)]
pub struct CalibrateResult {
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
    /// Seconds the games took.
    pub seconds: f64,
    /// The card data.
    pub data: String,
    /// When the varied knobs stack on the data's own, the note that says so.
    pub note: Option<String>,
    /// The targets.
    pub targets: Targets,
    /// Every cell of the grid.
    pub cells: Vec<CalibrateCell>,
    /// Cells meeting every target.
    pub meeting: usize,
    /// The chosen cell (or, when none meets the targets, the nearest miss), by index.
    pub chosen: Option<usize>,
    /// A second route to the targets, by index.
    pub alternative: Option<usize>,
}

pub fn run(args: CalibrateArgs) -> Result<()> {
    let result = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    crate::render::emit(&result, args.json)
}

/// The targets of `args`, checked.
fn targets(args: &CalibrateArgs) -> Result<Targets> {
    if args.run.games == 0 {
        bail!("--games must be at least 1");
    }
    for (key, x) in [
        ("--max-capped", args.max_capped),
        ("--max-run-out", args.max_run_out),
    ] {
        if !(0.0..=1.0).contains(&x) {
            bail!("{key} must be a share from 0 to 1, got {x}");
        }
    }
    Ok(Targets {
        rounds: parse_range(&args.target_rounds)?,
        capped: args.max_capped,
        run_out: args.max_run_out,
    })
}

fn run_game<G: Playable>(args: &CalibrateArgs) -> Result<CalibrateResult> {
    let targets = targets(args)?;
    let cells = grid(&args.vary)?;
    let games: Vec<G> = build_cells(&args.game, &cells)?;
    let seats = games[0].num_seats();
    let specs = seat_specs(&args.run.agents, seats)?;
    for s in &specs {
        check_agent(&games[0], s)?;
    }
    if args.run.rotate {
        bail!("calibrate measures game length; --rotate does not apply");
    }
    let started = std::time::Instant::now();
    let tallies = play_cells(&games, &specs, &args.run, args.quiet)?;
    let figures: Vec<CellFigures> = tallies.iter().map(CellFigures::from_tally::<G>).collect();
    let secs = started.elapsed().as_secs_f64();
    let base: G = args.game.build()?;
    let chosen = choose(&figures, &targets);
    let meeting = figures
        .iter()
        .filter(|f| f.misses(&targets).is_empty())
        .count();
    let alternative = chosen
        .filter(|_| meeting > 0)
        .and_then(|i| alternative(&cells, &figures, &targets, i));
    let result = CalibrateResult {
        game: base.name().to_string(),
        players: base.num_seats(),
        agents: specs,
        games_per_cell: args.run.games,
        master_seed: args.run.seed,
        seconds: secs,
        data: base.data_label(),
        note: stacking_note(&base.data_label(), &args.vary),
        targets,
        cells: cells
            .iter()
            .zip(figures)
            .map(|(c, f)| CalibrateCell {
                cell: cell_name(c),
                missed: f.misses(&targets),
                figures: f,
            })
            .collect(),
        meeting,
        chosen,
        alternative,
    };
    if let Some(path) = &args.out {
        write_csv(path, &result)?;
    }
    Ok(result)
}

impl CalibrateCell {
    /// The cell's name in the table: `(as given)` for the game without overrides.
    fn label(&self) -> String {
        if self.cell.is_empty() {
            "(as given)".to_string()
        } else {
            self.cell.clone()
        }
    }

    /// The cell's row of the markdown table.
    fn table_row(&self) -> String {
        let f = &self.figures;
        let n = f.games as f64;
        let share = |x: f64| {
            let (lo, hi) = wilson(x * n, n);
            format!("{:.1}% [{:.1}, {:.1}]", 100.0 * x, 100.0 * lo, 100.0 * hi)
        };
        let outs: Vec<String> = f
            .run_out
            .iter()
            .map(|(_, s)| format!(" {} |", share(*s)))
            .collect();
        format!(
            "| {} | {:.1} [{:.1}, {:.1}] | {} |{} {} |",
            self.label(),
            f.rounds.0,
            f.rounds.0 - f.rounds.1,
            f.rounds.0 + f.rounds.1,
            share(f.capped),
            outs.concat(),
            if self.missed.is_empty() {
                "none".to_string()
            } else {
                self.missed.join(", ")
            }
        )
    }
}

impl CalibrateResult {
    /// The lines above the table: the run, the data, the note and the targets.
    fn fmt_head(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "calibration: {} with {} players, agents {}, {} games per cell on the same seeds (master seed {}), {} cells, {:.0} s",
            self.game,
            self.players,
            self.agents.join(" | "),
            self.games_per_cell,
            self.master_seed,
            self.cells.len(),
            self.seconds
        )?;
        writeln!(f, "card data: {}", self.data)?;
        if let Some(note) = &self.note {
            writeln!(f, "{note}")?;
        }
        let t = &self.targets;
        writeln!(
            f,
            "targets: mean rounds from {} to {}; capped at most {:.1}%; each supply runs out in at most {:.1}% of games",
            t.rounds.0,
            t.rounds.1,
            100.0 * t.capped,
            100.0 * t.run_out
        )
    }
}

impl std::fmt::Display for CalibrateResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.fmt_head(f)?;
        writeln!(f)?;
        let names: Vec<String> = self.cells[0]
            .figures
            .run_out
            .iter()
            .map(|(e, _)| format!(" {} [95% CI] |", e.replace('_', " ")))
            .collect();
        writeln!(
            f,
            "| cell | mean rounds [95% CI] | capped [95% CI] |{} missed |",
            names.concat()
        )?;
        writeln!(f, "|{}", " --- |".repeat(4 + names.len()))?;
        for c in &self.cells {
            writeln!(f, "{}", c.table_row())?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{} of {} cells meet every target.",
            self.meeting,
            self.cells.len()
        )?;
        if let Some(i) = self.chosen {
            writeln!(
                f,
                "{}: {}",
                if self.meeting > 0 {
                    "chosen (meets every target, mean length nearest the middle of the range)"
                } else {
                    "nearest miss"
                },
                self.cells[i].label()
            )?;
        }
        if let Some(j) = self.alternative {
            writeln!(
                f,
                "alternative (meets every target, the most values unlike the chosen cell's): {}",
                self.cells[j].cell
            )?;
        }
        Ok(())
    }
}

/// `--out`: one CSV row per cell.
fn write_csv(path: &std::path::Path, r: &CalibrateResult) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head: Vec<String> = ["cell", "games", "mean_rounds", "rounds_ci_half", "capped"]
        .map(String::from)
        .to_vec();
    let first = &r.cells[0].figures;
    head.extend(first.run_out.iter().map(|(e, _)| format!("{e}_share")));
    head.push("missed".into());
    w.write_record(&head)?;
    for c in &r.cells {
        let f = &c.figures;
        let mut row = vec![
            c.cell.clone(),
            f.games.to_string(),
            f.rounds.0.to_string(),
            f.rounds.1.to_string(),
            f.capped.to_string(),
        ];
        row.extend(f.run_out.iter().map(|(_, s)| s.to_string()));
        row.push(c.missed.join("|"));
        w.write_record(&row)?;
    }
    Ok(shifu_engine::files::write_atomic(path, &w.into_inner()?)?)
}

/// When the card data already carries reconstruction knobs (`builtin:calibrated` does), a
/// varied knob stacks on them, not on the reconstruction: the note that says so, naming them.
fn stacking_note(label: &str, vary: &[String]) -> Option<String> {
    let knobs = label.split("reconstruction knobs:").nth(1)?;
    let knobs = knobs.split(']').next()?.trim();
    let varied: Vec<&str> = vary
        .iter()
        .filter_map(|v| v.split_once('=').map(|(k, _)| k.trim()))
        .collect();
    if varied.is_empty() {
        return None;
    }
    Some(format!(
        "note: the knobs varied here ({}) stack on this card data, which already has its own applied ({knobs}): a scale multiplies the calibrated values, not the reconstruction's; use --data builtin:reconstructed to vary them from the reconstruction",
        varied.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(rounds: f64, capped: f64, deck: f64) -> CellFigures {
        CellFigures {
            games: 100,
            rounds: (rounds, 1.0),
            capped,
            run_out: vec![("coins_out".into(), 0.0), ("deck_out".into(), deck)],
        }
    }

    const T: Targets = Targets {
        rounds: (20.0, 40.0),
        capped: 0.0,
        run_out: 0.05,
    };

    #[test]
    fn misses_name_each_target_missed() {
        assert!(cell(30.0, 0.0, 0.01).misses(&T).is_empty());
        assert_eq!(
            cell(45.0, 0.01, 0.2).misses(&T),
            vec!["rounds", "capped", "deck out"]
        );
        assert_eq!(cell(10.0, 0.0, 0.05).misses(&T), vec!["rounds"]);
    }

    #[test]
    fn choose_prefers_cells_meeting_targets_then_the_middle() {
        let cells = [
            cell(45.0, 0.0, 0.0),
            cell(38.0, 0.0, 0.0),
            cell(31.0, 0.0, 0.04),
        ];
        assert_eq!(choose(&cells, &T), Some(2));
        // None meets: the nearest miss.
        let cells = [cell(60.0, 0.0, 0.0), cell(44.0, 0.0, 0.0)];
        assert_eq!(choose(&cells, &T), Some(1));
    }

    #[test]
    fn alternative_differs_most_from_the_chosen_cell() {
        let kv = |a: &str, b: &str| {
            vec![
                ("x".to_string(), a.to_string()),
                ("y".to_string(), b.to_string()),
            ]
        };
        let cells = vec![kv("1", "1"), kv("1", "2"), kv("2", "2"), kv("2", "1")];
        let figures = [
            cell(30.0, 0.0, 0.0),
            cell(30.0, 0.0, 0.0),
            cell(35.0, 0.0, 0.0),
            cell(60.0, 0.0, 0.0),
        ];
        // Cell 2 differs in both values and meets the targets; cell 3 misses them.
        assert_eq!(alternative(&cells, &figures, &T, 0), Some(2));
    }

    #[test]
    fn target_range_parses_and_rejects_nonsense() {
        assert_eq!(parse_range("20-40").unwrap(), (20.0, 40.0));
        assert!(parse_range("40-20").is_err());
        assert!(parse_range("twenty").is_err());
    }

    #[test]
    fn calibrate_says_its_knobs_stack_on_the_calibrated_data() {
        let label = "builtin:calibrated (PROPOSAL [reconstruction knobs: upgrade_coin_scale=0.5 restaurant_objective_dishes=distinct])";
        let note = stacking_note(label, &["upgrade_coin_scale=0.5,1".to_string()]).unwrap();
        assert!(
            note.contains("stack on this card data")
                && note.contains("upgrade_coin_scale=0.5 restaurant"),
            "{note}"
        );
        assert!(stacking_note(
            "builtin:reconstructed (PROPOSAL)",
            &["upgrade_coin_scale=1".into()]
        )
        .is_none());
        assert!(stacking_note(label, &[]).is_none());
    }
}
