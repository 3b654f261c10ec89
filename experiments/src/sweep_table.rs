//! How `shifu sweep` shows its result: the markdown table of the cells, the paired differences to
//! the baseline, the verdicts and the fairest cell as text, and the one-row-a-cell CSV of `--out`
//! (for `shifu report`).

use crate::format::p_number;
use crate::paired::Interval;
use crate::stats::CAPPED_WARN;
use crate::sweep::{SweepCell, SweepResult};
use anyhow::Result;

impl SweepCell {
    /// The cell's row of the markdown table.
    pub fn table_row(&self) -> String {
        let st = &self.stats;
        let mut row = format!("| {} |", self.cell);
        for s in &st.seats {
            row.push_str(&format!(
                " {:.4} [{:.4}, {:.4}] |",
                s.win_share, s.ci_low, s.ci_high
            ));
        }
        let (p_text, adj_text, b_text) = match self.holm_p {
            Some(adj) => (
                p_number(st.p_value),
                p_number(adj),
                match &st.balance_interval {
                    Some(b) => format!(
                        "{:.4} | {:.4} [{:.4}, {:.4}]",
                        st.balance, b.corrected, b.ci_low, b.ci_high
                    ),
                    None => format!("{:.4} | n/a", st.balance),
                },
            ),
            None => {
                let cap = "(cap decides)".to_string();
                (cap.clone(), cap.clone(), format!("{cap} | {cap}"))
            }
        };
        let capped = st.capped.share;
        row.push_str(&format!(
            " {p_text} | {adj_text} | {b_text} | {:.1}%{} | {:.1} |",
            100.0 * capped,
            if capped > CAPPED_WARN { " (!)" } else { "" },
            st.mean_rounds
        ));
        for share in &self.event_shares {
            row.push_str(&format!(" {:.1}% |", 100.0 * share));
        }
        row
    }
}

impl std::fmt::Display for SweepResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} with {} players, agents {}, {} games per cell on the same seeds (master seed {}){}",
            self.game,
            self.players,
            self.agents.join(" | "),
            self.games_per_cell,
            self.master_seed,
            if self.rotate {
                ", agents rotated through the seats"
            } else {
                ""
            }
        )?;
        writeln!(f)?;
        let mut head = String::from("| cell |");
        for s in 1..=self.players {
            head.push_str(&format!(" seat {s} win share [95% CI] |"));
        }
        head.push_str(
            " chi-square p | Holm p | balance | balance corrected [95% CI] | capped | mean rounds |",
        );
        for e in &self.events {
            head.push_str(&format!(" {} |", e.replace('_', " ")));
        }
        writeln!(f, "{head}")?;
        writeln!(
            f,
            "|{}",
            " --- |".repeat(self.players + 7 + self.events.len())
        )?;
        for c in &self.cells {
            writeln!(f, "{}", c.table_row())?;
        }
        if let Some(w) = &self.capped_warning {
            writeln!(f)?;
            writeln!(f, "cells marked (!): {w}")?;
        }
        writeln!(f)?;
        self.fmt_paired(f)?;
        writeln!(
            f,
            "detectable effect: with {} games per cell, a seat whose win rate differs from {:.3} by {:.4} or more is found at 5% significance with 80% power",
            self.games_per_cell, self.equal_share, self.detectable_effect
        )
    }
}

impl SweepResult {
    /// The paired differences to the baseline, each cell's verdict and the fairest cell.
    fn fmt_paired(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.cells.iter().all(|c| c.unfairness.is_none()) {
            return writeln!(
                f,
                "a cooperative game: the seats win or lose together, so there is no seat verdict and no fairest cell"
            );
        }
        let what = &self.components;
        writeln!(
            f,
            "paired differences to the baseline cell {} ({} minus the baseline's win share, unit by unit on the same {} {}; 95% intervals; unfairness is the largest |win share - {:.3}|):",
            self.baseline,
            what,
            self.units,
            if self.rotate { "seeds" } else { "games" },
            self.equal_share
        )?;
        let mut head = String::from("| cell |");
        for s in 1..=self.players {
            head.push_str(&format!(" {what} {s} |"));
        }
        head.push_str(" unfairness | unfairness - baseline's |");
        writeln!(f, "{head}")?;
        writeln!(f, "|{}", " --- |".repeat(self.players + 3))?;
        for c in &self.cells {
            let mut row = format!("| {} |", c.cell);
            match &c.to_baseline {
                Some(d) => {
                    for s in &d.shares {
                        row.push_str(&format!(" {} |", signed(s)));
                    }
                    row.push_str(&format!(
                        " {:.4} | {} |",
                        c.unfairness.unwrap_or(f64::NAN),
                        signed(&d.unfairness)
                    ));
                }
                None => {
                    row.push_str(&" (baseline) |".repeat(self.players));
                    row.push_str(&format!(
                        " {:.4} | (baseline) |",
                        c.unfairness.unwrap_or(f64::NAN)
                    ));
                }
            }
            writeln!(f, "{row}")?;
        }
        writeln!(f)?;
        let margin = self
            .cells
            .iter()
            .find_map(|c| c.stats.equivalence.as_ref())
            .map_or(0.0, |e| e.margin);
        writeln!(f, "verdicts at ±{margin}:")?;
        for c in &self.cells {
            if let Some(e) = &c.stats.equivalence {
                writeln!(f, "  {}: {}", c.cell, e.sentence())?;
            }
        }
        writeln!(f)?;
        match &self.best {
            Some(b) => {
                writeln!(
                    f,
                    "fairest cell by unfairness: {} ({:.4}); it is the fairest in {:.0}% of {} paired bootstrap replicates. A cell picked as the best of a grid is favoured by its own seeds' luck: re-test it on fresh seeds before relying on it:",
                    b.cell,
                    b.unfairness,
                    100.0 * b.p_best,
                    self.replicates
                )?;
                writeln!(f, "  {}", b.retest)
            }
            None => writeln!(
                f,
                "no fairest cell: every cell is decided by the round cap (more than {:.0}% of its games capped); play stronger agents (--agents greedy) or raise max_rounds",
                100.0 * CAPPED_WARN
            ),
        }
    }
}

/// An interval as `+0.0100 [-0.0050, +0.0250]`.
fn signed(i: &Interval) -> String {
    format!("{:+.4} [{:+.4}, {:+.4}]", i.estimate, i.ci_low, i.ci_high)
}

/// `--out`: one CSV row per cell, for `shifu report`.
pub fn write_csv(path: &std::path::Path, r: &SweepResult) -> Result<()> {
    shifu_engine::files::check_output(path)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["cell".to_string(), "games".into()];
    for s in 1..=r.players {
        head.extend([
            format!("win_share_{s}"),
            format!("ci_low_{s}"),
            format!("ci_high_{s}"),
        ]);
    }
    head.extend(
        [
            "chi_square_p",
            "holm_p",
            "balance",
            "balance_corrected",
            "balance_ci_low",
            "balance_ci_high",
            "capped",
            "mean_rounds",
        ]
        .map(String::from),
    );
    head.extend(r.events.iter().map(|e| format!("{e}_share")));
    head.extend(
        [
            "verdict",
            "margin",
            "p_equivalence",
            "games_needed",
            "unfairness",
        ]
        .map(String::from),
    );
    for s in 1..=r.players {
        head.extend([
            format!("diff_{s}"),
            format!("diff_ci_low_{s}"),
            format!("diff_ci_high_{s}"),
        ]);
    }
    head.extend(
        [
            "unfairness_diff",
            "unfairness_diff_ci_low",
            "unfairness_diff_ci_high",
            "p_best",
        ]
        .map(String::from),
    );
    w.write_record(&head)?;
    for c in &r.cells {
        let st = &c.stats;
        let mut row = vec![c.cell.clone(), r.games_per_cell.to_string()];
        for s in &st.seats {
            row.extend([
                s.win_share.to_string(),
                s.ci_low.to_string(),
                s.ci_high.to_string(),
            ]);
        }
        row.extend([
            st.p_value.to_string(),
            c.holm_p.unwrap_or(f64::NAN).to_string(),
            st.balance.to_string(),
        ]);
        let b = st.balance_interval.as_ref();
        row.extend(
            [
                b.map(|b| b.corrected),
                b.map(|b| b.ci_low),
                b.map(|b| b.ci_high),
            ]
            .map(|x| x.unwrap_or(f64::NAN).to_string()),
        );
        row.extend([st.capped.share.to_string(), st.mean_rounds.to_string()]);
        row.extend(c.event_shares.iter().map(|s| s.to_string()));
        row.extend(verdict_fields(c));
        let num = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
        let diffs = c.to_baseline.as_ref();
        for s in 0..r.players {
            let d = diffs.map(|d| d.shares[s]);
            row.extend([
                num(d.map(|d| d.estimate)),
                num(d.map(|d| d.ci_low)),
                num(d.map(|d| d.ci_high)),
            ]);
        }
        let u = diffs.map(|d| d.unfairness);
        row.extend([
            num(u.map(|d| d.estimate)),
            num(u.map(|d| d.ci_low)),
            num(u.map(|d| d.ci_high)),
            num(c.p_best),
        ]);
        w.write_record(&row)?;
    }
    Ok(shifu_engine::files::write_atomic(path, &w.into_inner()?)?)
}

/// A cell's verdict columns: the verdict's name, margin, TOST p-value, games that would settle
/// it, unfairness (empty where there is none).
fn verdict_fields(c: &SweepCell) -> [String; 5] {
    use crate::equivalence::Verdict;
    let num = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
    let Some(e) = &c.stats.equivalence else {
        return Default::default();
    };
    let (name, needed) = match &e.verdict {
        Verdict::Fair => ("fair", None),
        Verdict::Unfair { .. } => ("unfair", None),
        Verdict::Undetermined { games_needed } => ("undetermined", *games_needed),
        Verdict::NoVerdict { .. } => ("no_verdict", None),
    };
    [
        name.to_string(),
        e.margin.to_string(),
        e.p_equivalence.to_string(),
        needed.map_or(String::new(), |g| g.to_string()),
        num(c.unfairness),
    ]
}
