//! Answers and their truth, the legal actions of each phase, applying an action, scoring.

use super::data::{Eye, Reward};
use super::params::{CentreAnswer, EndCheck, Params, PrinceReward};
use super::state::{Answer, Exchange, Phase, Question, State, Table, MAX_PLAYERS, NO_CARD};
use super::{Action, TofuKingdom};
use rand::Rng;

/// Every question a Prince may ask under `p`, by Prince and then by the player asked (the
/// Prince's own block is empty), and where each block starts: for each player asked, where
/// the Princess is, their own card, then each other player's card, as the rules allow.
pub(super) fn ask_lists(
    players: u8,
    p: &Params,
) -> (Vec<Action>, [[u16; MAX_PLAYERS + 1]; MAX_PLAYERS]) {
    let mut asks = Vec::new();
    let mut start = [[0u16; MAX_PLAYERS + 1]; MAX_PLAYERS];
    for prince in 0..players {
        for to in 0..players {
            start[usize::from(prince)][usize::from(to)] = asks.len() as u16;
            if to == prince {
                continue;
            }
            if p.ask_where {
                let question = Question::WherePrincess;
                asks.push(Action::Ask { to, question });
            }
            if p.ask_own_card {
                let question = Question::OwnCard;
                asks.push(Action::Ask { to, question });
            }
            if p.ask_other_card {
                for x in (0..players).filter(|&x| x != prince && x != to) {
                    let question = Question::CardOf(x);
                    asks.push(Action::Ask { to, question });
                }
            }
        }
        start[usize::from(prince)][usize::from(players)] = asks.len() as u16;
    }
    (asks, start)
}

impl TofuKingdom {
    /// The seat holding Princess Tofu in the world `cards`, or `None` when she is in the centre.
    pub fn princess_holder(&self, cards: &[u8; MAX_PLAYERS]) -> Option<u8> {
        (0..self.players).find(|&s| cards[s as usize] == self.data.princess)
    }

    /// Every answer that may be given to `question` (before the eye mark narrows it).
    pub fn answer_domain(&self, t: &Table, question: Question, out: &mut Vec<Answer>) {
        out.clear();
        self.for_each_answer(t, question, |a| out.push(a));
    }

    /// Calls `f` with every answer to `question`, in [`TofuKingdom::answer_domain`] order: for
    /// "where is she", each player but the Prince, then "in the centre" when cards lie there
    /// (under `say-centre`); for a card question, each card in play.
    fn for_each_answer(&self, t: &Table, question: Question, mut f: impl FnMut(Answer)) {
        match question {
            Question::WherePrincess => {
                for s in (0..self.players).filter(|&s| s != t.prince) {
                    f(Answer::Seat(s));
                }
                if self.centre_len > 0 && self.params.centre_answer == CentreAnswer::SayCentre {
                    f(Answer::Centre);
                }
            }
            Question::OwnCard | Question::CardOf(_) => {
                for &c in self.deck() {
                    f(Answer::Card(c));
                }
            }
        }
    }

    /// The answers the holder of `cards[to]` may give to `question`: those
    /// [`TofuKingdom::answer_allowed`] allows, in [`TofuKingdom::for_each_answer`]'s order, with
    /// the true answer and the eye's verdicts found once instead of once per answer.
    fn legal_answers(
        &self,
        cards: &[u8; MAX_PLAYERS],
        t: &Table,
        to: u8,
        question: Question,
        out: &mut Vec<Action>,
    ) {
        // `None`: the question has no true answer, so every answer may be given.
        let true_answer = self.true_answer(cards, to, question);
        let (true_ok, false_ok) = self.eye_allows_each(cards[to as usize]);
        // A false "in the centre" is refused unless it counts as a lie.
        let false_centre_ok = false_ok && self.params.centre_is_a_lie;
        self.for_each_answer(t, question, |a| {
            let ok = match true_answer {
                None => true,
                Some(truth) if a == truth => true_ok,
                Some(_) if a == Answer::Centre => false_centre_ok,
                Some(_) => false_ok,
            };
            if ok {
                out.push(Action::Answer(a));
            }
        });
    }

    /// The true answer to `question` asked of `to` in the world `cards`; `None` when the
    /// question has none there (Princess Tofu in the centre with `centre_answer = free`).
    fn true_answer(&self, cards: &[u8; MAX_PLAYERS], to: u8, question: Question) -> Option<Answer> {
        match question {
            Question::WherePrincess => match self.princess_holder(cards) {
                Some(h) => Some(Answer::Seat(h)),
                None => match self.params.centre_answer {
                    CentreAnswer::SayCentre => Some(Answer::Centre),
                    CentreAnswer::Free => None,
                },
            },
            Question::OwnCard => Some(Answer::Card(cards[to as usize])),
            Question::CardOf(x) => Some(Answer::Card(cards[x as usize])),
        }
    }

    /// Whether `answer` to `question` is true in the world `cards`; `None` when the question
    /// has no true answer there (Princess Tofu in the centre with `centre_answer = free`).
    pub fn is_true(
        &self,
        cards: &[u8; MAX_PLAYERS],
        to: u8,
        question: Question,
        answer: Answer,
    ) -> Option<bool> {
        self.true_answer(cards, to, question)
            .map(|truth| answer == truth)
    }

    /// Whether the holder of `cards[to]` may give `answer` to `question` in the world `cards`:
    /// "An eye symbol marked F: the player must lie. ... T: must tell the truth. ... ?: either."
    pub fn answer_allowed(
        &self,
        cards: &[u8; MAX_PLAYERS],
        to: u8,
        question: Question,
        answer: Answer,
    ) -> bool {
        let Some(truth) = self.is_true(cards, to, question, answer) else {
            return true;
        };
        if answer == Answer::Centre && !truth && !self.params.centre_is_a_lie {
            return false;
        }
        self.eye_allows(cards[to as usize], truth)
    }

    /// Whether the eye mark of `card` allows an answer whose truth is `truth`: "An eye symbol
    /// marked F: the player must lie. ... T: must tell the truth. ... ?: either."
    pub fn eye_allows(&self, card: u8, truth: bool) -> bool {
        let (true_answer, false_answer) = self.eye_allows_each(card);
        if truth {
            true_answer
        } else {
            false_answer
        }
    }

    /// [`TofuKingdom::eye_allows`] for a true answer and for a false one, at once.
    pub(crate) fn eye_allows_each(&self, card: u8) -> (bool, bool) {
        match self.data.card(card).eye {
            Some(Eye::Truth) => (true, false),
            Some(Eye::Lie) => (false, true),
            Some(Eye::Either) | None => (true, true),
        }
    }

    /// Whether every answer in `t`'s log was allowed in the world `cards`, and the card turned
    /// face up and the seats that scored fit it.
    pub fn consistent(&self, t: &Table, cards: &[u8; MAX_PLAYERS]) -> bool {
        let log_ok = t
            .log()
            .iter()
            .all(|e| self.answer_allowed(cards, e.to, e.question, e.answer));
        if !log_ok {
            return false;
        }
        match t.guess {
            None => true,
            Some(g) => {
                if cards[g as usize] != t.revealed {
                    return false;
                }
                (0..self.players)
                    .all(|s| self.scores(t, s, cards[s as usize]) == (t.scored & (1 << s) != 0))
            }
        }
    }

    /// Whether `seat`, holding `card`, scores in the round whose named card `t.revealed` is face
    /// up: its lower-right symbol is the winning symbol (and, for the Prince, his card scores
    /// under `prince_reward`).
    pub fn scores(&self, t: &Table, seat: u8, card: u8) -> bool {
        if seat == t.prince && self.params.prince_reward == PrinceReward::None {
            return false;
        }
        let sym = self.data.card(t.revealed).upper_left;
        sym.is_some() && Some(self.data.card(card).lower_right) == sym
    }

    /// Points of `victim` that a steal may take now.
    fn stealable(&self, t: &Table, victim: u8) -> i16 {
        let v = victim as usize;
        if self.data.protect_round_gains {
            // "cannot steal points gained this round"
            (t.points[v] - t.gained[v]).max(0)
        } else {
            t.points[v]
        }
    }

    pub(super) fn legal(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        let t = &s.table;
        let n = self.players;
        match t.phase {
            Phase::Ask => {
                // One question to each other player, then one extra question to anyone.
                let first_round = (t.log_len as usize) < n as usize - 1;
                let Some(at) = self.ask_start.get(usize::from(t.prince)) else {
                    return;
                };
                if first_round {
                    for to in 0..usize::from(n) {
                        if t.asked & (1 << to) == 0 {
                            let block = usize::from(at[to])..usize::from(at[to + 1]);
                            out.extend_from_slice(&self.asks[block]);
                        }
                    }
                } else {
                    let all = usize::from(at[0])..usize::from(at[usize::from(n)]);
                    out.extend_from_slice(&self.asks[all]);
                }
            }
            Phase::Answer { to, question } => self.legal_answers(&s.cards, t, to, question, out),
            Phase::Guess => out.extend((0..n).filter(|&x| x != t.prince).map(Action::Guess)),
            Phase::Steal { seat } => out.extend(
                (0..n)
                    .filter(|&v| v != seat && self.stealable(t, v) > 0)
                    .map(Action::Steal),
            ),
            Phase::Over => {}
        }
    }

    pub(crate) fn play<R: Rng + ?Sized>(&self, s: &mut State, a: Action, rng: &mut R) {
        s.table.turns += 1;
        match a {
            Action::Ask { to, question } => s.table.phase = Phase::Answer { to, question },
            Action::Answer(answer) => {
                let t = &mut s.table;
                let Phase::Answer { to, question } = t.phase else {
                    return;
                };
                if (t.log_len as usize) < self.players as usize - 1 {
                    t.asked |= 1 << to;
                }
                t.log[t.log_len as usize] = Exchange {
                    to,
                    question,
                    answer,
                };
                t.log_len += 1;
                s.stats.questions[question.kind()] =
                    s.stats.questions[question.kind()].saturating_add(1);
                t.phase = if t.log_len == self.questions_per_round() {
                    Phase::Guess
                } else {
                    Phase::Ask
                };
            }
            Action::Guess(seat) => {
                self.score_round(s, seat);
                self.next_steal(s, rng);
            }
            Action::Steal(victim) => {
                let Phase::Steal { seat } = s.table.phase else {
                    return;
                };
                self.take(s, seat, victim);
                self.next_steal(s, rng);
            }
        }
    }

    /// Turns the named seat's card face up; every card whose lower-right symbol matches its
    /// upper-left symbol scores ("The player whose Character card shows the Winning Symbol wins
    /// this round and gets the reward specified on the bottom of the card").
    fn score_round(&self, s: &mut State, named: u8) {
        let t = &mut s.table;
        let card = s.cards[named as usize];
        t.guess = Some(named);
        t.revealed = card;
        if card == self.data.princess {
            t.finds[t.prince as usize] = t.finds[t.prince as usize].saturating_add(1);
        }
        let Some(sym) = self.data.card(card).upper_left else {
            return;
        };
        t.symbol_rounds[sym.index()] = t.symbol_rounds[sym.index()].saturating_add(1);
        for seat in 0..self.players {
            let held = s.cards[seat as usize];
            let c = self.data.card(held);
            if c.lower_right != sym
                || (seat == t.prince && self.params.prince_reward == PrinceReward::None)
            {
                continue;
            }
            t.scored |= 1 << seat;
            match c.reward {
                Reward::Beans(b) => {
                    t.points[seat as usize] += i16::from(b);
                    t.gained[seat as usize] += i16::from(b);
                    t.gains = t.gains.saturating_add(u16::from(b));
                    s.stats.faction_points[c.faction.index()] =
                        s.stats.faction_points[c.faction.index()].saturating_add(u16::from(b));
                    s.stats.card_points[held as usize] =
                        s.stats.card_points[held as usize].saturating_add(u16::from(b));
                }
                Reward::Steal(_) => t.steals |= 1 << seat,
            }
        }
        self.note_reached(s);
    }

    /// Records that a seat has reached the winning score this round.
    fn note_reached(&self, s: &mut State) {
        let n = self.players as usize;
        if s.table.points[..n].iter().any(|&p| p >= self.target) {
            s.table.reached = true;
        }
    }

    /// Resolves the pending steals clockwise from the Prince's left: a steal with no possible
    /// victim is lost, one with a single victim resolves at once, otherwise the stealer chooses.
    /// When none is left, the round ends.
    fn next_steal<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let n = self.players;
        for k in 1..=n {
            let seat = (s.table.prince + k) % n;
            if s.table.steals & (1 << seat) == 0 {
                continue;
            }
            let mut victims = (0..n).filter(|&v| v != seat && self.stealable(&s.table, v) > 0);
            match (victims.next(), victims.next()) {
                (None, _) => s.table.steals &= !(1 << seat),
                (Some(v), None) => self.take(s, seat, v),
                (Some(_), Some(_)) => {
                    s.table.phase = Phase::Steal { seat };
                    return;
                }
            }
        }
        self.end_round(s, rng);
    }

    /// `seat` takes its steal reward from `victim`.
    fn take(&self, s: &mut State, seat: u8, victim: u8) {
        let held = s.cards[seat as usize];
        let c = self.data.card(held);
        let want = match c.reward {
            Reward::Steal(k) => i16::from(k),
            Reward::Beans(_) => 0,
        };
        let k = want.min(self.stealable(&s.table, victim));
        let t = &mut s.table;
        t.points[victim as usize] -= k;
        t.points[seat as usize] += k;
        t.gained[seat as usize] += k;
        t.gains = t.gains.saturating_add(k as u16);
        t.stolen = t.stolen.saturating_add(k as u16);
        t.steals &= !(1 << seat);
        let st = &mut s.stats;
        st.faction_points[c.faction.index()] =
            st.faction_points[c.faction.index()].saturating_add(k as u16);
        st.card_points[held as usize] = st.card_points[held as usize].saturating_add(k as u16);
        if (st.round_steals_len as usize) < MAX_PLAYERS {
            st.round_steals[st.round_steals_len as usize] = (seat, victim, k as u8);
            st.round_steals_len += 1;
        }
        self.note_reached(s);
    }

    /// "The game ends when any player reaches a score of 7 points or more. If no player reaches
    /// at least 7 points in a given round, a new round starts from Step 1 after the Prince Mochi
    /// card is passed to the next player in a clockwise direction."
    fn end_round<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let n = self.players as usize;
        let holds = s.table.points[..n].iter().any(|&p| p >= self.target);
        if s.table.reached && !holds {
            s.stats.robbed_below = s.stats.robbed_below.saturating_add(1);
        }
        let ends = match self.params.end_check {
            EndCheck::Reached => s.table.reached,
            EndCheck::AfterSteals => holds,
        };
        if ends {
            s.table.phase = Phase::Over;
            self.judge_steals(s);
            return;
        }
        let t = &mut s.table;
        if t.round >= self.params.max_rounds {
            t.capped = true;
            t.phase = Phase::Over;
            return;
        }
        t.round += 1;
        t.prince = (t.prince + 1) % self.players;
        t.asked = 0;
        t.log_len = 0;
        t.guess = None;
        t.revealed = NO_CARD;
        t.scored = 0;
        t.steals = 0;
        t.reached = false;
        t.gained = [0; MAX_PLAYERS];
        t.phase = Phase::Ask;
        s.stats.round_steals_len = 0;
        self.deal_round(s, rng);
    }

    /// At the end of a game: whether undoing the last round's steals would change who wins, and
    /// whether a stealer who did not win changed it (a kingmaker).
    fn judge_steals(&self, s: &mut State) {
        let n = self.players as usize;
        // Wide integers: a loaded state's record of steals is checked for seats, not amounts.
        let now_points = s.table.points.map(i32::from);
        let mut without = now_points;
        let steals = s.stats.round_steals;
        for &(thief, victim, k) in &steals[..s.stats.round_steals_len as usize] {
            without[thief as usize] -= i32::from(k);
            without[victim as usize] += i32::from(k);
        }
        let winners = |p: &[i32; MAX_PLAYERS]| {
            let top = p[..n].iter().copied().max().unwrap_or(0);
            (0..n).filter(|&i| p[i] == top).fold(0u8, |m, i| m | 1 << i)
        };
        let now = winners(&now_points);
        if now != winners(&without) {
            s.stats.steal_decided = true;
            s.stats.kingmade = steals[..s.stats.round_steals_len as usize]
                .iter()
                .any(|&(thief, _, _)| now & (1 << thief) == 0);
        }
    }
}

impl Question {
    /// The question's type: 0 "where is Princess Tofu?", 1 "your card", 2 "another's card".
    pub fn kind(self) -> usize {
        match self {
            Question::WherePrincess => 0,
            Question::OwnCard => 1,
            Question::CardOf(_) => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    /// The Ask phase's questions by their definition: one to each other player not yet asked
    /// in the first round, then any; where the Princess is, their own card, each other card.
    fn asks_by_definition(g: &TofuKingdom, t: &Table) -> Vec<Action> {
        let (n, p) = (g.players, &g.params);
        let first_round = (t.log_len as usize) < n as usize - 1;
        let mut out = Vec::new();
        for to in (0..n).filter(|&x| x != t.prince) {
            if first_round && t.asked & (1 << to) != 0 {
                continue;
            }
            let mut ask = |question| out.push(Action::Ask { to, question });
            if p.ask_where {
                ask(Question::WherePrincess);
            }
            if p.ask_own_card {
                ask(Question::OwnCard);
            }
            if p.ask_other_card {
                for x in (0..n).filter(|&x| x != t.prince && x != to) {
                    ask(Question::CardOf(x));
                }
            }
        }
        out
    }

    /// Plays six random games under each of `params`, calling `check` with the game, the state
    /// and its legal actions at every position; returns how many positions `check` compared.
    fn every_position(
        params: impl Iterator<Item = Params>,
        mut check: impl FnMut(&TofuKingdom, &State, &[Action]) -> bool,
    ) -> usize {
        let mut checked = 0;
        for params in params {
            let players = params.players;
            let g = TofuKingdom::with_params(params).unwrap();
            let mut legal = Vec::new();
            for seed in 0..6u64 {
                let mut rng = crate::rng_from_seed(seed + 10 * u64::from(players));
                let mut s = g.new_state(&mut rng);
                while g.to_move(&s).is_some() {
                    g.legal_actions(&s, &mut legal);
                    checked += usize::from(check(&g, &s, &legal));
                    let a = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
                    g.apply(&mut s, a, &mut rng);
                }
            }
        }
        checked
    }

    #[test]
    fn the_answer_phase_lists_the_answers_each_answer_allowed_check_allows() {
        let params = (0..16u8).flat_map(|options| {
            crate::tofu_kingdom::INFO
                .players()
                .map(move |players| Params {
                    players,
                    centre_answer: if options & 1 != 0 {
                        CentreAnswer::Free
                    } else {
                        CentreAnswer::SayCentre
                    },
                    centre_is_a_lie: options & 2 != 0,
                    ask_own_card: options & 4 != 0,
                    ask_other_card: options & 8 != 0,
                    ..Params::default()
                })
        });
        let checked = every_position(params, |g, s, legal| {
            let Phase::Answer { to, question } = s.table.phase else {
                return false;
            };
            let mut each = Vec::new();
            g.for_each_answer(&s.table, question, |a| {
                if g.answer_allowed(&s.cards, to, question, a) {
                    each.push(Action::Answer(a));
                }
            });
            assert_eq!(legal, each);
            true
        });
        assert!(checked > 5_000, "only {checked} Answer listings compared");
    }

    #[test]
    fn the_ask_phase_lists_the_questions_the_rules_allow() {
        let params = (1..8u8).flat_map(|kinds| {
            crate::tofu_kingdom::INFO
                .players()
                .map(move |players| Params {
                    players,
                    ask_where: kinds & 1 != 0,
                    ask_own_card: kinds & 2 != 0,
                    ask_other_card: kinds & 4 != 0,
                    ..Params::default()
                })
        });
        let checked = every_position(params, |g, s, legal| {
            if s.table.phase != Phase::Ask {
                return false;
            }
            assert_eq!(legal, asks_by_definition(g, &s.table));
            true
        });
        assert!(checked > 5_000, "only {checked} Ask listings compared");
    }
}
