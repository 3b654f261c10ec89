//! `shifu report`: a run's CSV (from `play --out` or `seats --out`) as a markdown summary with an
//! SVG chart of the win rate by seat with 95% error bars.

use crate::format::{p_number, p_value};
use crate::stats::{balance, capped_share, capped_warning, chi_square_equal, wilson};
use anyhow::{bail, Context, Result};
use clap::Args;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Options of `shifu report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The run's CSV file.
    input: PathBuf,
    /// The markdown file to write; the chart goes beside it as `<name>.seats.svg`.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: ReportArgs) -> Result<()> {
    let mut r = csv::Reader::from_reader(shifu_engine::files::open_input(&args.input)?);
    let header = r.headers()?.clone();
    if header.iter().any(|h| h == "holm_p") {
        return sweep_report(&args, r, &header);
    }
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(players_col), Some(winners_col), Some(capped_col), Some(rounds_col)) =
        (col("players"), col("winners"), col("capped"), col("rounds"))
    else {
        bail!(
            "{} is not a shifu run file (no players/winners/capped/rounds columns)",
            args.input.display()
        );
    };
    // The game's event columns: rounds at which something first happened, and the seat that
    // triggered the end.
    let round_cols: Vec<(usize, String)> = header
        .iter()
        .enumerate()
        .filter(|(_, h)| h.ends_with("_round"))
        .map(|(i, h)| (i, h.to_string()))
        .collect();
    let trigger_col = col("end_trigger");
    let mut round_seen = vec![(0u64, 0f64); round_cols.len()];
    let mut triggers: Vec<f64> = Vec::new();
    let mut max_rounds = 0u32;
    let mut seats = 0usize;
    let mut wins = Vec::new();
    let mut rank_sum = Vec::new();
    let (mut games, mut capped, mut rounds) = (0u64, 0u64, 0f64);
    let mut agents = String::new();
    let mut game_name = String::new();
    let mut param_set = String::new();
    for (line, rec) in r.records().enumerate() {
        let rec = rec.with_context(|| format!("{} row {}", args.input.display(), line + 2))?;
        let n: usize = rec
            .get(players_col)
            .unwrap_or("")
            .parse()
            .context("bad players")?;
        if seats == 0 {
            seats = n;
            wins = vec![0.0; n];
            rank_sum = vec![0.0; n];
            agents = rec.get(4).unwrap_or("").to_string();
            game_name = rec.get(2).unwrap_or("").to_string();
            param_set = rec.get(5).unwrap_or("").to_string();
        } else if n != seats {
            bail!(
                "row {}: {n} players where earlier rows have {seats}",
                line + 2
            );
        }
        let w: Vec<usize> = rec
            .get(winners_col)
            .unwrap_or("")
            .split('|')
            .filter(|x| !x.is_empty())
            .map(|x| x.parse::<usize>().map(|s| s - 1))
            .collect::<std::result::Result<_, _>>()
            .with_context(|| format!("row {}: bad winners", line + 2))?;
        for &s in &w {
            wins[s] += 1.0 / w.len() as f64;
        }
        for s in 0..n {
            if let Some(i) = col(&format!("rank_{}", s + 1)) {
                rank_sum[s] += rec.get(i).unwrap_or("0").parse::<f64>().unwrap_or(0.0);
            }
        }
        games += 1;
        for (k, (i, name)) in round_cols.iter().enumerate() {
            let cell = rec.get(*i).unwrap_or("");
            if !cell.is_empty() {
                let r: f64 = cell
                    .parse()
                    .with_context(|| format!("row {}: bad {name}", line + 2))?;
                round_seen[k].0 += 1;
                round_seen[k].1 += r;
            }
        }
        if let Some(i) = trigger_col {
            if let Ok(t) = rec.get(i).unwrap_or("").parse::<usize>() {
                if (1..=n).contains(&t) {
                    triggers.resize(n, 0.0);
                    triggers[t - 1] += 1.0;
                }
            }
        }
        let is_capped = rec.get(capped_col) == Some("true");
        if is_capped {
            let r = rec
                .get(rounds_col)
                .unwrap_or("0")
                .parse::<u32>()
                .unwrap_or(0);
            max_rounds = max_rounds.max(r);
        }
        capped += is_capped as u64;
        rounds += rec
            .get(rounds_col)
            .unwrap_or("0")
            .parse::<f64>()
            .unwrap_or(0.0);
    }
    if games == 0 {
        bail!("{} has no games", args.input.display());
    }
    let n = games as f64;
    let rates: Vec<f64> = wins.iter().map(|w| w / n).collect();
    let intervals: Vec<(f64, f64)> = wins.iter().map(|&w| wilson(w, n)).collect();
    let (chi, df, p) = chi_square_equal(&wins);
    // The chart.
    let svg = args.out.with_extension("seats.svg");
    let mut chart_svg = String::new();
    (|| -> Result<()> {
        let root = SVGBackend::with_string(&mut chart_svg, (640, 400)).into_drawing_area();
        root.fill(&WHITE)?;
        let top = intervals
            .iter()
            .map(|x| x.1)
            .fold(0.0, f64::max)
            .max(1.0 / seats as f64)
            * 1.2;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("Win rate by seat ({games} games)"),
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
        chart.draw_series((0..seats).map(|s| {
            let x = s as f64 + 1.0;
            Rectangle::new(
                [(x - 0.3, 0.0), (x + 0.3, rates[s])],
                BLUE.mix(0.5).filled(),
            )
        }))?;
        chart.draw_series((0..seats).map(|s| {
            let x = s as f64 + 1.0;
            PathElement::new(
                vec![(x, intervals[s].0), (x, intervals[s].1)],
                BLACK.stroke_width(2),
            )
        }))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![
                (0.5, 1.0 / seats as f64),
                (seats as f64 + 0.5, 1.0 / seats as f64),
            ],
            RED.stroke_width(1),
        )))?;
        root.present()?;
        Ok(())
    })()
    .with_context(|| format!("drawing the chart {}", svg.display()))?;
    // Drawn in memory, then written like every output: a temporary file renamed over the target.
    shifu_engine::files::write_atomic(&svg, chart_svg.as_bytes())?;
    let mut md = String::new();
    writeln!(md, "# Run report: {}", args.input.display())?;
    writeln!(md)?;
    writeln!(
        md,
        "{game_name}: {games} games, {seats} players, agents `{agents}` (first row); {}.",
        capped_cap_text(capped, games, max_rounds)
    )?;
    writeln!(md)?;
    md.push_str(&run_settings(&args.input, &param_set));
    if let Some(w) = capped_warning(capped, games, max_rounds) {
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
    for s in 0..seats {
        writeln!(
            md,
            "| {} | {:.4} | [{:.4}, {:.4}] | {:.3} |",
            s + 1,
            rates[s],
            intervals[s].0,
            intervals[s].1,
            rank_sum[s] / n
        )?;
    }
    writeln!(md)?;
    if capped as f64 / n > crate::stats::CAPPED_WARN {
        writeln!(
            md,
            "No verdict on the seats: {}.",
            crate::summary::cap_decides(capped, games, max_rounds)
                .trim_start_matches("no verdict: ")
        )?;
    } else {
        writeln!(md, "Chi-square against equal chances: {chi:.2} on {df} df, {}. Balance (1 − largest gap): {:.4}.", p_value(p), balance(&rates))?;
    }
    writeln!(md, "Mean rounds: {:.1}.", rounds / n)?;
    for ((_, name), (k, sum)) in round_cols.iter().zip(&round_seen) {
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
    if !triggers.is_empty() {
        let total: f64 = triggers.iter().sum();
        let by: Vec<String> = triggers
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
    shifu_engine::files::write_atomic(&args.out, md.as_bytes())?;
    println!("wrote {} and {}", args.out.display(), svg.display());
    Ok(())
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

/// The card data, parameters, seed and command of the run, from the manifest beside its file
/// (`FILE.manifest.json`), or a line saying that there is none and naming the parameter set.
fn run_settings(input: &std::path::Path, param_set: &str) -> String {
    let path = crate::runfile::manifest_path(input);
    let manifest = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str::<crate::runfile::Manifest>(&t).ok());
    let Some(m) = manifest else {
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

/// A sweep file (from `shifu sweep --out`): a table and a heatmap of win share by cell and seat.
fn sweep_report(
    args: &ReportArgs,
    mut r: csv::Reader<std::fs::File>,
    header: &csv::StringRecord,
) -> Result<()> {
    let seats = header
        .iter()
        .filter(|h| h.starts_with("win_share_"))
        .count();
    let idx = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .context(format!("no column {name}"))
    };
    let mut cells = Vec::new();
    let mut shares: Vec<Vec<f64>> = Vec::new();
    let mut rows_md = String::new();
    let mut over_cap: Vec<String> = Vec::new();
    for rec in r.records() {
        let rec = rec?;
        let cell = rec.get(0).unwrap_or("").to_string();
        let num = |name: &str| -> Result<f64> {
            rec.get(idx(name)?)
                .unwrap_or("")
                .parse::<f64>()
                .with_context(|| format!("bad {name}"))
        };
        let mut v = Vec::new();
        let mut line = format!("| {cell} |");
        for s in 1..=seats {
            let x = num(&format!("win_share_{s}"))?;
            v.push(x);
            line.push_str(&format!(
                " {x:.4} [{:.4}, {:.4}] |",
                num(&format!("ci_low_{s}"))?,
                num(&format!("ci_high_{s}"))?
            ));
        }
        let capped = num("capped")?;
        if capped > crate::stats::CAPPED_WARN {
            over_cap.push(cell.clone());
        }
        line.push_str(&format!(
            " {} | {:.4} | {:.1}%{} |",
            p_number(num("holm_p")?),
            num("balance")?,
            100.0 * capped,
            if capped > crate::stats::CAPPED_WARN {
                " (!)"
            } else {
                ""
            }
        ));
        writeln!(rows_md, "{line}")?;
        cells.push(cell);
        shares.push(v);
    }
    if cells.is_empty() {
        bail!("{} has no cells", args.input.display());
    }
    let svg = args.out.with_extension("heatmap.svg");
    let mut chart_svg = String::new();
    (|| -> Result<()> {
        let h = 60 + 28 * cells.len() as u32;
        let root = SVGBackend::with_string(&mut chart_svg, (720, h.max(200))).into_drawing_area();
        root.fill(&WHITE)?;
        let (label, grid) = root.split_horizontally(380);
        let fair = 1.0 / seats as f64;
        let cw = (grid.dim_in_pixel().0 as i32 - 20) / seats as i32;
        for (i, cell) in cells.iter().enumerate() {
            let y = 40 + 28 * i as i32;
            label.draw(&Text::new(cell.clone(), (5, y + 6), ("sans-serif", 13)))?;
            for (s, &x) in shares[i].iter().enumerate() {
                // Blue below an equal share, red above; white at 1/n.
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
        for s in 0..seats {
            grid.draw(&Text::new(
                format!("seat {}", s + 1),
                (10 + cw * s as i32 + 6, 15),
                ("sans-serif", 13),
            ))?;
        }
        root.present()?;
        Ok(())
    })()
    .with_context(|| format!("drawing the chart {}", svg.display()))?;
    // Drawn in memory, then written like every output: a temporary file renamed over the target.
    shifu_engine::files::write_atomic(&svg, chart_svg.as_bytes())?;
    let mut md = String::new();
    writeln!(md, "# Sweep report: {}", args.input.display())?;
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
    for s in 1..=seats {
        head.push_str(&format!(" seat {s} [95% CI] |"));
    }
    head.push_str(" Holm p | balance | capped |");
    writeln!(md, "{head}")?;
    writeln!(md, "|{}", " --- |".repeat(seats + 4))?;
    md.push_str(&rows_md);
    if !over_cap.is_empty() {
        writeln!(md)?;
        writeln!(
            md,
            "**WARNING: in the cells marked (!) more than {:.0}% of the games were stopped by the round cap: their win shares are decided by the tie-break at the cap, not by the rules' end.**",
            100.0 * crate::stats::CAPPED_WARN
        )?;
    }
    shifu_engine::files::write_atomic(&args.out, md.as_bytes())?;
    println!("wrote {} and {}", args.out.display(), svg.display());
    Ok(())
}
