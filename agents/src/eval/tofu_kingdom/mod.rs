//! The Tofu Kingdom evaluation and greedy policy.
//!
//! The greedy agent decides from its seat's observation alone:
//! - as Prince Mochi it keeps the exact posterior over the card deals consistent with every
//!   answer heard ([`posterior`]), asks the question whose answer is expected to leave the least
//!   uncertainty (entropy) about where Princess Tofu is, and names the seat most likely to hold
//!   her;
//! - as an answerer it gives the allowed answer after which the Prince's posterior puts the most
//!   weight on seats whose card's upper-left (winning) symbol is the answerer's own lower-right
//!   symbol, so that his guess is steered toward a round the answerer scores;
//! - with a steal reward it robs the leader among those it may rob.
//!
//! The answer model behind the posterior (the stated prior): a T card tells the truth. A card
//! that may lie (F or "?") steers with probability `steer` (default 0.5): it gives, uniformly, one
//! of its allowed answers that point the Prince toward a seat whose card would make its own
//! symbol win (where is the Princess: such a seat; "your card" or "that player's card": the
//! Princess when that card's winning symbol is its own, any other card when not). Otherwise, and
//! whenever no allowed answer steers, an F card lies uniformly among the false answers and a "?"
//! card tells the truth with probability `maybe_truth` (default 1/2), else lies uniformly.
//! Without the steering term, liars who all point at Queen Tofu outvote the truthful cards in
//! the posterior and fool the Prince every time (measured at 8 players).
//!
//! With `answerers = "steer"` the Prince assumes instead that his answerers are these greedy
//! steering answerers, whose answer is a function of the deal and the questions so far (see
//! [`steerers`]); the answerers themselves always read his belief under the stated model.

mod steerers;

use super::Evaluate;
use crate::Decision;
use rand::Rng;
use serde::{Deserialize, Serialize};
use shifu_engine::tofu_kingdom::{
    Action, Answer, Exchange, Eye, Phase, Question, State, Table, TofuKingdom, MAX_PLAYERS,
};
use shifu_engine::Seat;

/// How the greedy agent answers the Prince's questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerStyle {
    /// The allowed answer that steers the Prince's posterior most toward a round the answerer
    /// scores (default).
    #[default]
    Steer,
    /// An answer drawn from the answer model (steer with probability `steer`, else truth or a
    /// lie as the eye mark and `maybe_truth` say): the answerers the greedy Prince assumes.
    Model,
    /// Uniform among the answers the eye mark allows.
    Uniform,
}

/// What the Prince assumes about how his answerers answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Answerers {
    /// The stated answer model of `steer` and `maybe_truth` (default; see the module's
    /// documentation).
    #[default]
    Model,
    /// Greedy steering answerers (`answer_style = "steer"`) who read his belief under the
    /// stated model, with `slack` left to the stated model: the default greedy table.
    Steer,
}

/// Weights of the Tofu Kingdom evaluation and greedy policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TofuKingdomWeights {
    /// Per own point.
    pub points: f64,
    /// How much the best opponent's points are subtracted.
    pub opponent_share: f64,
    /// The prior probability that a "?" card answers truthfully (when not steering).
    #[serde(deserialize_with = "probability")]
    pub maybe_truth: f64,
    /// The prior probability that a card which may lie gives a steering answer.
    #[serde(deserialize_with = "probability")]
    pub steer: f64,
    /// Most worlds (drawn by posterior weight) used to score the Prince's questions.
    pub question_worlds: usize,
    /// Points a seat adds to its evaluation for each round in which, as Prince, it named
    /// Princess Tofu's holder (default 0: points only). A search Prince with a large bonus plays
    /// to find her, as the greedy Prince does, rather than for his own points.
    pub find_bonus: f64,
    /// How the greedy agent answers (`steer`, `model` or `uniform`; default `steer`).
    pub answer_style: AnswerStyle,
    /// What the agent as Prince assumes about how answerers answer (`model` or `steer`;
    /// default `model`): it weighs deals, scores questions and plays rollout answerers by it.
    pub answerers: Answerers,
    /// Under `answerers = "steer"`: the share of each answer's probability left to the stated
    /// model (default 0.05), so that an answer no steering answerer would give does not rule a
    /// deal out.
    #[serde(deserialize_with = "probability")]
    pub slack: f64,
}

/// The weights that are probabilities (deserialized by [`probability`]).
const PROBABILITIES: [&str; 3] = ["maybe_truth", "steer", "slack"];

/// A weight that is a probability: refused outside [0, 1] (a model with a negative
/// probability would weigh deals silently wrong).
fn probability<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let x = f64::deserialize(d)?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(serde::de::Error::custom(format!(
            "{x} is not a probability (steer, maybe_truth and slack lie between 0 and 1)"
        )))
    }
}

impl Default for TofuKingdomWeights {
    fn default() -> Self {
        TofuKingdomWeights {
            points: 1.0,
            opponent_share: 0.5,
            maybe_truth: 0.5,
            steer: 0.5,
            question_worlds: 400,
            find_bonus: 0.0,
            answer_style: AnswerStyle::Steer,
            answerers: Answerers::Model,
            slack: 0.05,
        }
    }
}

/// Where Princess Tofu can be: seats 0..8, or 8 for the centre.
const LOCATIONS: usize = MAX_PLAYERS + 1;

/// A deal: the card each seat holds.
type World = [u8; MAX_PLAYERS];

fn location(g: &TofuKingdom, w: &[u8; MAX_PLAYERS]) -> usize {
    g.princess_holder(w).map(usize::from).unwrap_or(MAX_PLAYERS)
}

/// Whether `answer` to `question` points the Prince toward a seat whose card would make the
/// answerer's own symbol win, in the world `w`.
fn steers(
    g: &TofuKingdom,
    w: &[u8; MAX_PLAYERS],
    to: u8,
    question: Question,
    answer: Answer,
) -> bool {
    let mine = Some(g.data.card(w[to as usize]).lower_right);
    let wins = |seat: u8| g.data.card(w[seat as usize]).upper_left == mine;
    let princess = Answer::Card(g.data.princess);
    match (question, answer) {
        (Question::WherePrincess, Answer::Seat(s)) => wins(s),
        (Question::WherePrincess, _) => false,
        (Question::OwnCard, a) => wins(to) && a == princess,
        (Question::CardOf(x), a) => wins(x) == (a == princess),
    }
}

/// The answer model: the probability of each answer in `domain` (the question's answers, in
/// [`TofuKingdom::answer_domain`] order) from the holder of `w[to]`, written to `out`.
fn answer_probs(
    g: &TofuKingdom,
    w: &[u8; MAX_PLAYERS],
    to: u8,
    question: Question,
    domain: &[Answer],
    weights: &TofuKingdomWeights,
    out: &mut [f64],
) {
    let mut allowed = 0.0f64;
    let mut lies = 0.0f64;
    let mut steering = 0.0f64;
    let mut has_truth = false;
    let mut truth = [None; 16];
    let mut steer = [false; 16];
    for (i, &a) in domain.iter().enumerate() {
        let ok = g.answer_allowed(w, to, question, a);
        truth[i] = g.is_true(w, to, question, a);
        out[i] = if ok { 1.0 } else { 0.0 };
        allowed += out[i];
        if ok && truth[i] == Some(false) {
            lies += 1.0;
        }
        if ok && steers(g, w, to, question, a) {
            steer[i] = true;
            steering += 1.0;
        }
        has_truth |= truth[i] == Some(true);
    }
    let eye = g.data.card(w[to as usize]).eye;
    let may_lie = matches!(eye, Some(Eye::Lie) | Some(Eye::Either));
    let p_steer = if may_lie && steering > 0.0 {
        weights.steer
    } else {
        0.0
    };
    let either = eye == Some(Eye::Either) && has_truth;
    for i in 0..domain.len() {
        if out[i] == 0.0 {
            continue;
        }
        let base = match (either, truth[i]) {
            (true, Some(true)) => weights.maybe_truth,
            (true, Some(false)) => (1.0 - weights.maybe_truth) / lies.max(1.0),
            _ => 1.0 / allowed,
        };
        let st = if steer[i] { 1.0 / steering } else { 0.0 };
        out[i] = p_steer * st + (1.0 - p_steer) * base;
    }
}

/// The answer model's probability that the holder of `world[to]` answers `question` with
/// `answer`, in the round whose public record is `t` (which gives the answer domain): what
/// [`posterior`] multiplies for each answer heard. Zero for an answer outside the domain.
pub fn answer_probability(
    g: &TofuKingdom,
    t: &Table,
    world: &[u8; MAX_PLAYERS],
    to: u8,
    question: Question,
    answer: Answer,
    weights: &TofuKingdomWeights,
) -> f64 {
    let mut domain = Vec::new();
    g.answer_domain(t, question, &mut domain);
    let Some(i) = domain.iter().position(|&a| a == answer) else {
        return 0.0;
    };
    let mut probs = [0.0; 16];
    answer_probs(g, world, to, question, &domain, weights, &mut probs);
    probs[i]
}

/// The Prince's exact posterior over the deals consistent with the public record `t`: each
/// world (cards by seat) with its probability under the answer model the weights name
/// (`answerers`; uniform prior over deals).
pub fn posterior(
    g: &TofuKingdom,
    t: &Table,
    weights: &TofuKingdomWeights,
) -> Vec<([u8; MAX_PLAYERS], f64)> {
    match weights.answerers {
        Answerers::Model => model_posterior(g, t, weights),
        Answerers::Steer => steerers::posterior(g, t, weights),
    }
}

/// The posterior under the stated answer model (`steer`, `maybe_truth`), whatever
/// `answerers` says: the belief a steering answerer reads.
fn model_posterior(g: &TofuKingdom, t: &Table, weights: &TofuKingdomWeights) -> Vec<(World, f64)> {
    let places = answer_places(g, t, t.log());
    weigh_worlds(g, t, |w| likelihood(g, w, t.log(), &places, weights))
}

/// The deals consistent with `t` with positive `likelihood`, normalised to sum to 1 (empty
/// when none has).
fn weigh_worlds(
    g: &TofuKingdom,
    t: &Table,
    mut likelihood: impl FnMut(&World) -> f64,
) -> Vec<(World, f64)> {
    let mut worlds = Vec::new();
    g.for_each_world(t, |w| {
        let p = likelihood(w);
        if p > 0.0 {
            worlds.push((*w, p));
        }
    });
    let total: f64 = worlds.iter().map(|x| x.1).sum();
    for x in worlds.iter_mut() {
        x.1 /= total;
    }
    worlds
}

/// Each exchange's answer domain and the answer's place in it.
fn answer_places(g: &TofuKingdom, t: &Table, heard: &[Exchange]) -> Vec<(Vec<Answer>, usize)> {
    heard
        .iter()
        .map(|e| {
            let mut d = Vec::new();
            g.answer_domain(t, e.question, &mut d);
            let i = d.iter().position(|&a| a == e.answer).unwrap_or(0);
            (d, i)
        })
        .collect()
}

/// The probability under the answer model of the answers `heard` in the world `w` (`places`
/// from [`answer_places`]).
fn likelihood(
    g: &TofuKingdom,
    w: &[u8; MAX_PLAYERS],
    heard: &[Exchange],
    places: &[(Vec<Answer>, usize)],
    weights: &TofuKingdomWeights,
) -> f64 {
    let mut probs = [0.0; 16];
    let mut p = 1.0;
    for (e, (domain, i)) in heard.iter().zip(places) {
        answer_probs(g, w, e.to, e.question, domain, weights, &mut probs);
        p *= probs[*i];
        if p == 0.0 {
            break;
        }
    }
    p
}

/// The guess among `legal` naming the seat with the most weight in the location marginal `m`.
fn guess_by<R: Rng + ?Sized>(
    m: &[f64; LOCATIONS],
    legal: &[Action],
    rng: &mut R,
) -> Option<Action> {
    let scored: Vec<(Action, f64)> = legal
        .iter()
        .filter_map(|&a| match a {
            Action::Guess(s) => Some((a, m[s as usize])),
            _ => None,
        })
        .collect();
    best(&scored, rng)
}

/// The probability of Princess Tofu's location (seats, then the centre) under a posterior.
fn princess_marginal(g: &TofuKingdom, worlds: &[([u8; MAX_PLAYERS], f64)]) -> [f64; LOCATIONS] {
    let mut m = [0.0; LOCATIONS];
    for (w, p) in worlds {
        m[location(g, w)] += p;
    }
    m
}

fn entropy(m: &[f64]) -> f64 {
    let total: f64 = m.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    -m.iter()
        .filter(|&&x| x > 0.0)
        .map(|&x| (x / total) * (x / total).ln())
        .sum::<f64>()
}

/// Picks uniformly among the best-scoring actions (within 1e-9).
fn best<R: Rng + ?Sized>(scored: &[(Action, f64)], rng: &mut R) -> Option<Action> {
    let top = scored.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<Action> = scored
        .iter()
        .filter(|x| x.1 >= top - 1e-9)
        .map(|x| x.0)
        .collect();
    if ties.is_empty() {
        return None;
    }
    Some(ties[rng.gen_range(0..ties.len())])
}

/// `k` worlds drawn by systematic resampling in proportion to their probability, each of
/// weight `1/k`.
fn resample<R: Rng + ?Sized>(
    worlds: &[([u8; MAX_PLAYERS], f64)],
    k: usize,
    rng: &mut R,
) -> Vec<([u8; MAX_PLAYERS], f64)> {
    let step = 1.0 / k as f64;
    let mut u = rng.gen::<f64>() * step;
    let mut out = Vec::with_capacity(k);
    let mut cum = 0.0;
    for (w, p) in worlds {
        cum += p;
        while u < cum && out.len() < k {
            out.push((*w, step));
            u += step;
        }
    }
    out
}

/// The joint probability of each answer in `domain` (rows) and each location of Princess Tofu
/// (columns) under the weighted `worlds` and the answer model; a row, normalised, is the
/// Prince's belief after hearing that answer.
fn joint_answer_location(
    g: &TofuKingdom,
    worlds: &[([u8; MAX_PLAYERS], f64)],
    to: u8,
    question: Question,
    domain: &[Answer],
    w: &TofuKingdomWeights,
) -> Vec<[f64; LOCATIONS]> {
    joint_by(g, worlds, domain.len(), |world, out| {
        answer_probs(g, world, to, question, domain, w, out)
    })
}

/// The joint probability of each of `answers` answers (rows) and each location of Princess
/// Tofu (columns) under the weighted `worlds`, with `probs` giving each answer's probability
/// in a world.
fn joint_by(
    g: &TofuKingdom,
    worlds: &[(World, f64)],
    answers: usize,
    mut probs: impl FnMut(&World, &mut [f64]),
) -> Vec<[f64; LOCATIONS]> {
    let mut joint = vec![[0.0f64; LOCATIONS]; answers];
    let mut out = [0.0; 16];
    for (world, p) in worlds {
        let loc = location(g, world);
        probs(world, &mut out);
        for (row, l) in joint.iter_mut().zip(&out) {
            row[loc] += p * l;
        }
    }
    joint
}

/// Prince: the question with the least expected entropy of the Princess's location after
/// its answer.
fn choose_question<R: Rng + ?Sized>(
    g: &TofuKingdom,
    t: &Table,
    legal: &[Action],
    w: &TofuKingdomWeights,
    rng: &mut R,
) -> Option<Action> {
    let scored = score_questions(g, t, legal, w, rng);
    best(&scored, rng)
}

/// Prince: each legal question with minus the expected entropy of the Princess's location
/// after its answer (higher is better).
fn score_questions<R: Rng + ?Sized>(
    g: &TofuKingdom,
    t: &Table,
    legal: &[Action],
    w: &TofuKingdomWeights,
    rng: &mut R,
) -> Vec<(Action, f64)> {
    let k = w.question_worlds.max(1);
    let mut worlds = posterior(g, t, w);
    if worlds.len() > k {
        worlds = resample(&worlds, k, rng);
    }
    // Steering answerers read the Prince's belief under the stated model.
    let mut read = Vec::new();
    if w.answerers == Answerers::Steer {
        read = model_posterior(g, t, w);
        if read.len() > k {
            read = resample(&read, k, rng);
        }
        // Few distinct deals once the answers pin the deal down: weigh each once.
        read = steerers::merged(read);
        worlds = steerers::merged(worlds);
    }
    let mut answers = Vec::new();
    let mut scored = Vec::with_capacity(legal.len());
    for &a in legal {
        let Action::Ask { to, question } = a else {
            continue;
        };
        g.answer_domain(t, question, &mut answers);
        let joint = match w.answerers {
            Answerers::Model => joint_answer_location(g, &worlds, to, question, &answers, w),
            Answerers::Steer => {
                let view = steerers::SteerView::new(g, t, &read, to, question, w);
                joint_by(g, &worlds, answers.len(), |world, out| {
                    view.model_probs(g, world, w, out)
                })
            }
        };
        let expected: f64 = joint
            .iter()
            .map(|row| row.iter().sum::<f64>() * entropy(row))
            .sum();
        scored.push((a, -expected));
    }
    scored
}

/// Prince: the seat most likely to hold Princess Tofu.
fn choose_guess<R: Rng + ?Sized>(
    g: &TofuKingdom,
    t: &Table,
    legal: &[Action],
    w: &TofuKingdomWeights,
    rng: &mut R,
) -> Option<Action> {
    guess_by(&princess_marginal(g, &posterior(g, t, w)), legal, rng)
}

/// Answerer: the allowed answer after which the Prince's posterior leans most toward seats
/// whose card makes the answerer's own symbol win.
fn choose_answer<R: Rng + ?Sized>(
    g: &TofuKingdom,
    t: &Table,
    cards: &[u8; MAX_PLAYERS],
    legal: &[Action],
    w: &TofuKingdomWeights,
    rng: &mut R,
) -> Option<Action> {
    // Only the asked seat, `to`, answers.
    let Phase::Answer { to, question } = t.phase else {
        return None;
    };
    // The Prince's belief after each possible answer: his current posterior (under the stated
    // model) times the model's probability of that answer in each world.
    let view = steerers::SteerView::new(g, t, &model_posterior(g, t, w), to, question, w);
    let mut scored = Vec::with_capacity(legal.len());
    for &a in legal {
        let Action::Answer(answer) = a else { continue };
        let Some(i) = view.domain.iter().position(|&d| d == answer) else {
            continue;
        };
        scored.push((a, view.score(g, cards, i)));
    }
    best(&scored, rng)
}

/// Worlds drawn from the Prince's posterior at the root for the rollout Prince's guesses.
const ROLLOUT_PARTICLES: usize = 256;

/// Under `answerers = "steer"`, in place of [`ROLLOUT_PARTICLES`] for the rollout Prince and for
/// the rollout answerers' reading of his belief (worlds drawn from the stated model's posterior
/// at the root): each answer in a rollout is weighed in every particle, so fewer keep a
/// 500-iteration search at 8 players to about a second.
const STEER_PARTICLES: usize = 64;

/// Tofu Kingdom's belief at one decision (MCTS `belief=model`), under the answer model of the
/// weights (`steer`, `maybe_truth`; see the module's documentation).
///
/// - When the deciding seat is Prince Mochi: his exact posterior over the deals consistent with
///   everything he has heard (every consistent deal enumerated and weighted by how likely the
///   answers heard are in it), from which each determinization is drawn.
/// - For every seat: 256 deals drawn from that posterior (the Prince's view of
///   the public record), with which the rollout Prince weighs the answers he hears in a rollout
///   and names the seat most likely to hold Princess Tofu. Rollout answerers answer by the same
///   model.
/// - Under `answerers = "steer"`: 64 such deals instead, and as many drawn from
///   the stated model's posterior, from which rollout answerers read the Prince's belief and
///   steer it.
#[derive(Debug, Clone)]
pub struct KingdomBelief {
    round: u16,
    log_len: u8,
    /// A determinization of the root, whose deal each sample replaces.
    base: State,
    /// The Prince's consistent deals (empty when the deciding seat is not the Prince) and their
    /// cumulative posterior probabilities.
    worlds: Vec<[u8; MAX_PLAYERS]>,
    cumulative: Vec<f64>,
    particles: Vec<[u8; MAX_PLAYERS]>,
    /// Under `answerers = "steer"`: the rollout's steering answerers and the rollout Prince
    /// who knows they steer.
    steer: Option<steerers::RolloutSteer>,
}

impl KingdomBelief {
    /// The deals determinizations are drawn from, each with its probability (empty when the
    /// deciding seat is not the Prince: then only the centre's order is hidden from it).
    pub fn worlds(&self) -> Vec<([u8; MAX_PLAYERS], f64)> {
        let total = self.cumulative.last().copied().unwrap_or(1.0);
        let mut before = 0.0;
        self.worlds
            .iter()
            .zip(&self.cumulative)
            .map(|(w, &c)| {
                let p = (c - before) / total;
                before = c;
                (*w, p)
            })
            .collect()
    }
}

/// Samples an answer from the answer model in the world `cards` (an answerer sees every dealt
/// card).
fn model_answer<R: Rng + ?Sized>(
    g: &TofuKingdom,
    t: &Table,
    cards: &[u8; MAX_PLAYERS],
    w: &TofuKingdomWeights,
    rng: &mut R,
) -> Option<Action> {
    let Phase::Answer { to, question } = t.phase else {
        return None;
    };
    let mut domain = Vec::new();
    g.answer_domain(t, question, &mut domain);
    let mut probs = [0.0; 16];
    answer_probs(g, cards, to, question, &domain, w, &mut probs);
    let total: f64 = probs[..domain.len()].iter().sum();
    let mut u = rng.gen::<f64>() * total;
    for (i, &p) in probs[..domain.len()].iter().enumerate() {
        if p > 0.0 && u < p {
            return Some(Action::Answer(domain[i]));
        }
        u -= p;
    }
    // Rounding: the last allowed answer.
    (0..domain.len())
        .rev()
        .find(|&i| probs[i] > 0.0)
        .map(|i| Action::Answer(domain[i]))
}

/// The rollout Prince's guess: the belief's particles weighted by the answers heard since the
/// root, the seat with the most weight on Princess Tofu. `None` when no particle fits.
fn particle_guess<R: Rng + ?Sized>(
    g: &TofuKingdom,
    t: &Table,
    b: &KingdomBelief,
    legal: &[Action],
    w: &TofuKingdomWeights,
    rng: &mut R,
) -> Option<Action> {
    let heard = &t.log()[(b.log_len as usize).min(t.log().len())..];
    let places = answer_places(g, t, heard);
    let mut m = [0.0; LOCATIONS];
    for p in &b.particles {
        m[location(g, p)] += likelihood(g, p, heard, &places, w);
    }
    if m.iter().all(|&x| x == 0.0) {
        return None;
    }
    guess_by(&m, legal, rng)
}

impl Evaluate for TofuKingdom {
    type Weights = TofuKingdomWeights;
    type Belief = KingdomBelief;

    fn weight_domain(name: &str) -> Option<(f64, f64)> {
        PROBABILITIES.contains(&name).then_some((0.0, 1.0))
    }

    fn belief<R: Rng + ?Sized>(
        &self,
        d: &Decision<'_, Self>,
        w: &TofuKingdomWeights,
        rng: &mut R,
    ) -> Option<KingdomBelief> {
        let obs = d.observation();
        let t = &obs.table;
        if t.is_over() {
            return None;
        }
        let post = posterior(self, t, w);
        if post.is_empty() {
            return None;
        }
        let particles: Vec<World> = resample(&post, ROLLOUT_PARTICLES, rng)
            .into_iter()
            .map(|x| x.0)
            .collect();
        let steer = (w.answerers == Answerers::Steer).then(|| {
            let prince = resample(&post, STEER_PARTICLES, rng);
            let read = resample(&model_posterior(self, t, w), STEER_PARTICLES, rng);
            steerers::RolloutSteer::new(prince, read)
        });
        let (mut worlds, mut cumulative) = (Vec::new(), Vec::new());
        if d.seat() == t.prince {
            let mut c = 0.0;
            for (world, p) in &post {
                c += p;
                worlds.push(*world);
                cumulative.push(c);
            }
        }
        Some(KingdomBelief {
            round: t.round,
            log_len: t.log_len,
            base: d.determinize(rng),
            worlds,
            cumulative,
            particles,
            steer,
        })
    }

    fn sample_belief<R: Rng + ?Sized>(
        &self,
        d: &Decision<'_, Self>,
        b: &KingdomBelief,
        rng: &mut R,
    ) -> State {
        let Some(&total) = b.cumulative.last() else {
            return d.determinize(rng);
        };
        let u = rng.gen::<f64>() * total;
        let i = b
            .cumulative
            .partition_point(|&c| c <= u)
            .min(b.worlds.len() - 1);
        self.with_world(&b.base, &b.worlds[i], rng)
    }

    fn rollout_choice<R: Rng + ?Sized>(
        &self,
        d: &Decision<'_, Self>,
        belief: Option<&KingdomBelief>,
        w: &TofuKingdomWeights,
        rng: &mut R,
    ) -> Option<Action> {
        let Some(b) = belief else {
            return self.greedy_choice(d, w, rng);
        };
        let obs = d.observation();
        let t = &obs.table;
        let random = |rng: &mut R| Some(d.legal()[rng.gen_range(0..d.legal().len())]);
        match t.phase {
            // Answerers see every dealt card: they answer by the model in this world.
            Phase::Answer { .. } => match &b.steer {
                Some(st) if t.round == b.round => st
                    .answer(self, t, b.log_len.into(), &obs.cards, w, rng)
                    .or_else(|| model_answer(self, t, &obs.cards, w, rng)),
                _ => model_answer(self, t, &obs.cards, w, rng),
            },
            Phase::Ask => random(rng),
            Phase::Guess if t.round == b.round => match &b.steer {
                Some(st) => guess_by(&st.marginal(self, t, b.log_len.into(), w), d.legal(), rng),
                None => particle_guess(self, t, b, d.legal(), w, rng),
            }
            .or_else(|| random(rng)),
            Phase::Guess => random(rng),
            Phase::Steal { .. } | Phase::Over => self.greedy_choice(d, w, rng),
        }
    }

    fn evaluate(&self, s: &State, seat: Seat, w: &TofuKingdomWeights) -> f64 {
        let t = &s.table;
        let me =
            f64::from(t.points[seat as usize]) + w.find_bonus * f64::from(t.finds[seat as usize]);
        let best_other = (0..t.players)
            .filter(|&q| q != seat)
            .map(|q| f64::from(t.points[q as usize]))
            .fold(0.0, f64::max);
        w.points * (me - w.opponent_share * best_other) / f64::from(self.target())
    }

    fn greedy_ranking<R: Rng + ?Sized>(
        &self,
        d: &Decision<'_, Self>,
        w: &TofuKingdomWeights,
        rng: &mut R,
        out: &mut Vec<Action>,
    ) -> bool {
        let t = &d.observation().table;
        if t.phase != Phase::Ask {
            return false;
        }
        let mut scored = score_questions(self, t, d.legal(), w, rng);
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        out.clear();
        out.extend(scored.iter().map(|x| x.0));
        true
    }

    fn greedy_choice<R: Rng + ?Sized>(
        &self,
        d: &Decision<'_, Self>,
        w: &TofuKingdomWeights,
        rng: &mut R,
    ) -> Option<Action> {
        let obs = d.observation();
        let t = &obs.table;
        match t.phase {
            Phase::Ask => choose_question(self, t, d.legal(), w, rng),
            Phase::Guess => choose_guess(self, t, d.legal(), w, rng),
            Phase::Answer { .. } => match w.answer_style {
                AnswerStyle::Steer => choose_answer(self, t, &obs.cards, d.legal(), w, rng),
                AnswerStyle::Model => model_answer(self, t, &obs.cards, w, rng),
                AnswerStyle::Uniform => Some(d.legal()[rng.gen_range(0..d.legal().len())]),
            },
            Phase::Steal { .. } => {
                let scored: Vec<(Action, f64)> = d
                    .legal()
                    .iter()
                    .filter_map(|&a| match a {
                        Action::Steal(v) => Some((a, f64::from(t.points[v as usize]))),
                        _ => None,
                    })
                    .collect();
                best(&scored, rng)
            }
            Phase::Over => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shifu_engine::tofu_kingdom::Params;
    use shifu_engine::{rng_from_seed, Game};

    #[test]
    fn posterior_is_a_distribution_over_consistent_worlds_containing_the_truth() {
        let g = TofuKingdom::with_params(Params::with_players(4)).unwrap();
        let mut rng = rng_from_seed(3);
        let mut s = g.new_state(&mut rng);
        let mut legal = Vec::new();
        while s.table.phase != Phase::Guess {
            g.legal_actions(&s, &mut legal);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, a, &mut rng);
        }
        let post = posterior(&g, &s.table, &TofuKingdomWeights::default());
        let total: f64 = post.iter().map(|x| x.1).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(post.iter().any(|(w, _)| *w == s.cards));
        assert!(post.iter().all(|(w, _)| g.consistent(&s.table, w)));
    }

    /// The answer model is a distribution over the answers the eye mark allows, whatever the
    /// weights: what the answer fit (`examples/tk_answer_fit.rs`) takes logarithms of.
    #[test]
    fn answer_probability_is_a_distribution_over_the_allowed_answers() {
        let mut checked = 0;
        for players in [3u8, 4, 6, 8] {
            let g = TofuKingdom::with_params(Params::with_players(players)).unwrap();
            let mut rng = rng_from_seed(u64::from(players));
            let mut s = g.new_state(&mut rng);
            let mut legal = Vec::new();
            let mut domain = Vec::new();
            let fitted = TofuKingdomWeights {
                steer: 0.8,
                maybe_truth: 0.0,
                ..TofuKingdomWeights::default()
            };
            while g.to_move(&s).is_some() && s.table.round < 8 {
                if let Phase::Answer { to, question } = s.table.phase {
                    g.answer_domain(&s.table, question, &mut domain);
                    for w in [&TofuKingdomWeights::default(), &fitted] {
                        let mut total = 0.0;
                        for &a in &domain {
                            let p = answer_probability(&g, &s.table, &s.cards, to, question, a, w);
                            let allowed = g.answer_allowed(&s.cards, to, question, a);
                            assert!(allowed || p == 0.0, "{a:?} not allowed, yet {p}");
                            assert!((0.0..=1.0).contains(&p));
                            total += p;
                        }
                        assert!((total - 1.0).abs() < 1e-9, "{question:?}: {total}");
                    }
                    checked += 1;
                }
                g.legal_actions(&s, &mut legal);
                let a = legal[rng.gen_range(0..legal.len())];
                g.apply(&mut s, a, &mut rng);
            }
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn a_truthful_answer_moves_the_posterior_onto_the_princess() {
        // Princess with seat 1, who is asked where she is: T cards must tell the truth, so the
        // posterior's mass on seat 1 rises from its prior.
        let g = TofuKingdom::with_params(Params::with_players(4)).unwrap();
        let mut rng = rng_from_seed(1);
        let mut s = g.new_state(&mut rng);
        let princess = g.data.index_of("princess_tofu").unwrap();
        let queen = g.data.index_of("queen_tofu").unwrap();
        let maid = g.data.index_of("tofu_maid").unwrap();
        s.cards[1] = princess;
        s.cards[2] = queen;
        s.cards[3] = maid;
        let prior =
            princess_marginal(&g, &posterior(&g, &s.table, &TofuKingdomWeights::default()))[1];
        g.apply(
            &mut s,
            Action::Ask {
                to: 1,
                question: Question::WherePrincess,
            },
            &mut rng,
        );
        g.apply(&mut s, Action::Answer(Answer::Seat(1)), &mut rng);
        let after =
            princess_marginal(&g, &posterior(&g, &s.table, &TofuKingdomWeights::default()))[1];
        assert!((prior - 1.0 / 7.0).abs() < 1e-9, "{prior}");
        assert!(after > 2.0 * prior, "{prior} -> {after}");
    }
}
