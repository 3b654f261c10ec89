//! Checking a state that came from outside (a file, a user): every field within its range, every
//! derived field consistent with what it is derived from, then the conservation invariants, and
//! a move to make unless the game is over. A state that passes plays on without panicking.

use super::*;

impl TofuShifu {
    /// Checks a loaded state: ranges first (so no later check indexes out of bounds), then the
    /// fields derived from others (flags from upgrades, bonus powers from Town objectives), then
    /// [`TofuShifu::check_invariants`], then that the player to move has a legal action. The
    /// error names the field.
    pub fn check_state(&self, s: &State) -> Result<(), String> {
        self.check_ranges(s)?;
        self.check_players(s)?;
        self.check_turn(s)?;
        self.check_invariants(s)?;
        if !s.is_over() {
            let mut legal = Vec::new();
            self.legal(s, &mut legal);
            if legal.is_empty() {
                return Err(format!(
                    "turn.phase: no legal action for player {} in phase {:?}",
                    s.current + 1,
                    s.turn.phase
                ));
            }
        }
        Ok(())
    }

    fn check_ranges(&self, s: &State) -> Result<(), String> {
        self.check_clock(s)?;
        self.check_shared_ranges(s)?;
        self.check_player_ranges(s)
    }

    /// Players, seat to move, round, turns and the cap.
    fn check_clock(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        if s.num_players != n {
            return Err(format!(
                "num_players: the state has {} players, the game {n}",
                s.num_players
            ));
        }
        if s.current >= n {
            return Err(format!("current: seat {} in a {n}-player game", s.current));
        }
        let max = self.params.max_rounds;
        if s.round == 0 || s.round > max {
            return Err(format!("round: {} is not from 1 to {max}", s.round));
        }
        let n32 = n as u32;
        let expected = (s.round as u32 - 1) * n32 + s.current as u32;
        let ended_round = s.is_over() && s.current == 0 && s.turns == s.round as u32 * n32;
        if s.turns != expected && !ended_round {
            return Err(format!(
                "turns: {} turns completed does not fit round {} with player {} to move",
                s.turns,
                s.round,
                s.current + 1
            ));
        }
        if s.capped && !(s.is_over() && s.round == max) {
            return Err("capped: only a game over at the round cap is capped".into());
        }
        Ok(())
    }

    /// Card indices within the data's cards.
    fn cards_in_range(&self, name: &str, set: CardSet) -> Result<(), String> {
        if set & !self.all_cards != 0 {
            Err(format!(
                "{name}: card index {} beyond the {} cards of the data",
                (set & !self.all_cards).trailing_zeros(),
                self.data.cards.len()
            ))
        } else {
            Ok(())
        }
    }

    /// The deck, market, bag, Town display and the rounds things ran out.
    fn check_shared_ranges(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        self.cards_in_range("deck", s.deck)?;
        for (slot, c) in s.market.iter().enumerate() {
            let Some(c) = c.get() else {
                continue;
            };
            if slot >= self.market_slots {
                return Err(format!(
                    "market[{slot}]: beyond the {} slots",
                    self.market_slots
                ));
            }
            if c as usize >= self.data.cards.len() {
                return Err(format!(
                    "market[{slot}]: card index {c} beyond the {} cards of the data",
                    self.data.cards.len()
                ));
            }
        }
        let tiles = |name: &str, set: TileSet| {
            if set & !self.all_tiles != 0 {
                Err(format!(
                    "{name}: customer tile {} beyond the {} tiles of the data",
                    (set & !self.all_tiles).trailing_zeros(),
                    self.data.customers.len()
                ))
            } else {
                Ok(())
            }
        };
        tiles("bag", s.bag)?;
        tiles("drawn", s.drawn)?;
        if s.town_display & !self.display_pool != 0 {
            return Err("town_display: an objective that is not a display card".into());
        }
        if s.coin_stack_taken as usize > self.coin_stack.len() {
            return Err(format!(
                "coin_stack_taken: {} of a stack of {}",
                s.coin_stack_taken,
                self.coin_stack.len()
            ));
        }
        if let Some(seat) = s.end_trigger.get().filter(|&x| x >= n) {
            return Err(format!("end_trigger: seat {seat} in a {n}-player game"));
        }
        for (name, r) in [
            ("coins_out_round", s.coins_out_round),
            ("deck_out_round", s.deck_out_round),
        ] {
            if r > s.round {
                return Err(format!(
                    "{name}: round {r} is after the current round {}",
                    s.round
                ));
            }
        }
        Ok(())
    }

    /// Each seat's board, and no board for a seat not in the game.
    fn check_player_ranges(&self, s: &State) -> Result<(), String> {
        let n = self.players;
        for (i, p) in s.players.iter().enumerate().skip(n as usize) {
            if *p != PlayerState::default() {
                return Err(format!("players[{i}]: a board for a seat not in the game"));
            }
        }
        for (i, p) in s.players[..n as usize].iter().enumerate() {
            let f = |x: &str| format!("players[{i}].{x}");
            for (name, set) in [
                ("hand", p.hand),
                ("hand_known", p.hand_known),
                ("rest", p.rest),
                ("upgrades", p.upgrades),
                ("objective_zone", p.objective_zone),
                ("restaurant_done", p.restaurant_done),
            ] {
                self.cards_in_range(&f(name), set)?;
            }
            if p.marker as usize >= Space::ALL.len() {
                return Err(format!(
                    "{}: {} is not a space (0 to 8)",
                    f("marker"),
                    p.marker
                ));
            }
            for t in 0..MAX_TABLES {
                for k in 0..SEATS_PER_TABLE {
                    let tile = p.tables[t][k].get();
                    if let Some(tile) =
                        tile.filter(|&x| usize::from(x) >= self.data.customers.len())
                    {
                        return Err(format!(
                            "{}: tile {tile} is not a customer",
                            f(&format!("tables[{t}][{k}]"))
                        ));
                    }
                    if p.served[t][k] > 0b1111 {
                        return Err(format!(
                            "{}: not a set of dishes",
                            f(&format!("served[{t}][{k}]"))
                        ));
                    }
                }
            }
            let towns = (1u32 << self.data.town_objectives.len()) - 1;
            if p.town_done as u32 & !towns != 0 {
                return Err(format!(
                    "{}: an objective beyond the data's",
                    f("town_done")
                ));
            }
            if p.player_done & !self.player_all != 0 {
                return Err(format!(
                    "{}: an objective beyond the data's",
                    f("player_done")
                ));
            }
        }
        Ok(())
    }

    /// Fields derived from others: flags from the board and the upgrades, bonus powers from the
    /// Town objectives, the coin stack from the Town objectives taken, loose Master tokens.
    fn check_players(&self, s: &State) -> Result<(), String> {
        let d = &self.data;
        let mut stack_done = 0u16;
        for (i, p) in s.players[..s.num_players as usize].iter().enumerate() {
            let f = |x: &str| format!("players[{i}].{x}");
            let mut dish = d.board_dish_flags;
            let mut hat = d.board_hat_flags;
            let mut lanterns = 0u8;
            for c in cards(p.upgrades) {
                match d.cards[c as usize].flag {
                    Flag::Dish(x) => dish[x as usize] += 1,
                    Flag::Hat(x) => hat[x as usize] += 1,
                    Flag::Lantern => lanterns += 1,
                }
            }
            if p.dish_flags != dish || p.hat_flags != hat || p.lanterns != lanterns {
                return Err(format!(
                    "{}: the flags do not match the board and the upgrades played",
                    f("dish_flags/hat_flags/lanterns")
                ));
            }
            let mut bonuses = 0u16;
            for o in 0..d.town_objectives.len() {
                if p.town_done & (1 << o) != 0 {
                    if let Some(b) = d.town_objectives[o].bonus {
                        bonuses |= b.bit();
                    }
                    if d.town_objectives[o].coin_stack {
                        stack_done |= 1 << o;
                    }
                }
            }
            if p.bonuses != bonuses {
                return Err(format!(
                    "{}: not the powers of the Town objectives completed",
                    f("bonuses")
                ));
            }
            if p.loose_master > p.has(Bonus::OneShot2cMaster) as u8 {
                return Err(format!(
                    "{}: more than the bonus power gives",
                    f("loose_master")
                ));
            }
            if p.hand_known & !p.hand != 0 {
                return Err(format!("{}: a known card not in hand", f("hand_known")));
            }
        }
        let taken: u16 = self.coin_stack[..s.coin_stack_taken as usize]
            .iter()
            .fold(0, |m, &o| m | 1 << o);
        if taken != stack_done {
            return Err(
                "coin_stack_taken: does not match the coin-stack objectives completed".into(),
            );
        }
        Ok(())
    }

    /// The turn in progress: a chosen card, pending costs and counters within their bounds.
    fn check_turn(&self, s: &State) -> Result<(), String> {
        self.check_turn_fields(s)?;
        self.check_phase(s)
    }

    /// The turn's card, pending hats, extra payments, market sales, kept cards and drawn tiles.
    fn check_turn_fields(&self, s: &State) -> Result<(), String> {
        let t = &s.turn;
        let p = s.me();
        if let Some(c) = t.card.get() {
            if usize::from(c) >= self.data.cards.len() {
                return Err(format!("turn.card: card index {c} beyond the data's cards"));
            }
            if t.phase == Phase::PayHats && p.hand & (1u128 << c) == 0 {
                return Err(format!(
                    "turn.card: card {c} is not in the hand of the player to move"
                ));
            }
        }
        let mid_turn = !matches!(t.phase, Phase::TurnEnd | Phase::GameOver);
        if mid_turn && t.card.is_some() && !matches!(t.action, Space::Upgrade | Space::SetObjective)
        {
            return Err(format!("turn.card: a card chosen for {}", t.action));
        }
        if t.pending.iter().any(|&x| x > 16) {
            return Err("turn.pending: more than 16 hat symbols of one kind".into());
        }
        if t.extra > self.data.seat_max_extra {
            return Err(format!(
                "turn.extra: {} extra payments, at most {}",
                t.extra, self.data.seat_max_extra
            ));
        }
        if t.market_left > 2 {
            return Err("turn.market_left: more than 2 market sales".into());
        }
        if t.kept & !p.hand != 0 {
            return Err("turn.kept: a kept card not in hand".into());
        }
        if s.drawn != 0 && t.phase != Phase::PlaceTiles {
            return Err("drawn: tiles drawn outside the Seat action's placing".into());
        }
        Ok(())
    }

    /// The phase against the action taken, the card chosen and the hand.
    fn check_phase(&self, s: &State) -> Result<(), String> {
        let t = &s.turn;
        let p = s.me();
        let held = p.hand.count_ones();
        let limit = self.hand_limit(p) as u32;
        let action = |want: &[Space]| {
            if want.contains(&t.action) {
                Ok(())
            } else {
                Err(format!("turn.action: {} in phase {:?}", t.action, t.phase))
            }
        };
        match t.phase {
            Phase::PlaceTiles if s.drawn == 0 => {
                Err("turn.phase: placing tiles with none drawn".into())
            }
            Phase::PlaceTiles | Phase::SeatExtra => action(&[Space::Seat]),
            Phase::ChooseCard if t.card.is_some() => {
                Err("turn.card: a card chosen before the choice".into())
            }
            Phase::ChooseCard => action(&[Space::Upgrade, Space::SetObjective]),
            Phase::PayHats if t.pending.iter().all(|&x| x == 0) => {
                Err("turn.pending: paying hats with nothing owed".into())
            }
            Phase::PayHats if t.paying_extra => action(&[Space::Seat]),
            Phase::PayHats if matches!(t.action, Space::Upgrade | Space::SetObjective) => {
                let Some(card) = t.card.index() else {
                    return Err(format!("turn.card: no card chosen for {}", t.action));
                };
                let c = &self.data.cards[card];
                let short = (0..4).any(|d| p.dishes[d] < c.cost_dishes[d]);
                if t.action == Space::Upgrade && (p.coins < self.upgrade_coins(p, card) || short) {
                    return Err("turn.card: the upgrade's coins or dishes are not there".into());
                }
                Ok(())
            }
            Phase::CopyTarget if p.marker != Space::Copy as u8 => {
                Err("turn.phase: choosing a space to copy off the Copy space".into())
            }
            Phase::Serve => action(&[Space::Serve]),
            Phase::Checkout => action(&[Space::Checkout]),
            Phase::Hire => action(&[Space::Hire]),
            Phase::RestBuy => action(&[Space::Rest]),
            Phase::RestDiscard | Phase::RestKeep if held <= limit => Err(format!(
                "turn.phase: {held} cards in hand is not over the limit of {limit}"
            )),
            Phase::RestKeep if t.kept.count_ones() >= limit => {
                Err("turn.kept: already as many cards kept as the limit".into())
            }
            Phase::RestKeep | Phase::RestDiscard => {
                // Cards are picked in increasing id order from the cursor: enough must be left.
                let from = if t.cursor as usize >= MAX_CARDS {
                    0
                } else {
                    p.hand & !((1u128 << t.cursor) - 1)
                };
                let (need, what) = if t.phase == Phase::RestKeep {
                    (limit - t.kept.count_ones(), "keep")
                } else {
                    (held - limit, "return")
                };
                if from.count_ones() < need || t.kept & from != 0 {
                    return Err(format!(
                        "turn.cursor: {need} cards to {what} but {} left after the cursor",
                        from.count_ones()
                    ));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
