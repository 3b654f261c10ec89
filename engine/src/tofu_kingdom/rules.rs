//! Answers and their truth, the legal actions of each phase, applying an action, scoring.

use super::data::{Eye, Reward};
use super::params::CentreAnswer;
use super::state::{Answer, Exchange, Phase, Question, State, Table, MAX_PLAYERS, NO_CARD};
use super::{Action, TofuKingdom};
use rand::Rng;

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

    /// Whether `answer` to `question` is true in the world `cards`; `None` when the question
    /// has no true answer there (Princess Tofu in the centre with `centre_answer = free`).
    pub fn is_true(
        &self,
        cards: &[u8; MAX_PLAYERS],
        to: u8,
        question: Question,
        answer: Answer,
    ) -> Option<bool> {
        match question {
            Question::WherePrincess => match self.princess_holder(cards) {
                Some(h) => Some(answer == Answer::Seat(h)),
                None => match self.params.centre_answer {
                    CentreAnswer::SayCentre => Some(answer == Answer::Centre),
                    CentreAnswer::Free => None,
                },
            },
            Question::OwnCard => Some(answer == Answer::Card(cards[to as usize])),
            Question::CardOf(x) => Some(answer == Answer::Card(cards[x as usize])),
        }
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
        match self.data.card(cards[to as usize]).eye {
            Some(Eye::Truth) => truth,
            Some(Eye::Lie) => !truth,
            Some(Eye::Either) | None => true,
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
                let sym = self.data.card(t.revealed).upper_left;
                (0..self.players).all(|s| {
                    let scores = Some(self.data.card(cards[s as usize]).lower_right) == sym;
                    scores == (t.scored & (1 << s) != 0)
                })
            }
        }
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
                for to in (0..n).filter(|&x| x != t.prince) {
                    if first_round && t.asked & (1 << to) != 0 {
                        continue;
                    }
                    out.push(Action::Ask {
                        to,
                        question: Question::WherePrincess,
                    });
                    out.push(Action::Ask {
                        to,
                        question: Question::OwnCard,
                    });
                    for x in (0..n).filter(|&x| x != t.prince && x != to) {
                        out.push(Action::Ask {
                            to,
                            question: Question::CardOf(x),
                        });
                    }
                }
            }
            Phase::Answer { to, question } => self.for_each_answer(t, question, |a| {
                if self.answer_allowed(&s.cards, to, question, a) {
                    out.push(Action::Answer(a));
                }
            }),
            Phase::Guess => out.extend((0..n).filter(|&x| x != t.prince).map(Action::Guess)),
            Phase::Steal { seat } => out.extend(
                (0..n)
                    .filter(|&v| v != seat && self.stealable(t, v) > 0)
                    .map(Action::Steal),
            ),
            Phase::Over => {}
        }
    }

    pub(super) fn play<R: Rng + ?Sized>(&self, s: &mut State, a: Action, rng: &mut R) {
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
                t.phase = if t.log_len == self.players {
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
            t.finds[t.prince as usize] += 1;
        }
        let Some(sym) = self.data.card(card).upper_left else {
            return;
        };
        t.symbol_rounds[sym.index()] += 1;
        for seat in 0..self.players {
            let c = self.data.card(s.cards[seat as usize]);
            if c.lower_right != sym {
                continue;
            }
            t.scored |= 1 << seat;
            match c.reward {
                Reward::Beans(b) => {
                    t.points[seat as usize] += i16::from(b);
                    t.gained[seat as usize] += i16::from(b);
                    t.faction_points[c.faction.index()] += u16::from(b);
                }
                Reward::Steal(_) => t.steals |= 1 << seat,
            }
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
        let c = self.data.card(s.cards[seat as usize]);
        let want = match c.reward {
            Reward::Steal(k) => i16::from(k),
            Reward::Beans(_) => 0,
        };
        let k = want.min(self.stealable(&s.table, victim));
        let t = &mut s.table;
        t.points[victim as usize] -= k;
        t.points[seat as usize] += k;
        t.gained[seat as usize] += k;
        t.faction_points[c.faction.index()] += k as u16;
        t.stolen += k as u16;
        t.steals &= !(1 << seat);
    }

    /// "The game ends when any player reaches a score of 7 points or more. If no player reaches
    /// at least 7 points in a given round, a new round starts from Step 1 after the Prince Mochi
    /// card is passed to the next player in a clockwise direction."
    fn end_round<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let n = self.players as usize;
        let t = &mut s.table;
        if t.points[..n].iter().any(|&p| p >= self.target) {
            t.phase = Phase::Over;
            return;
        }
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
        t.gained = [0; MAX_PLAYERS];
        t.phase = Phase::Ask;
        self.deal(s, rng);
    }
}
