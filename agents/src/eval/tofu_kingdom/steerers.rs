//! The answer model of a Prince who knows how his answerers answer (`answerers = "steer"`).
//!
//! Each answerer is taken to be the greedy steering answerer (`answer_style = "steer"`, the
//! default): it reads the Prince's belief under the stated answer model (`steer`,
//! `maybe_truth`) and gives the allowed answer that leans that belief most toward seats whose
//! card makes its own symbol win. That answer is a function of the public record and the deal,
//! so in each deal this model gives it probability `1 - slack` (shared equally among tied
//! answers, as the answerer draws among them), and the stated model the remaining `slack`, so
//! that an answer no steering answerer would give does not rule a deal out.
//!
//! The same [`SteerView`] decides the greedy answerer's answer and this model's probabilities,
//! so the two cannot drift apart (a test checks that the model predicts every answer of the
//! default greedy table).

use super::{
    answer_probs, joint_answer_location, location, model_answer, model_posterior, weigh_worlds,
    TofuKingdomWeights, World, LOCATIONS,
};
use rand::Rng;
use shifu_engine::tofu_kingdom::{Action, Answer, Exchange, Phase, Question, Table, TofuKingdom};
use std::cell::RefCell;

/// One question as a steering answerer weighs it: the Prince's belief about Princess Tofu's
/// location after each answer of the question's domain, under the stated answer model.
pub(super) struct SteerView {
    /// The question's answers, in [`TofuKingdom::answer_domain`] order.
    pub(super) domain: Vec<Answer>,
    /// Per answer of `domain`: the location marginal after it, normalised.
    after: Vec<[f64; LOCATIONS]>,
    players: u8,
    prince: u8,
    to: u8,
    question: Question,
}

impl SteerView {
    /// The view of the question `question` to `to` at the table `t`, where the steering
    /// answerer takes the Prince's belief to be the weighted deals `worlds`.
    pub(super) fn new(
        g: &TofuKingdom,
        t: &Table,
        worlds: &[(World, f64)],
        to: u8,
        question: Question,
        w: &TofuKingdomWeights,
    ) -> SteerView {
        let mut domain = Vec::new();
        g.answer_domain(t, question, &mut domain);
        let joint = joint_answer_location(g, worlds, to, question, &domain, w);
        SteerView::from_joint(t, to, question, domain, joint)
    }

    /// The view from the joint probability of each answer (rows) and each location of Princess
    /// Tofu (columns) under the Prince's belief.
    fn from_joint(
        t: &Table,
        to: u8,
        question: Question,
        domain: Vec<Answer>,
        joint: Vec<[f64; LOCATIONS]>,
    ) -> SteerView {
        let after = joint
            .into_iter()
            .map(|row| {
                let total: f64 = row.iter().sum::<f64>().max(1e-300);
                row.map(|x| x / total)
            })
            .collect();
        SteerView {
            domain,
            after,
            players: t.players,
            prince: t.prince,
            to,
            question,
        }
    }

    /// The steering score of the `i`-th answer in the deal `cards`: the Prince's belief on the
    /// seats whose card makes the answerer's own (lower-right) symbol win, plus 1 when the seat
    /// he believes likeliest is one of them.
    pub(super) fn score(&self, g: &TofuKingdom, cards: &World, i: usize) -> f64 {
        let mine = g.data.card(cards[self.to as usize]).lower_right;
        let m = &self.after[i];
        let mut steer = 0.0;
        let mut top = (f64::NEG_INFINITY, 0u8);
        for s in (0..self.players).filter(|&s| s != self.prince) {
            let wins = g.data.card(cards[s as usize]).upper_left == Some(mine);
            if wins {
                steer += m[s as usize];
            }
            if m[s as usize] > top.0 {
                top = (m[s as usize], s);
            }
        }
        let leading_wins = g.data.card(cards[top.1 as usize]).upper_left == Some(mine);
        steer + if leading_wins { 1.0 } else { 0.0 }
    }

    /// The steering answerer's probability of each answer in the deal `cards`, written to
    /// `out`: equal among the allowed answers of the best score (within 1e-9, as it draws
    /// among them), zero elsewhere.
    pub(super) fn probs(&self, g: &TofuKingdom, cards: &World, out: &mut [f64]) {
        let mut top = f64::NEG_INFINITY;
        for (i, &a) in self.domain.iter().enumerate() {
            out[i] = if g.answer_allowed(cards, self.to, self.question, a) {
                self.score(g, cards, i)
            } else {
                f64::NEG_INFINITY
            };
            top = top.max(out[i]);
        }
        let best = |x: f64| x > f64::NEG_INFINITY && x >= top - 1e-9;
        let ties = out[..self.domain.len()]
            .iter()
            .filter(|&&x| best(x))
            .count();
        for x in out[..self.domain.len()].iter_mut() {
            *x = if best(*x) { 1.0 / ties as f64 } else { 0.0 };
        }
    }

    /// The Prince's probability of each answer in the deal `cards` under `answerers =
    /// "steer"`: the steering answer's `1 - slack` and the stated model's `slack`.
    pub(super) fn model_probs(
        &self,
        g: &TofuKingdom,
        cards: &World,
        w: &TofuKingdomWeights,
        out: &mut [f64],
    ) {
        let mut stated = [0.0; 16];
        answer_probs(
            g,
            cards,
            self.to,
            self.question,
            &self.domain,
            w,
            &mut stated,
        );
        self.probs(g, cards, out);
        for (x, s) in out[..self.domain.len()].iter_mut().zip(&stated) {
            *x = (1.0 - w.slack) * *x + w.slack * s;
        }
    }

    /// The Prince's probability of `answer` in the deal `cards` (see [`Self::model_probs`]).
    pub(super) fn model_probability(
        &self,
        g: &TofuKingdom,
        cards: &World,
        answer: Answer,
        w: &TofuKingdomWeights,
    ) -> f64 {
        let Some(i) = self.domain.iter().position(|&a| a == answer) else {
            return 0.0;
        };
        let mut probs = [0.0; 16];
        self.model_probs(g, cards, w, &mut probs);
        probs[i]
    }
}

/// The table as it stood when the `k`-th exchange of this round's log was asked.
pub(super) fn asked_at(t: &Table, k: usize) -> Table {
    let e = t.log()[k];
    let mut then = *t;
    then.log_len = k as u8;
    then.guess = None;
    then.phase = Phase::Answer {
        to: e.to,
        question: e.question,
    };
    then
}

/// The view each exchange of this round's log was answered in: the steering answerer's
/// reading of the Prince's exact belief (the stated model's posterior) at that moment.
///
/// One pass over the round's deals: the posterior before the `k`-th answer is every deal
/// weighted by the stated model's probability of the answers before it, and the same
/// probabilities give the view's joint.
fn log_views(g: &TofuKingdom, t: &Table, w: &TofuKingdomWeights) -> Vec<SteerView> {
    let log = t.log();
    if log.is_empty() {
        return Vec::new();
    }
    let mut start = *t;
    start.log_len = 0;
    start.guess = None;
    // Each deal's likelihood of the answers so far, in enumeration order: the same numbers, in
    // the same order, as the answerer's posterior, so that its ties break the same way.
    let mut deals: Vec<(World, f64)> = Vec::new();
    g.for_each_world(&start, |d| deals.push((*d, 1.0)));
    let mut views = Vec::with_capacity(log.len());
    let mut probs = [0.0; 16];
    for (k, e) in log.iter().enumerate() {
        let then = asked_at(t, k);
        let mut domain = Vec::new();
        g.answer_domain(&then, e.question, &mut domain);
        let i = domain.iter().position(|&a| a == e.answer);
        let total: f64 = deals.iter().map(|x| x.1).sum();
        let mut joint = vec![[0.0f64; LOCATIONS]; domain.len()];
        for (d, p) in deals.iter_mut() {
            answer_probs(g, d, e.to, e.question, &domain, w, &mut probs);
            let loc = location(g, d);
            let q = *p / total;
            for (row, l) in joint.iter_mut().zip(&probs) {
                row[loc] += q * l;
            }
            *p *= i.map_or(0.0, |i| probs[i]);
        }
        deals.retain(|x| x.1 > 0.0);
        views.push(SteerView::from_joint(
            &then, e.to, e.question, domain, joint,
        ));
    }
    views
}

/// The probability of the answers `heard` in the deal `cards`, each under its view.
pub(super) fn likelihood(
    g: &TofuKingdom,
    cards: &World,
    heard: &[Exchange],
    views: &[SteerView],
    w: &TofuKingdomWeights,
) -> f64 {
    let mut p = 1.0;
    for (e, view) in heard.iter().zip(views) {
        p *= view.model_probability(g, cards, e.answer, w);
        if p == 0.0 {
            break;
        }
    }
    p
}

/// The Prince's exact posterior over the consistent deals when his answerers steer.
/// Falls back to the stated model's posterior when no deal explains the answers (only with
/// `slack = 0`).
pub(super) fn posterior(g: &TofuKingdom, t: &Table, w: &TofuKingdomWeights) -> Vec<(World, f64)> {
    let views = log_views(g, t, w);
    let worlds = weigh_worlds(g, t, |cards| likelihood(g, cards, t.log(), &views, w));
    if worlds.is_empty() {
        return model_posterior(g, t, w);
    }
    worlds
}

/// Weighted deals with repeats merged: each distinct deal once, with the sum of its weights
/// (a resampled posterior that is nearly certain holds few distinct deals).
pub(super) fn merged(deals: impl IntoIterator<Item = (World, f64)>) -> Vec<(World, f64)> {
    let mut out: Vec<(World, f64)> = Vec::new();
    let mut seen: std::collections::HashMap<World, usize> = std::collections::HashMap::new();
    for (d, p) in deals {
        match seen.get(&d) {
            Some(&i) => out[i].1 += p,
            None => {
                seen.insert(d, out.len());
                out.push((d, p));
            }
        }
    }
    out
}

/// What MCTS rollouts need under `answerers = "steer"`: deals drawn from the Prince's
/// posterior at the root (which the rollout Prince re-weighs by the answers he hears), deals
/// drawn from the stated model's posterior at the root (from which rollout answerers read his
/// belief, re-weighed by the stated model), and the trail of the rollout in progress, so that
/// each exchange is weighed once per rollout.
#[derive(Debug, Clone)]
pub(super) struct RolloutSteer {
    prince: Vec<(World, f64)>,
    read: Vec<(World, f64)>,
    trail: RefCell<Trail>,
}

/// The weights of both particle sets before each exchange heard since the root and after the
/// last (`heard.len() + 1` entries each).
#[derive(Debug, Clone, Default)]
struct Trail {
    heard: Vec<Exchange>,
    prince: Vec<Vec<f64>>,
    read: Vec<Vec<f64>>,
}

impl RolloutSteer {
    /// From the Prince's weighted particles and the steering answerers' weighted particles at
    /// the root.
    pub(super) fn new(prince: Vec<(World, f64)>, read: Vec<(World, f64)>) -> RolloutSteer {
        let (prince, read) = (merged(prince), merged(read));
        let trail = Trail {
            heard: Vec::new(),
            prince: vec![prince.iter().map(|x| x.1).collect()],
            read: vec![read.iter().map(|x| x.1).collect()],
        };
        RolloutSteer {
            prince,
            read,
            trail: RefCell::new(trail),
        }
    }

    /// The steering answerers' reading of the Prince's belief under the `read` weights,
    /// normalised as the answerer's posterior is (so that its ties break the same way when
    /// the particles are every deal).
    fn reading(&self, weights: &[f64]) -> Vec<(World, f64)> {
        let total: f64 = weights.iter().filter(|&&p| p > 0.0).sum();
        self.read
            .iter()
            .zip(weights)
            .filter(|x| *x.1 > 0.0)
            .map(|(x, &p)| (x.0, p / total))
            .collect()
    }

    /// Brings the trail up to the log of `t`, whose exchanges from `from` on were heard since
    /// the root, keeping what it shares with the last rollout.
    fn follow(&self, g: &TofuKingdom, t: &Table, from: usize, w: &TofuKingdomWeights) {
        let heard = &t.log()[from.min(t.log().len())..];
        let mut tr = self.trail.borrow_mut();
        let common = tr
            .heard
            .iter()
            .zip(heard)
            .take_while(|(a, b)| a == b)
            .count();
        tr.heard.truncate(common);
        tr.prince.truncate(common + 1);
        tr.read.truncate(common + 1);
        let mut stated = [0.0; 16];
        for (k, &e) in heard.iter().enumerate().skip(common) {
            let then = asked_at(t, from + k);
            let last_read = tr.read.last().cloned().unwrap_or_default();
            let view = SteerView::new(g, &then, &self.reading(&last_read), e.to, e.question, w);
            let i = view.domain.iter().position(|&a| a == e.answer);
            let next_read = self
                .read
                .iter()
                .zip(&last_read)
                .map(|((x, _), &p)| {
                    answer_probs(g, x, e.to, e.question, &view.domain, w, &mut stated);
                    i.map_or(0.0, |i| p * stated[i])
                })
                .collect();
            let last_prince = tr.prince.last().cloned().unwrap_or_default();
            let next_prince = self
                .prince
                .iter()
                .zip(&last_prince)
                .map(|((x, _), &p)| p * view.model_probability(g, x, e.answer, w))
                .collect();
            tr.heard.push(e);
            tr.read.push(next_read);
            tr.prince.push(next_prince);
        }
    }

    /// A rollout answerer's answer in the deal `cards` at `t` (an answer phase): the steering
    /// answer (ties drawn uniformly) with probability `1 - slack`, else one drawn from the
    /// stated model.
    pub(super) fn answer<R: Rng + ?Sized>(
        &self,
        g: &TofuKingdom,
        t: &Table,
        from: usize,
        cards: &World,
        w: &TofuKingdomWeights,
        rng: &mut R,
    ) -> Option<Action> {
        let Phase::Answer { to, question } = t.phase else {
            return None;
        };
        if rng.gen::<f64>() < w.slack {
            return model_answer(g, t, cards, w, rng);
        }
        self.follow(g, t, from, w);
        let reading = self.reading(self.trail.borrow().read.last()?);
        let view = SteerView::new(g, t, &reading, to, question, w);
        let mut probs = [0.0; 16];
        view.probs(g, cards, &mut probs);
        let best: Vec<usize> = (0..view.domain.len()).filter(|&i| probs[i] > 0.0).collect();
        if best.is_empty() {
            return None;
        }
        Some(Action::Answer(
            view.domain[best[rng.gen_range(0..best.len())]],
        ))
    }

    /// The rollout Prince's belief about Princess Tofu's location at `t`: his particles
    /// weighed by the answers heard since the root (unnormalised).
    pub(super) fn marginal(
        &self,
        g: &TofuKingdom,
        t: &Table,
        from: usize,
        w: &TofuKingdomWeights,
    ) -> [f64; LOCATIONS] {
        self.follow(g, t, from, w);
        let mut m = [0.0; LOCATIONS];
        if let Some(weights) = self.trail.borrow().prince.last() {
            for (x, p) in self.prince.iter().zip(weights) {
                m[location(g, &x.0)] += p;
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluate;
    use crate::Decision;
    use shifu_engine::tofu_kingdom::Params;
    use shifu_engine::{rng_from_seed, Game};

    /// The model rebuilds the view each answer was given in from the public record alone: with
    /// no slack it must give every answer of a default greedy table a positive probability in
    /// the true deal (one wrong view would rule the truth out), and the steering answer itself
    /// must be the one the greedy answerer gives.
    #[test]
    fn the_steering_model_predicts_every_answer_of_the_greedy_table() {
        let w = TofuKingdomWeights {
            answerers: super::super::Answerers::Steer,
            slack: 0.0,
            ..TofuKingdomWeights::default()
        };
        let mut checked = 0;
        for (players, seed) in [3u8, 4, 6, 8].into_iter().flat_map(|p| [(p, 1u64), (p, 2)]) {
            let g = TofuKingdom::with_params(Params::with_players(players)).unwrap();
            let mut rng = rng_from_seed(40 * seed + u64::from(players));
            let mut s = g.new_state(&mut rng);
            let mut legal = Vec::new();
            while g.to_move(&s).is_some() && s.table.round <= 6 {
                g.legal_actions(&s, &mut legal);
                let seat = g.to_move(&s).unwrap();
                let d = Decision::new(&g, &s, seat, &legal);
                let a = g.greedy_choice(&d, &w, &mut rng).unwrap();
                g.apply(&mut s, a, &mut rng);
                if let Action::Answer(_) = a {
                    let views = log_views(&g, &s.table, &w);
                    let p = likelihood(&g, &s.cards, s.table.log(), &views, &w);
                    assert!(p > 0.0, "{players} players: {:?}", s.table.log());
                    let full = weigh_worlds(&g, &s.table, |c| {
                        likelihood(&g, c, s.table.log(), &views, &w)
                    });
                    assert!(full.iter().any(|x| x.0 == s.cards));
                    checked += 1;
                }
            }
        }
        assert!(checked > 200, "{checked}");
    }

    /// With every deal as a particle, the rollout's trail is the exact posterior: the rollout
    /// Prince's belief after more answers equals the enumerated one, and rollout answerers give
    /// the steering answer when no slack is left.
    #[test]
    fn the_rollout_trail_with_every_deal_is_the_exact_posterior() {
        let w = TofuKingdomWeights {
            answerers: super::super::Answerers::Steer,
            ..TofuKingdomWeights::default()
        };
        let exact = TofuKingdomWeights {
            slack: 0.0,
            ..w.clone()
        };
        let g = TofuKingdom::with_params(Params::with_players(5)).unwrap();
        let mut rng = rng_from_seed(11);
        let mut legal = Vec::new();
        let mut compared = 0;
        for _ in 0..20 {
            let mut s = g.new_state(&mut rng);
            let root = s.table;
            // One trail answers (no slack), the other follows the rollout Prince's belief. At
            // the start of a round every deal is as likely: weight 1 is the answerer's product.
            let every: Vec<(World, f64)> = model_posterior(&g, &root, &w)
                .into_iter()
                .map(|x| (x.0, 1.0))
                .collect();
            let answers = RolloutSteer::new(Vec::new(), every.clone());
            let trail = RolloutSteer::new(posterior(&g, &root, &w), every);
            while matches!(s.table.phase, Phase::Ask | Phase::Answer { .. }) {
                g.legal_actions(&s, &mut legal);
                let a = match s.table.phase {
                    Phase::Answer { to, question } => {
                        let t = &s.table;
                        let a = answers
                            .answer(&g, t, 0, &s.cards, &exact, &mut rng)
                            .unwrap();
                        let Action::Answer(answer) = a else {
                            panic!("{a:?}")
                        };
                        let read = model_posterior(&g, t, &w);
                        let view = SteerView::new(&g, t, &read, to, question, &w);
                        let mut probs = [0.0; 16];
                        view.probs(&g, &s.cards, &mut probs);
                        let i = view.domain.iter().position(|&x| x == answer).unwrap();
                        assert!(probs[i] > 0.0, "{answer:?} does not steer: {probs:?}");
                        a
                    }
                    _ => legal[rng.gen_range(0..legal.len())],
                };
                g.apply(&mut s, a, &mut rng);
                let mut m = trail.marginal(&g, &s.table, 0, &w);
                let total: f64 = m.iter().sum();
                m.iter_mut().for_each(|x| *x /= total);
                let enumerated = super::super::princess_marginal(&g, &posterior(&g, &s.table, &w));
                for (x, y) in m.iter().zip(&enumerated) {
                    assert!((x - y).abs() < 1e-9, "{m:?} vs {enumerated:?}");
                }
                compared += 1;
            }
        }
        assert!(compared > 50, "{compared}");
    }

    /// The one-pass views equal those built from each moment's enumerated posterior.
    #[test]
    fn log_views_match_the_posterior_at_each_answer() {
        let w = TofuKingdomWeights::default();
        let g = TofuKingdom::with_params(Params::with_players(5)).unwrap();
        let mut rng = rng_from_seed(9);
        let mut s = g.new_state(&mut rng);
        let mut legal = Vec::new();
        let mut compared = 0;
        while g.to_move(&s).is_some() && s.table.round <= 4 {
            g.legal_actions(&s, &mut legal);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, a, &mut rng);
            let t = s.table;
            for (k, view) in log_views(&g, &t, &w).iter().enumerate() {
                let then = asked_at(&t, k);
                let e = t.log()[k];
                let direct = SteerView::new(
                    &g,
                    &then,
                    &model_posterior(&g, &then, &w),
                    e.to,
                    e.question,
                    &w,
                );
                assert_eq!(view.domain, direct.domain);
                for (a, b) in view.after.iter().zip(&direct.after) {
                    for (x, y) in a.iter().zip(b) {
                        assert!((x - y).abs() < 1e-12, "{x} vs {y}");
                    }
                }
                compared += 1;
            }
        }
        assert!(compared > 50, "{compared}");
    }
}
