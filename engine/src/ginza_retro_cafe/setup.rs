//! Set-up (player cards, personal set-up, the bonus draft, customers), customer arrivals and the
//! end of a round.

use super::params::{SetupTie, StartTie};
use super::state::{CardId, Phase, Picking, Place, State, MAX_PLAYERS, PLACES};
use super::{draw_bit, roll, GinzaRetroCafe};
use rand::Rng;

impl GinzaRetroCafe {
    /// A new game: player cards and bonus cards dealt; the first seat chooses its player card.
    pub(crate) fn set_up<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        let n = usize::from(self.players);
        let mut s = State {
            phase: Phase::ChoosePlayerCard { seat: 0 },
            picking: Picking::Nothing,
            players: self.players,
            round: 0,
            turns: 0,
            start_player: 0,
            first_start: 0,
            card_dealt: [[CardId::NONE; 2]; MAX_PLAYERS],
            card: [CardId::NONE; MAX_PLAYERS],
            levels: [[1; 3]; MAX_PLAYERS],
            limit: [0; MAX_PLAYERS],
            dice: [[0; 6]; MAX_PLAYERS],
            tokens: [0; MAX_PLAYERS],
            parked: [0; MAX_PLAYERS],
            parked_on: [0; MAX_PLAYERS],
            coins: [0; MAX_PLAYERS],
            won_orders: [0; MAX_PLAYERS],
            purple_held: [0; MAX_PLAYERS],
            common: [0; 6],
            bonus_used: 0,
            bonus_offer: [[CardId::NONE; 3]; MAX_PLAYERS],
            bonus_hand: [[CardId::NONE; 2]; MAX_PLAYERS],
            bonus_passed: [[CardId::NONE; 2]; MAX_PLAYERS],
            bonus_discard: [CardId::NONE; MAX_PLAYERS],
            bonus_box: 0,
            card_box: 0,
            places: [Place::EMPTY; PLACES],
            deck: [0; 3],
            arrived: [0; 3],
            order_deck: 0,
            order_discard: 0,
            served: 0,
            left_unserved: 0,
        };
        let dealt = usize::from(self.data.rulebook.player_cards_dealt);
        let mut pool = (1u64 << self.data.players.len()) - 1;
        for seat in 0..n {
            for k in 0..dealt {
                let c = draw_bit(pool, rng);
                pool &= !(1 << c);
                s.card_dealt[seat][k] = CardId::new(c as u8);
            }
        }
        s.card_box = pool as u16;
        let mut bonus = (1u64 << self.data.bonus.len()) - 1;
        for seat in 0..n {
            for k in 0..3 {
                let c = draw_bit(bonus, rng);
                bonus &= !(1 << c);
                s.bonus_offer[seat][k] = CardId::new(c as u8);
            }
        }
        s.bonus_box = bonus as u16;
        s
    }

    /// Every seat has chosen its player card: the cards are revealed, and each player takes
    /// Arrange cards, action tokens and 5 rolled dice; the draft begins.
    pub(crate) fn after_cards<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let rb = &self.data.rulebook;
        for seat in 0..usize::from(self.players) {
            s.levels[seat] = [1; 3];
            s.tokens[seat] = self.tokens;
            s.limit[seat] = rb.start_dice;
            s.dice[seat] = [0; 6];
            for _ in 0..rb.start_dice {
                s.dice[seat][usize::from(roll(rng)) - 1] += 1;
            }
        }
        s.phase = Phase::Draft {
            seat: 0,
            second: false,
        };
    }

    /// Every seat has made its first pick: each passes the other two to its left.
    pub(crate) fn pass_bonus(&self, s: &mut State) {
        let n = usize::from(self.players);
        for seat in 0..n {
            let mut rest = [CardId::NONE; 2];
            let mut k = 0;
            for &c in &s.bonus_offer[seat] {
                if c.is_some() && k < 2 {
                    rest[k] = c;
                    k += 1;
                }
            }
            s.bonus_passed[seat] = rest;
        }
        for seat in 0..n {
            let from = (seat + n - 1) % n;
            let p = s.bonus_passed[from];
            s.bonus_offer[seat] = [p[0], p[1], CardId::NONE];
        }
    }

    /// The draft is over: "Start the game with..." abilities apply, the start player is the
    /// lowest dice total, and the customers are set up; the first round begins.
    pub(crate) fn after_draft<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let n = usize::from(self.players);
        for seat in 0..n {
            let pc = &self.data.players[s.player_card(seat)];
            s.levels[seat] = pc.start_levels();
            while s.limit[seat] < pc.dice_limit_start {
                s.limit[seat] += 1;
                s.dice[seat][usize::from(roll(rng)) - 1] += 1;
            }
        }
        let total = |seat: usize| -> u32 {
            s.dice[seat]
                .iter()
                .enumerate()
                .map(|(f, &k)| (f as u32 + 1) * u32::from(k))
                .sum()
        };
        let low = (0..n).map(total).min().unwrap_or(0);
        let tied: u64 = (0..n).filter(|&i| total(i) == low).map(|i| 1u64 << i).sum();
        // "In case of a tie, determine the start player by rock-paper-scissors or in whatever way
        // you like."
        let start = match self.params.setup_tie {
            SetupTie::Random => draw_bit(tied, rng) as u8,
            SetupTie::LowestSeat => tied.trailing_zeros() as u8,
        };
        s.start_player = start;
        s.first_start = start;
        // The start-coin variant (not in the rulebook): coins by turn position from the start
        // player.
        for (pos, &yen) in self.params.start_yen_by_position.iter().enumerate().take(n) {
            self.pay_out(s, (usize::from(start) + pos) % n, yen);
        }
        for p in 0..3 {
            let all = (1u64 << self.data.customers[p].len()) - 1;
            let mut deck = 0u64;
            for _ in 0..n {
                let c = draw_bit(all & !deck, rng);
                deck |= 1 << c;
            }
            s.deck[p] = deck as u16;
        }
        s.order_deck = if self.data.orders.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.data.orders.len()) - 1
        };
        self.roll_common(s, rng);
        for place in 0..usize::from(self.data.rulebook.customers_present) {
            self.arrive(s, place, rng);
        }
        s.round = 1;
        self.next_turn(s, start, rng);
    }

    /// The common dice, all gathered, rolled into the common area.
    pub(crate) fn roll_common<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        s.common = [0; 6];
        s.purple_held = [0; MAX_PLAYERS];
        for _ in 0..self.data.rulebook.common_dice {
            s.common[usize::from(roll(rng)) - 1] += 1;
        }
    }

    /// A customer arrives at an empty place from the top of the Customer deck (Morning first,
    /// then Daytime, then Night), with its order cards; nothing when the deck is empty.
    pub(crate) fn arrive<R: Rng + ?Sized>(&self, s: &mut State, place: usize, rng: &mut R) {
        let Some(p) = (0..3).find(|&p| s.deck[p] != 0) else {
            return;
        };
        let c = draw_bit(u64::from(s.deck[p]), rng) as usize;
        s.deck[p] &= !(1 << c);
        s.arrived[p] |= 1 << c;
        let mut pl = Place {
            card: CardId::from_index(p * 16 + c),
            time: self.data.rulebook.time_marker,
            ..Place::EMPTY
        };
        for (k, &rank) in self.data.customers[p][c].orders.iter().enumerate() {
            let ranked = self.rank_sets.get(usize::from(rank)).copied().unwrap_or(0);
            let pile = s.order_deck & ranked;
            // The build refuses data whose customers could empty a deck.
            debug_assert!(pile != 0);
            if pile != 0 {
                let o = draw_bit(pile, rng);
                s.order_deck &= !(1 << o);
                pl.orders[k] = CardId::new(o as u8);
            }
        }
        s.places[place] = pl;
    }

    /// The turn passes to the first seat from `from` clockwise that holds an action token; when
    /// nobody does, the round ends.
    pub(crate) fn next_turn<R: Rng + ?Sized>(&self, s: &mut State, from: u8, rng: &mut R) {
        let n = self.players;
        let mut from = from % n;
        loop {
            if let Some(seat) = (0..n)
                .map(|k| (from + k) % n)
                .find(|&seat| s.tokens[usize::from(seat)] > 0)
            {
                s.phase = Phase::Turn { seat };
                return;
            }
            // Every token is used up (or lies on an order): B. End of the Round.
            self.end_round(s, rng);
            if s.is_over() {
                return;
            }
            from = s.start_player;
        }
    }

    /// B. End of the Round: customers' time elapses, tokens come back, the start player moves,
    /// dice are replenished and the common dice rolled.
    pub(crate) fn end_round<R: Rng + ?Sized>(&self, s: &mut State, rng: &mut R) {
        let n = usize::from(self.players);
        let mut leaving = [false; PLACES];
        for (k, pl) in s.places.iter_mut().enumerate() {
            if !pl.occupied() {
                continue;
            }
            if pl.time > 1 {
                pl.time -= 1;
            } else {
                leaving[k] = true;
            }
        }
        for k in 0..PLACES {
            if !leaving[k] {
                continue;
            }
            // Failure to Serve: "collect those action tokens ... Discard all Order cards".
            let pl = s.places[k];
            for slot in 0..3 {
                if let Some(seat) = pl.tokens[slot].index() {
                    s.tokens[seat] += 1;
                }
                if let Some(order) = pl.orders[slot].get() {
                    s.order_discard |= 1 << order;
                }
            }
            s.places[k] = Place::EMPTY;
            s.left_unserved += 1;
        }
        for k in 0..usize::from(self.data.rulebook.customers_present) {
            if !s.places[k].occupied() {
                self.arrive(s, k, rng);
                if self.params.arrivals_tick && s.places[k].occupied() && s.places[k].time > 1 {
                    s.places[k].time -= 1;
                }
            }
        }
        if s.customers_here() == 0 {
            s.phase = Phase::Over;
            return;
        }
        for seat in 0..n {
            s.tokens[seat] += s.parked[seat];
            s.parked[seat] = 0;
            s.parked_on[seat] = 0;
        }
        s.start_player = self.next_start(s);
        for seat in 0..n {
            while s.dice_count(seat) < s.limit[seat] {
                s.dice[seat][usize::from(roll(rng)) - 1] += 1;
            }
        }
        self.roll_common(s, rng);
        s.bonus_used = 0;
        s.round = s.round.saturating_add(1);
    }

    /// B-3: the most dice in the Dice area; "In case of a tie, the player closest in clockwise
    /// order to the current start player is the start player for the next round."
    pub(crate) fn next_start(&self, s: &State) -> u8 {
        let n = self.players;
        let most = (0..usize::from(n))
            .map(|i| s.dice_count(i))
            .max()
            .unwrap_or(0);
        let order: [u8; MAX_PLAYERS] = match self.params.start_tie {
            StartTie::CurrentFirst => [0, 1, 2, 3],
            StartTie::LeftFirst => [1, 2, 3, 4],
        };
        order
            .iter()
            .map(|&k| (s.start_player + k) % n)
            .find(|&seat| s.dice_count(usize::from(seat)) == most)
            .unwrap_or(s.start_player)
    }
}
