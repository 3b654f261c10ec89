//! A sweep's report page (`sweep --out`): a heatmap of the grid coloured by unfairness (the
//! largest |win share − 1/n|), the cells fair within the margin outlined and ticked, the cells
//! the round cap decided in grey (they have no verdict), and the table of cells.
//!
//! The first varied key gives the rows, the others the columns. Each cell is a
//! `rect.cell[data-row][data-col][data-cell][data-verdict][data-gap][data-capped]`; the verdict
//! is the file's own (`fair`, `unfair`, `undetermined`, `no_verdict`, empty where none).

use super::page::{Block, Chart, Page};
use super::svg::{num, ramp, tick_label, Svg};
use super::{pct, verdict_colour};
use crate::report::{SweepFile, SweepRow};
use crate::stats::CAPPED_WARN;
use std::path::Path;

/// A cell's place in the grid: its row's and column's labels.
fn place(cell: &str) -> (String, String) {
    // `key=value` words; a word without `=` continues the value before it.
    let mut words: Vec<String> = Vec::new();
    for w in cell.split(' ') {
        match words.last_mut() {
            Some(last) if !w.contains('=') => {
                last.push(' ');
                last.push_str(w);
            }
            _ => words.push(w.to_string()),
        }
    }
    let row = words.first().cloned().unwrap_or_default();
    let col = if words.len() > 1 {
        words[1..].join(" ")
    } else {
        "all".to_string()
    };
    (row, col)
}

/// Labels in order of first appearance.
fn distinct(labels: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in labels {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// Whether the round cap decided the cell: no verdict from it.
fn capped(c: &SweepRow) -> bool {
    c.verdict == "no_verdict" || c.capped > CAPPED_WARN
}

/// The page of a sweep.
pub(crate) fn page(input: &Path, f: &SweepFile) -> Page {
    let games = f.cells.first().map_or(0, |c| c.games);
    let mut p = Page::new(
        "sweep",
        format!(
            "Sweep: {} cells, {} players, {games} games per cell",
            f.cells.len(),
            f.seats
        ),
        input.display().to_string(),
    );
    let margin = f.cells.iter().find_map(|c| c.margin);
    p.push(Block::Heading("Unfairness by cell".into()));
    p.push(Block::Chart(Chart {
        name: "sweep-heatmap".into(),
        caption: format!(
            "The largest gap between a seat's win share and the fair share 1/{} in each cell, white at 0 and red at the scale's top. Outlined green with a tick: fair within ±{}; outlined red with a cross: unfair; no outline: undetermined. Grey: the round cap decided the cell, so it has no verdict.",
            f.seats,
            margin.map_or("the margin".to_string(), |m| m.to_string())
        ),
        svg: heatmap(f),
    }));
    let fair: Vec<&str> = f
        .cells
        .iter()
        .filter(|c| c.verdict == "fair")
        .map(|c| c.cell.as_str())
        .collect();
    if f.verdicts {
        p.push(Block::Strong(if fair.is_empty() {
            "No cell is shown fair within the margin.".to_string()
        } else {
            format!("Fair within the margin: {}.", fair.join("; "))
        }));
    }
    let over: Vec<&str> = f
        .cells
        .iter()
        .filter(|c| capped(c))
        .map(|c| c.cell.as_str())
        .collect();
    if !over.is_empty() {
        p.push(Block::Strong(format!(
            "The round cap stopped more than {:.0}% of the games in: {}. Their win shares are decided by the tie-break at the cap, not by the rules' end.",
            100.0 * CAPPED_WARN,
            over.join("; ")
        )));
    }
    let mut head = vec!["cell".to_string()];
    head.extend((1..=f.seats).map(|s| format!("seat {s} [95% CI]")));
    head.extend(["Holm p", "capped", "mean rounds", "gap", "verdict"].map(String::from));
    let rows = f
        .cells
        .iter()
        .map(|c| {
            let mut r = vec![c.cell.clone()];
            r.extend(
                c.shares
                    .iter()
                    .map(|(x, lo, hi)| format!("{x:.4} [{lo:.4}, {hi:.4}]")),
            );
            r.push(crate::format::p_number(c.holm_p));
            r.push(pct(c.capped));
            r.push(format!("{:.1}", c.mean_rounds));
            r.push(c.gap.map_or("–".into(), |g| format!("{g:.4}")));
            r.push(c.verdict.replace('_', " "));
            r
        })
        .collect();
    p.push(Block::Table(head, rows));
    p
}

/// The heatmap.
pub(crate) fn heatmap(f: &SweepFile) -> String {
    let places: Vec<(String, String)> = f.cells.iter().map(|c| place(&c.cell)).collect();
    let rows = distinct(places.iter().map(|p| p.0.clone()));
    let cols = distinct(places.iter().map(|p| p.1.clone()));
    let margin = f.cells.iter().find_map(|c| c.margin);
    let top = f
        .cells
        .iter()
        .filter(|c| !capped(c))
        .filter_map(|c| c.gap)
        .fold(2.0 * margin.unwrap_or(0.0), f64::max)
        .max(1e-6);
    let longest = |v: &[String]| v.iter().map(|s| s.chars().count()).max().unwrap_or(0) as f64;
    let (label_w, cw, rh) = (
        (longest(&rows) * 7.0 + 20.0).clamp(80.0, 320.0),
        (longest(&cols) * 7.0 + 16.0).clamp(90.0, 220.0),
        40.0,
    );
    let (x0, y0) = (label_w, 44.0);
    let width = x0 + cw * cols.len() as f64 + 20.0;
    let height = y0 + rh * rows.len() as f64 + 70.0;
    let mut s = Svg::new(width.max(x0 + 540.0), height);
    for (j, c) in cols.iter().enumerate() {
        s.text(
            (x0 + cw * (j as f64 + 0.5), y0 - 10.0),
            c,
            12.0,
            "middle",
            &[],
        );
    }
    for (i, r) in rows.iter().enumerate() {
        s.text(
            (x0 - 8.0, y0 + rh * (i as f64 + 0.5) + 4.0),
            r,
            12.0,
            "end",
            &[],
        );
    }
    for (c, (row, col)) in f.cells.iter().zip(&places) {
        let i = rows.iter().position(|r| r == row).unwrap_or(0) as f64;
        let j = cols.iter().position(|x| x == col).unwrap_or(0) as f64;
        let (x, y) = (x0 + cw * j, y0 + rh * i);
        cell(&mut s, c, (x, y), (cw, rh), f.seats, top);
    }
    legend(
        &mut s,
        (x0, y0 + rh * rows.len() as f64 + 22.0),
        top,
        margin,
    );
    s.finish(
        "sweep heatmap",
        &[
            ("class", "heatmap".into()),
            ("data-rows", rows.len().to_string()),
            ("data-cols", cols.len().to_string()),
        ],
    )
}

/// One cell of the heatmap, its gap written in it.
fn cell(
    s: &mut Svg,
    c: &SweepRow,
    (x, y): (f64, f64),
    (cw, rh): (f64, f64),
    seats: usize,
    top: f64,
) {
    let (row, col) = place(&c.cell);
    let is_capped = capped(c);
    let fill = match (is_capped, c.gap) {
        (true, _) => "#bdbdbd".to_string(),
        (false, Some(g)) => ramp(g / top, (198, 40, 40)),
        (false, None) => "#f5f5f5".to_string(),
    };
    let fair = c.verdict == "fair";
    // Fair and unfair cells are outlined in their verdict's colour; undetermined ones are not.
    let marked = fair || c.verdict == "unfair";
    let edge = if marked {
        verdict_colour(&c.verdict)
    } else {
        "#ffffff"
    };
    let shares: Vec<String> = c
        .shares
        .iter()
        .enumerate()
        .map(|(s, (w, lo, hi))| format!("seat {} {w:.3} [{lo:.3}, {hi:.3}]", s + 1))
        .collect();
    let title = format!(
        "{}\n{}\ngap from 1/{seats}: {}\nverdict: {}{}\ncapped: {}",
        c.cell,
        shares.join("\n"),
        c.gap.map_or("none".into(), |g| format!("{g:.4}")),
        if c.verdict.is_empty() {
            "none"
        } else {
            &c.verdict
        },
        c.margin.map_or(String::new(), |m| format!(" at ±{m}")),
        pct(c.capped)
    );
    s.rect(
        x + 1.5,
        y + 1.5,
        cw - 3.0,
        rh - 3.0,
        &fill,
        &[
            ("class", "cell".into()),
            ("data-row", row),
            ("data-col", col),
            ("data-cell", c.cell.clone()),
            ("data-verdict", c.verdict.clone()),
            ("data-gap", c.gap.map_or(String::new(), |g| g.to_string())),
            ("data-capped", c.capped.to_string()),
            ("stroke", edge.into()),
            ("stroke-width", if marked { "3" } else { "1" }.into()),
        ],
        Some(&title),
    );
    let label = if is_capped {
        "capped".to_string()
    } else {
        let g = c.gap.map_or("–".into(), |g| format!("{g:.3}"));
        match (fair, marked) {
            (true, _) => format!("✓ {g}"),
            (false, true) => format!("✗ {g}"),
            _ => g,
        }
    };
    s.text(
        (x + cw / 2.0, y + rh / 2.0 + 4.0),
        &label,
        12.0,
        "middle",
        &[
            ("pointer-events", "none".into()),
            ("fill", if marked { edge } else { "#222" }.into()),
            ("font-weight", if marked { "bold" } else { "normal" }.into()),
        ],
    );
}

/// The colour scale under the grid, with the margin marked.
fn legend(s: &mut Svg, (x, y): (f64, f64), top: f64, margin: Option<f64>) {
    let (w, steps) = (240.0, 24);
    for k in 0..steps {
        let t = k as f64 / (steps - 1) as f64;
        s.rect(
            x + w * k as f64 / steps as f64,
            y,
            w / steps as f64 + 0.5,
            12.0,
            &ramp(t, (198, 40, 40)),
            &[],
            None,
        );
    }
    s.text((x, y + 26.0), "0", 11.0, "middle", &[]);
    s.text(
        (x + w, y + 26.0),
        &tick_label((top * 1000.0).round() / 1000.0),
        11.0,
        "middle",
        &[],
    );
    s.text(
        (x + w + 10.0, y + 10.0),
        "largest gap from the fair share",
        11.0,
        "start",
        &[],
    );
    if let Some(m) = margin.filter(|&m| m <= top) {
        let mx = x + w * m / top;
        s.line((mx, y - 3.0), (mx, y + 15.0), "#2e7d32", 2.0);
        s.text(
            (mx, y + 26.0),
            &format!("margin {}", num(m)),
            11.0,
            "middle",
            &[("fill", "#2e7d32".into())],
        );
    }
    s.rect(x + w + 220.0, y, 14.0, 12.0, "#bdbdbd", &[], None);
    s.text((x + w + 238.0, y + 10.0), "capped", 11.0, "start", &[]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_placed_by_their_first_key() {
        assert_eq!(place("a=1 b=2 c=x"), ("a=1".into(), "b=2 c=x".into()));
        assert_eq!(place("a=1"), ("a=1".into(), "all".into()));
        assert_eq!(place("a=x y b=2"), ("a=x y".into(), "b=2".into()));
    }
}
