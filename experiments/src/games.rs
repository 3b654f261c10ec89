//! The games the `shifu` command plays, and what it needs of each beyond the engine contract
//! and the agents' evaluation: building from the shared options, the parameters and data for
//! the manifest, two counts per seat for the CSV, game-wide tallies for the summary, and a
//! printed position for `shifu show`.
//!
//! Adding a game: implement [`Playable`] for it and add a line to [`with_game!`].

use crate::setup::GameArgs;
use anyhow::{Context, Result};
use shifu_agents::Evaluate;
use shifu_engine::tofu_kingdom::MAX_PLAYERS;
use shifu_engine::{tofu_kingdom, tofu_shifu};
use shifu_engine::{Game, ParamFile};

/// Most per-game event columns a game may write.
pub const MAX_EVENTS: usize = 4;

/// Implemented game names, for messages.
pub const GAMES: &str = "tofu-shifu, tofu-kingdom";

/// A game the `shifu` command can run.
pub trait Playable: Evaluate + Sized + 'static {
    /// Names of the two counts written per seat to the CSV (for example objectives and coins).
    const COUNTS: [&'static str; 2];
    /// Names of the game-wide tallies summed over games for the summary.
    const TALLIES: &'static [&'static str];
    /// Names of per-game event columns written to the CSV after `capped` (for Tofu Shifu: the
    /// round the coin reserve ran out, the round the deck ran out, the seat that triggered the
    /// end); a cell is empty when the event did not happen.
    const EVENTS: &'static [&'static str];

    /// Builds the game from the shared options (`--players`, `--data`, `--config`, `--set`).
    fn build(args: &GameArgs) -> Result<Self>;
    /// The parameters as TOML (for the manifest and the parameter-set id).
    fn params_toml(&self) -> Result<String>;
    /// The card data's source and provenance.
    fn data_label(&self) -> String;
    /// A hash of the card data's contents (for the manifest: a resume notices an edited file).
    fn data_hash(&self) -> String;
    /// The card data as a data file the game loads (after any reconstruction knobs).
    fn card_data_json(&self) -> Result<String>;
    /// The round cap.
    fn max_rounds(&self) -> u32;
    /// The two per-seat counts of a finished game.
    fn counts(&self, state: &Self::State, seat: usize) -> [u32; 2];
    /// A finished game's events, one per [`Playable::EVENTS`] name (`None`: it did not happen).
    fn events(&self, state: &Self::State) -> [Option<u32>; MAX_EVENTS];
    /// Adds a finished game's tallies to `out` (one entry per [`Playable::TALLIES`] name).
    fn tally(&self, state: &Self::State, out: &mut [f64]);
    /// Summary lines from the tallies summed over `games` games.
    fn summarize(&self, totals: &[f64], games: u64) -> Vec<String>;
    /// A human-readable position for `shifu show`.
    fn render(&self, state: &Self::State) -> String;
    /// Players in a state (checked against the game when a state file is loaded).
    fn state_players(state: &Self::State) -> usize;
    /// Checks a state loaded from a file: ranges, derived fields, invariants, a legal move.
    fn check_state(&self, state: &Self::State) -> std::result::Result<(), String>;
}

/// The parameters the options give: `--config`, then each `--set`, then `--players`.
fn params<P: ParamFile>(a: &GameArgs) -> Result<P> {
    let mut params = match &a.config {
        Some(path) => P::from_toml_file(path)?,
        None => P::default(),
    };
    params.set_all(a.set.iter().map(String::as_str))?;
    if let Some(p) = a.players {
        params.set("players", &p.to_string())?;
    }
    Ok(params)
}

/// The [`Playable`] methods every game writes the same way: building from `CardData` (a
/// `--data` file or the embedded one) and `Params`, and reading `params`, `data.source`,
/// `data.status` and `params.max_rounds`.
macro_rules! from_data_and_params {
    ($game:ident, $Game:ident) => {
        fn build(a: &GameArgs) -> Result<Self> {
            let params = params(a)?;
            let data = match &a.data {
                Some(path) => $game::CardData::from_arg(path)?,
                None => $game::CardData::embedded(),
            };
            $game::$Game::new(data, params).context("building the game")
        }

        fn params_toml(&self) -> Result<String> {
            toml::to_string(&self.params).context("serialising the parameters")
        }

        fn data_label(&self) -> String {
            format!("{} ({})", self.data.source, self.data.status)
        }

        fn data_hash(&self) -> String {
            crate::runfile::fnv_hex(&serde_json::to_string(&self.data).unwrap_or_default())
        }

        fn max_rounds(&self) -> u32 {
            u32::from(self.params.max_rounds)
        }
    };
}

/// Runs `$body` with `$G` bound to the game type named by `$name` (a `&str`).
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name {
            "tofu-shifu" => {
                type $G = shifu_engine::tofu_shifu::TofuShifu;
                $body
            }
            "tofu-kingdom" => {
                type $G = shifu_engine::tofu_kingdom::TofuKingdom;
                $body
            }
            other => Err(anyhow::anyhow!(
                "unknown or not yet implemented game `{other}`; implemented: {} (wok-star and ginza-retro-cafe are planned)",
                $crate::games::GAMES
            )),
        }
    };
}

impl Playable for tofu_shifu::TofuShifu {
    const COUNTS: [&'static str; 2] = ["objectives", "coins"];
    const TALLIES: &'static [&'static str] = &[
        "coins_out",
        "coins_out_rounds",
        "deck_out",
        "deck_out_rounds",
        "trigger_1",
        "trigger_2",
        "trigger_3",
        "trigger_4",
    ];
    const EVENTS: &'static [&'static str] = &["coins_out_round", "deck_out_round", "end_trigger"];

    from_data_and_params!(tofu_shifu, TofuShifu);

    fn card_data_json(&self) -> Result<String> {
        Ok(self.data.to_json_pretty())
    }

    fn counts(&self, s: &Self::State, seat: usize) -> [u32; 2] {
        [s.players[seat].objectives(), s.players[seat].coins as u32]
    }

    fn events(&self, s: &Self::State) -> [Option<u32>; MAX_EVENTS] {
        let round = |r: u16| (r > 0).then_some(u32::from(r));
        let trigger = (s.end_trigger != tofu_shifu::NONE).then(|| u32::from(s.end_trigger) + 1);
        [
            round(s.coins_out_round),
            round(s.deck_out_round),
            trigger,
            None,
        ]
    }

    fn tally(&self, s: &Self::State, out: &mut [f64]) {
        if s.coins_out_round > 0 {
            out[0] += 1.0;
            out[1] += f64::from(s.coins_out_round);
        }
        if s.deck_out_round > 0 {
            out[2] += 1.0;
            out[3] += f64::from(s.deck_out_round);
        }
        if let Some(x) = out.get_mut(4 + s.end_trigger as usize) {
            *x += 1.0;
        }
    }

    fn summarize(&self, x: &[f64], games: u64) -> Vec<String> {
        let n = games as f64;
        let share = |k: f64| {
            let (lo, hi) = crate::stats::wilson(k, n);
            format!(
                "{:.1}% [{:.1}%, {:.1}%]",
                100.0 * k / n,
                100.0 * lo,
                100.0 * hi
            )
        };
        let mean = |sum: f64, k: f64| {
            if k > 0.0 {
                format!(", mean round {:.1}", sum / k)
            } else {
                String::new()
            }
        };
        let triggered: f64 = x[4..4 + self.num_seats()].iter().sum();
        let by_seat: Vec<String> = (0..self.num_seats())
            .map(|s| format!("seat {} {:.3}", s + 1, x[4 + s] / triggered.max(1.0)))
            .collect();
        vec![
            format!(
                "coin reserve ran out in {}{}; deck ran out in {}{}",
                share(x[0]),
                mean(x[1], x[0]),
                share(x[2]),
                mean(x[3], x[2])
            ),
            format!(
                "the end was triggered (first to {} objectives) in {:.0} games by: {}",
                self.end_objectives(),
                triggered,
                by_seat.join(", ")
            ),
        ]
    }

    fn render(&self, s: &Self::State) -> String {
        crate::show::render(self, s)
    }

    fn state_players(s: &Self::State) -> usize {
        s.num_players as usize
    }

    fn check_state(&self, s: &Self::State) -> std::result::Result<(), String> {
        tofu_shifu::TofuShifu::check_state(self, s)
    }
}

impl Playable for tofu_kingdom::TofuKingdom {
    const COUNTS: [&'static str; 2] = ["finds", "prince_rounds"];
    const TALLIES: &'static [&'static str] = &[
        "rounds",
        "princess_dealt",
        "finds",
        "heart_rounds",
        "crown_rounds",
        "mask_rounds",
        "heart_points",
        "crown_points",
        "mask_points",
        "finds_1",
        "finds_2",
        "finds_3",
        "finds_4",
        "finds_5",
        "finds_6",
        "finds_7",
        "finds_8",
        "dealt_1",
        "dealt_2",
        "dealt_3",
        "dealt_4",
        "dealt_5",
        "dealt_6",
        "dealt_7",
        "dealt_8",
    ];

    const EVENTS: &'static [&'static str] = &[];

    from_data_and_params!(tofu_kingdom, TofuKingdom);

    fn card_data_json(&self) -> Result<String> {
        anyhow::bail!(
            "tofu-kingdom has no reconstruction knobs; its data file is {}",
            self.data.source
        )
    }

    fn events(&self, _s: &Self::State) -> [Option<u32>; MAX_EVENTS] {
        [None; MAX_EVENTS]
    }

    fn counts(&self, s: &Self::State, seat: usize) -> [u32; 2] {
        [
            u32::from(s.table.finds[seat]),
            u32::from(s.table.prince_rounds[seat]),
        ]
    }

    fn tally(&self, s: &Self::State, out: &mut [f64]) {
        let t = &s.table;
        let sum = |x: &[u16]| x.iter().map(|&v| f64::from(v)).sum::<f64>();
        out[0] += sum(&t.prince_rounds);
        out[1] += sum(&t.princess_dealt);
        out[2] += sum(&t.finds);
        for i in 0..3 {
            out[3 + i] += f64::from(t.symbol_rounds[i]);
            out[6 + i] += f64::from(t.faction_points[i]);
        }
        for seat in 0..MAX_PLAYERS {
            out[9 + seat] += f64::from(t.finds[seat]);
            out[17 + seat] += f64::from(t.princess_dealt[seat]);
        }
    }

    fn summarize(&self, x: &[f64], games: u64) -> Vec<String> {
        let rounds = x[0];
        let ci = |k: f64, n: f64| {
            let (lo, hi) = crate::stats::wilson(k, n);
            format!("{:.3} [{lo:.3}, {hi:.3}]", k / n.max(1.0))
        };
        let points: f64 = x[6..9].iter().sum();
        let by_seat: Vec<String> = (0..self.num_seats())
            .map(|s| format!("{} {}", s + 1, ci(x[9 + s], x[17 + s])))
            .collect();
        vec![
            format!(
                "rounds: {rounds:.0} in {games} games, {:.2} per game",
                rounds / games as f64
            ),
            format!(
                "Prince finds Princess Tofu: {} of rounds she was dealt ({:.0} rounds); {} of all rounds",
                ci(x[2], x[1]),
                x[1],
                ci(x[2], rounds)
            ),
            format!(
                "winning symbol by round: heart {}, crown {}, mask {}",
                ci(x[3], rounds),
                ci(x[4], rounds),
                ci(x[5], rounds)
            ),
            format!(
                "points by faction of the scoring card: heart {:.3}, crown {:.3}, mask {:.3} (shares of {points:.0} points, steals included)",
                x[6] / points.max(1.0),
                x[7] / points.max(1.0),
                x[8] / points.max(1.0)
            ),
            format!(
                "find rate by the Prince's seat (of rounds she was dealt): {}",
                by_seat.join(", ")
            ),
        ]
    }

    fn render(&self, s: &Self::State) -> String {
        use std::fmt::Write as _;
        let t = &s.table;
        let id = |c: u8| self.data.card(c).id.clone();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "round {}, Prince Mochi: player {}, phase {:?}",
            t.round,
            t.prince + 1,
            t.phase
        );
        for seat in 0..t.players as usize {
            let _ = writeln!(
                out,
                "  player {}: {:>2} points  {}",
                seat + 1,
                t.points[seat],
                id(s.cards[seat])
            );
        }
        let centre: Vec<String> = s.centre().iter().map(|&c| id(c)).collect();
        let _ = writeln!(out, "  centre: {}", centre.join(" "));
        for e in t.log() {
            let ask = tofu_kingdom::Action::Ask {
                to: e.to,
                question: e.question,
            };
            let _ = writeln!(
                out,
                "  {} -> {}",
                self.action_name(s, ask),
                self.action_name(s, tofu_kingdom::Action::Answer(e.answer))
            );
        }
        out
    }

    fn state_players(s: &Self::State) -> usize {
        s.table.players as usize
    }

    fn check_state(&self, s: &Self::State) -> std::result::Result<(), String> {
        tofu_kingdom::TofuKingdom::check_state(self, s)
    }
}
