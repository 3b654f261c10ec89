//! Checking a state that came from outside (a file, a user): every field within its range
//! first, so no later check or rule indexes out of bounds or overflows, then the conservation
//! invariants ([`WokStar::check_invariants`]), then a move to make unless the game is over.
//! Each error begins with the field it refuses.

use super::data::{CUSTOMER_SLOTS, DAYS};
use super::state::{Closing, Phase, State, MAX_PLAYERS, NOBODY};
use super::WokStar;

/// Table time past the day's limit that a clock may show, in milliseconds: far past any
/// action's duration.
const CLOCK_SLACK: u32 = 3_600_000;
/// Dollars a day's income (or margin, or money) stays within, far past any day.
const MONEY_LIMIT: i32 = 10_000;
/// Actions a game may hold, far past any game (a bound for `steps`).
const STEPS_LIMIT: u32 = 100_000_000;
/// Customers a game may serve, far past any game (a bound for the totals).
const SERVED_LIMIT: u16 = 10_000;

impl WokStar {
    /// Checks a loaded state: the fields' ranges, the invariants, and a legal action in a game
    /// that is not over. The error names the field.
    pub fn check_state(&self, s: &State) -> Result<(), String> {
        self.check_fields(s)?;
        self.check_today(s)?;
        self.check_invariants(s)?;
        self.check_preparing(s)?;
        let mut legal = Vec::new();
        self.legal(s, &mut legal);
        if legal.is_empty() != s.is_over() {
            return Err("phase: no legal action in a game that is not over".into());
        }
        Ok(())
    }

    /// The ranges of the fields: seats, cards and bits within the data, clocks and money within
    /// bounds, the phase consistent with the day.
    fn check_fields(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        if s.players != n {
            return Err(format!("players: {} in a {n}-player game", s.players));
        }
        if !(1..=DAYS as u8).contains(&s.day) {
            return Err(format!("day: {} is not from 1 to {DAYS}", s.day));
        }
        if s.steps > STEPS_LIMIT {
            return Err(format!("steps: {} past any game ({STEPS_LIMIT})", s.steps));
        }
        let limit = self.durations.max_day.saturating_add(CLOCK_SLACK);
        for (field, t) in s
            .clock
            .iter()
            .map(|&c| ("clock", c))
            .chain(s.timers.iter().map(|t| ("timers", t.at)))
            .chain([("event_at", s.event_at)])
        {
            if t > limit {
                return Err(format!("{field}: {t} ms past the longest day ({limit})"));
            }
        }
        if let Some(t) = s.timers.iter().find(|t| t.top > self.capacity) {
            return Err(format!(
                "timers: top {} ms of sand, the timer holds {}",
                t.top, self.capacity
            ));
        }
        if s.washes_left > self.data.rulebook.washes_per_day {
            return Err(format!(
                "washes_left: {} of {} a day",
                s.washes_left, self.data.rulebook.washes_per_day
            ));
        }
        self.check_seats(s)?;
        self.check_data_indices(s)?;
        self.check_money(s)?;
        self.check_progress(s)
    }

    /// Each seat's dice and cubes; the seats that do not play hold nothing.
    fn check_seats(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        let rb = &self.data.rulebook;
        for i in 0..n {
            let c = s.dice_count[i];
            if c < rb.start_dice || c > rb.max_dice || usize::from(c) > s.dice[i].len() {
                return Err(format!("dice_count: seat {i} has {c} dice"));
            }
            if s.dice[i].iter().any(|&d| d > 6) {
                return Err(format!("dice: seat {i} has a face out of 1 to 6"));
            }
            if s.cubes[i] > rb.fortune_cubes {
                return Err(format!("cubes: seat {i} has {}", s.cubes[i]));
            }
        }
        for i in n..MAX_PLAYERS {
            let fields: [(&str, bool); 8] = [
                ("clock", s.clock[i] != 0),
                ("dice", s.dice[i].iter().any(|&d| d != 0)),
                ("dice_count", s.dice_count[i] != 0),
                ("cubes", s.cubes[i] != 0),
                ("on_time", s.on_time[i] != 0),
                ("served_count", s.served_count[i] != 0),
                ("served_total", s.served_total[i] != 0),
                ("character", s.character[i] != NOBODY),
            ];
            if let Some((field, _)) = fields.iter().find(|(_, bad)| *bad) {
                return Err(format!("{field}: seat {i} does not play, yet has some"));
            }
        }
        if u32::from(s.tracker_cubes) >> DAYS != 0 {
            return Err(format!(
                "tracker_cubes: {:#b} marks a day past {DAYS}",
                s.tracker_cubes
            ));
        }
        let seat_ok = |x: u8| x == NOBODY || x < self.players;
        if let Some(x) = s.second_cube.filter(|&x| !seat_ok(x)) {
            return Err(format!("second_cube: seat {x} in a {n}-player game"));
        }
        if let Some((x, _)) = s.choose.filter(|&(x, _)| !seat_ok(x)) {
            return Err(format!("choose: seat {x} in a {n}-player game"));
        }
        if u32::from(s.powers_used) >> n != 0 {
            return Err(format!(
                "powers_used: {:#b} marks a seat past the {n} players",
                s.powers_used
            ));
        }
        Ok(())
    }

    /// Cards, ingredients, recipes and events within the data; their owners within the seats.
    fn check_data_indices(&self, s: &State) -> Result<(), String> {
        let recipes = self.data.recipes.len();
        let ingredients = self.data.ingredients.len();
        let seat_ok = |x: u8| x == NOBODY || x < self.players;
        for (field, owners, len) in [
            ("recipe_owner", &s.recipe_owner[..], recipes),
            ("ingredient_owner", &s.ingredient_owner[..], ingredients),
        ] {
            for (k, &o) in owners.iter().enumerate() {
                if !seat_ok(o) || (k >= len && o != NOBODY) {
                    return Err(format!("{field}: card {k} held by seat {o}"));
                }
            }
        }
        for (field, v) in [("upgrades", &s.upgrades), ("track", &s.track)] {
            if v[ingredients..].iter().any(|&x| x != 0) {
                return Err(format!(
                    "{field}: an entry past the {ingredients} ingredients"
                ));
            }
        }
        if u32::from(s.pending) >> ingredients != 0 {
            return Err("pending: an ingredient card that does not exist".into());
        }
        let setting_up = matches!(
            s.phase,
            Phase::ChooseCharacters | Phase::ExtraDie | Phase::GiveIngredients
        );
        if s.pending != 0 && !setting_up {
            return Err(format!("pending: cards waiting in {:?}", s.phase));
        }
        if let Some(k) =
            (0..ingredients).find(|&k| s.pending & (1 << k) != 0 && s.ingredient_owner[k] != NOBODY)
        {
            return Err(format!(
                "pending: card {k} is held (ingredient_owner) and waiting"
            ));
        }
        let cards = if recipes * CUSTOMER_SLOTS >= 128 {
            u128::MAX
        } else {
            (1u128 << (recipes * CUSTOMER_SLOTS)) - 1
        };
        for (field, v) in [
            ("deck", s.deck),
            ("coupons", s.coupons),
            ("served", s.served),
            ("on_time_cards", s.on_time_cards),
        ] {
            if v & !cards != 0 {
                return Err(format!("{field}: a customer card that does not exist"));
            }
        }
        if s.customer
            .is_some_and(|c| usize::from(c) >= recipes * CUSTOMER_SLOTS)
        {
            return Err("customer: no such card".into());
        }
        if s.last_recipe != NOBODY && usize::from(s.last_recipe) >= recipes {
            return Err(format!("last_recipe: no recipe {}", s.last_recipe));
        }
        if s.offer
            .iter()
            .any(|&r| r != NOBODY && usize::from(r) >= recipes)
        {
            return Err("offer: no such recipe".into());
        }
        let events = self.data.events.len();
        for (field, v) in [
            ("event_deck", s.event_deck),
            ("event_box", s.event_box),
            ("events_today", s.events_today),
            ("events_gone", s.events_gone),
        ] {
            if u32::from(v) >> events != 0 {
                return Err(format!("{field}: an event card that does not exist"));
            }
        }
        if let Some(e) = s.event.filter(|&e| usize::from(e) >= events) {
            return Err(format!("event: no event card {e}"));
        }
        if let Some(c) = s
            .character
            .iter()
            .find(|&&c| c != NOBODY && usize::from(c) >= self.data.characters.len())
        {
            return Err(format!("character: no character {c}"));
        }
        Ok(())
    }

    /// Today's income, the money to spend and the game's totals within bounds.
    fn check_money(&self, s: &State) -> Result<(), String> {
        let within = |x: i32| (-MONEY_LIMIT..=MONEY_LIMIT).contains(&x);
        for (field, x) in [("income", s.income), ("margin", s.margin)] {
            if !within(x) {
                return Err(format!("{field}: ${x} past any day (${MONEY_LIMIT})"));
            }
        }
        if !(0..=MONEY_LIMIT).contains(&s.money) {
            return Err(format!(
                "money: ${} is not from 0 to {MONEY_LIMIT}",
                s.money
            ));
        }
        if let Some(x) = s.day_income.iter().find(|&&x| !within(x)) {
            return Err(format!("day_income: ${x} past any day (${MONEY_LIMIT})"));
        }
        if let Some(d) = (usize::from(s.day)..DAYS).find(|&d| s.day_income[d] != 0) {
            return Err(format!("day_income: day {} not played has income", d + 1));
        }
        let served: u16 = s.served_total.iter().sum();
        if served > SERVED_LIMIT || s.late_total > served {
            return Err(format!(
                "served_total: {served} customers ({} late, late_total) past any game",
                s.late_total
            ));
        }
        Ok(())
    }

    /// A pending preparation: only in play or after closing, with nothing else pending, its
    /// ingredient, method and first die within the data, and some way to finish it.
    fn check_preparing(&self, s: &State) -> Result<(), String> {
        let Some(p) = s.preparing else {
            return Ok(());
        };
        let in_play = matches!(
            s.phase,
            Phase::Business | Phase::Washing | Phase::AfterClose { .. }
        );
        if !in_play || s.choose.is_some() || s.second_cube.is_some() {
            return Err(format!(
                "preparing: pending in {:?} (choose {:?}, second_cube {:?})",
                s.phase, s.choose, s.second_cube
            ));
        }
        if usize::from(p.ingredient) >= self.data.ingredients.len()
            || usize::from(p.method) >= super::data::METHODS
        {
            return Err(format!(
                "preparing: ingredient {} by method {} is not in the data",
                p.ingredient, p.method
            ));
        }
        if let Some(d) = p.first {
            if d.owner >= self.players || !(1..=6).contains(&d.face) {
                return Err(format!(
                    "preparing: first die {} of seat {} is not at the table",
                    d.face, d.owner
                ));
            }
        }
        let mut finish = Vec::new();
        self.choices(s, &mut finish);
        if finish.is_empty() {
            return Err(format!(
                "preparing: no preparation open to seat {}, the seat to move (by clock, phase), \
                 continues it (dice, cubes, ingredient_owner, upgrades, track)",
                self.preparer(s)
            ));
        }
        Ok(())
    }

    /// Days met and the phase agree with the day: a missed goal ends the game; the day is open
    /// exactly in Open for Business and the wash.
    fn check_progress(&self, s: &State) -> Result<(), String> {
        let over = s.phase == Phase::Over;
        if s.days_met > s.day || s.days_met + 1 < s.day {
            return Err(format!("days_met: {} on day {}", s.days_met, s.day));
        }
        if over && s.days_met != DAYS as u8 && s.days_met + 1 != s.day {
            return Err(format!(
                "days_met: {} in a game over on day {}",
                s.days_met, s.day
            ));
        }
        let setting_up = matches!(
            s.phase,
            Phase::ChooseCharacters | Phase::ExtraDie | Phase::GiveIngredients
        );
        if !s.opened && (!setting_up || s.day != 1) {
            return Err(format!("opened: false in {:?} on day {}", s.phase, s.day));
        }
        if s.opened && matches!(s.phase, Phase::ChooseCharacters | Phase::ExtraDie) {
            return Err(format!("opened: true in {:?}", s.phase));
        }
        let open = matches!(s.phase, Phase::Business | Phase::Washing);
        if s.opened && open != (s.closing == Closing::Open) {
            return Err(format!(
                "phase: {:?} with the day's closing {:?}",
                s.phase, s.closing
            ));
        }
        if (s.cubes_to_give > 0) != (s.phase == Phase::GiveCubes) {
            return Err(format!(
                "cubes_to_give: {} in {:?}",
                s.cubes_to_give, s.phase
            ));
        }
        Ok(())
    }

    /// Today's counts agree with today's served cards: each served customer was on time or
    /// late, and counted to the seat that served it. (Daily Accounting returns the served
    /// cards to the deck and keeps the counts: the cards are compared only until then.)
    fn check_today(&self, s: &State) -> Result<(), String> {
        let n = usize::from(self.players);
        let count = |v: &[u8]| v[..n].iter().map(|&x| u32::from(x)).sum::<u32>();
        let served = count(&s.served_count);
        let day = matches!(
            s.phase,
            Phase::Business | Phase::Washing | Phase::AfterClose { .. }
        );
        let cards = if day { s.served } else { s.on_time_cards };
        if day && served != s.served.count_ones() {
            return Err(format!(
                "served_count: {served} customers, served holds {}",
                s.served.count_ones()
            ));
        }
        let on_time = count(&s.on_time);
        if on_time + u32::from(s.late) != served || (0..n).any(|i| s.on_time[i] > s.served_count[i])
        {
            return Err(format!(
                "on_time: {on_time} on time and {} late (late) of {served} served",
                s.late
            ));
        }
        if s.on_time_cards & !cards != 0 || s.on_time_cards.count_ones() != on_time {
            return Err("on_time_cards: not today's on-time served customers".into());
        }
        if (0..n).any(|i| s.served_total[i] < u16::from(s.served_count[i]))
            || s.late_total < u16::from(s.late)
        {
            return Err("served_total: fewer than today's (late_total, late)".into());
        }
        if day && s.served == 0 && s.last_recipe != NOBODY {
            return Err("last_recipe: set before any customer today".into());
        }
        Ok(())
    }
}
