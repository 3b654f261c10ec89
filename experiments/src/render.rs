//! How a subcommand's result reaches standard output: its text (the value's `Display`), or with
//! `--json` the same value serialized, so that both carry the same figures.

use anyhow::Result;
use serde::Serialize;
use std::fmt::Display;
use std::io::Write;

/// Prints `value` as text, or as pretty-printed JSON when `json` is set.
pub fn emit<T: Serialize + Display>(value: &T, json: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, value)?;
        writeln!(out)?;
    } else {
        write!(out, "{value}")?;
    }
    out.flush()?;
    Ok(())
}
