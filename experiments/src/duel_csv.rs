//! `shifu duel --out`: one CSV row per game, so that two duels played on the same master seed
//! and seeds (the same opponent, another agent A) can be compared seed by seed: the seeds' luck
//! cancels in the difference (`results/paired_duels.py`).
//!
//! Columns: `players`, `master_seed`, `seed_index`, `seed` (the game's seed), `a_seat` (A's
//! seat, 1-based; empty in a cooperative game), `side` (whose result the row gives: `A`, or in
//! a cooperative game `B` for B's team's game of the seed), `win_share` (that side's share of
//! the win: 1/k in a k-way tie for first; cooperative: 1 for a win), `rank_score` (A's rank
//! reward from 0, last, to 1, first), `capped` (the round cap stopped the game: it decided
//! nothing) and `rounds`.

use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::path::Path;

/// One game of a duel, as its CSV row.
#[derive(Debug, Clone, Serialize)]
pub struct DuelRow {
    /// Seats at the table.
    pub players: usize,
    /// The duel's master seed.
    pub master_seed: u64,
    /// The seed's index, 0 to seeds - 1.
    pub seed_index: u64,
    /// The game's seed.
    pub seed: u64,
    /// A's seat, 1-based (None in a cooperative game).
    pub a_seat: Option<usize>,
    /// Whose result the row gives: "A", or "B" for B's team in a cooperative game.
    pub side: &'static str,
    /// That side's share of the win.
    pub win_share: f64,
    /// A's normalised rank reward (cooperative: the team's result).
    pub rank_score: f64,
    /// Whether the round cap stopped the game.
    pub capped: bool,
    /// Rounds played.
    pub rounds: u32,
}

/// Refuses an output path before any game is played: one that exists and is not a regular
/// file, or whose folder does not exist.
pub fn check_target(path: &Path) -> Result<()> {
    shifu_engine::files::check_output(path)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!(
                "{}: --out's folder {} does not exist",
                path.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// Writes the rows as CSV to `path`, atomically ([`shifu_engine::files::write_atomic`]).
pub fn write_duel_rows(path: &Path, rows: impl Iterator<Item = DuelRow>) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)
            .with_context(|| format!("{}: cannot encode a row", path.display()))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.error()))?;
    shifu_engine::files::write_atomic(path, &bytes)?;
    Ok(())
}
