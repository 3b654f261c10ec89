//! The Elo curve of an expert-iteration run: `curve.csv` (one [`Row`] per iteration) and
//! `curve.svg` (the incumbent against the first network, the gates, and against greedy).

use super::checkpoint::Row;
use anyhow::Result;
use plotters::prelude::*;
use std::path::Path;

/// Writes `curve.csv` and `curve.svg` into `dir` (each through a temporary file).
pub fn write(dir: &Path, game: &str, rows: &[Row]) -> Result<()> {
    crate::curve::write_csv_and_svg(dir, rows, |svg| plot(svg, game, rows))
}

fn plot(svg: &mut String, game: &str, rows: &[Row]) -> Result<()> {
    let root = SVGBackend::with_string(svg, (720, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let last = rows.len().max(1) as f64;
    let ys = rows.iter().flat_map(|r| {
        [r.elo_vs_first_lo, r.elo_vs_first_hi, r.gate_lo, r.gate_hi]
            .into_iter()
            .chain(r.greedy_lo)
            .chain(r.greedy_hi)
    });
    let (lo, hi) = ys
        .filter(|y| y.is_finite())
        .fold((-50.0f64, 50.0f64), |(a, b), y| (a.min(y), b.max(y)));
    let pad = (hi - lo) * 0.08;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("shifu train --method expert-iteration: {game}"),
            ("sans-serif", 18),
        )
        .margin(15)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(0.5f64..last + 0.5, lo - pad..hi + pad)?;
    chart
        .configure_mesh()
        .x_desc("iteration")
        .y_desc("Elo")
        .draw()?;
    let x = |r: &Row| r.iteration as f64;
    chart
        .draw_series(LineSeries::new(
            rows.iter().map(|r| (x(r), r.elo_vs_first)),
            &BLUE,
        ))?
        .label("incumbent vs first network (95%)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart.draw_series(rows.iter().map(|r| {
        PathElement::new(
            vec![(x(r), r.elo_vs_first_lo), (x(r), r.elo_vs_first_hi)],
            BLUE.stroke_width(1),
        )
    }))?;
    chart
        .draw_series(rows.iter().map(|r| {
            let xo = x(r) + 0.1;
            PathElement::new(
                vec![(xo, r.gate_lo), (xo, r.gate_hi)],
                BLACK.stroke_width(1),
            )
        }))?
        .label("candidate vs incumbent, gate (95%)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    chart
        .draw_series(
            rows.iter()
                .filter(|r| r.accepted)
                .map(|r| Circle::new((x(r) + 0.1, r.gate_elo), 5, RED.filled())),
        )?
        .label("accepted (SPRT H1)")
        .legend(|(x, y)| Circle::new((x + 10, y), 5, RED.filled()));
    let greedy: Vec<(f64, f64, f64, f64)> = rows
        .iter()
        .filter_map(|r| Some((x(r) - 0.1, r.greedy_elo?, r.greedy_lo?, r.greedy_hi?)))
        .collect();
    if !greedy.is_empty() {
        chart
            .draw_series(LineSeries::new(greedy.iter().map(|g| (g.0, g.1)), &GREEN))?
            .label("incumbent vs greedy (95%)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN));
        chart.draw_series(
            greedy
                .iter()
                .map(|g| PathElement::new(vec![(g.0, g.2), (g.0, g.3)], GREEN.stroke_width(1))),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
