//! How the `shifu` command presents Ginza Retro Café: order VP and coins per seat, the start
//! player and game length per game, each player card's and bonus card's record in the summary,
//! and a printed position.

use super::action::faces_text;
use super::apply::arrange_name;
use super::data::{CATEGORIES, MAX_BONUS, MAX_PLAYER_CARDS};
use super::*;
use crate::error::EngineError;
use crate::present::{Event, EventKind, Interval, Present, MAX_EVENTS};

crate::stats! {
    /// Ginza Retro Café's statistics over finished games.
    pub struct GinzaStats {
        /// Rounds played.
        pub rounds: f64,
        /// Customers served.
        pub served: f64,
        /// Customers left unserved.
        pub left_unserved: f64,
        /// Win share of the first start player.
        pub start_won: f64,
        /// Win share by seat offset from the first start player.
        pub won_start_offset: [f64; 4],
        /// Each player card's record.
        pub cards: [CardStats; MAX_PLAYER_CARDS],
        /// Each bonus card's record.
        pub bonus: [BonusStats; MAX_BONUS],
        /// Order VP, summed over seats.
        pub order_vp: f64,
        /// Bonus-card VP, summed over seats.
        pub bonus_vp: f64,
        /// Coin VP, summed over seats.
        pub coin_vp: f64,
        /// Dice-limit raises.
        pub limit_raises: f64,
        /// Arrange raises.
        pub level_raises: f64,
        /// Seat-games with a dice-limit raise.
        pub limit_raisers: f64,
        /// Win share of the seats that raised their dice limit.
        pub limit_raisers_won: f64,
    }
}

crate::stats! {
    /// A player card's record.
    pub struct CardStats {
        /// Times chosen.
        pub chosen: f64,
        /// Win share of the seats that chose it.
        pub chosen_won: f64,
        /// VP of the seats that chose it.
        pub chosen_vp: f64,
        /// Times dealt and declined.
        pub declined: f64,
        /// Win share of the seats that declined it.
        pub declined_won: f64,
    }
}

crate::stats! {
    /// A bonus card's record.
    pub struct BonusStats {
        /// Times held.
        pub held: f64,
        /// Times met.
        pub met: f64,
        /// Win share of its holders.
        pub held_won: f64,
        /// Win share of its holders when met.
        pub met_won: f64,
    }
}

impl Present for GinzaRetroCafe {
    const COUNTS: [&'static str; 2] = ["order_vp", "coins"];
    // The game's length is the CSV's shared `rounds` column, not an event of its own.
    const EVENTS: &'static [Event] = &[
        Event::new("start_player", "start_player", EventKind::Seat),
        Event::new("left_unserved", "left_unserved", EventKind::Count),
        Event::new("served", "served", EventKind::Count),
    ];

    type Data = GinzaData;
    type Params = Params;
    type Stats = GinzaStats;

    fn from_parts(data: GinzaData, params: Params) -> Result<Self, EngineError> {
        Self::new(data, params)
    }

    fn data(&self) -> &GinzaData {
        &self.data
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn default_setting(&self, key: &str) -> Option<String> {
        // The start-coin variant unset: nobody starts with coins, as the rulebook.
        (key == "start_yen_by_position").then(|| vec!["0"; usize::from(self.players)].join(","))
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
            // A seat event counts seats from 1.
            Some(u32::from(s.first_start) + 1),
            Some(u32::from(s.left_unserved)),
            Some(u32::from(s.served)),
            None,
        ]
    }

    fn tally(&self, s: &State, out: &mut GinzaStats) {
        let Some(outcome) = self.outcome(s) else {
            return;
        };
        let n = usize::from(self.players);
        out.rounds += f64::from(s.round);
        out.served += f64::from(s.served);
        out.left_unserved += f64::from(s.left_unserved);
        out.start_won += outcome.win_share(s.first_start);
        for seat in 0..n {
            let won = outcome.win_share(seat as u8);
            let offset = (seat + n - usize::from(s.first_start)) % n;
            out.won_start_offset[offset] += won;
            let p = self.points(s, seat);
            let c = s.player_card(seat);
            out.order_vp += f64::from(p.orders);
            out.bonus_vp += f64::from(p.bonus);
            out.coin_vp += f64::from(p.coins);
            let raised = s.limit[seat].saturating_sub(self.data.players[c].dice_limit_start);
            out.limit_raises += f64::from(raised);
            out.level_raises += s.levels[seat].iter().filter(|&&l| l == 2).count() as f64
                - self.data.players[c]
                    .start_levels()
                    .iter()
                    .filter(|&&l| l == 2)
                    .count() as f64;
            if raised > 0 {
                out.limit_raisers += 1.0;
                out.limit_raisers_won += won;
            }
            let card = &mut out.cards[c];
            card.chosen += 1.0;
            card.chosen_won += won;
            card.chosen_vp += f64::from(p.total());
            for d in s.card_dealt[seat].iter().filter_map(|d| d.index()) {
                if d != c {
                    let card = &mut out.cards[d];
                    card.declined += 1.0;
                    card.declined_won += won;
                }
            }
            for (k, b) in s.bonus_hand[seat].iter().enumerate() {
                let Some(b) = b.index() else {
                    continue;
                };
                let bonus = &mut out.bonus[b];
                let met = p.met & (1 << k) != 0;
                bonus.held += 1.0;
                bonus.met += f64::from(u8::from(met));
                bonus.held_won += won;
                if met {
                    bonus.met_won += won;
                }
            }
        }
    }

    fn summarize(&self, x: &GinzaStats, games: u64, wilson: &Interval) -> Vec<String> {
        let n = games as f64;
        let share = |v: f64, of: f64| v / of.max(1.0);
        let seats = usize::from(self.players);
        let (lo, hi) = wilson(x.start_won, n);
        let mut lines = vec![
            format!(
                "rounds per game {:.2}; customers served {:.2}, left unserved {:.2} ({:.3} of those that came)",
                share(x.rounds, n),
                share(x.served, n),
                share(x.left_unserved, n),
                share(x.left_unserved, x.served + x.left_unserved)
            ),
            format!(
                "start player (lowest dice total) wins {:.3} [{lo:.3}, {hi:.3}] (even share {:.3})",
                share(x.start_won, n),
                1.0 / seats as f64
            ),
            format!(
                "wins by seat after the start player (0 = the start player): {}",
                (0..seats)
                    .map(|k| format!("{k}: {:.3}", share(x.won_start_offset[k], n)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ];
        let seat_games = n * seats as f64;
        let raisers = x.limit_raisers;
        lines.push(format!(
            "points per player: orders {:.2}, bonus cards {:.2}, coins {:.2} (¥{} a VP)",
            share(x.order_vp, seat_games),
            share(x.bonus_vp, seat_games),
            share(x.coin_vp, seat_games),
            self.yen_per_vp()
        ));
        lines.push(format!(
            "dice-limit raises per player {:.2} (prices {:?}), Arrange raises {:.2}; players who raised their limit win {:.3} of their games ({:.3} of players), the others {:.3}",
            share(x.limit_raises, seat_games),
            self.limit_prices(),
            share(x.level_raises, seat_games),
            share(x.limit_raisers_won, raisers),
            share(raisers, seat_games),
            share(n - x.limit_raisers_won, seat_games - raisers)
        ));
        for (c, pc) in self.data.players.iter().enumerate() {
            let b = &x.cards[c];
            let (lo, hi) = wilson(b.chosen_won, b.chosen);
            let (dlo, dhi) = wilson(b.declined_won, b.declined);
            lines.push(format!(
                "player card {}: chosen {} times, wins {:.3} [{lo:.3}, {hi:.3}], mean VP {:.1}; declined {} times, the decliner wins {:.3} [{dlo:.3}, {dhi:.3}]",
                pc.name,
                b.chosen,
                share(b.chosen_won, b.chosen),
                share(b.chosen_vp, b.chosen),
                b.declined,
                share(b.declined_won, b.declined)
            ));
        }
        for (k, bonus) in self.data.bonus.iter().enumerate().take(MAX_BONUS) {
            let b = &x.bonus[k];
            let not_met = b.held - b.met;
            lines.push(format!(
                "bonus card {} ({} VP): held {} times, met {:.3}; the holder wins {:.3} when met, {:.3} when not",
                bonus.name,
                bonus.vp,
                b.held,
                share(b.met, b.held),
                share(b.met_won, b.met),
                share(b.held_won - b.met_won, not_met)
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
        match s.picking {
            Picking::Nothing => {}
            Picking::Serve { place, slot, dice } => {
                let _ = writeln!(
                    out,
                    "  serving the order at place {}, slot {}, with {} so far",
                    place + 1,
                    slot + 1,
                    faces_text(&dice)
                );
            }
            Picking::Reroll { dice } => {
                let _ = writeln!(out, "  rerolling {} so far", faces_text(&dice));
            }
        }
        for (k, pl) in s.places.iter().enumerate() {
            if !pl.occupied() {
                let _ = writeln!(out, "  place {}: empty", k + 1);
                continue;
            }
            let card = pl.card.index().expect("an occupied place");
            let c = &self.data.customers[card / 16][card % 16];
            let orders: Vec<String> = (0..3)
                .filter_map(|o| Some((pl.orders[o].index()?, pl.tokens[o])))
                .map(|(order, token)| {
                    let card = &self.data.orders[order];
                    let token = match token.get() {
                        None => String::new(),
                        Some(t) => format!(" [token p{}]", t + 1),
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
                .filter_map(|b| b.index())
                .map(|b| self.data.bonus[b].name.clone())
                .collect();
            let _ = writeln!(
                out,
                "  player {} ({}): dice [{}] limit {}, tokens {} (+{} parked), ¥{}, order VP {}, bonus {} ({} VP met), {}",
                i + 1,
                self.player_card_name(s.card[i]),
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

    fn board(&self, s: &Self::State, seat: Option<Seat>) -> crate::board::Board {
        self.board_of(s, seat)
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
