//! How the `shifu` command presents Ginza Retro Café: order VP and coins per seat, the start
//! player and game length per game, each player card's and bonus card's record in the summary,
//! and a printed position.

use super::action::faces_text;
use super::apply::arrange_name;
use super::data::{CATEGORIES, MAX_BONUS, MAX_PLAYER_CARDS};
use super::*;
use crate::error::EngineError;
use crate::present::{Interval, Present, MAX_EVENTS};

/// Tally slots.
const ROUNDS: usize = 0;
const SERVED: usize = 1;
const LEFT: usize = 2;
const START_WON: usize = 3;
const OFFSET_WON: usize = 4; // 4 slots: win share by seat offset from the first start player
const CARDS: usize = 8; // per player card: chosen, chosen win share, chosen VP, declined, decliner's win share
const CARD_FIELDS: usize = 5;
const BONUS: usize = CARDS + CARD_FIELDS * MAX_PLAYER_CARDS; // per bonus card: held, met, win share held, win share met
const BONUS_FIELDS: usize = 4;
const POINTS: usize = BONUS + BONUS_FIELDS * MAX_BONUS; // order, bonus and coin VP, summed over seats
const RAISES: usize = POINTS + 3; // dice-limit raises, Arrange raises, seat-games with a limit raise
const RAISER_WON: usize = RAISES + 3; // win share of the seats that raised their dice limit

macro_rules! tallies {
    ($($i:literal)*) => {
        &[
            "rounds", "served", "left_unserved", "start_won",
            "won_start_offset_0", "won_start_offset_1", "won_start_offset_2", "won_start_offset_3",
            $(concat!("card_", $i, "_chosen"), concat!("card_", $i, "_chosen_won"),
              concat!("card_", $i, "_chosen_vp"), concat!("card_", $i, "_declined"),
              concat!("card_", $i, "_declined_won"),)*
            $(concat!("bonus_", $i, "_held"), concat!("bonus_", $i, "_met"),
              concat!("bonus_", $i, "_held_won"), concat!("bonus_", $i, "_met_won"),)*
            "order_vp", "bonus_vp", "coin_vp", "limit_raises", "level_raises", "limit_raisers",
            "limit_raisers_won",
        ]
    };
}

impl Present for GinzaRetroCafe {
    const COUNTS: [&'static str; 2] = ["order_vp", "coins"];
    const TALLIES: &'static [&'static str] = tallies!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    // The game's length is the CSV's shared `rounds` column, not an event of its own.
    const EVENTS: &'static [&'static str] = &["start_player", "left_unserved", "served"];

    type Data = GinzaData;
    type Params = Params;

    fn from_parts(data: GinzaData, params: Params) -> Result<Self, EngineError> {
        Self::new(data, params)
    }

    fn data(&self) -> &GinzaData {
        &self.data
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn max_rounds(&self) -> u32 {
        // Every customer leaves within `time_marker` rounds, so the game ends by itself.
        u32::from(self.data.rulebook.time_marker) * 3 * u32::from(self.players) + 1
    }

    fn counts(&self, s: &State, seat: usize) -> [u32; 2] {
        [self.points(s, seat).orders, u32::from(s.coins[seat])]
    }

    fn events(&self, s: &State) -> [Option<u32>; MAX_EVENTS] {
        [
            Some(u32::from(s.first_start)),
            Some(u32::from(s.left_unserved)),
            Some(u32::from(s.served)),
            None,
        ]
    }

    fn tally(&self, s: &State, out: &mut [f64]) {
        let Some(outcome) = self.outcome(s) else {
            return;
        };
        let n = usize::from(self.players);
        out[ROUNDS] += f64::from(s.round);
        out[SERVED] += f64::from(s.served);
        out[LEFT] += f64::from(s.left_unserved);
        out[START_WON] += outcome.win_share(s.first_start);
        for seat in 0..n {
            let won = outcome.win_share(seat as u8);
            let offset = (seat + n - usize::from(s.first_start)) % n;
            out[OFFSET_WON + offset] += won;
            let p = self.points(s, seat);
            let c = usize::from(s.card[seat]);
            out[POINTS] += f64::from(p.orders);
            out[POINTS + 1] += f64::from(p.bonus);
            out[POINTS + 2] += f64::from(p.coins);
            let raised = s.limit[seat].saturating_sub(self.data.players[c].dice_limit_start);
            out[RAISES] += f64::from(raised);
            out[RAISES + 1] += s.levels[seat].iter().filter(|&&l| l == 2).count() as f64
                - self.data.players[c]
                    .start_levels()
                    .iter()
                    .filter(|&&l| l == 2)
                    .count() as f64;
            if raised > 0 {
                out[RAISES + 2] += 1.0;
                out[RAISER_WON] += won;
            }
            let base = CARDS + CARD_FIELDS * c;
            out[base] += 1.0;
            out[base + 1] += won;
            out[base + 2] += f64::from(p.total());
            for &d in &s.card_dealt[seat] {
                if d != NONE && usize::from(d) != c {
                    let base = CARDS + CARD_FIELDS * usize::from(d);
                    out[base + 3] += 1.0;
                    out[base + 4] += won;
                }
            }
            for (k, &b) in s.bonus_hand[seat].iter().enumerate() {
                if b == NONE {
                    continue;
                }
                let base = BONUS + BONUS_FIELDS * usize::from(b);
                let met = p.met & (1 << k) != 0;
                out[base] += 1.0;
                out[base + 1] += f64::from(u8::from(met));
                out[base + 2] += won;
                if met {
                    out[base + 3] += won;
                }
            }
        }
    }

    fn summarize(&self, x: &[f64], games: u64, wilson: &Interval) -> Vec<String> {
        let n = games as f64;
        let share = |v: f64, of: f64| v / of.max(1.0);
        let seats = usize::from(self.players);
        let (lo, hi) = wilson(x[START_WON], n);
        let mut lines = vec![
            format!(
                "rounds per game {:.2}; customers served {:.2}, left unserved {:.2} ({:.3} of those that came)",
                share(x[ROUNDS], n),
                share(x[SERVED], n),
                share(x[LEFT], n),
                share(x[LEFT], x[SERVED] + x[LEFT])
            ),
            format!(
                "start player (lowest dice total) wins {:.3} [{lo:.3}, {hi:.3}] (even share {:.3})",
                share(x[START_WON], n),
                1.0 / seats as f64
            ),
            format!(
                "wins by seat after the start player (0 = the start player): {}",
                (0..seats)
                    .map(|k| format!("{k}: {:.3}", share(x[OFFSET_WON + k], n)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ];
        let seat_games = n * seats as f64;
        let raisers = x[RAISES + 2];
        lines.push(format!(
            "points per player: orders {:.2}, bonus cards {:.2}, coins {:.2} (¥{} a VP)",
            share(x[POINTS], seat_games),
            share(x[POINTS + 1], seat_games),
            share(x[POINTS + 2], seat_games),
            self.yen_per_vp()
        ));
        lines.push(format!(
            "dice-limit raises per player {:.2} (prices {:?}), Arrange raises {:.2}; players who raised their limit win {:.3} of their games ({:.3} of players), the others {:.3}",
            share(x[RAISES], seat_games),
            self.limit_prices(),
            share(x[RAISES + 1], seat_games),
            share(x[RAISER_WON], raisers),
            share(raisers, seat_games),
            share(n - x[RAISER_WON], seat_games - raisers)
        ));
        for (c, pc) in self.data.players.iter().enumerate() {
            let b = CARDS + CARD_FIELDS * c;
            let (lo, hi) = wilson(x[b + 1], x[b]);
            let (dlo, dhi) = wilson(x[b + 4], x[b + 3]);
            lines.push(format!(
                "player card {}: chosen {} times, wins {:.3} [{lo:.3}, {hi:.3}], mean VP {:.1}; declined {} times, the decliner wins {:.3} [{dlo:.3}, {dhi:.3}]",
                pc.name,
                x[b],
                share(x[b + 1], x[b]),
                share(x[b + 2], x[b]),
                x[b + 3],
                share(x[b + 4], x[b + 3])
            ));
        }
        for (k, bonus) in self.data.bonus.iter().enumerate().take(MAX_BONUS) {
            let b = BONUS + BONUS_FIELDS * k;
            let not_met = x[b] - x[b + 1];
            lines.push(format!(
                "bonus card {} ({} VP): held {} times, met {:.3}; the holder wins {:.3} when met, {:.3} when not",
                bonus.name,
                bonus.vp,
                x[b],
                share(x[b + 1], x[b]),
                share(x[b + 3], x[b + 1]),
                share(x[b + 2] - x[b + 3], not_met)
            ));
        }
        lines
    }

    fn render(&self, s: &State) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "round {}, {}; start player {}; customers served {}, left {}; deck {} / {} / {}",
            s.round,
            s.phase,
            s.start_player + 1,
            s.served,
            s.left_unserved,
            s.deck[0].count_ones(),
            s.deck[1].count_ones(),
            s.deck[2].count_ones()
        );
        let _ = writeln!(out, "  common dice: {}", faces_text(&s.common));
        for (k, pl) in s.places.iter().enumerate() {
            if !pl.occupied() {
                let _ = writeln!(out, "  place {}: empty", k + 1);
                continue;
            }
            let c = &self.data.customers[usize::from(pl.card / 16)][usize::from(pl.card % 16)];
            let orders: Vec<String> = (0..3)
                .filter(|&o| pl.orders[o] != NONE)
                .map(|o| {
                    let card = &self.data.orders[usize::from(pl.orders[o])];
                    let token = if pl.tokens[o] == NONE {
                        String::new()
                    } else {
                        format!(" [token p{}]", pl.tokens[o] + 1)
                    };
                    format!(
                        "{} {} {} (¥{}, {} VP){token}",
                        card.name,
                        CATEGORIES[usize::from(card.category)],
                        String::from(card.serve),
                        card.coins,
                        card.vp
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "  place {}: {} (time {}): {}",
                k + 1,
                c.name,
                pl.time,
                orders.join("; ")
            );
        }
        for i in 0..usize::from(self.players) {
            let p = self.points(s, i);
            let levels: Vec<String> = (0..3)
                .map(|k| format!("{} Lv.{}", arrange_name(k as u8), s.levels[i][k]))
                .collect();
            let hand: Vec<String> = s.bonus_hand[i]
                .iter()
                .filter(|&&b| b != NONE)
                .map(|&b| self.data.bonus[usize::from(b)].name.clone())
                .collect();
            let _ = writeln!(
                out,
                "  player {} ({}): dice [{}] limit {}, tokens {} (+{} parked), ¥{}, order VP {}, bonus {} ({} VP met), {}",
                i + 1,
                if s.card[i] == NONE { "?".into() } else { self.player_card_name(s.card[i]) },
                faces_text(&s.dice[i]),
                s.limit[i],
                s.tokens[i],
                s.parked[i],
                s.coins[i],
                p.orders,
                hand.join(" + "),
                p.bonus,
                levels.join(", ")
            );
        }
        out
    }

    fn state_players(s: &State) -> usize {
        usize::from(s.players)
    }

    fn check_state(&self, s: &State) -> Result<(), String> {
        GinzaRetroCafe::check_state(self, s)
    }
}

/// The phase as the printed position names it (not Rust's debug text).
impl std::fmt::Display for super::state::Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::state::Phase::*;
        match self {
            ChoosePlayerCard { seat } => write!(f, "player {} chooses a player card", seat + 1),
            Draft { seat, second } => write!(
                f,
                "player {} keeps a bonus card ({} pick)",
                seat + 1,
                if *second { "second" } else { "first" }
            ),
            Turn { seat } => write!(f, "player {}'s turn", seat + 1),
            Change { seat, left } => {
                write!(f, "player {} changes dice rolls, {left} left", seat + 1)
            }
            Reroll { seat, left, .. } => {
                write!(f, "player {} rerolls dice, {left} left", seat + 1)
            }
            Over => write!(f, "game over"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tallies_fit_and_every_slot_has_a_name() {
        assert!(GinzaRetroCafe::TALLIES.len() <= crate::present::MAX_TALLIES);
        assert_eq!(GinzaRetroCafe::TALLIES.len(), RAISER_WON + 1);
        assert_eq!(GinzaRetroCafe::TALLIES[RAISER_WON], "limit_raisers_won");
        assert_eq!(GinzaRetroCafe::TALLIES[BONUS], "bonus_0_held");
    }
}
