//! Run output: one CSV row per game, written in game order as games finish, to `FILE.tmp` and
//! renamed to `FILE` when the run is complete; a manifest `FILE.manifest.json` beside it. A
//! killed run leaves `FILE.tmp`, which `--resume` continues: complete rows are kept, a torn last
//! line is dropped, and play resumes at the next game index.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom};
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
    /// FNV-1a 64 of the card data's contents (hex), so that a resume notices an edited file.
    #[serde(default)]
    pub data_hash: String,
    /// Other input files by name (agent weights), with the FNV-1a 64 of their contents.
    #[serde(default)]
    pub inputs: std::collections::BTreeMap<String, String>,
    /// The game's event columns in the run file with what each holds (absent from manifests
    /// written before they were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<EventColumn>>,
}

/// A per-game event column of a run file, as its manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventColumn {
    /// The CSV column.
    pub column: String,
    /// What its cells hold.
    pub kind: shifu_engine::present::EventKind,
}

impl EventColumn {
    /// The manifest's record of every event column of a game.
    pub fn all(events: &[shifu_engine::present::Event]) -> Vec<EventColumn> {
        events
            .iter()
            .map(|e| EventColumn {
                column: e.column.to_string(),
                kind: e.kind,
            })
            .collect()
    }
}

/// The manifest beside a run file (`FILE.manifest.json`), if there is one that reads.
pub fn read_manifest(run_file: &Path) -> Option<Manifest> {
    let text = std::fs::read_to_string(manifest_path(run_file)).ok()?;
    serde_json::from_str(&text).ok()
}

pub use crate::hash::fnv_hex;

/// The weights files named by the agent specs (`weights=PATH`), each with the hash of its
/// contents, for the manifest.
pub fn weights_inputs(specs: &[String]) -> Result<std::collections::BTreeMap<String, String>> {
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

/// The temporary path a run writes to.
pub fn tmp_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// Checks from the shards' manifests that they are one run's and cover all of its games.
fn check_complete(inputs: &[PathBuf], allow_partial: bool) -> Result<()> {
    let mut manifests = Vec::new();
    for p in inputs {
        let m = manifest_path(p);
        let Ok(text) = shifu_engine::files::read_text(&m) else {
            if allow_partial {
                return Ok(());
            }
            bail!(
                "{} has no manifest ({}), so whether the shards cover the whole run cannot be checked; pass --allow-partial to merge them anyway",
                p.display(),
                m.display()
            );
        };
        let man: Manifest =
            serde_json::from_str(&text).with_context(|| format!("reading {}", m.display()))?;
        manifests.push((p, man));
    }
    let (first_path, first) = &manifests[0];
    for (p, m) in &manifests[1..] {
        let d = differences(
            first,
            &Manifest {
                shard_range: first.shard_range,
                shard: first.shard.clone(),
                ..m.clone()
            },
        );
        if !d.is_empty() {
            bail!(
                "{} and {} are shards of different runs (different {})",
                first_path.display(),
                p.display(),
                d.join(", ")
            );
        }
    }
    let mut ranges: Vec<(u64, u64)> = manifests.iter().map(|(_, m)| m.shard_range).collect();
    ranges.sort_unstable();
    let mut covered = 0u64;
    let mut missing = Vec::new();
    for (lo, hi) in ranges {
        if lo > covered {
            missing.push(format!("{covered}..{lo}"));
        }
        covered = covered.max(hi);
    }
    if covered < first.games {
        missing.push(format!("{covered}..{}", first.games));
    }
    if !missing.is_empty() && !allow_partial {
        bail!(
            "the shards cover only part of the run's {} games (missing games {}); merge every shard, or pass --allow-partial",
            first.games,
            missing.join(", ")
        );
    }
    Ok(())
}

/// The number of complete lines in a file.
fn count_lines(path: &Path) -> Result<u64> {
    let f = shifu_engine::files::open_input(path)?;
    let mut n = 0;
    for line in BufReader::new(f).split(b'\n') {
        line?;
        n += 1;
    }
    Ok(n)
}

/// The manifest path beside an output file.
pub fn manifest_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".manifest.json");
    PathBuf::from(s)
}

/// A lock on a run's output, `FILE.lock` holding the process id: a second run on the same
/// `--out` is refused while the first lives. Removed when dropped; a lock whose process is
/// gone (a killed run) is taken over.
struct OutLock(PathBuf);

impl OutLock {
    fn take(out: &Path) -> Result<OutLock> {
        let mut s = out.as_os_str().to_owned();
        s.push(".lock");
        let path = PathBuf::from(s);
        for _ in 0..2 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    use std::io::Write;
                    writeln!(f, "{}", std::process::id())
                        .with_context(|| format!("writing {}", path.display()))?;
                    return Ok(OutLock(path));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let pid = std::fs::read_to_string(&path).unwrap_or_default();
                    let pid = pid.trim();
                    let alive = !pid.is_empty() && Path::new("/proc").join(pid).exists();
                    if alive {
                        bail!(
                            "another shifu run (process {pid}) is writing {}: its lock file {} exists; \
                             wait for it to end, or choose another --out",
                            out.display(),
                            path.display()
                        );
                    }
                    // Left by a killed run: take it over.
                    std::fs::remove_file(&path).ok();
                }
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot create {}", path.display()))
                }
            }
        }
        bail!("cannot take the lock {}", path.display())
    }
}

impl Drop for OutLock {
    fn drop(&mut self) {
        std::fs::remove_file(&self.0).ok();
    }
}

/// An open run file.
pub struct RunFile {
    _lock: OutLock,
    out: PathBuf,
    tmp: PathBuf,
    writer: csv::Writer<BufWriter<File>>,
    /// The game index the next row must have.
    pub next: u64,
}

/// Refuses a path that exists and is not a regular file (a device, a directory, a pipe): a run
/// renames its temporary file over its output, which would replace such a thing.
pub fn check_writable_target(path: &Path) -> Result<()> {
    Ok(shifu_engine::files::check_output(path)?)
}

/// Writes `text` to `path` through a temporary file renamed over it.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    Ok(shifu_engine::files::write_atomic(path, text.as_bytes())?)
}

/// The settings in which a resumed run differs from the one that wrote the manifest.
pub fn differences(old: &Manifest, new: &Manifest) -> Vec<String> {
    let mut d = Vec::new();
    let mut check = |name: &str, same: bool| {
        if !same {
            d.push(name.to_string());
        }
    };
    check("game", old.game == new.game);
    check("players", old.players == new.players);
    check("agents", old.agents == new.agents);
    check("parameters", old.params == new.params);
    check(
        "card data (its contents)",
        old.data == new.data && old.data_hash == new.data_hash,
    );
    check(
        "agent weights files (their contents)",
        old.inputs == new.inputs,
    );
    check("master seed", old.master_seed == new.master_seed);
    check("games", old.games == new.games);
    check(
        "shard",
        old.shard_range == new.shard_range && old.shard == new.shard,
    );
    check("seed rule", old.seed_rule == new.seed_rule);
    d
}

/// Refuses to resume a run whose manifest (at `mpath`) differs from `manifest`.
fn check_same_run(mpath: &Path, tmp: &Path, manifest: &Manifest) -> Result<()> {
    let text =
        shifu_engine::files::read_text(mpath).context("--resume needs the run's manifest")?;
    let old: Manifest =
        serde_json::from_str(&text).with_context(|| format!("reading {}", mpath.display()))?;
    let d = differences(&old, manifest);
    if !d.is_empty() {
        bail!(
            "--resume: {} was started with a different {}; run with the same settings, or delete {} to start over",
            mpath.display(),
            d.join(", "),
            tmp.display()
        );
    }
    Ok(())
}

/// Reads a partial run file back for `--resume`: checks the header, passes each complete row
/// (game `*next` onwards, in order) to `on_row`, cuts off a torn last line, and returns the
/// file positioned at its end.
fn read_back(
    tmp: &Path,
    header: &[String],
    next: &mut u64,
    on_row: &mut impl FnMut(u64, &csv::StringRecord) -> Result<()>,
) -> Result<File> {
    // Keep whole lines only; a torn last line is cut off.
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .open(tmp)
        .with_context(|| format!("cannot open {}", tmp.display()))?;
    let mut reader = BufReader::new(&mut f);
    let mut good = 0u64;
    let mut line = String::new();
    let mut line_no = 0u64;
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        line_no += 1;
        if line_no == 1 {
            if line.trim_end() != header.join(",") {
                bail!("--resume: {} has a different header", tmp.display());
            }
        } else {
            let at = || format!("{} line {line_no}", tmp.display());
            let rec = parse_line(&line).with_context(at)?;
            let idx = game_index(&rec).with_context(at)?;
            if idx != *next {
                bail!(
                    "--resume: {} has game {idx} where game {next} was expected",
                    at()
                );
            }
            on_row(line_no, &rec).with_context(at)?;
            *next += 1;
        }
        good += n as u64;
    }
    drop(reader);
    f.set_len(good)?;
    f.seek(SeekFrom::End(0))?;
    Ok(f)
}

/// One CSV line as a record.
fn parse_line(line: &str) -> Result<csv::StringRecord> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes())
        .records()
        .next()
        .transpose()?
        .context("an empty row")
}

/// A row's game index (its first column).
fn game_index(rec: &csv::StringRecord) -> Result<u64> {
    rec.get(0).unwrap_or("").parse().context("bad game index")
}

impl RunFile {
    /// Opens `out` for a run with this header and manifest. With `resume`, a partial `out.tmp`
    /// from the same settings is continued: each complete row is passed to `on_row` (and not
    /// kept), a torn last line is dropped. Without it, a partial file that holds games is
    /// refused (a header-only one, left by a kill in the first moments, is started over).
    /// The manifest is written before the temporary file, so a kill at any moment leaves a
    /// run that `--resume` continues.
    pub fn open(
        out: &Path,
        header: &[String],
        manifest: &Manifest,
        resume: bool,
        mut on_row: impl FnMut(u64, &csv::StringRecord) -> Result<()>,
    ) -> Result<RunFile> {
        let tmp = tmp_path(out);
        let mpath = manifest_path(out);
        for p in [out, tmp.as_path(), mpath.as_path()] {
            check_writable_target(p)?;
        }
        let lock = OutLock::take(out)?;
        let mut next = manifest.shard_range.0;
        let has_rows = tmp.exists() && count_lines(&tmp)? > 1;
        if has_rows && !resume {
            bail!(
                "{} holds a partial run; pass --resume to continue it, or delete it to start over",
                tmp.display()
            );
        }
        if resume && has_rows {
            check_same_run(&mpath, &tmp, manifest)?;
        }
        write_atomically(&mpath, &serde_json::to_string_pretty(manifest)?)?;
        let file = if resume && has_rows {
            read_back(&tmp, header, &mut next, &mut on_row)?
        } else {
            File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?
        };
        let fresh = file.metadata()?.len() == 0;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(BufWriter::new(file));
        if fresh {
            writer.write_record(header)?;
            writer.flush()?;
        }
        Ok(RunFile {
            _lock: lock,
            out: out.to_path_buf(),
            tmp,
            writer,
            next,
        })
    }

    /// Appends rows (which must continue the game order) and flushes them to disk.
    pub fn append(&mut self, rows: &[csv::StringRecord]) -> Result<()> {
        let tmp = &self.tmp;
        let writing = || format!("writing {}", tmp.display());
        for r in rows {
            self.writer.write_record(r).with_context(writing)?;
        }
        self.writer.flush().with_context(writing)?;
        self.next += rows.len() as u64;
        Ok(())
    }

    /// Finishes the run: renames `FILE.tmp` to `FILE`.
    pub fn finish(mut self) -> Result<()> {
        self.writer
            .flush()
            .with_context(|| format!("writing {}", self.tmp.display()))?;
        let inner = self
            .writer
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        inner
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .sync_all()
            .with_context(|| format!("writing {}", self.tmp.display()))?;
        std::fs::rename(&self.tmp, &self.out).with_context(|| {
            format!("renaming {} to {}", self.tmp.display(), self.out.display())
        })?;
        Ok(())
    }
}

/// `shifu merge`: shard files (any order) into the single-run file. Headers must match; game
/// indices must cover one range without gaps or repeats; and, from the shards' manifests, the
/// shards must be of one run and cover all of its games, unless `allow_partial` is set.
pub fn merge(out: &Path, inputs: &[PathBuf], allow_partial: bool) -> Result<u64> {
    if inputs.is_empty() {
        bail!("give the shard files to merge");
    }
    check_writable_target(out)?;
    refuse_output_among_inputs(out, inputs)?;
    check_complete(inputs, allow_partial)?;
    let shards = shards_in_order(inputs)?;
    let header = shards[0].1.clone();
    let tmp = tmp_path(out);
    check_writable_target(&tmp)?;
    let file = File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    let mut w = csv::Writer::from_writer(BufWriter::new(file));
    let writing = || format!("writing {}", tmp.display());
    w.write_record(&header).with_context(writing)?;
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
        let mut r = csv::Reader::from_reader(shifu_engine::files::open_input(p)?);
        for rec in r.records() {
            let rec = rec?;
            let idx = game_index(&rec).with_context(|| p.display().to_string())?;
            if let Some(n) = next {
                if idx != n {
                    bail!("{}: game {idx} where game {n} was expected (a gap or a repeat between shards)", p.display());
                }
            }
            next = Some(idx + 1);
            w.write_record(&rec).with_context(writing)?;
            rows += 1;
        }
    }
    finish_merge(w, &tmp, out)?;
    Ok(rows)
}

/// Each shard's first game index, header and path, in the order of their first games (an empty
/// shard last).
fn shards_in_order(inputs: &[PathBuf]) -> Result<Vec<(u64, csv::StringRecord, PathBuf)>> {
    let mut shards = Vec::new();
    for p in inputs {
        let mut r = csv::Reader::from_reader(shifu_engine::files::open_input(p)?);
        let header = r.headers()?.clone();
        let first: Option<u64> = match r.records().next() {
            Some(rec) => Some(game_index(&rec?).with_context(|| p.display().to_string())?),
            None => None,
        };
        shards.push((first.unwrap_or(u64::MAX), header, p.clone()));
    }
    shards.sort_by_key(|s| s.0);
    Ok(shards)
}

/// Flushes and syncs the merged rows in `tmp`, then renames it to `out`.
fn finish_merge(w: csv::Writer<BufWriter<File>>, tmp: &Path, out: &Path) -> Result<()> {
    let writing = || format!("writing {}", tmp.display());
    let inner = w
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{}: {e}", tmp.display()))?;
    let file = inner
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{}: {e}", tmp.display()))?;
    file.sync_all().with_context(writing)?;
    std::fs::rename(tmp, out)
        .with_context(|| format!("renaming {} to {}", tmp.display(), out.display()))?;
    Ok(())
}

/// Refuses a merge whose output is one of its inputs (or their temporary file): the rename
/// at the end would replace a shard with the merged rows.
fn refuse_output_among_inputs(out: &Path, inputs: &[PathBuf]) -> Result<()> {
    let canon = |p: &Path| -> PathBuf {
        match (p.parent(), p.file_name()) {
            (Some(dir), Some(name)) => {
                let dir = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                };
                std::fs::canonicalize(dir)
                    .map(|d| d.join(name))
                    .unwrap_or_else(|_| p.to_path_buf())
            }
            _ => p.to_path_buf(),
        }
    };
    let targets = [canon(out), canon(&tmp_path(out))];
    for p in inputs {
        let real = std::fs::canonicalize(p).unwrap_or_else(|_| canon(p));
        if targets.contains(&real) || targets.contains(&canon(p)) {
            bail!(
                "--out {} is also an input ({}); the output may not be an input: choose another --out",
                out.display(),
                p.display()
            );
        }
    }
    Ok(())
}
