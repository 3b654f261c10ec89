//! The lookup tables a game precomputes from its data once, when it is built: card sets by hat,
//! flag and cost, packed requirements, the hall's payment tables and the open seats.

use super::setup::{covered_by_a_table, Checked};
use super::*;

impl TofuShifu {
    /// The game from checked data and parameters, with its lookup tables.
    pub(super) fn with_tables(data: CardData, params: Params, c: Checked) -> TofuShifu {
        let town_req: Vec<Requirement> =
            data.town_objectives.iter().map(|o| o.requirement).collect();
        let player_req: Vec<Requirement> = data
            .player_objectives
            .iter()
            .map(|o| o.requirement)
            .collect();
        let (cards_by_hat, card_hat) = cards_by_hat(&data);
        let payers_of = payers_of(&data);
        let (cards_by_flag, coverable) = cards_by_flag(&data);
        let space_costs = data.spaces.each_ref().map(|d| {
            [&d.lower, &d.higher].map(|c| payment::HallCost::new(payment::pack(c), &payers_of))
        });
        let mut capacity = data.spaces.each_ref().map(|d| d.capacity);
        capacity[Space::Rest as usize] = u8::MAX;
        let mut g = TofuShifu {
            holds_at_most: std::array::from_fn(|k| {
                (0..9).fold(0, |m, i| m | u16::from(capacity[i] as usize <= k + 1) << i)
            }),
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            space_costs,
            signpost_pays: payment::SignpostPays::default(),
            town_fast: fast_requirements(&town_req),
            player_fast: fast_requirements(&player_req),
            player_all: ((1u16 << player_req.len()) - 1) as u8,
            card_costs: card_costs(&data),
            coins_at_most: coins_at_most(&data),
            price_mode: params.market_price_mode.unwrap_or(data.price_mode),
            players: c.players,
            start_coins: c.start_coins,
            hand_size: c.hand_size,
            hand_limit: c.hand_limit,
            end_objectives: c.end_objectives,
            market_slots: c.market_slots,
            market_prices: c.market_prices,
            coin_stack: coin_stack(&data, &town_req),
            display_pool: (0..data.town_objectives.len())
                .filter(|&i| !data.town_objectives[i].coin_stack)
                .fold(0u16, |m, i| m | (1 << i)),
            town_req,
            player_req,
            same_costs: same_costs(&data),
            open_seats: open_seats(data.customers_per_table as usize),
            cards_paying: std::array::from_fn(|sym| {
                (0..5)
                    .filter(|h| payers_of[1 << sym] >> h & 1 == 1)
                    .fold(0 as CardSet, |m, h| m | cards_by_hat[h])
            }),
            cards_by_hat,
            card_hat,
            all_cards: if data.cards.len() == 128 {
                CardSet::MAX
            } else {
                (1u128 << data.cards.len()) - 1
            },
            all_tiles: if data.customers.len() == 64 {
                TileSet::MAX
            } else {
                (1u64 << data.customers.len()) - 1
            },
            payers_of,
            cards_by_flag,
            coverable,
            data,
            params,
        };
        g.signpost_pays = payment::SignpostPays::new(&g);
        g
    }
}

/// "Stack all Town Objective cards [that require coins] by their coin value, lower on top"
/// (ja setup 1). Sorted after scaling, so the stack stays lowest-first.
fn coin_stack(data: &CardData, town_req: &[Requirement]) -> Vec<u8> {
    let mut coin_stack: Vec<u8> = (0..data.town_objectives.len() as u8)
        .filter(|&i| data.town_objectives[i as usize].coin_stack)
        .collect();
    coin_stack.sort_by_key(|&i| (town_req[i as usize].coins, i));
    coin_stack
}

/// The cards of each hat type, and each card's hat packed for payment.
fn cards_by_hat(data: &CardData) -> ([CardSet; 5], [payment::PackedHats; 128]) {
    let mut cards_by_hat = [0 as CardSet; 5];
    let mut card_hat = [0; 128];
    for (i, c) in data.cards.iter().enumerate() {
        cards_by_hat[c.hat_type as usize] |= 1 << i;
        card_hat[i] = payment::one(c.hat_type as usize);
    }
    (cards_by_hat, card_hat)
}

/// For each set of hat costs, the hats that may pay one of them.
fn payers_of(data: &CardData) -> [u8; 32] {
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
    payers_of
}

/// For each card, the cards whose upgrade costs the same.
fn same_costs(data: &CardData) -> Vec<CardSet> {
    let costs_of = |c: &ProductionCard| (c.cost_hats, c.cost_dishes, c.cost_coins, c.hat_type);
    (data.cards.iter())
        .map(|c| {
            (data.cards.iter().enumerate())
                .filter(|(_, d)| costs_of(d) == costs_of(c))
                .fold(0 as CardSet, |m, (j, _)| m | 1 << j)
        })
        .collect()
}

/// Each card's upgrade cost, packed for the move generator.
fn card_costs(data: &CardData) -> Vec<CardCost> {
    data.cards
        .iter()
        .map(|c| CardCost {
            hats: payment::pack(&c.cost_hats),
            dishes: u32::from_le_bytes(c.cost_dishes),
            coins: c.cost_coins,
            hat_type: c.hat_type as u8,
            objective: u32::from_le_bytes(c.objective),
        })
        .collect()
}

/// For each coin count `k` looked up, the cards whose upgrade costs at most `k` coins.
fn coins_at_most(data: &CardData) -> [CardSet; COINS_LOOKED_UP] {
    std::array::from_fn(|k| {
        (data.cards.iter().enumerate())
            .filter(|(_, c)| usize::from(c.cost_coins) <= k)
            .fold(0 as CardSet, |m, (i, _)| m | 1 << i)
    })
}

/// Requirements packed for the objective checks, in a table of `N`.
fn fast_requirements<const N: usize>(reqs: &[Requirement]) -> [objectives::FastRequirement; N] {
    let mut fast = [objectives::FastRequirement::default(); N];
    for (f, r) in fast.iter_mut().zip(reqs) {
        *f = objectives::FastRequirement::new(r);
    }
    fast
}

/// The cards of each flag, and the cards whose objective one table of customers can cover.
fn cards_by_flag(data: &CardData) -> ([CardSet; 9], CardSet) {
    let mut cards_by_flag = [0 as CardSet; 9];
    let mut coverable = 0 as CardSet;
    let per_table = data.customers_per_table as usize;
    for (i, c) in data.cards.iter().enumerate() {
        cards_by_flag[flag_index(c.flag)] |= 1u128 << i;
        if covered_by_a_table(&c.objective, &data.customers, per_table) {
            coverable |= 1u128 << i;
        }
    }
    (cards_by_flag, coverable)
}

/// For each number of open tables, their seats as bytes of 0xFF in a word.
fn open_seats(per: usize) -> [u64; MAX_TABLES + 1] {
    std::array::from_fn(|open| {
        (0..open.min(MAX_TABLES))
            .flat_map(|t| (0..per.min(SEATS_PER_TABLE)).map(move |k| t * SEATS_PER_TABLE + k))
            .fold(0u64, |m, byte| m | 0xFF << (8 * byte))
    })
}
