//! The batch API's seat summary: the value `shifu play --json` prints, through serde.

use pyo3::prelude::*;
use shifu::play::InMemoryRun;

/// The seat summary of a run, as `shifu play --json` gives it (serde), and as its text.
pub fn summary(run: &InMemoryRun) -> PyResult<(String, String)> {
    let json = serde_json::to_string(&run.summary).map_err(crate::value_error)?;
    Ok((json, run.summary.to_string()))
}

/// The run file's text columns (the others are numbers or `true`/`false`).
pub fn text_columns() -> Vec<&'static str> {
    shifu::row::TEXT_COLUMNS.to_vec()
}
