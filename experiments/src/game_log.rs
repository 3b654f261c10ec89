//! The game log of `shifu play --log FILE`: one JSON line per game, in game order, holding
//! everything `shifu replay --log FILE --row N` needs to play the game again (the parameters,
//! the seed, the agents by seat and every action taken) and the result it gave.

use crate::games::Playable;
use crate::runner::GameRow;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One game of a log.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogLine {
    /// The game's index in the run.
    pub game: u64,
    /// The game's name (`tofu-shifu`, ...).
    pub game_name: String,
    /// Seats at the table.
    pub players: usize,
    /// The parameter set's id (as in the play CSV's `param_set` column).
    pub param_set: String,
    /// The full parameters (TOML).
    pub params: String,
    /// The card data's source and status.
    pub data: String,
    /// FNV-1a 64 of the card data's contents (hex), as in a run's manifest.
    pub data_hash: String,
    /// The game's seed.
    pub seed: u64,
    /// The agent spec of each seat (rotated as the game was played).
    pub agents: Vec<String>,
    /// Each action taken, as its index in the legal list at that step.
    pub actions: Vec<u32>,
    /// Each action's name.
    pub names: Vec<String>,
    /// How the game ended.
    pub result: LogResult,
}

/// The result of a logged game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogResult {
    /// Each seat's score.
    pub score: Vec<f64>,
    /// Each seat's rank (1 = first).
    pub rank: Vec<u8>,
    /// The winning seats, from 1.
    pub winners: Vec<usize>,
    /// Whether the round cap ended the game.
    pub capped: bool,
    /// Rounds played.
    pub rounds: u32,
    /// Steps played.
    pub steps: u64,
}

/// What every line of one run's log shares: the parameters and data, and the specs by seat
/// before rotation.
pub struct LogContext<'a> {
    /// The parameter set's id.
    pub param_set: &'a str,
    /// The parameters (TOML).
    pub params: &'a str,
    /// The card data's label.
    pub data: &'a str,
    /// The card data's hash.
    pub data_hash: &'a str,
    /// The agent specs by seat, before rotation.
    pub specs: &'a [String],
}

impl LogLine {
    /// The log line of finished game `r` of `game` (`r` from a logged stream).
    pub fn new<G: Playable>(game: &G, r: &GameRow<G::Stats>, cx: &LogContext<'_>) -> LogLine {
        let seats = cx.specs.len();
        let o = &r.outcome;
        LogLine {
            game: r.index,
            game_name: game.name().to_string(),
            players: seats,
            param_set: cx.param_set.to_string(),
            params: cx.params.to_string(),
            data: cx.data.to_string(),
            data_hash: cx.data_hash.to_string(),
            seed: r.seed,
            agents: (0..seats)
                .map(|s| cx.specs[(s + seats - r.rotation) % seats].clone())
                .collect(),
            actions: r.actions.iter().map(|a| a.0).collect(),
            names: r.actions.iter().map(|a| a.1.clone()).collect(),
            result: LogResult {
                score: o.score[..seats].to_vec(),
                rank: o.rank[..seats].to_vec(),
                winners: (0..seats as u8)
                    .filter(|&s| o.is_winner(s))
                    .map(|s| usize::from(s) + 1)
                    .collect(),
                capped: o.capped,
                rounds: r.rounds,
                steps: r.steps,
            },
        }
    }

    /// Writes the line, with its newline.
    pub fn write(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer(&mut *w, self)?;
        w.write_all(b"\n")
    }
}

/// Line `row` (from 0) of the log `path`, checked to be a game log line. Errors name the file,
/// the line and the field.
pub fn read_line(path: &Path, row: u64) -> Result<LogLine> {
    use std::io::BufRead;
    let f = shifu_engine::files::open_input(path).context("reading a game log")?;
    let mut n = 0u64;
    for line in std::io::BufReader::new(f).lines() {
        let line = line.with_context(|| format!("{}: line {}", path.display(), n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        if n == row {
            let parsed: LogLine = serde_json::from_str(&line).map_err(|e| {
                anyhow::anyhow!(
                    "{}: line {} is not a game log line: {e}",
                    path.display(),
                    n + 1
                )
            })?;
            if parsed.actions.len() != parsed.names.len() {
                bail!(
                    "{}: line {}: field `names` has {} entries for {} actions",
                    path.display(),
                    n + 1,
                    parsed.names.len(),
                    parsed.actions.len()
                );
            }
            return Ok(parsed);
        }
        n += 1;
    }
    bail!(
        "{}: --row {row} is past the end: the log holds {n} games (rows 0 to {})",
        path.display(),
        n.saturating_sub(1)
    )
}
