//! One game as a stepping environment, whatever the game: the part of the PettingZoo
//! environment (`shifu/env.py`) that runs in Rust.

use shifu::games::Playable;
use shifu_agents::{build_agent, game_rng, Decision, StopCheck};
use shifu_engine::{GameRng, Seat};
use std::sync::Arc;

/// A game in progress behind a game-independent interface.
pub trait DynEnv: Send + Sync {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// Seats at the table.
    fn num_seats(&self) -> usize;
    /// Length of the observation vector.
    fn observation_len(&self) -> usize;
    /// The bound on action indices.
    fn action_count(&self) -> usize;
    /// Starts a new game from `seed` (the game's RNG is ChaCha8 stream 0 of the seed, as in
    /// `shifu play`).
    fn reset(&mut self, seed: u64);
    /// The seat to move, `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// `seat`'s encoded observation.
    fn observe(&self, seat: Seat, out: &mut [f32]);
    /// `seat`'s encoded observation in the `u8` form.
    fn observe_u8(&self, seat: Seat, out: &mut [u8]);
    /// Every value's bound, in vector order.
    fn bounds(&self) -> Vec<shifu_engine::Bound>;
    /// The legal-action mask of the seat to move (all zero once the game is over).
    fn mask(&mut self, out: &mut [u8]);
    /// The legal action indices of the seat to move.
    fn legal(&mut self) -> Vec<usize>;
    /// Plays the action with this index for the seat to move; an error, and no change, when it
    /// is not legal.
    fn step(&mut self, index: usize) -> Result<(), String>;
    /// Each seat's reward once the game is over (its share of the win; in a cooperative game
    /// 1 for every seat when the team wins) and whether the round cap stopped the game.
    fn result(&self) -> Option<(Vec<f64>, Vec<f64>, bool)>;
    /// The position as text, as `shifu show` prints it.
    fn render(&self) -> String;
    /// The name of the action with this index, if any.
    fn action_name(&self, index: usize) -> Option<String>;
    /// The index of the action a built-in agent (`random`, `greedy`, `mcts:...`) would take for
    /// the seat to move, deciding from that seat's view only; its RNG comes from `seed`. A long
    /// search polls `stop` and ends when it says so.
    fn agent_action(&mut self, spec: &str, seed: u64, stop: StopCheck) -> Result<usize, String>;
    /// Checks that `spec` names a built-in agent this game can use for `seat`, with the message
    /// `shifu play --agents` gives when it cannot.
    fn check_agent(&self, spec: &str, seat: Seat) -> Result<(), String>;
    /// The position as JSON.
    fn state_json(&self) -> String;
}

/// [`DynEnv`] for one game type.
pub struct EnvOf<G: Playable> {
    game: Arc<G>,
    state: G::State,
    rng: GameRng,
    legal: Vec<G::Action>,
}

impl<G: Playable + 'static> EnvOf<G> {
    /// A new environment of `game`, reset to `seed`.
    pub fn new(game: G, seed: u64) -> Self {
        let mut rng = game_rng(seed);
        let state = game.new_state(&mut rng);
        EnvOf {
            game: Arc::new(game),
            state,
            rng,
            legal: Vec::new(),
        }
    }
}

impl<G: Playable + 'static> DynEnv for EnvOf<G> {
    fn name(&self) -> &'static str {
        self.game.name()
    }
    fn num_seats(&self) -> usize {
        self.game.num_seats()
    }
    fn observation_len(&self) -> usize {
        self.game.observation_len()
    }
    fn action_count(&self) -> usize {
        self.game.action_count()
    }
    fn reset(&mut self, seed: u64) {
        self.rng = game_rng(seed);
        self.state = self.game.new_state(&mut self.rng);
    }
    fn to_move(&self) -> Option<Seat> {
        self.game.to_move(&self.state)
    }
    fn observe(&self, seat: Seat, out: &mut [f32]) {
        self.game.encode_observation(&self.state, seat, out);
    }
    fn observe_u8(&self, seat: Seat, out: &mut [u8]) {
        self.game.encode_observation_u8(&self.state, seat, out);
    }
    fn bounds(&self) -> Vec<shifu_engine::Bound> {
        self.game.bounds()
    }
    fn mask(&mut self, out: &mut [u8]) {
        out.fill(0);
        if self.game.to_move(&self.state).is_some() {
            self.game.legal_mask(&self.state, &mut self.legal, out);
        }
    }
    fn legal(&mut self) -> Vec<usize> {
        if self.game.to_move(&self.state).is_none() {
            return Vec::new();
        }
        self.game.legal_actions(&self.state, &mut self.legal);
        self.legal
            .iter()
            .map(|&a| self.game.action_index(a))
            .collect()
    }
    fn step(&mut self, index: usize) -> Result<(), String> {
        let Some(seat) = self.game.to_move(&self.state) else {
            return Err("the game is over: no action is legal".into());
        };
        let action = self.game.index_action(index).ok_or_else(|| {
            format!(
                "action {index} is not an action of {} (indices run below {})",
                self.game.name(),
                self.game.action_count()
            )
        })?;
        self.game.legal_actions(&self.state, &mut self.legal);
        if !self.legal.contains(&action) {
            return Err(format!(
                "action {index} ({action:?}) is not legal for seat {seat} here; the action mask marks the legal ones"
            ));
        }
        self.game.apply(&mut self.state, action, &mut self.rng);
        Ok(())
    }
    fn result(&self) -> Option<(Vec<f64>, Vec<f64>, bool)> {
        let o = self.game.outcome(&self.state)?;
        let n = self.game.num_seats();
        let reward = (0..n as Seat).map(|s| o.learner_reward(s)).collect();
        Some((reward, o.score[..n].to_vec(), o.capped))
    }
    fn render(&self) -> String {
        self.game.render(&self.state)
    }
    fn action_name(&self, index: usize) -> Option<String> {
        self.game.index_action(index).map(|a| format!("{a:?}"))
    }
    fn agent_action(&mut self, spec: &str, seed: u64, stop: StopCheck) -> Result<usize, String> {
        let Some(seat) = self.game.to_move(&self.state) else {
            return Err("the game is over: no agent can move".into());
        };
        shifu_agents::check_agent(&*self.game, spec).map_err(|e| e.to_string())?;
        let mut agent = build_agent::<G>(spec, seed, seat).map_err(|e| e.to_string())?;
        agent.set_stop(stop);
        self.game.legal_actions(&self.state, &mut self.legal);
        let d = Decision::new(&*self.game, &self.state, seat, &self.legal);
        Ok(self.game.action_index(agent.choose(&d)))
    }
    fn check_agent(&self, spec: &str, seat: Seat) -> Result<(), String> {
        shifu_agents::check_agent(&*self.game, spec).map_err(|e| e.to_string())?;
        build_agent::<G>(spec, 0, seat)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    fn state_json(&self) -> String {
        serde_json::to_string(&self.state).unwrap_or_default()
    }
}
