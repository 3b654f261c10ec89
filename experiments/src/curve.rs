//! The learning curve of `shifu train`: one CSV row per generation and an SVG plot.

use anyhow::Result;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One generation of a training run.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CurveRow {
    /// The generation, from 1.
    pub generation: usize,
    /// The best candidate's fitness (mean win share against the pool).
    pub best_fitness: f64,
    /// The candidates' mean fitness.
    pub mean_fitness: f64,
    /// The best candidate's win share in its duel against the incumbent.
    pub duel_share: f64,
    /// The duel share's 95% interval (normal approximation).
    pub duel_lo: f64,
    /// Upper end.
    pub duel_hi: f64,
    /// The duel share as an Elo difference against the incumbent.
    pub duel_elo: f64,
    /// One-sided p-value of "the challenger beats the fair share".
    pub p_value: f64,
    /// Whether the challenger became the champion.
    pub accepted: bool,
    /// Champions accepted so far.
    pub champions: usize,
    /// Seconds since the run started (this process).
    pub elapsed_s: f64,
}

/// Writes `curve.csv` and `curve.svg` into `dir` (each through a temporary file).
pub fn write_curve(dir: &Path, game: &str, rows: &[CurveRow]) -> Result<()> {
    write_csv_and_svg(dir, rows, |svg| plot(svg, game, rows))
}

/// Writes `rows` as `dir/curve.csv` and the chart `draw` makes as `dir/curve.svg`, each through
/// the atomic writer: the one way a training curve is saved (CMA-ES and expert iteration).
pub fn write_csv_and_svg<R: serde::Serialize>(
    dir: &Path,
    rows: &[R],
    draw: impl FnOnce(&mut String) -> Result<()>,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    shifu_engine::files::write_atomic(&dir.join("curve.csv"), &w.into_inner()?)?;
    let mut svg = String::new();
    draw(&mut svg)?;
    shifu_engine::files::write_atomic(&dir.join("curve.svg"), svg.as_bytes())?;
    Ok(())
}

fn plot(svg: &mut String, game: &str, rows: &[CurveRow]) -> Result<()> {
    let root = SVGBackend::with_string(svg, (720, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let last = rows.len().max(1) as f64;
    let top = rows
        .iter()
        .flat_map(|r| [r.best_fitness, r.duel_hi])
        .fold(0.0f64, f64::max)
        .max(0.1)
        * 1.15;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("shifu train: {game}"), ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0.5f64..last + 0.5, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc("win share")
        .draw()?;
    let line = |f: fn(&CurveRow) -> f64| -> Vec<(f64, f64)> {
        rows.iter().map(|r| (r.generation as f64, f(r))).collect()
    };
    chart
        .draw_series(LineSeries::new(line(|r| r.best_fitness), &BLUE))?
        .label("best candidate vs pool")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart
        .draw_series(LineSeries::new(line(|r| r.mean_fitness), &GREEN))?
        .label("mean candidate vs pool")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN));
    chart
        .draw_series(rows.iter().map(|r| {
            let x = r.generation as f64;
            PathElement::new(vec![(x, r.duel_lo), (x, r.duel_hi)], BLACK.stroke_width(1))
        }))?
        .label("duel vs incumbent (95%)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    chart
        .draw_series(
            rows.iter()
                .filter(|r| r.accepted)
                .map(|r| Circle::new((r.generation as f64, r.duel_share), 5, RED.filled())),
        )?
        .label("champion accepted")
        .legend(|(x, y)| Circle::new((x + 10, y), 5, RED.filled()));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
