//! `shifu play`: many games in parallel, win rates by seat.

use crate::games::{Playable, MAX_EVENTS};
use crate::runfile::{fnv_hex, weights_inputs, Manifest, RunFile};
use crate::setup::{GameArgs, RunArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::ProgressBar;
use shifu_agents::{build_agent, check_agent, game_seed, play_game, Agent};
use shifu_engine::MAX_SEATS;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Options of `shifu play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    run: RunArgs,
    /// Write one CSV row per game to this file (via FILE.tmp, renamed when complete), with a
    /// manifest FILE.manifest.json beside it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
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
}

/// Totals over games, by seat.
#[derive(Clone, Copy)]
pub struct Tally {
    pub games: u64,
    pub win: [f64; MAX_SEATS],
    pub rank: [f64; MAX_SEATS],
    pub score: [f64; MAX_SEATS],
    pub capped: u64,
    pub rounds: u64,
    pub steps: u64,
    pub shared: u64,
    /// The game's own tallies ([`Playable::TALLIES`]) over the games played in this process.
    pub extra: [f64; MAX_EXTRA],
    /// Games behind `extra`.
    pub extra_games: u64,
    /// Games in which each of the game's events ([`Playable::EVENTS`]) happened.
    pub events: [u64; MAX_EVENTS],
    /// Sum of the squared round counts (for the spread of game length).
    pub rounds_sq: f64,
}

/// Most game-wide tallies a game may keep.
pub const MAX_EXTRA: usize = shifu_engine::present::MAX_TALLIES;

impl Default for Tally {
    fn default() -> Self {
        Tally {
            games: 0,
            win: [0.0; MAX_SEATS],
            rank: [0.0; MAX_SEATS],
            score: [0.0; MAX_SEATS],
            capped: 0,
            rounds: 0,
            steps: 0,
            shared: 0,
            extra: [0.0; MAX_EXTRA],
            extra_games: 0,
            events: [0; MAX_EVENTS],
            rounds_sq: 0.0,
        }
    }
}

impl Tally {
    /// Mean rounds per game and the half-width of its 95% interval (normal approximation).
    pub fn mean_rounds(&self) -> (f64, f64) {
        let n = self.games.max(1) as f64;
        let mean = self.rounds as f64 / n;
        let var = (self.rounds_sq / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
        (mean, 1.959_964 * (var / n).sqrt())
    }

    /// Adds one game.
    pub fn add(&mut self, r: &GameRow, seats: usize) {
        let o = &r.outcome;
        self.games += 1;
        for s in 0..seats {
            self.win[s] += o.win_share(s as u8);
            self.rank[s] += o.rank[s] as f64;
            self.score[s] += o.score[s];
        }
        self.capped += o.capped as u64;
        self.shared += (o.winner_count() > 1) as u64;
        self.rounds += r.rounds as u64;
        self.rounds_sq += (r.rounds as f64).powi(2);
        self.steps += r.steps;
        for (n, e) in self.events.iter_mut().zip(&r.events) {
            *n += e.is_some() as u64;
        }
        for (x, y) in self.extra.iter_mut().zip(&r.extra) {
            *x += y;
        }
        self.extra_games += 1;
    }
}

/// A progress bar over `games` games with games/s and the ETA, hidden with `--quiet` or when
/// stderr is not a terminal.
pub fn progress_bar(games: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(games);
    b.set_style(crate::format::progress_style());
    b
}

/// Splits the agents option into one spec per seat.
pub fn seat_specs(agents: &str, seats: usize) -> Result<Vec<String>> {
    let specs: Vec<String> = split_specs(agents);
    match specs.len() {
        1 => Ok(vec![specs[0].clone(); seats]),
        n if n == seats => Ok(specs),
        n => bail!("--agents names {n} agents for {seats} seats; give one per seat or one for all"),
    }
}

/// Splits on commas that start a new spec (a comma followed by `key=` stays inside a spec).
pub fn split_specs(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        let continues = part.contains('=') && !part.contains(':');
        match out.last_mut() {
            Some(last) if continues => {
                last.push(',');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

/// The slice of games this process plays: `--shard k/n`, or k from SLURM_ARRAY_TASK_ID or
/// JOB_COMPLETION_INDEX with `--shard-count n`. Shard k of n plays games
/// [k*G/n, (k+1)*G/n) (0-based k), so `shifu merge` of all shards gives the single-run file.
fn shard(args: &PlayArgs) -> Result<(u64, u64, String)> {
    let (k, n) = match (&args.shard, args.shard_count) {
        (Some(_), Some(_)) => {
            bail!("--shard and --shard-count both name the shard; give one of them")
        }
        (Some(spec), None) => {
            let (k, n) = spec
                .split_once('/')
                .with_context(|| format!("--shard `{spec}`: expected k/n, for example 0/4"))?;
            let k: u64 = k
                .trim()
                .parse()
                .with_context(|| format!("--shard `{spec}`: k is not a number"))?;
            let n: u64 = n
                .trim()
                .parse()
                .with_context(|| format!("--shard `{spec}`: n is not a number"))?;
            (k, n)
        }
        (None, Some(n)) => {
            // The first of the two variables that is set and not empty.
            let var = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
                .iter()
                .find_map(|v| {
                    std::env::var(v)
                        .ok()
                        .filter(|x| !x.trim().is_empty())
                        .map(|x| (*v, x))
                });
            let (name, value) = var.context(
                "--shard-count needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment",
            )?;
            let k: u64 = value
                .trim()
                .parse()
                .with_context(|| format!("{name}=`{value}` is not a number"))?;
            (k, n)
        }
        (None, None) => (0, 1),
    };
    if n == 0 || k >= n {
        bail!("shard {k}/{n} is out of range: k counts from 0 and must be below n");
    }
    if n > args.run.games {
        bail!(
            "{n} shards for {} games: each shard needs at least one game",
            args.run.games
        );
    }
    let (lo, hi) = shard_bounds(k, n, args.run.games);
    Ok((lo, hi, format!("{k}/{n}")))
}

/// Seconds between saves of the finished rows of `shifu play --out`.
const SAVE_SECONDS: f64 = 2.0;

/// Most finished rows held before a save, whatever the time since the last one: fast games
/// (hundreds of thousands a second) would otherwise hold two seconds of rows in memory.
const SAVE_ROWS: usize = 4096;

/// Games `[k*G/n, (k+1)*G/n)` of shard k of n, computed in 128 bits (k * G overflows 64 bits
/// for huge runs).
fn shard_bounds(k: u64, n: u64, games: u64) -> (u64, u64) {
    let g = u128::from(games);
    let lo = u128::from(k) * g / u128::from(n);
    let hi = (u128::from(k) + 1) * g / u128::from(n);
    (lo as u64, hi as u64)
}

/// Game `i`'s seed and agent rotation: without rotation every game has its own seed; with it,
/// games `n*j .. n*j + n - 1` share seed j and rotate the agents through the seats.
fn seed_and_rotation(master: u64, rotate: bool, seats: usize, i: u64) -> (u64, usize) {
    if rotate {
        (
            game_seed(master, i / seats as u64),
            (i % seats as u64) as usize,
        )
    } else {
        (game_seed(master, i), 0)
    }
}

/// Plays game `i` of a run.
fn play_one<G: Playable>(
    game: &G,
    specs: &[String],
    master: u64,
    rotate: bool,
    i: u64,
    buf: &mut Vec<G::Action>,
) -> GameRow {
    let seats = game.num_seats();
    let (seed, rotation) = seed_and_rotation(master, rotate, seats, i);
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..seats)
        .map(|s| {
            let spec = &specs[(s + seats - rotation) % seats];
            build_agent(spec, seed, s as u8).expect("specs are checked first")
        })
        .collect();
    let rec = play_game(game, &mut agents, seed, buf);
    let mut counts = [[0u32; MAX_SEATS]; 2];
    for s in 0..seats {
        let c = game.counts(&rec.state, s);
        counts[0][s] = c[0];
        counts[1][s] = c[1];
    }
    let mut extra = [0.0; MAX_EXTRA];
    game.tally(&rec.state, &mut extra);
    GameRow {
        events: game.events(&rec.state),
        rotation,
        index: i,
        seed,
        outcome: rec.outcome,
        counts,
        extra,
        rounds: rec.rounds,
        steps: rec.steps,
    }
}

/// Most games a thread may start ahead of the earliest game not yet handed to the sink. This
/// bounds the rows held back while a slow game runs (so memory stays flat however many games a
/// run has); a thread waits only when one game takes as long as this many others.
const AHEAD: u64 = 4096;

/// Most rows a thread collects before handing them on together (one channel message per batch,
/// not per game: for games of a few microseconds the channel was most of the time).
const BATCH: usize = 64;

/// The longest a thread keeps finished rows before handing them on, checked after each game.
const BATCH_AGE: std::time::Duration = std::time::Duration::from_millis(20);

/// Plays games `range` on every thread of `pool`, each thread taking the next game in order
/// from a shared counter, and hands each finished game to `sink` in game order. No thread waits
/// for a slow game of another unless it is [`AHEAD`] games ahead of it, so the rows waiting for
/// an earlier game are at most that many. When `sink` fails, the threads stop after their
/// current game and the error is returned.
pub fn play_stream<G: Playable>(
    game: &G,
    specs: &[String],
    master: u64,
    rotate: bool,
    range: std::ops::Range<u64>,
    pool: &rayon::ThreadPool,
    sink: impl FnMut(GameRow) -> Result<()>,
) -> Result<()> {
    play_stream_within(game, specs, master, rotate, range, pool, AHEAD, sink)
}

/// [`play_stream`] with a window of `ahead` games. Each thread hands its rows on in batches (at
/// most [`BATCH`] rows, none kept longer than [`BATCH_AGE`] after a game ends), and always
/// before it waits for the window, so the earliest game not yet delivered is never held back
/// by a waiting thread.
#[allow(clippy::too_many_arguments)]
fn play_stream_within<G: Playable>(
    game: &G,
    specs: &[String],
    master: u64,
    rotate: bool,
    range: std::ops::Range<u64>,
    pool: &rayon::ThreadPool,
    ahead: u64,
    mut sink: impl FnMut(GameRow) -> Result<()>,
) -> Result<()> {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let next = AtomicU64::new(range.start);
    // The first game not yet handed to `sink`.
    let delivered = AtomicU64::new(range.start);
    let stop = AtomicBool::new(false);
    let threads = pool.current_num_threads();
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<GameRow>>(threads * 4);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.broadcast(|_| {
                let tx = tx.clone();
                let mut buf = Vec::new();
                let mut batch = Vec::with_capacity(BATCH);
                let mut oldest = std::time::Instant::now();
                let send = |batch: &mut Vec<GameRow>| {
                    batch.is_empty()
                        || tx
                            .send(std::mem::replace(batch, Vec::with_capacity(BATCH)))
                            .is_ok()
                };
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= range.end {
                        break;
                    }
                    // Game `delivered` itself never waits, and no waiting thread holds a row
                    // back, so this always ends.
                    if i >= delivered.load(Ordering::Acquire).saturating_add(ahead)
                        && !send(&mut batch)
                    {
                        return;
                    }
                    while i >= delivered.load(Ordering::Acquire).saturating_add(ahead)
                        && !stop.load(Ordering::Relaxed)
                    {
                        std::thread::sleep(std::time::Duration::from_micros(100));
                    }
                    if batch.is_empty() {
                        oldest = std::time::Instant::now();
                    }
                    batch.push(play_one(game, specs, master, rotate, i, &mut buf));
                    if (batch.len() >= BATCH || oldest.elapsed() >= BATCH_AGE) && !send(&mut batch)
                    {
                        return;
                    }
                }
                send(&mut batch);
            });
            drop(tx);
        });
        let mut waiting = std::collections::BTreeMap::new();
        let mut want = range.start;
        for rows in rx.iter() {
            for row in rows {
                waiting.insert(row.index, row);
            }
            while let Some(row) = waiting.remove(&want) {
                want += 1;
                delivered.store(want, Ordering::Release);
                if let Err(e) = sink(row) {
                    stop.store(true, Ordering::Relaxed);
                    // Dropping the receiver ends every send still blocked.
                    drop(rx);
                    return Err(e);
                }
            }
        }
        Ok(())
    })
}

/// One finished game, as the summary and the CSV need it.
pub struct GameRow {
    rotation: usize,
    index: u64,
    seed: u64,
    outcome: shifu_engine::Outcome,
    /// The game's two per-seat counts ([`Playable::COUNTS`]).
    counts: [[u32; MAX_SEATS]; 2],
    extra: [f64; MAX_EXTRA],
    /// The game's events ([`Playable::EVENTS`]).
    events: [Option<u32>; MAX_EVENTS],
    rounds: u32,
    steps: u64,
}

fn header(seats: usize, counts: [&str; 2], events: &[&str]) -> Vec<String> {
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
    for what in ["score", "rank", counts[0], counts[1]] {
        for s in 1..=seats {
            h.push(format!("{what}_{s}"));
        }
    }
    for x in ["winners", "rounds", "steps", "capped"] {
        h.push(x.to_string());
    }
    h.extend(events.iter().map(|x| x.to_string()));
    h
}

/// A game's CSV record. Fields are formatted through one reused buffer into the record's
/// single buffer: a row of `shifu play --out` costs a few allocations, not one per field.
fn record(
    r: &GameRow,
    game: &str,
    seats: usize,
    agents: &str,
    param_set: &str,
    events: usize,
) -> csv::StringRecord {
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

/// Adds a row read back from a resumed file to the tally.
fn tally_record(t: &mut Tally, rec: &csv::StringRecord, seats: usize) -> Result<()> {
    let f = |i: usize| -> Result<f64> {
        rec.get(i)
            .context("short row")?
            .parse::<f64>()
            .context("bad number in a resumed row")
    };
    let base = 6;
    let winners: Vec<usize> = rec
        .get(base + 4 * seats)
        .context("short row")?
        .split('|')
        .filter(|x| !x.is_empty())
        .map(|x| x.parse::<usize>().map(|s| s - 1))
        .collect::<std::result::Result<_, _>>()
        .context("bad winners in a resumed row")?;
    t.games += 1;
    for s in 0..seats {
        t.score[s] += f(base + s)?;
        t.rank[s] += f(base + seats + s)?;
        if winners.contains(&s) {
            t.win[s] += 1.0 / winners.len() as f64;
        }
    }
    t.shared += (winners.len() > 1) as u64;
    t.rounds += f(base + 4 * seats + 1)? as u64;
    t.steps += f(base + 4 * seats + 2)? as u64;
    t.capped += (rec.get(base + 4 * seats + 3) == Some("true")) as u64;
    Ok(())
}

/// `shifu play`: the games and the win shares by seat.
pub fn run(args: PlayArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args, false))
}

/// `shifu seats`: `play` with the seat analysis added (pairwise contrasts and a verdict).
pub fn run_seats(args: PlayArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args, true))
}

/// Each seat's agent spec, checked against the game, and the run's settings checked.
fn checked_specs<G: Playable>(game: &G, run: &RunArgs) -> Result<Vec<String>> {
    let seats = game.num_seats();
    let specs = seat_specs(&run.agents, seats)?;
    // Check every spec before starting.
    for s in &specs {
        check_agent(game, s)?;
    }
    if run.games == 0 {
        bail!("--games must be at least 1");
    }
    if run.rotate && specs.iter().all(|s| s == &specs[0]) {
        bail!("--rotate with the same agent in every seat would play each seed {seats} times identically; drop --rotate");
    }
    Ok(specs)
}

/// A game's CSV row, its `agents` column the specs by seat, rotated as the game was.
fn game_record<G: Playable>(
    game: &G,
    r: &GameRow,
    specs: &[String],
    param_set: &str,
) -> csv::StringRecord {
    let seats = specs.len();
    let agents = (0..seats)
        .map(|s| specs[(s + seats - r.rotation) % seats].as_str())
        .collect::<Vec<_>>()
        .join("|");
    record(r, game.name(), seats, &agents, param_set, G::EVENTS.len())
}

/// A run played in memory: the rows `shifu play --out` writes, without a file (the Python
/// module's batch API).
pub struct InMemoryRun {
    /// The CSV header.
    pub header: Vec<String>,
    /// One row per game, in game order.
    pub rows: Vec<Vec<String>>,
    /// Totals by seat.
    pub tally: Tally,
    /// Each seat's agent spec (before rotation).
    pub specs: Vec<String>,
    /// The game's name.
    pub game: String,
    /// The round cap.
    pub max_rounds: u32,
    /// Which card data the games used.
    pub data_label: String,
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
pub fn play_in_memory(
    game: &GameArgs,
    run: &RunArgs,
    range: Option<std::ops::Range<u64>>,
) -> Result<InMemoryRun> {
    play_in_memory_until(game, run, range, &mut || Ok(()))
}

/// [`play_in_memory`], calling `stop` about every 100 ms as games finish: an error from it
/// (a Python caller's Ctrl-C) ends the run with that error.
pub fn play_in_memory_until(
    game: &GameArgs,
    run: &RunArgs,
    range: Option<std::ops::Range<u64>>,
    stop: &mut dyn FnMut() -> Result<()>,
) -> Result<InMemoryRun> {
    crate::setup::check_threads(run.threads.unwrap_or(0))
        .map_err(|e| anyhow::anyhow!("threads: {e}"))?;
    crate::with_game!(game.game.as_str(), G => in_memory_game::<G>(game, run, range, stop))
}

/// [`play_in_memory_until`] for game type `G`, registered or not (the contract tests).
pub fn in_memory_game<G: Playable>(
    args: &GameArgs,
    run: &RunArgs,
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
    let param_set = fnv_hex(&game.params_toml())[..8].to_string();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads.unwrap_or(0))
        .build()?;
    let mut tally = Tally::default();
    // Rows grow as games finish: no reservation sized by a (possibly huge) game count.
    let mut rows = Vec::new();
    let mut checked = std::time::Instant::now();
    play_stream(&game, &specs, run.seed, run.rotate, range, &pool, |r| {
        if checked.elapsed().as_millis() >= 100 {
            stop()?;
            checked = std::time::Instant::now();
        }
        tally.add(&r, seats);
        let rec = game_record(&game, &r, &specs, &param_set);
        rows.push(rec.iter().map(str::to_string).collect());
        Ok(())
    })?;
    Ok(InMemoryRun {
        header: header(seats, G::COUNTS, G::EVENTS),
        rows,
        tally,
        specs,
        game: game.name().to_string(),
        max_rounds: game.max_rounds(),
        data_label: game.data_label(),
    })
}

fn run_game<G: Playable>(args: &PlayArgs, analyse: bool) -> Result<()> {
    let game: G = args.game.build()?;
    let seats = game.num_seats();
    let specs = checked_specs(&game, &args.run)?;
    let mut contrasts = crate::seats::Contrasts::new(seats, args.run.rotate);
    let (lo, hi, shard_name) = shard(args)?;
    let params = game.params_toml();
    let param_set = fnv_hex(&params)[..8].to_string();
    let mut tally = Tally::default();
    let mut file = match &args.out {
        Some(out) => {
            let manifest = Manifest {
                version: env!("CARGO_PKG_VERSION").to_string(),
                command: std::env::args().collect(),
                game: game.name().to_string(),
                players: seats,
                agents: specs.clone(),
                params: params.clone(),
                param_set: param_set.clone(),
                data: game.data_label(),
                master_seed: args.run.seed,
                games: args.run.games,
                shard_range: (lo, hi),
                shard: shard_name.clone(),
                data_hash: fnv_hex(&game.data_text()),
                inputs: weights_inputs(&specs)?,
                seed_rule: if args.run.rotate {
                    "seat rotation: game i plays seed splitmix64(master_seed ^ splitmix64(i / players)) with the agents rotated by i mod players; the game's RNG is ChaCha8 stream 0 of that seed, seat s's agent stream s+1".into()
                } else {
                    "game i plays with seed splitmix64(master_seed ^ splitmix64(i)); the game's RNG is ChaCha8 stream 0 of that seed, seat s's agent stream s+1".into()
                },
            };
            Some(RunFile::open(
                out,
                &header(seats, G::COUNTS, G::EVENTS),
                &manifest,
                args.resume,
                |_, rec| tally_record(&mut tally, rec, seats),
            )?)
        }
        None if args.resume => bail!("--resume needs --out"),
        None => None,
    };
    let mut start = lo;
    if let Some(f) = &file {
        start = f.next;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.run.threads.unwrap_or(0))
        .build()?;
    let bar = progress_bar(hi - lo, args.quiet);
    bar.set_position(start - lo);
    let started = std::time::Instant::now();
    // Rows reach the file every two seconds (and at the end), however slow the agents: a kill
    // loses at most the games in flight and those finished since the last save.
    let mut batch: Vec<csv::StringRecord> = Vec::new();
    let mut saved = std::time::Instant::now();
    let mut done = start;
    play_stream(
        &game,
        &specs,
        args.run.seed,
        args.run.rotate,
        start..hi,
        &pool,
        |r| {
            tally.add(&r, seats);
            contrasts.add(r.index, &r.outcome);
            done += 1;
            if let Some(f) = file.as_mut() {
                batch.push(game_record(&game, &r, &specs, &param_set));
                if batch.len() >= SAVE_ROWS
                    || saved.elapsed().as_secs_f64() >= SAVE_SECONDS
                    || done == hi
                {
                    f.append(&batch)?;
                    batch.clear();
                    saved = std::time::Instant::now();
                }
            }
            bar.set_position(done - lo);
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    if let Some(f) = file.take() {
        f.finish()?;
    }
    let secs = started.elapsed().as_secs_f64();
    let lo_hi = (lo, hi);
    let run = Finished {
        game: &game,
        specs: &specs,
        tally: &tally,
        rotate: args.run.rotate,
        seed: args.run.seed,
        shard: if shard_name == "0/1" {
            String::new()
        } else {
            format!(", shard {shard_name} (games {}..{})", lo_hi.0, lo_hi.1)
        },
    };
    crate::summary::print(&run);
    if analyse {
        crate::summary::print_seat_analysis(&run, &mut contrasts);
    }
    let n = tally.games as f64;
    println!(
        "{:.1} s, {:.0} games/s, {:.0} steps/s",
        secs,
        n / secs,
        tally.steps as f64 / secs
    );
    Ok(())
}

/// A finished run, as the summary prints it.
pub struct Finished<'a, G> {
    /// The game.
    pub game: &'a G,
    /// Each seat's agent spec (before rotation).
    pub specs: &'a [String],
    /// Totals by seat.
    pub tally: &'a Tally,
    /// Whether the agents were rotated through the seats.
    pub rotate: bool,
    /// The master seed.
    pub seed: u64,
    /// ", shard k/n (games lo..hi)", or empty for a whole run.
    pub shard: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks a game's CSV header at every seat count: each name once. Returns the headers
    /// checked.
    fn header_names_each_column_once<G: Playable>() -> Result<usize> {
        for seats in 1..=shifu_engine::MAX_SEATS {
            let h = header(seats, G::COUNTS, G::EVENTS);
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

    #[test]
    fn streamed_games_arrive_in_order_and_match_one_thread_playing_them_in_turn() {
        use shifu_engine::wok_star::{Params, WokStar};
        let g = WokStar::with_params(Params::with_players(3)).unwrap();
        let specs = vec!["greedy".to_string(), "random".into(), "greedy".into()];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut buf = Vec::new();
        let want: Vec<_> = (5..65)
            .map(|i| play_one(&g, &specs, 9, true, i, &mut buf))
            .collect();
        let mut got = Vec::new();
        play_stream(&g, &specs, 9, true, 5..65, &pool, |r| {
            got.push((r.index, r.seed, r.steps, r.rotation));
            Ok(())
        })
        .unwrap();
        let want: Vec<_> = want
            .iter()
            .map(|r| (r.index, r.seed, r.steps, r.rotation))
            .collect();
        assert_eq!(got, want);
        assert_eq!(got.first().map(|r| r.0), Some(5));
    }

    /// Two-player Wok Star, two random seats, and a pool of `threads` threads.
    fn random_wok_star_pair(
        threads: usize,
    ) -> (
        shifu_engine::wok_star::WokStar,
        Vec<String>,
        rayon::ThreadPool,
    ) {
        use shifu_engine::wok_star::{Params, WokStar};
        let g = WokStar::with_params(Params::with_players(2)).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        (g, vec!["random".to_string(), "random".into()], pool)
    }

    /// A window far smaller than a batch makes threads wait often with rows in hand: they must
    /// hand them on first, or the stream would stop for good. Every game still arrives, in order.
    #[test]
    fn a_small_window_never_stalls_the_stream_and_keeps_game_order() {
        let (g, specs, pool) = random_wok_star_pair(3);
        for ahead in [1, 3, 100] {
            let mut got = Vec::new();
            play_stream_within(&g, &specs, 4, false, 10..3000, &pool, ahead, |r| {
                got.push(r.index);
                Ok(())
            })
            .unwrap();
            assert_eq!(got, (10..3000).collect::<Vec<_>>(), "window {ahead}");
        }
    }

    #[test]
    fn a_failing_sink_stops_the_stream_with_its_error() {
        let (g, specs, pool) = random_wok_star_pair(2);
        let mut seen = 0;
        let err = play_stream(&g, &specs, 1, false, 0..1_000_000, &pool, |_| {
            seen += 1;
            if seen == 10 {
                bail!("disk full");
            }
            Ok(())
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "disk full");
        assert_eq!(seen, 10);
    }

    #[test]
    fn shard_bounds_cover_every_game_once_even_for_huge_runs() {
        assert_eq!(shard_bounds(0, 4, 10), (0, 2));
        assert_eq!(shard_bounds(3, 4, 10), (7, 10));
        let g = u64::MAX;
        let (lo, hi) = shard_bounds(3, 4, g);
        assert_eq!(hi, g);
        assert_eq!(lo, (g / 4) * 3 + (g % 4) * 3 / 4);
        let mut next = 0;
        for k in 0..7 {
            let (lo, hi) = shard_bounds(k, 7, 1000);
            assert_eq!(lo, next);
            next = hi;
        }
        assert_eq!(next, 1000);
    }

    #[test]
    fn specs_split_per_seat_and_keep_options() {
        assert_eq!(seat_specs("random", 3).unwrap(), vec!["random"; 3]);
        assert_eq!(
            seat_specs("mcts:iters=10,c=0.5,random", 2).unwrap(),
            vec!["mcts:iters=10,c=0.5", "random"]
        );
        assert!(seat_specs("random,random", 3).is_err());
    }
}
