//! The replay itself: the game built and played again step by step, every board and every
//! decision recorded into one [`ReplayDoc`] that the page embeds.

use super::source::{Agents, Plan};
use super::ReplayArgs;
use crate::games::Playable;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use shifu_agents::{build_agent, check_agent, game_rng, Agent, Decision};
use shifu_engine::board::Board;
use shifu_engine::{DataFile, ParamFile};

/// The agent spec a game log gives a seat that a person played (`shifu serve`).
pub const HUMAN: &str = "human";

/// Most steps a replay records: a page of more would be too large to open.
pub const MAX_STEPS: usize = 100_000;

/// A replayed game, as the page embeds it.
#[derive(Debug, Serialize)]
pub struct ReplayDoc {
    /// The game's name.
    pub game: String,
    /// Seats.
    pub players: usize,
    /// The game's seed.
    pub seed: u64,
    /// The agent spec of each seat.
    pub agents: Vec<String>,
    /// The seat whose view this is (from 1), none for the whole position.
    pub seat: Option<u8>,
    /// Where the game came from.
    pub origin: String,
    /// The board before the first action and after each action.
    pub frames: Vec<Board>,
    /// The actions, in order.
    pub steps: Vec<Step>,
    /// How the game ended.
    pub outcome: Final,
}

/// One action of a replay.
#[derive(Debug, Serialize)]
pub struct Step {
    /// The acting seat, from 1.
    pub actor: u8,
    /// The action's index in the legal list (none where the view hides it).
    pub index: Option<u32>,
    /// Legal actions at this step.
    pub legal: usize,
    /// The action's name (`player N moves` where the view hides it).
    pub name: String,
    /// What the candidates' scores are (`value`, `visits`, `reward`; `rule` or `plan` for a
    /// choice made without scores; empty for none).
    pub kind: &'static str,
    /// The agent's best candidates with their scores, best first.
    pub candidates: Vec<Candidate>,
    /// Set where a logged action is not the one the agent now chooses (a time-limited agent).
    pub agent_differs: bool,
}

/// One scored candidate action.
#[derive(Debug, Serialize)]
pub struct Candidate {
    /// Its name.
    pub name: String,
    /// Its score.
    pub score: f64,
    /// Whether it was the action taken.
    pub taken: bool,
}

/// A finished game's result.
#[derive(Debug, Serialize)]
pub struct Final {
    /// Each seat's score.
    pub score: Vec<f64>,
    /// Each seat's rank (1 = first).
    pub rank: Vec<u8>,
    /// The winning seats, from 1.
    pub winners: Vec<usize>,
    /// Whether the round cap ended the game.
    pub capped: bool,
}

/// Builds the game of `plan`: from the file's parameters when it gives them, else from the
/// command line; checked against the file's parameter set, data and players.
fn build<G: Playable>(args: &ReplayArgs, plan: &Plan) -> Result<G> {
    let game: G = match &plan.params {
        Some(toml) => {
            let params = G::Params::from_toml_str(toml)
                .map_err(|e| anyhow::anyhow!("{}: field params: {e}", plan.origin))?;
            let data = match &args.data {
                Some(p) => G::Data::from_arg(p)?,
                None => G::Data::embedded(),
            };
            G::from_parts(data, params)
                .map_err(|e| anyhow::anyhow!("{}: field params: {e}", plan.origin))?
        }
        None => crate::setup::GameArgs {
            game: plan.game.clone(),
            players: args.players,
            data: args.data.clone(),
            config: args.config.clone(),
            set: args.set.clone(),
        }
        .build()?,
    };
    if let Some((want, at)) = &plan.param_set {
        let have = crate::hash::fnv_hex(&game.params_toml())[..8].to_string();
        if *want != have {
            bail!("{at} is `{want}`, but the parameters give `{have}`: replay with the parameters the run used (its manifest beside the CSV)");
        }
    }
    if let Some((want, at)) = &plan.data_hash {
        let have = crate::hash::fnv_hex(&game.data_text());
        if *want != have {
            bail!("{at}: field data_hash is `{want}`, but the card data in use gives `{have}`: pass the --data the run used");
        }
    }
    if let Some(n) = plan.players {
        if n != game.num_seats() {
            bail!(
                "{}: field players is {n} but the parameters give {}",
                plan.origin,
                game.num_seats()
            );
        }
    }
    Ok(game)
}

/// The agents of a replay, one per seat.
type Seats<G> = Vec<Box<dyn Agent<G>>>;

/// The agents of `plan` with their specs, one per seat, each keeping its reasons.
fn agents<G: Playable>(game: &G, plan: &Plan) -> Result<(Vec<String>, Seats<G>)> {
    let seats = game.num_seats();
    let specs = match &plan.agents {
        Agents::Option(text) => crate::runner::seat_specs(text, seats)?,
        Agents::BySeat(v) => v.clone(),
    };
    let mut agents = Vec::new();
    for (s, spec) in specs.iter().enumerate() {
        if spec == HUMAN {
            if plan.actions.is_none() {
                bail!("`{HUMAN}` seats replay only from a game log (`shifu serve` writes them)");
            }
            // A stand-in: a person's moves come from the log.
            agents.push(build_agent::<G>("random", plan.seed, s as u8)?);
            continue;
        }
        check_agent(game, spec).with_context(|| format!("{}: field agents", plan.origin))?;
        let mut a = build_agent::<G>(spec, plan.seed, s as u8)?;
        a.set_explain(true);
        agents.push(a);
    }
    Ok((specs, agents))
}

/// Plays the game of `plan` again and records it.
pub fn replay<G: Playable>(args: &ReplayArgs, plan: &Plan) -> Result<ReplayDoc> {
    let game: G = build(args, plan)?;
    let seats = game.num_seats();
    let seat = match args.seat {
        Some(p) if p == 0 || usize::from(p) > seats => {
            bail!("--seat {p}: players are numbered 1 to {seats}")
        }
        p => p.map(|p| p - 1),
    };
    let (specs, mut agents) = agents(&game, plan)?;
    let mut rng = game_rng(plan.seed);
    let mut state = game.new_state(&mut rng);
    let mut frames = vec![game.board(&state, seat)];
    let mut steps = Vec::new();
    let mut legal = Vec::new();
    while let Some(actor) = game.to_move(&state) {
        if steps.len() >= MAX_STEPS {
            bail!("the game is longer than {MAX_STEPS} steps; a page of it would not open");
        }
        game.legal_actions(&state, &mut legal);
        let chosen = agents[actor as usize].choose(&Decision::new(&game, &state, actor, &legal));
        let why = agents[actor as usize].explain();
        let action = match &plan.actions {
            None => chosen,
            Some((list, at)) => logged(&game, &state, &legal, list, steps.len(), at)?,
        };
        let index = legal.iter().position(|&x| x == action).unwrap_or(0) as u32;
        let shown = seat.is_none_or(|s| s == actor);
        let human = specs[actor as usize] == HUMAN;
        let candidates = if shown && !human {
            why.candidates
                .iter()
                .take(args.top)
                .map(|&(a, score)| Candidate {
                    name: game.action_name(&state, a),
                    score,
                    taken: a == action,
                })
                .collect()
        } else {
            Vec::new()
        };
        steps.push(Step {
            actor: actor + 1,
            index: shown.then_some(index),
            legal: legal.len(),
            name: if shown {
                game.action_name(&state, action)
            } else {
                format!("player {} moves", actor + 1)
            },
            kind: match (shown, human) {
                (true, true) => HUMAN,
                (true, false) => why.kind,
                (false, _) => "",
            },
            candidates,
            agent_differs: shown && !human && chosen != action,
        });
        game.apply(&mut state, action, &mut rng);
        frames.push(game.board(&state, seat));
    }
    if let Some((list, at)) = &plan.actions {
        if list.len() != steps.len() {
            bail!(
                "{at}: field actions has {} actions, but the game ended after {}",
                list.len(),
                steps.len()
            );
        }
    }
    let o = game.outcome(&state).context("the game did not finish")?;
    Ok(ReplayDoc {
        game: game.name().to_string(),
        players: seats,
        seed: plan.seed,
        agents: specs,
        seat: seat.map(|s| s + 1),
        origin: plan.origin.clone(),
        frames,
        steps,
        outcome: Final {
            score: o.score[..seats].to_vec(),
            rank: o.rank[..seats].to_vec(),
            winners: (0..seats as u8)
                .filter(|&s| o.is_winner(s))
                .map(|s| usize::from(s) + 1)
                .collect(),
            capped: o.capped,
        },
    })
}

/// Logged action `k` (index and name) at this step, checked: legal here, and named as logged.
fn logged<G: Playable>(
    game: &G,
    state: &G::State,
    legal: &[G::Action],
    list: &[(u32, String)],
    k: usize,
    at: &str,
) -> Result<G::Action> {
    let Some((i, name)) = list.get(k) else {
        bail!("{at}: field actions ends after {k} actions, but the game is not over",);
    };
    let Some(&a) = legal.get(*i as usize) else {
        bail!(
            "{at}: field actions[{k}] is {i}, not a legal action: there are {} legal actions at that step",
            legal.len()
        );
    };
    let here = game.action_name(state, a);
    if here != *name {
        bail!("{at}: field names[{k}] is `{name}`, but action {i} at that step is `{here}`: the log is not of this game");
    }
    Ok(a)
}
