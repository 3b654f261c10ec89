//! `shifu data`: the card data a game would play with, after the parameters' reconstruction
//! knobs, in the data file's own schema. Its output is a file `--data` accepts, so that a
//! reconstruction chosen with knobs becomes a data file (the calibrated default was made so).

use crate::games::Playable;
use crate::setup::GameArgs;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

/// Options of `shifu data`.
#[derive(Args, Debug)]
pub struct DataArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Write the data to this file (replaced whole, through a temporary file beside it);
    /// without it, print the data.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(args: DataArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn run_game<G: Playable>(args: &DataArgs) -> Result<()> {
    let game: G = args.game.build()?;
    let text = game.card_data_json().map_err(anyhow::Error::msg)?;
    match &args.out {
        None => println!("{text}"),
        Some(path) => {
            shifu_engine::files::write_atomic(path, format!("{text}\n").as_bytes())?;
            println!("wrote {} ({})", path.display(), game.data_label());
        }
    }
    Ok(())
}
