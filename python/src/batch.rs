//! The batch API's seat analysis: what `shifu seats` prints, as a dict.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use shifu::play::InMemoryRun;
use shifu::stats::{balance, capped_warning, chi_square_equal, wilson, CAPPED_WARN};

/// The seat analysis of a run: per seat (lists indexed by seat) the agent, win share with its
/// Wilson 95% interval, mean rank and mean score; the chi-square test against equal chances;
/// balance; the capped share with its interval and warning.
pub fn summary<'py>(py: Python<'py>, run: &InMemoryRun) -> PyResult<Bound<'py, PyDict>> {
    let t = &run.tally;
    let seats = run.specs.len();
    let n = t.games as f64;
    let d = PyDict::new(py);
    let share: Vec<f64> = (0..seats).map(|s| t.win[s] / n).collect();
    let (lo, hi): (Vec<f64>, Vec<f64>) = (0..seats).map(|s| wilson(t.win[s], n)).unzip();
    d.set_item("game", &run.game)?;
    d.set_item("players", seats)?;
    d.set_item("games", t.games)?;
    d.set_item("agent", run.specs.clone())?;
    d.set_item("win_share", share.clone())?;
    d.set_item("ci_low", lo)?;
    d.set_item("ci_high", hi)?;
    d.set_item(
        "mean_rank",
        (0..seats).map(|s| t.rank[s] / n).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "mean_score",
        (0..seats).map(|s| t.score[s] / n).collect::<Vec<_>>(),
    )?;
    let (chi, df, p) = chi_square_equal(&t.win[..seats]);
    d.set_item("chi_square", chi)?;
    d.set_item("df", df)?;
    d.set_item("p_value", p)?;
    d.set_item("balance", balance(&share))?;
    d.set_item("shared_wins", t.shared as f64 / n)?;
    d.set_item("mean_rounds", t.rounds as f64 / n)?;
    d.set_item("mean_steps", t.steps as f64 / n)?;
    d.set_item("steps", t.steps)?;
    d.set_item("capped", t.capped)?;
    d.set_item("capped_share", t.capped as f64 / n)?;
    let (clo, chi_) = wilson(t.capped as f64, n);
    d.set_item("capped_ci", (clo, chi_))?;
    d.set_item("capped_warn_above", CAPPED_WARN)?;
    d.set_item("max_rounds", run.max_rounds)?;
    d.set_item("warning", capped_warning(t.capped, t.games, run.max_rounds))?;
    d.set_item("data", &run.data_label)?;
    Ok(d)
}
