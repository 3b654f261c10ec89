//! How the `shifu` command presents Tofu Kingdom: finds and Prince rounds per seat, the
//! summary's find rates, winning symbols and faction points, a printed position.

use super::*;
use crate::error::EngineError;
use crate::present::{Interval, Present, MAX_EVENTS};

crate::stats! {
    /// Tofu Kingdom's statistics over finished games.
    pub struct KingdomStats {
        /// Rounds played (Prince rounds summed over seats).
        pub rounds: f64,
        /// Rounds in which Princess Tofu was dealt.
        pub princess_dealt: f64,
        /// Rounds in which the Prince found her.
        pub finds: f64,
        /// Rounds won by each symbol: heart, crown, mask.
        pub symbol_rounds: [f64; 3],
        /// Points scored by each faction of the scoring card: heart, crown, mask.
        pub faction_points: [f64; 3],
        /// Finds by the Prince's seat.
        pub seat_finds: [f64; MAX_PLAYERS],
        /// Rounds Princess Tofu was dealt, by the Prince's seat.
        pub seat_dealt: [f64; MAX_PLAYERS],
        /// Points gained by each card while held.
        pub card_points: [f64; MAX_CARDS],
        /// Rounds each card was held.
        pub card_rounds: [f64; MAX_CARDS],
        /// Questions asked: where is she, your card, another's card.
        pub questions: [f64; 3],
        /// Winning scores stolen back below the goal.
        pub robbed_below: f64,
        /// Games ended by the rules, not the cap.
        pub finished_games: f64,
        /// Of those, games whose last round's steals decide the winner.
        pub steal_decided: f64,
        /// Of those, games decided by a stealer who does not win.
        pub kingmade: f64,
    }
}

impl KingdomStats {
    /// Every statistic with its name, in a fixed order (for the summary's `tallies:` line).
    fn named(&self) -> Vec<(String, f64)> {
        let mut v: Vec<(String, f64)> = vec![
            ("rounds".into(), self.rounds),
            ("princess_dealt".into(), self.princess_dealt),
            ("finds".into(), self.finds),
        ];
        let symbols = ["heart", "crown", "mask"];
        v.extend(
            symbols
                .iter()
                .zip(self.symbol_rounds)
                .map(|(s, x)| (format!("{s}_rounds"), x)),
        );
        v.extend(
            symbols
                .iter()
                .zip(self.faction_points)
                .map(|(s, x)| (format!("{s}_points"), x)),
        );
        let each = |name: &str, xs: &[f64], from: usize| {
            xs.iter()
                .enumerate()
                .map(|(i, &x)| (format!("{name}_{}", i + from), x))
                .collect::<Vec<_>>()
        };
        v.extend(each("finds", &self.seat_finds, 1));
        v.extend(each("dealt", &self.seat_dealt, 1));
        v.extend(each("card_points", &self.card_points, 0));
        v.extend(each("card_rounds", &self.card_rounds, 0));
        let questions = ["where", "own_card", "other_card"];
        v.extend(
            questions
                .iter()
                .zip(self.questions)
                .map(|(q, x)| (format!("questions_{q}"), x)),
        );
        v.extend([
            ("robbed_below".into(), self.robbed_below),
            ("finished_games".into(), self.finished_games),
            ("steal_decided".into(), self.steal_decided),
            ("kingmade".into(), self.kingmade),
        ]);
        v
    }
}

impl Present for TofuKingdom {
    const COUNTS: [&'static str; 2] = ["finds", "prince_rounds"];

    type Data = CardData;
    type Params = Params;
    type Stats = KingdomStats;

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

    fn tally(&self, s: &Self::State, out: &mut KingdomStats) {
        let t = &s.table;
        let st = &s.stats;
        let sum = |x: &[u16]| x.iter().map(|&v| f64::from(v)).sum::<f64>();
        out.rounds += sum(&t.prince_rounds);
        out.princess_dealt += sum(&st.princess_dealt);
        out.finds += sum(&t.finds);
        for i in 0..3 {
            out.symbol_rounds[i] += f64::from(t.symbol_rounds[i]);
            out.faction_points[i] += f64::from(st.faction_points[i]);
        }
        for seat in 0..MAX_PLAYERS {
            out.seat_finds[seat] += f64::from(t.finds[seat]);
            out.seat_dealt[seat] += f64::from(st.princess_dealt[seat]);
        }
        for c in 0..MAX_CARDS {
            out.card_points[c] += f64::from(st.card_points[c]);
            out.card_rounds[c] += f64::from(st.card_rounds[c]);
        }
        for k in 0..3 {
            out.questions[k] += f64::from(st.questions[k]);
        }
        out.robbed_below += f64::from(st.robbed_below);
        if !t.capped {
            out.finished_games += 1.0;
            out.steal_decided += f64::from(u8::from(st.steal_decided));
            out.kingmade += f64::from(u8::from(st.kingmade));
        }
    }

    fn summarize(&self, x: &KingdomStats, games: u64, wilson: &Interval) -> Vec<String> {
        let rounds = x.rounds;
        let ci = |k: f64, n: f64| {
            let (lo, hi) = wilson(k, n);
            format!("{:.3} [{lo:.3}, {hi:.3}]", k / n.max(1.0))
        };
        let points: f64 = x.faction_points.iter().sum();
        let asked: f64 = x.questions.iter().sum();
        let finished = x.finished_games;
        let by_seat: Vec<String> = (0..self.num_seats())
            .map(|s| format!("{} {}", s + 1, ci(x.seat_finds[s], x.seat_dealt[s])))
            .collect();
        vec![
            format!(
                "rounds: {rounds:.0} in {games} games, {:.2} per game",
                rounds / games as f64
            ),
            format!(
                "Prince finds Princess Tofu: {} of rounds she was dealt ({:.0} rounds); {} of all rounds",
                ci(x.finds, x.princess_dealt),
                x.princess_dealt,
                ci(x.finds, rounds)
            ),
            format!(
                "winning symbol by round: heart {}, crown {}, mask {}",
                ci(x.symbol_rounds[0], rounds),
                ci(x.symbol_rounds[1], rounds),
                ci(x.symbol_rounds[2], rounds)
            ),
            format!(
                "points by faction of the scoring card: heart {:.3}, crown {:.3}, mask {:.3} (shares of {points:.0} points, steals included)",
                x.faction_points[0] / points.max(1.0),
                x.faction_points[1] / points.max(1.0),
                x.faction_points[2] / points.max(1.0)
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
                x.questions[0] / asked.max(1.0),
                x.questions[1] / asked.max(1.0),
                x.questions[2] / asked.max(1.0),
                asked
            ),
            format!(
                "a winning score reached and stolen back below it: {:.0} rounds ({:.3} per game)",
                x.robbed_below,
                x.robbed_below / games as f64
            ),
            format!(
                "the last round's steals decide the winner in {} of {:.0} games ended by the rules; by a stealer who does not win (kingmaking) in {}",
                ci(x.steal_decided, finished),
                finished,
                ci(x.kingmade, finished)
            ),
            format!("tallies: {}", x
                .named()
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")),
        ]
    }

    fn render(&self, s: &Self::State) -> String {
        self.render_position(s)
    }

    fn board(&self, s: &Self::State, seat: Option<Seat>) -> crate::board::Board {
        self.board_of(s, seat)
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
    fn card_lines(&self, x: &KingdomStats) -> Vec<String> {
        self.data
            .cards
            .iter()
            .enumerate()
            .take(MAX_CARDS)
            .filter(|&(c, _)| x.card_rounds[c] > 0.0)
            .map(|(c, card)| {
                format!(
                    "{} {:.3} ({:.0} rounds)",
                    card.id,
                    x.card_points[c] / x.card_rounds[c],
                    x.card_rounds[c]
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
pub(super) fn card_name(id: &str) -> String {
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
