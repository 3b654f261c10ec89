//! `shifu replay`: one game as a self-contained HTML page. The game comes from a seed and
//! agents, from a row of a play CSV (`--from`), or from a line of a game log (`--log`, written
//! by `shifu play --log`). Rust replays it ([`record`]): at every step the board the engine
//! builds ([`shifu_engine::Present::board`], only what one seat sees with `--seat`), the
//! action's name and the acting agent's scored candidates. The page ([`page`]) embeds that as
//! JSON and draws it in SVG with inline script; it loads nothing from the network.

pub mod page;
pub mod record;
pub mod source;

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

/// Options of `shifu replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The game (with --seed; with --from or --log the file names it, and a different --game
    /// is refused).
    #[arg(long)]
    pub game: Option<String>,
    /// Number of players (with --seed; checked against the file's otherwise).
    #[arg(long)]
    pub players: Option<u8>,
    /// A card data file or builtin:NAME (the one the run used, for --from and --log).
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// A TOML parameter file (with --seed only: a run file holds its parameters).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A parameter override (with --seed only), repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// The game's seed (the game's own RNG is seeded with it directly, as in `shifu show`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// With --seed: one agent spec for every seat or one per seat, comma-separated.
    #[arg(long, default_value = "greedy")]
    pub agents: String,
    /// A play CSV (`shifu play --out`); its manifest beside it gives the parameters.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["log", "seed"])]
    pub from: Option<PathBuf>,
    /// A game log (`shifu play --log`).
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    pub log: Option<PathBuf>,
    /// With --from or --log: which game of the file, counting its rows from 0.
    #[arg(long, value_name = "N")]
    pub row: Option<u64>,
    /// Show only what this player (1-based) sees: the rest face down, other players' actions
    /// unnamed, and no agent's reasons but this seat's.
    #[arg(long, value_name = "PLAYER")]
    pub seat: Option<u8>,
    /// Candidate actions shown per decision.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// The HTML file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `shifu replay`: writes the page and prints one line on what it holds.
pub fn run(args: ReplayArgs) -> Result<()> {
    let plan = source::plan(&args)?;
    let doc = crate::with_game!(plan.game.as_str(), G => record::replay::<G>(&args, &plan))?;
    let html = page::html(&doc)?;
    shifu_engine::files::write_atomic(&args.out, html.as_bytes())?;
    println!(
        "{}: {} players, seed {}, {} steps{} -> {}",
        doc.game,
        doc.players,
        doc.seed,
        doc.steps.len(),
        doc.seat
            .map_or(String::new(), |s| format!(", as player {s} sees it")),
        args.out.display()
    );
    Ok(())
}
