//! The seat summary of a run: computed once from the run's [`Tally`], then shown as text
//! (`shifu play`, `shifu seats`, the Python `SeatAnalysis`) or serialized (`--json`, the Python
//! batch API). [`SeatStats`] is the part every seat table shares (`play`, `seats`, each cell of
//! `sweep`, `report`); [`SeatSummary`] adds the run's settings, the game's own lines and, for
//! `seats`, the pairwise contrasts and a verdict. No finding is given from games that the round
//! cap decided ([`CAPPED_WARN`]).

use crate::bootstrap::{balance_interval, multinomial_cov, BalanceInterval};
use crate::equivalence::{seat_components, Equivalence};
use crate::format::p_value;
use crate::games::Playable;
use crate::seats::{ContrastReport, Contrasts, SeatUnits, UnitShares};
use crate::stats::{balance, capped_share, capped_warning, chi_square_equal, wilson, CAPPED_WARN};
use crate::tally::Tally;
use serde::Serialize;
use std::fmt;

/// Whether more of the run's games than [`CAPPED_WARN`] were stopped by the round cap.
pub fn decided_by_cap(capped: u64, games: u64) -> bool {
    capped as f64 / games.max(1) as f64 > CAPPED_WARN
}

/// The line printed instead of a verdict when the round cap decided the games.
pub fn cap_decides(capped: u64, games: u64, max_rounds: u32) -> String {
    format!(
        "no verdict: {:.1}% of the games were stopped by the {max_rounds}-round cap (more than {:.0}%), so the cap decides this result, not the rules; play stronger agents (--agents greedy) or raise max_rounds",
        100.0 * capped as f64 / games.max(1) as f64,
        100.0 * CAPPED_WARN
    )
}

/// One seat's figures.
#[derive(Debug, Clone, Serialize)]
pub struct Seat {
    /// The seat, from 1.
    pub seat: usize,
    /// Its agent spec, or `(rotated)` when the agents were rotated through the seats.
    pub agent: String,
    /// Its share of the wins (a shared win counts fractionally).
    pub win_share: f64,
    /// The Wilson 95% interval of the win share: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// Mean finishing rank (1 is first).
    pub mean_rank: f64,
    /// Mean final score.
    pub mean_score: f64,
}

/// The games the round cap stopped.
#[derive(Debug, Clone, Serialize)]
pub struct Capped {
    /// How many.
    pub games: u64,
    /// Their share of the run's games.
    pub share: f64,
    /// The Wilson 95% interval of the share: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// The round cap.
    pub max_rounds: u32,
    /// Above which share the cap decides the result.
    pub warn_above: f64,
    /// The warning printed when more than `warn_above` of the games were capped.
    pub warning: Option<String>,
}

/// The seat table and the test of equal chances: what `play`, `seats`, each `sweep` cell and
/// `report` show.
#[derive(Debug, Clone, Serialize)]
pub struct SeatStats {
    /// Games behind the figures.
    pub games: u64,
    /// One entry a seat.
    pub seats: Vec<Seat>,
    /// Pearson's chi-square of the win counts against equal chances.
    pub chi_square: f64,
    /// Its degrees of freedom.
    pub df: f64,
    /// Its p-value.
    pub p_value: f64,
    /// 1 minus the largest gap between two seats' win shares.
    pub balance: f64,
    /// Balance corrected for the game count, with a 95% bootstrap interval
    /// ([`crate::bootstrap`]); none in a cooperative game or when the round cap decides.
    pub balance_interval: Option<BalanceInterval>,
    /// The equivalence test of the seats' win shares against 1/n at the margin, and its
    /// verdict (by turn position from the first start player where the game draws one); none
    /// in a cooperative game.
    pub equivalence: Option<Equivalence>,
    /// The games the round cap stopped.
    pub capped: Capped,
    /// Whether the cap decided the result (more than [`CAPPED_WARN`] capped): then no verdict.
    pub decided_by_cap: bool,
    /// Share of games with more than one winner.
    pub shared_wins: f64,
    /// Mean rounds per game.
    pub mean_rounds: f64,
    /// Mean steps per game.
    pub mean_steps: f64,
    /// Steps in all.
    pub steps: u64,
}

/// How a seat table is judged: the margin of its verdict, and the per-unit win shares when
/// the games were played here.
pub struct Judging<'a> {
    /// The equivalence margin.
    pub margin: f64,
    /// The master seed (the balance bootstrap's seed derives from it).
    pub seed: u64,
    /// Whether the seats win or lose together: then there is no seat verdict.
    pub cooperative: bool,
    /// Per-unit win shares; used when they cover every game of the totals, else the verdict
    /// takes the games as units from the totals.
    pub units: Option<UnitShares<'a>>,
}

/// The index of the game's first start player among its events: an event of kind
/// [`shifu_engine::present::EventKind::Seat`] named `start_player` (Ginza Retro Café draws one).
pub fn start_event(events: &[shifu_engine::present::Event]) -> Option<usize> {
    events.iter().position(|e| {
        e.kind == shifu_engine::present::EventKind::Seat && e.column == "start_player"
    })
}

/// The seat (0-based) a `start_player` event's value names: seat events count from 1.
pub fn start_seat(value: u32) -> usize {
    (value as usize).saturating_sub(1)
}

/// The per-unit accumulator a run's verdict needs: by turn position from the first start
/// player when the game has one ([`start_event`]), else none (the contrasts' by-seat units
/// serve).
pub fn position_units(
    events: &[shifu_engine::present::Event],
    seats: usize,
    rotate: bool,
) -> Option<SeatUnits> {
    start_event(events).map(|_| SeatUnits::new(seats, rotate, true))
}

/// The equivalence test of `t`'s seats (the first `count`) as `j` says.
fn seat_verdict<S>(t: &Tally<S>, count: usize, j: &Judging<'_>) -> Equivalence {
    let capped = (t.capped, t.games);
    match j
        .units
        .as_ref()
        .filter(|u| u.games == t.games && u.games > 0)
    {
        Some(u) => {
            let fair = vec![1.0 / count as f64; count];
            let c = u.means.components(&u.labels, &fair);
            crate::equivalence::test(&c, u.means.units(), u.games_per_unit, j.margin, capped)
        }
        None => {
            let c = seat_components(&t.win[..count], t.games);
            crate::equivalence::test(&c, t.games, 1, j.margin, capped)
        }
    }
}

/// Balance's bootstrap for the seat shares `rates` of `t`: from the per-unit shares by seat
/// when they cover every game, else from the totals (games as units).
fn seat_balance<S>(t: &Tally<S>, rates: &[f64], j: &Judging<'_>) -> BalanceInterval {
    let k = rates.len();
    let by_seat = j
        .units
        .as_ref()
        .filter(|u| u.games == t.games && u.labels.first().is_some_and(|l| l.starts_with("seat")));
    match by_seat {
        Some(u) => {
            let m = u.means;
            let means: Vec<f64> = (0..k).map(|a| m.mean(a)).collect();
            let cov: Vec<f64> = (0..k * k).map(|i| m.cov(i / k, i % k)).collect();
            balance_interval(&means, &cov, m.units(), j.seed)
        }
        None => balance_interval(rates, &multinomial_cov(rates), t.games, j.seed),
    }
}

impl SeatStats {
    /// The figures of `t`, with `specs` the agents by seat (before rotation), judged as `j`
    /// says.
    pub fn new<S>(
        t: &Tally<S>,
        specs: &[String],
        rotate: bool,
        max_rounds: u32,
        j: &Judging<'_>,
    ) -> SeatStats {
        let n = t.games as f64;
        let count = specs.len();
        let seats = (0..count)
            .map(|s| {
                let (lo, hi) = wilson(t.win[s], n);
                Seat {
                    seat: s + 1,
                    agent: if rotate {
                        "(rotated)".into()
                    } else {
                        specs[s].clone()
                    },
                    win_share: t.win[s] / n,
                    ci_low: lo,
                    ci_high: hi,
                    mean_rank: t.rank[s] / n,
                    mean_score: t.score[s] / n,
                }
            })
            .collect::<Vec<_>>();
        let rates: Vec<f64> = seats.iter().map(|s| s.win_share).collect();
        let (chi, df, p) = chi_square_equal(&t.win[..count]);
        let (lo, hi) = wilson(t.capped as f64, n);
        SeatStats {
            games: t.games,
            seats,
            chi_square: chi,
            df,
            p_value: p,
            balance: balance(&rates),
            equivalence: (!j.cooperative).then(|| seat_verdict(t, count, j)),
            balance_interval: (!j.cooperative && !decided_by_cap(t.capped, t.games))
                .then(|| seat_balance(t, &rates, j)),
            capped: Capped {
                games: t.capped,
                share: t.capped as f64 / n,
                ci_low: lo,
                ci_high: hi,
                max_rounds,
                warn_above: CAPPED_WARN,
                warning: capped_warning(t.capped, t.games, max_rounds),
            },
            decided_by_cap: decided_by_cap(t.capped, t.games),
            shared_wins: t.shared as f64 / n,
            mean_rounds: t.rounds as f64 / n,
            mean_steps: t.steps as f64 / n,
            steps: t.steps,
        }
    }

    /// The win shares by seat.
    pub fn shares(&self) -> Vec<f64> {
        self.seats.iter().map(|s| s.win_share).collect()
    }
}

/// A cooperative game's team result, when only a resumed file's win shares give it.
#[derive(Debug, Clone, Serialize)]
pub struct Team {
    /// Share of games the team won.
    pub wins: f64,
    /// The Wilson 95% interval: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// How long the games took (this process).
#[derive(Debug, Clone, Serialize)]
pub struct Timing {
    /// Seconds.
    pub seconds: f64,
    /// Games a second.
    pub games_per_second: f64,
    /// Steps a second.
    pub steps_per_second: f64,
}

/// The part `seats` adds: the pairwise contrasts and the verdict, or why there is none.
#[derive(Debug, Clone, Serialize)]
pub struct SeatAnalysis {
    /// Why there is no analysis: a cooperative game, or the round cap decided the games.
    pub none: Option<String>,
    /// The contrasts and the verdict.
    pub contrasts: Option<ContrastReport>,
    /// What the contrasts cover, when that is not every game of the run.
    pub note: Option<String>,
}

/// The summary of `shifu play` and `shifu seats` (and of the Python batch API).
#[derive(Debug, Clone, Serialize)]
pub struct SeatSummary {
    /// The game.
    pub game: String,
    /// Seats at the table.
    pub players: usize,
    /// Games played (or read back on `--resume`).
    pub games: u64,
    /// The master seed.
    pub master_seed: u64,
    /// The agent specs by seat, before rotation.
    pub agents: Vec<String>,
    /// Whether the agents were rotated through the seats.
    pub rotate: bool,
    /// This shard, `k/n (games lo..hi)`, or none for a whole run.
    pub shard: Option<String>,
    /// Which card data the games used.
    pub data: String,
    /// Whether the seats win or lose together.
    pub cooperative: bool,
    /// The seat table and the test of equal chances.
    pub stats: SeatStats,
    /// A cooperative game's result when every game came from a resumed file.
    pub team: Option<Team>,
    /// The game's own summary lines, over the games played in this process.
    pub game_lines: Option<Vec<String>>,
    /// Games behind `game_lines`.
    pub game_lines_games: u64,
    /// The seat analysis (`shifu seats`).
    pub analysis: Option<SeatAnalysis>,
    /// How long the games took (not in the Python API).
    pub timing: Option<Timing>,
}

/// Balance corrected for the game count, as every seat summary prints it.
pub fn balance_line(b: &BalanceInterval, games: u64) -> String {
    format!(
        "balance corrected for {games} games {:.4} [95% CI {:.4}, {:.4}] (a perfectly fair game scores {:.4} on average at this count)",
        b.corrected, b.ci_low, b.ci_high, b.fair_game
    )
}

/// The settings of a run a summary names.
pub struct RunInfo<'a, G> {
    /// The game.
    pub game: &'a G,
    /// Each seat's agent spec (before rotation).
    pub specs: &'a [String],
    /// Whether the agents were rotated through the seats.
    pub rotate: bool,
    /// The master seed.
    pub seed: u64,
    /// `k/n (games lo..hi)`, or none for a whole run.
    pub shard: Option<String>,
    /// The equivalence margin of the verdict.
    pub margin: f64,
}

impl SeatSummary {
    /// The summary of the run `r` with totals `t`; `units`: the per-unit win shares of the
    /// games played here, for the verdict.
    pub fn new<G: Playable>(
        r: &RunInfo<'_, G>,
        t: &Tally<G::Stats>,
        units: Option<UnitShares<'_>>,
    ) -> SeatSummary {
        let seats = r.game.num_seats();
        let n = t.games as f64;
        let team = (G::INFO.cooperative && t.extra_games == 0).then(|| {
            let won: f64 = t.win[..seats].iter().sum();
            let (lo, hi) = wilson(won, n);
            Team {
                wins: won / n,
                ci_low: lo,
                ci_high: hi,
            }
        });
        let game_lines = (t.extra_games > 0)
            .then(|| r.game.summarize(&t.extra, t.extra_games, &wilson))
            .filter(|lines| !lines.is_empty());
        SeatSummary {
            game: r.game.name().to_string(),
            players: seats,
            games: t.games,
            master_seed: r.seed,
            agents: r.specs.to_vec(),
            rotate: r.rotate,
            shard: r.shard.clone(),
            data: r.game.data_label(),
            cooperative: G::INFO.cooperative,
            stats: SeatStats::new(
                t,
                r.specs,
                r.rotate,
                r.game.max_rounds(),
                &Judging {
                    margin: r.margin,
                    seed: r.seed,
                    cooperative: G::INFO.cooperative,
                    units,
                },
            ),
            team,
            game_lines,
            game_lines_games: t.extra_games,
            analysis: None,
            timing: None,
        }
    }

    /// Adds the seat analysis of `shifu seats` from the contrasts `c` of the games played here.
    pub fn analyse(&mut self, c: &mut Contrasts) {
        let st = &self.stats;
        let none = if self.cooperative {
            Some("none; in a cooperative game every seat shares the team's result".to_string())
        } else if st.decided_by_cap {
            Some(cap_decides(st.capped.games, st.games, st.capped.max_rounds))
        } else {
            None
        };
        if none.is_some() {
            self.analysis = Some(SeatAnalysis {
                none,
                contrasts: None,
                note: None,
            });
            return;
        }
        let played = c.units();
        let report = c.report();
        let per_unit = if self.rotate { self.players as u64 } else { 1 };
        let note = if played == 0 {
            Some("(no games were played in this process: the contrasts need the games themselves; rerun without --resume)".to_string())
        } else if c.units() * per_unit < st.games {
            Some("(the contrasts cover the games played since the resume)".to_string())
        } else {
            None
        };
        self.analysis = Some(SeatAnalysis {
            none: None,
            contrasts: Some(report),
            note,
        });
    }

    /// The headline and the seat table (a competitive game).
    fn fmt_seats(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let st = &self.stats;
        let max = st.capped.max_rounds;
        writeln!(f, "{}", capped_share(st.capped.games, st.games, max))?;
        if let Some(w) = &st.capped.warning {
            writeln!(f, "{w}")?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "seat  agent            win share   95% CI             mean rank  mean score"
        )?;
        for s in &st.seats {
            writeln!(
                f,
                "{:>4}  {:<16} {:>9.4}   [{:.4}, {:.4}]   {:>9.3}  {:>10.3}",
                s.seat, s.agent, s.win_share, s.ci_low, s.ci_high, s.mean_rank, s.mean_score
            )?;
        }
        writeln!(f)?;
        if st.decided_by_cap {
            writeln!(f, "{}", cap_decides(st.capped.games, st.games, max))?;
        } else {
            writeln!(
                f,
                "equal chances by seat: chi-square {:.2} on {} df, {}; balance (1 - largest gap) {:.4}{}",
                st.chi_square,
                st.df,
                p_value(st.p_value),
                st.balance,
                if self.rotate { "; agents rotated through the seats on each seed" } else { "" }
            )?;
            if let Some(b) = &st.balance_interval {
                writeln!(f, "{}", balance_line(b, st.games))?;
            }
            if let Some(e) = &st.equivalence {
                self.fmt_verdict(f, e)?;
            }
        }
        writeln!(
            f,
            "shared wins {:.2}%, mean rounds {:.1}, mean steps {:.1}",
            100.0 * st.shared_wins,
            st.mean_rounds,
            st.mean_steps
        )?;
        self.fmt_game_lines(f)
    }

    /// The verdict sentence, after a note on its units when they are not the table's.
    fn fmt_verdict(&self, f: &mut fmt::Formatter<'_>, e: &Equivalence) -> fmt::Result {
        if e.components
            .iter()
            .any(|c| c.label.starts_with("turn position"))
        {
            writeln!(
                f,
                "(the game draws its first start player, so the verdict is by turn position from it, not by seat)"
            )?;
        } else if self.rotate && e.games_per_unit == 1 {
            writeln!(
                f,
                "(the verdict takes the games as units: the per-seed shares cover only the games played since the resume)"
            )?;
        }
        writeln!(f, "{}", e.sentence())
    }

    /// A cooperative game's result: the team's, not a share per seat.
    fn fmt_team(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "a cooperative game: the {} seats win or lose together, so the result is the team's",
            self.players
        )?;
        writeln!(f)?;
        if let Some(t) = &self.team {
            writeln!(
                f,
                "team wins {:.3} [{:.3}, {:.3}] of {} games",
                t.wins, t.ci_low, t.ci_high, self.games
            )?;
        }
        self.fmt_game_lines(f)?;
        writeln!(
            f,
            "mean days played {:.2}, mean steps {:.1}",
            self.stats.mean_rounds, self.stats.mean_steps
        )
    }

    /// The game's own summary lines ([`shifu_engine::Present::summarize`]).
    fn fmt_game_lines(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(lines) = &self.game_lines {
            if self.game_lines_games < self.games {
                writeln!(
                    f,
                    "(the lines below cover the {} games played since the resume)",
                    self.game_lines_games
                )?;
            }
            for line in lines {
                writeln!(f, "{line}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for SeatAnalysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(why) = &self.none {
            return writeln!(f, "seat analysis: {why}");
        }
        if let Some(c) = &self.contrasts {
            write!(f, "{c}")?;
        }
        if let Some(note) = &self.note {
            writeln!(f, "{note}")?;
        }
        Ok(())
    }
}

/// The text `shifu play` and `shifu seats` print, line by line.
impl fmt::Display for SeatSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} with {} players, {} games, master seed {}, agents {}{}",
            self.game,
            self.players,
            self.games,
            self.master_seed,
            self.agents.join(" | "),
            self.shard
                .as_ref()
                .map_or(String::new(), |s| format!(", shard {s}"))
        )?;
        writeln!(f, "card data: {}", self.data)?;
        if self.cooperative {
            self.fmt_team(f)?;
        } else {
            self.fmt_seats(f)?;
        }
        if let Some(a) = &self.analysis {
            writeln!(f)?;
            write!(f, "{a}")?;
        }
        if let Some(t) = &self.timing {
            writeln!(
                f,
                "{:.1} s, {:.0} games/s, {:.0} steps/s",
                t.seconds, t.games_per_second, t.steps_per_second
            )?;
        }
        Ok(())
    }
}
