//! `shifu net`: policy-value networks for the `az:` agent: an untrained network for a game, and
//! a fixed batch of its inputs and outputs for checking another implementation against it (the
//! PyTorch round trip, `python/tests/test_net_torch.py`).

use crate::games::Playable;
use crate::setup::GameArgs;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use rand::Rng;
use shifu_engine::files::write_atomic;
use shifu_net::{Features, Inference, Net, NetConfig, Weights};
use std::path::PathBuf;

/// Options of `shifu net`.
#[derive(Args, Debug)]
pub struct NetArgs {
    #[command(subcommand)]
    command: NetCommand,
}

#[derive(Subcommand, Debug)]
enum NetCommand {
    /// An untrained network for a game and player count, from a seed, as a safetensors file.
    Init(InitArgs),
    /// Positions from random play (relative inputs and legal masks) with the network's
    /// policies and values, as JSON.
    Sample(SampleArgs),
}

/// Options of `shifu net init`.
#[derive(Args, Debug)]
struct InitArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The weights file to write (.safetensors).
    #[arg(long)]
    out: PathBuf,
    /// Seed of the initial weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Width of the hidden layers (1 to 4096).
    #[arg(long, default_value_t = shifu_net::DEFAULT_HIDDEN)]
    hidden: usize,
    /// Residual blocks (0 to 16).
    #[arg(long, default_value_t = shifu_net::DEFAULT_BLOCKS)]
    blocks: usize,
}

/// Options of `shifu net sample`.
#[derive(Args, Debug)]
struct SampleArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The network (.safetensors), made for this game and player count.
    #[arg(long)]
    model: PathBuf,
    /// Positions in the batch (1 to 4096).
    #[arg(long, default_value_t = 16)]
    positions: usize,
    /// Seed of the random games the positions come from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The JSON file to write.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: NetArgs) -> Result<()> {
    match args.command {
        NetCommand::Init(a) => crate::with_game!(a.game.game.as_str(), G => init::<G>(&a)),
        NetCommand::Sample(a) => crate::with_game!(a.game.game.as_str(), G => sample::<G>(&a)),
    }
}

fn init<G: Playable>(a: &InitArgs) -> Result<()> {
    if !(1..=4096).contains(&a.hidden) {
        bail!("--hidden {} is not from 1 to 4096", a.hidden);
    }
    if a.blocks > 16 {
        bail!("--blocks {} is more than 16", a.blocks);
    }
    let game: G = a.game.build()?;
    let w = Weights::init(NetConfig::for_game(&game, a.hidden, a.blocks), a.seed);
    w.save(&a.out)?;
    let params: usize = w.params.iter().map(Vec::len).sum();
    println!(
        "{}: an untrained network for {} at {} players: {} inputs, {} actions, hidden {} x {} \
         blocks, {params} parameters",
        a.out.display(),
        w.config.game,
        w.config.players,
        w.config.inputs,
        w.config.actions,
        w.config.hidden,
        w.config.blocks
    );
    Ok(())
}

fn sample<G: Playable>(a: &SampleArgs) -> Result<()> {
    if !(1..=4096).contains(&a.positions) {
        bail!("--positions {} is not from 1 to 4096", a.positions);
    }
    let game: G = a.game.build()?;
    let w = Weights::load(&a.model)?;
    if let Some(why) = w.config.mismatch(&game) {
        bail!("{}: {why}", a.model.display());
    }
    let mut inf = Inference::new(Net::new(&w), a.positions);
    let mut features = Features::new(&game);
    let mut rng = shifu_engine::rng_from_seed(a.seed);
    let mut s = game.new_state(&mut rng);
    let mut legal = Vec::new();
    for r in 0..a.positions {
        // A few random actions between positions; a new game when one ends.
        for _ in 0..rng.gen_range(0..4) {
            if game.to_move(&s).is_none() {
                break;
            }
            game.legal_actions(&s, &mut legal);
            let x = legal[rng.gen_range(0..legal.len())];
            game.apply(&mut s, x, &mut rng);
        }
        if game.to_move(&s).is_none() {
            s = game.new_state(&mut rng);
        }
        let seat = game.to_move(&s).context("a new game has a seat to move")?;
        game.legal_actions(&s, &mut legal);
        let (x, mask) = inf.row_mut(r);
        features.state(&game, &s, seat, x);
        Features::mask(&game, &legal, mask);
    }
    let rows: Vec<(Vec<f32>, Vec<u8>)> = (0..a.positions)
        .map(|r| {
            let (x, m) = inf.row_mut(r);
            (x.to_vec(), m.to_vec())
        })
        .collect();
    inf.forward(a.positions);
    let v = serde_json::json!({
        "game": w.config.game,
        "players": w.config.players,
        "inputs": rows.iter().map(|r| &r.0).collect::<Vec<_>>(),
        "mask": rows.iter().map(|r| &r.1).collect::<Vec<_>>(),
        "policy": (0..a.positions).map(|r| inf.policy(r)).collect::<Vec<_>>(),
        "value": (0..a.positions).map(|r| inf.value(r)).collect::<Vec<_>>(),
    });
    write_atomic(&a.out, serde_json::to_string(&v)?.as_bytes())?;
    println!(
        "{}: {} positions of {} with the network's policies and values",
        a.out.display(),
        a.positions,
        w.config.game
    );
    Ok(())
}
