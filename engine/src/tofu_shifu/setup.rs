//! Building a game from data and parameters, and dealing a new position (the rulebook's Setup).

use super::*;
use crate::error::EngineError;

impl TofuShifu {
    /// Builds the game, checking the parameters against the data.
    pub fn new(data: CardData, params: Params) -> Result<TofuShifu, EngineError> {
        let data = knobs::apply(data, &params)?;
        let players = params.players;
        INFO.check_players(players)?;
        let coins_src = params
            .start_coins
            .clone()
            .unwrap_or(data.start_coins.clone());
        if coins_src.len() < players as usize {
            return Err(EngineError::param(
                "start_coins",
                format!(
                    "needs one entry per seat ({players}), got {}",
                    coins_src.len()
                ),
            ));
        }
        if let Some(c) = coins_src.iter().find(|&&c| c > 1_000) {
            return Err(EngineError::param(
                "start_coins",
                format!("{c} coins is more than 1000"),
            ));
        }
        let mut start_coins = [0u16; MAX_PLAYERS];
        for (i, c) in coins_src.iter().take(players as usize).enumerate() {
            start_coins[i] = *c;
        }
        // A finite reserve hands out only what it holds: 1000 coins each from a supply of 80
        // played as 80, 0, 0, 0.
        let handed: u32 = start_coins.iter().map(|&c| u32::from(c)).sum();
        if params.finite_reserve && handed > data.supply_coins {
            return Err(EngineError::param(
                "start_coins",
                format!(
                    "{handed} start coins for {players} players exceed the coin supply of {} \
                     (supply.coins in {}); give fewer, or finite_reserve=false",
                    data.supply_coins, data.source
                ),
            ));
        }
        let market_slots = params
            .market_size
            .map(|x| x as usize)
            .unwrap_or(data.market_slots);
        if market_slots == 0 || market_slots > MAX_MARKET {
            return Err(EngineError::param(
                "market_size",
                format!("must be 1 to {MAX_MARKET}, got {market_slots}"),
            ));
        }
        let prices_src = match (&params.market_prices, params.market_size) {
            (Some(p), _) => p.clone(),
            (None, Some(_)) if market_slots != data.market_slots => {
                return Err(EngineError::param(
                    "market_prices",
                    format!("market_size={market_slots} differs from the data's {}: give market_prices too", data.market_slots),
                ))
            }
            (None, _) => data.market_prices.clone(),
        };
        if prices_src.len() != market_slots {
            return Err(EngineError::param(
                "market_prices",
                format!(
                    "needs one price per market slot ({market_slots}), got {}",
                    prices_src.len()
                ),
            ));
        }
        let mut market_prices = [0u16; MAX_MARKET];
        market_prices[..market_slots].copy_from_slice(&prices_src);
        let hand_size = params.hand_size.unwrap_or(data.hand_size);
        let hand_limit = params.hand_limit.unwrap_or(data.hand_limit);
        if hand_limit == 0 {
            return Err(EngineError::param("hand_limit", "must be at least 1"));
        }
        let needed = hand_size as usize * players as usize + market_slots;
        if needed > data.cards.len() {
            let need = format!(
                "{players} hands of {hand_size} and {market_slots} market cards need {needed} production cards",
            );
            // A hand size the user set is the one to blame; otherwise the data file is short.
            return Err(match params.hand_size {
                Some(_) => EngineError::param(
                    "hand_size",
                    format!("{need}; the data has {}: lower it", data.cards.len()),
                ),
                None => EngineError::field(
                    &data.source,
                    "production_cards",
                    format!(
                        "{need} and the file has {}: add production cards, or play with fewer \
                         players or a smaller --set hand_size",
                        data.cards.len()
                    ),
                ),
            });
        }
        let end_objectives = params.end_objectives.unwrap_or(data.end_objectives);
        if end_objectives == 0 {
            return Err(EngineError::param("end_objectives", "must be at least 1"));
        }
        if params.max_rounds == 0 {
            return Err(EngineError::param("max_rounds", "must be at least 1"));
        }
        let town_req: Vec<Requirement> =
            data.town_objectives.iter().map(|o| o.requirement).collect();
        let player_req: Vec<Requirement> = data
            .player_objectives
            .iter()
            .map(|o| o.requirement)
            .collect();
        // "Stack all Town Objective cards [that require coins] by their coin value, lower on top"
        // (ja setup 1). Sorted after scaling, so the stack stays lowest-first.
        let mut coin_stack: Vec<u8> = (0..data.town_objectives.len() as u8)
            .filter(|&i| data.town_objectives[i as usize].coin_stack)
            .collect();
        coin_stack.sort_by_key(|&i| (town_req[i as usize].coins, i));
        let display_pool = (0..data.town_objectives.len())
            .filter(|&i| !data.town_objectives[i].coin_stack)
            .fold(0u16, |m, i| m | (1 << i));

        let mut cards_by_hat = [0 as CardSet; 5];
        let mut card_hat = [0; 128];
        for (i, c) in data.cards.iter().enumerate() {
            cards_by_hat[c.hat_type as usize] |= 1 << i;
            card_hat[i] = payment::one(c.hat_type as usize);
        }
        let all_cards = if data.cards.len() == 128 {
            CardSet::MAX
        } else {
            (1u128 << data.cards.len()) - 1
        };
        let all_tiles = if data.customers.len() == 64 {
            TileSet::MAX
        } else {
            (1u64 << data.customers.len()) - 1
        };
        let mut payers_of = [0u8; 32];
        for (set, payers) in payers_of.iter_mut().enumerate() {
            for r in 0..5 {
                for c in 0..5 {
                    if set & (1 << c) != 0 && data.pays[r][c] {
                        *payers |= 1 << r;
                    }
                }
            }
        }
        let costs_of = |c: &ProductionCard| (c.cost_hats, c.cost_dishes, c.cost_coins, c.hat_type);
        let same_costs = (data.cards.iter())
            .map(|c| {
                (data.cards.iter().enumerate())
                    .filter(|(_, d)| costs_of(d) == costs_of(c))
                    .fold(0 as CardSet, |m, (j, _)| m | 1 << j)
            })
            .collect();
        let mut card_costs = Vec::with_capacity(data.cards.len());
        for c in &data.cards {
            card_costs.push(CardCost {
                hats: payment::pack(&c.cost_hats),
                dishes: u32::from_le_bytes(c.cost_dishes),
                coins: c.cost_coins,
                hat_type: c.hat_type as u8,
                objective: u32::from_le_bytes(c.objective),
            });
        }
        let coins_at_most = std::array::from_fn(|k| {
            (data.cards.iter().enumerate())
                .filter(|(_, c)| usize::from(c.cost_coins) <= k)
                .fold(0 as CardSet, |m, (i, _)| m | 1 << i)
        });
        let mut town_fast = [objectives::FastRequirement::default(); MAX_TOWN_OBJECTIVES];
        for (f, r) in town_fast.iter_mut().zip(&town_req) {
            *f = objectives::FastRequirement::new(r);
        }
        let mut player_fast = [objectives::FastRequirement::default(); MAX_PLAYER_OBJECTIVES];
        for (f, r) in player_fast.iter_mut().zip(&player_req) {
            *f = objectives::FastRequirement::new(r);
        }
        let player_all = ((1u16 << player_req.len()) - 1) as u8;
        let mut cards_by_flag = [0 as CardSet; 9];
        let mut coverable = 0 as CardSet;
        let per_table = data.customers_per_table as usize;
        for (i, c) in data.cards.iter().enumerate() {
            cards_by_flag[flag_index(c.flag)] |= 1u128 << i;
            if covered_by_a_table(&c.objective, &data.customers, per_table) {
                coverable |= 1u128 << i;
            }
        }
        let space_costs = data.spaces.each_ref().map(|d| {
            [&d.lower, &d.higher].map(|c| payment::HallCost::new(payment::pack(c), &payers_of))
        });
        let mut capacity = data.spaces.each_ref().map(|d| d.capacity);
        capacity[Space::Rest as usize] = u8::MAX;
        let cards_paying: [CardSet; 5] = std::array::from_fn(|sym| {
            (0..5)
                .filter(|h| payers_of[1 << sym] >> h & 1 == 1)
                .fold(0 as CardSet, |m, h| m | cards_by_hat[h])
        });
        let per = data.customers_per_table as usize;
        let open_seats = std::array::from_fn(|open| {
            (0..open.min(MAX_TABLES))
                .flat_map(|t| (0..per.min(SEATS_PER_TABLE)).map(move |k| t * SEATS_PER_TABLE + k))
                .fold(0u64, |m, byte| m | 0xFF << (8 * byte))
        });
        let holds_at_most = std::array::from_fn(|k| {
            (0..9).fold(0, |m, i| m | u16::from(capacity[i] as usize <= k + 1) << i)
        });
        let mut g = TofuShifu {
            holds_at_most,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            space_costs,
            signpost_pays: payment::SignpostPays::default(),
            town_fast,
            player_fast,
            player_all,
            card_costs,
            coins_at_most,
            price_mode: params.market_price_mode.unwrap_or(data.price_mode),
            data,
            params,
            players,
            start_coins,
            hand_size,
            hand_limit,
            end_objectives,
            market_slots,
            market_prices,
            town_req,
            player_req,
            coin_stack,
            display_pool,
            same_costs,
            open_seats,
            cards_paying,
            cards_by_hat,
            card_hat,
            all_cards,
            all_tiles,
            payers_of,
            cards_by_flag,
            coverable,
        };
        g.signpost_pays = payment::SignpostPays::new(&g);
        Ok(g)
    }

    /// Draws a card from the deck into nothing (the caller places it), or [`NONE`] if empty.
    pub(crate) fn draw_card<R: Rng + ?Sized>(s: &mut State, rng: &mut R) -> u8 {
        if s.deck == 0 {
            return NONE;
        }
        let c = random_card(s.deck, rng);
        s.deck &= !(1u128 << c);
        if s.deck == 0 && s.deck_out_round == 0 {
            s.deck_out_round = s.round;
        }
        c
    }

    /// The rulebook's Setup.
    pub(crate) fn set_up<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        let d = &self.data;
        let n = self.players as usize;
        let mut s = State {
            num_players: self.players,
            current: 0,
            round: 1,
            turns: 0,
            turn: TurnCtx::new(),
            capped: false,
            deck: self.all_cards,
            market: [NONE; MAX_MARKET],
            bag: self.all_tiles,
            drawn: 0,
            town_display: 0,
            coin_stack_taken: 0,
            reserve_dishes: [0; 4],
            reserve_hats: [0; 4],
            reserve_coins: d.supply_coins as i32,
            coins_out_round: 0,
            deck_out_round: 0,
            end_trigger: NONE,
            players: [PlayerState::default(); MAX_PLAYERS],
        };
        for i in 0..4 {
            s.reserve_dishes[i] = d.supply_dishes[i] as i16;
            s.reserve_hats[i] = d.supply_hats[i] as i16;
        }
        // "Draw 5 Production cards and place them face up to the right of the Market banner."
        for slot in 0..self.market_slots {
            s.market[slot] = Self::draw_card(&mut s, rng);
        }
        // "Randomly draw Town Objective cards equal to the player count ... face up."
        let mut pool = self.display_pool;
        for _ in 0..n {
            if pool == 0 {
                break;
            }
            let i = random_tile(pool as u64, rng);
            pool &= !(1 << i);
            s.town_display |= 1 << i;
        }
        for seat in 0..n {
            let mut hand = 0 as CardSet;
            // "Deal 4 Production cards to each player."
            for _ in 0..self.hand_size {
                let c = Self::draw_card(&mut s, rng);
                hand |= 1u128 << c;
            }
            let p = PlayerState {
                marker: Space::Rest as u8,
                hand,
                dish_flags: d.board_dish_flags,
                hat_flags: d.board_hat_flags,
                tables: [[NONE; SEATS_PER_TABLE]; MAX_TABLES],
                served: [[0; SEATS_PER_TABLE]; MAX_TABLES],
                ..PlayerState::default()
            };
            // "Give each player a Soymilk and a Silken Tofu on 8-A and a Master Hat on 8-B."
            s.players[seat] = p;
            for i in 0..4 {
                self.gain_dishes(&mut s, seat, i, d.board_dish_tokens[i]);
                self.gain_hats(&mut s, seat, i, d.board_hat_tokens[i]);
            }
            // "1st Player 1 Coin, 2nd Player 2 Coins, 3rd Player 2 Coins, 4th Player 3 Coins."
            self.gain_coins(&mut s, seat, self.start_coins[seat]);
        }
        s
    }
}

/// Whether some `per_table` customers (or fewer) can together be served every dish in `need`:
/// each customer accepts one of each dish it orders.
fn covered_by_a_table(need: &DishCounts, customers: &[Customer], per_table: usize) -> bool {
    let fits = |orders: &[u8]| {
        (0..4).all(|d| orders.iter().filter(|&&o| o & (1 << d) != 0).count() >= need[d] as usize)
    };
    let n = customers.len();
    (0..n).any(|i| {
        fits(&[customers[i].orders])
            || (per_table >= 2
                && (i + 1..n).any(|j| fits(&[customers[i].orders, customers[j].orders])))
    })
}
