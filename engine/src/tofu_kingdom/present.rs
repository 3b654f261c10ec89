//! How the `shifu` command presents Tofu Kingdom: finds and Prince rounds per seat, the
//! summary's find rates, winning symbols and faction points, a printed position.

use super::*;
use crate::error::EngineError;
use crate::present::{Interval, Present, MAX_EVENTS};

/// Where the per-card points, per-card rounds and question tallies start in [`Present::TALLIES`].
const CARD_POINTS: usize = 25;
const CARD_ROUNDS: usize = CARD_POINTS + MAX_CARDS;
const QUESTIONS: usize = CARD_ROUNDS + MAX_CARDS;

impl Present for TofuKingdom {
    const COUNTS: [&'static str; 2] = ["finds", "prince_rounds"];
    const TALLIES: &'static [&'static str] = &[
        "rounds",
        "princess_dealt",
        "finds",
        "heart_rounds",
        "crown_rounds",
        "mask_rounds",
        "heart_points",
        "crown_points",
        "mask_points",
        "finds_1",
        "finds_2",
        "finds_3",
        "finds_4",
        "finds_5",
        "finds_6",
        "finds_7",
        "finds_8",
        "dealt_1",
        "dealt_2",
        "dealt_3",
        "dealt_4",
        "dealt_5",
        "dealt_6",
        "dealt_7",
        "dealt_8",
        "card_points_0",
        "card_points_1",
        "card_points_2",
        "card_points_3",
        "card_points_4",
        "card_points_5",
        "card_points_6",
        "card_points_7",
        "card_points_8",
        "card_points_9",
        "card_points_10",
        "card_points_11",
        "card_points_12",
        "card_rounds_0",
        "card_rounds_1",
        "card_rounds_2",
        "card_rounds_3",
        "card_rounds_4",
        "card_rounds_5",
        "card_rounds_6",
        "card_rounds_7",
        "card_rounds_8",
        "card_rounds_9",
        "card_rounds_10",
        "card_rounds_11",
        "card_rounds_12",
        "questions_where",
        "questions_own_card",
        "questions_other_card",
        "robbed_below",
        "finished_games",
        "steal_decided",
        "kingmade",
    ];

    const EVENTS: &'static [&'static str] = &[];

    type Data = CardData;
    type Params = Params;

    fn from_parts(data: CardData, params: Params) -> Result<Self, EngineError> {
        Self::new(data, params)
    }

    fn data(&self) -> &CardData {
        &self.data
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn max_rounds(&self) -> u32 {
        u32::from(self.params.max_rounds)
    }

    fn events(&self, _s: &Self::State) -> [Option<u32>; MAX_EVENTS] {
        [None; MAX_EVENTS]
    }

    fn counts(&self, s: &Self::State, seat: usize) -> [u32; 2] {
        [
            u32::from(s.table.finds[seat]),
            u32::from(s.table.prince_rounds[seat]),
        ]
    }

    fn tally(&self, s: &Self::State, out: &mut [f64]) {
        let t = &s.table;
        let st = &s.stats;
        let sum = |x: &[u16]| x.iter().map(|&v| f64::from(v)).sum::<f64>();
        out[0] += sum(&t.prince_rounds);
        out[1] += sum(&st.princess_dealt);
        out[2] += sum(&t.finds);
        for i in 0..3 {
            out[3 + i] += f64::from(t.symbol_rounds[i]);
            out[6 + i] += f64::from(st.faction_points[i]);
        }
        for seat in 0..MAX_PLAYERS {
            out[9 + seat] += f64::from(t.finds[seat]);
            out[17 + seat] += f64::from(st.princess_dealt[seat]);
        }
        for c in 0..MAX_CARDS {
            out[CARD_POINTS + c] += f64::from(st.card_points[c]);
            out[CARD_ROUNDS + c] += f64::from(st.card_rounds[c]);
        }
        for k in 0..3 {
            out[QUESTIONS + k] += f64::from(st.questions[k]);
        }
        out[QUESTIONS + 3] += f64::from(st.robbed_below);
        if !t.capped {
            out[QUESTIONS + 4] += 1.0;
            out[QUESTIONS + 5] += f64::from(u8::from(st.steal_decided));
            out[QUESTIONS + 6] += f64::from(u8::from(st.kingmade));
        }
    }

    fn summarize(&self, x: &[f64], games: u64, wilson: &Interval) -> Vec<String> {
        let rounds = x[0];
        let ci = |k: f64, n: f64| {
            let (lo, hi) = wilson(k, n);
            format!("{:.3} [{lo:.3}, {hi:.3}]", k / n.max(1.0))
        };
        let points: f64 = x[6..9].iter().sum();
        let asked: f64 = x[QUESTIONS..QUESTIONS + 3].iter().sum();
        let finished = x[QUESTIONS + 4];
        let by_seat: Vec<String> = (0..self.num_seats())
            .map(|s| format!("{} {}", s + 1, ci(x[9 + s], x[17 + s])))
            .collect();
        vec![
            format!(
                "rounds: {rounds:.0} in {games} games, {:.2} per game",
                rounds / games as f64
            ),
            format!(
                "Prince finds Princess Tofu: {} of rounds she was dealt ({:.0} rounds); {} of all rounds",
                ci(x[2], x[1]),
                x[1],
                ci(x[2], rounds)
            ),
            format!(
                "winning symbol by round: heart {}, crown {}, mask {}",
                ci(x[3], rounds),
                ci(x[4], rounds),
                ci(x[5], rounds)
            ),
            format!(
                "points by faction of the scoring card: heart {:.3}, crown {:.3}, mask {:.3} (shares of {points:.0} points, steals included)",
                x[6] / points.max(1.0),
                x[7] / points.max(1.0),
                x[8] / points.max(1.0)
            ),
            format!(
                "find rate by the Prince's seat (of rounds she was dealt): {}",
                by_seat.join(", ")
            ),
            format!(
                "points gained per round held, by card (steals included): {}",
                self.card_lines(x).join(", ")
            ),
            format!(
                "questions asked: where is she {:.3}, your card {:.3}, another's card {:.3} (of {:.0})",
                x[QUESTIONS] / asked.max(1.0),
                x[QUESTIONS + 1] / asked.max(1.0),
                x[QUESTIONS + 2] / asked.max(1.0),
                asked
            ),
            format!(
                "a winning score reached and stolen back below it: {:.0} rounds ({:.3} per game)",
                x[QUESTIONS + 3],
                x[QUESTIONS + 3] / games as f64
            ),
            format!(
                "the last round's steals decide the winner in {} of {:.0} games ended by the rules; by a stealer who does not win (kingmaking) in {}",
                ci(x[QUESTIONS + 5], finished),
                finished,
                ci(x[QUESTIONS + 6], finished)
            ),
            format!("tallies: {}", Self::TALLIES
                .iter()
                .zip(x)
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")),
        ]
    }

    fn render(&self, s: &Self::State) -> String {
        self.render_position(s)
    }

    fn state_players(s: &Self::State) -> usize {
        s.table.players as usize
    }

    fn check_state(&self, s: &Self::State) -> Result<(), String> {
        TofuKingdom::check_state(self, s)
    }
}

impl TofuKingdom {
    /// "card points-per-round (rounds)" for each card of the data, from the summed tallies.
    fn card_lines(&self, x: &[f64]) -> Vec<String> {
        self.data
            .cards
            .iter()
            .enumerate()
            .take(MAX_CARDS)
            .filter(|&(c, _)| x[CARD_ROUNDS + c] > 0.0)
            .map(|(c, card)| {
                format!(
                    "{} {:.3} ({:.0} rounds)",
                    card.id,
                    x[CARD_POINTS + c] / x[CARD_ROUNDS + c],
                    x[CARD_ROUNDS + c]
                )
            })
            .collect()
    }

    /// The printed position.
    fn render_position(&self, s: &State) -> String {
        use std::fmt::Write as _;
        let t = &s.table;
        // Cards by name as printed on them (`queen_tofu` is Queen Tofu), not by data id.
        let id = |c: u8| card_name(&self.data.card(c).id);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "round {}, Prince Mochi: player {}, phase: {}",
            t.round,
            t.prince + 1,
            t.phase
        );
        for seat in 0..t.players as usize {
            let _ = writeln!(
                out,
                "  player {}: {:>2} points  {}",
                seat + 1,
                t.points[seat],
                id(s.cards[seat])
            );
        }
        let centre: Vec<String> = s.centre().iter().map(|&c| id(c)).collect();
        let _ = writeln!(out, "  centre: {}", centre.join(", "));
        for e in t.log() {
            let ask = Action::Ask {
                to: e.to,
                question: e.question,
            };
            let _ = writeln!(
                out,
                "  {} -> {}",
                self.action_name(s, ask),
                self.action_name(s, Action::Answer(e.answer))
            );
        }
        out
    }
}

/// A card's name from its data id: `queen_tofu` is "Queen Tofu".
fn card_name(id: &str) -> String {
    id.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The phase as the printed position names it (not Rust's debug text).
impl std::fmt::Display for super::state::Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::state::{Phase::*, Question};
        match self {
            Ask => write!(f, "Prince Mochi asks"),
            Answer { to, question } => {
                write!(f, "player {} answers ", to + 1)?;
                match question {
                    Question::WherePrincess => write!(f, "\"Where is Princess Tofu?\""),
                    Question::OwnCard => write!(f, "\"Which Character card do you hold?\""),
                    Question::CardOf(s) => {
                        write!(f, "\"Which Character card does player {} hold?\"", s + 1)
                    }
                }
            }
            Guess => write!(f, "Prince Mochi names Princess Tofu"),
            Steal { seat } => write!(f, "player {} chooses whom to steal from", seat + 1),
            Over => write!(f, "game over"),
        }
    }
}
