//! Building a game from data and parameters, and dealing a new position (the rulebook's Setup).

use super::*;
use crate::error::EngineError;

impl TofuShifu {
    /// Builds the game, checking the parameters against the data.
    pub fn new(data: CardData, params: Params) -> Result<TofuShifu, EngineError> {
        let data = knobs::apply(data, &params)?;
        let players = params.players;
        INFO.check_players(players)?;
        let start_coins = start_coins(&data, &params)?;
        let (market_slots, market_prices) = market(&data, &params)?;
        let (hand_size, hand_limit) = hands(&data, &params, market_slots)?;
        let end_objectives = params.end_objectives.unwrap_or(data.end_objectives);
        if end_objectives == 0 {
            return Err(EngineError::param("end_objectives", "must be at least 1"));
        }
        if params.max_rounds == 0 {
            return Err(EngineError::param("max_rounds", "must be at least 1"));
        }
        let checked = Checked {
            players,
            start_coins,
            hand_size,
            hand_limit,
            end_objectives,
            market_slots,
            market_prices,
        };
        Ok(Self::with_tables(data, params, checked))
    }

    /// Draws a card from the deck into nothing (the caller places it), or none if it is empty.
    pub(crate) fn draw_card<R: Rng + ?Sized>(s: &mut State, rng: &mut R) -> CardId {
        if s.deck == 0 {
            return CardId::NONE;
        }
        let c = random_card(s.deck, rng);
        s.deck &= !(1u128 << c);
        if s.deck == 0 && s.deck_out_round == 0 {
            s.deck_out_round = s.round;
        }
        CardId::new(c)
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
            market: [CardId::NONE; MAX_MARKET],
            bag: self.all_tiles,
            drawn: 0,
            town_display: 0,
            coin_stack_taken: 0,
            reserve_dishes: [0; 4],
            reserve_hats: [0; 4],
            reserve_coins: d.supply_coins as i32,
            coins_out_round: 0,
            deck_out_round: 0,
            end_trigger: SeatId::NONE,
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
                if let Some(c) = Self::draw_card(&mut s, rng).get() {
                    hand |= 1u128 << c;
                }
            }
            let p = PlayerState {
                marker: Space::Rest as u8,
                hand,
                dish_flags: d.board_dish_flags,
                hat_flags: d.board_hat_flags,
                tables: [[TileId::NONE; SEATS_PER_TABLE]; MAX_TABLES],
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

/// The parameters checked against the data: what the game keeps of them.
pub(super) struct Checked {
    pub(super) players: u8,
    pub(super) start_coins: [u16; MAX_PLAYERS],
    pub(super) hand_size: u8,
    pub(super) hand_limit: u8,
    pub(super) end_objectives: u8,
    pub(super) market_slots: usize,
    pub(super) market_prices: [u16; MAX_MARKET],
}

/// Each seat's start coins, from the parameters or the data.
fn start_coins(data: &CardData, params: &Params) -> Result<[u16; MAX_PLAYERS], EngineError> {
    let players = params.players;
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
    Ok(start_coins)
}

/// The market's slots and their prices, from the parameters or the data.
fn market(data: &CardData, params: &Params) -> Result<(usize, [u16; MAX_MARKET]), EngineError> {
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
                format!(
                    "market_size={market_slots} differs from the data's {}: give market_prices too",
                    data.market_slots
                ),
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
    Ok((market_slots, market_prices))
}

/// The hand size and limit, checked against the production cards the deal needs.
fn hands(data: &CardData, params: &Params, market_slots: usize) -> Result<(u8, u8), EngineError> {
    let players = params.players;
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
    Ok((hand_size, hand_limit))
}

/// Whether some `per_table` customers (or fewer) can together be served every dish in `need`:
/// each customer accepts one of each dish it orders.
pub(super) fn covered_by_a_table(
    need: &DishCounts,
    customers: &[Customer],
    per_table: usize,
) -> bool {
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
