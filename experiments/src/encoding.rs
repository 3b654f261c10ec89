//! `shifu encoding`: a game's fixed encoding for learners, field by field: where each field of
//! the observation vector sits, what it holds, and how many action indices there are.

use crate::games::Playable;
use crate::setup::GameArgs;
use anyhow::Result;
use clap::Args;

/// Options of `shifu encoding`.
#[derive(Args, Debug)]
pub struct EncodingArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Print JSON (the layout with each field's bound, and the counts) instead of a markdown
    /// table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: EncodingArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

fn run_game<G: Playable>(args: &EncodingArgs) -> Result<()> {
    let game: G = args.game.build()?;
    let layout = game.layout();
    let len = game.observation_len();
    if args.json {
        let v = serde_json::json!({
            "game": G::INFO.name,
            "observation_len": len,
            "action_count": game.action_count(),
            "layout": layout,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!(
        "# {} encoding: {} players, {} observation values (f32 or uint8), {} action indices\n",
        G::INFO.name,
        game.num_seats(),
        len,
        game.action_count()
    );
    println!("| offset | length | field | meaning | values | uint8 step |");
    println!("| ---: | ---: | --- | --- | --- | ---: |");
    for f in &layout {
        let b = f.bound;
        println!(
            "| {} | {} | `{}` | {} | {}..{} | {} |",
            f.offset, f.len, f.name, f.doc, b.low, b.high, b.step
        );
    }
    Ok(())
}
