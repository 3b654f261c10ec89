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

/// A game's statistics over finished games: one value is filled per finished game
/// ([`Present::tally`]), and values are merged across games and threads. Declare one with
/// [`crate::stats!`]: adding a statistic is one field.
pub trait Stats: Default + Clone + Send + serde::Serialize + 'static {
    /// Adds `other`'s totals to these, field by field.
    fn merge(&mut self, other: &Self);
}

impl Stats for f64 {
    fn merge(&mut self, other: &Self) {
        *self += other;
    }
}

impl Stats for () {
    fn merge(&mut self, _other: &Self) {}
}

impl<T: Stats, const N: usize> Stats for [T; N]
where
    [T; N]: Default + serde::Serialize,
{
    fn merge(&mut self, other: &Self) {
        for (x, y) in self.iter_mut().zip(other) {
            x.merge(y);
        }
    }
}

/// Declares a [`Stats`] struct: named fields, each a [`Stats`] (`f64`, an array of them, or
/// another such struct), merged field by field.
#[macro_export]
macro_rules! stats {
    ($(#[$m:meta])* $vis:vis struct $name:ident {
        $($(#[$fm:meta])* $fvis:vis $field:ident: $ty:ty,)*
    }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Default, serde::Serialize)]
        $vis struct $name {
            $($(#[$fm])* $fvis $field: $ty,)*
        }

        impl $crate::present::Stats for $name {
            fn merge(&mut self, other: &Self) {
                $($crate::present::Stats::merge(&mut self.$field, &other.$field);)*
            }
        }
    };
}

/// What a per-game event column holds (recorded in a run's manifest as `ran_out`, `seat` or
/// `count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A shared supply ran out in round N (the cell): sweeps and calibrations show the share of
    /// games in which it happened.
    RanOut,
    /// A seat, numbered from 1.
    Seat,
    /// A number: how many, how much, or which day.
    Count,
}

/// A per-game event column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// The CSV column.
    pub column: &'static str,
    /// The short name sweeps and calibrations show.
    pub label: &'static str,
    /// What the cell holds.
    pub kind: EventKind,
}

impl Event {
    /// An event column of the given kind, shown as `label`.
    pub const fn new(column: &'static str, label: &'static str, kind: EventKind) -> Event {
        Event {
            column,
            label,
            kind,
        }
    }
}

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
    /// Per-game event columns written to the CSV after `capped`; a cell is empty when the event
    /// did not happen (none by default).
    const EVENTS: &'static [Event] = &[];

    /// The game's statistics summed over games for the summary (`()` for none).
    type Stats: Stats;

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
    /// The value a parameter takes when it is not set, as `--set` text, where the parameters
    /// leave it to the card data (Tofu Shifu's start coins): what `shifu balance` measures a
    /// setting's distance from. None by default (the parameter file's own default is used).
    fn default_setting(&self, _key: &str) -> Option<String> {
        None
    }
    /// The round cap.
    fn max_rounds(&self) -> u32;
    /// The two per-seat counts of a finished game.
    fn counts(&self, state: &Self::State, seat: usize) -> [u32; 2];
    /// A finished game's events, one per [`Present::EVENTS`] name (`None`: it did not happen).
    fn events(&self, _state: &Self::State) -> [Option<u32>; MAX_EVENTS] {
        [None; MAX_EVENTS]
    }
    /// Adds a finished game's statistics to `out` (a fresh value per game).
    fn tally(&self, _state: &Self::State, _out: &mut Self::Stats) {}
    /// Summary lines from the statistics summed over `games` games; `interval(successes, n)`
    /// gives a share's 95% interval (Wilson's, from `shifu`'s statistics). None by default.
    fn summarize(&self, _totals: &Self::Stats, _games: u64, _interval: &Interval) -> Vec<String> {
        Vec::new()
    }
    /// A human-readable position for `shifu show` (by default the state's debug text).
    fn render(&self, state: &Self::State) -> String {
        format!("{state:#?}")
    }
    /// The position as a board to draw (`shifu replay`): everything when `seat` is `None`,
    /// else only what `seat` sees, built from its [`Game::observation`]. By default the printed
    /// position's lines, and for a seat its observation as JSON.
    fn board(&self, state: &Self::State, seat: Option<crate::Seat>) -> crate::board::Board {
        match seat {
            None => crate::board::Board::from_text(&self.render(state)),
            Some(s) => {
                let o =
                    serde_json::to_string_pretty(&self.observation(state, s)).unwrap_or_default();
                crate::board::Board::from_text(&format!("what player {} sees\n{o}", s + 1))
            }
        }
    }
    /// Players in a state (checked against the game when a state file is loaded).
    fn state_players(state: &Self::State) -> usize;
    /// Checks a state loaded from a file: ranges, derived fields, invariants, a legal move.
    fn check_state(&self, state: &Self::State) -> Result<(), String>;
}

#[cfg(test)]
mod tests {
    use super::Stats;

    crate::stats! {
        struct Two {
            a: f64,
            b: [f64; 3],
        }
    }

    #[test]
    fn stats_merge_field_by_field() {
        let mut x = Two {
            a: 1.0,
            b: [1.0, 2.0, 3.0],
        };
        x.merge(&Two {
            a: 0.5,
            b: [10.0, 0.0, -3.0],
        });
        assert_eq!(x.a, 1.5);
        assert_eq!(x.b, [11.0, 2.0, 0.0]);
        assert_eq!(
            serde_json::to_string(&x).unwrap(),
            r#"{"a":1.5,"b":[11.0,2.0,0.0]}"#
        );
    }
}
