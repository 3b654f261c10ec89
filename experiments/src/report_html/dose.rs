//! A dose analysis's report page (`dose --json` or `dose --out FILE.csv`): each seat's win
//! share against the varied value with its 95% interval (a curve per seat), the unfairness and
//! the capped share against the value, the fitted slopes (from the JSON), and the table. A
//! `--per-seat` analysis draws the same against its vectors, in the order played.
//!
//! Points are `circle.point[data-series][data-x][data-y]`; a point left out of the fits (more
//! than 5% of its games capped) has `data-in-fit="false"` and is drawn hollow.

use super::page::{Block, Chart, Page};
use super::pct;
use super::svg::{Frame, Scale, Svg};
use crate::stats::CAPPED_WARN;
use anyhow::{Context, Result};
use serde::Deserialize;
use std::path::Path;

/// A dose analysis's `--json` output.
#[derive(Debug, Deserialize)]
#[serde(tag = "analysis", rename_all = "kebab-case")]
pub enum DoseView {
    /// `--vary`.
    Dose(CurveView),
    /// `--per-seat`.
    Coin(CoinView),
}

impl DoseView {
    /// Checks that every point has a win share for each of the players; the error names the
    /// field.
    pub fn check(&self) -> Result<()> {
        let (players, field, lens): (usize, &str, Vec<usize>) = match self {
            DoseView::Dose(d) => (
                d.players,
                "points",
                d.points.iter().map(|p| p.seats.len()).collect(),
            ),
            DoseView::Coin(c) => (
                c.players,
                "vectors",
                c.vectors.iter().map(|v| v.seats.len()).collect(),
            ),
        };
        for (i, n) in lens.into_iter().enumerate() {
            if n != players {
                anyhow::bail!("{field}[{i}].seats has {n} entries for players {players}");
            }
        }
        Ok(())
    }
}

/// A dose–response curve.
#[derive(Debug, Deserialize)]
pub struct CurveView {
    /// The game.
    pub game: String,
    /// Seats.
    pub players: usize,
    /// Games per value.
    pub games_per_setting: u64,
    /// The parameter varied.
    pub key: String,
    /// Every value.
    pub points: Vec<PointView>,
    /// Each seat's win share per unit of the parameter.
    pub seat_slopes: Option<Vec<EstimateView>>,
    /// Mean rounds per unit.
    pub rounds_slope: Option<EstimateView>,
}

/// One value.
#[derive(Debug, Deserialize)]
pub struct PointView {
    /// The value.
    pub value: f64,
    /// Its `--set` text.
    pub text: String,
    /// Each seat's win share.
    pub seats: Vec<ShareView>,
    /// The largest |share − 1/n|.
    pub unfairness: f64,
    /// Mean rounds.
    pub mean_rounds: f64,
    /// Capped share.
    pub capped_share: f64,
    /// In the fits.
    pub in_fit: bool,
}

/// A win share with its interval.
#[derive(Debug, Deserialize)]
pub struct ShareView {
    /// The share.
    pub win_share: f64,
    /// Low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// A fitted value with its interval.
#[derive(Debug, Deserialize)]
pub struct EstimateView {
    /// The estimate.
    pub estimate: f64,
    /// Low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// The per-seat analysis.
#[derive(Debug, Deserialize)]
pub struct CoinView {
    /// The game.
    pub game: String,
    /// Seats.
    pub players: usize,
    /// Games per vector.
    pub games_per_setting: u64,
    /// The per-seat parameter.
    pub key: String,
    /// Every vector.
    pub vectors: Vec<VectorView>,
    /// The fit.
    pub fit: Option<CoinFitView>,
}

/// One vector.
#[derive(Debug, Deserialize)]
pub struct VectorView {
    /// The vector's `--set` text.
    pub vector: String,
    /// Each seat's win share.
    pub seats: Vec<ShareView>,
    /// Capped share.
    pub capped_share: f64,
    /// In the fit.
    pub in_fit: bool,
}

/// The per-seat fit.
#[derive(Debug, Deserialize)]
pub struct CoinFitView {
    /// The win share one unit buys.
    pub beta: EstimateView,
    /// Units that bring each seat to 1/n.
    pub fair_units: Vec<EstimateView>,
}

/// One point of the charts: its position and label, and its figures.
pub struct Point {
    /// The x value.
    pub x: f64,
    /// Its label (`--set` text).
    pub label: String,
    /// Each seat's (share, low, high).
    pub seats: Vec<(f64, f64, f64)>,
    /// Mean rounds, where known.
    pub mean_rounds: Option<f64>,
    /// Capped share.
    pub capped: f64,
    /// In the fits.
    pub in_fit: bool,
}

/// What the page draws, from either input.
pub struct Curves {
    /// The game, or empty when the input (a CSV) does not say.
    pub title: String,
    /// The x axis: the parameter, or "vector" (then x is the vector's index).
    pub x_title: String,
    /// Seats.
    pub seats: usize,
    /// The points.
    pub points: Vec<Point>,
    /// Lines on the fitted slopes.
    pub fits: Vec<String>,
}

fn shares(s: &[ShareView]) -> Vec<(f64, f64, f64)> {
    s.iter()
        .map(|x| (x.win_share, x.ci_low, x.ci_high))
        .collect()
}

fn est(e: &EstimateView) -> String {
    format!("{:+.4} [{:+.4}, {:+.4}]", e.estimate, e.ci_low, e.ci_high)
}

impl Curves {
    /// The curves of a `--json` result.
    pub fn from_view(v: &DoseView) -> Curves {
        match v {
            DoseView::Dose(d) => {
                let mut fits = Vec::new();
                if let Some(sl) = &d.seat_slopes {
                    for (s, e) in sl.iter().enumerate() {
                        fits.push(format!(
                            "Seat {}'s win share per unit of {}: {}.",
                            s + 1,
                            d.key,
                            est(e)
                        ));
                    }
                }
                if let Some(e) = &d.rounds_slope {
                    fits.push(format!("Mean rounds per unit of {}: {}.", d.key, est(e)));
                }
                Curves {
                    title: format!(
                        "{} with {} players, {} games per value",
                        d.game, d.players, d.games_per_setting
                    ),
                    x_title: d.key.clone(),
                    seats: d.players,
                    points: d
                        .points
                        .iter()
                        .map(|p| Point {
                            x: p.value,
                            label: p.text.clone(),
                            seats: shares(&p.seats),
                            mean_rounds: Some(p.mean_rounds),
                            capped: p.capped_share,
                            in_fit: p.in_fit,
                        })
                        .collect(),
                    fits,
                }
            }
            DoseView::Coin(c) => {
                let mut fits = Vec::new();
                if let Some(f) = &c.fit {
                    fits.push(format!(
                        "One unit of {} buys a seat {} of win share.",
                        c.key,
                        est(&f.beta)
                    ));
                    for (s, e) in f.fair_units.iter().enumerate() {
                        fits.push(format!(
                            "Seat {} reaches the fair share at {} units of {}.",
                            s + 1,
                            est(e),
                            c.key
                        ));
                    }
                }
                Curves {
                    title: format!(
                        "{} with {} players, {} games per vector",
                        c.game, c.players, c.games_per_setting
                    ),
                    x_title: format!("vector of {} (in the order played)", c.key),
                    seats: c.players,
                    points: c
                        .vectors
                        .iter()
                        .enumerate()
                        .map(|(i, v)| Point {
                            x: (i + 1) as f64,
                            label: v.vector.clone(),
                            seats: shares(&v.seats),
                            mean_rounds: None,
                            capped: v.capped_share,
                            in_fit: v.in_fit,
                        })
                        .collect(),
                    fits,
                }
            }
        }
    }
}

/// Reads a dose CSV (`dose --out`) and writes its page to `out`.
pub fn csv_report(
    input: &Path,
    mut r: csv::Reader<std::fs::File>,
    header: &csv::StringRecord,
    out: &Path,
) -> Result<()> {
    let first = header.get(0).unwrap_or("value").to_string();
    let seats = header
        .iter()
        .filter(|h| h.starts_with("win_share_"))
        .count();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}: no column {name}", input.display()))
    };
    let mut points = Vec::new();
    for (line, rec) in r.records().enumerate() {
        let at = || format!("{} row {}", input.display(), line + 2);
        let rec = rec.with_context(at)?;
        let field = |name: &str| -> Result<&str> { Ok(rec.get(col(name)?).unwrap_or("")) };
        let num = |name: &str| -> Result<f64> {
            let v = field(name)?;
            v.parse::<f64>()
                .with_context(|| format!("{}: bad {name} `{v}`", at()))
        };
        let label = rec.get(0).unwrap_or("").to_string();
        let x = if first == "value" {
            let v = label.rsplit('=').next().unwrap_or("");
            v.parse::<f64>()
                .with_context(|| format!("{}: bad value `{label}` (expected key=NUMBER)", at()))?
        } else {
            (line + 1) as f64
        };
        let seats = (1..=seats)
            .map(|s| {
                Ok((
                    num(&format!("win_share_{s}"))?,
                    num(&format!("ci_low_{s}"))?,
                    num(&format!("ci_high_{s}"))?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        let mean_rounds = match field("mean_rounds")? {
            "" => None,
            _ => Some(num("mean_rounds")?),
        };
        let in_fit = match field("in_fit")? {
            "true" => true,
            "false" => false,
            v => anyhow::bail!("{}: bad in_fit `{v}` (expected true or false)", at()),
        };
        points.push(Point {
            x,
            label,
            seats,
            mean_rounds,
            capped: num("capped")?,
            in_fit,
        });
    }
    if points.is_empty() {
        anyhow::bail!("{} has no rows", input.display());
    }
    let c = Curves {
        title: format!("{} players", seats),
        x_title: if first == "value" {
            points[0]
                .label
                .split('=')
                .next()
                .unwrap_or("value")
                .to_string()
        } else {
            "vector (in the order played)".into()
        },
        seats,
        points,
        fits: Vec::new(),
    };
    let page = page_of(input, &c);
    shifu_engine::files::write_atomic(out, page.html().as_bytes())?;
    println!("wrote {}", out.display());
    Ok(())
}

/// The page of a `--json` dose result.
pub fn page(input: &Path, v: &DoseView) -> Page {
    page_of(input, &Curves::from_view(v))
}

/// The page of dose curves.
pub fn page_of(input: &Path, c: &Curves) -> Page {
    let mut p = Page::new(
        "dose",
        format!("Dose–response: {}", c.title),
        input.display().to_string(),
    );
    let fair = 1.0 / c.seats.max(1) as f64;
    p.push(Block::Heading("Win share by seat".into()));
    let series: Vec<Series> = (0..c.seats)
        .map(|s| Series {
            name: format!("seat {}", s + 1),
            values: c.points.iter().map(|p| p.seats[s]).collect(),
        })
        .collect();
    p.push(Block::Chart(Chart {
        name: "dose-win-share".into(),
        caption: format!("Each seat's win share against {} with its 95% interval; the dashed line is the fair share 1/{}. Hollow points are left out of the fits (more than {:.0}% capped).", c.x_title, c.seats, 100.0 * CAPPED_WARN),
        svg: curve_chart(c, &series, "win share", Some(fair)),
    }));
    for f in &c.fits {
        p.push(Block::Para(f.clone()));
    }
    let unfair = Series {
        name: "unfairness".into(),
        values: c
            .points
            .iter()
            .map(|p| {
                let u = p
                    .seats
                    .iter()
                    .map(|s| (s.0 - fair).abs())
                    .fold(0.0, f64::max);
                (u, u, u)
            })
            .collect(),
    };
    p.push(Block::Heading("Unfairness and the capped share".into()));
    p.push(Block::Chart(Chart {
        name: "dose-unfairness".into(),
        caption: "The largest gap between a seat's win share and the fair share, for each value."
            .into(),
        svg: curve_chart(c, &[unfair], "largest gap from 1/n", None),
    }));
    let capped = Series {
        name: "capped share".into(),
        values: c
            .points
            .iter()
            .map(|p| (p.capped, p.capped, p.capped))
            .collect(),
    };
    p.push(Block::Chart(Chart {
        name: "dose-capped".into(),
        caption: format!("The share of games the round cap stopped; above {:.0}% (the line) a value is left out of the fits.", 100.0 * CAPPED_WARN),
        svg: curve_chart(c, &[capped], "capped share", Some(CAPPED_WARN)),
    }));
    let mut head = vec!["setting".to_string()];
    head.extend((1..=c.seats).map(|s| format!("seat {s} [95% CI]")));
    head.extend(["mean rounds", "capped", "in fit"].map(String::from));
    let rows = c
        .points
        .iter()
        .map(|p| {
            let mut r = vec![p.label.clone()];
            r.extend(
                p.seats
                    .iter()
                    .map(|(w, lo, hi)| format!("{w:.4} [{lo:.4}, {hi:.4}]")),
            );
            r.push(p.mean_rounds.map_or("–".into(), |m| format!("{m:.1}")));
            r.push(pct(p.capped));
            r.push(if p.in_fit { "yes" } else { "no" }.into());
            r
        })
        .collect();
    p.push(Block::Table(head, rows));
    p
}

/// One line of a chart: a value with its interval at each point.
pub struct Series {
    /// Its name.
    pub name: String,
    /// (value, low, high) at each point.
    pub values: Vec<(f64, f64, f64)>,
}

const COLOURS: [&str; 8] = [
    "#3f6fb5", "#c62828", "#2e7d32", "#b7791f", "#6a1b9a", "#00838f", "#5d4037", "#ad1457",
];

/// Lines through the points, whiskers for the intervals, and a dashed reference line.
pub fn curve_chart(c: &Curves, series: &[Series], y_title: &str, reference: Option<f64>) -> String {
    let (w, h) = (680.0, 380.0);
    let xs = c.points.iter().map(|p| p.x);
    let (x0, x1) = (
        xs.clone().fold(f64::MAX, f64::min),
        xs.fold(f64::MIN, f64::max),
    );
    let pad = ((x1 - x0) * 0.05).max(0.5);
    let mut y1 = series
        .iter()
        .flat_map(|s| s.values.iter().map(|v| v.2))
        .fold(reference.unwrap_or(0.0), f64::max);
    y1 = (y1 * 1.15).max(0.01);
    let f = Frame {
        x: Scale::linear(x0 - pad, x1 + pad, 70.0, w - 120.0),
        y: Scale::linear(0.0, y1, h - 50.0, 20.0),
    };
    let mut s = Svg::new(w, h);
    f.axes(&mut s, &c.x_title, y_title);
    if let Some(r) = reference {
        let y = f.y.at(r);
        s.element(
            "line",
            &[
                ("x1", super::svg::num(f.x.r0)),
                ("y1", super::svg::num(y)),
                ("x2", super::svg::num(f.x.r1)),
                ("y2", super::svg::num(y)),
                ("stroke", "#555".into()),
                ("stroke-dasharray", "5 4".into()),
            ],
            None,
            None,
        );
    }
    for (k, sr) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let line: Vec<(f64, f64)> = c
            .points
            .iter()
            .zip(&sr.values)
            .map(|(p, v)| (f.x.at(p.x), f.y.at(v.0)))
            .collect();
        s.polyline(
            &line,
            colour,
            &[("class", "series".into()), ("data-series", sr.name.clone())],
        );
        for (p, v) in c.points.iter().zip(&sr.values) {
            let (px, py) = (f.x.at(p.x), f.y.at(v.0));
            if v.2 > v.1 {
                s.line((px, f.y.at(v.1)), (px, f.y.at(v.2)), colour, 1.0);
            }
            s.circle(
                (px, py),
                4.0,
                &[
                    ("class", "mark point".into()),
                    ("fill", if p.in_fit { colour } else { "#ffffff" }.into()),
                    ("stroke", colour.into()),
                    ("data-series", sr.name.clone()),
                    ("data-x", p.x.to_string()),
                    ("data-y", v.0.to_string()),
                    ("data-in-fit", p.in_fit.to_string()),
                ],
                Some(&format!(
                    "{}\n{}: {:.4}{}\ncapped {}{}",
                    p.label,
                    sr.name,
                    v.0,
                    if v.2 > v.1 {
                        format!(" [{:.4}, {:.4}]", v.1, v.2)
                    } else {
                        String::new()
                    },
                    pct(p.capped),
                    if p.in_fit {
                        ""
                    } else {
                        " (left out of the fits)"
                    }
                )),
            );
        }
        let ly = 30.0 + 18.0 * k as f64;
        s.line((w - 110.0, ly), (w - 90.0, ly), colour, 3.0);
        s.text((w - 85.0, ly + 4.0), &sr.name, 11.0, "start", &[]);
    }
    s.finish(
        y_title,
        &[
            ("class", "dose-chart".into()),
            ("data-points", c.points.len().to_string()),
        ],
    )
}
