//! `shifu play` and `shifu seats`: many games in parallel, then the win rates by seat (and for
//! `seats` the pairwise contrasts and a verdict) as text or JSON. The games come from the
//! [runner](crate::runner), the file's columns from the [row schema](crate::row), the summary
//! from [`SeatSummary`].

use crate::games::Playable;
use crate::row::Columns;
use crate::runfile::{fnv_hex, EventColumn, Manifest, RunFile};
use crate::seats::Contrasts;
use crate::setup::{GameArgs, RunArgs, VerdictArgs};
use crate::summary::{position_units, start_event, RunInfo, SeatSummary, Timing};
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};

pub use crate::runner::{
    checked_specs, play_stream, progress_bar, seat_specs, split_specs, GameRow,
};
pub use crate::tally::Tally;

/// Options of `shifu play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    verdict: VerdictArgs,
    /// Write one CSV row per game to this file (via FILE.tmp, renamed when complete), with a
    /// manifest FILE.manifest.json beside it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write one JSON line per game to this file, in game order: the seed, the agents by seat,
    /// the parameters and every action taken (index and name), and the result; `shifu replay
    /// --log FILE --row N` replays one. Written through a temporary file renamed when complete.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Continue a killed run from FILE.tmp (same settings), losing and repeating no game.
    #[arg(long)]
    resume: bool,
    /// Play one slice of the games: k/n with 0 <= k < n.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Shard count, with k taken from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "N")]
    shard_count: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Seconds between saves of the finished rows of `shifu play --out`.
const SAVE_SECONDS: f64 = 2.0;

/// Most finished rows held before a save, whatever the time since the last one: fast games
/// (hundreds of thousands a second) would otherwise hold two seconds of rows in memory.
const SAVE_ROWS: usize = 4096;

/// `shifu play`: the games and the win shares by seat.
pub fn run(args: PlayArgs) -> Result<()> {
    let summary = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args, false))?;
    crate::render::emit(&summary, args.json)
}

/// `shifu seats`: `play` with the seat analysis added (pairwise contrasts and a verdict).
pub fn run_seats(args: PlayArgs) -> Result<()> {
    let summary = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args, true))?;
    crate::render::emit(&summary, args.json)
}

/// The parameter set's id: the first 8 hex digits of the parameters' hash.
fn param_set(params: &str) -> String {
    fnv_hex(params)[..8].to_string()
}

/// The columns of game `G`'s run file at `seats` seats.
fn columns<G: Playable>(seats: usize) -> Columns<'static> {
    Columns {
        seats,
        counts: G::COUNTS,
        events: G::EVENTS,
    }
}

/// A game's CSV row, its `agents` column the specs by seat, rotated as the game was.
fn game_record<G: Playable>(
    game: &G,
    r: &GameRow<G::Stats>,
    specs: &[String],
    param_set: &str,
) -> csv::StringRecord {
    let seats = specs.len();
    let agents = (0..seats)
        .map(|s| specs[(s + seats - r.rotation) % seats].as_str())
        .collect::<Vec<_>>()
        .join("|");
    columns::<G>(seats).record(r, game.name(), &agents, param_set)
}

/// Plays the run `args` describes (the shard of it, from where a resumed file ends), writes its
/// file, and returns the summary (with the seat analysis when `analyse`).
fn run_game<G: Playable>(args: &PlayArgs, analyse: bool) -> Result<SeatSummary> {
    let game: G = args.game.build()?;
    let seats = game.num_seats();
    let specs = checked_specs(&game, &args.run)?;
    let shard = crate::runner::shard(args.shard.as_deref(), args.shard_count, args.run.games)?;
    let (lo, hi) = (shard.0, shard.1);
    let param_set = param_set(&game.params_toml());
    if args.log.is_some() && args.resume {
        bail!("--log with --resume: a log holds whole runs; play the run again with --log");
    }
    let mut tally = Tally::default();
    let mut out = match &args.out {
        Some(path) => Some(open_output(&game, args, &specs, &shard, path, &mut tally)?),
        None if args.resume => bail!("--resume needs --out"),
        None => None,
    };
    let start = out.as_ref().map_or(lo, |o| o.file.next);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.run.threads.unwrap_or(0))
        .build()?;
    let bar = progress_bar(hi - lo, args.quiet);
    bar.set_position(start - lo);
    let started = std::time::Instant::now();
    let mut contrasts = Contrasts::new(seats, args.run.rotate);
    let mut positions = position_units(G::EVENTS, seats, args.run.rotate);
    let mut done = start;
    let (seed, rotate) = (args.run.seed, args.run.rotate);
    let (params, data, data_hash) = (
        game.params_toml(),
        game.data_label(),
        fnv_hex(&game.data_text()),
    );
    let log_cx = crate::game_log::LogContext {
        param_set: &param_set,
        params: &params,
        data: &data,
        data_hash: &data_hash,
        specs: &specs,
    };
    let mut on_game = |r: GameRow<G::Stats>, log: Option<&mut dyn std::io::Write>| {
        tally.add(&r, seats);
        contrasts.add(r.index, &r.outcome);
        if let Some(p) = positions.as_mut() {
            p.add(r.index, &r.outcome, first_start::<G>(&r));
        }
        done += 1;
        if let Some(o) = out.as_mut() {
            o.push(game_record(&game, &r, &specs, &param_set), done == hi)?;
        }
        if let Some(w) = log {
            crate::game_log::LogLine::new(&game, &r, &log_cx).write(w)?;
        }
        bar.set_position(done - lo);
        Ok(())
    };
    match &args.log {
        None => play_stream(&game, &specs, seed, rotate, start..hi, &pool, |r| {
            on_game(r, None)
        })?,
        Some(path) => {
            let mut failed = None;
            let written = shifu_engine::files::write_atomic_with(path, |w| {
                crate::runner::play_stream_logged(
                    &game,
                    &specs,
                    seed,
                    rotate,
                    start..hi,
                    &pool,
                    |r| on_game(r, Some(&mut *w)),
                )
                .map_err(|e| {
                    let message = format!("{e:#}");
                    failed = Some(e);
                    std::io::Error::other(message)
                })
            });
            if let Err(e) = written {
                return Err(failed.unwrap_or_else(|| e.into()));
            }
        }
    }
    bar.finish_and_clear();
    if let Some(o) = out.take() {
        o.file.finish()?;
    }
    let secs = started.elapsed().as_secs_f64();
    let info = RunInfo {
        game: &game,
        specs: &specs,
        rotate,
        seed,
        shard: (shard.2 != "0/1").then(|| format!("{} (games {lo}..{hi})", shard.2)),
        margin: args.verdict.margin,
    };
    let units = match positions.as_mut() {
        Some(p) => p.shares(),
        None => contrasts.seat_units().shares(),
    };
    let mut summary = SeatSummary::new(&info, &tally, Some(units));
    if analyse {
        summary.analyse(&mut contrasts);
    }
    summary.timing = Some(Timing {
        seconds: secs,
        games_per_second: tally.games as f64 / secs,
        steps_per_second: tally.steps as f64 / secs,
    });
    Ok(summary)
}

/// Game `r`'s first start player (0-based) where the game draws one ([`start_event`]), else 0.
pub fn first_start<G: Playable>(r: &GameRow<G::Stats>) -> usize {
    start_event(G::EVENTS)
        .and_then(|i| r.events[i])
        .map_or(0, crate::summary::start_seat)
}

/// The run file of `shifu play --out` and the rows waiting to be saved. Rows reach the file
/// every two seconds (and at the end), however slow the agents: a kill loses at most the games
/// in flight and those finished since the last save.
struct Output {
    file: RunFile,
    batch: Vec<csv::StringRecord>,
    saved: std::time::Instant,
}

impl Output {
    /// Adds a row, saving the rows held when it is time (or when `last`).
    fn push(&mut self, row: csv::StringRecord, last: bool) -> Result<()> {
        self.batch.push(row);
        if self.batch.len() >= SAVE_ROWS
            || self.saved.elapsed().as_secs_f64() >= SAVE_SECONDS
            || last
        {
            self.file.append(&self.batch)?;
            self.batch.clear();
            self.saved = std::time::Instant::now();
        }
        Ok(())
    }
}

/// Opens the run file at `path` with its manifest; on `--resume`, the rows already there are
/// added to `tally`.
fn open_output<G: Playable>(
    game: &G,
    args: &PlayArgs,
    specs: &[String],
    shard: &(u64, u64, String),
    path: &Path,
    tally: &mut Tally<G::Stats>,
) -> Result<Output> {
    let seats = game.num_seats();
    let manifest = manifest(game, &args.run, specs, shard)?;
    let header = columns::<G>(seats).header();
    let names = csv::StringRecord::from(header.clone());
    let file = RunFile::open(path, &header, &manifest, args.resume, |_, rec| {
        crate::row::Row::read(rec, &names)
            .and_then(|row| row.add_to(tally, rec, &names))
            .context("a resumed row")
    })?;
    Ok(Output {
        file,
        batch: Vec::new(),
        saved: std::time::Instant::now(),
    })
}

/// The manifest beside a run file: everything needed to play the same games again.
fn manifest<G: Playable>(
    game: &G,
    run: &RunArgs,
    specs: &[String],
    shard: &(u64, u64, String),
) -> Result<Manifest> {
    let params = game.params_toml();
    Ok(Manifest {
        version: env!("CARGO_PKG_VERSION").to_string(),
        command: std::env::args().collect(),
        game: game.name().to_string(),
        players: game.num_seats(),
        agents: specs.to_vec(),
        param_set: param_set(&params),
        params,
        data: game.data_label(),
        master_seed: run.seed,
        games: run.games,
        shard_range: (shard.0, shard.1),
        shard: shard.2.clone(),
        data_hash: fnv_hex(&game.data_text()),
        inputs: weights_inputs(specs)?,
        events: Some(EventColumn::all(G::EVENTS)),
        seed_rule: if run.rotate {
            "seat rotation: game i plays seed splitmix64(master_seed ^ splitmix64(i / players)) with the agents rotated by i mod players; the game's RNG is ChaCha8 stream 0 of that seed, seat s's agent stream s+1".into()
        } else {
            "game i plays with seed splitmix64(master_seed ^ splitmix64(i)); the game's RNG is ChaCha8 stream 0 of that seed, seat s's agent stream s+1".into()
        },
    })
}

/// The weights files named by the agent specs (`weights=PATH`), each with the hash of its
/// contents, for the manifest.
fn weights_inputs(specs: &[String]) -> Result<std::collections::BTreeMap<String, String>> {
    let mut out = std::collections::BTreeMap::new();
    for spec in specs {
        let (_, opts) = shifu_agents::parse_spec(spec)?;
        for (k, v) in opts {
            if k == "weights" {
                let text = shifu_engine::files::read_text(std::path::Path::new(&v))
                    .context("reading a weights file")?;
                out.insert(v, fnv_hex(&text));
            }
        }
    }
    Ok(out)
}

/// A run played in memory: the rows `shifu play --out` writes, without a file (the Python
/// module's batch API).
pub struct InMemoryRun {
    /// The CSV header.
    pub header: Vec<String>,
    /// One row per game, in game order.
    pub rows: Vec<Vec<String>>,
    /// The seat summary of the games played, as `shifu play` gives it (without the timing).
    pub summary: SeatSummary,
}

impl InMemoryRun {
    /// The rows as CSV text, byte for byte what `shifu play --out` writes for the same games
    /// (with the header when `header` is set).
    pub fn csv(&self, header: bool) -> Result<Vec<u8>> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        if header {
            w.write_record(&self.header)?;
        }
        for r in &self.rows {
            w.write_record(r)?;
        }
        w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
    }
}

/// Plays games `range` (all of `run.games` when `None`) of the run `game` and `run` describe
/// on `threads` threads (all cores when `None`), in memory. The rows are those of `shifu play
/// --out` for the same settings: game `i` is the same game whatever the range and thread count.
/// The summary's verdict is at `margin`.
pub fn play_in_memory(
    game: &GameArgs,
    run: &RunArgs,
    margin: f64,
    range: Option<std::ops::Range<u64>>,
) -> Result<InMemoryRun> {
    play_in_memory_until(game, run, margin, range, &mut || Ok(()))
}

/// [`play_in_memory`], calling `stop` about every 100 ms as games finish: an error from it
/// (a Python caller's Ctrl-C) ends the run with that error.
pub fn play_in_memory_until(
    game: &GameArgs,
    run: &RunArgs,
    margin: f64,
    range: Option<std::ops::Range<u64>>,
    stop: &mut dyn FnMut() -> Result<()>,
) -> Result<InMemoryRun> {
    crate::setup::check_threads(run.threads.unwrap_or(0))
        .map_err(|e| anyhow::anyhow!("threads: {e}"))?;
    crate::equivalence::check_margin(margin).map_err(|e| anyhow::anyhow!("{e}"))?;
    crate::with_game!(game.game.as_str(), G => in_memory_game::<G>(game, run, margin, range, stop))
}

/// [`play_in_memory_until`] for game type `G`, registered or not (the contract tests).
pub fn in_memory_game<G: Playable>(
    args: &GameArgs,
    run: &RunArgs,
    margin: f64,
    range: Option<std::ops::Range<u64>>,
    stop: &mut dyn FnMut() -> Result<()>,
) -> Result<InMemoryRun> {
    let game: G = args.build()?;
    let seats = game.num_seats();
    let specs = checked_specs(&game, run)?;
    let range = range.unwrap_or(0..run.games);
    if range.start > range.end || range.end > run.games {
        bail!(
            "games {}..{} are not a slice of the run's {} games",
            range.start,
            range.end,
            run.games
        );
    }
    let param_set = param_set(&game.params_toml());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads.unwrap_or(0))
        .build()?;
    let mut tally = Tally::default();
    // Rows grow as games finish: no reservation sized by a (possibly huge) game count.
    let mut rows = Vec::new();
    let mut checked = std::time::Instant::now();
    let mut units = position_units(G::EVENTS, seats, run.rotate)
        .unwrap_or_else(|| crate::seats::SeatUnits::new(seats, run.rotate, false));
    play_stream(&game, &specs, run.seed, run.rotate, range, &pool, |r| {
        if checked.elapsed().as_millis() >= 100 {
            stop()?;
            checked = std::time::Instant::now();
        }
        tally.add(&r, seats);
        units.add(r.index, &r.outcome, first_start::<G>(&r));
        let rec = game_record(&game, &r, &specs, &param_set);
        rows.push(rec.iter().map(str::to_string).collect());
        Ok(())
    })?;
    let info = RunInfo {
        game: &game,
        specs: &specs,
        rotate: run.rotate,
        seed: run.seed,
        shard: None,
        margin,
    };
    Ok(InMemoryRun {
        header: columns::<G>(seats).header(),
        rows,
        summary: SeatSummary::new(&info, &tally, Some(units.shares())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks a game's CSV header at every seat count: each name once. Returns the headers
    /// checked.
    fn header_names_each_column_once<G: Playable>() -> Result<usize> {
        for seats in 1..=shifu_engine::MAX_SEATS {
            let h = columns::<G>(seats).header();
            let mut seen = std::collections::HashSet::new();
            if let Some(c) = h.iter().find(|c| !seen.insert(*c)) {
                bail!("{}: column `{c}` twice in {h:?}", G::INFO.name);
            }
        }
        Ok(shifu_engine::MAX_SEATS)
    }

    /// The CSV header of every registered game at every seat count: one name, one column.
    #[test]
    fn every_games_csv_header_names_each_column_once() {
        let mut checked = 0;
        for name in crate::games::names() {
            checked += crate::with_game!(name, G => header_names_each_column_once::<G>()).unwrap();
        }
        assert_eq!(checked, 4 * shifu_engine::MAX_SEATS);
    }
}
