//! `shifu seats`: pairwise seat contrasts (seat i's win share minus seat j's, with 95%
//! intervals and Holm-corrected p-values) and the ordering they show, and the per-unit win
//! shares the equivalence verdict ([`crate::equivalence`]) is computed from. Without `--rotate`
//! each game is a unit; with it the unit is a seed, played once per rotation of the agents
//! (common random numbers), so the contrasts are paired on shared seeds.

use crate::equivalence::UnitMeans;
use crate::format::p_value;
use crate::stats::holm;
use serde::Serialize;
use shifu_engine::{Outcome, MAX_SEATS};

/// The normal quantile at 0.975 (95% intervals).
const Z_975: f64 = 1.959_964;

/// Per-unit win shares (a unit is a game, or a seed played once per rotation of the agents),
/// by seat or by turn position from the game's first start player (Ginza Retro Café draws it):
/// the input of the equivalence test and of the balance bootstrap.
pub struct SeatUnits {
    seats: usize,
    /// Games per unit: 1, or the seat count under rotation.
    per_unit: u64,
    by_position: bool,
    /// The unit being filled, its wins so far and its games (fewer than `per_unit` in a run's
    /// last unit when the game count is not a multiple of the seats).
    current: Option<u64>,
    wins: [f64; MAX_SEATS],
    in_unit: u32,
    means: UnitMeans,
    games: u64,
    /// Every unit's shares, unit by unit, when kept ([`SeatUnits::keeping`]).
    kept: Option<Vec<f32>>,
}

/// What [`SeatUnits`] holds once closed: the per-unit means, their labels, games per unit.
pub struct UnitShares<'a> {
    /// The per-unit sums.
    pub means: &'a UnitMeans,
    /// `seat 1` ... or `turn position 1` ...
    pub labels: Vec<String>,
    /// Games per unit.
    pub games_per_unit: u64,
    /// Games added.
    pub games: u64,
}

impl SeatUnits {
    /// Shares of `seats` seats; `rotate` makes a seed the unit; `by_position` counts a seat by
    /// its turn position from the first start player given to [`SeatUnits::add`].
    pub fn new(seats: usize, rotate: bool, by_position: bool) -> Self {
        SeatUnits {
            seats,
            per_unit: if rotate { seats as u64 } else { 1 },
            by_position,
            current: None,
            wins: [0.0; MAX_SEATS],
            in_unit: 0,
            means: UnitMeans::new(seats),
            games: 0,
            kept: None,
        }
    }

    /// Also keeps every unit's shares (for paired comparisons between runs on the same seeds).
    pub fn keeping(mut self) -> Self {
        self.kept = Some(Vec::new());
        self
    }

    /// The kept shares, unit by unit (`components` values each); empty unless
    /// [`SeatUnits::keeping`]. Call after [`SeatUnits::shares`], which closes the last unit.
    pub fn kept(&self) -> &[f32] {
        self.kept.as_deref().unwrap_or(&[])
    }

    /// Components per unit: the seats.
    pub fn components(&self) -> usize {
        self.seats
    }

    /// Adds game `index` (games arrive in order); `start` is its first start player (0-based),
    /// used when counting by position.
    pub fn add(&mut self, index: u64, o: &Outcome, start: usize) {
        let unit = index / self.per_unit;
        if self.current != Some(unit) {
            self.close();
            self.current = Some(unit);
        }
        let n = self.seats;
        for s in 0..n {
            let k = if self.by_position {
                (s + n - start % n) % n
            } else {
                s
            };
            self.wins[k] += o.win_share(s as u8);
        }
        self.in_unit += 1;
        self.games += 1;
    }

    /// Ends the unit being filled.
    fn close(&mut self) {
        if self.current.take().is_none() {
            return;
        }
        let k = f64::from(self.in_unit.max(1));
        for w in &mut self.wins[..self.seats] {
            *w /= k;
        }
        self.means.add(&self.wins[..self.seats]);
        if let Some(v) = self.kept.as_mut() {
            v.extend(self.wins[..self.seats].iter().map(|&w| w as f32));
        }
        self.wins = [0.0; MAX_SEATS];
        self.in_unit = 0;
    }

    /// Units added (the one being filled included).
    pub fn units(&self) -> u64 {
        self.means.units() + u64::from(self.current.is_some())
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Closes the last unit and returns the shares.
    pub fn shares(&mut self) -> UnitShares<'_> {
        self.close();
        let word = if self.by_position {
            "turn position"
        } else {
            "seat"
        };
        UnitShares {
            means: &self.means,
            labels: (1..=self.seats).map(|k| format!("{word} {k}")).collect(),
            games_per_unit: self.per_unit,
            games: self.games,
        }
    }
}

/// Every seat pair's win-share difference over units (games, or seeds under rotation).
pub struct Contrasts {
    units: SeatUnits,
}

/// One seat pair's contrast.
pub struct Pair {
    /// The seats (0-based), `a < b`.
    pub a: usize,
    /// The second seat.
    pub b: usize,
    /// Seat a's win share minus seat b's.
    pub diff: f64,
    /// Its standard error.
    pub se: f64,
    /// Two-sided p-value of "no difference".
    pub p: f64,
    /// Holm-corrected over all pairs.
    pub holm: f64,
}

impl Contrasts {
    /// Contrasts of `seats` seats; `rotate` pairs games on shared seeds.
    pub fn new(seats: usize, rotate: bool) -> Self {
        Contrasts {
            units: SeatUnits::new(seats, rotate, false),
        }
    }

    /// Adds game `index` (games arrive in order).
    pub fn add(&mut self, index: u64, o: &Outcome) {
        self.units.add(index, o, 0);
    }

    /// Units (games, or seeds under rotation) behind the contrasts.
    pub fn units(&self) -> u64 {
        self.units.units()
    }

    /// The per-unit win shares by seat.
    pub fn seat_units(&mut self) -> &mut SeatUnits {
        &mut self.units
    }

    /// Every seat pair's contrast, Holm-corrected. The variance of a unit's difference is
    /// var(a) + var(b) − 2 cov(a, b), from the per-unit sums.
    pub fn pairs(&mut self) -> Vec<Pair> {
        let seats = self.units.seats;
        let u = self.units.shares().means;
        let n = u.units().max(1) as f64;
        let mut pairs = Vec::new();
        for a in 0..seats {
            for b in a + 1..seats {
                let mean = u.mean(a) - u.mean(b);
                let var = (u.cov(a, a) + u.cov(b, b) - 2.0 * u.cov(a, b)).max(0.0);
                let se = (var / n).sqrt();
                let p = if se > 0.0 {
                    2.0 * crate::equivalence::upper_tail((mean / se).abs())
                } else if mean == 0.0 {
                    1.0
                } else {
                    0.0
                };
                pairs.push(Pair {
                    a,
                    b,
                    diff: mean,
                    se,
                    p,
                    holm: 1.0,
                });
            }
        }
        let adj = holm(&pairs.iter().map(|p| p.p).collect::<Vec<_>>());
        for (p, h) in pairs.iter_mut().zip(adj) {
            p.holm = h;
        }
        pairs
    }
}

/// One seat pair's contrast as reported: seats from 1, the 95% interval.
#[derive(Debug, Clone, Serialize)]
pub struct PairFigures {
    /// The first seat, from 1.
    pub seat_a: usize,
    /// The second seat.
    pub seat_b: usize,
    /// Seat a's win share minus seat b's.
    pub diff: f64,
    /// The 95% interval of the difference: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// Two-sided p-value of "no difference".
    pub p_value: f64,
    /// Holm-corrected over all pairs.
    pub holm_p: f64,
}

/// The contrast table and the verdict sentence.
#[derive(Debug, Clone, Serialize)]
pub struct ContrastReport {
    /// Whether the games were paired on shared seeds (agents rotated).
    pub paired_on_seeds: bool,
    /// Units behind the contrasts: seeds under rotation, else games.
    pub units: u64,
    /// Every seat pair.
    pub pairs: Vec<PairFigures>,
    /// The order the pairwise tests show, in one sentence: which seats win more than which
    /// (Holm-corrected at 5%), or that no pair differs. Fairness is the verdict's, not this.
    pub ordering: String,
}

impl Contrasts {
    /// The contrast table and the ordering it shows.
    pub fn report(&mut self) -> ContrastReport {
        let pairs = self.pairs();
        ContrastReport {
            paired_on_seeds: self.units.per_unit > 1,
            units: self.units(),
            pairs: pairs
                .iter()
                .map(|p| PairFigures {
                    seat_a: p.a + 1,
                    seat_b: p.b + 1,
                    diff: p.diff,
                    ci_low: p.diff - Z_975 * p.se,
                    ci_high: p.diff + Z_975 * p.se,
                    p_value: p.p,
                    holm_p: p.holm,
                })
                .collect(),
            ordering: ordering(&pairs),
        }
    }
}

impl std::fmt::Display for ContrastReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.pairs.len();
        writeln!(
            f,
            "seat contrasts ({}; 95% intervals, p-values Holm-corrected over {n} pair{}):",
            if self.paired_on_seeds {
                format!("paired on {} shared seeds, agents rotated", self.units)
            } else {
                format!("the seats of the same {} games", self.units)
            },
            if n == 1 { "" } else { "s" }
        )?;
        for p in &self.pairs {
            writeln!(
                f,
                "  seat {} - seat {}: {:+.4} [{:+.4}, {:+.4}]  {} (Holm)",
                p.seat_a,
                p.seat_b,
                p.diff,
                p.ci_low,
                p.ci_high,
                p_value(p.holm_p)
            )?;
        }
        writeln!(f, "{}", self.ordering)
    }
}

/// The ordering the pairwise tests support: each pair that differs at 5% after Holm's
/// correction, larger first; an ordering is claimed only pair by pair, never from the table.
fn ordering(pairs: &[Pair]) -> String {
    let mut significant: Vec<&Pair> = pairs.iter().filter(|p| p.holm < 0.05).collect();
    if significant.is_empty() {
        return "ordering: no two seats differ at 5% (Holm-corrected), so the games show no order of the seats.".into();
    }
    significant.sort_by(|x, y| y.diff.abs().total_cmp(&x.diff.abs()));
    let pairs_text: Vec<String> = significant
        .iter()
        .map(|p| {
            let (hi, lo) = if p.diff > 0.0 { (p.a, p.b) } else { (p.b, p.a) };
            format!(
                "seat {} above seat {} by {:.3} ({})",
                hi + 1,
                lo + 1,
                p.diff.abs(),
                p_value(p.holm)
            )
        })
        .collect();
    format!(
        "ordering (the pairs that differ at 5%, Holm-corrected; {} of {}): {}.",
        significant.len(),
        pairs.len(),
        pairs_text.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(winner: u8) -> Outcome {
        Outcome {
            seats: 2,
            score: [0.0; MAX_SEATS],
            rank: [1; MAX_SEATS],
            winners: 1 << winner,
            capped: false,
            team_score: None,
        }
    }

    #[test]
    fn seats_ordering_names_only_significant_pairs() {
        let mut c = Contrasts::new(2, false);
        for i in 0..1000 {
            c.add(i, &outcome(u8::from(i % 10 >= 7)));
        }
        let v = c.report().to_string();
        assert!(v.contains("seat 1 above seat 2 by 0.400"), "{v}");
        let mut c = Contrasts::new(2, false);
        for i in 0..100 {
            c.add(i, &outcome((i % 2) as u8));
        }
        let v = c.report().to_string();
        assert!(v.contains("no two seats differ"), "{v}");
        assert!(!v.contains("above") && !v.contains("fair"), "{v}");
    }

    #[test]
    fn seat_units_count_turn_positions_from_the_start_player() {
        // Two seats; the start player always wins, and seat 2 starts every other game.
        let mut u = SeatUnits::new(2, false, true);
        for i in 0..10 {
            let start = (i % 2) as usize;
            u.add(i, &outcome(start as u8), start);
        }
        let s = u.shares();
        assert_eq!(s.labels[0], "turn position 1");
        assert!((s.means.mean(0) - 1.0).abs() < 1e-12 && s.means.mean(1) == 0.0);
        assert_eq!((s.means.units(), s.games), (10, 10));
    }

    #[test]
    fn seats_contrasts_under_rotation_pair_the_games_of_a_seed() {
        // Each seed played twice: the first seat always wins. Per seed the difference is 1.
        let mut c = Contrasts::new(2, true);
        for i in 0..40 {
            c.add(i, &outcome(0));
        }
        let pairs = c.pairs();
        assert_eq!(c.units(), 20);
        assert!((pairs[0].diff - 1.0).abs() < 1e-12 && pairs[0].holm < 1e-6);
    }
}
