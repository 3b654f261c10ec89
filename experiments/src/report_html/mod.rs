//! `shifu report --html`: a result file as one self-contained, interactive HTML page. Each kind
//! of result is read into its value (a run's [`SeatStats`](crate::summary::SeatStats), a
//! sweep's cells, the `--json` values of balance, tournament and dose), then drawn: the charts
//! are SVG written here in Rust ([`svg`]), each mark with a `<title>` tooltip and data
//! attributes, and the page's small script ([`page`]) shows the tooltips and exports a chart as
//! a standalone `.svg` file. Nothing is loaded from the network.
//!
//! Hand-written SVG rather than a charting library: the page stays small (tens of kilobytes,
//! not the megabyte of a bundled Vega-Lite), the charts are in the file a test reads (no script
//! has to run to find a cell), and every text from an input file passes one escaping function.

pub mod balance;
pub mod dose;
pub mod page;
pub mod run;
pub mod svg;
pub mod sweep;
pub mod tournament;

use crate::equivalence::Verdict;
use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use std::io::Read;
use std::path::Path;

/// Whether `path` holds JSON (its first non-blank byte is `{`) rather than CSV.
pub fn is_json(path: &Path) -> Result<bool> {
    let mut f = shifu_engine::files::open_input(path)?;
    let mut head = [0u8; 256];
    let n = f
        .read(&mut head)
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(head[..n]
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{'))
}

/// A JSON result (balance `--out`, tournament or dose `--json`) as a report page at `out`.
pub fn json_report(input: &Path, out: &Path) -> Result<()> {
    let text =
        std::fs::read_to_string(input).with_context(|| format!("reading {}", input.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not valid JSON", input.display()))?;
    let field = |k: &str| value.get(k).is_some();
    let page = if field("race_entries") {
        balance::page(input, &parse(input, "balance result", value)?)
    } else if field("mode") {
        tournament::page(input, &parse(input, "tournament result", value)?)
    } else if field("analysis") {
        let v: dose::DoseView = parse(input, "dose result", value)?;
        v.check()
            .with_context(|| format!("{}: not a dose result", input.display()))?;
        dose::page(input, &v)
    } else {
        bail!(
            "{}: not a shifu result JSON (no race_entries field for a balance result, mode for a tournament, analysis for a dose analysis)",
            input.display()
        );
    };
    shifu_engine::files::write_atomic(out, page.html().as_bytes())?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Reads `value` as `T`; an error names the file, what it should be and serde's field.
fn parse<T: DeserializeOwned>(input: &Path, what: &str, value: serde_json::Value) -> Result<T> {
    serde_json::from_value(value)
        .map_err(|e| anyhow::anyhow!("{}: not a {what}: {e}", input.display()))
}

/// A verdict's name as files write it: `fair`, `unfair`, `undetermined` or `no_verdict`.
pub fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Fair => "fair",
        Verdict::Unfair { .. } => "unfair",
        Verdict::Undetermined { .. } => "undetermined",
        Verdict::NoVerdict { .. } => "no_verdict",
    }
}

/// A verdict's colour: green fair, red unfair, amber undetermined, grey none.
pub fn verdict_colour(name: &str) -> &'static str {
    match name {
        "fair" => "#2e7d32",
        "unfair" => "#c62828",
        "undetermined" => "#b7791f",
        _ => "#777777",
    }
}

/// A share as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}
