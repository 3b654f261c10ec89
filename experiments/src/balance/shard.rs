//! A balance run spread over machines: every shard runs the same command with the same `--out
//! FILE` on a shared filesystem. At each step (a look of the race, a finalist's validation) shard
//! k plays its slice of every setting's new games (the slice rule of `play --shard`: games
//! `[lo + k*G/n, lo + (k+1)*G/n)` of the `G` new ones), writes them atomically to
//! `FILE.parts/STEP.shard-k-of-n`, waits until the n parts of the step exist, and reads them all.
//! Every shard then holds every game in game order, so every shard makes the same eliminations and
//! the result is the one-machine run's. The parts are the progress: a killed shard rerun with
//! `--resume` reads its finished parts instead of playing them again. Shard 0 writes FILE, then
//! removes the parts once every shard has read them all.

use super::objective::Games;
use super::{play_games, Setup};
use crate::games::Playable;
use crate::runner::{shard_bounds, shard_index};
use anyhow::{bail, Context, Result};
use clap::Args;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The sharding options of `shifu balance`.
#[derive(Args, Debug, Clone, Default)]
pub struct ShardArgs {
    /// Play shard k of n of every step's games (`k/n`, k from 0); every shard runs the same
    /// command with the same --out on a shared filesystem, and they meet in `FILE.parts/`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Shard count, with k taken from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "N")]
    pub shard_count: Option<u64>,
    /// Seconds a shard waits for the other shards' part of a step before it gives up.
    #[arg(long, value_name = "SECONDS", default_value_t = 86_400.0)]
    pub shard_wait: f64,
}

/// A sharded run: which shard this is and where the shards meet.
#[derive(Debug, Clone)]
pub struct Sharding {
    /// This shard, from 0.
    pub k: u64,
    /// Shards in all.
    pub n: u64,
    /// `FILE.parts`.
    pub dir: PathBuf,
    /// The run's fingerprint: a part of another run is refused.
    pub fingerprint: String,
    /// How long to wait for another shard's part.
    pub wait: Duration,
}

const FORMAT: &str = "shifu-balance-part 1";

/// The name of a look's step.
pub fn look_step(look: usize) -> String {
    format!("look-{look}")
}

/// The name of a finalist's validation step (`i` from 0, in the finalists' order).
pub fn validation_step(i: usize) -> String {
    format!("validation-{i}")
}

/// The folder the shards of `--out FILE` meet in.
pub fn parts_dir(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".parts");
    out.with_file_name(name)
}

impl Sharding {
    /// The sharding `args` ask for, checked: none for a one-machine run.
    pub fn new(
        args: &ShardArgs,
        out: Option<&Path>,
        fingerprint: &str,
        resume: bool,
    ) -> Result<Option<Sharding>> {
        if args.shard.is_none() && args.shard_count.is_none() {
            return Ok(None);
        }
        let (k, n) = shard_index(args.shard.as_deref(), args.shard_count)?;
        let Some(out) = out else {
            bail!("--shard needs --out FILE: the shards meet in FILE.parts beside it, on a filesystem they share");
        };
        if !(args.shard_wait.is_finite() && args.shard_wait > 0.0 && args.shard_wait < 1e9) {
            bail!("--shard-wait {}: seconds above 0", args.shard_wait);
        }
        let s = Sharding {
            k,
            n,
            dir: parts_dir(out),
            fingerprint: fingerprint.to_string(),
            wait: Duration::from_secs_f64(args.shard_wait),
        };
        let first = s.part_path(&look_step(1), k);
        if !resume && first.exists() {
            bail!(
                "{} exists: shard {k}/{n} of a run with this --out was stopped; continue it with --resume, or remove {}",
                first.display(),
                s.dir.display()
            );
        }
        std::fs::create_dir_all(&s.dir).with_context(|| format!("{}", s.dir.display()))?;
        Ok(Some(s))
    }

    fn part_path(&self, step: &str, k: u64) -> PathBuf {
        self.dir
            .join(format!("{step}.shard-{k}-of-{n}", n = self.n))
    }

    fn done_path(&self, k: u64) -> PathBuf {
        self.dir.join(format!("done.shard-{k}-of-{n}", n = self.n))
    }

    /// Shard `k`'s slice of a job's games.
    fn slice(&self, k: u64, range: &Range<u64>) -> Range<u64> {
        let (lo, hi) = shard_bounds(k, self.n, range.end - range.start);
        range.start + lo..range.start + hi
    }

    /// Shard `k`'s part header of a step.
    fn header(&self, step: &str, k: u64, columns: usize, jobs: &[(usize, Range<u64>)]) -> Header {
        Header {
            format: FORMAT.into(),
            fingerprint: self.fingerprint.clone(),
            step: step.into(),
            shard: format!("{k}/{}", self.n),
            columns,
            jobs: jobs
                .iter()
                .map(|(c, r)| {
                    let r = self.slice(k, r);
                    (*c, r.start, r.end)
                })
                .collect(),
        }
    }
}

/// What a part holds, before its numbers.
#[derive(Serialize, Deserialize, PartialEq)]
struct Header {
    format: String,
    fingerprint: String,
    step: String,
    shard: String,
    columns: usize,
    /// Each job: the setting, and the games of it in this part.
    jobs: Vec<(usize, u64, u64)>,
}

impl Header {
    fn bytes(&self) -> Result<Vec<u8>> {
        let mut b = serde_json::to_vec(self)?;
        b.push(b'\n');
        Ok(b)
    }
}

/// Plays each job's games (a setting, and a range of its games from master seed `master`),
/// returning each job's games in game order. A sharded run plays this shard's slices and takes
/// the others' from their parts.
pub fn play_jobs<G: Playable>(
    s: &Setup<G>,
    step: &str,
    jobs: &[(usize, Range<u64>)],
    specs: &[String],
    master: u64,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<Games>> {
    let Some(sh) = &s.shard else {
        let mut out = Vec::with_capacity(jobs.len());
        for (c, range) in jobs {
            let mut g = Games::default();
            play_games(s, &s.games[*c], specs, master, range.clone(), &mut g, bar)?;
            out.push(g);
        }
        return Ok(out);
    };
    let columns = s.plan.columns.len();
    let own = sh.part_path(step, sh.k);
    if !own.exists() {
        let header = sh.header(step, sh.k, columns, jobs);
        let mut bytes = header.bytes()?;
        for &(c, lo, hi) in &header.jobs {
            let mut g = Games::default();
            play_games(s, &s.games[c], specs, master, lo..hi, &mut g, bar)?;
            for x in &g.data {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        shifu_engine::files::write_atomic(&own, &bytes)?;
        super::checkpoint::saved();
    }
    let mut out: Vec<Games> = jobs
        .iter()
        .map(|_| Games {
            columns,
            data: Vec::new(),
        })
        .collect();
    for k in 0..sh.n {
        let path = sh.part_path(step, k);
        wait_for(sh, &path, k)?;
        let header = sh.header(step, k, columns, jobs);
        read_part(sh, &path, &header, &mut out)?;
    }
    Ok(out)
}

/// Waits until `path` (shard k's part) exists, polling, at most the shards' wait.
fn wait_for(sh: &Sharding, path: &Path, k: u64) -> Result<()> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(10);
    while !path.exists() {
        if start.elapsed() > sh.wait {
            bail!(
                "shard {k}/{n} did not write {} within --shard-wait {} s: is every shard running the same command with the same --out?",
                path.display(),
                sh.wait.as_secs_f64(),
                n = sh.n
            );
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_secs(1));
    }
    Ok(())
}

/// Reads a part (at most the bytes the expected header and numbers take), refusing one that is
/// not the expected part of this run, and appends its games to each job's.
fn read_part(sh: &Sharding, path: &Path, header: &Header, out: &mut [Games]) -> Result<()> {
    let head = header.bytes()?;
    let numbers = header
        .jobs
        .iter()
        .try_fold(0u64, |n, &(_, lo, hi)| {
            (hi - lo)
                .checked_mul(header.columns as u64)
                .and_then(|x| x.checked_add(n))
        })
        .context("a part too large to read")?;
    let want = numbers
        .checked_mul(4)
        .and_then(|x| x.checked_add(head.len() as u64))
        .context("a part too large to read")?;
    let file = shifu_engine::files::open_input(path)?;
    let mut bytes = Vec::new();
    file.take(want.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}", path.display()))?;
    if bytes.len() as u64 != want || !bytes.starts_with(&head) {
        return Err(refusal(sh, path, header, &bytes));
    }
    let mut rest = &bytes[head.len()..];
    for (g, &(_, lo, hi)) in out.iter_mut().zip(&header.jobs) {
        let len = (hi - lo) as usize * header.columns * 4;
        g.data.extend(
            rest[..len]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        rest = &rest[len..];
    }
    Ok(())
}

/// Why a part is not the expected one, naming the file.
fn refusal(sh: &Sharding, path: &Path, want: &Header, bytes: &[u8]) -> anyhow::Error {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let why = match serde_json::from_slice::<Header>(line) {
        Err(_) => "not a balance part file".to_string(),
        Ok(h) if h.format != want.format => "another format".into(),
        Ok(h) if h.fingerprint != want.fingerprint => {
            "written by a shard of a run with other options (every shard must run the same command)"
                .into()
        }
        Ok(h) if h != *want => "a part of this run with other games in it".into(),
        Ok(_) => "truncated or with trailing bytes".into(),
    };
    anyhow::anyhow!(
        "{}: {why}; remove {} to start again",
        path.display(),
        sh.dir.display()
    )
}

/// Ends a sharded run once this shard has read every part: it says it is done, and shard 0
/// waits for every shard to say so, then removes the parts.
pub fn finish(sh: &Sharding) -> Result<()> {
    shifu_engine::files::write_atomic(&sh.done_path(sh.k), b"done\n")?;
    if sh.k != 0 {
        return Ok(());
    }
    for k in 0..sh.n {
        wait_for(sh, &sh.done_path(k), k)?;
    }
    let tail = format!("-of-{}", sh.n);
    let ours = |name: &str| name.contains(".shard-") && name.ends_with(&tail);
    for entry in std::fs::read_dir(&sh.dir).with_context(|| format!("{}", sh.dir.display()))? {
        let entry = entry?;
        if entry.file_type()?.is_file() && ours(&entry.file_name().to_string_lossy()) {
            std::fs::remove_file(entry.path()).ok();
        }
    }
    std::fs::remove_dir(&sh.dir).ok();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sharding(dir: &Path, k: u64, n: u64) -> Sharding {
        Sharding {
            k,
            n,
            dir: dir.to_path_buf(),
            fingerprint: "abc-seed1".into(),
            wait: Duration::from_millis(50),
        }
    }

    #[test]
    fn balance_shard_slices_cover_each_job_once_in_order() {
        let d = std::env::temp_dir();
        for n in 1..6 {
            let mut next = 37;
            for k in 0..n {
                let r = sharding(&d, k, n).slice(k, &(37..50));
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, 50);
        }
    }

    #[test]
    fn balance_shard_part_reads_back_and_refuses_a_bad_one() {
        let d = std::env::temp_dir().join(format!("shifu-part-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let sh = sharding(&d, 1, 2);
        let jobs = [(0, 0..4), (3, 10..13)];
        let header = sh.header("look-1", 1, 2, &jobs);
        assert_eq!(header.jobs, [(0, 2, 4), (3, 11, 13)]);
        let mut bytes = header.bytes().unwrap();
        for x in 0..8u8 {
            bytes.extend_from_slice(&f32::from(x).to_le_bytes());
        }
        let path = d.join("part");
        std::fs::write(&path, &bytes).unwrap();
        let mut out = vec![Games::default(), Games::default()];
        read_part(&sh, &path, &header, &mut out).unwrap();
        assert_eq!(out[0].data, [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(out[1].data, [4.0, 5.0, 6.0, 7.0]);
        // Truncated, trailing bytes, another run: each refused, naming the file.
        let other = Sharding {
            fingerprint: "other-seed2".into(),
            ..sh.clone()
        };
        let cases = [
            (&bytes[..bytes.len() - 1], &sh, "truncated"),
            (&[bytes.as_slice(), b"x"].concat()[..], &sh, "trailing"),
            (&bytes[..], &other, "other options"),
        ];
        for (b, reader, why) in cases {
            std::fs::write(&path, b).unwrap();
            let header = reader.header("look-1", 1, 2, &jobs);
            let e = read_part(reader, &path, &header, &mut out).unwrap_err();
            let e = format!("{e:#}");
            assert!(e.contains(why) && e.contains("part"), "{e}");
        }
        std::fs::remove_dir_all(&d).ok();
    }
}
