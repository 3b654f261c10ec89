//! One table of `shifu serve`: a game in progress with its bots, seen seat by seat. The table
//! knows nothing of HTTP; [`Table`] hides the game type so that tables of every game sit in one
//! map.

use crate::game_log::{LogLine, LogResult};
use crate::games::Playable;
use crate::replay::record::HUMAN;
use crate::runfile::fnv_hex;
use serde::Serialize;
use shifu_agents::{build_agent, check_agent, game_rng, parse_spec, Agent, Decision};
use shifu_engine::board::Board;
use shifu_engine::GameRng;
use std::time::{Duration, Instant};

/// Most actions a served game may take: past it the table stops playing (a bug or a game that
/// never ends would otherwise hold a thread).
pub const MAX_STEPS: usize = 100_000;

/// Agent options that name a file: refused from the web, where a request must not make the
/// server open a path.
const FILE_KEYS: [&str; 3] = ["weights", "leaf", "model"];

/// A request the table refuses, with the reason; the table is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The request is malformed or names something that does not exist (400).
    Bad(String),
    /// The request is well formed but does not fit the table's state (409).
    Conflict(String),
}

/// What a new table needs: the game, the seats and the bots.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Which seats (from 0) people play.
    pub humans: Vec<bool>,
    /// The agent spec of each seat (ignored for human seats).
    pub agents: Vec<String>,
    /// The game's seed.
    pub seed: u64,
}

/// One seat's view of a table, as the API returns it.
#[derive(Debug, Serialize)]
pub struct View {
    /// The game's name.
    pub game: String,
    /// Seats.
    pub players: usize,
    /// The seat viewing, from 1.
    pub seat: u8,
    /// The agent spec by seat (`human` for people).
    pub agents: Vec<String>,
    /// The board as this seat sees it.
    pub board: Board,
    /// The seat to move, from 1 (none when the game is over).
    pub to_move: Option<u8>,
    /// Whether this seat is to move.
    pub your_turn: bool,
    /// This seat's legal actions when it is to move (empty otherwise).
    pub legal: Vec<LegalAction>,
    /// The actions so far: this seat's by name, others' as `player N moves`.
    pub history: Vec<Move>,
    /// The result, once the game is over.
    pub result: Option<Outcome>,
}

/// A legal action: its index in the legal list (what `act` takes) and its name.
#[derive(Debug, Serialize)]
pub struct LegalAction {
    /// Index in the legal list.
    pub index: u32,
    /// The action's name.
    pub name: String,
}

/// One action of the history, as one seat may see it.
#[derive(Debug, Serialize)]
pub struct Move {
    /// The acting seat, from 1.
    pub actor: u8,
    /// The action's name, or `player N moves` for another seat's.
    pub name: String,
}

/// A finished game's result, with the seed (hidden until the end: it would tell every card).
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// Each seat's score.
    pub score: Vec<f64>,
    /// Each seat's rank (1 = first).
    pub rank: Vec<u8>,
    /// The winning seats, from 1.
    pub winners: Vec<usize>,
    /// Whether the round cap ended the game.
    pub capped: bool,
    /// The game's seed.
    pub seed: u64,
}

/// A table of any game.
pub trait Table: Send {
    /// Seats.
    fn players(&self) -> usize;
    /// Whether seat `seat` (from 0) is a person's.
    fn is_human(&self, seat: usize) -> bool;
    /// Whether the game is over (or stopped at [`MAX_STEPS`]).
    fn is_over(&self) -> bool;
    /// Seat `seat`'s (from 0) view.
    fn view(&self, seat: u8) -> View;
    /// Plays legal action `index` for human seat `seat` (from 0); refused, with the table
    /// unchanged, when it is not that seat's turn or no such action exists.
    fn act(&mut self, seat: u8, index: u64) -> Result<(), Refusal>;
    /// The bots move until a person is to move or the game is over, each move cut at
    /// `per_move` (an agent that searches stops there with its best action so far).
    fn run_bots(&mut self, per_move: Duration);
    /// The game as a game log line (`shifu replay --log`); an unfinished game's has an empty
    /// result.
    fn log_line(&self, index: u64) -> LogLine;
}

/// A table of game `G`.
pub struct GameTable<G: Playable> {
    game: G,
    state: G::State,
    rng: GameRng,
    seed: u64,
    specs: Vec<String>,
    bots: Vec<Option<Box<dyn Agent<G>>>>,
    /// Each action taken: the actor (from 0), its index in the legal list and its name.
    history: Vec<(u8, u32, String)>,
    legal: Vec<G::Action>,
}

/// Checks a bot's spec from a request: it must build, and it may not name a file.
fn check_spec<G: Playable>(game: &G, seat: usize, spec: &str) -> Result<(), Refusal> {
    let bad = |m: String| Refusal::Bad(format!("agents[{seat}]: {m}"));
    let (_, opts) = parse_spec(spec).map_err(|e| bad(e.to_string()))?;
    if let Some((k, _)) = opts.iter().find(|(k, _)| FILE_KEYS.contains(&k.as_str())) {
        return Err(bad(format!(
            "`{k}=` names a file, which a request may not do; start the server where the agent's files are and use the defaults"
        )));
    }
    check_agent(game, spec).map_err(|e| bad(e.to_string()))
}

impl<G: Playable> GameTable<G> {
    /// A new table of `game`; the bots have not moved yet.
    pub fn new(game: G, setup: &Setup) -> Result<GameTable<G>, Refusal> {
        let seats = game.num_seats();
        if setup.humans.len() != seats || setup.agents.len() != seats {
            return Err(Refusal::Bad(format!(
                "the game has {seats} seats: give one entry per seat"
            )));
        }
        let mut bots = Vec::with_capacity(seats);
        let mut specs = Vec::with_capacity(seats);
        for (s, spec) in setup.agents.iter().enumerate() {
            if setup.humans[s] {
                bots.push(None);
                specs.push(HUMAN.to_string());
                continue;
            }
            check_spec(&game, s, spec)?;
            let agent = build_agent::<G>(spec, setup.seed, s as u8)
                .map_err(|e| Refusal::Bad(format!("agents[{s}]: {e}")))?;
            bots.push(Some(agent));
            specs.push(spec.clone());
        }
        let mut rng = game_rng(setup.seed);
        let state = game.new_state(&mut rng);
        Ok(GameTable {
            game,
            state,
            rng,
            seed: setup.seed,
            specs,
            bots,
            history: Vec::new(),
            legal: Vec::new(),
        })
    }

    /// The game's outcome, when it is over.
    fn outcome(&self) -> Option<Outcome> {
        let seats = self.game.num_seats();
        let o = self.game.outcome(&self.state)?;
        Some(Outcome {
            score: o.score[..seats].to_vec(),
            rank: o.rank[..seats].to_vec(),
            winners: (0..seats as u8)
                .filter(|&s| o.is_winner(s))
                .map(|s| usize::from(s) + 1)
                .collect(),
            capped: o.capped,
            seed: self.seed,
        })
    }

    /// The seat to move, unless the game is over or too long.
    fn to_move(&self) -> Option<u8> {
        if self.history.len() >= MAX_STEPS {
            return None;
        }
        self.game.to_move(&self.state)
    }

    /// Applies legal action `index` (checked by the caller) for `actor`.
    fn apply(&mut self, actor: u8, index: usize) {
        let action = self.legal[index];
        let name = self.game.action_name(&self.state, action);
        self.history.push((actor, index as u32, name));
        self.game.apply(&mut self.state, action, &mut self.rng);
    }
}

impl<G: Playable> Table for GameTable<G> {
    fn players(&self) -> usize {
        self.game.num_seats()
    }

    fn is_human(&self, seat: usize) -> bool {
        self.bots.get(seat).is_some_and(Option::is_none)
    }

    fn is_over(&self) -> bool {
        self.to_move().is_none()
    }

    fn view(&self, seat: u8) -> View {
        let to_move = self.to_move();
        let your_turn = to_move == Some(seat);
        let mut legal = Vec::new();
        if your_turn {
            let mut actions = Vec::new();
            self.game.legal_actions(&self.state, &mut actions);
            legal = actions
                .iter()
                .enumerate()
                .map(|(i, &a)| LegalAction {
                    index: i as u32,
                    name: self.game.action_name(&self.state, a),
                })
                .collect();
        }
        View {
            game: self.game.name().to_string(),
            players: self.game.num_seats(),
            seat: seat + 1,
            agents: self.specs.clone(),
            board: self.game.board(&self.state, Some(seat)),
            to_move: to_move.map(|s| s + 1),
            your_turn,
            legal,
            history: self
                .history
                .iter()
                .map(|(actor, _, name)| Move {
                    actor: actor + 1,
                    name: if *actor == seat {
                        name.clone()
                    } else {
                        format!("player {} moves", actor + 1)
                    },
                })
                .collect(),
            result: self.outcome(),
        }
    }

    fn act(&mut self, seat: u8, index: u64) -> Result<(), Refusal> {
        let Some(actor) = self.to_move() else {
            return Err(Refusal::Conflict("the game is over".into()));
        };
        if actor != seat {
            return Err(Refusal::Conflict(format!(
                "it is player {}'s turn, not player {}'s",
                actor + 1,
                seat + 1
            )));
        }
        self.game.legal_actions(&self.state, &mut self.legal);
        let n = self.legal.len();
        let Some(i) = usize::try_from(index).ok().filter(|&i| i < n) else {
            return Err(Refusal::Bad(format!(
                "action {index} is not legal: there are {n} legal actions, 0 to {}",
                n.saturating_sub(1)
            )));
        };
        self.apply(actor, i);
        Ok(())
    }

    fn run_bots(&mut self, per_move: Duration) {
        while let Some(actor) = self.to_move() {
            let Some(bot) = self.bots[usize::from(actor)].as_mut() else {
                return;
            };
            let deadline = Instant::now() + per_move;
            bot.set_stop(Box::new(move || Instant::now() >= deadline));
            self.game.legal_actions(&self.state, &mut self.legal);
            let action = bot.choose(&Decision::new(&self.game, &self.state, actor, &self.legal));
            let index = self.legal.iter().position(|&a| a == action).unwrap_or(0);
            self.apply(actor, index);
        }
    }

    fn log_line(&self, index: u64) -> LogLine {
        let seats = self.game.num_seats();
        let params = self.game.params_toml();
        let (score, rank, winners, capped) = match self.outcome() {
            Some(o) => (o.score, o.rank, o.winners, o.capped),
            None => (Vec::new(), Vec::new(), Vec::new(), false),
        };
        LogLine {
            game: index,
            game_name: self.game.name().to_string(),
            players: seats,
            param_set: fnv_hex(&params)[..8].to_string(),
            params,
            data: self.game.data_label(),
            data_hash: fnv_hex(&self.game.data_text()),
            seed: self.seed,
            agents: self.specs.clone(),
            actions: self.history.iter().map(|h| h.1).collect(),
            names: self.history.iter().map(|h| h.2.clone()).collect(),
            result: LogResult {
                score,
                rank,
                winners,
                capped,
                rounds: self.game.round(&self.state),
                steps: self.history.len() as u64,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shifu_engine::tofu_shifu::TofuShifu;
    use shifu_engine::Present;

    fn table(humans: Vec<bool>) -> GameTable<TofuShifu> {
        let game: TofuShifu = crate::setup::GameArgs {
            game: "tofu-shifu".into(),
            players: Some(humans.len() as u8),
            data: None,
            config: None,
            set: Vec::new(),
        }
        .build()
        .unwrap();
        let n = humans.len();
        GameTable::new(
            game,
            &Setup {
                humans,
                agents: vec!["random".into(); n],
                seed: 11,
            },
        )
        .unwrap()
    }

    /// Every string of a board's items.
    fn texts(board: &Board) -> Vec<String> {
        let v = serde_json::to_value(board).unwrap();
        let mut out = Vec::new();
        for row in v["rows"].as_array().unwrap() {
            for it in row["items"].as_array().unwrap() {
                for (_, x) in it.as_object().unwrap() {
                    if let Some(s) = x.as_str() {
                        out.push(s.to_string());
                    }
                }
            }
        }
        out
    }

    /// Seat 1's view holds exactly the engine's seat-1 board, and none of the names that only
    /// the full board shows (another seat's hidden cards).
    #[test]
    fn a_seat_view_is_the_engines_seat_view_and_hides_other_hands() {
        let mut t = table(vec![true, false, false]);
        t.run_bots(Duration::from_secs(5));
        let view = serde_json::to_value(t.view(0)).unwrap();
        let mine = t.game.board(&t.state, Some(0));
        let full = t.game.board(&t.state, None);
        assert_eq!(view["board"], serde_json::to_value(&mine).unwrap());
        assert_ne!(mine, full, "the position must hide something from seat 1");
        let seen = texts(&mine);
        let hidden: Vec<String> = texts(&full)
            .into_iter()
            .filter(|s| !seen.contains(s))
            .collect();
        assert!(!hidden.is_empty());
        let json = view.to_string();
        for s in &hidden {
            assert!(
                !json.contains(&format!("\"{s}\"")),
                "seat 1's view shows `{s}`"
            );
        }
        assert!(view["result"].is_null());
        assert!(!json.contains("\"seed\""), "the seed would tell every card");
    }

    #[test]
    fn a_refused_action_leaves_the_table_unchanged() {
        let mut t = table(vec![true, true]);
        let before = serde_json::to_string(&t.view(0)).unwrap();
        assert!(matches!(t.act(1, 0), Err(Refusal::Conflict(_))));
        assert!(matches!(t.act(0, u64::MAX), Err(Refusal::Bad(_))));
        assert!(matches!(t.act(0, 1 << 40), Err(Refusal::Bad(_))));
        assert_eq!(serde_json::to_string(&t.view(0)).unwrap(), before);
        t.act(0, 0).unwrap();
        assert_eq!(t.history.len(), 1);
    }

    #[test]
    fn a_spec_naming_a_file_is_refused() {
        let game = table(vec![true, false]).game;
        let setup = Setup {
            humans: vec![true, false],
            agents: vec!["random".into(), "greedy:weights=/etc/passwd".into()],
            seed: 1,
        };
        let Err(Refusal::Bad(m)) = GameTable::new(game, &setup) else {
            panic!("accepted a file");
        };
        assert!(m.contains("agents[1]") && m.contains("weights"), "{m}");
    }
}
