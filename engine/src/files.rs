//! Bounded file reads and atomic file writes, shared by every shifu crate.
//!
//! Every input file goes through [`read_text`] or [`read_bytes`]: a device, a pipe or a directory
//! is refused, and so is a file over [`MAX_INPUT_BYTES`] (`/dev/zero` or `/dev/urandom` given as
//! a weights or data file would otherwise be read until memory runs out). Every output file goes
//! through [`write_atomic`]: a temporary file in the target's folder, written, synced and renamed
//! over the target, so a full disk or a kill never leaves a good earlier file half written, and a
//! symlink or a device at the target is refused rather than written through. Errors name the file.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The largest input file shifu reads: 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// A file that could not be read or written; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {error}", file.display())]
pub struct FileError {
    /// The file.
    pub file: PathBuf,
    /// What went wrong (in the message already, so not a separate `source`).
    pub error: std::io::Error,
}

fn err(file: &Path, error: std::io::Error) -> FileError {
    FileError {
        file: file.to_path_buf(),
        error,
    }
}

fn invalid(file: &Path, message: String) -> FileError {
    err(
        file,
        std::io::Error::new(std::io::ErrorKind::InvalidInput, message),
    )
}

/// What kind of non-regular file `t` is, in words.
fn kind_name(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_fifo() {
        "a pipe"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Reads a whole regular file of at most [`MAX_INPUT_BYTES`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, FileError> {
    // Checked before opening too: opening a pipe would wait for a writer.
    let meta = std::fs::metadata(path).map_err(|e| err(path, e))?;
    check_input(path, &meta)?;
    let f = File::open(path).map_err(|e| err(path, e))?;
    let meta = f.metadata().map_err(|e| err(path, e))?;
    check_input(path, &meta)?;
    let mut buf = Vec::with_capacity(meta.len() as usize);
    f.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| err(path, e))?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(path));
    }
    Ok(buf)
}

/// Opens a regular file for a streamed read, without the size limit (run CSVs and archives may
/// be large; their readers bound what they keep). A directory, device or pipe is refused.
pub fn open_input(path: &Path) -> Result<File, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| err(path, e))?;
    check_regular(path, &meta)?;
    let f = File::open(path).map_err(|e| err(path, e))?;
    check_regular(path, &f.metadata().map_err(|e| err(path, e))?)?;
    Ok(f)
}

fn check_regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), FileError> {
    if meta.is_file() {
        return Ok(());
    }
    Err(invalid(
        path,
        format!(
            "is {}, not a regular file; give a file",
            kind_name(meta.file_type())
        ),
    ))
}

fn too_large(path: &Path) -> FileError {
    invalid(
        path,
        format!(
            "larger than the {} MiB limit on input files",
            MAX_INPUT_BYTES >> 20
        ),
    )
}

fn check_input(path: &Path, meta: &std::fs::Metadata) -> Result<(), FileError> {
    check_regular(path, meta)?;
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_large(path));
    }
    Ok(())
}

/// Reads a whole regular UTF-8 text file of at most [`MAX_INPUT_BYTES`].
pub fn read_text(path: &Path) -> Result<String, FileError> {
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        err(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
        )
    })
}

/// Refuses a target that exists and is not a regular file (a directory, a device, a pipe, a
/// symbolic link): shifu writes through a temporary file renamed over the target.
pub fn check_output(path: &Path) -> Result<(), FileError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => Err(invalid(
            path,
            format!(
                "exists and is {}, not a regular file; shifu writes its outputs to a regular file through a \
                 temporary file renamed over it: choose another path",
                kind_name(m.file_type())
            ),
        )),
        _ => Ok(()),
    }
}

/// The temporary path [`write_atomic`] writes to before renaming: `.NAME.PID.tmp` beside `path`.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let tmp = format!(
        ".{}.{}.tmp",
        name.unwrap_or_else(|| "out".into()),
        std::process::id()
    );
    path.with_file_name(tmp)
}

/// A test hook: with `SHIFU_TEST_FULL_DISK_AFTER=N`, the temporary file of every
/// [`write_atomic`] takes N bytes, then fails as a full disk does (`ENOSPC`), so that a test of
/// the command line sees a full disk without one.
pub const FULL_DISK_AFTER: &str = "SHIFU_TEST_FULL_DISK_AFTER";

/// A file with `room` bytes left before it fails as a full disk ([`FULL_DISK_AFTER`]); no
/// limit when `room` is `None`.
struct Room {
    file: File,
    room: Option<u64>,
}

impl Write for Room {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = match self.room {
            None => buf.len(),
            Some(0) => return Err(std::io::Error::from_raw_os_error(28)), // ENOSPC
            Some(r) => buf.len().min(r as usize),
        };
        let n = self.file.write(&buf[..n])?;
        if let Some(r) = &mut self.room {
            *r -= n as u64;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, written, synced
/// and renamed over `path`. A failure (a full disk) leaves any earlier `path` as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], with the contents written by `fill` into a buffered writer.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), FileError> {
    check_output(path)?;
    let tmp = temp_path(path);
    let result = (|| -> std::io::Result<()> {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        let room = std::env::var(FULL_DISK_AFTER)
            .ok()
            .and_then(|v| v.parse().ok());
        let mut w = std::io::BufWriter::new(Room { file: f, room });
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?.file;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            // Best effort: the rename is durable once the folder is synced.
            if let Ok(d) = File::open(dir) {
                d.sync_all().ok();
            }
        }
        Ok(())
    })();
    result.map_err(|e| {
        std::fs::remove_file(&tmp).ok();
        err(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_refuses_devices_and_directories() {
        for p in ["/dev/zero", "/dev/urandom", "/"] {
            let e = read_text(Path::new(p)).unwrap_err().to_string();
            assert!(e.starts_with(p) && e.contains("regular file"), "{e}");
        }
    }

    /// The kernel's own out-of-space error: a write to `/dev/full`.
    fn enospc() -> std::io::Error {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let e = f.write_all(&[0; 64]).and_then(|_| f.flush()).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28), "{e}");
        e
    }

    /// Issue 46 §2 item 15: a full disk said "No space left on device" without the file, and
    /// truncated a good earlier file. Now the message names the file, the earlier file is
    /// untouched and the temporary file is removed.
    #[test]
    fn full_disk_names_the_file_keeps_the_old_one_and_removes_the_temporary() {
        let dir = std::env::temp_dir().join(format!("shifu-full-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("results.csv");
        write_atomic(&f, b"a good earlier file\n").unwrap();
        let e = write_atomic_with(&f, |w| {
            w.write_all(&[b'x'; 100_000])?;
            Err(enospc())
        })
        .unwrap_err();
        let message = e.to_string();
        assert!(
            message.contains("results.csv") && message.contains("No space left on device"),
            "{message}"
        );
        assert_eq!(read_text(&f).unwrap(), "a good earlier file\n");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, [std::ffi::OsString::from("results.csv")]);
        // `/dev/full` itself as the target is refused before anything is written.
        let e = write_atomic(Path::new("/dev/full"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("/dev/full") && e.contains("a device"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The [`FULL_DISK_AFTER`] hook fails as the kernel does, whatever the write's size.
    #[test]
    fn room_fails_as_a_full_disk() {
        let dir = std::env::temp_dir().join(format!("shifu-room-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = File::create(dir.join("r")).unwrap();
        let mut w = std::io::BufWriter::new(Room {
            file,
            room: Some(10),
        });
        let e = w.write_all(&[1; 100]).and_then(|_| w.flush()).unwrap_err();
        assert_eq!(e.to_string(), enospc().to_string());
        assert_eq!(std::fs::metadata(dir.join("r")).unwrap().len(), 10);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn write_atomic_replaces_and_refuses_symlinks() {
        let dir = std::env::temp_dir().join(format!("shifu-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(read_text(&f).unwrap(), "two");
        let link = dir.join("l.txt");
        std::os::unix::fs::symlink(&f, &link).ok();
        let e = write_atomic(&link, b"x").unwrap_err().to_string();
        assert!(e.contains("symbolic link") && e.contains("l.txt"), "{e}");
        assert_eq!(read_text(&f).unwrap(), "two");
        std::fs::remove_dir_all(&dir).ok();
    }
}
