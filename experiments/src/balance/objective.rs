//! What `shifu balance` minimizes: objectives over per-game measurements.
//!
//! Each game of a setting is recorded as a few numbers (its *columns*: a seat's win share, the
//! team's win, the rounds, an event, a statistic of the game). A *metric* is the ratio of two
//! column sums (a plain mean when the denominator is 1), and an objective is the largest of a
//! few signed gaps `s·(metric − target)`:
//!
//! - `fair`: every seat's (turn position's) win share against 1/n, both signs: the largest
//!   deviation from the fair share;
//! - `target:METRIC=V`: |METRIC − V|, for example `target:win=0.5` (Wok Star's team) or
//!   `target:stats.finds/stats.princess_dealt=0.5` (Tofu Kingdom's find rate);
//! - `range:METRIC=LO..HI`: how far METRIC lies outside [LO, HI] (0 inside), for example
//!   `range:rounds=30..45`;
//! - `skill=MARGIN`: how far a stronger agent falls short of beating a weaker one by MARGIN
//!   (see [`super::skill`]; 0 when it does);
//! - `distance`: how far the setting lies from the rulebook's (no noise).

use crate::games::Playable;
use crate::runner::GameRow;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use shifu_engine::present::EventKind;

/// One number recorded per game.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// 1: the denominator of a plain mean.
    One,
    /// The win share of the seat at this turn position (from the first start player when the
    /// game records one, else the seat itself).
    Position(usize),
    /// 1 when someone won (a cooperative team's win).
    Win,
    /// Rounds played.
    Rounds,
    /// 1 when the round cap stopped the game.
    Capped,
    /// Event `i`: 1 when it happened (a supply ran out), or its number (a count).
    Event(usize, EventKind),
    /// A number in the game's statistics: a JSON path of field names and indices.
    Stat(String),
    /// The row's skill game(s): the strong seat's win share, or (cooperative) the all-strong
    /// team's win minus the all-weak team's. Recorded as 0, then filled by [`super::skill`].
    Skill,
}

/// A metric: the sum of one column over the sum of another.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// Its name as given.
    pub name: String,
    /// The numerator's column index.
    pub num: usize,
    /// The denominator's column index.
    pub den: usize,
}

/// One signed gap of an objective: `sign · (metric − target)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    /// The metric's index.
    pub metric: usize,
    /// +1 or −1.
    pub sign: f64,
    /// The target.
    pub target: f64,
}

/// An objective to minimize.
#[derive(Debug, Clone, PartialEq)]
pub struct Objective {
    /// As given: `fair`, `target:win=0.5`, `range:rounds=30..45`, `distance`.
    pub name: String,
    /// Its gaps; the objective is the largest (and at least 0 when `floor`). None: `distance`.
    pub gaps: Vec<Gap>,
    /// The objective is at least 0 (a range: inside it counts as 0).
    pub floor: bool,
    /// "Good enough" below this: the equivalence margin for `fair` and `target`, 0 for a range.
    pub good_below: f64,
}

impl Objective {
    /// Measured from games (not `distance`).
    pub fn noisy(&self) -> bool {
        !self.gaps.is_empty()
    }
}

/// The columns, metrics and objectives of a balance run.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Recorded per game.
    pub columns: Vec<Column>,
    /// Ratios of columns.
    pub metrics: Vec<Metric>,
    /// Minimized, the first the primary one.
    pub objectives: Vec<Objective>,
    /// The game's event column of the first start player, if it records one.
    pub start_player: Option<usize>,
    /// The column of the capped flag.
    pub capped: usize,
    /// The column of the rounds.
    pub rounds: usize,
    /// The metrics of the seats' win shares by turn position (none for a cooperative game).
    pub seat_metrics: Vec<usize>,
}

impl Plan {
    /// The plan for objectives `specs` of game `G` at `seats` seats, `margin` the equivalence
    /// margin.
    pub fn new<G: Playable>(specs: &[String], seats: usize, margin: f64) -> Result<Plan> {
        let mut plan = Plan {
            start_player: crate::summary::start_event(G::EVENTS),
            ..Plan::default()
        };
        for spec in specs {
            let o = plan.objective::<G>(spec, seats, margin)?;
            if plan.objectives.iter().any(|x| x.name == o.name) {
                bail!("--objective {spec} is given twice");
            }
            plan.objectives.push(o);
        }
        if !plan.objectives.iter().any(Objective::noisy) {
            bail!("--objective: give at least one measured objective (fair, skill=..., target:..., range:...), not only distance");
        }
        if !plan.objectives[0].noisy() {
            let d = plan.objectives.remove(0);
            plan.objectives.push(d);
        }
        plan.capped = plan.column(Column::Capped);
        plan.rounds = plan.column(Column::Rounds);
        if !G::INFO.cooperative {
            plan.seat_metrics = (0..seats)
                .map(|k| plan.metric(&format!("seat{}", k + 1), Column::Position(k)))
                .collect::<Result<_>>()?;
        }
        Ok(plan)
    }

    fn column(&mut self, c: Column) -> usize {
        if let Some(i) = self.columns.iter().position(|x| *x == c) {
            return i;
        }
        self.columns.push(c);
        self.columns.len() - 1
    }

    fn objective<G: Playable>(
        &mut self,
        spec: &str,
        seats: usize,
        margin: f64,
    ) -> Result<Objective> {
        let spec = spec.trim();
        let mut o = Objective {
            name: spec.to_string(),
            gaps: Vec::new(),
            floor: false,
            good_below: margin,
        };
        if spec == "distance" {
            return Ok(o);
        }
        if let Some(m) = spec.strip_prefix("skill=") {
            let target = super::skill::threshold(m, G::INFO.cooperative, seats)?;
            let metric = self.metric("skill", Column::Skill)?;
            o.gaps.push(Gap {
                metric,
                sign: -1.0,
                target,
            });
            o.floor = true;
            o.good_below = 0.0;
            return Ok(o);
        }
        if spec == "fair" {
            if G::INFO.cooperative {
                bail!("--objective fair: {} is cooperative (every seat wins or loses together); aim the team's win rate instead, for example --objective target:win=0.5", G::INFO.title);
            }
            for k in 0..seats {
                let m = self.metric(&format!("seat{}", k + 1), Column::Position(k))?;
                for sign in [1.0, -1.0] {
                    o.gaps.push(Gap {
                        metric: m,
                        sign,
                        target: 1.0 / seats as f64,
                    });
                }
            }
            return Ok(o);
        }
        let (kind, rest) = spec.split_once(':').with_context(|| {
            format!("--objective `{spec}`: expected fair, distance, skill=MARGIN, target:METRIC=V or range:METRIC=LO..HI")
        })?;
        let (metric, value) = rest
            .split_once('=')
            .with_context(|| format!("--objective `{spec}`: expected {kind}:METRIC=..."))?;
        let m = self.named_metric::<G>(metric.trim())?;
        let num = |x: &str| -> Result<f64> {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .with_context(|| format!("--objective `{spec}`: `{x}` is not a number"))
        };
        match kind {
            "target" => {
                let t = num(value)?;
                o.gaps = vec![
                    Gap { metric: m, sign: 1.0, target: t },
                    Gap { metric: m, sign: -1.0, target: t },
                ];
            }
            "range" => {
                let (lo, hi) = value
                    .split_once("..")
                    .with_context(|| format!("--objective `{spec}`: expected LO..HI"))?;
                let (lo, hi) = (num(lo)?, num(hi)?);
                if lo > hi {
                    bail!("--objective `{spec}`: LO is above HI");
                }
                o.gaps = vec![
                    Gap { metric: m, sign: 1.0, target: hi },
                    Gap { metric: m, sign: -1.0, target: lo },
                ];
                o.floor = true;
                o.good_below = 0.0;
            }
            _ => bail!("--objective `{spec}`: `{kind}` is not an objective; the objectives: fair, distance, skill=MARGIN, target:METRIC=V, range:METRIC=LO..HI"),
        }
        Ok(o)
    }

    fn metric(&mut self, name: &str, num: Column) -> Result<usize> {
        let one = self.column(Column::One);
        let num = self.column(num);
        self.push_metric(name, num, one)
    }

    fn push_metric(&mut self, name: &str, num: usize, den: usize) -> Result<usize> {
        if let Some(i) = self.metrics.iter().position(|m| m.name == name) {
            return Ok(i);
        }
        self.metrics.push(Metric {
            name: name.to_string(),
            num,
            den,
        });
        Ok(self.metrics.len() - 1)
    }

    /// A metric by name: `win`, `rounds`, `capped`, an event column, `stats.PATH`, or `A/B`.
    fn named_metric<G: Playable>(&mut self, name: &str) -> Result<usize> {
        let (a, b) = match name.split_once('/') {
            Some((a, b)) => (a.trim(), Some(b.trim())),
            None => (name, None),
        };
        let num = self.named_column::<G>(a)?;
        let den = match b {
            Some(b) => self.named_column::<G>(b)?,
            None => self.column(Column::One),
        };
        self.push_metric(name, num, den)
    }

    fn named_column<G: Playable>(&mut self, name: &str) -> Result<usize> {
        let c = match name {
            "win" => Column::Win,
            "rounds" => Column::Rounds,
            "capped" => Column::Capped,
            _ if name.starts_with("stats.") => {
                let path = &name["stats.".len()..];
                check_stat_path::<G>(path)?;
                Column::Stat(path.to_string())
            }
            _ => match G::EVENTS.iter().position(|e| e.column == name || e.label == name) {
                Some(i) if G::EVENTS[i].kind == EventKind::Seat => bail!(
                    "metric `{name}`: the event names a seat; it has no mean to aim at"
                ),
                Some(i) => Column::Event(i, G::EVENTS[i].kind),
                None => bail!(
                    "metric `{name}`: not a metric of {}; the metrics: win, rounds, capped{}, stats.FIELD (a number in the game's statistics, `shifu play --json` shows them), and A/B of two of these",
                    G::INFO.title,
                    G::EVENTS.iter().map(|e| format!(", {}", e.column)).collect::<String>()
                ),
            },
        };
        Ok(self.column(c))
    }

    /// One game's columns, appended to `out`.
    pub fn record<S: Serialize>(&self, r: &GameRow<S>, seats: usize, out: &mut Vec<f32>) {
        let o = &r.outcome;
        let start = self
            .start_player
            .and_then(|e| r.events[e])
            .map_or(0, |s| crate::summary::start_seat(s) % seats.max(1));
        let stats = self
            .columns
            .iter()
            .any(|c| matches!(c, Column::Stat(_)))
            .then(|| serde_json::to_value(&r.extra).unwrap_or_default());
        for c in &self.columns {
            let v = match c {
                Column::One => 1.0,
                Column::Position(k) => o.win_share(((start + k) % seats) as u8),
                Column::Win => f64::from(u8::from(o.winners != 0)),
                Column::Rounds => f64::from(r.rounds),
                Column::Capped => f64::from(u8::from(o.capped)),
                Column::Event(i, EventKind::RanOut) => f64::from(u8::from(r.events[*i].is_some())),
                Column::Event(i, _) => r.events[*i].map_or(0.0, f64::from),
                Column::Stat(path) => stats.as_ref().map_or(0.0, |s| stat_at(s, path)),
                Column::Skill => 0.0,
            };
            out.push(v as f32);
        }
    }
}

/// The number at `path` (`field`, `field[i]`, `a.b`) in a statistics value; 0 when absent.
fn stat_at(v: &serde_json::Value, path: &str) -> f64 {
    let mut cur = v;
    for part in path.split('.') {
        let (field, index) = match part.split_once('[') {
            Some((f, i)) => (f, i.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        let Some(next) = cur.get(field) else {
            return 0.0;
        };
        cur = match index {
            Some(i) => match next.get(i) {
                Some(x) => x,
                None => return 0.0,
            },
            None => next,
        };
    }
    cur.as_f64().unwrap_or(0.0)
}

/// Checks a statistics path against the game's statistics type: it must name a number.
fn check_stat_path<G: Playable>(path: &str) -> Result<()> {
    let v = serde_json::to_value(G::Stats::default()).unwrap_or_default();
    let mut cur = &v;
    for part in path.split('.') {
        let (field, index) = match part.split_once('[') {
            Some((f, i)) => (f, Some(i.trim_end_matches(']'))),
            None => (part, None),
        };
        let fields = || match cur.as_object() {
            Some(m) => m.keys().cloned().collect::<Vec<_>>().join(", "),
            None => String::new(),
        };
        let next = cur.get(field).with_context(|| {
            format!(
                "metric `stats.{path}`: {} has no statistic `{field}`; there: {}",
                G::INFO.title,
                fields()
            )
        })?;
        cur = match index {
            Some(i) => {
                let i: usize = i
                    .parse()
                    .with_context(|| format!("metric `stats.{path}`: `{i}` is not an index"))?;
                next.get(i)
                    .with_context(|| format!("metric `stats.{path}`: index {i} is out of range"))?
            }
            None => next,
        };
    }
    if !cur.is_number() {
        bail!("metric `stats.{path}`: not a number (a list needs an index, `field[0]`)");
    }
    Ok(())
}

/// A setting's games as recorded: `columns` numbers per game.
#[derive(Debug, Clone, Default)]
pub struct Games {
    /// Numbers per game.
    pub columns: usize,
    /// Game after game.
    pub data: Vec<f32>,
}

impl Games {
    /// Games recorded.
    pub fn len(&self) -> usize {
        self.data.len() / self.columns.max(1)
    }

    /// No game recorded.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Column `c` of game `g`.
    pub fn at(&self, g: usize, c: usize) -> f64 {
        f64::from(self.data[g * self.columns + c])
    }

    /// A metric's value over the first `n` games and its per-game linearization (the delta
    /// method's influence values plus the value: their mean is the value, their spread its
    /// standard error's).
    pub fn linearized(&self, m: &Metric, n: usize) -> (f64, Vec<f64>) {
        let (mut num, mut den) = (0.0, 0.0);
        for g in 0..n {
            num += self.at(g, m.num);
            den += self.at(g, m.den);
        }
        if den <= 0.0 {
            return (0.0, vec![0.0; n]);
        }
        let value = num / den;
        let den_bar = den / n as f64;
        let lin = (0..n)
            .map(|g| value + (self.at(g, m.num) - value * self.at(g, m.den)) / den_bar)
            .collect();
        (value, lin)
    }
}

/// The objective's value from the metrics' values.
pub fn objective_value(o: &Objective, metric_values: &[f64]) -> f64 {
    let v = o
        .gaps
        .iter()
        .map(|g| g.sign * (metric_values[g.metric] - g.target))
        .fold(f64::NEG_INFINITY, f64::max);
    if o.floor {
        v.max(0.0)
    } else {
        v
    }
}

/// The gap that attains the objective's value.
pub fn worst_gap(o: &Objective, metric_values: &[f64]) -> usize {
    (0..o.gaps.len())
        .max_by(|&a, &b| {
            let v =
                |i: usize| o.gaps[i].sign * (metric_values[o.gaps[i].metric] - o.gaps[i].target);
            v(a).total_cmp(&v(b))
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_objective_values() {
        let o = Objective {
            name: "fair".into(),
            gaps: vec![
                Gap {
                    metric: 0,
                    sign: 1.0,
                    target: 0.5,
                },
                Gap {
                    metric: 0,
                    sign: -1.0,
                    target: 0.5,
                },
                Gap {
                    metric: 1,
                    sign: 1.0,
                    target: 0.5,
                },
                Gap {
                    metric: 1,
                    sign: -1.0,
                    target: 0.5,
                },
            ],
            floor: false,
            good_below: 0.02,
        };
        assert!((objective_value(&o, &[0.56, 0.44]) - 0.06).abs() < 1e-12);
        assert_eq!(worst_gap(&o, &[0.56, 0.44]), 0);
        let r = Objective {
            name: "range:rounds=30..45".into(),
            gaps: vec![
                Gap {
                    metric: 0,
                    sign: 1.0,
                    target: 45.0,
                },
                Gap {
                    metric: 0,
                    sign: -1.0,
                    target: 30.0,
                },
            ],
            floor: true,
            good_below: 0.0,
        };
        assert_eq!(objective_value(&r, &[40.0]), 0.0);
        assert_eq!(objective_value(&r, &[25.0]), 5.0);
    }

    #[test]
    fn balance_linearized_ratio_has_the_ratio_as_mean() {
        let g = Games {
            columns: 2,
            data: vec![1.0, 2.0, 0.0, 1.0, 1.0, 1.0],
        };
        let m = Metric {
            name: "a/b".into(),
            num: 0,
            den: 1,
        };
        let (v, lin) = g.linearized(&m, 3);
        assert!((v - 0.5).abs() < 1e-12);
        assert!((lin.iter().sum::<f64>() / 3.0 - 0.5).abs() < 1e-12);
        let s = serde_json::json!({"a": [1.0, 2.5], "b": {"c": 3}});
        assert_eq!(stat_at(&s, "a[1]"), 2.5);
        assert_eq!(stat_at(&s, "b.c"), 3.0);
        assert_eq!(stat_at(&s, "zz"), 0.0);
    }
}
