//! `shifu.balance(...)`: the options of `shifu balance` as keywords, parsed by the command's own
//! parser, and the result as the JSON `shifu balance --json` prints (serde).

use pyo3::prelude::*;

/// The options of one `shifu balance` call, as the Python keywords give them.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Options {
    game: String,
    players: Option<u8>,
    search: Vec<String>,
    sum: Vec<String>,
    objective: Vec<String>,
    reference: Vec<String>,
    set: Vec<String>,
    agents: Option<String>,
    validate_agents: Option<String>,
    margin: Option<f64>,
    error_rate: Option<f64>,
    budget: Option<u64>,
    max_games: Option<u64>,
    first_look: Option<u64>,
    finalists: Option<usize>,
    validation_games: Option<u64>,
    seed: Option<u64>,
    threads: Option<usize>,
    full_grid: bool,
    data: Option<String>,
    config: Option<String>,
}

impl Options {
    /// The command line these options stand for (after `shifu balance`).
    fn argv(&self) -> Vec<String> {
        let mut a: Vec<String> = vec!["--game".into(), self.game.clone(), "--quiet".into()];
        let mut push = |flag: &str, value: Option<String>| {
            if let Some(v) = value {
                a.push(format!("--{flag}"));
                a.push(v);
            }
        };
        push("players", self.players.map(|p| p.to_string()));
        for (flag, list) in [
            ("search", &self.search),
            ("sum", &self.sum),
            ("objective", &self.objective),
            ("reference", &self.reference),
            ("set", &self.set),
        ] {
            for v in list {
                push(flag, Some(v.clone()));
            }
        }
        push("agents", self.agents.clone());
        push("validate-agents", self.validate_agents.clone());
        push("margin", self.margin.map(|x| x.to_string()));
        push("error-rate", self.error_rate.map(|x| x.to_string()));
        push("budget", self.budget.map(|x| x.to_string()));
        push("max-games", self.max_games.map(|x| x.to_string()));
        push("first-look", self.first_look.map(|x| x.to_string()));
        push("finalists", self.finalists.map(|x| x.to_string()));
        push(
            "validation-games",
            self.validation_games.map(|x| x.to_string()),
        );
        push("seed", self.seed.map(|x| x.to_string()));
        push("threads", self.threads.map(|x| x.to_string()));
        push("data", self.data.clone());
        push("config", self.config.clone());
        if self.full_grid {
            a.push("--full-grid".into());
        }
        a
    }
}

/// Runs `shifu balance` with these options (every core unless `threads`), releasing the GIL;
/// returns the `--json` document's text. A bad option raises ValueError with the command's
/// message.
#[pyfunction]
pub fn balance(py: Python<'_>, options: Options) -> PyResult<String> {
    let argv = options.argv();
    py.allow_threads(|| {
        let args = shifu::balance::api::parse(&argv)?;
        shifu::balance::api::run_json(&args)
    })
    .map_err(|e| crate::value_error(format!("{e:#}")))
}
