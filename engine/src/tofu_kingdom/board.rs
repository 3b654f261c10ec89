//! Tofu Kingdom as a board (`shifu replay`): each seat's Character card (face down where the
//! seat looking cannot see it), points and the Prince's hat; the centre; this round's questions
//! and answers.

use super::present::card_name;
use super::*;
use crate::board::Board;

impl TofuKingdom {
    /// The board `seat` sees (everything when `None`), drawn from its observation.
    pub(super) fn board_of(&self, s: &State, seat: Option<Seat>) -> Board {
        let o = match seat {
            Some(k) => self.observe(s, k),
            None => {
                let mut centre = [NO_CARD; MAX_PLAYERS];
                let c = s.centre();
                centre[..c.len()].copy_from_slice(c);
                Observation {
                    seat: u8::MAX,
                    table: s.table,
                    cards: s.cards,
                    centre,
                }
            }
        };
        self.draw(s, &o)
    }

    /// The board of observation `o` (`s` only names the public questions and answers).
    fn draw(&self, s: &State, o: &Observation) -> Board {
        let t = &o.table;
        let mut b = Board::new(format!(
            "round {}, Prince Mochi: player {}, {}",
            t.round,
            t.prince + 1,
            t.phase
        ));
        for seat in 0..usize::from(t.players) {
            let r = b.row(format!("player {}", seat + 1), Some(seat));
            r.token("points", t.points[seat]);
            if seat == usize::from(t.prince) {
                r.hat("Prince Mochi", 0);
            }
            match o.cards[seat] {
                NO_CARD => {
                    r.face_down(1, "Character card");
                }
                c => {
                    let card = self.data.card(c);
                    let reward = match card.reward {
                        Reward::Beans(n) => format!("{n} beans"),
                        Reward::Steal(n) => format!("steals {n}"),
                    };
                    r.card(
                        card_name(&card.id),
                        "",
                        format!("{:?}, {reward}", card.faction),
                    );
                }
            }
        }
        let centre = b.row("centre", None);
        let known: Vec<u8> = o.centre.iter().copied().filter(|&c| c != NO_CARD).collect();
        if known.is_empty() {
            centre.face_down(u32::from(self.centre_len()), "centre cards");
        }
        for c in known {
            centre.card(card_name(&self.data.card(c).id), "", "centre");
        }
        let answers = b.row("questions and answers", None);
        for e in t.log() {
            let ask = Action::Ask {
                to: e.to,
                question: e.question,
            };
            answers.text(format!(
                "{} -> {}",
                self.action_name(s, ask),
                self.action_name(s, Action::Answer(e.answer))
            ));
        }
        if let Some(g) = t.guess {
            answers.text(format!("Prince Mochi names player {}", g + 1));
        }
        b
    }
}
