//! Streaming `.npz` output (numpy's archive of `.npy` arrays, read by `numpy.load`).
//!
//! Each column's rows go to a raw temporary file as they come; at the end the archive is
//! assembled (the `.npy` header, now that the row count is known, then the raw bytes, copied)
//! with the `zip` crate, stored or (with `compress`) deflated at level 1: numpy reads both, as
//! it reads `savez` and `savez_compressed` archives. Memory stays flat however many rows are written. The
//! `.npy` header is format 1.0: magic, version, a little-endian `u16` length and a Python dict
//! literal padded with spaces to a multiple of 64 bytes.

use anyhow::{bail, Context, Result};
use std::fs::File;
use std::io::{BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The element type of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    /// `float32`.
    F32,
    /// `uint8`.
    U8,
    /// `int64`.
    I64,
    /// `uint64`.
    U64,
}

impl Dtype {
    fn descr(self) -> &'static str {
        match self {
            Dtype::F32 => "<f4",
            Dtype::U8 => "|u1",
            Dtype::I64 => "<i8",
            Dtype::U64 => "<u8",
        }
    }

    fn size(self) -> u64 {
        match self {
            Dtype::F32 => 4,
            Dtype::U8 => 1,
            Dtype::I64 | Dtype::U64 => 8,
        }
    }
}

/// One array of the archive: `rows` rows of `width` values (a 1-D array when `width` is None).
pub struct Column {
    name: &'static str,
    dtype: Dtype,
    width: Option<usize>,
    path: PathBuf,
    file: BufWriter<File>,
    bytes: u64,
}

impl Column {
    /// Appends `f32` values.
    pub fn f32s(&mut self, v: &[f32]) -> Result<()> {
        debug_assert_eq!(self.dtype, Dtype::F32);
        for x in v {
            self.file.write_all(&x.to_le_bytes())?;
        }
        self.bytes += 4 * v.len() as u64;
        Ok(())
    }

    /// Appends bytes (`uint8` values).
    pub fn u8s(&mut self, v: &[u8]) -> Result<()> {
        debug_assert_eq!(self.dtype, Dtype::U8);
        self.file.write_all(v)?;
        self.bytes += v.len() as u64;
        Ok(())
    }

    /// Appends an `int64` value.
    pub fn i64(&mut self, x: i64) -> Result<()> {
        debug_assert_eq!(self.dtype, Dtype::I64);
        self.file.write_all(&x.to_le_bytes())?;
        self.bytes += 8;
        Ok(())
    }

    /// Appends a `uint64` value.
    pub fn u64(&mut self, x: u64) -> Result<()> {
        debug_assert_eq!(self.dtype, Dtype::U64);
        self.file.write_all(&x.to_le_bytes())?;
        self.bytes += 8;
        Ok(())
    }

    /// Rows written, or an error when the bytes do not make whole rows.
    fn rows(&self) -> Result<u64> {
        let row = self.dtype.size() * self.width.unwrap_or(1) as u64;
        if row == 0 || !self.bytes.is_multiple_of(row) {
            bail!(
                "internal error: column {} holds {} bytes, not whole rows",
                self.name,
                self.bytes
            );
        }
        Ok(self.bytes / row)
    }
}

/// The `.npy` header for `rows` rows of a column.
fn npy_header(dtype: Dtype, rows: u64, width: Option<usize>) -> Vec<u8> {
    let shape = match width {
        Some(w) => format!("({rows}, {w})"),
        None => format!("({rows},)"),
    };
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        dtype.descr()
    );
    // Magic (6) + version (2) + length (2) + dict + '\n', padded to a multiple of 64.
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    while 10 + dict.len() + 1 < total {
        dict.push(' ');
    }
    dict.push('\n');
    let mut h = b"\x93NUMPY\x01\x00".to_vec();
    h.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h
}

/// An `.npz` archive being written: its columns, each streaming to a temporary file in
/// `FILE.parts/` beside the output until [`NpzWriter::finish`].
pub struct NpzWriter {
    out: PathBuf,
    parts: PathBuf,
    compress: bool,
    /// The columns, in the order given to [`NpzWriter::create`].
    pub columns: Vec<Column>,
}

/// The file in `FILE.parts/` naming the export (process id) that made it.
const OWNER: &str = "shifu-export.pid";
/// The file in `FILE.parts/` holding the export's settings, for a resume to compare.
const SETTINGS: &str = "settings.json";
/// The file in `FILE.parts/` holding the last checkpoint ([`Checkpoint`]).
const PROGRESS: &str = "progress.json";

/// Whether `name` is a file an export writes in `FILE.parts/`: its owner, settings and
/// checkpoint files, the columns, and the temporary files of atomic writes.
fn export_file(name: &str) -> bool {
    [OWNER, SETTINGS, PROGRESS].contains(&name)
        || name.ends_with(".raw")
        || (name.starts_with('.') && name.ends_with(".tmp"))
}

/// Checks that `parts` was left by an export that is gone (it holds [`OWNER`] naming a process
/// that no longer runs, and only files an export writes); anything else is refused.
fn check_leftover_parts(parts: &Path) -> Result<()> {
    let pid = std::fs::read_to_string(parts.join(OWNER)).unwrap_or_default();
    let pid = pid.trim();
    let ours = !pid.is_empty()
        && std::fs::read_dir(parts)?.all(|e| {
            e.map(|e| export_file(&e.file_name().to_string_lossy()))
                .unwrap_or(false)
        });
    if !ours {
        bail!(
            "{} exists and was not made by a shifu export; remove it or choose another --out",
            parts.display()
        );
    }
    if Path::new("/proc").join(pid).exists() {
        bail!(
            "{} belongs to a running export (process {pid}); wait for it or choose another --out",
            parts.display()
        );
    }
    Ok(())
}

/// Removes a `FILE.parts/` left by a killed export (see [`check_leftover_parts`]).
fn clean_leftover_parts(parts: &Path) -> Result<()> {
    check_leftover_parts(parts)?;
    eprintln!(
        "removing {}, left by an export that did not finish (`--resume` continues one instead)",
        parts.display()
    );
    std::fs::remove_dir_all(parts).with_context(|| format!("cannot remove {}", parts.display()))
}

/// The `FILE.parts/` folder beside an archive.
fn parts_path(out: &Path) -> PathBuf {
    let mut parts = out.as_os_str().to_owned();
    parts.push(".parts");
    PathBuf::from(parts)
}

/// An export's last checkpoint: the bytes of each column after the last whole batch of games,
/// and the caller's own state at that point (games done, counts).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    /// Each column's name and its bytes at the checkpoint.
    pub bytes: Vec<(String, u64)>,
    /// The caller's state at the checkpoint.
    pub mark: serde_json::Value,
}

/// What a killed export left in `FILE.parts/`: its settings (as written by
/// [`NpzWriter::create`]) and its last checkpoint, if it reached one.
pub struct Leftover {
    /// The settings text.
    pub settings: String,
    /// The last checkpoint; `None` when the export was killed before its first.
    pub checkpoint: Option<Checkpoint>,
}

impl NpzWriter {
    /// What a killed export left at `out` for `--resume`: `None` when there is no
    /// `FILE.parts/` or it holds no settings. A folder not made by an export, or one in use,
    /// is refused.
    pub fn leftover(out: &Path) -> Result<Option<Leftover>> {
        let parts = parts_path(out);
        if !parts.exists() {
            return Ok(None);
        }
        check_leftover_parts(&parts)?;
        let read = |name: &str| -> Result<Option<String>> {
            let p = parts.join(name);
            if !p.exists() {
                return Ok(None);
            }
            Ok(Some(shifu_engine::files::read_text(&p)?))
        };
        let Some(settings) = read(SETTINGS)? else {
            return Ok(None);
        };
        let checkpoint = match read(PROGRESS)? {
            Some(text) => Some(serde_json::from_str(&text).with_context(|| {
                format!("{}: not a checkpoint", parts.join(PROGRESS).display())
            })?),
            None => None,
        };
        Ok(Some(Leftover {
            settings,
            checkpoint,
        }))
    }

    /// Starts an archive at `out` with these columns (name, type, row width), recording
    /// `settings` for a later `--resume` to compare. A `FILE.parts/` left by a killed export is
    /// removed first.
    pub fn create(
        out: &Path,
        columns: &[(&'static str, Dtype, Option<usize>)],
        compress: bool,
        settings: &str,
    ) -> Result<Self> {
        crate::runfile::check_writable_target(out)?;
        let parts = parts_path(out);
        if parts.exists() {
            clean_leftover_parts(&parts)?;
        }
        std::fs::create_dir(&parts)
            .with_context(|| format!("cannot create {}", parts.display()))?;
        std::fs::write(parts.join(OWNER), format!("{}\n", std::process::id()))
            .with_context(|| format!("cannot write in {}", parts.display()))?;
        shifu_engine::files::write_atomic(&parts.join(SETTINGS), settings.as_bytes())?;
        Self::open_columns(out, parts, columns, compress, None)
    }

    /// Continues the archive a killed export left at `out` from `checkpoint` (see
    /// [`NpzWriter::leftover`]): each column is cut back to its bytes at the checkpoint, so the
    /// rows of a batch in flight at the kill are dropped, and appended to from there.
    pub fn resume(
        out: &Path,
        columns: &[(&'static str, Dtype, Option<usize>)],
        compress: bool,
        checkpoint: &Checkpoint,
    ) -> Result<Self> {
        crate::runfile::check_writable_target(out)?;
        let parts = parts_path(out);
        check_leftover_parts(&parts)?;
        let names: Vec<&str> = columns.iter().map(|c| c.0).collect();
        let saved: Vec<&str> = checkpoint.bytes.iter().map(|c| c.0.as_str()).collect();
        if names != saved {
            bail!(
                "{}: the checkpoint's columns ({}) are not this export's ({}); delete {} to start over",
                parts.join(PROGRESS).display(),
                saved.join(", "),
                names.join(", "),
                parts.display()
            );
        }
        std::fs::write(parts.join(OWNER), format!("{}\n", std::process::id()))
            .with_context(|| format!("cannot write in {}", parts.display()))?;
        Self::open_columns(out, parts, columns, compress, Some(checkpoint))
    }

    /// Opens the column files in `parts`: created empty, or cut back to a checkpoint.
    fn open_columns(
        out: &Path,
        parts: PathBuf,
        columns: &[(&'static str, Dtype, Option<usize>)],
        compress: bool,
        from: Option<&Checkpoint>,
    ) -> Result<Self> {
        let mut cols = Vec::new();
        for (i, &(name, dtype, width)) in columns.iter().enumerate() {
            let path = parts.join(format!("{name}.raw"));
            let cannot = || format!("cannot write {}", path.display());
            let (file, bytes) = match from {
                None => (File::create(&path).with_context(cannot)?, 0),
                Some(c) => {
                    let bytes = c.bytes[i].1;
                    let mut f = std::fs::OpenOptions::new()
                        .write(true)
                        .open(&path)
                        .with_context(cannot)?;
                    let len = f.metadata().with_context(cannot)?.len();
                    if len < bytes {
                        bail!(
                            "{} holds {len} bytes, fewer than the {bytes} its checkpoint says; delete {} to start over",
                            path.display(),
                            parts.display()
                        );
                    }
                    f.set_len(bytes).with_context(cannot)?;
                    f.seek(SeekFrom::End(0)).with_context(cannot)?;
                    (f, bytes)
                }
            };
            cols.push(Column {
                name,
                dtype,
                width,
                path,
                file: BufWriter::with_capacity(1 << 16, file),
                bytes,
            });
        }
        Ok(NpzWriter {
            out: out.to_path_buf(),
            parts,
            compress,
            columns: cols,
        })
    }

    /// Records a checkpoint after whole games: every column is flushed and synced to disk,
    /// then its bytes and `mark` are written (atomically) to `FILE.parts/progress.json`, which
    /// [`NpzWriter::leftover`] reads back.
    pub fn checkpoint(&mut self, mark: serde_json::Value) -> Result<()> {
        for c in &mut self.columns {
            let writing = || format!("writing {}", c.path.display());
            c.file.flush().with_context(writing)?;
            c.file.get_ref().sync_data().with_context(writing)?;
        }
        let checkpoint = Checkpoint {
            bytes: self
                .columns
                .iter()
                .map(|c| (c.name.to_string(), c.bytes))
                .collect(),
            mark,
        };
        shifu_engine::files::write_atomic(
            &self.parts.join(PROGRESS),
            serde_json::to_string(&checkpoint)?.as_bytes(),
        )?;
        Ok(())
    }

    /// Assembles the archive (through `FILE.tmp`, renamed over `FILE`) and removes the
    /// temporary files. Returns the rows of the first column.
    pub fn finish(self) -> Result<u64> {
        use zip::write::SimpleFileOptions;
        let mut tmp = self.out.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        crate::runfile::check_writable_target(&tmp)?;
        let file = File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
        let mut zip = zip::ZipWriter::new(BufWriter::new(file));
        let options = if self.compress {
            SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .compression_level(Some(1))
        } else {
            SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored)
        }
        .large_file(true);
        let mut first = None;
        for mut c in self.columns {
            c.file.flush()?;
            let rows = c.rows()?;
            first.get_or_insert(rows);
            zip.start_file(format!("{}.npy", c.name), options)?;
            zip.write_all(&npy_header(c.dtype, rows, c.width))?;
            let mut raw = BufReader::new(File::open(&c.path)?);
            std::io::copy(&mut raw, &mut zip)?;
        }
        let mut w = zip.finish()?;
        w.flush()?;
        w.get_ref().sync_all()?;
        drop(w);
        std::fs::rename(&tmp, &self.out)
            .with_context(|| format!("cannot write {}", self.out.display()))?;
        std::fs::remove_dir_all(&self.parts)
            .with_context(|| format!("cannot remove {}", self.parts.display()))?;
        Ok(first.unwrap_or(0))
    }
}

/// One array read from an `.npz` archive: its element type, shape and little-endian bytes.
pub struct Array {
    /// Element type.
    pub dtype: Dtype,
    /// Shape (one or two dimensions).
    pub shape: Vec<usize>,
    /// The elements' bytes.
    pub bytes: Vec<u8>,
}

impl Array {
    /// The elements as `f32` (an error unless the type is `float32`).
    pub fn f32s(&self) -> Result<Vec<f32>> {
        if self.dtype != Dtype::F32 {
            bail!("expected float32 values");
        }
        Ok(self
            .bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }

    /// The elements as `i64` (from `int64`, `uint64` or `uint8`).
    pub fn i64s(&self) -> Result<Vec<i64>> {
        Ok(match self.dtype {
            Dtype::I64 => self
                .bytes
                .chunks_exact(8)
                .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")))
                .collect(),
            Dtype::U64 => self
                .bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as i64)
                .collect(),
            Dtype::U8 => self.bytes.iter().map(|&b| i64::from(b)).collect(),
            Dtype::F32 => bail!("expected integers, found float32"),
        })
    }
}

/// Reads array `name` from the archive at `path`, refusing anything but a C-ordered `.npy` of
/// one of the types [`NpzWriter`] writes (the error names the file and the array), and arrays
/// of more than `max_bytes`.
pub fn read_array(path: &Path, name: &str, max_bytes: u64) -> Result<Array> {
    read_rows(path, name, max_bytes, |_| true)
}

/// The rows of array `name` for which `keep(row)` holds (of a two-dimensional array, or the
/// elements of a one-dimensional one), read as a stream: memory holds the kept rows, so a
/// sample of an array larger than memory can be read. `max_bytes` bounds the kept rows' bytes;
/// the returned array's first dimension is the kept rows' count.
pub fn read_rows(
    path: &Path,
    name: &str,
    max_bytes: u64,
    keep: impl Fn(usize) -> bool,
) -> Result<Array> {
    let mut bytes = Vec::new();
    let (dtype, shape) = stream_rows(path, name, max_bytes, keep, |row| {
        bytes.extend_from_slice(row)
    })?;
    Ok(Array {
        dtype,
        shape,
        bytes,
    })
}

/// The kept rows of a `float32` array `name` (as [`read_rows`]), converted as they are read, so
/// memory holds them once: the values, row-major, and the shape (its first dimension the kept
/// rows' count).
pub fn read_f32_rows(
    path: &Path,
    name: &str,
    max_bytes: u64,
    keep: impl Fn(usize) -> bool,
) -> Result<(Vec<usize>, Vec<f32>)> {
    let mut values = Vec::new();
    let (dtype, shape) = stream_rows(path, name, max_bytes, keep, |row| {
        values.extend(
            row.chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        )
    })?;
    if dtype != Dtype::F32 {
        bail!(
            "{}: array `{name}`: expected float32 values",
            path.display()
        );
    }
    Ok((shape, values))
}

/// Streams the kept rows of array `name` to `sink`, after checking the header and that the
/// kept rows' bytes are at most `max_bytes`; returns the element type and the shape with the
/// kept rows' count first.
fn stream_rows(
    path: &Path,
    name: &str,
    max_bytes: u64,
    keep: impl Fn(usize) -> bool,
    mut sink: impl FnMut(&[u8]),
) -> Result<(Dtype, Vec<usize>)> {
    use std::io::Read;
    let what = || format!("{}: array `{name}`", path.display());
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut zip = zip::ZipArchive::new(BufReader::new(file))
        .with_context(|| format!("{}: not an .npz (zip) archive", path.display()))?;
    let entry = zip.by_name(&format!("{name}.npy")).with_context(|| {
        format!(
            "{}: no array `{name}` (is it a shifu export?)",
            path.display()
        )
    })?;
    let stored = entry.size();
    let mut entry = BufReader::with_capacity(1 << 20, entry);
    let (dtype, mut shape) = read_header(&mut entry, &what)?;
    let row_bytes = shape[1..]
        .iter()
        .try_fold(dtype.size(), |a, &x| a.checked_mul(x as u64))
        .with_context(|| format!("{}: a shape too large", what()))?;
    // The shape must fit the entry (rows of no bytes, at most 2^32), before rows are counted.
    let fits = match row_bytes.checked_mul(shape[0] as u64) {
        Some(0) => shape[0] <= 1 << 32,
        Some(total) => total <= stored,
        None => false,
    };
    if !fits {
        bail!("{}: shorter than its shape says", what());
    }
    let kept = (0..shape[0]).filter(|&i| keep(i)).count();
    row_bytes
        .checked_mul(kept as u64)
        .filter(|&b| b <= max_bytes)
        .with_context(|| {
            format!(
                "{}: {kept} rows of {row_bytes} bytes are larger than {max_bytes} bytes",
                what()
            )
        })?;
    let mut row = vec![0u8; row_bytes as usize];
    for i in 0..shape[0] {
        entry
            .read_exact(&mut row)
            .with_context(|| format!("{}: shorter than its shape says", what()))?;
        if keep(i) {
            sink(&row);
        }
    }
    shape[0] = kept;
    Ok((dtype, shape))
}

/// The `.npy` header of an array: its element type and its shape (one or two dimensions).
fn read_header(
    r: &mut impl std::io::Read,
    what: &dyn Fn() -> String,
) -> Result<(Dtype, Vec<usize>)> {
    let mut head = [0u8; 10];
    r.read_exact(&mut head).with_context(what)?;
    if &head[..6] != b"\x93NUMPY" || head[6] != 1 {
        bail!("{}: not an .npy array of format 1.0", what());
    }
    let len = usize::from(u16::from_le_bytes([head[8], head[9]]));
    let mut dict = vec![0u8; len];
    r.read_exact(&mut dict).with_context(what)?;
    let dict = String::from_utf8_lossy(&dict);
    let dtype = [Dtype::F32, Dtype::U8, Dtype::I64, Dtype::U64]
        .into_iter()
        .find(|d| dict.contains(&format!("'descr': '{}'", d.descr())))
        .with_context(|| format!("{}: an element type shifu does not write", what()))?;
    if !dict.contains("'fortran_order': False") {
        bail!("{}: Fortran-ordered arrays are not read", what());
    }
    let shape: Vec<usize> = dict
        .split_once("'shape': (")
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(s, _)| {
            s.split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(str::parse)
                .collect()
        })
        .transpose()
        .ok()
        .flatten()
        .filter(|s: &Vec<usize>| (1..=2).contains(&s.len()))
        .with_context(|| format!("{}: a shape of one or two dimensions", what()))?;
    Ok((dtype, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_headers_are_padded_to_64_bytes_and_name_the_shape() {
        for (rows, width) in [(0, None), (5, Some(3)), (123_456_789, Some(4_246))] {
            let h = npy_header(Dtype::F32, rows, width);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
            let len = u16::from_le_bytes([h[8], h[9]]) as usize;
            assert_eq!(len + 10, h.len());
            let text = std::str::from_utf8(&h[10..]).unwrap();
            assert!(text.ends_with('\n'));
            assert!(text.contains(&format!("{rows}")));
        }
    }

    #[test]
    fn arrays_written_are_read_back_and_limits_are_enforced() {
        let dir = std::env::temp_dir().join(format!("shifu-npz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("a.npz");
        let _ = std::fs::remove_file(&out);
        let cols = [("x", Dtype::F32, Some(2)), ("n", Dtype::I64, None)];
        let mut w = NpzWriter::create(&out, &cols, true, "{}").unwrap();
        w.columns[0].f32s(&[1.0, 2.5, -3.0, 4.0]).unwrap();
        w.columns[1].i64(7).unwrap();
        w.columns[1].i64(-9).unwrap();
        assert_eq!(w.finish().unwrap(), 2);
        let x = read_array(&out, "x", 1 << 20).unwrap();
        assert_eq!(x.shape, vec![2, 2]);
        assert_eq!(x.f32s().unwrap(), vec![1.0, 2.5, -3.0, 4.0]);
        let n = read_array(&out, "n", 1 << 20).unwrap();
        assert_eq!(n.shape, vec![2]);
        assert_eq!(n.i64s().unwrap(), vec![7, -9]);
        assert!(n.f32s().is_err());
        let e = read_array(&out, "x", 8).err().unwrap().to_string();
        assert!(e.contains("larger than 8 bytes"), "{e}");
        // A sample of the rows, read as a stream: only the kept rows count against the limit.
        let odd = read_rows(&out, "x", 8, |i| i == 1).unwrap();
        assert_eq!(odd.shape, vec![1, 2]);
        assert_eq!(odd.f32s().unwrap(), vec![-3.0, 4.0]);
        let e = read_array(&out, "y", 1 << 20).err().unwrap().to_string();
        assert!(e.contains("no array `y`"), "{e}");
        std::fs::write(dir.join("b.npz"), b"not a zip").unwrap();
        let e = format!(
            "{:#}",
            read_array(&dir.join("b.npz"), "x", 8).err().unwrap()
        );
        assert!(e.contains("not an .npz"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
