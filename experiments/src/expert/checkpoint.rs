//! The run's files in `--out`: `checkpoint.json` (the settings, one row per finished iteration,
//! and the names of the state files), the state files under `state/` (the incumbent's and
//! candidate's weights, the replay buffer), each written atomically and named for the
//! iteration, and `checkpoint.json` written last: a run killed at any point resumes from the
//! last complete iteration. Training starts every iteration from the candidate with a fresh
//! optimiser, so nothing else is needed to continue exactly.

use super::buffer::Buffer;
use super::selfplay::{CappedValue, SampleBy, ValueTarget};
use super::warm::Warm;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use shifu_engine::files::write_atomic;
use shifu_net::Weights;
use std::path::Path;

/// What a checkpoint's `format` says.
pub const FORMAT: &str = "shifu-expert-iteration";

/// The settings a resumed run must share with its checkpoint (all but `--generations`,
/// `--threads` and the output options).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub game: String,
    pub players: usize,
    pub params: String,
    pub games: u64,
    pub search_iters: u32,
    pub c_puct: f32,
    pub explore: u32,
    pub buffer: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    pub hidden: usize,
    pub blocks: usize,
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub gate_games: u64,
    pub eval_games: u64,
    pub seed: u64,
    /// Checkpoints written before this setting existed scored capped games by their ranks.
    #[serde(default = "ranks")]
    pub capped_value: CappedValue,
    #[serde(default)]
    pub warm_agent: Option<String>,
    #[serde(default)]
    pub warm_games: u64,
    #[serde(default)]
    pub warm_epochs: usize,
    #[serde(default)]
    pub warm_every: u32,
    /// Checkpoints written before this setting existed kept every decision.
    #[serde(default = "one")]
    pub sample_every: u32,
    /// Checkpoints written before this setting existed counted over all seats in turn order.
    #[serde(default = "by_game")]
    pub sample_by: SampleBy,
    /// `--search-options` as given (empty: none; checkpoints from before it had none).
    #[serde(default)]
    pub search_options: String,
    /// `--value-target` (checkpoints from before it trained on results).
    #[serde(default)]
    pub value_target: ValueTarget,
}

fn one() -> u32 {
    1
}

fn by_game() -> SampleBy {
    SampleBy::Game
}

fn ranks() -> CappedValue {
    CappedValue::Ranks
}

/// One iteration, as in `curve.csv`. Elo figures are differences with 95% intervals; the
/// greedy columns are empty without `--eval-games`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Row {
    pub iteration: usize,
    /// Positions in the replay buffer after this iteration's self-play.
    pub positions: usize,
    pub policy_loss: f64,
    pub value_loss: f64,
    /// Training steps whose loss was NaN or infinite (skipped).
    pub nan_steps: u64,
    pub gate_games: u64,
    pub gate_score: f64,
    /// The candidate's Elo against the incumbent, from the gate games.
    pub gate_elo: f64,
    pub gate_lo: f64,
    pub gate_hi: f64,
    pub llr: f64,
    /// `H1`, `H0` or `cap`.
    pub verdict: String,
    pub accepted: bool,
    /// Networks accepted so far.
    pub accepted_total: usize,
    /// The incumbent's Elo against the first network: the accepted gates' Elo summed, their
    /// variances too (a chained estimate, optimistic by selection).
    pub elo_vs_first: f64,
    pub elo_vs_first_lo: f64,
    pub elo_vs_first_hi: f64,
    pub greedy_games: u64,
    pub greedy_score: Option<f64>,
    /// The incumbent's Elo against `greedy`.
    pub greedy_elo: Option<f64>,
    pub greedy_lo: Option<f64>,
    pub greedy_hi: Option<f64>,
    /// Share of self-play time outside the network (game, encoding, tree).
    pub game_share: f64,
    pub selfplay_s: f64,
    pub elapsed_s: f64,
    /// Self-play games of this iteration, and of them those the round cap stopped.
    #[serde(default)]
    pub selfplay_games: u64,
    #[serde(default)]
    pub selfplay_capped: u64,
    /// Gate games the round cap stopped (each scored 1/n).
    #[serde(default)]
    pub gate_capped: u64,
    /// Games against greedy the round cap stopped (each scored 1/n).
    #[serde(default)]
    pub greedy_capped: u64,
    /// Of the self-play time, the share spent encoding positions for the network (part of
    /// `game_share`; 0 in checkpoints from before it was measured).
    #[serde(default)]
    pub encode_share: f64,
}

/// A run's state between iterations.
pub struct State {
    pub incumbent: Weights,
    pub candidate: Weights,
    pub buffer: Buffer,
    pub rows: Vec<Row>,
    /// The warm start, when the run had one.
    pub warm: Option<Warm>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Checkpoint {
    format: String,
    settings: Settings,
    rows: Vec<Row>,
    incumbent: String,
    candidate: String,
    buffer: String,
    #[serde(default)]
    warm: Option<Warm>,
}

/// Writes the state after its last row's iteration, then the user-facing copies
/// (`incumbent.safetensors`, `candidate.safetensors`), then drops older state files.
pub fn save(out: &Path, settings: &Settings, s: &State) -> Result<()> {
    let it = s.rows.len();
    std::fs::create_dir_all(out.join("state"))
        .with_context(|| format!("cannot create {}", out.join("state").display()))?;
    let c = Checkpoint {
        format: FORMAT.into(),
        settings: settings.clone(),
        rows: s.rows.clone(),
        incumbent: format!("state/incumbent-{it}.safetensors"),
        candidate: format!("state/candidate-{it}.safetensors"),
        buffer: format!("state/buffer-{it}.safetensors"),
        warm: s.warm.clone(),
    };
    s.incumbent.save(&out.join(&c.incumbent))?;
    s.candidate.save(&out.join(&c.candidate))?;
    write_atomic(&out.join(&c.buffer), &s.buffer.to_bytes())?;
    write_atomic(
        &out.join("checkpoint.json"),
        serde_json::to_string_pretty(&c)?.as_bytes(),
    )?;
    s.incumbent.save(&out.join("incumbent.safetensors"))?;
    s.candidate.save(&out.join("candidate.safetensors"))?;
    let keep =
        [&c.incumbent, &c.candidate, &c.buffer].map(|n| n.trim_start_matches("state/").to_string());
    if let Ok(dir) = std::fs::read_dir(out.join("state")) {
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".safetensors") && !keep.contains(&name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    Ok(())
}

/// The settings that differ, as flags: `--lr 0.001 (this run: 0.5)`.
fn differences(was: &Settings, now: &Settings) -> String {
    let (a, b) = (serde_json::to_value(was), serde_json::to_value(now));
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) = (a, b) else {
        return format!("{was:?}");
    };
    let flag = |k: &str| match k {
        "games" => "--games".to_string(),
        "gate_games" => "--duel-games".to_string(),
        "search_iters" => "--search-iters".to_string(),
        k => format!("--{}", k.replace('_', "-")),
    };
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(*v))
        .map(|(k, v)| {
            format!(
                "{} {v} (this run: {})",
                flag(k),
                b.get(k).unwrap_or(&serde_json::Value::Null)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The state of a resumed run from `out/checkpoint.json`, every file checked against
/// `settings`; `empty` is the shape of this run's buffer.
pub fn load(out: &Path, settings: &Settings, empty: &Buffer) -> Result<State> {
    let path = out.join("checkpoint.json");
    let text =
        shifu_engine::files::read_text(&path).context("--resume: cannot read the checkpoint")?;
    let c: Checkpoint = serde_json::from_str(&text)
        .ok()
        .filter(|c: &Checkpoint| c.format == FORMAT)
        .with_context(|| {
            format!(
                "{}: not an expert-iteration checkpoint of shifu train",
                path.display()
            )
        })?;
    let (g, w) = (&c.settings, settings);
    if (g.game.as_str(), g.players, g.params.as_str())
        != (w.game.as_str(), w.players, w.params.as_str())
    {
        bail!(
            "{}: a checkpoint of {} at {} players ({}); this run is {} at {} players ({})",
            path.display(),
            g.game,
            g.players,
            g.params,
            w.game,
            w.players,
            w.params
        );
    }
    if g != w {
        bail!(
            "{}: written with other settings ({}); resume with the same ones",
            path.display(),
            differences(g, w)
        );
    }
    let file = |name: &str| -> Result<std::path::PathBuf> {
        if !name.starts_with("state/") || name.contains("..") {
            bail!(
                "{}: state file `{name}` is not under state/",
                path.display()
            );
        }
        Ok(out.join(name))
    };
    let weights = |name: &str| -> Result<Weights> {
        let p = file(name)?;
        let w = Weights::load(&p)?;
        if (
            w.config.game.as_str(),
            w.config.players,
            w.config.hidden,
            w.config.blocks,
        ) != (
            settings.game.as_str(),
            settings.players,
            settings.hidden,
            settings.blocks,
        ) {
            bail!(
                "{}: a network of another game or shape than this run's",
                p.display()
            );
        }
        Ok(w)
    };
    Ok(State {
        incumbent: weights(&c.incumbent)?,
        candidate: weights(&c.candidate)?,
        buffer: empty.load_like(&file(&c.buffer)?)?,
        rows: c.rows,
        warm: c.warm,
    })
}
