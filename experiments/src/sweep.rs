//! `shifu sweep`: a grid over parameters, the same seeds in every cell, a seat analysis per cell
//! with a Holm correction across cells, the most balanced cell, and the effect size the game count
//! can detect.

use crate::format::p_number;
use crate::games::Playable;
use crate::play::{play_stream, progress_bar, seat_specs, Tally};
use crate::setup::{GameArgs, RunArgs};
use crate::stats::{balance, capped_warning, chi_square_equal, wilson, CAPPED_WARN};
use anyhow::{bail, Context, Result};
use clap::Args;
use shifu_agents::check_agent;

/// Options of `shifu sweep`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    game: GameArgs,
    /// A parameter and its values: `key=v1/v2/v3` (values may contain commas, as lists do) or
    /// `key=v1,v2,v3` for single values. Repeat for a grid.
    #[arg(long, value_name = "KEY=VALUES")]
    vary: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
    /// Also write one CSV row per cell (for `shifu report`, which draws a heatmap).
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Splits `key=values` into the key and its values.
fn parse_vary(v: &str) -> Result<(String, Vec<String>)> {
    let (k, vals) = v
        .split_once('=')
        .with_context(|| format!("--vary `{v}`: expected key=v1/v2 or key=v1,v2"))?;
    let sep = if vals.contains('/') { '/' } else { ',' };
    let values: Vec<String> = vals.split(sep).map(|x| x.trim().to_string()).collect();
    if values.iter().any(|x| x.is_empty()) {
        bail!("--vary `{v}`: an empty value");
    }
    Ok((k.trim().to_string(), values))
}

pub use crate::stats::holm;

/// The grid's cells, each a list of key=value overrides, from `--vary` options.
pub fn grid(vary: &[String]) -> Result<Vec<Vec<(String, String)>>> {
    let axes: Vec<(String, Vec<String>)> =
        vary.iter().map(|v| parse_vary(v)).collect::<Result<_>>()?;
    if axes.iter().any(|(k, _)| k == "players") {
        bail!("--vary players: a grid compares cells seat by seat, so it keeps one player count; run one sweep per count with --players");
    }
    for (i, (k, _)) in axes.iter().enumerate() {
        if axes[..i].iter().any(|(j, _)| j == k) {
            bail!("--vary {k} is given twice; give all its values in one --vary");
        }
    }
    let mut cells: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (k, values) in &axes {
        cells = cells
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((k.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    Ok(cells)
}

/// A cell's name: its overrides as `key=value` words.
pub fn cell_name(c: &[(String, String)]) -> String {
    c.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Builds every cell's game first, so that a bad value fails before any game is played.
pub fn build_cells<G: Playable>(
    base: &GameArgs,
    cells: &[Vec<(String, String)>],
) -> Result<Vec<G>> {
    cells
        .iter()
        .map(|c| {
            let mut ga = base.clone();
            ga.set.extend(c.iter().map(|(k, v)| format!("{k}={v}")));
            ga.build().with_context(|| format!("cell {}", cell_name(c)))
        })
        .collect()
}

pub fn run(args: SweepArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn run_game<G: Playable>(args: &SweepArgs) -> Result<()> {
    if args.vary.is_empty() {
        bail!("give at least one --vary key=values");
    }
    if args.run.games == 0 {
        bail!("--games must be at least 1");
    }
    let cells = grid(&args.vary)?;
    let games: Vec<G> =
        build_cells(&args.game, &cells).map_err(|e| {
            match crate::suggest::vary_hint(&args.vary, &format!("{e:#}")) {
                Some(hint) => anyhow::anyhow!("{e:#}; {hint}"),
                None => e,
            }
        })?;
    let seats = games[0].num_seats();
    let specs = seat_specs(&args.run.agents, seats)?;
    for (i, s) in specs.iter().enumerate() {
        let _ = i;
        check_agent(&games[0], s)?;
    }
    if args.run.rotate && specs.iter().all(|s| s == &specs[0]) {
        bail!("--rotate with the same agent in every seat would play each seed {seats} times identically; drop --rotate");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.run.threads.unwrap_or(0))
        .build()?;
    let mut tallies = Vec::new();
    let bar = progress_bar(args.run.games * games.len() as u64, args.quiet);
    for g in &games {
        let mut t = Tally::default();
        let range = 0..args.run.games;
        play_stream(
            g,
            &specs,
            args.run.seed,
            args.run.rotate,
            range,
            &pool,
            |r| {
                t.add(&r, seats);
                bar.inc(1);
                Ok(())
            },
        )?;
        tallies.push(t);
    }
    bar.finish_and_clear();
    let p: Vec<f64> = tallies
        .iter()
        .map(|t| chi_square_equal(&t.win[..seats]).2)
        .collect();
    let n = args.run.games as f64;
    // Cells the round cap decides give no verdict: no p-value, no balance, not the best cell,
    // and no part in the Holm correction.
    let open: Vec<bool> = tallies
        .iter()
        .map(|t| t.capped as f64 / n <= CAPPED_WARN)
        .collect();
    let adj = {
        let kept: Vec<f64> = (0..p.len()).filter(|&i| open[i]).map(|i| p[i]).collect();
        let mut kept_adj = holm(&kept).into_iter();
        (0..p.len())
            .map(|i| {
                if open[i] {
                    kept_adj.next().unwrap_or(1.0)
                } else {
                    f64::NAN
                }
            })
            .collect::<Vec<f64>>()
    };
    println!(
        "{} with {seats} players, agents {}, {} games per cell on the same seeds (master seed {}){}",
        games[0].name(),
        specs.join(" | "),
        args.run.games,
        args.run.seed,
        if args.run.rotate { ", agents rotated through the seats" } else { "" }
    );
    println!();
    let mut head = String::from("| cell |");
    for s in 1..=seats {
        head.push_str(&format!(" seat {s} win share [95% CI] |"));
    }
    head.push_str(" chi-square p | Holm p | balance | capped | mean rounds |");
    let events: Vec<(usize, &str)> = G::EVENTS
        .iter()
        .enumerate()
        .filter(|(_, e)| e.ends_with("_round"))
        .map(|(i, e)| (i, e.trim_end_matches("_round")))
        .collect();
    for (_, e) in &events {
        head.push_str(&format!(" {} |", e.replace('_', " ")));
    }
    println!("{head}");
    println!("|{}", " --- |".repeat(seats + 6 + events.len()));
    let mut best: Option<usize> = None;
    for (i, (c, t)) in cells.iter().zip(&tallies).enumerate() {
        let rates: Vec<f64> = (0..seats).map(|s| t.win[s] / n).collect();
        let mut row = format!("| {} |", cell_name(c));
        for (s, rate) in rates.iter().enumerate() {
            let (lo, hi) = wilson(t.win[s], n);
            row.push_str(&format!(" {rate:.4} [{lo:.4}, {hi:.4}] |"));
        }
        let b = balance(&rates);
        let capped = t.capped as f64 / n;
        let (p_text, adj_text, b_text) = if open[i] {
            (p_number(p[i]), p_number(adj[i]), format!("{b:.4}"))
        } else {
            let cap = "(cap decides)".to_string();
            (cap.clone(), cap.clone(), cap)
        };
        row.push_str(&format!(
            " {p_text} | {adj_text} | {b_text} | {:.1}%{} | {:.1} |",
            100.0 * capped,
            if capped > CAPPED_WARN { " (!)" } else { "" },
            t.rounds as f64 / n
        ));
        for (e, _) in &events {
            row.push_str(&format!(" {:.1}% |", 100.0 * t.events[*e] as f64 / n));
        }
        println!("{row}");
        let better = match best {
            None => true,
            Some(j) => {
                b > balance(
                    &(0..seats)
                        .map(|s| tallies[j].win[s] / n)
                        .collect::<Vec<_>>(),
                )
            }
        };
        if open[i] && better {
            best = Some(i);
        }
    }
    if let Some(path) = &args.out {
        shifu_engine::files::check_output(path)?;
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head = vec!["cell".to_string(), "games".into()];
        for s in 1..=seats {
            head.extend([
                format!("win_share_{s}"),
                format!("ci_low_{s}"),
                format!("ci_high_{s}"),
            ]);
        }
        head.extend(
            ["chi_square_p", "holm_p", "balance", "capped", "mean_rounds"].map(String::from),
        );
        head.extend(events.iter().map(|(_, e)| format!("{e}_share")));
        w.write_record(&head)?;
        for (i, (c, t)) in cells.iter().zip(&tallies).enumerate() {
            let mut row = vec![cell_name(c), args.run.games.to_string()];
            let rates: Vec<f64> = (0..seats).map(|s| t.win[s] / n).collect();
            for (s, rate) in rates.iter().enumerate() {
                let (lo, hi) = wilson(t.win[s], n);
                row.extend([rate.to_string(), lo.to_string(), hi.to_string()]);
            }
            row.extend([
                p[i].to_string(),
                adj[i].to_string(),
                balance(&rates).to_string(),
                (t.capped as f64 / n).to_string(),
                (t.rounds as f64 / n).to_string(),
            ]);
            row.extend(
                events
                    .iter()
                    .map(|(e, _)| (t.events[*e] as f64 / n).to_string()),
            );
            w.write_record(&row)?;
        }
        shifu_engine::files::write_atomic(path, &w.into_inner()?)?;
    }
    let worst = tallies.iter().map(|t| t.capped).max().unwrap_or(0);
    if let Some(w) = capped_warning(worst, args.run.games, games[0].max_rounds()) {
        println!();
        println!("cells marked (!): {w}");
    }
    let p0 = 1.0 / seats as f64;
    let detectable = (1.959_964 + 0.841_621) * (p0 * (1.0 - p0) / n).sqrt();
    println!();
    match best {
        Some(i) => println!("most balanced cell: {}", cell_name(&cells[i])),
        None => println!(
            "no most balanced cell: every cell is decided by the round cap (more than {:.0}% of its games capped); play stronger agents (--agents greedy) or raise max_rounds",
            100.0 * CAPPED_WARN
        ),
    }
    println!(
        "detectable effect: with {} games per cell, a seat whose win rate differs from {:.3} by {:.4} or more is found at 5% significance with 80% power",
        args.run.games, p0, detectable
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_splits_lists_on_slashes_and_values_on_commas() {
        let (k, v) = parse_vary("start_coins=1,2,2,3/2,2,2,2").unwrap();
        assert_eq!(k, "start_coins");
        assert_eq!(v, vec!["1,2,2,3", "2,2,2,2"]);
        let (_, v) = parse_vary("town_objective_cost_scale=0.5,1,1.5").unwrap();
        assert_eq!(v, vec!["0.5", "1", "1.5"]);
        assert!(parse_vary("nokey").is_err());
    }

    #[test]
    fn holm_adjusts_in_step_down_order() {
        let adj = holm(&[0.01, 0.04, 0.03]);
        // Sorted: 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max so far 0.06.
        assert!((adj[0] - 0.03).abs() < 1e-12);
        assert!((adj[2] - 0.06).abs() < 1e-12);
        assert!((adj[1] - 0.06).abs() < 1e-12);
    }
}
