//! Set-up, opening a day, closing it, Daily Accounting and the start of Next Day Prep.

use super::clock::Timer;
use super::data::{CUSTOMER_SLOTS, DAYS, MAX_REGULAR};
use super::params::{DiceGrowth, RecipeOffer};
use super::state::{Closing, Phase, Short, State, DIRTY, MAX_PLAYERS, NOBODY};
use super::WokStar;
use crate::bytes::bytes_equal;
use rand::Rng;

/// Recipe `r`'s Regular customer cards and its Coupon customer cards (bit sets): a recipe's
/// cards take [`CUSTOMER_SLOTS`] bits, its Regular customers first.
pub(crate) fn customer_cards(data: &super::data::WokData, r: usize) -> (u128, u128) {
    let rec = &data.recipes[r];
    let ones = |n: usize| (1u128 << n) - 1;
    (
        ones(rec.regular.len()) << (r * CUSTOMER_SLOTS),
        ones(rec.coupon.len()) << (r * CUSTOMER_SLOTS + MAX_REGULAR),
    )
}

/// The lowest `n` bits (`n` at most 16: the data holds at most 16 recipes and 16 ingredients).
fn first_bits(n: usize) -> u16 {
    ((1u32 << n) - 1) as u16
}

/// A uniformly drawn set bit of `set` (which must not be empty).
pub(crate) fn draw_bit<R: Rng + ?Sized>(set: u128, rng: &mut R) -> u8 {
    let n = set.count_ones();
    let mut k = rng.gen_range(0..n);
    let mut s = set;
    loop {
        let b = s.trailing_zeros();
        if k == 0 {
            return b as u8;
        }
        k -= 1;
        s &= s - 1;
    }
}

impl WokStar {
    /// The Regular customer cards of recipe `r` (bit set).
    pub(crate) fn regular_cards(&self, r: usize) -> u128 {
        self.customer_cards[r].0
    }

    /// The Coupon customer cards of recipe `r` (bit set).
    pub(crate) fn coupon_cards(&self, r: usize) -> u128 {
        self.customer_cards[r].1
    }

    /// A customer card's income, and whether it is a Coupon customer.
    pub fn customer_income(&self, card: u8) -> (u8, bool) {
        let r = &self.data.recipes[card as usize / CUSTOMER_SLOTS];
        let slot = card as usize % CUSTOMER_SLOTS;
        if slot < MAX_REGULAR {
            (r.regular[slot], false)
        } else {
            (r.coupon[slot - MAX_REGULAR], true)
        }
    }

    /// Every ingredient card of the data (bit set).
    pub(crate) fn ingredient_cards(&self) -> u16 {
        first_bits(self.data.ingredients.len())
    }

    /// Ingredient cards in play or waiting to be handed out (bit set).
    pub(crate) fn ingredients_in_play(&self, s: &State) -> u16 {
        s.pending | !bytes_equal(&s.ingredient_owner, NOBODY) & self.ingredient_cards()
    }

    /// The recipes someone owns (bit set).
    pub(crate) fn recipes_owned(&self, s: &State) -> u16 {
        !bytes_equal(&s.recipe_owner, NOBODY) & first_bits(self.data.recipes.len())
    }

    /// Puts recipe `r` in play for `seat`: its new ingredient cards wait to be handed out, with
    /// their tokens on the start row and their methods covered; its customers join the decks.
    pub(crate) fn add_recipe(&self, s: &mut State, r: usize, seat: u8) {
        s.recipe_owner[r] = seat;
        let new = self.data.recipes[r].ingredient_set & !self.ingredients_in_play(s);
        let mut left = new;
        while left != 0 {
            let k = left.trailing_zeros() as usize;
            left &= left - 1;
            s.track[k] = self.data.track.start;
            s.upgrades[k] = 0;
            for _ in 0..self.data.rulebook.covered_methods {
                // The supply first, then the pool (the box's 25 tokens always cover 20).
                if s.hustle_supply > 0 {
                    s.hustle_supply -= 1;
                } else if s.hustle_pool > 0 {
                    s.hustle_pool -= 1;
                } else {
                    break;
                }
                s.hustle_covering += 1;
            }
        }
        s.pending |= new;
        s.deck |= self.regular_cards(r);
        s.coupons |= self.coupon_cards(r);
    }

    /// Set-up: recipes dealt by player count, ingredient cards waiting to be handed out, dice
    /// and cubes given.
    pub(crate) fn set_up<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        let rb = &self.data.rulebook;
        let n = self.players as usize;
        let mut dice_count = [0u8; MAX_PLAYERS];
        let mut cubes = [0u8; MAX_PLAYERS];
        for i in 0..n {
            dice_count[i] = rb.start_dice;
            cubes[i] = rb.start_fortune_cubes;
        }
        let mut s = State {
            players: self.players,
            phase: Phase::GiveIngredients,
            day: 1,
            opened: false,
            clock: [0; MAX_PLAYERS],
            timers: [Timer::empty(0); 2],
            washes_left: rb.washes_per_day,
            dice: [[DIRTY; super::state::MAX_DICE]; MAX_PLAYERS],
            dice_count,
            cubes,
            tracker_cubes: (1 << DAYS) - 1,
            cube_supply: rb.fortune_cubes - rb.start_fortune_cubes * self.players - DAYS as u8,
            cubes_to_give: 0,
            hustle_pool: 0,
            hustle_supply: rb.hustle_tokens,
            hustle_covering: 0,
            recipe_owner: [NOBODY; super::data::MAX_RECIPES],
            ingredient_owner: [NOBODY; super::data::MAX_INGREDIENTS],
            pending: 0,
            upgrades: [0; super::data::MAX_INGREDIENTS],
            track: [0; super::data::MAX_INGREDIENTS],
            deck: 0,
            coupons: 0,
            served: 0,
            customer: None,
            on_time: [0; MAX_PLAYERS],
            served_count: [0; MAX_PLAYERS],
            late: 0,
            income: 0,
            closing: Closing::Open,
            money: 0,
            offer: [NOBODY; 3],
            second_cube: None,
            days_met: 0,
            margin: 0,
            steps: 0,
            day_income: [0; DAYS],
            day_closing: [Closing::Open; DAYS],
            day_short: [Short::Nothing; DAYS],
            served_total: [0; MAX_PLAYERS],
            late_total: 0,
            on_time_cards: 0,
            event_deck: 0,
            event_box: if self.params.events {
                ((1u32 << self.data.events.len()) - 1) as u16
            } else {
                0
            },
            events_today: 0,
            events_gone: 0,
            event: None,
            event_at: 0,
            double_next: false,
            choose: None,
            character: [NOBODY; MAX_PLAYERS],
            powers_used: 0,
            last_recipe: NOBODY,
            waited: 0,
            preparing: None,
        };
        // "Deal each player 1 random Recipe card from the following priced piles."
        for (seat, &pile) in self.setup_piles.iter().enumerate() {
            let r = draw_bit(u128::from(pile & !self.recipes_owned(&s)), rng) as usize;
            self.add_recipe(&mut s, r, seat as u8);
        }
        s.phase = self.after_characters();
        if self.params.powers {
            s.phase = Phase::ChooseCharacters;
        }
        s
    }

    /// The set-up step after the characters are chosen.
    pub(crate) fn after_characters(&self) -> Phase {
        if self.players == 2 && self.data.rulebook.two_player_extra_dice > 0 {
            Phase::ExtraDie
        } else {
            Phase::GiveIngredients
        }
    }

    /// Opens a day: every die rolled, one timer flipped, the first customer revealed.
    pub(crate) fn open_day<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        s.opened = true;
        s.phase = Phase::Business;
        s.closing = Closing::Open;
        s.waited = 0;
        s.washes_left = self.data.rulebook.washes_per_day;
        s.served = 0;
        s.on_time = [0; MAX_PLAYERS];
        s.served_count = [0; MAX_PLAYERS];
        s.late = 0;
        s.income = 0;
        s.second_cube = None;
        for i in 0..self.players as usize {
            for d in 0..s.dice_count[i] as usize {
                s.dice[i][d] = rng.gen_range(1..=6);
            }
            // "All players simultaneously roll their dice".
            s.clock[i] = self.durations.roll;
        }
        s.timers = [Timer::empty(0); 2];
        s.timers[0].flip(0, self.capacity, self.params.timer_flip);
        s.on_time_cards = 0;
        // "You may flip it back over during the Next Day Prep."
        s.powers_used = 0;
        s.last_recipe = NOBODY;
        // Events: "When re-shuffling the Regular deck, draw 2 new Event cards face-down and
        // shuffle them into the deck."
        self.add_day_events(s, rng);
        self.reveal_at(s, 0, 0, rng);
        if s.customer.is_none() && s.event.is_none() {
            self.close_day(s, Closing::DeckDone);
        }
    }

    /// Closes for business; each seat may then use its leftover dice.
    pub(crate) fn close_day(&self, s: &mut State, why: Closing) {
        s.closing = why;
        s.day_short[s.day as usize - 1] = self.shortage(s);
        s.second_cube = None;
        s.phase = Phase::AfterClose { seat: 0 };
    }

    /// What keeps the waiting customer from being served now.
    fn shortage(&self, s: &State) -> Short {
        let Some(c) = s.customer else {
            return Short::Nothing;
        };
        let r = &self.data.recipes[c as usize / CUSTOMER_SLOTS];
        let blocked = r
            .ingredients
            .iter()
            .any(|&k| s.track[k as usize] <= self.data.track.min);
        if !blocked {
            return Short::Time;
        }
        let n = self.players as usize;
        let dice = (0..n).map(|i| s.unused_dice(i)).sum::<usize>();
        if dice < 2 && s.washes_left == 0 {
            Short::Dice
        } else {
            Short::Ingredients
        }
    }

    /// Daily Accounting: dice pools grow, income is counted and checked against the day's goal,
    /// and the customer cards are sorted back.
    pub(crate) fn account<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let rb = &self.data.rulebook;
        let day = s.day as usize - 1;
        for i in 0..self.players as usize {
            let count = match self.params.dice_growth {
                DiceGrowth::OnTime => s.on_time[i],
                DiceGrowth::Served => s.served_count[i],
            };
            // "Once added, dice are retained between rounds and can never be lost."
            s.dice_count[i] = s.dice_count[i].max(count.min(rb.max_dice));
            s.dice[i] = [DIRTY; super::state::MAX_DICE];
        }
        self.end_of_round_events(s);
        let goal = i32::from(self.goals[day]);
        s.day_income[day] = s.income;
        s.day_closing[day] = s.closing;
        s.margin = s.income - goal;
        // "Coupon Customers do not stay in the Regular deck."
        s.deck = 0;
        s.coupons = 0;
        let mut owned = self.recipes_owned(s);
        while owned != 0 {
            let r = owned.trailing_zeros() as usize;
            owned &= owned - 1;
            s.deck |= self.regular_cards(r);
            s.coupons |= self.coupon_cards(r);
        }
        s.served = 0;
        s.customer = None;
        if s.income < goal {
            // "If you have earned less than the required Income Goal, the game is over."
            s.phase = Phase::Over;
            return;
        }
        s.days_met += 1;
        if day + 1 == DAYS {
            s.phase = Phase::Over;
            return;
        }
        // "You gain all Fortune cubes you passed on the Income Tracker."
        for d in 0..DAYS {
            let g = i32::from(self.goals[d]);
            let passed = s.income > g || (s.income == g && self.params.cube_at_income_passed);
            if s.tracker_cubes & (1 << d) != 0
                && passed
                && (d == day || self.params.early_goal_cubes)
            {
                s.tracker_cubes &= !(1 << d);
                s.cubes_to_give += 1;
            }
        }
        if s.cubes_to_give > 0 {
            s.phase = Phase::GiveCubes;
        } else {
            self.start_prep(s, rng);
        }
    }

    /// Next Day Prep: the day's income becomes money to spend; recipes are drawn for the offer.
    pub(crate) fn start_prep<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        s.money = s.income;
        s.phase = Phase::Prep;
        self.draw_offer(s, rng);
    }

    /// Draws the recipe offer from the recipes not in the game.
    pub(crate) fn draw_offer<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        s.offer = [NOBODY; 3];
        let mut left = u128::from(self.recipe_box & !self.recipes_owned(s));
        let k = usize::from(self.data.rulebook.recipe_offer).min(3);
        for slot in 0..k {
            if left == 0 {
                break;
            }
            let r = draw_bit(left, rng);
            left &= !(1u128 << r);
            s.offer[slot] = r;
        }
    }

    /// After a purchase under `recipe_offer = each-purchase`, the offer is drawn again.
    pub(crate) fn after_purchase<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        if self.params.recipe_offer == RecipeOffer::EachPurchase {
            self.draw_offer(s, rng);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::params::Params;
    use super::super::state::NOBODY;
    use super::super::WokStar;
    use super::{CUSTOMER_SLOTS, MAX_REGULAR};
    use crate::{rng_from_seed, Game};
    use rand::Rng;

    /// The tables built with the game are their definitions: each dealt price's pile is the
    /// recipes of that price in the box, and each recipe's customer cards are its slots.
    #[test]
    fn set_up_piles_and_customer_cards_are_their_definitions() {
        for players in crate::wok_star::INFO.players() {
            let g = WokStar::with_params(Params::with_players(players)).unwrap();
            let prices = &g.data.rulebook.setup_recipes[&players];
            assert_eq!(g.setup_piles.len(), prices.len());
            for (&pile, &price) in g.setup_piles.iter().zip(prices) {
                for (r, rec) in g.data.recipes.iter().enumerate() {
                    let want = rec.price == price && g.recipe_box & (1 << r) != 0;
                    assert_eq!(pile >> r & 1 == 1, want, "{players} players, recipe {r}");
                }
            }
            for (r, rec) in g.data.recipes.iter().enumerate() {
                for slot in 0..CUSTOMER_SLOTS {
                    let card = r * CUSTOMER_SLOTS + slot;
                    let regular = slot < rec.regular.len();
                    let coupon = (MAX_REGULAR..MAX_REGULAR + rec.coupon.len()).contains(&slot);
                    assert_eq!(g.regular_cards(r) >> card & 1 == 1, regular, "{r}/{slot}");
                    assert_eq!(g.coupon_cards(r) >> card & 1 == 1, coupon, "{r}/{slot}");
                }
            }
        }
    }

    /// A data file whose set-up deals more recipes of a price than the box holds at that
    /// player count is refused, naming the field: at 2 players the $31 recipes are removed, so
    /// two $31 piles are empty, and two $11 piles need two $11 recipes.
    #[test]
    fn a_set_up_price_with_too_few_recipes_is_refused_naming_the_field() {
        use super::super::data::WokData;
        use crate::data_file::DataFile;
        let mut data = WokData::embedded();
        data.rulebook.setup_recipes.insert(2, vec![31, 31]);
        let err = WokStar::new(data, Params::with_players(2)).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("rulebook.setup_recipes.2"), "{msg}");
        assert!(
            msg.contains("2 recipes of $31 are dealt, the data has 0"),
            "{msg}"
        );
        let mut data = WokData::embedded();
        let elevens = data.recipes.iter().filter(|r| r.price == 11).count();
        data.rulebook.setup_recipes.insert(3, vec![11; 3]);
        let ok = WokStar::new(data, Params::with_players(3));
        assert_eq!(ok.is_ok(), elevens >= 3, "{elevens} recipes of $11");
    }

    /// The ingredient cards in play and the recipes owned, found a word at a time, are those
    /// found owner by owner, at every step of random games.
    #[test]
    fn cards_in_play_and_recipes_owned_are_those_found_one_by_one() {
        let mut rng = rng_from_seed(8);
        let mut legal = Vec::new();
        for game in 0..300u32 {
            let g = WokStar::with_params(Params::with_players(2 + (game % 3) as u8)).unwrap();
            let mut s = g.new_state(&mut rng);
            while !s.is_over() {
                let in_play = (0..g.data.ingredients.len())
                    .filter(|&k| s.ingredient_owner[k] != NOBODY)
                    .fold(s.pending, |m, k| m | 1 << k);
                assert_eq!(g.ingredients_in_play(&s), in_play);
                let owned = (0..g.data.recipes.len())
                    .filter(|&r| s.recipe_owner[r] != NOBODY)
                    .fold(0u16, |m, r| m | 1 << r);
                assert_eq!(g.recipes_owned(&s), owned);
                g.legal_actions(&s, &mut legal);
                let a = legal[rng.gen_range(0..legal.len())];
                g.apply(&mut s, a, &mut rng);
            }
        }
    }
}
