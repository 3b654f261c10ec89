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
use std::io::{BufReader, BufWriter, Write};
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

impl NpzWriter {
    /// Starts an archive at `out` with these columns (name, type, row width).
    pub fn create(
        out: &Path,
        columns: &[(&'static str, Dtype, Option<usize>)],
        compress: bool,
    ) -> Result<Self> {
        crate::runfile::check_writable_target(out)?;
        let mut parts = out.as_os_str().to_owned();
        parts.push(".parts");
        let parts = PathBuf::from(parts);
        if parts.exists() {
            bail!(
                "{} exists (left by an export that did not finish?); remove it or choose another --out",
                parts.display()
            );
        }
        std::fs::create_dir(&parts)
            .with_context(|| format!("cannot create {}", parts.display()))?;
        let mut cols = Vec::new();
        for &(name, dtype, width) in columns {
            let path = parts.join(format!("{name}.raw"));
            let file =
                File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
            cols.push(Column {
                name,
                dtype,
                width,
                path,
                file: BufWriter::with_capacity(1 << 16, file),
                bytes: 0,
            });
        }
        Ok(NpzWriter {
            out: out.to_path_buf(),
            parts,
            compress,
            columns: cols,
        })
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
}
