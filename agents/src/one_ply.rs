//! The one-ply greedy pick of MCTS's greedy rollouts, looking through choices that the action
//! model splits into steps ([`shifu_engine::Game::mid_decision`]).
//!
//! A step that only begins a choice (a Ginza serve's order before its dice) leaves nothing an
//! evaluation can score, so the pick scores every complete choice reachable from the decision
//! (each once complete) and plays the best one step by step. Where no choice is split, it is the
//! plain one-ply pick: every legal action applied and evaluated, the first best kept, with the
//! same draws from the RNG.

use crate::eval::Evaluate;
use shifu_engine::{GameRng, Seat};

/// Reused buffers of the pick: no allocation once warm.
pub(crate) struct OnePly<A> {
    /// The rest of the steps of the complete choice being played, reversed.
    plan: Vec<A>,
    /// The steps of the choice being scored, and of the best one so far.
    cur: Vec<A>,
    best: Vec<A>,
    /// The legal steps at each level of the look-through.
    steps: Vec<Vec<A>>,
    /// The evaluation of the last pick's best complete choice.
    value: f64,
}

impl<A: Copy + PartialEq> OnePly<A> {
    pub(crate) fn new() -> Self {
        OnePly {
            plan: Vec::new(),
            cur: Vec::new(),
            best: Vec::new(),
            steps: Vec::new(),
            value: f64::NEG_INFINITY,
        }
    }

    /// Forgets the choice being played (at the start of each rollout).
    pub(crate) fn reset(&mut self) {
        self.plan.clear();
    }

    /// The next step of the complete choice this pick began, if `s` is in its middle and the
    /// step is still legal.
    pub(crate) fn planned<G: Evaluate<Action = A>>(
        &mut self,
        game: &G,
        s: &G::State,
        legal: &[A],
    ) -> Option<A> {
        if !game.mid_decision(s) {
            self.plan.clear();
            return None;
        }
        let a = *self.plan.last()?;
        if legal.contains(&a) {
            self.plan.pop();
            Some(a)
        } else {
            self.plan.clear();
            None
        }
    }

    /// MCTS's greedy rollout choice for `mover` in `s` among `legal`: the rest of a split
    /// choice this pick began ([`Self::planned`]), else the game's own rollout choice (given
    /// the searching seat's belief, if any), else the best one-ply evaluation ([`Self::pick`]).
    /// Every draw comes from `rng`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn greedy<G: Evaluate<Action = A>>(
        &mut self,
        game: &G,
        s: &G::State,
        mover: Seat,
        legal: &[A],
        belief: Option<&G::Belief>,
        weights: &G::Weights,
        rng: &mut GameRng,
        calls: &mut u64,
    ) -> A {
        if let Some(a) = self.planned(game, s, legal) {
            return a;
        }
        let d = crate::Decision::new(game, s, mover, legal);
        if let Some(a) = game.rollout_choice(&d, belief, weights, rng) {
            return a;
        }
        self.pick(game, s, mover, legal, weights, rng, calls)
    }

    /// The best of `legal` in `s` for `mover` by the evaluation of the state it leads to, a
    /// step that begins a split choice scored by its best completion (whose remaining steps the
    /// next calls of [`Self::planned`] return). `legal` is not empty.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn pick<G: Evaluate<Action = A>>(
        &mut self,
        game: &G,
        s: &G::State,
        mover: Seat,
        legal: &[A],
        weights: &G::Weights,
        rng: &mut GameRng,
        calls: &mut u64,
    ) -> A {
        self.plan.clear();
        self.best.clear();
        let mut best_v = f64::NEG_INFINITY;
        for &a in legal {
            let mut t = s.clone();
            game.apply(&mut t, a, rng);
            *calls += 1;
            self.cur.clear();
            self.cur.push(a);
            self.score(game, &t, 0, mover, weights, rng, calls, &mut best_v);
        }
        self.value = best_v;
        match self.best.split_first() {
            Some((&first, rest)) => {
                self.plan.extend(rest.iter().rev());
                first
            }
            None => legal[0],
        }
    }

    /// Scores `t`, reached by the steps in `self.cur`: by the evaluation once the choice is
    /// complete, else by its completions (legal lists at `level` and below).
    #[allow(clippy::too_many_arguments)]
    fn score<G: Evaluate<Action = A>>(
        &mut self,
        game: &G,
        t: &G::State,
        level: usize,
        mover: Seat,
        weights: &G::Weights,
        rng: &mut GameRng,
        calls: &mut u64,
        best_v: &mut f64,
    ) {
        if !game.mid_decision(t) {
            let v = game.evaluate(t, mover, weights);
            if v > *best_v {
                *best_v = v;
                self.best.clear();
                self.best.extend_from_slice(&self.cur);
            }
            return;
        }
        if self.steps.len() <= level {
            self.steps.push(Vec::new());
        }
        let mut list = std::mem::take(&mut self.steps[level]);
        game.legal_actions(t, &mut list);
        for &a in &list {
            let mut u = t.clone();
            game.apply(&mut u, a, rng);
            *calls += 1;
            self.cur.push(a);
            self.score(game, &u, level + 1, mover, weights, rng, calls, best_v);
            self.cur.pop();
        }
        self.steps[level] = list;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use shifu_engine::ginza_retro_cafe::{GinzaRetroCafe, Params};
    use shifu_engine::tofu_shifu::TofuShifu;
    use shifu_engine::Game;

    /// The best evaluation over every complete choice from `s`, enumerated step by step here
    /// (the same order and draws as the pick's).
    fn best_complete<G: Evaluate>(
        g: &G,
        s: &G::State,
        mover: Seat,
        w: &G::Weights,
        rng: &mut GameRng,
    ) -> f64 {
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        let mut best = f64::NEG_INFINITY;
        for a in legal {
            let mut t = s.clone();
            g.apply(&mut t, a, rng);
            let v = if g.mid_decision(&t) {
                best_complete(g, &t, mover, w, rng)
            } else {
                g.evaluate(&t, mover, w)
            };
            best = best.max(v);
        }
        best
    }

    /// Random positions of `g` where a seat decides, at the start of a choice.
    fn decisions<G: Game>(g: &G, count: usize) -> Vec<G::State> {
        let mut out = Vec::new();
        let mut legal = Vec::new();
        for seed in 0..10_000u64 {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut s = g.new_state(&mut rng);
            let stop = rng.gen_range(0..80);
            for _ in 0..stop {
                if g.to_move(&s).is_none() {
                    break;
                }
                let a = g.random_action(&s, &mut legal, &mut rng);
                g.apply(&mut s, a, &mut rng);
            }
            if g.to_move(&s).is_some() && !g.mid_decision(&s) {
                out.push(s);
            }
            if out.len() == count {
                break;
            }
        }
        out
    }

    #[test]
    fn greedy_rollout_scores_a_split_choice_once_complete() {
        // Ginza's serves and rerolls are chosen in steps: the pick's value is the best complete
        // choice's, and its plan plays that choice to its end, every step legal.
        let g = GinzaRetroCafe::with_params(Params::with_players(3)).unwrap();
        let w = Default::default();
        let mut one = OnePly::new();
        let (mut legal, mut split) = (Vec::new(), 0);
        for (k, s) in decisions(&g, 60).into_iter().enumerate() {
            let mover = g.to_move(&s).unwrap();
            g.legal_actions(&s, &mut legal);
            let rng = GameRng::seed_from_u64(k as u64);
            let expected = best_complete(&g, &s, mover, &w, &mut rng.clone());
            let mut calls = 0;
            let a = one.pick(&g, &s, mover, &legal, &w, &mut rng.clone(), &mut calls);
            assert_eq!(one.value, expected, "position {k}");
            let mut t = s.clone();
            let mut play = GameRng::seed_from_u64(99);
            g.apply(&mut t, a, &mut play);
            split += usize::from(g.mid_decision(&t));
            while g.mid_decision(&t) {
                g.legal_actions(&t, &mut legal);
                let step = one.planned(&g, &t, &legal);
                let step = step.unwrap_or_else(|| panic!("position {k}: the plan ran out"));
                g.apply(&mut t, step, &mut play);
            }
        }
        assert!(split > 20, "only {split} picks began a split choice");
    }

    #[test]
    fn greedy_rollout_is_the_plain_one_ply_pick_without_split_choices() {
        // Tofu Shifu splits no choice: the first of the best one-ply evaluations, nothing planned.
        let g = TofuShifu::with_params(shifu_engine::tofu_shifu::Params::with_players(4)).unwrap();
        let w = Default::default();
        let mut one = OnePly::new();
        let mut legal = Vec::new();
        for (k, s) in decisions(&g, 40).into_iter().enumerate() {
            let mover = g.to_move(&s).unwrap();
            g.legal_actions(&s, &mut legal);
            let mut rng = GameRng::seed_from_u64(k as u64);
            let mut plain = rng.clone();
            let (mut best, mut best_v) = (legal[0], f64::NEG_INFINITY);
            for &a in &legal {
                let mut t = s.clone();
                g.apply(&mut t, a, &mut plain);
                let v = g.evaluate(&t, mover, &w);
                if v > best_v {
                    (best, best_v) = (a, v);
                }
            }
            let mut calls = 0;
            assert_eq!(
                one.pick(&g, &s, mover, &legal, &w, &mut rng, &mut calls),
                best
            );
            assert_eq!(rng, plain, "the same draws");
            assert!(one.plan.is_empty());
        }
    }
}
