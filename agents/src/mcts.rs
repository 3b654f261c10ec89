//! Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).
//!
//! Each iteration samples a determinization of the root for the deciding seat, descends the one
//! tree of information sets with UCB1 over the actions legal in that determinization (counting
//! each child's *availability*: how often it was selectable), expands one untried action, plays a
//! rollout (random or greedy, optionally cut at a depth and scored by the heuristic), and backs
//! up a reward vector: each node adds the reward of the seat that chose its action (max^n).

use crate::eval::Evaluate;
use crate::one_ply::OnePly;
use crate::{Agent, Decision, Forbid, StopCheck};
use rand::{Rng, SeedableRng};
use shifu_engine::{GameRng, Outcome, Seat, MAX_SEATS};
use std::time::{Duration, Instant};

/// The rollout policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniform over legal actions.
    Random,
    /// The action whose immediate result evaluates best for the mover.
    Greedy,
}

/// What a finished (or cut) rollout is worth to each seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reward {
    /// Share of the win: 1/k to each of k winners, 0 to the others.
    Win,
    /// Normalised rank: 1 for first, 0 for last, ties share.
    Rank,
}

/// How a rollout cut at the depth limit is scored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cut {
    /// The seats ranked by the heuristic, then scored like a finished game (`reward`).
    Rank,
    /// Each seat by its heuristic margin over the mean of the others, squashed into (0, 1) by a
    /// logistic with this scale (in the heuristic's units): small leads still count.
    Margin(f64),
}

/// How the root's actions are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// The information-set tree: UCB1 from the root down, one expansion per iteration.
    Tree,
    /// Paired worlds (common random numbers): every root action is played in the same sampled
    /// worlds (one determinization and one dice stream per world, `iters / actions` worlds),
    /// each followed by a rollout; the rollout policy's own choice is kept unless another
    /// action beats it in those worlds by more than one standard error of the paired
    /// differences. A depth-one search that improves on its rollout policy (Bertsekas' rollout
    /// algorithm) where a tree of a few hundred iterations is too noisy.
    Paired,
}

/// Where the search's determinizations come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Belief {
    /// Uniform over the hidden states consistent with what the seat has seen (the game's
    /// `determinize`).
    Uniform,
    /// Weighted by the game's model of how the other seats act ([`Evaluate::belief`]; Tofu
    /// Kingdom: the answer model the weights name, `answerers` with `steer` and `maybe_truth`), and the
    /// greedy rollouts follow the same model ([`Evaluate::rollout_choice`]). Games without a
    /// model fall back to `Uniform`.
    Model,
}

/// MCTS settings, from a spec such as `mcts:iters=1000,c=0.7,rollout=random,depth=60`.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsConfig {
    /// Iterations per decision (0: no iteration limit; then `calls` or `time_ms` must be set).
    pub iters: u32,
    /// Forward-model calls (`apply`) per decision (0: no limit).
    pub calls: u64,
    /// Wall-clock limit per decision in milliseconds (None: none). Makes play depend on speed.
    pub time_ms: Option<u64>,
    /// UCB1 exploration constant.
    pub c: f64,
    /// Rollout policy.
    pub rollout: Rollout,
    /// Rollout depth cut-off in complete choices (0: play to the end; the steps of a choice
    /// split into steps count once); a cut rollout is scored by the heuristic.
    pub depth: u32,
    /// Reward.
    pub reward: Reward,
    /// How a cut rollout is scored.
    pub cut: Cut,
    /// How the root's actions are compared.
    pub root: Root,
    /// Where the determinizations come from.
    pub belief: Belief,
    /// Paired search: how many standard errors of the paired differences another action must
    /// beat the rollout policy's own choice by to replace it (spec `z`, default 1).
    pub z: f64,
    /// Paired search: test the best action against the policy's choice on fresh worlds (half a
    /// round's budget more) rather than on the worlds that selected it (spec `confirm=true`;
    /// default false).
    pub confirm: bool,
    /// Paired search: compare only the greedy policy's `top` best-ranked root actions and its
    /// own choice ([`Evaluate::greedy_ranking`]; spec `top`, default 0: every legal action).
    /// Games whose policy does not rank actions compare every action.
    pub top: usize,
    /// Cut rollouts (scored by the heuristic) when the round of the decision ends, as well as
    /// at `depth` (spec `horizon=round`; default `horizon=game`).
    pub round_horizon: bool,
    /// A learned evaluation (spec `leaf=model.json`, fitted by `shifu fit`): a cut rollout is
    /// worth, to each seat, the model's estimate of its final reward from its own observation,
    /// in place of the heuristic.
    pub leaf: Option<std::sync::Arc<crate::learned::ValueModel>>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iters: 1000,
            calls: 0,
            time_ms: None,
            c: 0.7,
            rollout: Rollout::Random,
            depth: 60,
            reward: Reward::Rank,
            cut: Cut::Margin(3.0),
            root: Root::Tree,
            belief: Belief::Uniform,
            round_horizon: false,
            leaf: None,
            z: 1.0,
            confirm: false,
            top: 0,
        }
    }
}

/// No node: the end of a child or sibling list (shared with the `az:` tree).
pub(crate) const NO_NODE: u32 = u32::MAX;

/// The most tree nodes reserved ahead of a decision.
pub(crate) const MAX_RESERVED_NODES: usize = 1 << 20;

/// The most rollouts one decision of the paired search plays (`iters` is refused above it, and a
/// time limit is held to it): its rewards are kept per world and action.
pub(crate) const MAX_PAIRED_ROLLOUTS: usize = 1_000_000;

#[derive(Debug, Clone, Copy)]
struct Node<A> {
    action: A,
    actor: Seat,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    avail: u32,
    reward: f64,
}

/// The IS-MCTS agent. Its tree lives in an arena reused between decisions.
pub struct MctsAgent<G: Evaluate> {
    config: MctsConfig,
    weights: G::Weights,
    rng: GameRng,
    spec: String,
    nodes: Vec<Node<G::Action>>,
    path: Vec<u32>,
    legal: Vec<G::Action>,
    untried: Vec<G::Action>,
    /// The child of each legal action at the node being descended (`NO_NODE` where none).
    children: Vec<u32>,
    /// Paired search: each root action's reward in each world, world-major.
    paired: Vec<f64>,
    /// Paired search: the root actions still compared.
    survivors: Vec<usize>,
    /// Paired search: the greedy policy's ranking of the root actions (`top`).
    ranked: Vec<G::Action>,
    /// This decision's belief (`belief=model`), when the game has one.
    belief: Option<G::Belief>,
    /// Scratch for the learned evaluation: an encoded observation and the hidden layer.
    leaf_x: Vec<f32>,
    leaf_h: Vec<f32>,
    /// The round of this decision (for `horizon=round`).
    root_round: u32,
    /// Forward-model calls made by the last decision.
    pub last_calls: u64,
    /// Iterations run by the last decision.
    pub last_iters: u32,
    /// A check polled every [`STOP_EVERY`] iterations ([`Agent::set_stop`]).
    stop: Option<StopCheck>,
    /// Mechanics the deciding seat may not use in the tree (`forbid=`).
    forbid: Forbid,
    /// The greedy rollouts' one-ply pick, looking through choices split into steps.
    one_ply: OnePly<G::Action>,
    /// Whether to keep the last choice's scores ([`Agent::set_explain`]).
    explain: bool,
    /// The last choice's scores, when `explain` is on.
    last: crate::Explanation<G::Action>,
}

/// Iterations (or paired worlds) between two polls of a stop check.
pub const STOP_EVERY: u32 = 32;

impl<G: Evaluate> MctsAgent<G> {
    /// An MCTS agent.
    pub fn new(config: MctsConfig, weights: G::Weights, rng: GameRng, spec: String) -> Self {
        MctsAgent {
            config,
            weights,
            rng,
            spec,
            nodes: Vec::new(),
            path: Vec::with_capacity(256),
            legal: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            children: Vec::with_capacity(64),
            paired: Vec::new(),
            survivors: Vec::new(),
            ranked: Vec::new(),
            belief: None,
            leaf_x: Vec::new(),
            leaf_h: Vec::new(),
            root_round: 0,
            last_calls: 0,
            last_iters: 0,
            stop: None,
            forbid: Forbid::NONE,
            one_ply: OnePly::new(),
            explain: false,
            last: crate::Explanation::default(),
        }
    }

    /// The same agent, whose own decisions in the tree leave out the forbidden mechanics
    /// (`forbid=`; the other seats' are not restricted, nor are rollouts); its choice at the
    /// root is restricted by [`crate::Restricted`], which wraps it.
    pub fn with_forbid(mut self, forbid: Forbid) -> Self {
        self.forbid = forbid;
        self
    }

    /// Whether the stop check (if any) asks to stop, polled when `count` is a multiple of
    /// [`STOP_EVERY`].
    #[inline]
    fn stopped(&mut self, count: u32) -> bool {
        match &mut self.stop {
            Some(stop) if count.is_multiple_of(STOP_EVERY) => stop(),
            _ => false,
        }
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

    fn add_child(&mut self, parent: u32, action: G::Action, actor: Seat) -> u32 {
        let id = self.nodes.len() as u32;
        let first = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            action,
            actor,
            first_child: NO_NODE,
            next_sibling: first,
            visits: 0,
            avail: 0,
            reward: 0.0,
        });
        self.nodes[parent as usize].first_child = id;
        id
    }

    /// The reward vector of a finished game.
    fn terminal_reward(&self, game: &G, o: &Outcome, n: usize) -> [f64; MAX_SEATS] {
        let mut r = [0.0; MAX_SEATS];
        if game.cooperative() {
            r[..n].fill(game.team_outcome_value(o));
            return r;
        }
        for (i, x) in r.iter_mut().enumerate().take(n) {
            *x = match self.config.reward {
                Reward::Win => o.win_share(i as Seat),
                Reward::Rank => rank_reward(o.rank[i] as usize, &o.rank[..n]),
            };
        }
        r
    }

    /// The reward vector of a rollout cut before the end: each seat's value under the learned
    /// evaluation, or the seats ranked by the heuristic.
    #[inline(never)]
    fn heuristic_reward(&mut self, game: &G, s: &G::State, n: usize) -> [f64; MAX_SEATS] {
        if let Some(m) = self.config.leaf.as_deref() {
            let mut r = [0.0; MAX_SEATS];
            self.leaf_x.resize(m.inputs, 0.0);
            for (i, x) in r.iter_mut().enumerate().take(n) {
                game.encode_observation(s, i as Seat, &mut self.leaf_x);
                *x = f64::from(m.predict(&self.leaf_x, &mut self.leaf_h));
            }
            if game.cooperative() {
                let v = r[0];
                r[..n].fill(v);
            }
            return r;
        }
        let mut h = [0.0; MAX_SEATS];
        game.evaluate_all(s, &self.weights, &mut h[..n]);
        if game.cooperative() {
            let mut r = [0.0; MAX_SEATS];
            r[..n].fill(game.team_cut_value(h[0]));
            return r;
        }
        if let Cut::Margin(scale) = self.config.cut {
            return margin_rewards(&h[..n], scale);
        }
        let mut rank = [0u8; MAX_SEATS];
        for i in 0..n {
            rank[i] = 1 + (0..n).filter(|&j| h[j] > h[i]).count() as u8;
        }
        let mut r = [0.0; MAX_SEATS];
        for i in 0..n {
            r[i] = match self.config.reward {
                Reward::Rank => rank_reward(rank[i] as usize, &rank[..n]),
                Reward::Win => {
                    let k = rank[..n].iter().filter(|&&x| x == 1).count();
                    if rank[i] == 1 {
                        1.0 / k as f64
                    } else {
                        0.0
                    }
                }
            };
        }
        r
    }

    /// Plays a rollout from `s`; returns the reward vector and the forward-model calls made.
    #[inline(never)]
    fn rollout(&mut self, game: &G, s: &mut G::State) -> ([f64; MAX_SEATS], u64) {
        let n = game.num_seats();
        let mut calls = 0u64;
        let mut depth = 0u32;
        // The cut's settings, read once (`cut_here` with them).
        let most = if self.config.depth > 0 {
            self.config.depth
        } else {
            u32::MAX
        };
        let horizon = self.config.round_horizon;
        self.one_ply.reset();
        while let Some(mover) = game.to_move(s) {
            let cut = depth >= most || (horizon && game.round(s) != self.root_round);
            debug_assert_eq!(cut, self.cut_here(game, s, depth));
            if cut {
                return (self.heuristic_reward(game, s, n), calls);
            }
            let a = match self.config.rollout {
                // The same draw as `RandomAgent::pick` over the listed actions.
                Rollout::Random => game.random_action(s, &mut self.legal, &mut self.rng),
                Rollout::Greedy => {
                    game.legal_actions(s, &mut self.legal);
                    // The rest of a split choice this policy began; else the game's own greedy
                    // choice where it has one (a policy such as Wok Star's kitchen routine);
                    // else the best one-ply evaluation.
                    self.one_ply.greedy(
                        game,
                        s,
                        mover,
                        &self.legal,
                        self.belief.as_ref(),
                        &self.weights,
                        &mut self.rng,
                        &mut calls,
                    )
                }
            };
            game.apply(s, a, &mut self.rng);
            calls += 1;
            // The depth counts complete choices: the steps of a split one count once.
            if !game.mid_decision(s) {
                depth += 1;
            }
        }
        let o = game.outcome(s).expect("finished");
        (self.terminal_reward(game, &o, n), calls)
    }

    /// The rollout policy's choice in `s` for `mover` (the game's greedy choice, else the best
    /// one-ply evaluation; uniform for random rollouts), drawing only from `policy`.
    fn policy_pick(
        &mut self,
        game: &G,
        s: &G::State,
        mover: Seat,
        policy: &mut GameRng,
        calls: &mut u64,
    ) -> G::Action {
        game.legal_actions(s, &mut self.legal);
        match self.config.rollout {
            Rollout::Random => self.legal[policy.gen_range(0..self.legal.len())],
            Rollout::Greedy => self.one_ply.greedy(
                game,
                s,
                mover,
                &self.legal,
                self.belief.as_ref(),
                &self.weights,
                policy,
                calls,
            ),
        }
    }

    /// A rollout whose chance events draw from `chance` and whose choices draw from `policy`,
    /// so that two rollouts from the same world see the same dice for as long as they can.
    fn paired_rollout(
        &mut self,
        game: &G,
        s: &mut G::State,
        chance: &mut GameRng,
        policy: &mut GameRng,
        seat: Seat,
    ) -> (f64, u64) {
        let n = game.num_seats();
        let mut calls = 0u64;
        let mut depth = 0u32;
        self.one_ply.reset();
        while let Some(mover) = game.to_move(s) {
            if self.cut_here(game, s, depth) {
                return (self.heuristic_reward(game, s, n)[seat as usize], calls);
            }
            let a = self.policy_pick(game, s, mover, policy, &mut calls);
            game.apply(s, a, chance);
            calls += 1;
            // The depth counts complete choices, as in `rollout`.
            if !game.mid_decision(s) {
                depth += 1;
            }
        }
        let o = game.outcome(s).expect("finished");
        (self.terminal_reward(game, &o, n)[seat as usize], calls)
    }

    /// The paired-worlds search (see [`Root::Paired`]), for the deciding seat's reward: sequential
    /// halving over the root's actions (Karnin, Koren and Somekh, 2013), every survivor played
    /// in the same new worlds each round, the policy's own choice never dropped.
    ///
    /// Its budget is `iters` rollouts; under `time_ms` it is the rollouts that fit in the time
    /// at the pace of the first two worlds (and at most `iters` when that is set too), and a
    /// search that still runs past the time decides on the worlds played so far.
    fn paired_search(&mut self, d: &Decision<'_, G>) -> G::Action {
        let started = Instant::now();
        let limit = self.config.time_ms.map(Duration::from_millis);
        let legal = d.legal();
        let m = legal.len();
        let mut policy = GameRng::seed_from_u64(self.rng.gen());
        let base = match d.game().greedy_choice(d, &self.weights, &mut policy) {
            Some(a) if self.config.rollout == Rollout::Greedy => legal.iter().position(|&x| x == a),
            _ => None,
        };
        // Survivors (indices into `legal`), each one's reward in every world so far (row-major:
        // world, then action; NaN where the action was no longer played).
        self.candidates(d, base, &mut policy);
        self.paired.clear();
        self.last_calls = 0;
        self.last_iters = 0;
        if let [only] = self.survivors[..] {
            // `top=1` and the policy's choice is its best-ranked action: nothing to compare.
            return legal[only];
        }
        let k0 = self.survivors.len();
        let rounds = (usize::BITS - (k0 - 1).leading_zeros()).max(1) as usize;
        let mut per_round = (self.config.iters as usize / rounds).max(1);
        let mut worlds = 0usize;
        let mut late = false;
        for round in 0..rounds {
            let k = self.survivors.len();
            let mut new = (per_round / k).max(2);
            let mut w = 0;
            while w < new {
                if self.stopped((worlds + w) as u32) {
                    // Stopped from outside: the policy's choice, else the first survivor.
                    return legal[base.unwrap_or(self.survivors[0])];
                }
                if worlds + w >= 2 && limit.is_some_and(|l| started.elapsed() >= l) {
                    late = true;
                    break;
                }
                let seed: u64 = self.rng.gen();
                self.play_world(d, seed);
                w += 1;
                if round == 0 && w == 2 {
                    if let Some(l) = limit {
                        per_round = self.timed_per_round(rounds, k, started.elapsed(), l);
                        new = (per_round / k).max(2);
                    }
                }
            }
            worlds += w;
            if late || k <= 2 {
                break;
            }
            self.keep_better_half(m, worlds, base);
        }
        let v = &self.paired;
        let mean = |i: usize| column_mean(v, m, worlds, i);
        let best = self
            .survivors
            .iter()
            .copied()
            .max_by(|&i, &j| mean(i).total_cmp(&mean(j)).then(j.cmp(&i)))
            .unwrap_or(0);
        let Some(b) = base else {
            return legal[best];
        };
        if best == b {
            return legal[b];
        }
        if !self.config.confirm || late {
            return if beats_by(v, m, 0..worlds, best, b, self.config.z) {
                legal[best]
            } else {
                legal[b]
            };
        }
        // Confirmation on fresh worlds: the rounds above pick whichever action was luckiest, so
        // their own rewards overstate its lead over the policy's choice.
        let fresh = (per_round / 2).max(2);
        let deadline = limit.map(|l| (started, l));
        if self.confirmed_on_fresh_worlds(d, worlds, fresh, deadline, best, b) {
            legal[best]
        } else {
            legal[b]
        }
    }

    /// Sequential halving's step: keeps the better half of the survivors by their mean over the
    /// `worlds` played (rows of `m`), and the policy's choice `base` among them.
    fn keep_better_half(&mut self, m: usize, worlds: usize, base: Option<usize>) {
        let v = std::mem::take(&mut self.paired);
        let mean = |i: usize| column_mean(&v, m, worlds, i);
        let k = self.survivors.len();
        self.survivors
            .sort_by(|&i, &j| mean(j).total_cmp(&mean(i)).then(i.cmp(&j)));
        let keep = k.div_ceil(2);
        if let Some(b) = base {
            if let Some(p) = self.survivors.iter().position(|&x| x == b) {
                if p >= keep {
                    self.survivors.swap(keep - 1, p);
                }
            }
        }
        self.survivors.truncate(keep);
        self.paired = v;
    }

    /// Whether `best` beats the policy's choice `base` on up to `fresh` new worlds after the
    /// first `worlds` (at least two, and no more once the `(started, limit)` deadline passes).
    fn confirmed_on_fresh_worlds(
        &mut self,
        d: &Decision<'_, G>,
        worlds: usize,
        fresh: usize,
        deadline: Option<(Instant, Duration)>,
        best: usize,
        base: usize,
    ) -> bool {
        self.survivors.clear();
        self.survivors.extend([best, base]);
        let mut played = 0;
        while played < fresh && (played < 2 || deadline.is_none_or(|(t, l)| t.elapsed() < l)) {
            let seed: u64 = self.rng.gen();
            self.play_world(d, seed);
            played += 1;
        }
        let m = d.legal().len();
        let rows = worlds..worlds + played;
        beats_by(&self.paired, m, rows, best, base, self.config.z)
    }

    /// The rollouts a round of the paired search may play under a time limit: the whole
    /// search's share of `limit` at the pace of its first two worlds (`k` rollouts each, in
    /// `spent`), split over its `rounds`, and no more than `iters` allows when that is set.
    fn timed_per_round(&self, rounds: usize, k: usize, spent: Duration, limit: Duration) -> usize {
        let per_rollout = spent.as_secs_f64() / (2 * k) as f64;
        let fit = if per_rollout > 0.0 {
            (limit.as_secs_f64() / per_rollout).min(MAX_PAIRED_ROLLOUTS as f64) as usize
        } else {
            MAX_PAIRED_ROLLOUTS
        };
        let total = match self.config.iters {
            0 => fit,
            n => fit.min(n as usize),
        };
        (total / rounds).max(1)
    }

    /// The root actions the paired search starts from (into `survivors`, as indices into the
    /// legal actions): every one, or with `top=k` the greedy policy's `k` best-ranked and its
    /// own choice `base`.
    fn candidates(&mut self, d: &Decision<'_, G>, base: Option<usize>, rng: &mut GameRng) {
        let legal = d.legal();
        self.survivors.clear();
        let ranked = self.config.top > 0
            && base.is_some()
            && d.game()
                .greedy_ranking(d, &self.weights, rng, &mut self.ranked);
        if !ranked {
            self.survivors.extend(0..legal.len());
            return;
        }
        self.survivors.extend(base);
        for a in self.ranked.iter().take(self.config.top) {
            if let Some(i) = legal.iter().position(|x| x == a) {
                if !self.survivors.contains(&i) {
                    self.survivors.push(i);
                }
            }
        }
    }

    /// Plays every surviving root action in the world of `seed` (one determinization, one dice
    /// stream, one policy stream, the same for each action) and appends the rewards as a row.
    fn play_world(&mut self, d: &Decision<'_, G>, seed: u64) {
        let game = d.game();
        let m = d.legal().len();
        let row = self.paired.len();
        self.paired.resize(row + m, f64::NAN);
        for j in 0..self.survivors.len() {
            let i = self.survivors[j];
            let mut chance = GameRng::seed_from_u64(seed);
            let mut policy = GameRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
            let mut s = Self::sample(self.belief.as_ref(), d, &mut chance);
            game.apply(&mut s, d.legal()[i], &mut chance);
            let (r, used) = self.paired_rollout(game, &mut s, &mut chance, &mut policy, d.seat());
            self.last_calls += used + 1;
            self.last_iters += 1;
            self.paired[row + i] = r;
        }
    }

    /// Whether a rollout `depth` complete choices deep in `s` stops here, to be scored by the heuristic.
    fn cut_here(&self, game: &G, s: &G::State, depth: u32) -> bool {
        (self.config.depth > 0 && depth >= self.config.depth)
            || (self.config.round_horizon && game.round(s) != self.root_round)
    }

    /// A determinization of the decision's information set: from this decision's belief when
    /// the search has one, else uniform. Never inlined, like [`Self::rollout`] and
    /// [`Self::heuristic_reward`], so that a profile splits an iteration's time between them
    /// (`benches/examples/mcts_profile.rs`).
    #[inline(never)]
    fn sample(belief: Option<&G::Belief>, d: &Decision<'_, G>, rng: &mut GameRng) -> G::State {
        match belief {
            Some(b) => d.game().sample_belief(d, b, rng),
            None => d.determinize(rng),
        }
    }

    /// Runs the search from the decision's information set; returns the chosen action.
    fn search(&mut self, d: &Decision<'_, G>) -> G::Action {
        self.plant_root(d);
        let ln = ln_table();
        let started = Instant::now();
        let limit = self.config.time_ms.map(Duration::from_millis);
        let mut calls = 0u64;
        let mut iters = 0u32;
        while !self.out_of_budget(iters, calls, started, limit) {
            iters += 1;
            calls += self.iterate(d, ln);
        }
        self.last_calls = calls;
        self.last_iters = iters;
        self.most_visited_root_action(d)
    }

    /// Empties the tree and plants its root, the decision's seat to move.
    fn plant_root(&mut self, d: &Decision<'_, G>) {
        self.nodes.clear();
        // With an iteration budget the tree never outgrows one node per iteration: reserve it
        // once and no later decision allocates a node (up to a million nodes: a budget of
        // billions from the command line must not reserve gigabytes before its time limit).
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
            avail: 0,
            reward: 0.0,
        });
    }

    /// Whether the search stops before another iteration: its iteration, call or time budget
    /// is spent (the clock read every 16 iterations), or it was stopped from outside.
    #[inline]
    fn out_of_budget(
        &mut self,
        iters: u32,
        calls: u64,
        started: Instant,
        limit: Option<Duration>,
    ) -> bool {
        if self.config.iters > 0 && iters >= self.config.iters {
            return true;
        }
        if self.config.calls > 0 && calls >= self.config.calls {
            return true;
        }
        if let Some(l) = limit {
            if iters.is_multiple_of(16) && started.elapsed() >= l {
                return true;
            }
        }
        self.stopped(iters)
    }

    /// One iteration: a determinization, the tree policy down to a new leaf, a rollout from it
    /// and its backup along the path. Returns the engine calls it made.
    #[inline]
    fn iterate(&mut self, d: &Decision<'_, G>, ln: &[f64]) -> u64 {
        let game = d.game();
        let mut s = Self::sample(self.belief.as_ref(), d, &mut self.rng);
        let mut calls = self.descend(game, d.seat(), &mut s, ln);
        let (reward, used) = self.rollout(game, &mut s);
        calls += used;
        self.backup(&reward);
        calls
    }

    /// Selection and expansion: from the root, the UCB-best child while every legal action has
    /// one, until a node with an untried action (expanded: one new child) or the end of the
    /// game. Leaves the nodes visited in `path`, `s` at the new leaf; returns the actions
    /// applied.
    #[inline]
    fn descend(&mut self, game: &G, seat: Seat, s: &mut G::State, ln: &[f64]) -> u64 {
        let mut calls = 0u64;
        let mut node = 0u32;
        self.path.clear();
        self.path.push(0);
        while let Some(mover) = game.to_move(s) {
            game.legal_actions(s, &mut self.legal);
            if mover == seat {
                self.forbid.filter(game, s, &mut self.legal);
            }
            self.look_up_children(node);
            calls += 1;
            if !self.untried.is_empty() {
                let child = self.expand(node, mover);
                game.apply(s, self.nodes[child as usize].action, &mut self.rng);
                self.path.push(child);
                break;
            }
            node = self.select(ln);
            game.apply(s, self.nodes[node as usize].action, &mut self.rng);
            self.path.push(node);
        }
        calls
    }

    /// Each legal action's child of `node` (or [`NO_NODE`]) into `children`, looked up once
    /// (legal actions are distinct), and the actions without one into `untried`.
    #[inline]
    fn look_up_children(&mut self, node: u32) {
        self.untried.clear();
        self.children.clear();
        for i in 0..self.legal.len() {
            let a = self.legal[i];
            let c = self.child_with(node, a);
            if c == NO_NODE {
                self.untried.push(a);
            }
            self.children.push(c);
        }
    }

    /// Adds a child of `node` for a random untried action of `mover`; it and the siblings that
    /// were selectable this time count one more availability. Returns the child.
    #[inline]
    fn expand(&mut self, node: u32, mover: Seat) -> u32 {
        let a = self.untried[self.rng.gen_range(0..self.untried.len())];
        let child = self.add_child(node, a, mover);
        self.nodes[child as usize].avail = 1;
        for &c in &self.children {
            if c != NO_NODE {
                self.nodes[c as usize].avail += 1;
            }
        }
        child
    }

    /// The child in `children` (all present) with the highest upper confidence bound, each
    /// counted available once more; the first of equals.
    #[inline]
    fn select(&mut self, ln: &[f64]) -> u32 {
        let mut best = NO_NODE;
        let mut best_u = f64::NEG_INFINITY;
        for &c in &self.children {
            let n = &mut self.nodes[c as usize];
            n.avail += 1;
            let ln_avail = match ln.get(n.avail as usize) {
                Some(&x) => x,
                None => (n.avail as f64).ln(),
            };
            let u =
                n.reward / n.visits as f64 + self.config.c * (ln_avail / n.visits as f64).sqrt();
            if u > best_u {
                best_u = u;
                best = c;
            }
        }
        best
    }

    /// Backpropagation: each node on the path adds a visit and the reward of the seat that
    /// chose it.
    #[inline]
    fn backup(&mut self, reward: &[f64; MAX_SEATS]) {
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.reward += reward[n.actor as usize];
        }
    }

    /// The most visited root action that is legal here (ties: the first in legal order).
    fn most_visited_root_action(&self, d: &Decision<'_, G>) -> G::Action {
        let mut best = d.legal()[0];
        let mut most = 0u32;
        for &a in d.legal() {
            let c = self.child_with(0, a);
            if c != NO_NODE && self.nodes[c as usize].visits > most {
                most = self.nodes[c as usize].visits;
                best = a;
            }
        }
        best
    }
}

impl<G: Evaluate> MctsAgent<G> {
    /// The tree search's root actions with their shares of the root's visits.
    fn visit_shares(&self, d: &Decision<'_, G>) -> crate::Explanation<G::Action> {
        let visits: Vec<(G::Action, f64)> = d
            .legal()
            .iter()
            .map(|&a| {
                let c = self.child_with(0, a);
                let v = if c == NO_NODE {
                    0
                } else {
                    self.nodes[c as usize].visits
                };
                (a, f64::from(v))
            })
            .collect();
        let total: f64 = visits.iter().map(|x| x.1).sum::<f64>().max(1.0);
        let shares = visits.into_iter().map(|(a, v)| (a, v / total)).collect();
        crate::Explanation::sorted("visits", shares)
    }

    /// The paired search's compared root actions with their mean reward over the worlds each
    /// was played in.
    fn paired_scores(&self, d: &Decision<'_, G>) -> crate::Explanation<G::Action> {
        let m = d.legal().len();
        let mut scored = Vec::new();
        for (i, &a) in d.legal().iter().enumerate() {
            let played: Vec<f64> = self
                .paired
                .chunks(m)
                .map(|row| row[i])
                .filter(|x| !x.is_nan())
                .collect();
            if !played.is_empty() {
                scored.push((a, played.iter().sum::<f64>() / played.len() as f64));
            }
        }
        crate::Explanation::sorted("reward", scored)
    }
}

/// How many availability counts [`ln_table`] holds the logarithm of.
const LN_COUNTS: usize = 4096;

/// `ln(n)` for `n` below [`LN_COUNTS`], each computed once by [`f64::ln`], so that the
/// selection's exploration term has the same bits as computing it every time.
fn ln_table() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..LN_COUNTS).map(|n| (n as f64).ln()).collect())
}

/// The mean of action `i`'s rewards over the first `worlds` rows of `v` (rows of `m`).
fn column_mean(v: &[f64], m: usize, worlds: usize, i: usize) -> f64 {
    (0..worlds).map(|w| v[w * m + i]).sum::<f64>() / worlds as f64
}

/// Whether action `best` beats action `base` in the same worlds (the rows `rows` of `v`, rows of
/// `m`) by more than `z` standard errors of the paired differences.
fn beats_by(
    v: &[f64],
    m: usize,
    rows: std::ops::Range<usize>,
    best: usize,
    base: usize,
    z: f64,
) -> bool {
    let n = rows.len() as f64;
    let diffs = rows.map(|w| v[w * m + best] - v[w * m + base]);
    let mu = diffs.clone().sum::<f64>() / n;
    let var = diffs.map(|x| (x - mu) * (x - mu)).sum::<f64>() / (n - 1.0);
    mu > z * (var / n).sqrt()
}

/// Each seat's heuristic margin over the mean of the others, through a logistic of the given
/// scale: 1/2 for a seat level with the others, toward 1 for a lead, toward 0 for a deficit.
pub(crate) fn margin_rewards(h: &[f64], scale: f64) -> [f64; MAX_SEATS] {
    let n = h.len();
    let total: f64 = h.iter().sum();
    let mut r = [0.0; MAX_SEATS];
    for i in 0..n {
        let others = (total - h[i]) / (n - 1).max(1) as f64;
        r[i] = 1.0 / (1.0 + (-(h[i] - others) / scale).exp());
    }
    r
}

/// 1 for rank 1, 0 for the last rank, linear between; tied seats share the average of the
/// places they span.
pub(crate) fn rank_reward(rank: usize, ranks: &[u8]) -> f64 {
    let n = ranks.len();
    if n <= 1 {
        return 1.0;
    }
    let tied = ranks.iter().filter(|&&r| r as usize == rank).count();
    // Places rank .. rank + tied - 1, each worth (n - place) / (n - 1).
    let sum: f64 = (rank..rank + tied)
        .map(|p| (n - p) as f64 / (n - 1) as f64)
        .sum();
    sum / tied as f64
}

impl<G: Evaluate> Agent<G> for MctsAgent<G> {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn choose(&mut self, d: &Decision<'_, G>) -> G::Action {
        if self.explain {
            self.last = crate::Explanation::default();
        }
        if d.legal().len() == 1 {
            return d.legal()[0];
        }
        self.root_round = d.round();
        self.belief = match self.config.belief {
            Belief::Model => d.game().belief(d, &self.weights, &mut self.rng),
            Belief::Uniform => None,
        };
        if self.config.root == Root::Paired {
            let a = self.paired_search(d);
            if self.explain {
                self.last = self.paired_scores(d);
            }
            return a;
        }
        let a = self.search(d);
        if self.explain {
            self.last = self.visit_shares(d);
        }
        a
    }

    fn set_explain(&mut self, on: bool) {
        self.explain = on;
    }

    fn explain(&self) -> crate::Explanation<G::Action> {
        self.last.clone()
    }

    fn set_stop(&mut self, stop: StopCheck) {
        self.stop = Some(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::{beats_by, column_mean, ln_table, margin_rewards, rank_reward, LN_COUNTS};

    fn beats_by_a_standard_error(v: &[f64], m: usize, w: usize, best: usize, base: usize) -> bool {
        beats_by(v, m, 0..w, best, base, 1.0)
    }

    /// The logarithms looked up in the selection are [`f64::ln`]'s, every bit.
    #[test]
    fn looked_up_logarithms_are_those_computed() {
        let t = ln_table();
        assert_eq!(t.len(), LN_COUNTS);
        for (n, x) in t.iter().enumerate() {
            assert_eq!(x.to_bits(), (n as f64).ln().to_bits(), "{n}");
        }
    }

    #[test]
    fn paired_differences_decide_only_beyond_a_standard_error() {
        // Two actions over four worlds, row-major: (action 0, action 1) per world.
        let v = [1.0, 0.0, 0.2, 0.2, 1.0, 0.2, 0.2, 0.2];
        assert!((column_mean(&v, 2, 4, 0) - 0.6).abs() < 1e-12);
        assert!((column_mean(&v, 2, 4, 1) - 0.15).abs() < 1e-12);
        // Differences 1, 0, 0.8, 0: mean 0.45, standard error about 0.25.
        assert!(beats_by_a_standard_error(&v, 2, 4, 0, 1));
        assert!(!beats_by_a_standard_error(&v, 2, 4, 1, 0));
        // One lucky world in four is not enough: differences 1, 0, 0, -0.2 (mean 0.2, SE 0.26).
        let v = [1.0, 0.0, 0.2, 0.2, 0.2, 0.2, 0.0, 0.2];
        assert!(!beats_by_a_standard_error(&v, 2, 4, 0, 1));
        // An action never beats itself.
        assert!(!beats_by_a_standard_error(&v, 2, 4, 0, 0));
    }

    #[test]
    fn margin_rewards_order_seats_by_their_lead_and_keep_small_leads() {
        let r = margin_rewards(&[2.0, 2.0, 2.0], 3.0);
        assert!(r[..3].iter().all(|&x| (x - 0.5).abs() < 1e-12));
        let r = margin_rewards(&[2.1, 2.0, 1.0], 3.0);
        assert!(r[0] > r[1] && r[1] > r[2]);
        // A lead of 0.1 still moves the reward (a rank cut would see only the order).
        assert!(r[0] - r[1] > 0.005);
        assert!(r[..3].iter().all(|&x| x > 0.0 && x < 1.0));
    }

    #[test]
    fn rank_reward_is_linear_and_splits_ties() {
        assert_eq!(rank_reward(1, &[1, 2, 3]), 1.0);
        assert_eq!(rank_reward(3, &[1, 2, 3]), 0.0);
        assert_eq!(rank_reward(2, &[1, 2, 3]), 0.5);
        // Two seats tied first of three share places 1 and 2: (1 + 0.5) / 2.
        assert_eq!(rank_reward(1, &[1, 1, 3]), 0.75);
        assert_eq!(rank_reward(1, &[1, 1]), 0.5);
    }
}
