//! A tournament's report page (`tournament --json`): each agent's Elo with its 95% bootstrap
//! interval, or with `--sprt` where the log-likelihood ratio ended between its bounds.
//!
//! Ratings are `circle.point[data-agent][data-elo][data-ci-low][data-ci-high]`; the SPRT's
//! ratio is `circle.point.llr[data-llr][data-decision]`.

use super::page::{Block, Chart, Page};
use super::pct;
use super::svg::{Frame, Scale, Svg};
use crate::tournament::{Ratings, Sprt, TournamentResult};
use std::path::Path;

/// The page of a tournament.
pub fn page(input: &Path, t: &TournamentResult) -> Page {
    match t {
        TournamentResult::Ratings(r) => ratings_page(input, r),
        TournamentResult::Sprt(s) => sprt_page(input, s),
    }
}

fn ratings_page(input: &Path, r: &Ratings) -> Page {
    let mut p = Page::new(
        "tournament",
        format!(
            "Tournament: {} with {} players, {} agents",
            r.game,
            r.players,
            r.ratings.len()
        ),
        format!(
            "{} · {} games on {} seeds · {}",
            input.display(),
            r.games,
            r.seeds,
            r.model
        ),
    );
    p.push(Block::Heading("Ratings".into()));
    p.push(Block::Chart(Chart {
        name: "tournament-ratings".into(),
        caption: "Each agent's Elo (mean 0 over the agents) with its 95% bootstrap interval over seeds, strongest first.".into(),
        svg: ratings_chart(r),
    }));
    p.push(Block::Table(
        ["agent", "Elo", "95% CI", "win share", "mean rank"]
            .map(String::from)
            .to_vec(),
        r.ratings
            .iter()
            .map(|x| {
                vec![
                    x.agent.clone(),
                    format!("{:.0}", x.elo),
                    format!("[{:.0}, {:.0}]", x.ci_low, x.ci_high),
                    format!("{:.4}", x.win_share),
                    format!("{:.3}", x.mean_rank),
                ]
            })
            .collect(),
    ));
    capped(&mut p, r.capped, r.games, &r.capped_warning);
    p.push(Block::Para(format!("Round cap: {}.", r.max_rounds)));
    p
}

fn capped(p: &mut Page, capped: u64, games: u64, warning: &Option<String>) {
    p.push(Block::Para(format!(
        "Capped: {capped} of {games} games ({}).",
        pct(capped as f64 / games.max(1) as f64)
    )));
    if let Some(w) = warning {
        p.push(Block::Strong(w.clone()));
    }
}

/// The ratings as dots with whiskers, one row per agent.
pub fn ratings_chart(r: &Ratings) -> String {
    let rows = r.ratings.len().max(1) as f64;
    let label_w = (r
        .ratings
        .iter()
        .map(|x| x.agent.chars().count())
        .max()
        .unwrap_or(0) as f64
        * 7.0
        + 20.0)
        .clamp(100.0, 360.0);
    let (w, h) = (label_w + 460.0, 80.0 + 34.0 * rows);
    let lo = r.ratings.iter().map(|x| x.ci_low).fold(0.0, f64::min);
    let hi = r.ratings.iter().map(|x| x.ci_high).fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.08).max(10.0);
    let f = Frame {
        x: Scale::linear(lo - pad, hi + pad, label_w, w - 20.0),
        y: Scale::linear(0.0, rows, h - 50.0, 20.0),
    };
    let mut s = Svg::new(w, h);
    f.axes_with(&mut s, "Elo", "", None);
    let zero = f.x.at(0.0);
    s.line((zero, f.y.r1), (zero, f.y.r0), "#999", 1.0);
    for (i, x) in r.ratings.iter().enumerate() {
        let y = f.y.at(rows - i as f64 - 0.5);
        s.text((label_w - 8.0, y + 4.0), &x.agent, 12.0, "end", &[]);
        s.line((f.x.at(x.ci_low), y), (f.x.at(x.ci_high), y), "#222", 2.0);
        s.circle(
            (f.x.at(x.elo), y),
            5.0,
            &[
                ("class", "mark point".into()),
                ("fill", "#3f6fb5".into()),
                ("data-agent", x.agent.clone()),
                ("data-elo", x.elo.to_string()),
                ("data-ci-low", x.ci_low.to_string()),
                ("data-ci-high", x.ci_high.to_string()),
            ],
            Some(&format!(
                "{}: Elo {:.0} [{:.0}, {:.0}], win share {:.4}, mean rank {:.3}",
                x.agent, x.elo, x.ci_low, x.ci_high, x.win_share, x.mean_rank
            )),
        );
    }
    s.finish("tournament ratings", &[("class", "ratings-chart".into())])
}

fn sprt_page(input: &Path, t: &Sprt) -> Page {
    let mut p = Page::new(
        "tournament",
        format!("SPRT: {} against {}", t.a, t.b),
        format!("{} · {} games", input.display(), t.games),
    );
    p.push(Block::Strong(format!(
        "Decision: {} (H1: A is stronger by {} Elo; H0: by {}). A scored {:.1} of {} games.",
        t.decision, t.elo1, t.elo0, t.a_score, t.games
    )));
    p.push(Block::Chart(Chart {
        name: "tournament-sprt".into(),
        caption: "The log-likelihood ratio at the end, between the bound that accepts H0 (left) and the one that accepts H1 (right).".into(),
        svg: sprt_chart(t),
    }));
    capped(&mut p, t.capped, t.games, &t.capped_warning);
    p
}

/// Where the ratio ended between the bounds.
pub fn sprt_chart(t: &Sprt) -> String {
    let (w, h) = (640.0, 140.0);
    let lo = t.lower.min(t.llr);
    let hi = t.upper.max(t.llr);
    let pad = ((hi - lo) * 0.08).max(0.1);
    let f = Frame {
        x: Scale::linear(lo - pad, hi + pad, 60.0, w - 30.0),
        y: Scale::linear(0.0, 1.0, h - 50.0, 20.0),
    };
    let mut s = Svg::new(w, h);
    f.axes_with(&mut s, "log-likelihood ratio", "", None);
    let y = f.y.at(0.5);
    for (x, label) in [(t.lower, "accept H0"), (t.upper, "accept H1")] {
        let px = f.x.at(x);
        s.line((px, f.y.r1), (px, f.y.r0), "#c62828", 2.0);
        s.text((px, f.y.r1 - 4.0), label, 11.0, "middle", &[]);
    }
    s.circle(
        (f.x.at(t.llr), y),
        6.0,
        &[
            ("class", "mark point llr".into()),
            ("fill", "#3f6fb5".into()),
            ("data-llr", t.llr.to_string()),
            ("data-decision", t.decision.clone()),
        ],
        Some(&format!(
            "LLR {:.3} after {} games: {}",
            t.llr, t.games, t.decision
        )),
    );
    s.finish("SPRT", &[("class", "sprt-chart".into())])
}
