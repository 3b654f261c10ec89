//! A balance run's progress, saved after every look and every finalist's validation (`FILE.race`
//! beside `--out`), so that `--resume` after a kill continues to the same result.
//!
//! The file is one JSON line (the run's fingerprint, the looks done, each setting's state) and
//! then every recorded number as little-endian `f32`, written atomically.

use super::objective::Games;
use super::race::{Elimination, Entry};
use super::BalanceArgs;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The progress file of an `--out` file.
pub fn path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".race");
    out.with_file_name(name)
}

/// What identifies a run: every option that changes its result (not threads, output or display).
pub fn fingerprint(a: &BalanceArgs) -> String {
    let text = format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}|{}|{}|{}|{:?}|{}|{}|{}",
        a.game.game,
        a.game.players,
        a.game.data,
        a.game.config,
        a.game.set,
        a.search,
        a.sum,
        a.objective,
        a.margin,
        a.error_rate,
        a.first_look,
        a.max_games,
        a.budget.map_or("default".into(), |b| b.to_string()),
        (&a.reference, &a.validate_agents, &a.strong, &a.weak),
        a.agents,
        a.finalists,
        a.validation_games,
    );
    format!("{}-seed{}", crate::hash::fnv_hex(&text), a.seed)
}

/// A run's state: the race's settings and the finalists validated so far.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Every setting.
    pub entries: Vec<Entry>,
    /// Looks finished.
    pub looks_done: usize,
    /// Games the race played.
    pub spent: u64,
    /// Why the race stopped, once it has.
    pub stop: Option<String>,
    /// The finalists' validation games, finalist by finalist.
    pub validated: Vec<Games>,
}

impl State {
    /// A fresh run over settings at these distances.
    pub fn new(distances: &[f64]) -> State {
        State {
            entries: super::fresh_entries(distances),
            ..State::default()
        }
    }
}

const FORMAT: &str = "shifu-balance-progress 1";

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    fingerprint: String,
    looks_done: usize,
    spent: u64,
    stop: Option<String>,
    entries: Vec<EntryHeader>,
    validated: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
struct EntryHeader {
    played: u64,
    estimate: Vec<f64>,
    out: Option<Elimination>,
    numbers: u64,
}

/// Saves the state atomically.
pub fn save(path: &Path, fingerprint: &str, s: &State) -> Result<()> {
    let header = Header {
        format: FORMAT.into(),
        fingerprint: fingerprint.into(),
        looks_done: s.looks_done,
        spent: s.spent,
        stop: s.stop.clone(),
        entries: s
            .entries
            .iter()
            .map(|e| EntryHeader {
                played: e.played,
                estimate: e.estimate.clone(),
                out: e.out.clone(),
                numbers: e.games.data.len() as u64,
            })
            .collect(),
        validated: s.validated.iter().map(|g| g.data.len() as u64).collect(),
    };
    let mut bytes = serde_json::to_vec(&header)?;
    bytes.push(b'\n');
    for g in s.entries.iter().map(|e| &e.games).chain(&s.validated) {
        for x in &g.data {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    shifu_engine::files::write_atomic(path, &bytes)?;
    saved();
    Ok(())
}

/// Counts a save of progress (a progress file, or a shard's part) for the [`KILL_AFTER`] hook.
pub fn saved() {
    static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let saves = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
    if std::env::var(KILL_AFTER).ok().and_then(|v| v.parse().ok()) == Some(saves) {
        crate::runner::kill_self();
    }
}

/// A test hook: with `SHIFU_TEST_KILL_BALANCE_AFTER=N`, the run kills itself (SIGKILL) right
/// after saving its progress (or, in a sharded run, its part) for the N-th time, as a kill from
/// outside would.
pub const KILL_AFTER: &str = "SHIFU_TEST_KILL_BALANCE_AFTER";

/// Loads a saved state, checking that it belongs to this run.
pub fn load(path: &Path, fingerprint: &str, settings: usize, columns: usize) -> Result<State> {
    let bytes = shifu_engine::files::read_bytes(path)?;
    let bad = |why: &str| {
        anyhow::anyhow!(
            "{}: not a balance progress file of this run: {why}",
            path.display()
        )
    };
    let nl = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| bad("no header line"))?;
    let header: Header = serde_json::from_slice(&bytes[..nl])
        .with_context(|| format!("{}: the header", path.display()))?;
    if header.format != FORMAT {
        return Err(bad("another format"));
    }
    if header.fingerprint != fingerprint {
        bail!(
            "{}: the progress of a run with other options; run the same command with --resume, or remove the file to start again",
            path.display()
        );
    }
    if header.entries.len() != settings {
        return Err(bad("another number of settings"));
    }
    // Every setting still in the race after a look has its objectives' estimates (the race
    // ranks them), and an elimination names a setting that exists.
    let objectives = header
        .entries
        .iter()
        .map(|e| e.estimate.len())
        .max()
        .unwrap_or(0);
    if header.looks_done > 0
        && header
            .entries
            .iter()
            .any(|e| e.out.is_none() && (e.estimate.is_empty() || e.estimate.len() != objectives))
    {
        return Err(bad("a setting without its estimates"));
    }
    if header
        .entries
        .iter()
        .any(|e| e.out.as_ref().is_some_and(|o| o.by >= settings))
    {
        return Err(bad("an elimination by a setting that does not exist"));
    }
    let mut rest = &bytes[nl + 1..];
    let mut take = |n: u64| -> Result<Games> {
        let len = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(4))
            .ok_or_else(|| bad("a count out of range"))?;
        if rest.len() < len || (columns > 0 && !(n as usize).is_multiple_of(columns)) {
            return Err(bad("truncated numbers"));
        }
        let data = rest[..len]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        rest = &rest[len..];
        Ok(Games { columns, data })
    };
    let mut entries = Vec::with_capacity(settings);
    for e in &header.entries {
        let games = take(e.numbers)?;
        entries.push(Entry {
            played: e.played,
            estimate: e.estimate.clone(),
            out: e.out.clone(),
            distance: 0.0,
            games,
        });
    }
    let validated = header
        .validated
        .iter()
        .map(|&n| take(n))
        .collect::<Result<Vec<_>>>()?;
    if !rest.is_empty() {
        return Err(bad("trailing bytes"));
    }
    Ok(State {
        entries,
        looks_done: header.looks_done,
        spent: header.spent,
        stop: header.stop,
        validated,
    })
}
