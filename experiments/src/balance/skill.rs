//! Skill expression: in a good setting, a stronger agent still beats a weaker one by a stated
//! margin (`--objective skill=MARGIN --strong SPEC --weak SPEC`).
//!
//! Every game a setting plays in the race or the validation (a *row*) comes with skill games on
//! seeds of their own, the same in every setting (common seeds, so settings are compared paired
//! row by row, as for every other objective):
//!
//! - **competitive game**: one game with the strong agent at seat `i mod n` and the weak agent
//!   in every other seat; the row's skill value is the strong seat's win share (a tie splits
//!   it). The objective is the shortfall of the mean below `1/n + MARGIN` (0 when met);
//! - **cooperative game** (Wok Star): two games on the same seed, one with every seat strong,
//!   one with every seat weak; the row's value is the first team's win minus the second's, and
//!   the objective is the shortfall of the mean below `MARGIN`.
//!
//! Row `i`'s competitive skill game is game `i / n` of master seed [`skill_master`]`(m, i mod n)`
//! (`m` the race's or the validation's master seed); the cooperative ones are game `i` of
//! `skill_master(m, 0)`. The skill games count in the budget and in the games spent.

use super::objective::{Column, Games};
use super::validate::Figure;
use super::Setup;
use crate::games::Playable;
use crate::runner::{play_stream, split_specs};
use anyhow::{bail, Context, Result};
use serde::Serialize;
use shifu_agents::check_agent;
use std::ops::Range;

/// The skill games' agents and margin.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// The stronger agent's spec.
    pub strong: String,
    /// The weaker agent's spec.
    pub weak: String,
    /// The figure the skill value must reach: `1/n + MARGIN`, or `MARGIN` when cooperative.
    pub threshold: f64,
    /// A cooperative game: all-strong against all-weak teams.
    pub cooperative: bool,
    /// The skill column in the plan.
    pub column: usize,
}

impl Skill {
    /// Skill games per row: 1, or 2 for a cooperative game.
    pub fn games_per_row(&self) -> u64 {
        if self.cooperative {
            2
        } else {
            1
        }
    }

    /// What the skill value measures, in words.
    pub fn measure(&self) -> &'static str {
        if self.cooperative {
            "all-strong team's win rate minus all-weak team's"
        } else {
            "strong seat's win share against weak seats"
        }
    }
}

/// The threshold of `--objective skill=MARGIN`: `1/n + MARGIN`, or `MARGIN` when cooperative;
/// an error unless MARGIN is a number that leaves the threshold below 1.
pub fn threshold(margin: &str, cooperative: bool, seats: usize) -> Result<f64> {
    let m: f64 = margin
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .with_context(|| format!("--objective skill={margin}: `{margin}` is not a number"))?;
    let base = if cooperative {
        0.0
    } else {
        1.0 / seats.max(1) as f64
    };
    if !(0.0..1.0 - base).contains(&m) {
        bail!(
            "--objective skill={margin}: MARGIN must be at least 0 and below {} ({})",
            1.0 - base,
            if cooperative {
                "the all-strong team's win rate minus the all-weak team's is at most 1"
            } else {
                "the strong seat's win share is at most 1, and 1/n is its fair share"
            }
        );
    }
    Ok(base + m)
}

/// One agent spec from `--strong` or `--weak`, checked against the game.
fn one_spec<G: Playable>(base: &G, flag: &str, spec: &str) -> Result<String> {
    let specs = split_specs(spec);
    if specs.len() != 1 || specs[0].is_empty() {
        bail!("{flag} `{spec}`: give one agent spec (it plays every seat it takes)");
    }
    check_agent(base, &specs[0]).with_context(|| format!("{flag} `{spec}`"))?;
    Ok(specs[0].clone())
}

/// The skill games of a run: `Some` when an objective is `skill=MARGIN`, which needs `--strong`
/// and `--weak`; either flag without such an objective is an error.
pub fn from_args<G: Playable>(
    objectives: &[String],
    strong: Option<&str>,
    weak: Option<&str>,
    base: &G,
    seats: usize,
    column: Option<usize>,
) -> Result<Option<Skill>> {
    let margins: Vec<&str> = objectives
        .iter()
        .filter_map(|o| o.trim().strip_prefix("skill="))
        .collect();
    if margins.len() > 1 {
        bail!("--objective skill=MARGIN is given more than once; give one margin");
    }
    let (Some(margin), Some(column)) = (margins.first(), column) else {
        if strong.is_some() || weak.is_some() {
            bail!("--strong and --weak name the agents of --objective skill=MARGIN; add that objective or drop them");
        }
        return Ok(None);
    };
    let (Some(strong), Some(weak)) = (strong, weak) else {
        bail!("--objective skill={margin} needs --strong SPEC and --weak SPEC (for example --strong mcts:iters=200 --weak random)");
    };
    let cooperative = G::INFO.cooperative;
    Ok(Some(Skill {
        strong: one_spec(base, "--strong", strong)?,
        weak: one_spec(base, "--weak", weak)?,
        threshold: threshold(margin, cooperative, seats)?,
        cooperative,
        column,
    }))
}

/// The skill column of a plan's columns, if it records one.
pub fn column(columns: &[Column]) -> Option<usize> {
    columns.iter().position(|c| *c == Column::Skill)
}

/// The master seed of the skill games of seat `k` (or of a cooperative game's, `k` = 0), from
/// the master seed `master` of the rows: never one of the rows' own masters.
pub fn skill_master(master: u64, k: u64) -> u64 {
    shifu_agents::splitmix64(shifu_agents::splitmix64(master ^ 0x736b_696c_6c00_0000) ^ k)
}

/// Games `lo..hi` of a stream whose game `j` is row `j·n + k`, for rows `rows`.
fn rows_of_seat(rows: &Range<u64>, n: u64, k: u64) -> Range<u64> {
    let first = |r: u64| if r <= k { 0 } else { (r - k).div_ceil(n) };
    first(rows.start)..first(rows.end)
}

/// Plays the skill games of rows `rows` of `game` (whose games are recorded from row `at` of
/// `games` on) and writes each row's skill value into its skill column.
#[allow(clippy::too_many_arguments)]
pub fn play<G: Playable>(
    s: &Setup<G>,
    k: &Skill,
    game: &G,
    master: u64,
    rows: Range<u64>,
    at: usize,
    games: &mut Games,
    bar: &indicatif::ProgressBar,
) -> Result<()> {
    let n = s.seats as u64;
    let cols = games.columns;
    let mut set = |row: u64, v: f64, add: bool| {
        let i = (at + (row - rows.start) as usize) * cols + k.column;
        games.data[i] = if add {
            games.data[i] + v as f32
        } else {
            v as f32
        };
    };
    if k.cooperative {
        for (spec, sign) in [(&k.strong, 1.0), (&k.weak, -1.0)] {
            let specs = vec![spec.clone(); s.seats];
            let m = skill_master(master, 0);
            play_stream(game, &specs, m, false, rows.clone(), &s.pool, |r| {
                let win = f64::from(u8::from(r.outcome.winners != 0));
                set(r.index, sign * win, sign < 0.0);
                bar.inc(1);
                Ok(())
            })?;
        }
        return Ok(());
    }
    for seat in 0..n {
        let specs: Vec<String> = (0..n)
            .map(|x| if x == seat { &k.strong } else { &k.weak }.clone())
            .collect();
        let m = skill_master(master, seat);
        play_stream(
            game,
            &specs,
            m,
            false,
            rows_of_seat(&rows, n, seat),
            &s.pool,
            |r| {
                set(r.index * n + seat, r.outcome.win_share(seat as u8), false);
                bar.inc(1);
                Ok(())
            },
        )?;
    }
    Ok(())
}

/// A finalist's skill figure on its validation games.
#[derive(Debug, Clone, Serialize)]
pub struct SkillFigure {
    /// The stronger agent.
    pub strong: String,
    /// The weaker agent.
    pub weak: String,
    /// What the value measures.
    pub measure: String,
    /// Its value on the validation games.
    pub value: f64,
    /// The 95% interval: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// The figure it must reach (`1/n + MARGIN`, or `MARGIN` when cooperative).
    pub needed: f64,
    /// The interval lies above the figure needed: the skill is shown to show.
    pub shown: bool,
}

impl Skill {
    /// The skill figure of a finalist from its validation metrics (the metric `skill`).
    pub fn figure(&self, metrics: &[Figure]) -> Option<SkillFigure> {
        let m = metrics.iter().find(|m| m.name == "skill")?;
        Some(SkillFigure {
            strong: self.strong.clone(),
            weak: self.weak.clone(),
            measure: self.measure().into(),
            value: m.value,
            ci_low: m.ci_low,
            ci_high: m.ci_high,
            needed: self.threshold,
            shown: m.ci_low >= self.threshold,
        })
    }
}

impl std::fmt::Display for SkillFigure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "skill ({} vs {}): {} {:.4} [{:.4}, {:.4}], needs {:.4}: {}",
            self.strong,
            self.weak,
            self.measure,
            self.value,
            self.ci_low,
            self.ci_high,
            self.needed,
            if self.shown {
                "shown"
            } else if self.ci_high < self.needed {
                "shown short"
            } else {
                "undetermined"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_skill_rows_of_each_seat_cover_the_rows_once() {
        for rows in [0..10u64, 3..17, 5..6, 7..7] {
            let mut got: Vec<u64> = (0..4)
                .flat_map(|k| rows_of_seat(&rows, 4, k).map(move |j| j * 4 + k))
                .collect();
            got.sort_unstable();
            assert_eq!(got, rows.clone().collect::<Vec<_>>(), "{rows:?}");
        }
        assert!((threshold("0.1", false, 4).unwrap() - 0.35).abs() < 1e-12);
        assert!((threshold("0.1", true, 4).unwrap() - 0.1).abs() < 1e-12);
        for bad in ["x", "-0.1", "0.75", "nan"] {
            assert!(threshold(bad, false, 4).is_err(), "{bad}");
        }
        assert!(threshold("0.9", true, 4).is_ok());
    }
}
