//! The runner behind `play`, `seats`, `sweep` and `calibrate`: which agents sit where, which
//! seed each game plays, which slice of the games a shard plays, and the stream that plays games
//! on every thread and hands them on in game order.

use crate::games::{Playable, MAX_EVENTS};
use crate::setup::RunArgs;
use anyhow::{bail, Context, Result};
use indicatif::ProgressBar;
use shifu_agents::{build_agent, check_agent, game_seed, play_game_observed, Agent};
use shifu_engine::MAX_SEATS;
use std::io::IsTerminal;

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

/// Ends the process with SIGKILL, as a kill from outside would (the tests' kill hooks, such as
/// `export`'s and `balance`'s).
pub fn kill_self() -> ! {
    #[cfg(unix)]
    // SAFETY: sending a signal to this process.
    unsafe {
        libc::kill(libc::getpid(), libc::SIGKILL);
    }
    std::process::abort()
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

/// Each seat's agent spec, checked against the game, and the run's settings checked.
pub fn checked_specs<G: Playable>(game: &G, run: &RunArgs) -> Result<Vec<String>> {
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

/// The slice of games this process plays: `--shard k/n` (`spec`), or k from SLURM_ARRAY_TASK_ID
/// or JOB_COMPLETION_INDEX with `--shard-count n` (`count`). Shard k of n plays games
/// [k*G/n, (k+1)*G/n) (0-based k), so `shifu merge` of all shards gives the single-run file.
/// Returns the first game, the end, and the shard's name `k/n`.
pub fn shard(spec: Option<&str>, count: Option<u64>, games: u64) -> Result<(u64, u64, String)> {
    let (k, n) = shard_index(spec, count)?;
    if n > games {
        bail!("{n} shards for {games} games: each shard needs at least one game");
    }
    let (lo, hi) = shard_bounds(k, n, games);
    Ok((lo, hi, format!("{k}/{n}")))
}

/// The shard (k, n) that `--shard k/n` (`spec`) or `--shard-count n` (`count`, k from
/// SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX) names, checked; (0, 1) when neither is given.
pub fn shard_index(spec: Option<&str>, count: Option<u64>) -> Result<(u64, u64)> {
    let (k, n) = match (spec, count) {
        (Some(_), Some(_)) => {
            bail!("--shard and --shard-count both name the shard; give one of them")
        }
        (Some(spec), None) => parse_shard(spec)?,
        (None, Some(n)) => (shard_from_env()?, n),
        (None, None) => (0, 1),
    };
    if n == 0 || k >= n {
        bail!("shard {k}/{n} is out of range: k counts from 0 and must be below n");
    }
    Ok((k, n))
}

/// `--shard k/n` as (k, n).
fn parse_shard(spec: &str) -> Result<(u64, u64)> {
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
    Ok((k, n))
}

/// The shard index k of `--shard-count`: the first of SLURM_ARRAY_TASK_ID and
/// JOB_COMPLETION_INDEX that is set and not empty.
fn shard_from_env() -> Result<u64> {
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
    value
        .trim()
        .parse()
        .with_context(|| format!("{name}=`{value}` is not a number"))
}

/// Games `[k*G/n, (k+1)*G/n)` of shard k of n, computed in 128 bits (k * G overflows 64 bits
/// for huge runs).
pub fn shard_bounds(k: u64, n: u64, games: u64) -> (u64, u64) {
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
fn play_one<G: Playable>(job: &Job<'_, G>, i: u64, buf: &mut Vec<G::Action>) -> GameRow<G::Stats> {
    let (game, specs) = (job.game, job.specs);
    let seats = game.num_seats();
    let (seed, rotation) = seed_and_rotation(job.master, job.rotate, seats, i);
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..seats)
        .map(|s| {
            let spec = &specs[(s + seats - rotation) % seats];
            build_agent(spec, seed, s as u8).expect("specs are checked first")
        })
        .collect();
    let mut actions = Vec::new();
    let rec = if job.log {
        play_game_observed(game, &mut agents, seed, buf, |state, legal, a| {
            let index = legal.iter().position(|&x| x == a).unwrap_or(0) as u32;
            actions.push((index, game.action_name(state, a)));
        })
    } else {
        play_game_observed(game, &mut agents, seed, buf, |_, _, _| {})
    };
    let mut counts = [[0u32; MAX_SEATS]; 2];
    for s in 0..seats {
        let c = game.counts(&rec.state, s);
        counts[0][s] = c[0];
        counts[1][s] = c[1];
    }
    let mut extra = G::Stats::default();
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
        actions,
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
    sink: impl FnMut(GameRow<G::Stats>) -> Result<()>,
) -> Result<()> {
    let job = Job {
        game,
        specs,
        master,
        rotate,
        log: false,
    };
    play_stream_within(&job, range, pool, AHEAD, sink)
}

/// [`play_stream`], each row with its game's actions ([`GameRow::actions`]): the games are the
/// same, only slower (each action named).
pub fn play_stream_logged<G: Playable>(
    game: &G,
    specs: &[String],
    master: u64,
    rotate: bool,
    range: std::ops::Range<u64>,
    pool: &rayon::ThreadPool,
    sink: impl FnMut(GameRow<G::Stats>) -> Result<()>,
) -> Result<()> {
    let job = Job {
        game,
        specs,
        master,
        rotate,
        log: true,
    };
    play_stream_within(&job, range, pool, AHEAD, sink)
}

/// What a stream plays: the game, the specs by seat, the master seed and the rotation; with
/// `log`, each game's actions are recorded.
struct Job<'a, G> {
    game: &'a G,
    specs: &'a [String],
    master: u64,
    rotate: bool,
    log: bool,
}

/// The counters the threads of a stream share.
struct Window {
    /// The next game to start.
    next: std::sync::atomic::AtomicU64,
    /// The first game not yet handed to the sink.
    delivered: std::sync::atomic::AtomicU64,
    /// Set when the sink failed: the threads stop after their current game.
    stop: std::sync::atomic::AtomicBool,
    /// The end of the games' range.
    end: u64,
    /// How far a thread may start ahead of `delivered`.
    ahead: u64,
}

/// [`play_stream`] with a window of `ahead` games. Each thread hands its rows on in batches (at
/// most [`BATCH`] rows, none kept longer than [`BATCH_AGE`] after a game ends), and always
/// before it waits for the window, so the earliest game not yet delivered is never held back
/// by a waiting thread.
fn play_stream_within<G: Playable>(
    job: &Job<'_, G>,
    range: std::ops::Range<u64>,
    pool: &rayon::ThreadPool,
    ahead: u64,
    sink: impl FnMut(GameRow<G::Stats>) -> Result<()>,
) -> Result<()> {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    let window = Window {
        next: AtomicU64::new(range.start),
        delivered: AtomicU64::new(range.start),
        stop: AtomicBool::new(false),
        end: range.end,
        ahead,
    };
    let threads = pool.current_num_threads();
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<GameRow<G::Stats>>>(threads * 4);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.broadcast(|_| produce(job, &window, tx.clone()));
            drop(tx);
        });
        deliver(rx, &window, range.start, sink)
    })
}

/// One thread's share of a stream: takes the next game, plays it, and sends finished rows on in
/// batches, until the games run out, the sink fails or the receiver is gone.
fn produce<G: Playable>(
    job: &Job<'_, G>,
    w: &Window,
    tx: std::sync::mpsc::SyncSender<Vec<GameRow<G::Stats>>>,
) {
    use std::sync::atomic::Ordering;
    let mut buf = Vec::new();
    let mut batch = Vec::with_capacity(BATCH);
    let mut oldest = std::time::Instant::now();
    let send = |batch: &mut Vec<GameRow<G::Stats>>| {
        batch.is_empty()
            || tx
                .send(std::mem::replace(batch, Vec::with_capacity(BATCH)))
                .is_ok()
    };
    let blocked = |i: u64| i >= w.delivered.load(Ordering::Acquire).saturating_add(w.ahead);
    while !w.stop.load(Ordering::Relaxed) {
        let i = w.next.fetch_add(1, Ordering::Relaxed);
        if i >= w.end {
            break;
        }
        // Game `delivered` itself never waits, and no waiting thread holds a row back, so this
        // always ends.
        if blocked(i) && !send(&mut batch) {
            return;
        }
        while blocked(i) && !w.stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        if batch.is_empty() {
            oldest = std::time::Instant::now();
        }
        batch.push(play_one(job, i, &mut buf));
        if (batch.len() >= BATCH || oldest.elapsed() >= BATCH_AGE) && !send(&mut batch) {
            return;
        }
    }
    send(&mut batch);
}

/// Hands the rows arriving on `rx` to `sink` in game order from game `start`. When `sink` fails,
/// tells the threads to stop and returns its error.
fn deliver<S>(
    rx: std::sync::mpsc::Receiver<Vec<GameRow<S>>>,
    w: &Window,
    start: u64,
    mut sink: impl FnMut(GameRow<S>) -> Result<()>,
) -> Result<()> {
    use std::sync::atomic::Ordering;
    let mut waiting = std::collections::BTreeMap::new();
    let mut want = start;
    for rows in rx.iter() {
        for row in rows {
            waiting.insert(row.index, row);
        }
        while let Some(row) = waiting.remove(&want) {
            want += 1;
            w.delivered.store(want, Ordering::Release);
            if let Err(e) = sink(row) {
                w.stop.store(true, Ordering::Relaxed);
                // Dropping the receiver ends every send still blocked.
                drop(rx);
                return Err(e);
            }
        }
    }
    Ok(())
}

/// One finished game, as the summary and the CSV need it.
pub struct GameRow<S = ()> {
    /// The rotation of the agents (0 without `--rotate`).
    pub rotation: usize,
    /// The game's index in the run.
    pub index: u64,
    /// The game's seed.
    pub seed: u64,
    /// How it ended.
    pub outcome: shifu_engine::Outcome,
    /// The game's two per-seat counts ([`shifu_engine::Present::COUNTS`]).
    pub counts: [[u32; MAX_SEATS]; 2],
    /// The game's own statistics ([`shifu_engine::Present::Stats`]).
    pub extra: S,
    /// The game's events ([`shifu_engine::Present::EVENTS`]).
    pub events: [Option<u32>; MAX_EVENTS],
    /// Rounds played.
    pub rounds: u32,
    /// Steps (actions) played.
    pub steps: u64,
    /// The actions taken, each as its index in the legal list and its name (only in a stream
    /// from [`play_stream_logged`]; empty otherwise).
    pub actions: Vec<(u32, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let job = Job {
            game: &g,
            specs: &specs,
            master: 9,
            rotate: true,
            log: false,
        };
        let want: Vec<_> = (5..65).map(|i| play_one(&job, i, &mut buf)).collect();
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
            let job = Job {
                game: &g,
                specs: &specs,
                master: 4,
                rotate: false,
                log: false,
            };
            play_stream_within(&job, 10..3000, &pool, ahead, |r| {
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
