//! Tofu Kingdom's fixed encoding for learners (see [`crate::encode`]): the observation as a
//! vector of the same length at every player count and with every card file, and the actions as
//! indices below 118.

use super::state::{MAX_CARDS, MAX_QUESTIONS};
use super::{Action, Answer, Observation, Phase, Question, TofuKingdom, MAX_PLAYERS, NO_CARD};
use crate::encode::{Blocks, Bound, Encoder, Encoding, Sink};

/// Question kinds in an index: "where is she?", "your card?", then "the card of seat x?".
const QUESTIONS: usize = 2 + MAX_PLAYERS;
/// Answers in an index: a seat, the centre, a card.
const ANSWERS: usize = MAX_PLAYERS + 1 + MAX_CARDS;
/// Action blocks: ask (seat × question), answer, guess (seat), steal (seat).
const BLOCKS: Blocks<4> = Blocks::new([MAX_PLAYERS * QUESTIONS, ANSWERS, MAX_PLAYERS, MAX_PLAYERS]);

fn question_index(q: Question) -> usize {
    match q {
        Question::WherePrincess => 0,
        Question::OwnCard => 1,
        Question::CardOf(x) => 2 + usize::from(x).min(MAX_PLAYERS - 1),
    }
}

fn question_of(i: usize) -> Question {
    match i {
        0 => Question::WherePrincess,
        1 => Question::OwnCard,
        x => Question::CardOf((x - 2) as u8),
    }
}

fn answer_index(a: Answer) -> usize {
    match a {
        Answer::Seat(s) => usize::from(s).min(MAX_PLAYERS - 1),
        Answer::Centre => MAX_PLAYERS,
        Answer::Card(c) => MAX_PLAYERS + 1 + usize::from(c).min(MAX_CARDS - 1),
    }
}

fn answer_of(i: usize) -> Answer {
    match i {
        i if i < MAX_PLAYERS => Answer::Seat(i as u8),
        i if i == MAX_PLAYERS => Answer::Centre,
        i => Answer::Card((i - MAX_PLAYERS - 1) as u8),
    }
}

fn card(c: u8) -> Option<usize> {
    (c != NO_CARD).then_some(usize::from(c))
}

/// One question and its answer, or zeros: `present`, the asked seat, the question kind and the
/// answer (as in the action indices).
fn exchange<S: Sink>(e: &mut Encoder<S>, x: Option<(u8, Question, Option<Answer>)>) {
    e.flag("present", "1 when this entry holds a question", x.is_some());
    e.seats_from(0);
    e.one_hot(
        "to",
        "the asked seat (one-hot by seat)",
        x.map(|x| usize::from(x.0)),
        MAX_PLAYERS,
    );
    e.seats_from(2);
    e.one_hot(
        "question",
        "where is she / your card / the card of seat 0..7 (one-hot)",
        x.map(|x| question_index(x.1)),
        QUESTIONS,
    );
    e.seats_from(0);
    e.one_hot(
        "answer",
        "seat 0..7 / the centre / card 0..12 (one-hot; zeros before the answer)",
        x.and_then(|x| x.2).map(answer_index),
        ANSWERS,
    );
}

impl Encoding for TofuKingdom {
    fn encode<S: Sink>(&self, o: &Observation, e: &mut Encoder<S>) {
        let t = &o.table;
        let target = f32::from(self.target().max(1));
        e.observer_and_players(usize::from(o.seat), usize::from(t.players), MAX_PLAYERS);
        e.seats_from(0);
        e.one_hot(
            "prince",
            "the seat holding Prince Mochi this round",
            Some(usize::from(t.prince)),
            MAX_PLAYERS,
        );
        e.scalar(
            "round",
            "the round / 100",
            f32::from(t.round) / 100.0,
            Bound::count(f32::from(u16::MAX), 100.0),
        );
        let phase = match t.phase {
            Phase::Ask => 0,
            Phase::Answer { .. } => 1,
            Phase::Guess => 2,
            Phase::Steal { .. } => 3,
            Phase::Over => 4,
        };
        e.one_hot(
            "phase",
            "ask / answer / guess / steal / over",
            Some(phase),
            5,
        );
        let (to, q) = match t.phase {
            Phase::Answer { to, question } => (Some(usize::from(to)), Some(question)),
            _ => (None, None),
        };
        e.seats_from(0);
        e.one_hot(
            "answering",
            "the seat answering now (zeros outside the answer phase)",
            to,
            MAX_PLAYERS,
        );
        e.seats_from(2);
        e.one_hot(
            "answering_question",
            "the question being answered (kinds as in `question`)",
            q.map(question_index),
            QUESTIONS,
        );
        let stealer = match t.phase {
            Phase::Steal { seat } => Some(usize::from(seat)),
            _ => None,
        };
        e.seats_from(0);
        e.one_hot(
            "stealing",
            "the seat choosing a steal now",
            stealer,
            MAX_PLAYERS,
        );
        e.scalar(
            "asked",
            "questions asked this round / 8",
            f32::from(t.asked) / 8.0,
            Bound::count(255.0, 8.0),
        );
        e.scalar(
            "questions_left",
            "questions left this round / 8",
            f32::from(self.questions_per_round().saturating_sub(t.asked)) / 8.0,
            Bound::count(255.0, 8.0),
        );
        for i in 0..MAX_QUESTIONS {
            e.within(Some(("log", i)));
            let x = t.log().get(i).map(|x| (x.to, x.question, Some(x.answer)));
            exchange(e, x);
        }
        e.within(None);
        e.seats_from(0);
        e.one_hot(
            "guess",
            "the seat Prince Mochi named (zeros before)",
            t.guess.map(usize::from),
            MAX_PLAYERS,
        );
        e.one_hot(
            "revealed",
            "the named seat's card (index in the card file; zeros before)",
            t.guess.and_then(|_| card(t.revealed)),
            MAX_CARDS,
        );
        e.scalar(
            "steals_left",
            "steals left this round / 8",
            f32::from(t.steals) / 8.0,
            Bound::count(255.0, 8.0),
        );
        e.flag(
            "reached",
            "someone reached the target this round",
            t.reached,
        );
        e.values(
            "symbol_rounds",
            "rounds won by heart, crown, mask / 100",
            &t.symbol_rounds.map(f32::from),
            0.01,
            0.0..=f32::from(u16::MAX),
        );
        let mut centre = [0.0f32; MAX_CARDS];
        for &c in &o.centre {
            if let Some(c) = card(c) {
                centre[c.min(MAX_CARDS - 1)] += 1.0;
            }
        }
        e.values(
            "centre_known",
            "centre cards the observer knows, by card index",
            &centre,
            1.0,
            0.0..=MAX_PLAYERS as f32,
        );
        for s in 0..MAX_PLAYERS {
            e.seat(Some(s as u8));
            let p = |x: i16| f32::from(x) / target;
            let points = Bound::signed(f32::from(i16::MIN), f32::from(i16::MAX), target);
            e.scalar("points", "points / target", p(t.points[s]), points);
            e.scalar(
                "gained",
                "points gained this round / target",
                p(t.gained[s]),
                points,
            );
            e.scalar(
                "finds",
                "rounds in which this seat, as Prince, found her / 10",
                f32::from(t.finds[s]) / 10.0,
                Bound::count(f32::from(u16::MAX), 10.0),
            );
            e.scalar(
                "prince_rounds",
                "rounds this seat was Prince / 10",
                f32::from(t.prince_rounds[s]) / 10.0,
                Bound::count(f32::from(u16::MAX), 10.0),
            );
            e.flag(
                "scored",
                "this seat's card scored this round",
                t.scored >> s & 1 == 1,
            );
            e.one_hot(
                "card",
                "this seat's card if the observer knows it (index in the card file)",
                card(o.cards[s]).map(|c| c.min(MAX_CARDS - 1)),
                MAX_CARDS,
            );
        }
        e.seat(None);
    }

    fn action_count(&self) -> usize {
        BLOCKS.total()
    }

    fn action_index(&self, a: Action) -> usize {
        let seat = |s: u8| usize::from(s).min(MAX_PLAYERS - 1);
        match a {
            Action::Ask { to, question } => {
                BLOCKS.at(0, seat(to) * QUESTIONS + question_index(question))
            }
            Action::Answer(x) => BLOCKS.at(1, answer_index(x)),
            Action::Guess(s) => BLOCKS.at(2, seat(s)),
            Action::Steal(s) => BLOCKS.at(3, seat(s)),
        }
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        let (b, k) = BLOCKS.find(index)?;
        Some(match b {
            0 => Action::Ask {
                to: (k / QUESTIONS) as u8,
                question: question_of(k % QUESTIONS),
            },
            1 => Action::Answer(answer_of(k)),
            2 => Action::Guess(k as u8),
            _ => Action::Steal(k as u8),
        })
    }
}
