//! `shifu show`: a position and its legal actions.

use crate::games::Playable;
use crate::setup::GameArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use shifu_agents::{build_agent, game_rng, Agent, Decision};
use shifu_engine::GameRng;
use std::path::PathBuf;

/// Options of `shifu show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Game seed (the game's own RNG is seeded with it directly).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Actions to take first, each an index into the legal list shown at that point.
    #[arg(long, value_delimiter = ',', value_name = "I,J,...")]
    take: Vec<usize>,
    /// Start from a saved state (JSON) instead of a new game; chance events after it use --seed.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Write the resulting state as JSON to this file.
    #[arg(long, value_name = "FILE")]
    save_state: Option<PathBuf>,
    /// Print the state as JSON instead of the summary.
    #[arg(long)]
    json: bool,
    /// Watch agents play on from the position (after --take): one spec for every seat or one
    /// per seat, comma-separated. Each turn is printed as one line of its actions.
    #[arg(long, value_name = "SPECS")]
    agents: Option<String>,
    /// With --agents: stop after this many turns (default: play to the end).
    #[arg(long, value_name = "N")]
    turns: Option<u32>,
    /// Also print what this player (1-based) sees of the position, as JSON: the game's
    /// observation, without anything the seat cannot see.
    #[arg(long, value_name = "PLAYER")]
    observe: Option<u8>,
    /// Show, instead of the position, one copy of it re-dealt for this player (1-based): every
    /// card it cannot see drawn again, consistently with what it has seen (random from --seed).
    #[arg(long, value_name = "PLAYER")]
    determinize: Option<u8>,
}

pub fn run(args: ShowArgs) -> Result<()> {
    crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))
}

/// The position to start from: the state file, or a new game from the seed; checked.
fn load_state<G: Playable>(args: &ShowArgs, game: &G, rng: &mut GameRng) -> Result<G::State> {
    let state: G::State = match &args.state {
        Some(p) => {
            let text = shifu_engine::files::read_text(p).context("reading a state file")?;
            shifu_engine::error::state_from_json(&text).map_err(|e| {
                anyhow::anyhow!(
                    "state file {} is not a {} state: field {e}",
                    p.display(),
                    game.name()
                )
            })?
        }
        None => game.new_state(rng),
    };
    let players = G::state_players(&state);
    if players != game.num_seats() {
        bail!(
            "the state has {players} players but the game was built for {}; pass --players {players}",
            game.num_seats(),
        );
    }
    if let Some(p) = &args.state {
        game.check_state(&state)
            .map_err(|e| anyhow::anyhow!("state file {}: field {e}", p.display()))?;
    }
    Ok(state)
}

/// Takes the `--take` actions by index, logging each.
fn take<G: Playable>(
    args: &ShowArgs,
    game: &G,
    state: &mut G::State,
    rng: &mut GameRng,
    log: &mut Vec<String>,
) -> Result<()> {
    let mut legal = Vec::new();
    for (step, &i) in args.take.iter().enumerate() {
        game.legal_actions(state, &mut legal);
        let Some(&a) = legal.get(i) else {
            bail!(
                "--take step {}: index {i} is out of range; there are {} legal actions",
                step + 1,
                legal.len()
            );
        };
        log.push(format!("take {i}: {}", game.action_name(state, a)));
        game.apply_checked(state, a, rng)?;
    }
    Ok(())
}

fn run_game<G: Playable>(args: &ShowArgs) -> Result<()> {
    let game: G = args.game.build()?;
    let mut rng = game_rng(args.seed);
    let mut state = load_state(args, &game, &mut rng)?;
    let players = G::state_players(&state);
    // What happened before the position shown: printed as it goes, or in the JSON document.
    let mut log: Vec<String> = Vec::new();
    take(args, &game, &mut state, &mut rng, &mut log)?;
    if let Some(specs) = &args.agents {
        watch(
            &game, &mut state, specs, args.seed, args.turns, &mut rng, &mut log,
        )?;
    }
    if let Some(p) = &args.save_state {
        let json = serde_json::to_string_pretty(&state)?;
        shifu_engine::files::write_atomic(p, json.as_bytes())?;
    }
    let seat_arg = |flag: &str, p: u8| -> Result<u8> {
        if p == 0 || p as usize > players {
            bail!("{flag} {p}: players are numbered 1 to {players}");
        }
        Ok(p - 1)
    };
    if let Some(p) = args.determinize {
        let seat = seat_arg("--determinize", p)?;
        // The re-deal's own stream, apart from the chance draws of --take.
        let mut redeal = shifu_agents::agent_rng(args.seed, 255);
        state = game.determinize(&state, seat, &mut redeal);
    }
    let observation = match args.observe {
        Some(p) => Some(game.observation(&state, seat_arg("--observe", p)?)),
        None => None,
    };
    if args.json {
        return print_json(&game, &state, &log, observation);
    }
    print_text(args, &game, &state, &log, observation)
}

/// `--json`: the position, its legal actions, the log and the observation as one document.
fn print_json<G: Playable>(
    game: &G,
    state: &G::State,
    log: &[String],
    observation: Option<G::Observation>,
) -> Result<()> {
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    let doc = ShowDoc {
        game: game.name(),
        log,
        state,
        to_move: game.to_move(state).map(|s| s + 1),
        legal_actions: legal
            .iter()
            .enumerate()
            .map(|(index, &a)| NamedAction {
                index,
                name: game.action_name(state, a),
                action: a,
            })
            .collect(),
        outcome: game.outcome(state),
        observation,
    };
    println!("{}", serde_json::to_string_pretty(&doc)?);
    Ok(())
}

/// The position as text: the log, the board, the numbered legal actions, the outcome and the
/// observation.
fn print_text<G: Playable>(
    args: &ShowArgs,
    game: &G,
    state: &G::State,
    log: &[String],
    observation: Option<G::Observation>,
) -> Result<()> {
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    for line in log {
        println!("{line}");
    }
    if args.agents.is_some() {
        println!();
    }
    print!("{}", game.render(state));
    println!("\nlegal actions ({}):", legal.len());
    for (i, &a) in legal.iter().enumerate() {
        println!("{i:>4}  {}", game.action_name(state, a));
    }
    if let Some(o) = game.outcome(state) {
        println!(
            "\ngame over: winners {:?}, ranks {:?}, capped {}",
            (0..o.seats)
                .filter(|&s| o.is_winner(s))
                .map(|s| s + 1)
                .collect::<Vec<_>>(),
            &o.rank[..o.seats as usize],
            o.capped
        );
    }
    if let Some(obs) = observation {
        println!(
            "\nwhat player {} sees (JSON):\n{}",
            args.observe.unwrap_or(0),
            serde_json::to_string_pretty(&obs)?
        );
    }
    Ok(())
}

/// Plays on with agents, printing one line per turn: the round, the seat, each action taken, and
/// the seat's score and coins (the game's first count) after the turn.
fn watch<G: Playable>(
    game: &G,
    state: &mut G::State,
    specs: &str,
    seed: u64,
    turns: Option<u32>,
    rng: &mut shifu_engine::GameRng,
    log: &mut Vec<String>,
) -> Result<()> {
    let seats = game.num_seats();
    let specs = crate::play::seat_specs(specs, seats)?;
    let mut agents: Vec<Box<dyn Agent<G>>> = specs
        .iter()
        .enumerate()
        .map(|(s, spec)| build_agent::<G>(spec, seed, s as u8))
        .collect::<std::result::Result<_, _>>()?;
    let mut legal = Vec::new();
    let start = game.turns_completed(state);
    let mut line: Vec<String> = Vec::new();
    while let Some(seat) = game.to_move(state) {
        if turns.is_some_and(|t| game.turns_completed(state) - start >= t) {
            break;
        }
        let round = game.round(state);
        game.legal_actions(state, &mut legal);
        let a = agents[seat as usize].choose(&Decision::new(game, state, seat, &legal));
        line.push(game.action_name(state, a));
        let before = game.turns_completed(state);
        game.apply(state, a, rng);
        if game.turns_completed(state) != before || game.to_move(state).is_none() {
            let c = game.counts(state, seat as usize);
            log.push(format!(
                "round {round:>3} player {}: {}  => {} {}, {} {}",
                seat + 1,
                line.join("; "),
                G::COUNTS[0],
                c[0],
                G::COUNTS[1],
                c[1]
            ));
            line.clear();
        }
    }
    Ok(())
}

/// `shifu show --json`: one document.
#[derive(serde::Serialize)]
struct ShowDoc<'a, S, A, O> {
    game: &'a str,
    /// The actions taken before this position (`--take`, `--agents`), one line each.
    log: &'a [String],
    state: &'a S,
    /// The player to move (1-based), none once the game is over.
    to_move: Option<u8>,
    legal_actions: Vec<NamedAction<A>>,
    outcome: Option<shifu_engine::Outcome>,
    observation: Option<O>,
}

#[derive(serde::Serialize)]
struct NamedAction<A> {
    index: usize,
    name: String,
    action: A,
}
