//! What `shifu dose` finds, as text (Display), JSON (Serialize) and CSV rows.

use super::design::Design;
use super::fit::{ClusterFit, Estimate};
use super::Played;
use crate::stats::{wilson, CAPPED_WARN};
use nalgebra::DVector;
use serde::Serialize;
use std::fmt;

/// What both analyses state first.
#[derive(Debug, Clone, Serialize)]
pub struct Header {
    /// The game.
    pub game: String,
    /// Seats at the table.
    pub players: usize,
    /// The agent specs by seat.
    pub agents: Vec<String>,
    /// Games per value or vector, on the same seeds.
    pub games_per_setting: u64,
    /// The master seed.
    pub master_seed: u64,
    /// The round cap.
    pub max_rounds: u32,
    /// How the intervals of the fits are computed.
    pub variance: String,
}

/// A seat's win share with its Wilson 95% interval.
#[derive(Debug, Clone, Serialize)]
pub struct Share {
    /// Mean win share (shared wins count 1/k).
    pub win_share: f64,
    /// The interval's low end.
    pub ci_low: f64,
    /// The interval's high end.
    pub ci_high: f64,
}

fn seat_shares(shares: &[f64], games: usize) -> Vec<Share> {
    shares
        .iter()
        .map(|&w| {
            let (ci_low, ci_high) = wilson(w * games as f64, games as f64);
            Share {
                win_share: w,
                ci_low,
                ci_high,
            }
        })
        .collect()
}

/// One value of a dose–response curve.
#[derive(Debug, Clone, Serialize)]
pub struct DosePoint {
    /// The value.
    pub value: f64,
    /// Its `--set` text.
    pub text: String,
    /// Each seat's win share.
    pub seats: Vec<Share>,
    /// The largest |share − 1/n| over the seats.
    pub unfairness: f64,
    /// Mean rounds per game.
    pub mean_rounds: f64,
    /// Share of games stopped by the round cap.
    pub capped_share: f64,
    /// Whether the value takes part in the fits (at most 5% capped).
    pub in_fit: bool,
}

impl DosePoint {
    /// A value's point from its games.
    pub fn new(value: f64, text: String, shares: &[f64], p: &Played) -> DosePoint {
        let n = p.rounds.len();
        let fair = 1.0 / shares.len() as f64;
        DosePoint {
            value,
            text,
            seats: seat_shares(shares, n),
            unfairness: shares.iter().map(|w| (w - fair).abs()).fold(0.0, f64::max),
            mean_rounds: p.rounds.iter().sum::<f64>() / n.max(1) as f64,
            capped_share: p.capped_share(),
            in_fit: !p.decided_by_cap(),
        }
    }
}

/// A dose–response curve with its slopes.
#[derive(Debug, Clone, Serialize)]
pub struct DoseResult {
    #[serde(flatten)]
    pub header: Header,
    /// The parameter varied.
    pub key: String,
    /// Every value, in order.
    pub points: Vec<DosePoint>,
    /// Values in the fits.
    pub values_in_fit: usize,
    /// Each seat's win share per unit of the parameter; none when fewer than two values are
    /// left after the capped ones.
    pub seat_slopes: Option<Vec<Estimate>>,
    /// Mean rounds per unit of the parameter.
    pub rounds_slope: Option<Estimate>,
}

impl DoseResult {
    /// The result from its points and fits.
    pub fn new(
        header: Header,
        key: String,
        points: Vec<DosePoint>,
        values_in_fit: usize,
        slopes: Option<(Vec<Estimate>, Estimate)>,
    ) -> DoseResult {
        let (seat_slopes, rounds_slope) = match slopes {
            Some((s, r)) => (Some(s), Some(r)),
            None => (None, None),
        };
        DoseResult {
            header,
            key,
            points,
            values_in_fit,
            seat_slopes,
            rounds_slope,
        }
    }
}

/// One per-seat vector of the coin-value design.
#[derive(Debug, Clone, Serialize)]
pub struct VectorCell {
    /// The vector as `--set` text.
    pub vector: String,
    /// Each seat's win share.
    pub seats: Vec<Share>,
    /// Share of games stopped by the round cap.
    pub capped_share: f64,
    /// Whether the vector takes part in the fit (at most 5% capped).
    pub in_fit: bool,
}

impl VectorCell {
    /// A vector's cell from its games.
    pub fn new(vector: String, shares: &[f64], p: &Played) -> VectorCell {
        VectorCell {
            vector,
            seats: seat_shares(shares, p.rounds.len()),
            capped_share: p.capped_share(),
            in_fit: !p.decided_by_cap(),
        }
    }
}

/// The fit `win = α_seat + β·(units − mean)`.
#[derive(Debug, Clone, Serialize)]
pub struct CoinFit {
    /// β: the win share one more unit buys a seat.
    pub beta: Estimate,
    /// α by seat: the seat's win share when every seat has the design's mean units.
    pub seat_effects: Vec<Estimate>,
    /// The design's mean units per seat (over the vectors in the fit).
    pub mean_units: f64,
    /// By seat, the units that would bring the seat to 1/n when the others keep the mean:
    /// mean + (1/n − α)/β, with a delta-method interval.
    pub fair_units: Vec<Estimate>,
    /// Vectors in the fit.
    pub vectors_in_fit: usize,
    /// Games in the fit (vectors × games per vector).
    pub games_in_fit: u64,
    /// Clusters (game indices).
    pub clusters: usize,
}

impl CoinFit {
    /// The fit's figures; `kept` are the vectors in the fit.
    pub fn new(fit: &ClusterFit, kept: &[usize], mean: f64, seats: usize, n: usize) -> CoinFit {
        let beta = fit.estimate(seats);
        let fair = 1.0 / seats as f64;
        let b = fit.coef[seats];
        let fair_units = (0..seats)
            .map(|s| {
                let a = fit.coef[s];
                let mut g = DVector::zeros(seats + 1);
                g[s] = -1.0 / b;
                g[seats] = -(fair - a) / (b * b);
                let var = (g.transpose() * &fit.cov * &g)[(0, 0)];
                Estimate::new(mean + (fair - a) / b, var.max(0.0).sqrt(), fit.t)
            })
            .collect();
        CoinFit {
            beta,
            seat_effects: (0..seats).map(|s| fit.estimate(s)).collect(),
            mean_units: mean,
            fair_units,
            vectors_in_fit: kept.len(),
            games_in_fit: (kept.len() * n) as u64,
            clusters: fit.clusters,
        }
    }
}

/// The value of one unit of a per-seat parameter.
#[derive(Debug, Clone, Serialize)]
pub struct CoinResult {
    #[serde(flatten)]
    pub header: Header,
    /// The per-seat parameter.
    pub key: String,
    /// How the vectors were chosen.
    pub design: Design,
    /// Every vector played.
    pub vectors: Vec<VectorCell>,
    /// The fit; none when every vector is decided by the round cap.
    pub fit: Option<CoinFit>,
}

impl CoinResult {
    /// The result from its cells and fit.
    pub fn new(
        header: Header,
        key: String,
        design: Design,
        vectors: Vec<VectorCell>,
        fit: Option<CoinFit>,
    ) -> CoinResult {
        CoinResult {
            header,
            key,
            design,
            vectors,
            fit,
        }
    }
}

/// Either analysis; JSON names it in `analysis`.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "analysis", rename_all = "kebab-case")]
pub enum DoseRun {
    /// `--vary`.
    Dose(DoseResult),
    /// `--per-seat`.
    Coin(CoinResult),
}

impl DoseRun {
    /// One CSV row per value or vector.
    pub fn csv(&self) -> anyhow::Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let (h, first) = match self {
            DoseRun::Dose(d) => (&d.header, "value"),
            DoseRun::Coin(c) => (&c.header, "vector"),
        };
        let mut head = vec![first.to_string(), "games".into()];
        for s in 1..=h.players {
            head.extend(["win_share", "ci_low", "ci_high"].map(|c| format!("{c}_{s}")));
        }
        head.extend(["unfairness", "mean_rounds", "capped", "in_fit"].map(String::from));
        w.write_record(&head)?;
        let row = |name: String, seats: &[Share], extra: [String; 4]| {
            let mut r = vec![name, h.games_per_setting.to_string()];
            for s in seats {
                r.extend([s.win_share, s.ci_low, s.ci_high].map(|x| x.to_string()));
            }
            r.extend(extra);
            r
        };
        match self {
            DoseRun::Dose(d) => {
                for p in &d.points {
                    w.write_record(row(
                        p.text.clone(),
                        &p.seats,
                        [
                            p.unfairness.to_string(),
                            p.mean_rounds.to_string(),
                            p.capped_share.to_string(),
                            p.in_fit.to_string(),
                        ],
                    ))?;
                }
            }
            DoseRun::Coin(c) => {
                for v in &c.vectors {
                    let fair = 1.0 / h.players as f64;
                    let unfair = v
                        .seats
                        .iter()
                        .map(|s| (s.win_share - fair).abs())
                        .fold(0.0, f64::max);
                    w.write_record(row(
                        v.vector.clone(),
                        &v.seats,
                        [
                            unfair.to_string(),
                            String::new(),
                            v.capped_share.to_string(),
                            v.in_fit.to_string(),
                        ],
                    ))?;
                }
            }
        }
        Ok(w.into_inner()?)
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} with {} players, agents {}, {} games per setting on the same seeds (master seed {})",
            self.game,
            self.players,
            self.agents.join(" | "),
            self.games_per_setting,
            self.master_seed
        )
    }
}

fn shares_row(seats: &[Share]) -> String {
    seats
        .iter()
        .map(|s| format!(" {:.4} [{:.4}, {:.4}] |", s.win_share, s.ci_low, s.ci_high))
        .collect()
}

fn capped_cell(share: f64) -> String {
    let mark = if share > CAPPED_WARN { " (!)" } else { "" };
    format!("{:.1}%{mark}", 100.0 * share)
}

fn seat_head(players: usize) -> String {
    (1..=players)
        .map(|s| format!(" seat {s} win share [95% CI] |"))
        .collect()
}

fn capped_note(f: &mut fmt::Formatter<'_>, h: &Header, out: usize, what: &str) -> fmt::Result {
    if out > 0 {
        writeln!(
            f,
            "{out} {what} marked (!) left out of the fit: more than {:.0}% of their games stopped at the {}-round cap, so the cap decides them, not the rules",
            100.0 * CAPPED_WARN,
            h.max_rounds
        )?;
    }
    Ok(())
}

impl fmt::Display for DoseResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.header)?;
        writeln!(f, "dose-response over {}", self.key)?;
        writeln!(f)?;
        let p = self.header.players;
        writeln!(
            f,
            "| {} |{} unfairness | mean rounds | capped |",
            self.key,
            seat_head(p)
        )?;
        writeln!(f, "|{}", " --- |".repeat(p + 4))?;
        for pt in &self.points {
            writeln!(
                f,
                "| {} |{} {:.4} | {:.1} | {} |",
                pt.text,
                shares_row(&pt.seats),
                pt.unfairness,
                pt.mean_rounds,
                capped_cell(pt.capped_share)
            )?;
        }
        writeln!(f)?;
        capped_note(
            f,
            &self.header,
            self.points.len() - self.values_in_fit,
            "values",
        )?;
        match (&self.seat_slopes, &self.rounds_slope) {
            (Some(seats), Some(rounds)) => {
                writeln!(
                    f,
                    "slopes per unit of {} over {} values, {} games each [95% CI]:",
                    self.key, self.values_in_fit, self.header.games_per_setting
                )?;
                for (s, e) in seats.iter().enumerate() {
                    writeln!(f, "  seat {} win share: {e}", s + 1)?;
                }
                writeln!(
                    f,
                    "  mean rounds: {:+.3} [{:+.3}, {:+.3}]",
                    rounds.estimate, rounds.ci_low, rounds.ci_high
                )?;
            }
            _ => writeln!(
                f,
                "no slope: fewer than two values are left once the capped ones are out; play stronger agents (--agents greedy) or raise max_rounds"
            )?,
        }
        writeln!(f, "intervals: {}", self.header.variance)
    }
}

impl fmt::Display for CoinResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.header)?;
        let design = match self.design {
            Design::FullFactorial => "every vector",
            Design::RandomSample => "a random sample of vectors drawn with the master seed",
        };
        writeln!(
            f,
            "value of one unit of {} per seat: {} vectors ({design})",
            self.key,
            self.vectors.len()
        )?;
        writeln!(f)?;
        let p = self.header.players;
        writeln!(f, "| {} |{} capped |", self.key, seat_head(p))?;
        writeln!(f, "|{}", " --- |".repeat(p + 2))?;
        for v in &self.vectors {
            writeln!(
                f,
                "| {} |{} {} |",
                v.vector,
                shares_row(&v.seats),
                capped_cell(v.capped_share)
            )?;
        }
        writeln!(f)?;
        let Some(fit) = &self.fit else {
            capped_note(f, &self.header, self.vectors.len(), "vectors")?;
            return writeln!(f, "no fit: every vector is decided by the round cap; play stronger agents (--agents greedy) or raise max_rounds");
        };
        capped_note(
            f,
            &self.header,
            self.vectors.len() - fit.vectors_in_fit,
            "vectors",
        )?;
        writeln!(
            f,
            "fit: win = seat effect + beta x ({} - {:.3}), least squares over {} vectors x {} games = {} games",
            self.key,
            fit.mean_units,
            fit.vectors_in_fit,
            self.header.games_per_setting,
            fit.games_in_fit
        )?;
        writeln!(
            f,
            "beta, the win share one more unit buys a seat [95% CI]: {}",
            fit.beta
        )?;
        if fit.beta.ci_low <= 0.0 && fit.beta.ci_high >= 0.0 {
            writeln!(
                f,
                "beta's interval holds 0: the units for 1/{p} below are not determined"
            )?;
        }
        writeln!(
            f,
            "| seat | win share at {:.3} each [95% CI] | units for 1/{p} [95% CI] |",
            fit.mean_units
        )?;
        writeln!(f, "| --- | --- | --- |")?;
        for (s, (a, u)) in fit.seat_effects.iter().zip(&fit.fair_units).enumerate() {
            writeln!(
                f,
                "| {} | {:.4} [{:.4}, {:.4}] | {:.2} [{:.2}, {:.2}] |",
                s + 1,
                a.estimate,
                a.ci_low,
                a.ci_high,
                u.estimate,
                u.ci_low,
                u.ci_high
            )?;
        }
        writeln!(
            f,
            "units for 1/{p}: the seat's units that the fit says give it 1/{p} with the others at the mean (delta-method interval; a linear fit, so trust it inside the range played)"
        )?;
        writeln!(
            f,
            "intervals: {} ({} clusters)",
            self.header.variance, fit.clusters
        )
    }
}

impl fmt::Display for DoseRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DoseRun::Dose(d) => d.fmt(f),
            DoseRun::Coin(c) => c.fmt(f),
        }
    }
}
