//! The greedy agent: one-ply lookahead on the game's heuristic evaluation.

use crate::eval::Evaluate;
use crate::{Agent, Decision, Forbid};
use shifu_engine::{GameRng, Seat};

/// Scores each legal action by the evaluation of the position it leads to, and plays the best
/// (ties broken at random with its own RNG).
///
/// Mid-turn micro-decisions (paying a hat, placing a tile) often change nothing the evaluation
/// sees until the turn is over, so an action is scored at the **end of the agent's own turn**:
/// after the action, the rest of the turn is played out by repeatedly taking the action whose
/// immediate result evaluates best (a greedy completion). The agent decides on one determinized
/// copy of the state per decision, so it never sees hidden cards.
pub struct GreedyAgent<G: Evaluate> {
    weights: G::Weights,
    rng: GameRng,
    spec: String,
    legal: Vec<G::Action>,
    inner: Vec<G::Action>,
    best: Vec<G::Action>,
    /// The rest of the steps of each best action's best completion, reversed.
    best_paths: Vec<Vec<G::Action>>,
    /// The rest of the steps of the choice begun at the last decision, reversed: a choice split
    /// into steps is searched once, at its first step, and then played out as scored.
    plan: Vec<G::Action>,
    forbid: Forbid,
    /// Whether to keep the last choice's scores ([`Agent::set_explain`]).
    explain: bool,
    /// The last choice's scores, when `explain` is on.
    last: crate::Explanation<G::Action>,
}

impl<G: Evaluate> GreedyAgent<G> {
    /// A greedy agent with these weights; `spec` is its name in logs.
    pub fn new(weights: G::Weights, rng: GameRng, spec: String) -> Self {
        GreedyAgent {
            weights,
            rng,
            spec,
            legal: Vec::new(),
            inner: Vec::new(),
            best: Vec::new(),
            best_paths: Vec::new(),
            plan: Vec::new(),
            forbid: Forbid::NONE,
            explain: false,
            last: crate::Explanation::default(),
        }
    }

    /// The same agent, never completing a turn with a forbidden mechanic (`forbid=`); its own
    /// choices are restricted by [`crate::Restricted`], which wraps it.
    pub fn with_forbid(mut self, forbid: Forbid) -> Self {
        self.forbid = forbid;
        self
    }

    /// The value for `seat` of `state` after `action`, with the rest of `seat`'s turn completed
    /// greedily; where `action` begins or continues a choice split into steps, also the rest of
    /// the steps of its best completion, reversed (else none).
    fn score(
        &mut self,
        game: &G,
        state: &G::State,
        action: G::Action,
        seat: Seat,
    ) -> (f64, Vec<G::Action>) {
        let mut s = state.clone();
        let turn = game.turns_completed(&s);
        game.apply(&mut s, action, &mut self.rng);
        if game.mid_decision(&s) {
            // A step of a choice split into steps: its value is that of its best completion.
            return self.best_completion(game, &s, seat);
        }
        // Finish the turn: each step takes the action with the best immediate evaluation.
        let mut guard = 0;
        while game.to_move(&s) == Some(seat) && game.turns_completed(&s) == turn && guard < 64 {
            guard += 1;
            game.legal_actions(&s, &mut self.inner);
            self.forbid.filter(game, &s, &mut self.inner);
            let mut best_a = self.inner[0];
            let mut best_v = f64::NEG_INFINITY;
            // The best step's completion, where it begins a choice split into steps.
            let mut completed = None;
            for i in 0..self.inner.len() {
                let a = self.inner[i];
                let mut t = s.clone();
                game.apply(&mut t, a, &mut self.rng);
                let split = game.mid_decision(&t);
                let v = self.immediate(game, &mut t, seat);
                if v > best_v {
                    best_v = v;
                    best_a = a;
                    completed = split.then_some(t);
                }
            }
            match completed {
                // Taken as scored: its steps are not searched again one by one.
                Some(t) => s = t,
                None => game.apply(&mut s, best_a, &mut self.rng),
            }
        }
        let v = match game.outcome(&s) {
            Some(o) => 1000.0 * o.win_share(seat) + game.evaluate(&s, seat, &self.weights),
            None => game.evaluate(&s, seat, &self.weights),
        };
        (v, Vec::new())
    }
}

impl<G: Evaluate> GreedyAgent<G> {
    /// The best value over the completions of the choice `state` is in the middle of
    /// ([`shifu_engine::Game::mid_decision`]), each scored as [`GreedyAgent::score`] scores an
    /// action, with its steps, reversed.
    fn best_completion(&mut self, game: &G, state: &G::State, seat: Seat) -> (f64, Vec<G::Action>) {
        let mut steps = Vec::new();
        game.legal_actions(state, &mut steps);
        self.forbid.filter(game, state, &mut steps);
        let mut best = (f64::NEG_INFINITY, Vec::new());
        for a in steps {
            let (v, mut path) = self.score(game, state, a, seat);
            if v > best.0 {
                path.push(a);
                best = (v, path);
            }
        }
        best
    }

    /// The immediate evaluation of `state`, looking through a choice split into steps to its
    /// best completion, which `state` becomes (each completion searched once).
    fn immediate(&mut self, game: &G, state: &mut G::State, seat: Seat) -> f64 {
        if !game.mid_decision(state) {
            return game.evaluate(state, seat, &self.weights);
        }
        let mut steps = Vec::new();
        game.legal_actions(state, &mut steps);
        self.forbid.filter(game, state, &mut steps);
        let mut best: Option<(f64, G::State)> = None;
        for &a in &steps {
            let mut t = state.clone();
            game.apply(&mut t, a, &mut self.rng);
            let v = self.immediate(game, &mut t, seat);
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, t));
            }
        }
        match best {
            Some((v, t)) => {
                *state = t;
                v
            }
            None => game.evaluate(state, seat, &self.weights),
        }
    }
}

impl<G: Evaluate> Agent<G> for GreedyAgent<G> {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn set_explain(&mut self, on: bool) {
        self.explain = on;
    }

    fn explain(&self) -> crate::Explanation<G::Action> {
        self.last.clone()
    }

    fn choose(&mut self, d: &Decision<'_, G>) -> G::Action {
        let legal = d.legal();
        if self.explain {
            self.last = crate::Explanation::default();
        }
        if !d.mid_decision() {
            self.plan.clear();
        } else if let Some(&a) = self.plan.last().filter(|a| legal.contains(a)) {
            // The next step of the completion this agent scored when it began the choice.
            self.plan.pop();
            if self.explain {
                self.last.kind = "plan";
            }
            return a;
        }
        if legal.len() == 1 {
            return legal[0];
        }
        if let Some(a) = d.game().greedy_choice(d, &self.weights, &mut self.rng) {
            if self.explain {
                self.last.kind = "rule";
            }
            return a;
        }
        let state = d.determinize(&mut self.rng);
        let game = d.game();
        self.legal.clear();
        self.legal.extend_from_slice(legal);
        self.best.clear();
        self.best_paths.clear();
        let mut best_v = f64::NEG_INFINITY;
        for i in 0..self.legal.len() {
            let a = self.legal[i];
            let (v, path) = self.score(game, &state, a, d.seat());
            if self.explain {
                self.last.candidates.push((a, v));
            }
            if v > best_v + 1e-12 {
                best_v = v;
                self.best.clear();
                self.best_paths.clear();
                self.best.push(a);
                self.best_paths.push(path);
            } else if (v - best_v).abs() <= 1e-12 {
                self.best.push(a);
                self.best_paths.push(path);
            }
        }
        if self.explain {
            let scored = std::mem::take(&mut self.last.candidates);
            self.last = crate::Explanation::sorted("value", scored);
        }
        let k = rand::Rng::gen_range(&mut self.rng, 0..self.best.len());
        self.plan = std::mem::take(&mut self.best_paths[k]);
        self.best[k]
    }
}
