//! How the `shifu` command presents Tofu Shifu: the CSV's counts and events (the coin reserve
//! and the deck running out, the seat that triggered the end), the summary's lines, a printed
//! position.

use super::*;
use crate::error::EngineError;
use crate::present::{Event, EventKind, Interval, Present, MAX_EVENTS};
use std::fmt::Write as _;

crate::stats! {
    /// Tofu Shifu's statistics over finished games.
    pub struct ShifuStats {
        /// Games in which the coin reserve ran out.
        pub coins_out: f64,
        /// The rounds at which it ran out, summed.
        pub coins_out_rounds: f64,
        /// Games in which the deck ran out.
        pub deck_out: f64,
        /// The rounds at which it ran out, summed.
        pub deck_out_rounds: f64,
        /// Games whose end each seat triggered.
        pub trigger: [f64; MAX_PLAYERS],
    }
}

impl Present for TofuShifu {
    const COUNTS: [&'static str; 2] = ["objectives", "coins"];
    const EVENTS: &'static [Event] = &[
        Event::new("coins_out_round", "coins_out", EventKind::RanOut),
        Event::new("deck_out_round", "deck_out", EventKind::RanOut),
        Event::new("end_trigger", "end_trigger", EventKind::Seat),
    ];

    type Data = CardData;
    type Params = Params;
    type Stats = ShifuStats;

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

    fn default_setting(&self, key: &str) -> Option<String> {
        // "start_coins" unset: the card data's coins by seat, first player first.
        (key == "start_coins").then(|| {
            let n = usize::from(self.params.players);
            let coins: Vec<String> = self
                .data
                .start_coins
                .iter()
                .take(n)
                .map(u16::to_string)
                .collect();
            coins.join(",")
        })
    }

    fn counts(&self, s: &Self::State, seat: usize) -> [u32; 2] {
        [s.players[seat].objectives(), s.players[seat].coins as u32]
    }

    fn events(&self, s: &Self::State) -> [Option<u32>; MAX_EVENTS] {
        let round = |r: u16| (r > 0).then_some(u32::from(r));
        let trigger = s.end_trigger.get().map(|x| u32::from(x) + 1);
        [
            round(s.coins_out_round),
            round(s.deck_out_round),
            trigger,
            None,
        ]
    }

    fn tally(&self, s: &Self::State, out: &mut ShifuStats) {
        if s.coins_out_round > 0 {
            out.coins_out += 1.0;
            out.coins_out_rounds += f64::from(s.coins_out_round);
        }
        if s.deck_out_round > 0 {
            out.deck_out += 1.0;
            out.deck_out_rounds += f64::from(s.deck_out_round);
        }
        if let Some(x) = s.end_trigger.index().and_then(|i| out.trigger.get_mut(i)) {
            *x += 1.0;
        }
    }

    fn summarize(&self, x: &ShifuStats, games: u64, wilson: &Interval) -> Vec<String> {
        let n = games as f64;
        let share = |k: f64| {
            let (lo, hi) = wilson(k, n);
            format!(
                "{:.1}% [{:.1}%, {:.1}%]",
                100.0 * k / n,
                100.0 * lo,
                100.0 * hi
            )
        };
        let mean = |sum: f64, k: f64| {
            if k > 0.0 {
                format!(", mean round {:.1}", sum / k)
            } else {
                String::new()
            }
        };
        let triggered: f64 = x.trigger[..self.num_seats()].iter().sum();
        let by_seat: Vec<String> = (0..self.num_seats())
            .map(|s| format!("seat {} {:.3}", s + 1, x.trigger[s] / triggered.max(1.0)))
            .collect();
        vec![
            format!(
                "coin reserve ran out in {}{}; deck ran out in {}{}",
                share(x.coins_out),
                mean(x.coins_out_rounds, x.coins_out),
                share(x.deck_out),
                mean(x.deck_out_rounds, x.deck_out)
            ),
            format!(
                "the end was triggered (first to {} objectives) in {:.0} games by: {}",
                self.end_objectives(),
                triggered,
                by_seat.join(", ")
            ),
        ]
    }

    fn render(&self, s: &Self::State) -> String {
        render(self, s)
    }

    fn board(&self, s: &Self::State, seat: Option<Seat>) -> crate::board::Board {
        self.board_of(s, seat)
    }

    fn state_players(s: &Self::State) -> usize {
        s.num_players as usize
    }

    fn check_state(&self, s: &Self::State) -> Result<(), String> {
        TofuShifu::check_state(self, s)
    }
}

fn render(game: &TofuShifu, s: &State) -> String {
    let d = &game.data;
    let ids = |set: u128| {
        cards(set)
            .map(|c| d.cards[c as usize].id.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "round {}, turn {}, player {} to move, phase: {}{}",
        s.round,
        s.turns + 1,
        s.current + 1,
        s.turn.phase,
        if s.turn.phase == Phase::TurnStart {
            String::new()
        } else {
            format!(" (action {})", s.turn.action)
        }
    );
    let market: Vec<String> = (0..game.market_slots())
        .map(|i| {
            s.market[i]
                .index()
                .map_or_else(|| "-".into(), |c| d.cards[c].id.clone())
        })
        .collect();
    let _ = writeln!(
        out,
        "market: {}   deck: {} cards   bag: {} tiles",
        market.join(" "),
        s.deck.count_ones(),
        s.bag.count_ones()
    );
    let town: Vec<&str> = (0..d.town_objectives.len())
        .filter(|i| s.town_display & (1 << i) != 0)
        .map(|i| d.town_objectives[i].id.as_str())
        .collect();
    let _ = writeln!(
        out,
        "town objectives: {}   coin stack top: {}",
        town.join(" "),
        game.coin_stack_top(s).map_or("-".to_string(), |i| format!(
            "{} ({} coins)",
            d.town_objectives[i as usize].id,
            game.town_requirement(i as usize).coins
        ))
    );
    let _ = writeln!(
        out,
        "reserve: dishes {:?}, hats {:?}, coins {}",
        s.reserve_dishes, s.reserve_hats, s.reserve_coins
    );
    for (i, p) in s.players[..s.num_players as usize].iter().enumerate() {
        let _ = writeln!(
            out,
            "player {}: {} objectives, {} coins, marker on {}",
            i + 1,
            p.objectives(),
            p.coins,
            Space::from_index(p.marker as usize)
        );
        let _ = writeln!(out, "  hand [{}]  rest zone [{}]", ids(p.hand), ids(p.rest));
        let _ = writeln!(
            out,
            "  upgrades [{}]  objective zone [{}]",
            ids(p.upgrades),
            ids(p.objective_zone)
        );
        let dishes: Vec<String> = Dish::ALL
            .iter()
            .map(|&x| {
                format!(
                    "{} {}/{}",
                    x.name(),
                    p.dishes[x as usize],
                    p.dish_flags[x as usize]
                )
            })
            .collect();
        let _ = writeln!(out, "  dishes (tokens/flags): {}", dishes.join(", "));
        let _ = writeln!(out, "  hats (tokens/flags): Chef {}/{}, Waiter {}/{}, Cashier {}/{}, Master {}/{}; lanterns {}",
            p.hats[0], p.hat_flags[0], p.hats[1], p.hat_flags[1], p.hats[2], p.hat_flags[2], p.hats[3], p.hat_flags[3], p.lanterns);
        for t in 0..game.tables_open(p) {
            let seated: Vec<String> = p.tables[t]
                .iter()
                .zip(p.served[t].iter())
                .filter_map(|(x, &m)| Some((x.index()?, m)))
                .map(|(x, m)| format!("{} (served {:04b})", d.customers[x].id, m))
                .collect();
            let _ = writeln!(
                out,
                "  table {}: {}",
                t + 1,
                if seated.is_empty() {
                    "empty".into()
                } else {
                    seated.join(", ")
                }
            );
        }
    }
    out
}

/// The phase as the printed position names it (not Rust's debug text).
impl std::fmt::Display for super::state::Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::state::Phase::*;
        f.write_str(match self {
            TurnStart => "turn start (complete objectives, then move the Shifu marker)",
            CopyTarget => "Copy: choose the space to copy",
            ChooseCard => "choose a card from hand",
            PayHats => "pay hats",
            SeatExtra => "Seat: extra payments or draw",
            PlaceTiles => "Seat: place the drawn tiles",
            Serve => "Serve",
            Checkout => "Checkout",
            Hire => "Hire: take a market card",
            RestBuy => "Rest: buy market cards",
            RestDiscard => "Rest: return cards over the hand limit",
            RestKeep => "Rest: choose the cards to keep",
            TurnEnd => "turn end (complete objectives)",
            GameOver => "game over",
        })
    }
}
