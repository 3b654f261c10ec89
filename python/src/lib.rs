//! `shifu._shifu`: the native part of the `shifu` Python module. The Python package
//! (`python/shifu/`) builds the PettingZoo environments, the DataFrames and the Ray studies on
//! top of it.

mod balance;
mod batch;
mod env;
mod vector;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict};
use shifu::setup::GameArgs;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Turns any error into a Python `ValueError` carrying its whole chain of causes.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The options every game takes, as the command's `--game --players --data --config --set`.
pub(crate) fn game_args(
    game: &str,
    players: Option<u8>,
    data: Option<PathBuf>,
    config: Option<PathBuf>,
    set: Vec<String>,
) -> GameArgs {
    GameArgs {
        game: game.to_string(),
        players,
        data,
        config,
        set,
    }
}

/// One game as a stepping environment (used by `shifu.env`).
#[pyclass(module = "shifu._shifu")]
struct Env {
    inner: Box<dyn env::DynEnv>,
    /// Scratch for one observation, reused between calls.
    scratch: Vec<f32>,
}

#[pymethods]
impl Env {
    /// `Env(game, players=None, data=None, config=None, set=[], seed=0)`.
    #[new]
    #[pyo3(signature = (game, players=None, data=None, config=None, set=Vec::new(), seed=0))]
    fn new(
        game: &str,
        players: Option<u8>,
        data: Option<PathBuf>,
        config: Option<PathBuf>,
        set: Vec<String>,
        seed: u64,
    ) -> PyResult<Self> {
        let args = game_args(game, players, data, config, set);
        let inner: anyhow::Result<Box<dyn env::DynEnv>> = shifu::with_game!(game, G => {
            args.build::<G>().map(|g| Box::new(env::EnvOf::new(g, seed)) as Box<dyn env::DynEnv>)
        });
        let inner = inner.map_err(|e| value_error(format!("{e:#}")))?;
        let scratch = vec![0.0; inner.observation_len()];
        Ok(Env { inner, scratch })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    #[getter]
    fn num_seats(&self) -> usize {
        self.inner.num_seats()
    }
    #[getter]
    fn observation_len(&self) -> usize {
        self.inner.observation_len()
    }
    #[getter]
    fn action_count(&self) -> usize {
        self.inner.action_count()
    }

    /// Starts a new game from `seed`.
    fn reset(&mut self, seed: u64) {
        self.inner.reset(seed);
    }

    /// The seat to move (0-based), or None once the game is over.
    fn to_move(&self) -> Option<u8> {
        self.inner.to_move()
    }

    /// `seat`'s observation as little-endian float32 bytes (`numpy.frombuffer`).
    fn observe<'py>(&mut self, py: Python<'py>, seat: u8) -> PyResult<Bound<'py, PyByteArray>> {
        if usize::from(seat) >= self.inner.num_seats() {
            return Err(value_error(format!(
                "seat {seat} is not at the table ({} seats)",
                self.inner.num_seats()
            )));
        }
        self.inner.observe(seat, &mut self.scratch);
        let v = &self.scratch;
        PyByteArray::new_with(py, v.len() * 4, |bytes| {
            for (b, x) in bytes.chunks_exact_mut(4).zip(v) {
                b.copy_from_slice(&x.to_le_bytes());
            }
            Ok(())
        })
    }

    /// Per value of the observation: the smallest value any position encodes to.
    fn observation_low(&self) -> Vec<f32> {
        vector::class::split_bounds(&self.inner.bounds()).0
    }

    /// Per value of the observation: the largest value any position encodes to.
    fn observation_high(&self) -> Vec<f32> {
        vector::class::split_bounds(&self.inner.bounds()).1
    }

    /// Per value of the observation: `(zero, step)` lists; the `uint8` form `q` of a value
    /// stands for `zero + q * step`.
    fn observation_u8_scale(&self) -> (Vec<f32>, Vec<f32>) {
        let (_, _, zero, step) = vector::class::split_bounds(&self.inner.bounds());
        (zero, step)
    }

    /// `seat`'s observation in the `uint8` form, one byte per value.
    fn observe_u8<'py>(&mut self, py: Python<'py>, seat: u8) -> PyResult<Bound<'py, PyByteArray>> {
        if usize::from(seat) >= self.inner.num_seats() {
            return Err(value_error(format!(
                "seat {seat} is not at the table ({} seats)",
                self.inner.num_seats()
            )));
        }
        let inner = &self.inner;
        PyByteArray::new_with(py, inner.observation_len(), |b| {
            inner.observe_u8(seat, b);
            Ok(())
        })
    }

    /// The legal-action mask of the seat to move, one byte per action index.
    fn mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        let inner = &mut self.inner;
        PyByteArray::new_with(py, inner.action_count(), |m| {
            inner.mask(m);
            Ok(())
        })
    }

    /// The legal action indices of the seat to move.
    fn legal(&mut self) -> Vec<usize> {
        self.inner.legal()
    }

    /// Plays the action with index `action` for the seat to move (ValueError when not legal).
    fn step(&mut self, action: usize) -> PyResult<()> {
        self.inner.step(action).map_err(value_error)
    }

    /// `(rewards, scores, capped)` once the game is over, else None.
    fn result(&self) -> Option<(Vec<f64>, Vec<f64>, bool)> {
        self.inner.result()
    }

    /// The position as text.
    fn render(&self) -> String {
        self.inner.render()
    }

    /// The action with index `action`, by name.
    fn action_name(&self, action: usize) -> Option<String> {
        self.inner.action_name(action)
    }

    /// The index of the action the built-in agent `spec` takes for the seat to move.
    #[pyo3(signature = (spec, seed=0))]
    /// Ctrl-C raises KeyboardInterrupt: a search checks for signals every few iterations.
    fn agent_action(&mut self, py: Python<'_>, spec: &str, seed: u64) -> PyResult<usize> {
        let inner = &mut self.inner;
        let interrupt: Arc<Mutex<Option<PyErr>>> = Arc::default();
        let caught = interrupt.clone();
        let stop = Box::new(move || match Python::with_gil(|py| py.check_signals()) {
            Ok(()) => false,
            Err(e) => {
                *caught.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                true
            }
        });
        let action = py.allow_threads(|| inner.agent_action(spec, seed, stop));
        if let Some(e) = interrupt.lock().unwrap_or_else(|p| p.into_inner()).take() {
            return Err(e);
        }
        action.map_err(value_error)
    }

    /// Checks, without playing, that the built-in agent `spec` can play `seat` of this game
    /// (ValueError with the message of `shifu play --agents` when not).
    fn check_agent(&self, spec: &str, seat: u8) -> PyResult<()> {
        if usize::from(seat) >= self.inner.num_seats() {
            return Err(value_error(format!(
                "seat {seat} is not at the table ({} seats)",
                self.inner.num_seats()
            )));
        }
        self.inner.check_agent(spec, seat).map_err(value_error)
    }

    /// The position as JSON (the format of `shifu show --state`).
    fn state_json(&self) -> String {
        self.inner.state_json()
    }
}

/// The registered games, from the engine's list: per game a dict of its name, title,
/// `min_players`, `max_players`, `players` (every count), `cooperative` and
/// `hidden_information`.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    shifu_engine::GAMES
        .iter()
        .map(|g| {
            let d = PyDict::new(py);
            d.set_item("name", g.name)?;
            d.set_item("title", g.title)?;
            d.set_item("min_players", g.min_players)?;
            d.set_item("max_players", g.max_players)?;
            d.set_item("players", g.players().map(u32::from).collect::<Vec<u32>>())?;
            d.set_item("cooperative", g.cooperative)?;
            d.set_item("hidden_information", g.hidden_information)?;
            Ok(d)
        })
        .collect()
}

/// Plays a run in Rust on all cores; returns the CSV bytes of `shifu play --out`, the seat
/// summary as the JSON of `shifu play --json` (its verdict at `margin`), and the summary's text.
#[pyfunction]
#[pyo3(signature = (game, players=None, agents="random".to_string(), games=1000, seed=1, set=Vec::new(), data=None, config=None, rotate=false, threads=None, start=None, end=None, header=true, margin=shifu::equivalence::DEFAULT_MARGIN))]
#[allow(clippy::too_many_arguments)]
fn play<'py>(
    py: Python<'py>,
    game: &str,
    players: Option<u8>,
    agents: String,
    games: u64,
    seed: u64,
    set: Vec<String>,
    data: Option<PathBuf>,
    config: Option<PathBuf>,
    rotate: bool,
    threads: Option<usize>,
    start: Option<u64>,
    end: Option<u64>,
    header: bool,
    margin: f64,
) -> PyResult<(Bound<'py, PyBytes>, String, String)> {
    let g = game_args(game, players, data, config, set);
    let run = shifu::setup::RunArgs {
        agents,
        games,
        seed,
        rotate,
        threads,
    };
    let range = match (start, end) {
        (None, None) => None,
        (s, e) => Some(s.unwrap_or(0)..e.unwrap_or(games)),
    };
    let played = py
        .allow_threads(|| {
            // Ctrl-C raises KeyboardInterrupt: the run checks for signals as games finish.
            let mut stop = || -> anyhow::Result<()> {
                Python::with_gil(|py| py.check_signals()).map_err(anyhow::Error::new)
            };
            shifu::play::play_in_memory_until(&g, &run, margin, range, &mut stop)
        })
        .map_err(|e| match e.downcast::<PyErr>() {
            Ok(interrupt) => interrupt,
            Err(e) => value_error(format!("{e:#}")),
        })?;
    let csv = played.csv(header).map_err(value_error)?;
    let (json, text) = batch::summary(&played)?;
    Ok((PyBytes::new(py, &csv), json, text))
}

/// The run file's text columns (the DataFrame's `str` dtypes).
#[pyfunction]
fn text_columns() -> Vec<&'static str> {
    batch::text_columns()
}

/// The native module.
#[pymodule]
fn _shifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Env>()?;
    m.add_class::<vector::class::VectorEnv>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(balance::balance, m)?)?;
    m.add_function(wrap_pyfunction!(text_columns, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
