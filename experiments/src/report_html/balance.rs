//! A balance search's report page (`balance --out FILE.json`): the race (each setting's first
//! objective against the games it played), the Pareto front of the surviving settings (the
//! first two objectives, or the first and the distance from the rulebook when there is one
//! objective; lower is better on both), and the validated recommendations.
//!
//! Points are `circle.point[data-setting][data-games][data-x][data-y][data-status]`, status
//! `eliminated`, `survivor` or `finalist`; the Pareto set's also carry `data-pareto="true"`.

use super::page::{Block, Chart, Page};
use super::svg::{Frame, Scale, Svg};
use serde::Deserialize;
use std::path::Path;

/// The part of a balance result (`BalanceResult`'s JSON) the page shows.
#[derive(Debug, Deserialize)]
pub struct BalanceView {
    /// The game.
    pub game: String,
    /// Players.
    pub players: usize,
    /// The objectives, the first the primary one.
    pub objectives: Vec<String>,
    /// The equivalence margin.
    pub margin: f64,
    /// Settings in the space.
    pub settings: usize,
    /// Games the race played.
    pub race_games: u64,
    /// How the race ended.
    pub race: RaceView,
    /// The finalists' validations, best first.
    pub recommended: Vec<RecommendedView>,
    /// The answer in one sentence.
    pub answer: String,
    /// Every setting's race.
    pub race_entries: Vec<EntryView>,
}

/// How the race ended.
#[derive(Debug, Deserialize)]
pub struct RaceView {
    /// Why it stopped.
    pub stop: String,
    /// The settings left (indices into the entries).
    pub survivors: Vec<usize>,
    /// The validated ones (indices).
    pub finalists: Vec<usize>,
}

/// One setting's race.
#[derive(Debug, Deserialize)]
pub struct EntryView {
    /// `key=value` words.
    pub name: String,
    /// Games it played.
    pub games: u64,
    /// Its objectives' estimates at its last look.
    pub estimate: Vec<f64>,
    /// Its distance from the rulebook's setting.
    pub distance: f64,
    /// The look it left at, if it did.
    pub eliminated_at_look: Option<usize>,
    /// The setting that beat it.
    pub eliminated_by: Option<String>,
}

/// A validated setting.
#[derive(Debug, Deserialize)]
pub struct RecommendedView {
    /// `key=value` words.
    pub name: String,
    /// Its validation.
    pub validation: ValidationView,
    /// The verdict as a sentence.
    pub verdict: String,
}

/// A validation's figures.
#[derive(Debug, Deserialize)]
pub struct ValidationView {
    /// Games.
    pub games: u64,
    /// Each objective's value with its interval.
    pub objectives: Vec<Figure>,
    /// The equivalence verdict (its name in `verdict`).
    pub equivalence: Option<VerdictView>,
}

/// A value with its 95% interval.
#[derive(Debug, Deserialize)]
pub struct Figure {
    /// What it is.
    pub name: String,
    /// The value.
    pub value: f64,
    /// Low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// A verdict's name.
#[derive(Debug, Deserialize)]
pub struct VerdictView {
    /// `fair`, `unfair`, `undetermined` or `no_verdict`.
    pub verdict: String,
}

impl BalanceView {
    fn status(&self, i: usize) -> &'static str {
        if self.race.finalists.contains(&i) {
            "finalist"
        } else if self.race_entries[i].eliminated_at_look.is_none() {
            "survivor"
        } else {
            "eliminated"
        }
    }

    /// The second axis of the front: the second objective, else the distance.
    fn second(&self, e: &EntryView) -> f64 {
        e.estimate.get(1).copied().unwrap_or(e.distance)
    }

    /// The surviving settings no other survivor beats on both axes.
    pub fn pareto(&self) -> Vec<usize> {
        let alive: Vec<usize> = (0..self.race_entries.len())
            .filter(|&i| {
                self.race_entries[i].eliminated_at_look.is_none()
                    && !self.race_entries[i].estimate.is_empty()
            })
            .collect();
        let key = |i: usize| {
            (
                self.race_entries[i].estimate[0],
                self.second(&self.race_entries[i]),
            )
        };
        let beats =
            |a: (f64, f64), b: (f64, f64)| a.0 <= b.0 && a.1 <= b.1 && (a.0 < b.0 || a.1 < b.1);
        let mut front: Vec<usize> = alive
            .iter()
            .copied()
            .filter(|&c| !alive.iter().any(|&b| beats(key(b), key(c))))
            .collect();
        front.sort_by(|&a, &b| key(a).0.total_cmp(&key(b).0).then(a.cmp(&b)));
        front
    }
}

/// The page of a balance result.
pub fn page(input: &Path, r: &BalanceView) -> Page {
    let mut p = Page::new(
        "balance",
        format!(
            "Balance search: {} with {} players, {} settings",
            r.game, r.players, r.settings
        ),
        format!(
            "{} · objectives {} · margin ±{} · {} race games, stopped: {}",
            input.display(),
            r.objectives.join(", "),
            r.margin,
            r.race_games,
            r.race.stop
        ),
    );
    p.push(Block::Strong(format!("Answer: {}", r.answer)));
    p.push(Block::Heading("The race".into()));
    p.push(Block::Chart(Chart {
        name: "balance-race".into(),
        caption: "Each setting's first objective at its last look against the games it played (log scale): settings dropped early sit at the left. Grey: eliminated; blue: survivors; red rings: the finalists validated on fresh games.".into(),
        svg: race_chart(r),
    }));
    let second = r
        .objectives
        .get(1)
        .cloned()
        .unwrap_or_else(|| "distance from the rulebook".into());
    p.push(Block::Heading("Pareto front".into()));
    p.push(Block::Chart(Chart {
        name: "balance-pareto".into(),
        caption: format!(
            "The surviving settings by {} and {second} (lower is better on both); the line joins the Pareto front, the settings no other survivor beats on both.",
            r.objectives.first().map_or("", |s| s.as_str())
        ),
        svg: pareto_chart(r, &second),
    }));
    p.push(Block::Heading("Validated settings".into()));
    let rows = r
        .recommended
        .iter()
        .map(|x| {
            let objectives: Vec<String> = x
                .validation
                .objectives
                .iter()
                .map(|o| {
                    format!(
                        "{} {:.4} [{:.4}, {:.4}]",
                        o.name, o.value, o.ci_low, o.ci_high
                    )
                })
                .collect();
            vec![
                x.name.clone(),
                x.validation.games.to_string(),
                objectives.join("; "),
                x.verdict.clone(),
            ]
        })
        .collect();
    p.push(Block::Table(
        ["setting", "games", "objectives [95% CI]", "verdict"]
            .map(String::from)
            .to_vec(),
        rows,
    ));
    p
}

/// A point's marks and tooltip.
fn point(s: &mut Svg, r: &BalanceView, i: usize, (x, y): (f64, f64), at: (f64, f64), pareto: bool) {
    let e = &r.race_entries[i];
    let status = r.status(i);
    let (fill, radius) = match status {
        "eliminated" => ("#9e9e9e", 3.0),
        _ => ("#3f6fb5", 4.5),
    };
    let est: Vec<String> = e.estimate.iter().map(|v| format!("{v:.4}")).collect();
    let mut title = format!(
        "{}\n{} games; estimate {}; distance {:.3}\n{status}",
        e.name,
        e.games,
        est.join(", "),
        e.distance
    );
    if let (Some(look), Some(by)) = (e.eliminated_at_look, &e.eliminated_by) {
        title.push_str(&format!(" at look {look} by {by}"));
    }
    let mut attrs = vec![
        ("class", "mark point".to_string()),
        ("fill", fill.to_string()),
        ("data-setting", e.name.clone()),
        ("data-games", e.games.to_string()),
        ("data-x", x.to_string()),
        ("data-y", y.to_string()),
        ("data-status", status.to_string()),
    ];
    if pareto {
        attrs.push(("data-pareto", "true".into()));
    }
    if status == "finalist" {
        s.circle(
            at,
            8.0,
            &[
                ("fill", "none".into()),
                ("stroke", "#c62828".into()),
                ("stroke-width", "2".into()),
            ],
            None,
        );
    }
    s.circle(at, radius, &attrs, Some(&title));
}

/// The race chart.
pub fn race_chart(r: &BalanceView) -> String {
    let (w, h) = (680.0, 400.0);
    let pts: Vec<usize> = (0..r.race_entries.len())
        .filter(|&i| r.race_entries[i].games > 0 && !r.race_entries[i].estimate.is_empty())
        .collect();
    let xs = pts.iter().map(|&i| r.race_entries[i].games as f64);
    let ys = pts.iter().map(|&i| r.race_entries[i].estimate[0]);
    let (x0, x1) = (xs.clone().fold(f64::MAX, f64::min), xs.fold(2.0, f64::max));
    let (y0, y1) = (ys.clone().fold(0.0, f64::min), ys.fold(r.margin, f64::max));
    let f = Frame {
        x: Scale::log(x0.min(x1) / 1.5, x1 * 1.5, 80.0, w - 20.0),
        y: Scale::linear(y0, y1 * 1.1, h - 50.0, 20.0),
    };
    let mut s = Svg::new(w, h);
    f.axes(
        &mut s,
        "games played in the race (log scale)",
        &format!(
            "{} (estimate)",
            r.objectives.first().map_or("", |o| o.as_str())
        ),
    );
    let first = r.objectives.first().map_or("", |o| o.as_str());
    if first == "fair" || first.starts_with("target:") {
        let y = f.y.at(r.margin);
        s.line((f.x.r0, y), (f.x.r1, y), "#2e7d32", 1.0);
        s.text(
            (f.x.r1 - 4.0, y - 4.0),
            &format!("margin {}", r.margin),
            11.0,
            "end",
            &[("fill", "#2e7d32".into())],
        );
    }
    let mut order = pts.clone();
    // Eliminated first, so the survivors are drawn on top.
    order.sort_by_key(|&i| r.status(i) != "eliminated");
    for i in order {
        let e = &r.race_entries[i];
        let (x, y) = (e.games as f64, e.estimate[0]);
        point(&mut s, r, i, (x, y), (f.x.at(x), f.y.at(y)), false);
    }
    s.finish(
        "balance race",
        &[
            ("class", "race-chart".into()),
            ("data-settings", r.race_entries.len().to_string()),
        ],
    )
}

/// The Pareto chart of the survivors.
pub fn pareto_chart(r: &BalanceView, second: &str) -> String {
    let (w, h) = (680.0, 400.0);
    let front = r.pareto();
    let alive: Vec<usize> = (0..r.race_entries.len())
        .filter(|&i| {
            r.race_entries[i].eliminated_at_look.is_none() && !r.race_entries[i].estimate.is_empty()
        })
        .collect();
    let xy = |i: usize| (r.race_entries[i].estimate[0], r.second(&r.race_entries[i]));
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &i in &alive {
        let (x, y) = xy(i);
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if alive.is_empty() {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let (px, py) = (((x1 - x0) * 0.08).max(1e-3), ((y1 - y0) * 0.08).max(1e-3));
    let f = Frame {
        x: Scale::linear(x0 - px, x1 + px, 80.0, w - 20.0),
        y: Scale::linear(y0 - py, y1 + py, h - 50.0, 20.0),
    };
    let mut s = Svg::new(w, h);
    f.axes(
        &mut s,
        r.objectives.first().map_or("", |o| o.as_str()),
        second,
    );
    let line: Vec<(f64, f64)> = front
        .iter()
        .map(|&i| {
            let (x, y) = xy(i);
            (f.x.at(x), f.y.at(y))
        })
        .collect();
    if line.len() > 1 {
        s.polyline(
            &line,
            "#c62828",
            &[
                ("class", "front".into()),
                ("stroke-dasharray", "4 3".into()),
            ],
        );
    }
    for &i in &alive {
        let (x, y) = xy(i);
        point(
            &mut s,
            r,
            i,
            (x, y),
            (f.x.at(x), f.y.at(y)),
            front.contains(&i),
        );
    }
    s.finish(
        "balance Pareto front",
        &[
            ("class", "pareto-chart".into()),
            ("data-front", front.len().to_string()),
        ],
    )
}
