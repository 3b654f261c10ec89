//! A balance run's result: the value `--json` prints, and its text.

use super::checkpoint::State;
use super::search::NtbeaSummary;
use super::validate::Validated;
use super::{validation_seed, BalanceArgs, Setup};
use crate::equivalence::Verdict;
use crate::games::Playable;
use serde::Serialize;
use std::fmt;

/// How the race ended, before the validation.
#[derive(Debug, Clone, Serialize)]
pub struct RaceSummary {
    /// The critical z of every elimination.
    pub critical_z: f64,
    /// Games per setting at each look.
    pub looks: Vec<u64>,
    /// Why the race stopped.
    pub stop: String,
    /// The settings left (indices).
    pub survivors: Vec<usize>,
    /// The survivors' Pareto set, best first, as many as `--finalists` (indices).
    pub finalists: Vec<usize>,
}

/// One setting's race, for the chart and the JSON.
#[derive(Debug, Clone, Serialize)]
pub struct RaceEntry {
    /// `key=value` words.
    pub name: String,
    /// Games it played in the race.
    pub games: u64,
    /// Its objectives' estimates at its last look (biased: the race selects on them).
    pub estimate: Vec<f64>,
    /// Its distance from the rulebook's setting.
    pub distance: f64,
    /// The look it left the race at, if it did.
    pub eliminated_at_look: Option<usize>,
    /// The setting that beat it.
    pub eliminated_by: Option<String>,
}

/// A recommended setting: how to reproduce it and its validation.
#[derive(Debug, Clone, Serialize)]
pub struct Recommended {
    /// The `--set` strings that reproduce it.
    pub set: Vec<String>,
    /// The same as words.
    pub name: String,
    /// Its distance from the rulebook's setting (none when a searched key has no rulebook
    /// value; `--reference` gives one).
    pub distance: Option<f64>,
    /// The validation's figures and verdict.
    pub validation: Validated,
    /// The skill figure of `--objective skill=MARGIN` on the validation games.
    pub skill: Option<super::skill::SkillFigure>,
    /// The verdict as a sentence.
    pub verdict: String,
}

/// The result of `shifu balance`.
#[derive(Debug, Clone, Serialize)]
pub struct BalanceResult {
    /// The game.
    pub game: String,
    /// Players.
    pub players: usize,
    /// The race's agents by seat.
    pub agents: Vec<String>,
    /// The validation's agents by seat.
    pub validate_agents: Vec<String>,
    /// The searched axes as given.
    pub search: Vec<String>,
    /// The fixed totals.
    pub sum: Vec<String>,
    /// The objectives, the first the primary one.
    pub objectives: Vec<String>,
    /// The equivalence margin.
    pub margin: f64,
    /// The race's error rate: the chance of dropping a setting no other setting beats.
    pub error_rate: f64,
    /// Settings in the space.
    pub settings: usize,
    /// The race's master seed.
    pub seed: u64,
    /// Games the race played.
    pub race_games: u64,
    /// The race's game budget.
    pub budget: u64,
    /// Games a full grid at the race's most games per setting would play.
    pub full_grid_games: u64,
    /// How the race ended.
    pub race: RaceSummary,
    /// The validation's master seed (fresh: the race never played it).
    pub validation_seed: u64,
    /// Validation games per finalist (rows: each has its skill games too, see `games_per_row`).
    pub validation_games: u64,
    /// Games per recorded game: 1, plus its skill games under `--objective skill=MARGIN`.
    pub games_per_row: u64,
    /// Games in all, race and validation.
    pub games: u64,
    /// The finalists, best first: fair ones first, then by the race's order.
    pub recommended: Vec<Recommended>,
    /// Whether some finalist is fair within the margin on the validation games.
    pub fair_found: bool,
    /// The answer in one sentence.
    pub answer: String,
    /// The command that re-plays the first recommendation's validation games.
    pub validate_command: String,
    /// Every setting's race (NTBEA: the finalists, with their search games).
    pub race_entries: Vec<RaceEntry>,
    /// The search: `race` or `ntbea`.
    pub method: super::search::Method,
    /// NTBEA's figures (`--method ntbea`).
    pub ntbea: Option<super::search::NtbeaSummary>,
    /// Seconds the run took (not part of the result proper: it varies).
    pub seconds: f64,
}

fn rank(v: &Validated) -> u8 {
    match v.equivalence.as_ref().map(|e| &e.verdict) {
        Some(Verdict::Fair) => 0,
        None => 1,
        Some(Verdict::Undetermined { .. }) => 2,
        Some(Verdict::Unfair { .. }) => 3,
        Some(Verdict::NoVerdict { .. }) => 4,
    }
}

/// Builds the result from the race and the validation.
pub fn build<G: Playable>(
    s: &Setup<G>,
    a: &BalanceArgs,
    state: &State,
    race: RaceSummary,
    validated: Vec<Validated>,
    seconds: f64,
) -> BalanceResult {
    let mut recommended: Vec<Recommended> = validated
        .into_iter()
        .map(|v| {
            let set = &s.settings[v.setting];
            Recommended {
                set: set.set.clone(),
                name: set.name(),
                distance: s.has_reference.then_some(s.distances[v.setting]),
                skill: s.skill.as_ref().and_then(|k| k.figure(&v.metrics)),
                verdict: v.equivalence.as_ref().map_or_else(
                    || "no equivalence verdict for this objective".to_string(),
                    |e| e.sentence(),
                ),
                validation: v,
            }
        })
        .collect();
    // Stable: within a verdict, the race's order (chosen before the validation was seen).
    recommended.sort_by_key(|r| rank(&r.validation));
    let fair_found = recommended
        .first()
        .is_some_and(|r| rank(&r.validation) == 0);
    let vseed = validation_seed(a.seed);
    let validate_command = recommended.first().map_or_else(String::new, |r| {
        let mut c = format!("shifu seats --game {} --players {}", G::INFO.name, s.seats);
        if let Some(d) = &a.game.data {
            c.push_str(&format!(" --data {}", d.display()));
        }
        for x in a.game.set.iter().chain(&r.set) {
            c.push_str(&format!(" --set {x}"));
        }
        c.push_str(&format!(
            " --agents {} --games {} --seed {vseed}",
            s.validate_specs.join(","),
            a.validation_games
        ));
        c
    });
    let answer = answer(&recommended, a.margin, fair_found);
    let race_entries = state
        .entries
        .iter()
        .zip(&s.settings)
        .map(|(e, set)| RaceEntry {
            name: set.name(),
            games: e.played,
            estimate: e.estimate.clone(),
            distance: e.distance,
            eliminated_at_look: e.out.as_ref().map(|o| o.look),
            eliminated_by: e.out.as_ref().map(|o| s.settings[o.by].name()),
        })
        .collect();
    let validation_total: u64 =
        recommended.iter().map(|r| r.validation.games).sum::<u64>() * s.per_row;
    BalanceResult {
        game: G::INFO.name.to_string(),
        players: s.seats,
        agents: s.specs.clone(),
        validate_agents: s.validate_specs.clone(),
        search: a.search.clone(),
        sum: a.sum.clone(),
        objectives: s.plan.objectives.iter().map(|o| o.name.clone()).collect(),
        margin: a.margin,
        error_rate: a.error_rate,
        settings: s.settings.len(),
        seed: a.seed,
        race_games: state.spent,
        budget: s.race.budget,
        full_grid_games: s.settings.len() as u64 * s.race.max_games * s.per_row,
        race,
        validation_seed: vseed,
        validation_games: a.validation_games,
        games_per_row: s.per_row,
        games: state.spent + validation_total,
        recommended,
        fair_found,
        answer,
        validate_command,
        race_entries,
        method: super::search::Method::Race,
        ntbea: None,
        seconds,
    }
}

fn answer(rec: &[Recommended], margin: f64, fair_found: bool) -> String {
    let Some(first) = rec.first() else {
        return "no setting was validated".into();
    };
    let o = &first.validation.objectives[0];
    if fair_found {
        return format!(
            "{} is fair within ±{margin} on {} fresh games ({} {:.4} [{:.4}, {:.4}]).",
            first.name, first.validation.games, o.name, o.value, o.ci_low, o.ci_high
        );
    }
    let closest = rec
        .iter()
        .min_by(|a, b| {
            a.validation.objectives[0]
                .value
                .total_cmp(&b.validation.objectives[0].value)
        })
        .unwrap_or(first);
    let c = &closest.validation.objectives[0];
    format!(
        "no setting in the space is shown fair within ±{margin}: the closest on {} fresh games is {} ({} {:.4} [{:.4}, {:.4}]); widen the space (another axis, a cost scale) to see what it buys.",
        closest.validation.games, closest.name, c.name, c.value, c.ci_low, c.ci_high
    )
}

impl fmt::Display for BalanceResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} with {} players, agents {}; objectives: {}; margin ±{}",
            self.game,
            self.players,
            self.agents.join(" | "),
            self.objectives.join(", "),
            self.margin
        )?;
        match &self.ntbea {
            Some(n) => self.ntbea_lines(f, n)?,
            None => self.race_lines(f)?,
        }
        writeln!(f)?;
        for (i, r) in self.recommended.iter().enumerate() {
            let distance = r.distance.map_or(String::new(), |d| {
                format!("distance from the rulebook {d:.3}, ")
            });
            writeln!(
                f,
                "{}. {}  ({distance}probability best {:.2})",
                i + 1,
                r.name,
                r.validation.probability_best
            )?;
            let shares: Vec<String> = r
                .validation
                .metrics
                .iter()
                .map(|m| {
                    format!(
                        "{} {:.4} [{:.4}, {:.4}]",
                        m.name, m.value, m.ci_low, m.ci_high
                    )
                })
                .collect();
            writeln!(f, "   {}", shares.join("; "))?;
            for o in &r.validation.objectives {
                writeln!(
                    f,
                    "   {} {:.4} [{:.4}, {:.4}]",
                    o.name, o.value, o.ci_low, o.ci_high
                )?;
            }
            if let Some(k) = &r.skill {
                writeln!(f, "   {k}")?;
            }
            writeln!(
                f,
                "   {}",
                crate::stats::capped_share(r.validation.capped, r.validation.games, 0)
                    .replace(" at the 0-round cap", " at the round cap")
            )?;
            writeln!(f, "   {}", r.verdict)?;
        }
        writeln!(f)?;
        writeln!(f, "answer: {}", self.answer)?;
        writeln!(
            f,
            "re-test on the validation seeds: {}",
            self.validate_command
        )?;
        writeln!(f, "{} games in {:.1} s", self.games, self.seconds)
    }
}

impl BalanceResult {
    fn race_lines(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "space: {} settings ({}{}); {}: {} games (budget {}, a full grid at {} games a setting: {}), {} looks, error rate {} (critical z {:.2}); stopped: {}",
            self.settings,
            self.search.join(" "),
            if self.sum.is_empty() { String::new() } else { format!(", sum {}", self.sum.join(" ")) },
            if self.race.critical_z.is_finite() { "race" } else { "full grid" },
            self.race_games,
            self.budget,
            self.race.looks.last().copied().unwrap_or(0),
            self.full_grid_games,
            self.race.looks.len(),
            self.error_rate,
            self.race.critical_z,
            self.race.stop
        )?;
        writeln!(
            f,
            "{} settings left; validated: {} on {} fresh games each (master seed {}, agents {})",
            self.race.survivors.len(),
            self.recommended.len(),
            self.validation_games,
            self.validation_seed,
            self.validate_agents.join(" | ")
        )?;
        Ok(())
    }

    fn ntbea_lines(&self, f: &mut fmt::Formatter<'_>, n: &NtbeaSummary) -> fmt::Result {
        writeln!(
            f,
            "space: {} settings ({}) in {} dimensions; ntbea: {} games (budget {}) in {} evaluations of {} games, {} distinct settings, exploration {}, neighbourhood {}",
            self.settings,
            self.search.join(" "),
            n.dimensions.len(),
            self.race_games,
            self.budget,
            n.evaluations,
            n.batch * self.games_per_row,
            n.distinct_settings,
            n.exploration,
            n.neighbourhood
        )?;
        writeln!(
            f,
            "validated: {} (the model's best and the best evaluated) on {} fresh games each (master seed {}, agents {})",
            self.recommended.len(),
            self.validation_games,
            self.validation_seed,
            self.validate_agents.join(" | ")
        )
    }
}
