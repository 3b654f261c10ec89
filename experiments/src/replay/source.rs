//! Where a replayed game comes from: a seed and agents, a row of a play CSV, or a line of a
//! game log, read and checked into one [`Plan`]. Errors name the file and the field.

use super::ReplayArgs;
use crate::game_log::read_line;
use anyhow::{bail, Context, Result};
use std::path::Path;

/// One game to replay.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The game's name.
    pub game: String,
    /// Seats, when the source fixes it.
    pub players: Option<usize>,
    /// The parameters (TOML) a file gives; none: from the command line.
    pub params: Option<String>,
    /// The parameter-set id the built game must have, and the file and field that give it.
    pub param_set: Option<(String, String)>,
    /// The card data hash the built game must have, and the file that gives it.
    pub data_hash: Option<(String, String)>,
    /// The game's seed.
    pub seed: u64,
    /// The agent specs: one for all seats or one per seat (comma-separated), or by seat.
    pub agents: Agents,
    /// The actions to take (index and name) with the file they come from: a log's.
    pub actions: Option<(Vec<(u32, String)>, String)>,
    /// Where the game came from, in words.
    pub origin: String,
}

/// The agents of a replay.
#[derive(Debug, Clone)]
pub enum Agents {
    /// The `--agents` option's text.
    Option(String),
    /// One spec per seat, from a file.
    BySeat(Vec<String>),
}

/// The game `args` names, checked.
pub fn plan(args: &ReplayArgs) -> Result<Plan> {
    if args.top == 0 {
        bail!("--top must be at least 1");
    }
    let from_file = args.from.is_some() || args.log.is_some();
    if from_file && (!args.set.is_empty() || args.config.is_some()) {
        bail!("--set and --config do not apply to --from or --log: the file holds the parameters");
    }
    if from_file && args.row.is_none() {
        bail!("--from and --log need --row N (which game of the file, from 0)");
    }
    if !from_file && args.row.is_some() {
        bail!("--row needs --from FILE or --log FILE");
    }
    let plan = match (&args.from, &args.log) {
        (Some(path), _) => from_csv(path, args.row.unwrap_or(0))?,
        (None, Some(path)) => from_log(path, args.row.unwrap_or(0))?,
        (None, None) => {
            let seed = args
                .seed
                .context("give the game: --seed S (with --game, --players, --agents), --from FILE --row N or --log FILE --row N")?;
            Plan {
                game: args.game.clone().unwrap_or_else(|| "tofu-shifu".into()),
                players: None,
                params: None,
                param_set: None,
                data_hash: None,
                seed,
                agents: Agents::Option(args.agents.clone()),
                actions: None,
                origin: format!("seed {seed}, agents {}", args.agents),
            }
        }
    };
    if let (Some(g), true) = (&args.game, from_file) {
        if *g != plan.game {
            bail!(
                "{}: field game_name is `{}` but --game says `{g}`",
                plan.origin,
                plan.game
            );
        }
    }
    if let (Some(p), Some(n)) = (args.players, plan.players) {
        if usize::from(p) != n {
            bail!(
                "{}: field players is {n} but --players says {p}",
                plan.origin
            );
        }
    }
    Ok(plan)
}

/// Row `row` (from 0) of the play CSV `path`, with the parameters from its manifest.
fn from_csv(path: &Path, row: u64) -> Result<Plan> {
    let f = shifu_engine::files::open_input(path).context("reading a play CSV")?;
    let mut r = csv::Reader::from_reader(f);
    let header = r
        .headers()
        .with_context(|| format!("{}: no CSV header", path.display()))?
        .clone();
    let mut found = None;
    for (i, rec) in r.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: row {i}", path.display()))?;
        if i as u64 == row {
            found = Some(rec);
            break;
        }
    }
    let Some(rec) = found else {
        bail!(
            "{}: --row {row} is past the end of the file's games",
            path.display()
        );
    };
    let at = format!("{} row {row}", path.display());
    let fields = crate::row::Row::read(&rec, &header)
        .with_context(|| format!("{at}: not a play CSV row"))?;
    let agents: Vec<String> = fields.agents.split('|').map(str::to_string).collect();
    if agents.len() != fields.players {
        bail!(
            "{at}: field agents names {} agents for {} players",
            agents.len(),
            fields.players
        );
    }
    let manifest = crate::runfile::read_manifest(path);
    let (params, data_hash) = match &manifest {
        Some(m) => (
            Some(m.params.clone()),
            (!m.data_hash.is_empty()).then(|| {
                (
                    m.data_hash.clone(),
                    crate::runfile::manifest_path(path).display().to_string(),
                )
            }),
        ),
        None => (None, None),
    };
    Ok(Plan {
        game: fields.game_name.clone(),
        players: Some(fields.players),
        params,
        param_set: Some((fields.param_set.clone(), format!("{at}: field param_set"))),
        data_hash,
        seed: fields.seed,
        agents: Agents::BySeat(agents),
        actions: None,
        origin: at,
    })
}

/// Line `row` (from 0) of the game log `path`.
fn from_log(path: &Path, row: u64) -> Result<Plan> {
    let line = read_line(path, row)?;
    let at = format!("{} line {}", path.display(), row + 1);
    if line.agents.len() != line.players {
        bail!(
            "{at}: field agents names {} agents for {} players",
            line.agents.len(),
            line.players
        );
    }
    Ok(Plan {
        game: line.game_name.clone(),
        players: Some(line.players),
        params: Some(line.params.clone()),
        param_set: Some((line.param_set.clone(), format!("{at}: field param_set"))),
        data_hash: Some((line.data_hash.clone(), at.clone())),
        seed: line.seed,
        agents: Agents::BySeat(line.agents.clone()),
        actions: Some((
            line.actions
                .iter()
                .copied()
                .zip(line.names.iter().cloned())
                .collect(),
            at.clone(),
        )),
        origin: at,
    })
}
