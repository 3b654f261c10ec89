//! A run's report page (`play --out`, `seats --out`): the win share by seat with 95% intervals
//! and the equivalence band, the verdict, the seat table, the game-length histogram with the
//! capped games, and the game's events.

use super::page::{Block, Chart, Page};
use super::svg::{Frame, Scale, Svg};
use super::{pct, verdict_colour, verdict_name};
use crate::report::RunData;
use crate::stats::wilson;
use crate::summary::SeatStats;
use std::path::Path;

/// The page of a run.
pub(crate) fn page(input: &Path, run: &RunData, stats: &SeatStats) -> Page {
    let mut p = Page::new(
        "run",
        format!(
            "{}: {} games, {} players",
            run.game_name, stats.games, run.seats
        ),
        format!(
            "{} · agents {} (first row) · parameter set {}",
            input.display(),
            run.agents,
            run.param_set
        ),
    );
    p.push(Block::Heading("Win share by seat".into()));
    p.push(Block::Chart(Chart {
        name: "seats".into(),
        caption: "Each seat's win share with its Wilson 95% interval; the band is the fair share 1/n ± the equivalence margin.".into(),
        svg: seat_chart(stats),
    }));
    if stats.decided_by_cap {
        p.push(Block::Strong(crate::summary::cap_decides(
            stats.capped.games,
            stats.games,
            run.max_rounds,
        )));
    } else if let Some(e) = &stats.equivalence {
        p.push(Block::Strong(e.sentence()));
    }
    p.push(Block::Table(
        ["seat", "win share", "95% CI (Wilson)", "mean rank"]
            .map(String::from)
            .to_vec(),
        stats
            .seats
            .iter()
            .map(|s| {
                vec![
                    s.seat.to_string(),
                    format!("{:.4}", s.win_share),
                    format!("[{:.4}, {:.4}]", s.ci_low, s.ci_high),
                    format!("{:.3}", s.mean_rank),
                ]
            })
            .collect(),
    ));
    if !stats.decided_by_cap {
        p.push(Block::Para(format!(
            "Chi-square against equal chances: {:.2} on {} df, p = {}. Balance (1 − largest gap): {:.4}.",
            stats.chi_square,
            stats.df,
            crate::format::p_number(stats.p_value),
            stats.balance
        )));
    }
    p.push(Block::Heading("Game length".into()));
    p.push(Block::Chart(Chart {
        name: "game-length".into(),
        caption: "Games by rounds played; the games the round cap stopped are stacked in grey."
            .into(),
        svg: length_chart(&run.lengths),
    }));
    let (lo, hi) = wilson(stats.capped.games as f64, stats.games as f64);
    p.push(Block::Para(format!(
        "Capped: {} of {} games ({}, 95% CI [{}, {}]){}. Mean rounds: {:.1}.",
        stats.capped.games,
        stats.games,
        pct(stats.capped.share),
        pct(lo),
        pct(hi),
        if run.max_rounds > 0 {
            format!(" at the {}-round cap", run.max_rounds)
        } else {
            String::new()
        },
        stats.mean_rounds
    )));
    if let Some(w) = &stats.capped.warning {
        p.push(Block::Strong(w.clone()));
    }
    events(&mut p, run, stats.games);
    p
}

/// The event columns' lines: how often and when each happened, and who triggered the end.
fn events(p: &mut Page, run: &RunData, games: u64) {
    if run.events.is_empty() && run.triggers.is_empty() {
        return;
    }
    p.push(Block::Heading("Events".into()));
    let n = games as f64;
    let mut rows = Vec::new();
    for (name, k, sum) in &run.events {
        let (lo, hi) = wilson(*k as f64, n);
        rows.push(vec![
            name.clone(),
            pct(*k as f64 / n),
            format!("[{}, {}]", pct(lo), pct(hi)),
            if *k > 0 {
                format!("{:.1}", sum / *k as f64)
            } else {
                "–".into()
            },
        ]);
    }
    if !rows.is_empty() {
        p.push(Block::Table(
            ["event", "in games", "95% CI", "mean round"]
                .map(String::from)
                .to_vec(),
            rows,
        ));
    }
    if !run.triggers.is_empty() {
        let total: f64 = run.triggers.iter().sum();
        let by: Vec<String> = run
            .triggers
            .iter()
            .enumerate()
            .map(|(s, t)| format!("seat {} {:.3}", s + 1, t / total))
            .collect();
        p.push(Block::Para(format!(
            "The end was triggered in {total:.0} games, by: {}.",
            by.join(", ")
        )));
    }
}

/// The seat chart: bars with interval whiskers, the fair line and the equivalence band.
pub fn seat_chart(stats: &SeatStats) -> String {
    let n = stats.seats.len().max(1);
    let fair = 1.0 / n as f64;
    let margin = stats.equivalence.as_ref().map(|e| e.margin);
    let top = stats
        .seats
        .iter()
        .map(|s| s.ci_high)
        .fold(fair + margin.unwrap_or(0.0), f64::max)
        * 1.15;
    let (w, h) = (640.0, 380.0);
    let f = Frame {
        x: Scale::linear(0.5, n as f64 + 0.5, 70.0, w - 20.0),
        y: Scale::linear(0.0, top.clamp(0.05, 1.0), h - 50.0, 40.0),
    };
    let mut s = Svg::new(w, h);
    let verdict = match (&stats.equivalence, stats.decided_by_cap) {
        (_, true) => "no_verdict",
        (Some(e), false) => verdict_name(&e.verdict),
        (None, false) => "",
    };
    if let Some(m) = margin {
        let (y0, y1) = (f.y.at((fair + m).min(f.y.d1)), f.y.at((fair - m).max(0.0)));
        s.rect(
            f.x.r0,
            y0,
            f.x.r1 - f.x.r0,
            y1 - y0,
            "#d8eed8",
            &[("class", "band".into()), ("data-margin", m.to_string())],
            Some(&format!(
                "equivalence band: {fair:.4} ± {m} ([{:.4}, {:.4}])",
                fair - m,
                fair + m
            )),
        );
    }
    let seats: Vec<(f64, String)> = (1..=n).map(|i| (i as f64, i.to_string())).collect();
    f.axes_with(&mut s, "seat", "win share", Some(&seats));
    let bw = (f.x.at(1.0) - f.x.at(0.0)) * 0.55;
    for seat in &stats.seats {
        let x = f.x.at(seat.seat as f64);
        let y = f.y.at(seat.win_share);
        s.rect(
            x - bw / 2.0,
            y,
            bw,
            f.y.r0 - y,
            "#5b8fc9",
            &[
                ("class", "mark bar".into()),
                ("data-seat", seat.seat.to_string()),
                ("data-share", seat.win_share.to_string()),
                ("data-ci-low", seat.ci_low.to_string()),
                ("data-ci-high", seat.ci_high.to_string()),
            ],
            Some(&format!(
                "seat {}: win share {:.4}, 95% CI [{:.4}, {:.4}], mean rank {:.3}",
                seat.seat, seat.win_share, seat.ci_low, seat.ci_high, seat.mean_rank
            )),
        );
        let (lo, hi) = (f.y.at(seat.ci_low), f.y.at(seat.ci_high));
        s.line((x, lo), (x, hi), "#222", 2.0);
        s.line((x - 6.0, lo), (x + 6.0, lo), "#222", 2.0);
        s.line((x - 6.0, hi), (x + 6.0, hi), "#222", 2.0);
    }
    let yf = f.y.at(fair);
    s.element(
        "line",
        &[
            ("x1", super::svg::num(f.x.r0)),
            ("y1", super::svg::num(yf)),
            ("x2", super::svg::num(f.x.r1)),
            ("y2", super::svg::num(yf)),
            ("stroke", "#c62828".into()),
            ("stroke-dasharray", "5 4".into()),
        ],
        None,
        None,
    );
    let head = match verdict {
        "" => format!("Win share by seat ({} games)", stats.games),
        v => format!(
            "Win share by seat ({} games): {} at ±{}",
            stats.games,
            v.replace('_', " "),
            margin.map_or(String::new(), |m| m.to_string())
        ),
    };
    s.text(
        (w / 2.0, 22.0),
        &head,
        15.0,
        "middle",
        &[
            ("fill", verdict_colour(verdict).into()),
            ("font-weight", "bold".into()),
            ("class", "verdict".into()),
        ],
    );
    s.finish(
        "win share by seat",
        &[
            ("class", "seat-chart".into()),
            ("data-verdict", verdict.into()),
            ("data-games", stats.games.to_string()),
        ],
    )
}

/// The histogram of game lengths: a bar per range of rounds, capped games stacked on top.
pub fn length_chart(lengths: &[(u32, bool)]) -> String {
    let (w, h) = (640.0, 320.0);
    // In u64: a file's round counts may span all of u32.
    let lo = lengths.iter().map(|l| u64::from(l.0)).min().unwrap_or(0);
    let hi = lengths.iter().map(|l| u64::from(l.0)).max().unwrap_or(0);
    let width = (hi - lo + 1).div_ceil(40).max(1);
    let bins = ((hi - lo) / width + 1) as usize;
    let mut count = vec![(0u64, 0u64); bins];
    for &(r, capped) in lengths {
        let b = &mut count[((u64::from(r) - lo) / width) as usize];
        if capped {
            b.1 += 1;
        } else {
            b.0 += 1;
        }
    }
    let most = count.iter().map(|c| c.0 + c.1).max().unwrap_or(1).max(1);
    let f = Frame {
        x: Scale::linear(lo as f64, (lo + width * bins as u64) as f64, 70.0, w - 20.0),
        y: Scale::linear(0.0, most as f64 * 1.1, h - 50.0, 20.0),
    };
    let mut s = Svg::new(w, h);
    f.axes(&mut s, "rounds", "games");
    let n = lengths.len().max(1) as f64;
    for (i, &(plain, capped)) in count.iter().enumerate() {
        let from = lo + width * i as u64;
        let to = from + width - 1;
        let (x0, x1) = (f.x.at(from as f64), f.x.at((to + 1) as f64));
        let label = if width == 1 {
            format!("{from} rounds")
        } else {
            format!("{from}–{to} rounds")
        };
        let attrs = |kind: &str, k: u64| {
            [
                ("class", format!("mark bar {kind}")),
                ("data-from", from.to_string()),
                ("data-to", to.to_string()),
                ("data-games", k.to_string()),
            ]
        };
        let y_plain = f.y.at(plain as f64);
        if plain > 0 {
            s.rect(
                x0 + 0.5,
                y_plain,
                x1 - x0 - 1.0,
                f.y.r0 - y_plain,
                "#5b8fc9",
                &attrs("ended", plain),
                Some(&format!(
                    "{label}: {plain} games ({})",
                    pct(plain as f64 / n)
                )),
            );
        }
        if capped > 0 {
            let y = f.y.at((plain + capped) as f64);
            s.rect(
                x0 + 0.5,
                y,
                x1 - x0 - 1.0,
                y_plain - y,
                "#9e9e9e",
                &attrs("capped", capped),
                Some(&format!(
                    "{label}: {capped} games stopped by the round cap ({})",
                    pct(capped as f64 / n)
                )),
            );
        }
    }
    s.finish(
        "game length",
        &[
            ("class", "length-chart".into()),
            ("data-games", lengths.len().to_string()),
            (
                "data-capped",
                lengths.iter().filter(|l| l.1).count().to_string(),
            ),
        ],
    )
}
