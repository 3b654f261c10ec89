//! The `az:` agent: a policy-value network ([`shifu_net`]) playing alone or guiding a PUCT
//! search (AlphaZero's selection rule), determinized for hidden information.
//!
//! - `iters=0`: the network's policy alone, from the seat's own observation: the legal action
//!   of highest probability (the first of equals). No search, no randomness.
//! - `iters>0` (or `time_ms`): an information-set tree like [`crate::mcts`]'s: each iteration
//!   samples a world consistent with what the seat has seen ([`Decision::determinize`], the
//!   uniform belief MCTS uses by default), descends by PUCT over the actions legal in that
//!   world, and at the first node with an action not yet in the tree asks the network for the
//!   mover's priors (from the mover's view of the sampled world, relative to the mover) and
//!   every seat's value, which is backed up (each node adds the value of the seat that chose its
//!   action). A finished game is worth its rank reward (or the team's result) scaled to -1..1.
//!   The choice is the most visited root action (ties: the higher prior).
//! - `rollout=W` (0..1, default 0): the leaf's value mixes the network's value with the result
//!   of one uniformly random rollout from the leaf to the end of the game (AlphaGo's λ):
//!   `(1 - W) · value + W · rollout`. With `W=1` the network only gives the priors, and the
//!   search is MCTS with random rollouts guided by the learned policy: a second opinion where
//!   the value head has learned from too few games. A rollout to the end is not cheap: in Tofu
//!   Shifu it costs six to ten forward passes (results/training.md).
//! - `rollout_by=greedy` (default `random`): rollouts choose as MCTS's greedy rollouts do (the
//!   game's greedy choice, else the best one-ply evaluation, by the `weights=` given or the
//!   defaults); needs `rollout=W` above 0.
//! - `depth=D` (default 0: to the end): a rollout stops after D actions and is worth the
//!   hand-written evaluation of where it stopped (as `eval`), like MCTS's cut rollouts.
//! - `eval=W` (0..1, default 0; `rollout + eval` at most 1): the leaf's value mixes in the
//!   hand-written evaluation of the sampled world ([`Evaluate::evaluate_all`] under the
//!   agent's weights, `weights=FILE` or the defaults), each seat's margin over the mean of the
//!   others through a logistic of scale `scale` (default 3, MCTS's cut), mapped to -1..1:
//!   `(1 - rollout - eval) · value + rollout · rollout_result + eval · evaluation`. With
//!   `eval=1` the network gives only the priors and the search is PUCT over the hand-written
//!   evaluation: it costs one evaluation per iteration, no rollout.
//!
//! A decision split into steps ([`shifu_engine::Game::mid_decision`]) is searched like any
//! other: each step is a node.

use crate::eval::Evaluate;
use crate::one_ply::OnePly;
use crate::{Agent, Decision, StopCheck};
use shifu_engine::{GameRng, Outcome, Seat, MAX_SEATS};
use shifu_net::{Features, Inference, Net, NetError, Weights};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The `az:` agent's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AzConfig {
    /// Search iterations per decision (0 with no `time_ms`: the policy alone).
    pub iters: u32,
    /// Wall-clock limit per decision in milliseconds (None: none).
    pub time_ms: Option<u64>,
    /// PUCT's exploration constant.
    pub c_puct: f32,
    /// The weight of a random rollout's result in a leaf's value (0: the network's value alone;
    /// 1: the rollout alone).
    pub rollout: f32,
    /// The weight of the hand-written evaluation in a leaf's value (see the module doc).
    pub eval: f32,
    /// The logistic's scale for the evaluation's margins, in the evaluation's units.
    pub scale: f64,
    /// A rollout's length limit in actions (0: to the end); a rollout cut there is worth the
    /// hand-written evaluation of where it stopped.
    pub depth: u32,
    /// Rollouts choose as MCTS's greedy rollouts do (the game's greedy choice, else the best
    /// one-ply evaluation) rather than uniformly at random.
    pub greedy_rollout: bool,
}

impl Default for AzConfig {
    fn default() -> Self {
        AzConfig {
            iters: 200,
            time_ms: None,
            c_puct: 1.5,
            rollout: 0.0,
            eval: 0.0,
            scale: 3.0,
            depth: 0,
            greedy_rollout: false,
        }
    }
}

/// Networks loaded so far, by path: the agents of every game of a run share one copy.
pub fn shared_net(path: &Path) -> Result<Arc<Net>, NetError> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Net>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(n) = cache.lock().ok().and_then(|c| c.get(path).cloned()) {
        return Ok(n);
    }
    let net = Net::new(&Weights::load(path)?);
    if let Ok(mut c) = cache.lock() {
        c.insert(path.to_path_buf(), net.clone());
    }
    Ok(net)
}

use crate::mcts::{MAX_RESERVED_NODES, NO_NODE};

#[derive(Debug, Clone, Copy)]
struct Node<A> {
    action: A,
    actor: Seat,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Sum of the backed-up values of `actor`.
    value: f32,
    prior: f32,
}

/// The `az:` agent (see the module doc).
pub struct AzAgent<G: Evaluate> {
    config: AzConfig,
    /// The hand-written evaluation's weights, for `eval > 0`.
    weights: G::Weights,
    spec: String,
    rng: GameRng,
    inference: Inference,
    /// Built at the first decision, from its game.
    features: Option<Features>,
    nodes: Vec<Node<G::Action>>,
    path: Vec<u32>,
    legal: Vec<G::Action>,
    /// The greedy rollouts' one-ply pick.
    one_ply: OnePly<G::Action>,
    children: Vec<u32>,
    stop: Option<StopCheck>,
    /// Iterations run by the last decision.
    pub last_iters: u32,
    /// Every seat's backed-up values summed over the last search's iterations (by seat).
    root_sum: [f32; MAX_SEATS],
    /// Whether to add the forward passes' time to `net_time` ([`AzAgent::set_timing`]).
    timing: bool,
    net_time: Duration,
    /// The time encoding positions and masks for it, when timing is on.
    encode_time: Duration,
    /// Whether to keep the last choice's candidates ([`Agent::set_explain`]).
    explain: bool,
    /// The last choice's candidates and what their scores are.
    why: (&'static str, Vec<(G::Action, f64)>),
}

impl<G: Evaluate> AzAgent<G> {
    /// An agent playing `net` (which must be made for the game it plays: see
    /// [`crate::check_agent`]).
    pub fn new(config: AzConfig, net: Arc<Net>, rng: GameRng, spec: String) -> Self {
        AzAgent {
            config,
            weights: G::Weights::default(),
            spec,
            rng,
            inference: Inference::new(net, 1),
            features: None,
            nodes: Vec::new(),
            path: Vec::with_capacity(256),
            legal: Vec::with_capacity(64),
            one_ply: OnePly::new(),
            children: Vec::with_capacity(64),
            stop: None,
            last_iters: 0,
            root_sum: [0.0; MAX_SEATS],
            timing: false,
            net_time: Duration::ZERO,
            encode_time: Duration::ZERO,
            explain: false,
            why: ("", Vec::new()),
        }
    }

    /// The hand-written evaluation's weights used when `eval > 0` (the defaults otherwise).
    pub fn with_weights(mut self, weights: G::Weights) -> Self {
        self.weights = weights;
        self
    }

    /// Turns on (or off) timing the network's forward passes, for self-play's account of where
    /// its time goes; off by default. It never changes a choice.
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// The time spent in the network's forward passes since timing was turned on.
    pub fn net_time(&self) -> Duration {
        self.net_time
    }

    /// The time spent encoding positions and legal masks for the network since timing was
    /// turned on.
    pub fn encode_time(&self) -> Duration {
        self.encode_time
    }

    /// The root visits of legal action `a` in the last choice's search (0 when the last choice
    /// did not search: a single legal action, or the policy alone).
    pub fn root_visits(&self, a: G::Action) -> u32 {
        if self.nodes.is_empty() {
            return 0;
        }
        match self.child_with(0, a) {
            NO_NODE => 0,
            c => self.nodes[c as usize].visits,
        }
    }

    /// Every seat's mean backed-up value at the root of the last choice's search, by seat
    /// (absolute, in -1..1): the search's estimate of each seat's result, which self-play can
    /// train the value head towards (`--value-target`). `None` when the last choice did not
    /// search (a single legal action, or the policy alone).
    pub fn root_values(&self) -> Option<[f32; MAX_SEATS]> {
        let visits = self.nodes.first()?.visits;
        if visits == 0 {
            return None;
        }
        Some(self.root_sum.map(|x| x / visits as f32))
    }

    /// The forward pass of row 0, timed when timing is on.
    fn forward(&mut self) {
        if self.timing {
            let t = Instant::now();
            self.inference.forward(1);
            self.net_time += t.elapsed();
        } else {
            self.inference.forward(1);
        }
    }

    /// Evaluates `mover`'s view of `s` among `legal` (from `self.legal`): fills the policy and
    /// values of row 0.
    fn evaluate(&mut self, game: &G, s: &G::State, mover: Seat) {
        let t = self.timing.then(Instant::now);
        let features = self.features.get_or_insert_with(|| Features::new(game));
        let (x, mask) = self.inference.row_mut(0);
        features.state(game, s, mover, x);
        Features::mask(game, &self.legal, mask);
        if let Some(t) = t {
            self.encode_time += t.elapsed();
        }
        self.forward();
    }

    /// The network's policy alone: the legal action of highest probability.
    fn policy_choice(&mut self, d: &Decision<'_, G>) -> G::Action {
        let game = d.game();
        let features = self.features.get_or_insert_with(|| Features::new(game));
        let (x, mask) = self.inference.row_mut(0);
        features.observation(game, &d.observation(), d.seat(), x);
        Features::mask(game, d.legal(), mask);
        self.forward();
        let p = self.inference.policy(0);
        let prob = |a: &G::Action| p.get(game.action_index(*a)).copied().unwrap_or(0.0);
        let mut best = d.legal()[0];
        for a in d.legal() {
            if prob(a) > prob(&best) {
                best = *a;
            }
        }
        best
    }

    fn child_with(&self, node: u32, a: G::Action) -> u32 {
        let mut c = self.nodes[node as usize].first_child;
        while c != NO_NODE {
            if self.nodes[c as usize].action == a {
                return c;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        NO_NODE
    }

    fn add_child(&mut self, parent: u32, action: G::Action, actor: Seat, prior: f32) {
        let id = self.nodes.len() as u32;
        let first = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action,
            actor,
            first_child: NO_NODE,
            next_sibling: first,
            visits: 0,
            value: 0.0,
            prior,
        });
        self.nodes[parent as usize].first_child = id;
    }

    /// The PUCT-best child in `children` (all present).
    fn select(&self) -> u32 {
        let total: u32 = self
            .children
            .iter()
            .map(|&c| self.nodes[c as usize].visits)
            .sum();
        let sqrt_n = (total as f32 + 1.0).sqrt();
        let mut best = self.children[0];
        let mut best_u = f32::NEG_INFINITY;
        for &c in &self.children {
            let n = &self.nodes[c as usize];
            let q = if n.visits > 0 {
                n.value / n.visits as f32
            } else {
                0.0
            };
            let u = q + self.config.c_puct * n.prior * sqrt_n / (1.0 + n.visits as f32);
            if u > best_u {
                best_u = u;
                best = c;
            }
        }
        best
    }

    /// One iteration from a fresh determinization: descent, one network evaluation (or a
    /// finished game), backup.
    fn iterate(&mut self, d: &Decision<'_, G>) {
        let game = d.game();
        let mut s = d.determinize(&mut self.rng);
        let n = game.num_seats();
        let mut node = 0u32;
        self.path.clear();
        self.path.push(0);
        let values = loop {
            let Some(mover) = game.to_move(&s) else {
                let o = game.outcome(&s).expect("a finished game has an outcome");
                break terminal_values(game, &o, n);
            };
            game.legal_actions(&s, &mut self.legal);
            self.children.clear();
            for i in 0..self.legal.len() {
                let c = self.child_with(node, self.legal[i]);
                self.children.push(c);
            }
            if self.children.contains(&NO_NODE) {
                self.evaluate(game, &s, mover);
                for i in 0..self.legal.len() {
                    if self.children[i] == NO_NODE {
                        let a = self.legal[i];
                        let p = self.inference.policy(0);
                        let prior = p.get(game.action_index(a)).copied().unwrap_or(0.0);
                        self.add_child(node, a, mover, prior);
                    }
                }
                let rel = self.inference.value(0);
                let mut v = [0.0f32; MAX_SEATS];
                for (j, &x) in rel.iter().enumerate().take(n) {
                    v[(usize::from(mover) + j) % n] = x;
                }
                break self.mix_leaf(game, &mut s, v);
            }
            node = self.select();
            game.apply(&mut s, self.nodes[node as usize].action, &mut self.rng);
            self.path.push(node);
        };
        for &p in &self.path {
            let nd = &mut self.nodes[p as usize];
            nd.visits += 1;
            nd.value += values[usize::from(nd.actor)];
        }
        for (r, v) in self.root_sum.iter_mut().zip(values) {
            *r += v;
        }
    }

    /// A leaf's value: the network's `v` mixed with the evaluation of `s` and the result of a
    /// random rollout from it, by the weights `eval` and `rollout`. Without either, `v` itself.
    fn mix_leaf(&mut self, game: &G, s: &mut G::State, v: [f32; MAX_SEATS]) -> [f32; MAX_SEATS] {
        let (we, wr) = (self.config.eval, self.config.rollout);
        if we == 0.0 && wr == 0.0 {
            return v;
        }
        let n = game.num_seats();
        let mut out = v;
        let wv = 1.0 - we - wr;
        for x in out.iter_mut().take(n) {
            *x *= wv;
        }
        if we > 0.0 {
            let e = evaluation_values(game, s, &self.weights, self.config.scale);
            for (x, e) in out.iter_mut().zip(e).take(n) {
                *x += we * e;
            }
        }
        if wr > 0.0 {
            let r = self.rollout(game, s);
            for (x, r) in out.iter_mut().zip(r).take(n) {
                *x += wr * r;
            }
        }
        out
    }

    /// Plays `s` to the end, or for `depth` actions when that is set, by uniformly random
    /// choices or greedy ones (`greedy_rollout`); returns each seat's result in -1..1 (a cut
    /// rollout: [`evaluation_values`]).
    fn rollout(&mut self, game: &G, s: &mut G::State) -> [f32; MAX_SEATS] {
        let depth = self.config.depth;
        let mut steps = 0u32;
        self.one_ply.reset();
        while let Some(mover) = game.to_move(s) {
            if depth > 0 && steps >= depth {
                return evaluation_values(game, s, &self.weights, self.config.scale);
            }
            let a = if self.config.greedy_rollout {
                self.greedy_step(game, s, mover)
            } else {
                game.random_action(s, &mut self.legal, &mut self.rng)
            };
            game.apply(s, a, &mut self.rng);
            steps += 1;
        }
        let o = game.outcome(s).expect("a finished game has an outcome");
        terminal_values(game, &o, game.num_seats())
    }

    /// MCTS's greedy rollout choice for `mover` in `s`: the rest of a split choice it began,
    /// else the game's own rollout choice, else the best one-ply evaluation.
    fn greedy_step(&mut self, game: &G, s: &G::State, mover: Seat) -> G::Action {
        game.legal_actions(s, &mut self.legal);
        self.one_ply.greedy(
            game,
            s,
            mover,
            &self.legal,
            None,
            &self.weights,
            &mut self.rng,
            &mut 0,
        )
    }

    /// The search (see the module doc); returns the most visited legal root action.
    fn search(&mut self, d: &Decision<'_, G>) -> G::Action {
        self.nodes.clear();
        self.root_sum = [0.0; MAX_SEATS];
        if self.config.iters > 0 {
            self.nodes
                .reserve((self.config.iters as usize).min(MAX_RESERVED_NODES) + 1);
        }
        self.nodes.push(Node {
            action: d.legal()[0],
            actor: d.seat(),
            first_child: NO_NODE,
            next_sibling: NO_NODE,
            visits: 0,
            value: 0.0,
            prior: 1.0,
        });
        let started = Instant::now();
        let limit = self.config.time_ms.map(Duration::from_millis);
        let mut iters = 0u32;
        loop {
            if self.config.iters > 0 && iters >= self.config.iters {
                break;
            }
            if let Some(l) = limit {
                if iters.is_multiple_of(16) && started.elapsed() >= l {
                    break;
                }
            }
            if iters.is_multiple_of(crate::mcts::STOP_EVERY) {
                if let Some(stop) = &mut self.stop {
                    if stop() {
                        break;
                    }
                }
            }
            self.iterate(d);
            iters += 1;
        }
        self.last_iters = iters;
        let mut best = d.legal()[0];
        let mut key = (0u32, f32::NEG_INFINITY);
        for &a in d.legal() {
            let c = self.child_with(0, a);
            if c == NO_NODE {
                continue;
            }
            let n = &self.nodes[c as usize];
            if (n.visits, n.prior) > key {
                key = (n.visits, n.prior);
                best = a;
            }
        }
        best
    }
}

/// Each seat's result of a finished game in -1..1: the rank reward (1 first, -1 last, ties
/// sharing), or the team's result in a cooperative game. Seats are absolute; the value targets
/// of training count them from the observer.
pub fn terminal_values<G: Evaluate>(game: &G, o: &Outcome, n: usize) -> [f32; MAX_SEATS] {
    let mut v = [0.0; MAX_SEATS];
    for (i, x) in v.iter_mut().enumerate().take(n) {
        let r = if game.cooperative() {
            game.team_outcome_value(o)
        } else {
            crate::mcts::rank_reward(o.rank[i] as usize, &o.rank[..n])
        };
        *x = (2.0 * r - 1.0) as f32;
    }
    v
}

/// Each seat's hand-written evaluation of `s` in -1..1: its margin over the mean of the others
/// through a logistic of scale `scale` (MCTS's cut), or the team's cut value in a cooperative
/// game; a finished game is worth its result ([`terminal_values`]).
pub fn evaluation_values<G: Evaluate>(
    game: &G,
    s: &G::State,
    weights: &G::Weights,
    scale: f64,
) -> [f32; MAX_SEATS] {
    let n = game.num_seats();
    if let Some(o) = game.outcome(s) {
        return terminal_values(game, &o, n);
    }
    let mut h = [0.0; MAX_SEATS];
    game.evaluate_all(s, weights, &mut h[..n]);
    let mut v = [0.0f32; MAX_SEATS];
    if game.cooperative() {
        let t = (2.0 * game.team_cut_value(h[0]) - 1.0) as f32;
        v[..n].fill(t);
        return v;
    }
    let r = crate::mcts::margin_rewards(&h[..n], scale);
    for (v, r) in v.iter_mut().zip(r).take(n) {
        *v = (2.0 * r - 1.0) as f32;
    }
    v
}

impl<G: Evaluate> Agent<G> for AzAgent<G> {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn choose(&mut self, d: &Decision<'_, G>) -> G::Action {
        self.why.1.clear();
        if d.legal().len() == 1 {
            self.nodes.clear();
            return d.legal()[0];
        }
        if self.config.iters == 0 && self.config.time_ms.is_none() {
            self.nodes.clear();
            let a = self.policy_choice(d);
            if self.explain {
                // The policy of row 0, as the forward pass of this choice left it.
                let p = self.inference.policy(0);
                let game = d.game();
                self.why.0 = "policy";
                self.why.1.extend(d.legal().iter().map(|a| {
                    let q = p.get(game.action_index(*a)).copied().unwrap_or(0.0);
                    (*a, f64::from(q))
                }));
            }
            return a;
        }
        let a = self.search(d);
        if self.explain {
            let total: u32 = d.legal().iter().map(|&a| self.root_visits(a)).sum();
            self.why.0 = "visits";
            for &b in d.legal() {
                let share = f64::from(self.root_visits(b)) / f64::from(total.max(1));
                self.why.1.push((b, share));
            }
        }
        a
    }

    fn set_stop(&mut self, stop: StopCheck) {
        self.stop = Some(stop);
    }

    fn set_explain(&mut self, on: bool) {
        self.explain = on;
    }

    fn explain(&self) -> crate::Explanation<G::Action> {
        crate::Explanation::sorted(self.why.0, self.why.1.clone())
    }
}
