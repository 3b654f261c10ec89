//! `shifu report`: a run's CSV (from `play --out` or `seats --out`) as a markdown summary with an
//! SVG chart of the win rate by seat with 95% error bars, or a sweep's CSV as a table with a
//! heatmap. With `--html` the same files, and the JSON results of balance, tournament and dose,
//! become an interactive page ([`crate::report_html`]).

use crate::format::{p_number, p_value};
use crate::row::Row;
use crate::seats::SeatUnits;
use crate::stats::{capped_share, wilson};
use crate::summary::{Judging, SeatStats};
use crate::tally::Tally;
use anyhow::{bail, Context, Result};
use clap::Args;
use plotters::prelude::*;
use shifu_engine::present::EventKind;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Options of `shifu report`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("output").required(true).multiple(true).args(["out", "html"])))]
pub struct ReportArgs {
    /// The result file: a run's CSV (`play --out`, `seats --out`) or a sweep's CSV (`sweep
    /// --out`); with --html also a balance result (`balance --out`), a tournament's or a dose
    /// analysis's `--json` output, or a dose CSV (`dose --out`).
    pub input: PathBuf,
    /// The markdown file to write; the chart goes beside it as `<name>.seats.svg`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// An interactive HTML report to write: one self-contained page (charts in SVG, tooltips,
    /// an "export SVG" button per chart) that loads nothing from the network.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub verdict: crate::setup::VerdictArgs,
}

pub fn run(args: ReportArgs) -> Result<()> {
    if crate::report_html::is_json(&args.input)? {
        let Some(html) = &args.html else {
            bail!(
                "{} is a JSON result: its report is HTML only; give --html FILE",
                args.input.display()
            );
        };
        return crate::report_html::json_report(&args.input, html);
    }
    let mut r = csv::Reader::from_reader(shifu_engine::files::open_input(&args.input)?);
    let header = r
        .headers()
        .with_context(|| format!("{}: reading the header", args.input.display()))?
        .clone();
    if header.iter().any(|h| h == "holm_p") {
        return sweep_report(&args, r, &header);
    }
    if header.get(0) == Some("value") || header.get(0) == Some("vector") {
        let Some(html) = &args.html else {
            bail!(
                "{} is a dose CSV: its report is HTML only; give --html FILE",
                args.input.display()
            );
        };
        return crate::report_html::dose::csv_report(&args.input, r, &header, html);
    }
    if ["players", "winners", "capped", "rounds"]
        .iter()
        .any(|c| !header.iter().any(|h| h == *c))
    {
        bail!(
            "{} is not a shifu result file (no players/winners/capped/rounds columns for a run, no holm_p for a sweep, no value or vector column for a dose CSV)",
            args.input.display()
        );
    }
    let (run, stats) = load_run(&args, r, &header)?;
    if let Some(html) = &args.html {
        let page = crate::report_html::run::page(&args.input, &run, &stats);
        shifu_engine::files::write_atomic(html, page.html().as_bytes())?;
        println!("wrote {}", html.display());
    }
    let Some(out) = &args.out else {
        return Ok(());
    };
    let svg = out.with_extension("seats.svg");
    let chart =
        seat_chart(&stats).with_context(|| format!("drawing the chart {}", svg.display()))?;
    // Drawn in memory, then written like every output: a temporary file renamed over the target.
    shifu_engine::files::write_atomic(&svg, chart.as_bytes())?;
    let md = run_markdown(&args.input, &svg, &run, &stats)?;
    shifu_engine::files::write_atomic(out, md.as_bytes())?;
    println!("wrote {} and {}", out.display(), svg.display());
    Ok(())
}

/// Reads a run file and computes its seat table and verdict.
fn load_run(
    args: &ReportArgs,
    r: csv::Reader<std::fs::File>,
    header: &csv::StringRecord,
) -> Result<(RunData, SeatStats)> {
    let manifest = crate::runfile::read_manifest(&args.input);
    // A run played with --rotate says so in its manifest: its unit is then a seed.
    let rotate = manifest
        .as_ref()
        .is_some_and(|m| m.seed_rule.starts_with("seat rotation"));
    let mut run = read_run(&args.input, r, header, rotate)?;
    let specs = vec![String::new(); run.seats];
    let cooperative = shifu_engine::GAMES
        .iter()
        .any(|g| g.name == run.game_name && g.cooperative);
    let judging = Judging {
        margin: args.verdict.margin,
        seed: manifest.as_ref().map_or(0, |m| m.master_seed),
        cooperative,
        units: run.units.as_mut().map(|u| u.shares()),
    };
    let stats = SeatStats::new(&run.tally, &specs, rotate, run.max_rounds, &judging);
    Ok((run, stats))
}

/// A run file read back: its settings from the first row, the totals by seat, and the game's
/// events.
pub(crate) struct RunData {
    pub game_name: String,
    pub agents: String,
    pub param_set: String,
    pub seats: usize,
    pub tally: Tally,
    /// The round cap, read off the capped games' round counts.
    pub max_rounds: u32,
    /// Each game's rounds and whether the cap stopped it, in file order.
    pub lengths: Vec<(u32, bool)>,
    /// The event columns (rounds at which something first happened): name, games in which it
    /// happened, and the sum of those rounds.
    pub events: Vec<(String, u64, f64)>,
    /// Games whose end each seat triggered (the `end_trigger` column), when the game has one.
    pub triggers: Vec<f64>,
    /// Per-unit win shares for the verdict (by turn position from the `start_player` column
    /// where there is one).
    units: Option<SeatUnits>,
}

impl RunData {
    /// Adds row `line`'s events (columns `event_cols`) and end trigger.
    fn add_events(
        &mut self,
        rec: &csv::StringRecord,
        event_cols: &[usize],
        trigger_col: Option<usize>,
        line: usize,
    ) -> Result<()> {
        for (k, &i) in event_cols.iter().enumerate() {
            let cell = rec.get(i).unwrap_or("");
            if !cell.is_empty() {
                let r: f64 = cell
                    .parse()
                    .with_context(|| format!("row {line}: bad {}", self.events[k].0))?;
                self.events[k].1 += 1;
                self.events[k].2 += r;
            }
        }
        if let Some(t) = trigger_col.and_then(|i| rec.get(i)?.parse::<usize>().ok()) {
            if (1..=self.seats).contains(&t) {
                self.triggers.resize(self.seats, 0.0);
                self.triggers[t - 1] += 1.0;
            }
        }
        Ok(())
    }
}

/// Reads every row of a run file (through the [row schema](crate::row)).
fn read_run(
    input: &std::path::Path,
    mut r: csv::Reader<std::fs::File>,
    header: &csv::StringRecord,
    rotate: bool,
) -> Result<RunData> {
    let start_col = header.iter().position(|h| h == "start_player");
    let event_cols = ran_out_columns(input, header);
    let trigger_col = header.iter().position(|h| h == "end_trigger");
    let mut d = RunData {
        game_name: String::new(),
        agents: String::new(),
        param_set: String::new(),
        seats: 0,
        tally: Tally::default(),
        max_rounds: 0,
        lengths: Vec::new(),
        events: event_cols
            .iter()
            .map(|&i| (header[i].to_string(), 0, 0.0))
            .collect(),
        triggers: Vec::new(),
        units: None,
    };
    for (line, rec) in r.records().enumerate() {
        let at = || format!("{} row {}", input.display(), line + 2);
        let rec = rec.with_context(at)?;
        let row = Row::read(&rec, header).with_context(at)?;
        if d.seats == 0 {
            d.seats = row.players;
            d.game_name = row.game_name.clone();
            d.agents = row.agents.clone();
            d.param_set = row.param_set.clone();
        } else if row.players != d.seats {
            bail!(
                "{}: {} players where earlier rows have {}",
                at(),
                row.players,
                d.seats
            );
        }
        row.add_to(&mut d.tally, &rec, header).with_context(at)?;
        let start = match start_col.and_then(|i| rec.get(i)) {
            Some(v) => v
                .parse::<u32>()
                .map(crate::summary::start_seat)
                .with_context(|| format!("{}: bad start_player `{v}`", at()))?,
            None => 0,
        };
        let units = d
            .units
            .get_or_insert_with(|| SeatUnits::new(row.players, rotate, start_col.is_some()));
        units.add(row.game, &row.outcome()?, start);
        if row.capped {
            d.max_rounds = d.max_rounds.max(row.rounds);
        }
        d.lengths.push((row.rounds, row.capped));
        d.add_events(&rec, &event_cols, trigger_col, line + 2)
            .with_context(|| input.display().to_string())?;
    }
    if d.tally.games == 0 {
        bail!("{} has no games", input.display());
    }
    Ok(d)
}

/// The win share by seat with 95% error bars and the equal share, as SVG.
fn seat_chart(stats: &SeatStats) -> Result<String> {
    let seats = stats.seats.len();
    let mut chart_svg = String::new();
    let root = SVGBackend::with_string(&mut chart_svg, (640, 400)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = stats
        .seats
        .iter()
        .map(|s| s.ci_high)
        .fold(0.0, f64::max)
        .max(1.0 / seats as f64)
        * 1.2;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Win rate by seat ({} games)", stats.games),
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0.5f64..seats as f64 + 0.5, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("seat")
        .y_desc("win share")
        .x_labels(seats)
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .disable_x_mesh()
        .draw()?;
    chart.draw_series(stats.seats.iter().map(|s| {
        let x = s.seat as f64;
        Rectangle::new(
            [(x - 0.3, 0.0), (x + 0.3, s.win_share)],
            BLUE.mix(0.5).filled(),
        )
    }))?;
    chart.draw_series(stats.seats.iter().map(|s| {
        let x = s.seat as f64;
        PathElement::new(vec![(x, s.ci_low), (x, s.ci_high)], BLACK.stroke_width(2))
    }))?;
    let fair = 1.0 / seats as f64;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.5, fair), (seats as f64 + 0.5, fair)],
        RED.stroke_width(1),
    )))?;
    root.present()?;
    drop(chart);
    drop(root);
    Ok(chart_svg)
}

/// The report's markdown: the run, its settings, the chart, the seat table and the events.
fn run_markdown(
    input: &std::path::Path,
    svg: &std::path::Path,
    run: &RunData,
    stats: &SeatStats,
) -> Result<String> {
    let (games, capped) = (stats.games, stats.capped.games);
    let mut md = String::new();
    writeln!(md, "# Run report: {}", input.display())?;
    writeln!(md)?;
    writeln!(
        md,
        "{}: {games} games, {} players, agents `{}` (first row); {}.",
        run.game_name,
        run.seats,
        run.agents,
        capped_cap_text(capped, games, run.max_rounds)
    )?;
    writeln!(md)?;
    md.push_str(&run_settings(input, &run.param_set));
    if let Some(w) = &stats.capped.warning {
        writeln!(md)?;
        writeln!(md, "**{w}**")?;
    }
    writeln!(md)?;
    writeln!(
        md,
        "![win rate by seat]({})",
        svg.file_name().unwrap_or_default().to_string_lossy()
    )?;
    writeln!(md)?;
    writeln!(md, "| seat | win share | 95% CI (Wilson) | mean rank |")?;
    writeln!(md, "| --- | --- | --- | --- |")?;
    for s in &stats.seats {
        writeln!(
            md,
            "| {} | {:.4} | [{:.4}, {:.4}] | {:.3} |",
            s.seat, s.win_share, s.ci_low, s.ci_high, s.mean_rank
        )?;
    }
    writeln!(md)?;
    if stats.decided_by_cap {
        writeln!(
            md,
            "No verdict on the seats: {}.",
            crate::summary::cap_decides(capped, games, run.max_rounds)
                .trim_start_matches("no verdict: ")
        )?;
    } else {
        writeln!(md, "Chi-square against equal chances: {:.2} on {} df, {}. Balance (1 − largest gap): {:.4}.", stats.chi_square, stats.df, p_value(stats.p_value), stats.balance)?;
        if let Some(b) = &stats.balance_interval {
            writeln!(md)?;
            writeln!(
                md,
                "{}.",
                upper_first(&crate::summary::balance_line(b, games))
            )?;
        }
        if let Some(e) = &stats.equivalence {
            writeln!(md)?;
            if e.components
                .iter()
                .any(|c| c.label.starts_with("turn position"))
            {
                write!(md, "The game draws its first start player (the `start_player` column), so the verdict is by turn position from it, not by seat. ")?;
            }
            writeln!(md, "**{}**", upper_first(&e.sentence()))?;
        }
        writeln!(md)?;
    }
    writeln!(md, "Mean rounds: {:.1}.", stats.mean_rounds)?;
    events_markdown(&mut md, run, games)?;
    Ok(md)
}

/// The events' lines of a report: how often and when each happened, and who triggered the end.
fn events_markdown(md: &mut String, run: &RunData, games: u64) -> Result<()> {
    let n = games as f64;
    for (name, k, sum) in &run.events {
        let (lo, hi) = wilson(*k as f64, n);
        writeln!(
            md,
            "{}: in {:.1}% of games [{:.1}%, {:.1}%]{}.",
            event_label(name),
            100.0 * *k as f64 / n,
            100.0 * lo,
            100.0 * hi,
            if *k > 0 {
                format!(", at round {:.1} on average", sum / *k as f64)
            } else {
                String::new()
            }
        )?;
    }
    if !run.triggers.is_empty() {
        let total: f64 = run.triggers.iter().sum();
        let by: Vec<String> = run
            .triggers
            .iter()
            .enumerate()
            .map(|(s, t)| format!("seat {} {:.3}", s + 1, t / total))
            .collect();
        writeln!(
            md,
            "The end was triggered in {total:.0} games, by: {}.",
            by.join(", ")
        )?;
    }
    Ok(())
}

/// `s` with its first letter in upper case.
fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// An event column's name as a reader says it: `coins_out_round` is "Coins out".
fn event_label(column: &str) -> String {
    let words = column.trim_end_matches("_round").replace('_', " ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => words,
    }
}

/// The event columns that hold the round in which a supply ran out ([`EventKind::RanOut`]): by
/// the kinds the run's manifest records, or, for a run without them (a manifest written before
/// they were recorded, or none), by the `_round` suffix of their names.
fn ran_out_columns(input: &std::path::Path, header: &csv::StringRecord) -> Vec<usize> {
    match crate::runfile::read_manifest(input).and_then(|m| m.events) {
        Some(events) => events
            .iter()
            .filter(|e| e.kind == EventKind::RanOut)
            .filter_map(|e| header.iter().position(|h| h == e.column))
            .collect(),
        None => (0..header.len())
            .filter(|&i| header[i].ends_with("_round"))
            .collect(),
    }
}

/// The card data, parameters, seed and command of the run, from the manifest beside its file
/// (`FILE.manifest.json`), or a line saying that there is none and naming the parameter set.
fn run_settings(input: &std::path::Path, param_set: &str) -> String {
    let path = crate::runfile::manifest_path(input);
    let Some(m) = crate::runfile::read_manifest(input) else {
        return format!(
            "Card data and parameters: not known here (no manifest {} beside the file); the rows name parameter set `{param_set}`.\n\n",
            path.display()
        );
    };
    let mut out = format!(
        "Card data: {}. Master seed {}. Command: `{}`.\n\nParameters (set `{}`):\n\n```toml\n{}\n```\n\n",
        m.data,
        m.master_seed,
        m.command.join(" "),
        m.param_set,
        m.params.trim_end()
    );
    if m.shard != "0/1" {
        out.push_str(&format!(
            "Shard {} of the run's {} games.\n\n",
            m.shard, m.games
        ));
    }
    out
}

/// The capped share for a report header: the cap is read off the capped games' round counts.
fn capped_cap_text(capped: u64, games: u64, max_rounds: u32) -> String {
    if capped == 0 {
        let (_, hi) = wilson(0.0, games as f64);
        format!("no game capped (95% CI up to {:.1}%)", 100.0 * hi)
    } else {
        capped_share(capped, games, max_rounds)
    }
}

/// A sweep file read back: per cell its figures and markdown row.
pub(crate) struct SweepFile {
    pub seats: usize,
    pub cells: Vec<SweepRow>,
    rows_md: String,
    /// Cells in which the round cap stopped more than [`crate::stats::CAPPED_WARN`] of the games.
    over_cap: Vec<String>,
    /// Whether the file holds each cell's equivalence verdict (sweeps since issue 48).
    pub verdicts: bool,
}

/// One cell of a sweep file.
pub(crate) struct SweepRow {
    /// Its overrides as `key=value` words.
    pub cell: String,
    /// Games in the cell.
    pub games: u64,
    /// Each seat's win share, with its 95% interval.
    pub shares: Vec<(f64, f64, f64)>,
    /// The Holm-corrected p-value (NaN where the cap decides the cell).
    pub holm_p: f64,
    /// Share of games stopped by the round cap.
    pub capped: f64,
    /// Mean rounds.
    pub mean_rounds: f64,
    /// The verdict as the file writes it (`fair`, `unfair`, `undetermined`, `no_verdict`;
    /// empty where there is none).
    pub verdict: String,
    /// The verdict's margin.
    pub margin: Option<f64>,
    /// The largest |win share − 1/n| (the file's `unfairness`, or from the win shares).
    pub gap: Option<f64>,
}

/// A sweep file (from `shifu sweep --out`): a table and a heatmap of win share by cell and seat.
fn sweep_report(
    args: &ReportArgs,
    r: csv::Reader<std::fs::File>,
    header: &csv::StringRecord,
) -> Result<()> {
    let f = read_sweep(&args.input, r, header)?;
    if f.cells.is_empty() {
        bail!("{} has no cells", args.input.display());
    }
    if let Some(html) = &args.html {
        let page = crate::report_html::sweep::page(&args.input, &f);
        shifu_engine::files::write_atomic(html, page.html().as_bytes())?;
        println!("wrote {}", html.display());
    }
    let Some(out) = &args.out else {
        return Ok(());
    };
    let svg = out.with_extension("heatmap.svg");
    let chart = heatmap(&f).with_context(|| format!("drawing the chart {}", svg.display()))?;
    // Drawn in memory, then written like every output: a temporary file renamed over the target.
    shifu_engine::files::write_atomic(&svg, chart.as_bytes())?;
    let md = sweep_markdown(&args.input, &svg, &f)?;
    shifu_engine::files::write_atomic(out, md.as_bytes())?;
    println!("wrote {} and {}", out.display(), svg.display());
    Ok(())
}

/// Reads a sweep file's cells.
fn read_sweep(
    input: &std::path::Path,
    mut r: csv::Reader<std::fs::File>,
    header: &csv::StringRecord,
) -> Result<SweepFile> {
    let seats = header
        .iter()
        .filter(|h| h.starts_with("win_share_"))
        .count();
    if seats == 0 {
        bail!("{}: no win_share_1 column", input.display());
    }
    let idx = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}: no column {name}", input.display()))
    };
    let mut f = SweepFile {
        seats,
        cells: Vec::new(),
        rows_md: String::new(),
        over_cap: Vec::new(),
        verdicts: false,
    };
    let verdict_col = header.iter().position(|h| h == "verdict");
    let margin_col = header.iter().position(|h| h == "margin");
    let gap_col = header.iter().position(|h| h == "unfairness");
    f.verdicts = verdict_col.is_some() && margin_col.is_some();
    for (line, rec) in r.records().enumerate() {
        let at = || format!("{} row {}", input.display(), line + 2);
        let rec = rec.with_context(at)?;
        let cell = rec.get(0).unwrap_or("").to_string();
        let num = |name: &str| -> Result<f64> {
            let v = rec.get(idx(name)?).unwrap_or("");
            v.parse::<f64>()
                .with_context(|| format!("{}: bad {name} `{v}`", at()))
        };
        let mut shares = Vec::new();
        let mut line = format!("| {cell} |");
        for s in 1..=seats {
            let x = num(&format!("win_share_{s}"))?;
            let (lo, hi) = (num(&format!("ci_low_{s}"))?, num(&format!("ci_high_{s}"))?);
            shares.push((x, lo, hi));
            line.push_str(&format!(" {x:.4} [{lo:.4}, {hi:.4}] |"));
        }
        let capped = num("capped")?;
        let over = capped > crate::stats::CAPPED_WARN;
        if over {
            f.over_cap.push(cell.clone());
        }
        let holm_p = num("holm_p")?;
        line.push_str(&format!(
            " {} | {:.4} | {:.1}%{} |",
            p_number(holm_p),
            num("balance")?,
            100.0 * capped,
            if over { " (!)" } else { "" }
        ));
        let verdict = verdict_col
            .and_then(|v| rec.get(v))
            .unwrap_or("")
            .to_string();
        let margin = match margin_col.and_then(|m| rec.get(m)) {
            Some("") | None => None,
            Some(_) => Some(num("margin")?),
        };
        if let (Some(_), Some(m)) = (verdict_col, margin_col) {
            // Written by the sweep at its own --margin.
            let margin = rec.get(m).unwrap_or("");
            line.push_str(&format!(" {} at ±{margin} |", verdict.replace('_', " ")));
        }
        let fair = 1.0 / seats as f64;
        let gap = match gap_col.and_then(|g| rec.get(g)) {
            Some("") => None,
            Some(_) => Some(num("unfairness")?),
            None => Some(
                shares
                    .iter()
                    .map(|s| (s.0 - fair).abs())
                    .fold(0.0, f64::max),
            ),
        };
        writeln!(f.rows_md, "{line}")?;
        f.cells.push(SweepRow {
            cell,
            games: num("games")? as u64,
            shares,
            holm_p,
            capped,
            mean_rounds: num("mean_rounds")?,
            verdict,
            margin,
            gap,
        });
    }
    Ok(f)
}

/// The heatmap of win share by cell and seat, as SVG: blue below an equal share, red above,
/// white at 1/n.
fn heatmap(f: &SweepFile) -> Result<String> {
    let mut chart_svg = String::new();
    let h = 60 + 28 * f.cells.len() as u32;
    let root = SVGBackend::with_string(&mut chart_svg, (720, h.max(200))).into_drawing_area();
    root.fill(&WHITE)?;
    let (label, grid) = root.split_horizontally(380);
    let fair = 1.0 / f.seats as f64;
    let cw = (grid.dim_in_pixel().0 as i32 - 20) / f.seats as i32;
    for (i, row) in f.cells.iter().enumerate() {
        let y = 40 + 28 * i as i32;
        label.draw(&Text::new(row.cell.clone(), (5, y + 6), ("sans-serif", 13)))?;
        for (s, &(x, _, _)) in row.shares.iter().enumerate() {
            let d = ((x - fair) / fair).clamp(-1.0, 1.0);
            let c = if d >= 0.0 {
                RGBColor(255, (255.0 * (1.0 - d)) as u8, (255.0 * (1.0 - d)) as u8)
            } else {
                RGBColor((255.0 * (1.0 + d)) as u8, (255.0 * (1.0 + d)) as u8, 255)
            };
            let x0 = 10 + cw * s as i32;
            grid.draw(&Rectangle::new(
                [(x0, y), (x0 + cw - 2, y + 24)],
                c.filled(),
            ))?;
            grid.draw(&Text::new(
                format!("{x:.3}"),
                (x0 + 6, y + 6),
                ("sans-serif", 12),
            ))?;
        }
    }
    for s in 0..f.seats {
        grid.draw(&Text::new(
            format!("seat {}", s + 1),
            (10 + cw * s as i32 + 6, 15),
            ("sans-serif", 13),
        ))?;
    }
    root.present()?;
    drop((label, grid, root));
    Ok(chart_svg)
}

/// The sweep report's markdown: the heatmap and the table.
fn sweep_markdown(input: &std::path::Path, svg: &std::path::Path, f: &SweepFile) -> Result<String> {
    let mut md = String::new();
    writeln!(md, "# Sweep report: {}", input.display())?;
    writeln!(md)?;
    writeln!(
        md,
        "Win share by seat in each cell (red above an equal share, blue below)."
    )?;
    writeln!(md)?;
    writeln!(
        md,
        "![heatmap]({})",
        svg.file_name().unwrap_or_default().to_string_lossy()
    )?;
    writeln!(md)?;
    let mut head = String::from("| cell |");
    for s in 1..=f.seats {
        head.push_str(&format!(" seat {s} [95% CI] |"));
    }
    head.push_str(" Holm p | balance | capped |");
    if f.verdicts {
        head.push_str(" verdict |");
    }
    writeln!(md, "{head}")?;
    writeln!(
        md,
        "|{}",
        " --- |".repeat(f.seats + 4 + usize::from(f.verdicts))
    )?;
    md.push_str(&f.rows_md);
    if !f.over_cap.is_empty() {
        writeln!(md)?;
        writeln!(
            md,
            "**WARNING: in the cells marked (!) more than {:.0}% of the games were stopped by the round cap: their win shares are decided by the tie-break at the cap, not by the rules' end.**",
            100.0 * crate::stats::CAPPED_WARN
        )?;
    }
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runfile::{manifest_path, EventColumn, Manifest};

    /// A run file's path in a fresh folder, with `events` recorded in a manifest beside it
    /// (`None`: a manifest without the field, as older runs wrote; no manifest if `!manifest`).
    fn run_file(name: &str, manifest: bool, events: Option<Vec<EventColumn>>) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shifu-report-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.csv");
        let m = Manifest {
            version: "0".into(),
            command: vec!["shifu".into()],
            game: "tofu-shifu".into(),
            players: 2,
            agents: vec!["random".into(); 2],
            params: String::new(),
            param_set: "0".into(),
            data: "builtin".into(),
            master_seed: 1,
            games: 1,
            shard_range: (0, 1),
            shard: "0/1".into(),
            seed_rule: String::new(),
            data_hash: String::new(),
            inputs: Default::default(),
            events,
        };
        let text = serde_json::to_string(&m).unwrap();
        let _ = std::fs::remove_file(manifest_path(&path));
        if manifest {
            std::fs::write(manifest_path(&path), text).unwrap();
        }
        path
    }

    fn header() -> csv::StringRecord {
        csv::StringRecord::from(vec![
            "game",
            "coins_out_round",
            "supply_gone",
            "end_trigger",
        ])
    }

    #[test]
    fn event_kinds_come_from_the_manifest() {
        let events = vec![
            EventColumn {
                column: "coins_out_round".into(),
                kind: EventKind::Count,
            },
            EventColumn {
                column: "supply_gone".into(),
                kind: EventKind::RanOut,
            },
            EventColumn {
                column: "end_trigger".into(),
                kind: EventKind::Seat,
            },
        ];
        let path = run_file("kinds", true, Some(events));
        assert_eq!(ran_out_columns(&path, &header()), vec![2]);
        let text = std::fs::read_to_string(manifest_path(&path)).unwrap();
        assert!(
            text.contains(r#"{"column":"supply_gone","kind":"ran_out"}"#),
            "{text}"
        );
    }

    #[test]
    fn without_recorded_kinds_the_round_suffix_decides() {
        let old = run_file("old", true, None);
        let text = std::fs::read_to_string(manifest_path(&old)).unwrap();
        assert!(
            !text.contains("events"),
            "an old manifest has no events field"
        );
        assert_eq!(ran_out_columns(&old, &header()), vec![1]);
        let none = run_file("none", false, None);
        assert_eq!(ran_out_columns(&none, &header()), vec![1]);
    }
}
