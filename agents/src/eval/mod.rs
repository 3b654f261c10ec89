//! Heuristic evaluations: how good a position looks for one seat. The greedy agent maximises
//! one; MCTS scores rollouts cut off by its depth limit with one.

mod ginza_retro_cafe;
mod tofu_kingdom;
mod tofu_shifu;
mod wok_star;

pub use ginza_retro_cafe::GinzaRetroCafeWeights;
pub use tofu_kingdom::{
    answer_probability, posterior, AnswerStyle, Answerers, KingdomBelief, TofuKingdomWeights,
};
pub use tofu_shifu::TofuShifuWeights;
pub use wok_star::WokStarWeights;

use crate::Decision;
use rand::Rng;

use serde::{de::DeserializeOwned, Serialize};
use shifu_engine::{Encoding, Game, Mechanics, Outcome, Seat};
use std::fmt::Debug;
use std::path::Path;

/// A game with a heuristic evaluation and named, tunable weights.
pub trait Evaluate: Game + Encoding + Mechanics {
    /// The evaluation's weights: named, with defaults, loadable from a TOML file.
    type Weights: Clone + Debug + Default + Send + Sync + Serialize + DeserializeOwned;

    /// How good `state` is for `seat`, higher is better, on a scale where one completed
    /// objective (or the game's main scoring unit) is worth about `1.0`. It reads only what
    /// `seat` may see, so it may be called on determinized copies.
    ///
    /// The default knows only finished games: the seat's [`shifu_engine::Outcome::learner_reward`]
    /// once the game is over, 0 before.
    fn evaluate(&self, state: &Self::State, seat: Seat, _weights: &Self::Weights) -> f64 {
        self.outcome(state).map_or(0.0, |o| o.learner_reward(seat))
    }

    /// Whether the game is cooperative: every seat wins or loses together, and the evaluation
    /// is the team's, the same for every seat. MCTS then rewards the team's result rather than
    /// a seat's standing against the others.
    fn cooperative(&self) -> bool {
        Self::INFO.cooperative
    }

    /// A finished game's value to the team, for MCTS in a cooperative game (every seat gets
    /// it): 1 for a win; a loss may be worth something for the progress made, below a win.
    /// The default: 1 for a win, 0 for a loss.
    fn team_outcome_value(&self, outcome: &Outcome) -> f64 {
        if outcome.winners != 0 {
            1.0
        } else {
            0.0
        }
    }

    /// A rollout cut before the end, for MCTS in a cooperative game: the team's evaluation
    /// (any seat's [`Evaluate::evaluate`]) on the scale of [`Evaluate::team_outcome_value`].
    /// The default clamps it to 0 to 1.
    fn team_cut_value(&self, evaluation: f64) -> f64 {
        evaluation.clamp(0.0, 1.0)
    }

    /// [`Evaluate::evaluate`] for every seat at once, into `out[..num_seats]`. Games whose
    /// evaluation compares seats override it to compute each seat's part once.
    fn evaluate_all(&self, state: &Self::State, weights: &Self::Weights, out: &mut [f64]) {
        for (seat, x) in out.iter_mut().enumerate().take(self.num_seats()) {
            *x = self.evaluate(state, seat as Seat, weights);
        }
    }

    /// The closed range of values the floating-point weight `name` may take, where its
    /// weights refuse others (a probability: 0 to 1); `None` (the default) where any finite
    /// value loads. Tuners (`shifu train`) keep every candidate within, so a proposal never
    /// fails to load.
    fn weight_domain(_name: &str) -> Option<(f64, f64)>
    where
        Self: Sized,
    {
        None
    }

    /// A seat's belief about the hidden state at one decision, built once per decision by
    /// [`Evaluate::belief`] and used by MCTS with `belief=model`. `()` for games without one.
    type Belief: Send;

    /// The deciding seat's belief under the game's answer model (MCTS `belief=model`): which
    /// hidden states are how likely, given what the seat has seen and how the other seats are
    /// modelled to act. `None` (the default) where the game has no model: MCTS then samples
    /// plain determinizations.
    fn belief<R: Rng + ?Sized>(
        &self,
        _decision: &Decision<'_, Self>,
        _weights: &Self::Weights,
        _rng: &mut R,
    ) -> Option<Self::Belief>
    where
        Self: Sized,
    {
        None
    }

    /// A determinization drawn from `belief`: each hidden state with its probability under the
    /// belief (exactly, not approximately). The default ignores the belief.
    fn sample_belief<R: Rng + ?Sized>(
        &self,
        decision: &Decision<'_, Self>,
        _belief: &Self::Belief,
        rng: &mut R,
    ) -> Self::State
    where
        Self: Sized,
    {
        decision.determinize(rng)
    }

    /// The choice of MCTS's greedy rollout policy, given the searching seat's belief when the
    /// search has one (rollouts in which the other seats follow the belief's model). The default
    /// is [`Evaluate::greedy_choice`].
    fn rollout_choice<R: Rng + ?Sized>(
        &self,
        decision: &Decision<'_, Self>,
        _belief: Option<&Self::Belief>,
        weights: &Self::Weights,
        rng: &mut R,
    ) -> Option<Self::Action>
    where
        Self: Sized,
    {
        self.greedy_choice(decision, weights, rng)
    }

    /// A game-specific greedy choice, taken by the greedy agent instead of its one-ply lookahead
    /// when it returns `Some`. Games of pure inference (Tofu Kingdom), where what matters is a
    /// belief rather than the material a position shows, decide here from the seat's
    /// observation. The default defers to the lookahead.
    fn greedy_choice<R: Rng + ?Sized>(
        &self,
        _decision: &Decision<'_, Self>,
        _weights: &Self::Weights,
        _rng: &mut R,
    ) -> Option<Self::Action>
    where
        Self: Sized,
    {
        None
    }

    /// The game-specific greedy policy's ranking of the legal actions at a decision, best
    /// first, written to `out`; `false` (the default) where the policy does not score actions.
    /// MCTS's paired search with `top=k` compares only the first `k` (and the policy's own
    /// choice), as a search guided by a policy prior would.
    fn greedy_ranking<R: Rng + ?Sized>(
        &self,
        _decision: &Decision<'_, Self>,
        _weights: &Self::Weights,
        _rng: &mut R,
        _out: &mut Vec<Self::Action>,
    ) -> bool
    where
        Self: Sized,
    {
        false
    }
}

/// Loads weights from a TOML file; missing keys keep their defaults, unknown keys are errors,
/// and every number must be finite (a NaN or infinite weight would make every choice a tie).
pub fn load_weights<W: DeserializeOwned + Serialize>(path: &Path) -> Result<W, String> {
    let text = shifu_engine::files::read_text(path).map_err(|e| e.to_string())?;
    let w: W = toml::from_str(&text).map_err(|e| {
        // The line it is on names the field (the message alone may not).
        let at = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        match at.and_then(|n| Some((n, text.lines().nth(n - 1)?.trim()))) {
            Some((n, line)) => format!("{}: line {n} (`{line}`): {}", path.display(), e.message()),
            None => format!("{}: {}", path.display(), e.message()),
        }
    })?;
    if let Ok(toml::Value::Table(t)) = toml::Value::try_from(&w) {
        for (key, v) in t {
            if let toml::Value::Float(x) = v {
                if !x.is_finite() {
                    return Err(format!(
                        "{}: field `{key}`: {x} is not a finite number",
                        path.display()
                    ));
                }
            }
        }
    }
    Ok(w)
}
