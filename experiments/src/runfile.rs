//! Run output: one CSV row per game, written in game order as games finish, to `FILE.tmp` and
//! renamed to `FILE` when the run is complete; a manifest `FILE.manifest.json` beside it. A
//! killed run leaves `FILE.tmp`, which `--resume` continues: complete rows are kept, a torn last
//! line is dropped, and play resumes at the next game index.

use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A run's identity: a resumed run must match it exactly.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Manifest {
    /// shifu's version.
    pub version: String,
    /// The command line, as typed.
    pub command: Vec<String>,
    /// Game name.
    pub game: String,
    /// Player count.
    pub players: usize,
    /// Agent spec by seat.
    pub agents: Vec<String>,
    /// The full parameters (TOML).
    pub params: String,
    /// Parameter-set id (FNV-1a 64 of `params`, hex).
    pub param_set: String,
    /// Card data source and its status line.
    pub data: String,
    /// Master seed.
    pub master_seed: u64,
    /// Games in the whole run (all shards).
    pub games: u64,
    /// This shard's first game index and one past its last.
    pub shard_range: (u64, u64),
    /// The shard, `k/n` (0-based k).
    pub shard: String,
    /// How game seeds are derived.
    pub seed_rule: String,
}

/// FNV-1a 64-bit hash, as a 16-digit hex string.
pub fn fnv_hex(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The temporary path a run writes to.
pub fn tmp_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// The manifest path beside an output file.
pub fn manifest_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".manifest.json");
    PathBuf::from(s)
}

/// An open run file.
pub struct RunFile {
    out: PathBuf,
    tmp: PathBuf,
    writer: csv::Writer<BufWriter<File>>,
    /// The game index the next row must have.
    pub next: u64,
    /// Rows already in the file when it was opened (resumed rows).
    pub resumed: Vec<csv::StringRecord>,
}

impl RunFile {
    /// Opens `out` for a run with this header and manifest, resuming a partial `out.tmp` when
    /// `resume` is set.
    pub fn open(
        out: &Path,
        header: &[String],
        manifest: &Manifest,
        resume: bool,
    ) -> Result<RunFile> {
        let tmp = tmp_path(out);
        let mpath = manifest_path(out);
        let mut resumed = Vec::new();
        let mut next = manifest.shard_range.0;
        let file = if tmp.exists() {
            if !resume {
                bail!(
                    "{} holds a partial run; pass --resume to continue it, or delete it to start over",
                    tmp.display()
                );
            }
            let old: Manifest = serde_json::from_str(
                &std::fs::read_to_string(&mpath)
                    .with_context(|| format!("--resume needs the manifest {}", mpath.display()))?,
            )
            .with_context(|| format!("reading {}", mpath.display()))?;
            let same = Manifest {
                command: old.command.clone(),
                version: old.version.clone(),
                ..manifest.clone()
            };
            if old != same {
                bail!(
                    "--resume: {} was started with different settings (game, agents, parameters, seed, games or shard); \
                     delete {} to start over",
                    mpath.display(),
                    tmp.display()
                );
            }
            // Keep whole lines only; a torn last line is cut off.
            let mut f = OpenOptions::new().read(true).write(true).open(&tmp)?;
            let mut reader = BufReader::new(&mut f);
            let mut good = 0u64;
            let mut line = String::new();
            let mut first = true;
            loop {
                line.clear();
                let n = reader.read_line(&mut line)?;
                if n == 0 || !line.ends_with('\n') {
                    break;
                }
                if first {
                    if line.trim_end() != header.join(",") {
                        bail!("--resume: {} has a different header", tmp.display());
                    }
                    first = false;
                } else {
                    let rec = csv::ReaderBuilder::new()
                        .has_headers(false)
                        .from_reader(line.as_bytes())
                        .records()
                        .next()
                        .transpose()?
                        .context("empty row")?;
                    let idx: u64 = rec.get(0).unwrap_or("").parse().context("bad game index")?;
                    if idx != next {
                        bail!(
                            "--resume: {} has game {idx} where game {next} was expected",
                            tmp.display()
                        );
                    }
                    next += 1;
                    resumed.push(rec);
                }
                good += n as u64;
            }
            drop(reader);
            f.set_len(good)?;
            f.seek(SeekFrom::End(0))?;
            f
        } else {
            File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?
        };
        std::fs::write(&mpath, serde_json::to_string_pretty(manifest)?)
            .with_context(|| format!("cannot write {}", mpath.display()))?;
        let fresh =
            resumed.is_empty() && next == manifest.shard_range.0 && file.metadata()?.len() == 0;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(BufWriter::new(file));
        if fresh {
            writer.write_record(header)?;
            writer.flush()?;
        }
        Ok(RunFile {
            out: out.to_path_buf(),
            tmp,
            writer,
            next,
            resumed,
        })
    }

    /// Appends rows (which must continue the game order) and flushes them to disk.
    pub fn append(&mut self, rows: &[Vec<String>]) -> Result<()> {
        for r in rows {
            self.writer.write_record(r)?;
        }
        self.writer.flush()?;
        self.next += rows.len() as u64;
        Ok(())
    }

    /// Finishes the run: renames `FILE.tmp` to `FILE`.
    pub fn finish(mut self) -> Result<()> {
        self.writer.flush()?;
        let inner = self
            .writer
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        inner
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .sync_all()?;
        std::fs::rename(&self.tmp, &self.out).with_context(|| {
            format!("renaming {} to {}", self.tmp.display(), self.out.display())
        })?;
        Ok(())
    }
}

/// `shifu merge`: shard files (any order) into the single-run file. Headers must match; game
/// indices must cover one range without gaps or repeats.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<u64> {
    if inputs.is_empty() {
        bail!("give the shard files to merge");
    }
    let mut shards = Vec::new();
    for p in inputs {
        let mut r =
            csv::Reader::from_path(p).with_context(|| format!("reading {}", p.display()))?;
        let header = r.headers()?.clone();
        let first: Option<u64> = match r.records().next() {
            Some(rec) => Some(
                rec?.get(0)
                    .unwrap_or("")
                    .parse()
                    .with_context(|| format!("{}: bad game index", p.display()))?,
            ),
            None => None,
        };
        shards.push((first.unwrap_or(u64::MAX), header, p.clone()));
    }
    shards.sort_by_key(|s| s.0);
    let header = shards[0].1.clone();
    let tmp = tmp_path(out);
    let mut w =
        csv::Writer::from_path(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    w.write_record(&header)?;
    let mut next: Option<u64> = None;
    let mut rows = 0u64;
    for (_, h, p) in &shards {
        if *h != header {
            bail!(
                "{} has a different header from {}",
                p.display(),
                shards[0].2.display()
            );
        }
        let mut r = csv::Reader::from_path(p)?;
        for rec in r.records() {
            let rec = rec?;
            let idx: u64 = rec
                .get(0)
                .unwrap_or("")
                .parse()
                .with_context(|| format!("{}: bad game index", p.display()))?;
            if let Some(n) = next {
                if idx != n {
                    bail!("{}: game {idx} where game {n} was expected (a gap or a repeat between shards)", p.display());
                }
            }
            next = Some(idx + 1);
            w.write_record(&rec)?;
            rows += 1;
        }
    }
    w.flush()?;
    drop(w);
    std::fs::rename(&tmp, out)?;
    let mut f = File::open(out)?;
    f.flush()?;
    Ok(rows)
}
