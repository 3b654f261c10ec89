//! Conservation checks: dice, cubes, Hustle tokens and customer cards are conserved, tracks stay
//! within bounds and the timers agree with the phase. Used by the tests after every action, and
//! by the state load check.

use super::data::CUSTOMER_SLOTS;
use super::state::{Phase, State, DIRTY, MAX_DICE, NOBODY};
use super::WokStar;

impl WokStar {
    /// Checks every invariant of `s`; the error says which one fails.
    pub fn check_invariants(&self, s: &State) -> Result<(), String> {
        self.check_seat_dice(s)?;
        self.check_tokens(s)?;
        self.check_ingredients(s)?;
        self.check_cards(s)?;
        self.check_timers(s)?;
        self.check_phase(s)
    }

    /// Players, the day, and each seat's dice.
    fn check_seat_dice(&self, s: &State) -> Result<(), String> {
        let rb = &self.data.rulebook;
        let n = self.players as usize;
        if s.players != self.players {
            return Err(format!("players {} in a {n}-player game", s.players));
        }
        if !(1..=super::data::DAYS as u8).contains(&s.day) {
            return Err(format!("day {} out of 1..=4", s.day));
        }
        for i in 0..n {
            let c = s.dice_count[i];
            if c < rb.start_dice || c > rb.max_dice || c as usize > MAX_DICE {
                return Err(format!("seat {i} has {c} dice"));
            }
            if s.dice[i].iter().any(|&d| d > 6) {
                return Err(format!("seat {i} has a die face out of 1..=6"));
            }
            if s.dice[i][c as usize..].iter().any(|&d| d != DIRTY) {
                return Err(format!("seat {i} has a face on a die it does not own"));
            }
        }
        for i in n..s.dice_count.len() {
            if s.dice_count[i] != 0 || s.cubes[i] != 0 || s.clock[i] != 0 {
                return Err(format!(
                    "seat {i} does not play, yet has dice, cubes or time"
                ));
            }
        }
        Ok(())
    }

    /// Fortune cubes and Hustle tokens: as many as the box holds.
    fn check_tokens(&self, s: &State) -> Result<(), String> {
        let rb = &self.data.rulebook;
        let cubes: u32 = s.cubes.iter().map(|&c| u32::from(c)).sum::<u32>()
            + s.tracker_cubes.count_ones()
            + u32::from(s.cube_supply)
            + u32::from(s.cubes_to_give);
        if cubes != u32::from(rb.fortune_cubes) {
            return Err(format!(
                "cubes, tracker_cubes, cube_supply, cubes_to_give: {cubes} Fortune cubes, the box has {}",
                rb.fortune_cubes
            ));
        }
        let hustle =
            u32::from(s.hustle_pool) + u32::from(s.hustle_supply) + u32::from(s.hustle_covering);
        if hustle != u32::from(rb.hustle_tokens) {
            return Err(format!(
                "hustle_pool, hustle_supply, hustle_covering: {hustle} Hustle tokens, the box has {}",
                rb.hustle_tokens
            ));
        }
        Ok(())
    }

    /// The ingredients in play: track tokens within the track, upgrades, covering Hustle
    /// tokens and owners.
    fn check_ingredients(&self, s: &State) -> Result<(), String> {
        let rb = &self.data.rulebook;
        let n = self.players as usize;
        let in_play = self.ingredients_in_play(s);
        let mut covering = 0u32;
        for k in 0..self.data.ingredients.len() {
            if in_play & (1 << k) == 0 {
                if s.track[k] != 0 || s.upgrades[k] != 0 {
                    return Err(format!(
                        "track, upgrades: ingredient {k} is not in play (ingredient_owner, pending), yet has a token or upgrades"
                    ));
                }
                continue;
            }
            let t = s.track[k];
            if t < self.data.track.min || t > self.data.track.max {
                return Err(format!("track: ingredient {k}'s token on slot {t}"));
            }
            if s.upgrades[k] > rb.covered_methods {
                return Err(format!("upgrades: ingredient {k} has {}", s.upgrades[k]));
            }
            covering += u32::from(rb.covered_methods - s.upgrades[k]);
            let o = s.ingredient_owner[k];
            if o != NOBODY && o as usize >= n {
                return Err(format!("ingredient_owner: ingredient {k} held by seat {o}"));
            }
        }
        if covering != u32::from(s.hustle_covering) {
            return Err(format!(
                "hustle_covering: {} covering Hustle tokens, the cards in play (ingredient_owner, pending) need {covering}",
                s.hustle_covering
            ));
        }
        Ok(())
    }

    /// The timers against the phase, and a pending second cube move.
    fn check_timers(&self, s: &State) -> Result<(), String> {
        let cap = self.capacity;
        if s.timers.iter().any(|t| t.top > cap) {
            return Err("timers: a timer holds more sand than it can".into());
        }
        let standing = s.timers.iter().all(|t| t.standing);
        match s.phase {
            Phase::Washing if s.timers.iter().any(|t| t.standing) => {
                return Err("timers: a timer runs during a wash (phase)".into())
            }
            Phase::Business if !standing => {
                return Err("timers: a timer lies down outside a wash (phase)".into())
            }
            Phase::Business if s.customer.is_none() && s.event.is_none() => {
                return Err("customer, event: open for business with neither showing".into())
            }
            Phase::AfterClose { seat } if seat >= self.players => {
                return Err(format!("phase: after-close turn of seat {seat}"))
            }
            _ => {}
        }
        if let Some(seat) = s.second_cube {
            if seat >= self.players
                || !matches!(
                    s.phase,
                    Phase::Business | Phase::Washing | Phase::AfterClose { .. }
                )
            {
                return Err(format!(
                    "second_cube: a cube move pending for seat {seat} in {:?}",
                    s.phase
                ));
            }
        }
        Ok(())
    }

    fn check_events(&self, s: &State) -> Result<(), String> {
        let all = ((1u32 << self.data.events.len()) - 1) as u16;
        let parts = [s.event_deck, s.event_box, s.events_today, s.events_gone];
        let mut seen = 0u16;
        for p in parts {
            if seen & p != 0 {
                return Err("event_deck, event_box, events_today, events_gone: an event card is in two places".into());
            }
            seen |= p;
        }
        let expected = if self.params.events { all } else { 0 };
        if seen != expected {
            return Err("event_deck, event_box, events_today, events_gone: event cards are lost, or appear without the Events rule".into());
        }
        if let Some(e) = s.event {
            if e as usize >= self.data.events.len() || s.events_today & (1 << e) == 0 {
                return Err(format!("event {e} shows but did not appear today"));
            }
            if s.customer.is_some() {
                return Err("an event and a customer show at once".into());
            }
        }
        if let Some((seat, by)) = s.choose {
            if seat >= self.players
                || by == 0
                || !matches!(s.phase, Phase::Business)
                || s.event.is_none()
            {
                return Err("choose: an ingredient choice pending outside an event".into());
            }
        }
        if s.double_next && !self.params.events {
            return Err("double_next: a doubled dish without the Events rule".into());
        }
        Ok(())
    }

    fn check_powers(&self, s: &State) -> Result<(), String> {
        let n = self.players as usize;
        if !self.params.powers {
            if s.character.iter().any(|&c| c != NOBODY) || s.powers_used != 0 {
                return Err(
                    "character, powers_used: characters without the Player Powers rule".into(),
                );
            }
            return Ok(());
        }
        for i in 0..s.character.len() {
            let c = s.character[i];
            if c == NOBODY {
                if s.phase != Phase::ChooseCharacters && i < n {
                    return Err(format!("seat {i} has no character after set-up"));
                }
                continue;
            }
            if i >= n || c as usize >= self.data.characters.len() {
                return Err(format!("seat {i} holds character {c}"));
            }
            if s.character[..i].contains(&c) {
                return Err(format!("character {c} is held twice"));
            }
        }
        if u32::from(s.powers_used) >> n != 0 {
            return Err("powers_used: a power used by a seat that does not play".into());
        }
        Ok(())
    }

    fn check_phase(&self, s: &State) -> Result<(), String> {
        self.check_events(s)?;
        self.check_powers(s)?;
        let ingredients = self.data.ingredients.len();
        if u32::from(s.pending) >> ingredients != 0 {
            return Err("pending: an ingredient card that does not exist".into());
        }
        for &r in &s.offer {
            if r != NOBODY
                && (r as usize >= self.data.recipes.len() || s.recipe_owner[r as usize] != NOBODY)
            {
                return Err(format!("offer: recipe {r} cannot be on offer"));
            }
        }
        if u16::from(s.waited) >> self.players != 0 {
            return Err(format!(
                "waited: bits {:#b} name a seat past the players",
                s.waited
            ));
        }
        if s.phase == Phase::Business
            && s.second_cube.is_none()
            && s.choose.is_none()
            && self.all_waited(s)
        {
            return Err("waited: every seat has waited, yet the day is open".into());
        }
        let last_day = s.day as usize == super::data::DAYS;
        match s.phase {
            Phase::ChooseCharacters if !self.params.powers || s.opened => {
                Err("phase: characters are chosen only at set-up, with Player Powers (opened)".into())
            }
            Phase::ExtraDie
                if self.players != 2
                    || s.opened
                    || s.dice_count[..2]
                        .iter()
                        .any(|&d| d != self.data.rulebook.start_dice) =>
            {
                Err("phase: the extra die is handed out only at a 2-player set-up, before any (dice_count)".into())
            }
            Phase::GiveIngredients if s.pending == 0 => {
                Err("pending: handing out ingredient cards (phase) with none waiting".into())
            }
            Phase::GiveCubes if s.cubes_to_give == 0 || last_day => {
                Err("cubes_to_give: handing out cubes (phase) with none gained, or after the last day".into())
            }
            Phase::Prep if last_day || !s.opened => Err("phase: Next Day Prep after the last day".into()),
            Phase::Business | Phase::Washing | Phase::AfterClose { .. } if !s.opened => {
                Err("opened: open for business (phase) before set-up ended".into())
            }
            _ if s.phase != Phase::GiveCubes && s.cubes_to_give != 0 => {
                Err("cubes_to_give: cubes to hand out outside Daily Accounting (phase)".into())
            }
            _ => Ok(()),
        }
    }

    fn check_cards(&self, s: &State) -> Result<(), String> {
        let n = self.players as usize;
        let mut all_regular = 0u128;
        let mut all_coupon = 0u128;
        for r in 0..super::data::MAX_RECIPES {
            let o = s.recipe_owner[r];
            if o == NOBODY {
                continue;
            }
            if r >= self.data.recipes.len() || o as usize >= n {
                return Err(format!("recipe_owner: recipe {r} held by seat {o}"));
            }
            all_regular |= self.regular_cards(r);
            all_coupon |= self.coupon_cards(r);
        }
        let current = s
            .customer
            .map_or(0u128, |c| 1u128.checked_shl(u32::from(c)).unwrap_or(0));
        if s.customer.is_some() && current == 0 {
            return Err("customer: no such card".into());
        }
        let parts = [s.deck, s.coupons, s.served, current];
        let mut seen = 0u128;
        for p in parts {
            if seen & p != 0 {
                return Err(
                    "deck, coupons, served, customer: a customer card is in two places".into(),
                );
            }
            seen |= p;
        }
        if seen != all_regular | all_coupon {
            return Err("deck, coupons, served, customer: customer cards are lost or come from recipes not in play (recipe_owner)".into());
        }
        if s.coupons & all_regular != 0 {
            return Err("coupons: a Regular customer in the Coupon pile".into());
        }
        let _ = CUSTOMER_SLOTS;
        Ok(())
    }

    pub(crate) fn name_action(&self, s: &State, a: super::Action) -> String {
        use super::Action as A;
        let ing = |k: u8| {
            self.data
                .ingredients
                .get(k as usize)
                .map_or_else(|| format!("ingredient {k}"), |x| x.name.clone())
        };
        let p = |seat: u8| format!("player {}", u32::from(seat) + 1);
        match a {
            A::ExtraDie(x) => format!("{} starts with the extra die", p(x)),
            A::GiveIngredient(x) => {
                let k = s.pending.trailing_zeros();
                format!("give the {} card to {}", ing(k.min(255) as u8), p(x))
            }
            A::Serve => match s.customer {
                Some(c) => {
                    let r = &self.data.recipes
                        [(c as usize / CUSTOMER_SLOTS).min(self.data.recipes.len() - 1)];
                    format!("serve {} (${})", r.name, self.customer_income(c).0)
                }
                None => "serve".into(),
            },
            A::Prepare { ingredient, method } => format!(
                "prepare {} by method {}: choose the dice",
                ing(ingredient),
                u32::from(method) + 1
            ),
            A::UseDie(d) => {
                let me = crate::game::Game::to_move(self, s).unwrap_or(0);
                let die = if d.owner == me {
                    format!("{}", d.face)
                } else {
                    format!("{} of {}", d.face, p(d.owner))
                };
                match s.preparing {
                    Some(x) if x.first.is_some() => format!("second die: {die}"),
                    _ => format!("first die: {die}"),
                }
            }
            A::GainHustle(f) => format!("turn a {f} into a Hustle token"),
            A::Rotate { owner, face, up } => format!(
                "Hustle: turn {}'s {face} {}",
                p(owner),
                if up { "up" } else { "down" }
            ),
            A::HustleCubes { from, to } => format!("Hustle: a cube from {} to {}", p(from), p(to)),
            A::SecondCube { from, to } => format!("second cube from {} to {}", p(from), p(to)),
            A::NoSecondCube => "no second cube".into(),
            A::Wash => "run the Dishwasher".into(),
            A::EndWash => "end the wash: re-roll the dirty dice".into(),
            A::Wait => "wait".into(),
            A::Character(c) => format!(
                "{} for the next player",
                self.data
                    .characters
                    .get(c as usize)
                    .map_or_else(|| format!("character {c}"), |x| x.name.clone())
            ),
            A::UsePower => "use the character's power".into(),
            A::PowerServe { using } => format!("serve with {} instead (power)", ing(using)),
            A::PowerPrepare { ingredient, method } => format!(
                "prepare {} by method {} with other players' dice, no cubes (power): choose the dice",
                ing(ingredient),
                u32::from(method) + 1
            ),
            A::SetDie { face, to } => format!("turn a {face} to {to} (power)"),
            A::ChooseIngredient(k) => format!("move {} up (Grandma's Pantry)", ing(k)),
            A::Close => "close for the day".into(),
            A::Done => "done with the leftover dice".into(),
            A::GiveCube(x) => format!("give a gained Fortune cube to {}", p(x)),
            A::BuyRecipe { slot, seat } => {
                let r = s.offer.get(slot as usize).copied().unwrap_or(NOBODY);
                let name = self.data.recipes.get(r as usize).map_or_else(
                    || format!("offer {slot}"),
                    |x| format!("{} (${})", x.name, x.price),
                );
                format!("buy {name} for {}", p(seat))
            }
            A::Upgrade(k) => format!("upgrade {}", ing(k)),
            A::BuyHustle => "buy a Hustle token".into(),
            A::Advertise => "advertise: one more Coupon customer".into(),
            A::OpenDay => "open the next day".into(),
        }
    }
}
