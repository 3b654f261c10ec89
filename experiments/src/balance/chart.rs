//! The race as an SVG: each setting's first-objective estimate at its last look against the
//! games it played (log scale). Settings dropped early sit at the left; the survivors at the
//! right, the validated ones marked.

use super::result::BalanceResult;
use anyhow::Result;
use plotters::prelude::*;

/// Draws the race chart.
pub fn race_chart(r: &BalanceResult) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 440)).into_drawing_area();
        root.fill(&WHITE)?;
        let points: Vec<(f64, f64, bool)> = r
            .race_entries
            .iter()
            .filter(|e| e.games > 0 && !e.estimate.is_empty())
            .map(|e| {
                (
                    e.games as f64,
                    e.estimate[0],
                    e.eliminated_at_look.is_none(),
                )
            })
            .collect();
        let x_max = points.iter().map(|p| p.0).fold(2.0, f64::max) * 1.5;
        let x_min = points.iter().map(|p| p.0).fold(x_max, f64::min) / 1.5;
        let y_max = points.iter().map(|p| p.1).fold(0.01, f64::max) * 1.1;
        let y_min = points.iter().map(|p| p.1).fold(0.0, f64::min);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{} {}p: race over {} settings ({} games)",
                    r.game, r.players, r.settings, r.race_games
                ),
                ("sans-serif", 18),
            )
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((x_min..x_max).log_scale(), y_min..y_max)?;
        chart
            .configure_mesh()
            .x_desc("games played in the race (log scale)")
            .y_desc(format!("{} (estimate)", r.objectives[0]))
            .draw()?;
        chart.draw_series(
            points
                .iter()
                .filter(|p| !p.2)
                .map(|&(x, y, _)| Circle::new((x, y), 3, BLACK.mix(0.35).filled())),
        )?;
        chart.draw_series(
            points
                .iter()
                .filter(|p| p.2)
                .map(|&(x, y, _)| Circle::new((x, y), 4, BLUE.filled())),
        )?;
        let finalists: Vec<(f64, f64)> = r
            .race
            .finalists
            .iter()
            .filter_map(|&i| r.race_entries.get(i))
            .filter(|e| !e.estimate.is_empty())
            .map(|e| (e.games as f64, e.estimate[0]))
            .collect();
        chart.draw_series(
            finalists
                .iter()
                .map(|&p| Circle::new(p, 7, RED.stroke_width(2))),
        )?;
        if r.objectives[0] == "fair" || r.objectives[0].starts_with("target:") {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x_min, r.margin), (x_max, r.margin)],
                RED.mix(0.6).stroke_width(1),
            )))?;
        }
        root.present()?;
    }
    Ok(svg)
}
