//! What the `shifu` command needs of a game beyond the [`Game`] contract: building from the
//! command's options, the parameters and data for a run's manifest, the counts, events and
//! tallies of a finished game for the CSV and the summary, and a printed position.
//!
//! Each game implements [`Present`] in its own folder (`present.rs`), so a new game is its folder,
//! its evaluation file (agents crate) and one entry in [`crate::game_list!`].

use crate::data_file::DataFile;
#[cfg(doc)]
use crate::data_file::NoData;
use crate::error::EngineError;
use crate::game::Game;
use crate::param_file::ParamFile;
use std::path::Path;

/// Most per-game event columns a game may write.
pub const MAX_EVENTS: usize = 4;
/// Most game-wide tallies a game may keep.
pub const MAX_TALLIES: usize = 192;

/// A share's confidence interval: `(successes, n)` to `(low, high)`.
pub type Interval = dyn Fn(f64, f64) -> (f64, f64);

/// The options every `shifu` subcommand shares, as the engine reads them.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildOptions<'a> {
    /// `--players`: overrides `players` in the config and the overrides.
    pub players: Option<u8>,
    /// `--data`: a data file, or `builtin:NAME`.
    pub data: Option<&'a Path>,
    /// `--config`: a TOML parameter file.
    pub config: Option<&'a Path>,
    /// `--set key=value`, in order.
    pub set: &'a [String],
}

impl BuildOptions<'_> {
    /// The parameters these options give: `--config`, then each `--set`, then `--players`.
    pub fn params<P: ParamFile>(&self) -> Result<P, EngineError> {
        let mut params = match self.config {
            Some(path) => P::from_toml_file(path)?,
            None => P::default(),
        };
        params.set_all(self.set.iter().map(String::as_str))?;
        if let Some(p) = self.players {
            params.set("players", &p.to_string())?;
        }
        Ok(params)
    }
}

/// A game as the `shifu` command presents it.
pub trait Present: Game + Sized + 'static {
    /// Names of the two counts written per seat to the CSV (for example objectives and coins).
    const COUNTS: [&'static str; 2];
    /// Names of the game-wide tallies summed over games for the summary (none by default).
    const TALLIES: &'static [&'static str] = &[];
    /// Names of per-game event columns written to the CSV after `capped`; a cell is empty when
    /// the event did not happen (none by default).
    const EVENTS: &'static [&'static str] = &[];

    /// The game's card data.
    type Data: DataFile;
    /// The game's parameters.
    type Params: ParamFile;

    /// Builds the game from card data and parameters, checking that they fit together (the
    /// game's own `new`).
    fn from_parts(data: Self::Data, params: Self::Params) -> Result<Self, EngineError>;
    /// The card data in use (after any reconstruction knobs).
    fn data(&self) -> &Self::Data;
    /// The parameters as given.
    fn params(&self) -> &Self::Params;

    /// Builds the game from the shared options: the parameters, then `--data` (a file or
    /// `builtin:NAME`, else the embedded data).
    fn build(options: &BuildOptions) -> Result<Self, EngineError> {
        let params = options.params()?;
        let data = match options.data {
            Some(path) => Self::Data::from_arg(path)?,
            None => Self::Data::embedded(),
        };
        Self::from_parts(data, params)
    }
    /// The parameters as TOML (for the manifest and the parameter-set id).
    fn params_toml(&self) -> String {
        toml::to_string(self.params()).unwrap_or_default()
    }
    /// The card data's source and provenance.
    fn data_label(&self) -> String {
        self.data().label()
    }
    /// The card data's contents as compact JSON: `shifu` hashes it into a run's manifest, so
    /// that a resume notices an edited file.
    fn data_text(&self) -> String {
        serde_json::to_string(self.data()).unwrap_or_default()
    }
    /// The card data as a data file the game loads (after any reconstruction knobs); an error
    /// for a game without a data file ([`NoData`]).
    fn card_data_json(&self) -> Result<String, String> {
        let text = self.data().text().into_owned();
        if text.is_empty() {
            return Err(format!("{} has no data file", Self::INFO.name));
        }
        Ok(text)
    }
    /// The round cap.
    fn max_rounds(&self) -> u32;
    /// The two per-seat counts of a finished game.
    fn counts(&self, state: &Self::State, seat: usize) -> [u32; 2];
    /// A finished game's events, one per [`Present::EVENTS`] name (`None`: it did not happen).
    fn events(&self, _state: &Self::State) -> [Option<u32>; MAX_EVENTS] {
        [None; MAX_EVENTS]
    }
    /// Adds a finished game's tallies to `out` (one entry per [`Present::TALLIES`] name).
    fn tally(&self, _state: &Self::State, _out: &mut [f64]) {}
    /// Summary lines from the tallies summed over `games` games; `interval(successes, n)` gives
    /// a share's 95% interval (Wilson's, from `shifu`'s statistics). None by default.
    fn summarize(&self, _totals: &[f64], _games: u64, _interval: &Interval) -> Vec<String> {
        Vec::new()
    }
    /// A human-readable position for `shifu show` (by default the state's debug text).
    fn render(&self, state: &Self::State) -> String {
        format!("{state:#?}")
    }
    /// Players in a state (checked against the game when a state file is loaded).
    fn state_players(state: &Self::State) -> usize;
    /// Checks a state loaded from a file: ranges, derived fields, invariants, a legal move.
    fn check_state(&self, state: &Self::State) -> Result<(), String>;
}
