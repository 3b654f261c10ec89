//! How the `shifu` command presents Wok Star: customers served per seat, the team's result and
//! where games are lost, and a printed position with the clock and the timers.

use super::data::{CUSTOMER_SLOTS, DAYS};
use super::state::{Closing, Short, NOBODY};
use super::*;
use crate::error::EngineError;
use crate::present::{Event, EventKind, Interval, Present, MAX_EVENTS};

crate::stats! {
    /// Wok Star's statistics over finished games.
    pub struct WokStats {
        /// Games won by the team.
        pub won: f64,
        /// Days whose goal was met.
        pub days_met: f64,
        /// Days played.
        pub days_played: f64,
        /// Days closed by the team.
        pub closed_chosen: f64,
        /// Days closed by an empty Regular deck.
        pub closed_deck_done: f64,
        /// Days closed by the day's time limit.
        pub closed_time_limit: f64,
        /// Days closed with every seat waiting.
        pub closed_all_waited: f64,
        /// Income over the days played.
        pub income: f64,
        /// Customers served.
        pub served: f64,
        /// Customers served late.
        pub late: f64,
        /// Games lost on day 1 to 4.
        pub lost_day: [f64; DAYS],
        /// Lost games whose losing day closed with the waiting dish short of dice,
        /// ingredients, time, or nothing.
        pub lost_short: [f64; 4],
        /// The last income checked minus its goal.
        pub margin: f64,
    }
}

impl Present for WokStar {
    const COUNTS: [&'static str; 2] = ["served", "dice"];
    const EVENTS: &'static [Event] = &[
        Event::new("lost_day", "lost_day", EventKind::Count),
        Event::new("shortfall", "shortfall", EventKind::Count),
        Event::new("time_limit_days", "time_limit_days", EventKind::Count),
        Event::new("late", "late", EventKind::Count),
    ];

    type Data = WokData;
    type Params = Params;
    type Stats = WokStats;

    fn from_parts(data: WokData, params: Params) -> Result<Self, EngineError> {
        Self::new(data, params)
    }

    fn data(&self) -> &WokData {
        &self.data
    }

    fn params(&self) -> &Params {
        &self.params
    }

    fn max_rounds(&self) -> u32 {
        DAYS as u32
    }

    fn counts(&self, s: &State, seat: usize) -> [u32; 2] {
        [
            u32::from(s.served_total[seat]),
            u32::from(s.dice_count[seat]),
        ]
    }

    fn events(&self, s: &State) -> [Option<u32>; MAX_EVENTS] {
        let lost = s.is_over() && !s.won();
        let limit = s
            .day_closing
            .iter()
            .filter(|&&c| c == Closing::TimeLimit)
            .count() as u32;
        [
            lost.then_some(u32::from(s.day)),
            lost.then_some(s.margin.unsigned_abs()),
            (limit > 0).then_some(limit),
            (s.late_total > 0).then_some(u32::from(s.late_total)),
        ]
    }

    fn tally(&self, s: &State, out: &mut WokStats) {
        out.won += f64::from(u8::from(s.won()));
        out.days_met += f64::from(s.days_met);
        let played = s.day as usize;
        out.days_played += played as f64;
        for d in 0..played.min(DAYS) {
            match s.day_closing[d] {
                Closing::Chosen => out.closed_chosen += 1.0,
                Closing::DeckDone => out.closed_deck_done += 1.0,
                Closing::TimeLimit => out.closed_time_limit += 1.0,
                Closing::AllWaited => out.closed_all_waited += 1.0,
                Closing::Open => {}
            }
            out.income += f64::from(s.day_income[d]);
        }
        out.served += s.served_total.iter().map(|&x| f64::from(x)).sum::<f64>();
        out.late += f64::from(s.late_total);
        out.margin += f64::from(s.margin);
        if s.is_over() && !s.won() {
            let d = (s.day as usize).clamp(1, DAYS) - 1;
            out.lost_day[d] += 1.0;
            let k = match s.day_short[d] {
                Short::Dice => 0,
                Short::Ingredients => 1,
                Short::Time => 2,
                Short::Nothing => 3,
            };
            out.lost_short[k] += 1.0;
        }
    }

    fn summarize(&self, x: &WokStats, games: u64, wilson: &Interval) -> Vec<String> {
        let n = games as f64;
        let (lo, hi) = wilson(x.won, n);
        let lost = n - x.won;
        let share = |v: f64, of: f64| v / of.max(1.0);
        let days = x.days_played;
        let mut lines = vec![
            format!(
                "team wins {:.3} [{lo:.3}, {hi:.3}] of {games} games ({} difficulty, goals {}); mean days met {:.2} of {DAYS}; mean margin {} (the last income checked minus its goal)",
                share(x.won, n),
                self.params.difficulty,
                self.goals.iter().map(|g| format!("${g}")).collect::<Vec<_>>().join(", "),
                share(x.days_met, n),
                money(share(x.margin, n))
            ),
            format!(
                "lost on day 1 / 2 / 3 / 4: {:.3} / {:.3} / {:.3} / {:.3} of games",
                share(x.lost_day[0], n),
                share(x.lost_day[1], n),
                share(x.lost_day[2], n),
                share(x.lost_day[3], n)
            ),
            format!(
                "losing day closed with the waiting dish short of: dice (none left to prepare) {:.3}, ingredients (dice or a wash left) {:.3}, nothing (servable; the team stopped or time ran out) {:.3}, no customer waiting {:.3}",
                share(x.lost_short[0], lost),
                share(x.lost_short[1], lost),
                share(x.lost_short[2], lost),
                share(x.lost_short[3], lost)
            ),
            format!(
                "days closed by the team {:.3} (every seat waiting {:.3}), by an empty Regular deck {:.3}, by the {} s day limit {:.3}",
                share(x.closed_chosen + x.closed_all_waited, days),
                share(x.closed_all_waited, days),
                share(x.closed_deck_done, days),
                self.params.max_day_seconds,
                share(x.closed_time_limit, days)
            ),
            format!(
                "mean income per day played ${:.1}; customers served per game {:.1}, {:.3} of them late",
                share(x.income, days),
                share(x.served, n),
                share(x.late, x.served)
            ),
        ];
        let limited = share(x.closed_time_limit, days);
        if limited > 0.05 {
            lines.push(format!(
                "WARNING: {:.1}% of days ended at the {} s day limit (max_day_seconds), a cap of the model, not a rule: the win rate leans on it",
                100.0 * limited,
                self.params.max_day_seconds
            ));
        }
        lines
    }

    fn render(&self, s: &State) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let now = s.clock[self.earliest(s) as usize];
        let goal = self
            .goals
            .get((s.day as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let _ = writeln!(
            out,
            "day {} of {DAYS}, {}; income ${} against the goal ${goal}; days met {}",
            s.day, s.phase, s.income, s.days_met
        );
        let secs = |ms: u32| f64::from(ms) / 1000.0;
        let clocks: Vec<String> = (0..self.players as usize)
            .map(|i| format!("player {} {:.1} s", i + 1, secs(s.clock[i])))
            .collect();
        let _ = writeln!(
            out,
            "  clock: {} (table time {:.1} s)",
            clocks.join(", "),
            secs(now)
        );
        let timer = |k: usize| {
            let t = &s.timers[k];
            let state = if !t.standing {
                "lying down"
            } else if t.left(now) > 0 {
                "running"
            } else {
                "empty"
            };
            format!("{:.1} s left, {state}", secs(t.left(now)))
        };
        let _ = writeln!(
            out,
            "  timers: {}; {}; washes left {}",
            timer(0),
            timer(1),
            s.washes_left
        );
        match s.customer {
            Some(c) => {
                let r = &self.data.recipes[c as usize / CUSTOMER_SLOTS];
                let (income, coupon) = self.customer_income(c);
                let _ = writeln!(
                    out,
                    "  customer: {} (${income}{}), recipe of player {}; {} customers left in the deck",
                    r.name,
                    if coupon { ", coupon" } else { "" },
                    u32::from(s.recipe_owner[c as usize / CUSTOMER_SLOTS]) + 1,
                    s.deck.count_ones()
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  no customer waiting; {} in the deck",
                    s.deck.count_ones()
                );
            }
        }
        let tracks: Vec<String> = (0..self.data.ingredients.len())
            .filter(|&k| s.ingredient_owner[k] != NOBODY || s.pending & (1 << k) != 0)
            .map(|k| {
                let owner = s.ingredient_owner[k];
                format!(
                    "{} {} ({}, {} methods)",
                    self.data.ingredients[k].name,
                    s.track[k],
                    if owner == NOBODY {
                        "unassigned".to_string()
                    } else {
                        format!("p{}", owner + 1)
                    },
                    self.open_methods(s, k)
                )
            })
            .collect();
        let _ = writeln!(out, "  ingredients: {}", tracks.join(", "));
        for i in 0..self.players as usize {
            let recipes: Vec<&str> = (0..self.data.recipes.len())
                .filter(|&r| s.recipe_owner[r] == i as u8)
                .map(|r| self.data.recipes[r].name.as_str())
                .collect();
            let dice: Vec<String> = s.dice[i][..s.dice_count[i] as usize]
                .iter()
                .map(|&d| {
                    if d == 0 {
                        "x".to_string()
                    } else {
                        d.to_string()
                    }
                })
                .collect();
            let _ = writeln!(
                out,
                "  player {}: dice [{}], {} cubes, recipes: {}; served today {} ({} on time)",
                i + 1,
                dice.join(" "),
                s.cubes[i],
                recipes.join(", "),
                s.served_count[i],
                s.on_time[i]
            );
        }
        let _ = writeln!(
            out,
            "  hustle pool {}, supply {}; money ${}",
            s.hustle_pool, s.hustle_supply, s.money
        );
        out
    }

    fn board(&self, s: &Self::State, seat: Option<Seat>) -> crate::board::Board {
        self.board_of(s, seat)
    }

    fn state_players(s: &State) -> usize {
        s.players as usize
    }

    fn check_state(&self, s: &State) -> Result<(), String> {
        WokStar::check_state(self, s)
    }
}

/// An amount of money: `$6.5`, `-$6.5`.
fn money(x: f64) -> String {
    if x < 0.0 {
        format!("-${:.1}", -x)
    } else {
        format!("${x:.1}")
    }
}

/// The phase as the printed position names it (not Rust's debug text).
impl std::fmt::Display for super::state::Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::state::Phase::*;
        match self {
            ChooseCharacters => write!(f, "choosing characters"),
            ExtraDie => write!(f, "choosing who takes the extra die"),
            GiveIngredients => write!(f, "handing out ingredient cards"),
            Business => write!(f, "Open for Business"),
            Washing => write!(f, "the Dishwasher runs"),
            AfterClose { seat } => {
                write!(f, "after closing, player {} to use leftover dice", seat + 1)
            }
            GiveCubes => write!(f, "handing out Fortune cubes"),
            Prep => write!(f, "Next Day Prep"),
            Over => write!(f, "game over"),
        }
    }
}
