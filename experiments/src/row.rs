//! The columns of a run file (`shifu play --out`, `shifu.play_csv`): one schema that writes the
//! rows, reads them back (`--resume`, `shifu report`) and names the text columns for the Python
//! DataFrame.
//!
//! The columns, in order: `game, seed, game_name, players, agents, param_set`, then per seat
//! `score_s`, `rank_s` and the game's two counts ([`shifu_engine::Present::COUNTS`]), then
//! `winners, rounds, steps, capped` and the game's events ([`shifu_engine::Present::EVENTS`]).

use crate::runner::GameRow;
use crate::tally::Tally;
use anyhow::{Context, Result};
use serde::Deserialize;
use shifu_engine::present::Event;

/// The columns holding text; every other column is a number or `true`/`false` (the dtypes of the
/// Python DataFrame).
pub const TEXT_COLUMNS: [&str; 4] = ["game_name", "agents", "param_set", "winners"];

/// The columns of one game's run file.
#[derive(Clone, Copy)]
pub struct Columns<'a> {
    /// Seats at the table.
    pub seats: usize,
    /// The names of the game's two per-seat counts.
    pub counts: [&'a str; 2],
    /// The names of the game's events.
    pub events: &'a [Event],
}

impl Columns<'_> {
    /// The header row.
    pub fn header(&self) -> Vec<String> {
        let mut h: Vec<String> = [
            "game",
            "seed",
            "game_name",
            "players",
            "agents",
            "param_set",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        for what in ["score", "rank", self.counts[0], self.counts[1]] {
            for s in 1..=self.seats {
                h.push(format!("{what}_{s}"));
            }
        }
        for x in ["winners", "rounds", "steps", "capped"] {
            h.push(x.to_string());
        }
        h.extend(self.events.iter().map(|x| x.column.to_string()));
        h
    }

    /// A game's CSV record. Fields are formatted through one reused buffer into the record's
    /// single buffer: a row of `shifu play --out` costs a few allocations, not one per field.
    pub fn record<S>(
        &self,
        r: &GameRow<S>,
        game: &str,
        agents: &str,
        param_set: &str,
    ) -> csv::StringRecord {
        let (seats, events) = (self.seats, self.events.len());
        use std::fmt::Write;
        let o = &r.outcome;
        let mut v = csv::StringRecord::new();
        let mut field = String::new();
        let mut push = |v: &mut csv::StringRecord, x: &dyn std::fmt::Display| {
            field.clear();
            // Writing to a String cannot fail.
            let _ = write!(field, "{x}");
            v.push_field(&field);
        };
        push(&mut v, &r.index);
        push(&mut v, &r.seed);
        v.push_field(game);
        push(&mut v, &seats);
        v.push_field(agents);
        v.push_field(param_set);
        for s in 0..seats {
            push(&mut v, &o.score[s]);
        }
        for s in 0..seats {
            push(&mut v, &o.rank[s]);
        }
        for count in &r.counts {
            for c in &count[..seats] {
                push(&mut v, c);
            }
        }
        let mut winners = String::new();
        for s in (0..seats as u8).filter(|&s| o.is_winner(s)) {
            let sep = if winners.is_empty() { "" } else { "|" };
            // Writing to a String cannot fail.
            let _ = write!(winners, "{sep}{}", s + 1);
        }
        v.push_field(&winners);
        push(&mut v, &r.rounds);
        push(&mut v, &r.steps);
        push(&mut v, &o.capped);
        for e in &r.events[..events] {
            match e {
                Some(x) => push(&mut v, x),
                None => v.push_field(""),
            }
        }
        v
    }
}

/// The columns every run file has, read by name (serde) from any game's file.
#[derive(Debug, Deserialize)]
pub struct Row {
    /// The game's index in the run.
    pub game: u64,
    /// Its seed.
    pub seed: u64,
    /// The game's name.
    pub game_name: String,
    /// Seats at the table.
    pub players: usize,
    /// The agent specs by seat, `|`-separated.
    pub agents: String,
    /// The parameter set's hash.
    pub param_set: String,
    /// The winning seats (from 1), `|`-separated.
    pub winners: String,
    /// Rounds played.
    pub rounds: u32,
    /// Steps played.
    pub steps: u64,
    /// Whether the round cap stopped the game.
    pub capped: bool,
}

impl Row {
    /// Reads the columns every run file has from `rec`, by the names in `header`.
    pub fn read(rec: &csv::StringRecord, header: &csv::StringRecord) -> Result<Row> {
        rec.deserialize(Some(header))
            .map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// The winning seats, 0-based.
    pub fn winner_seats(&self) -> Result<Vec<usize>> {
        self.winners
            .split('|')
            .filter(|x| !x.is_empty())
            .map(|x| match x.parse::<usize>() {
                Ok(s) if (1..=self.players).contains(&s) => Ok(s - 1),
                _ => anyhow::bail!("bad winners `{}`", self.winners),
            })
            .collect()
    }

    /// The game's winners as an outcome (scores and ranks left at zero): what a win share needs.
    pub fn outcome(&self) -> Result<shifu_engine::Outcome> {
        if self.players > shifu_engine::MAX_SEATS {
            anyhow::bail!(
                "players {}: at most {} seats",
                self.players,
                shifu_engine::MAX_SEATS
            );
        }
        let mut winners = 0u8;
        for s in self.winner_seats()? {
            winners |= 1 << s;
        }
        Ok(shifu_engine::Outcome {
            seats: self.players as u8,
            score: [0.0; shifu_engine::MAX_SEATS],
            rank: [0; shifu_engine::MAX_SEATS],
            winners,
            capped: self.capped,
            team_score: None,
        })
    }

    /// Adds this game to `t`, with its per-seat scores and ranks read from `rec`.
    pub fn add_to<S>(
        &self,
        t: &mut Tally<S>,
        rec: &csv::StringRecord,
        header: &csv::StringRecord,
    ) -> Result<()> {
        let winners = self.winner_seats()?;
        t.games += 1;
        for s in 0..self.players {
            t.score[s] += seat_number(rec, header, "score", s)?;
            t.rank[s] += seat_number(rec, header, "rank", s)?;
            if winners.contains(&s) {
                t.win[s] += 1.0 / winners.len() as f64;
            }
        }
        t.shared += (winners.len() > 1) as u64;
        t.rounds += u64::from(self.rounds);
        t.rounds_sq += f64::from(self.rounds).powi(2);
        t.steps += self.steps;
        t.capped += self.capped as u64;
        Ok(())
    }
}

/// Seat `s`'s (0-based) value in column `{what}_{s+1}`.
fn seat_number(
    rec: &csv::StringRecord,
    header: &csv::StringRecord,
    what: &str,
    s: usize,
) -> Result<f64> {
    let name = format!("{what}_{}", s + 1);
    let i = header
        .iter()
        .position(|h| h == name)
        .with_context(|| format!("no column {name}"))?;
    rec.get(i)
        .context("short row")?
        .parse::<f64>()
        .with_context(|| format!("bad number in {name}"))
}
