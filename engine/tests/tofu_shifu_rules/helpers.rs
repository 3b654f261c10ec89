//! Building scenario positions: every helper moves cards, tokens and coins between real places
//! (deck, reserve, hands), so the conservation invariants hold in every scenario.

use shifu_engine::tofu_shifu::*;
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game, GameRng, ParamFile};

/// The rule scenarios are written against the first reconstruction's card values (card ids and
/// costs they name); the rules do not depend on which data is the default.
pub fn data() -> CardData {
    CardData::builtin("reconstructed").unwrap()
}

pub fn game(players: u8) -> TofuShifu {
    TofuShifu::new(data(), Params::with_players(players)).unwrap()
}

pub fn game_with(players: u8, sets: &[&str]) -> TofuShifu {
    let mut p = Params::with_players(players);
    p.set_all(sets.iter().copied()).unwrap();
    TofuShifu::new(data(), p).unwrap()
}

pub fn start(g: &TofuShifu, seed: u64) -> (State, GameRng) {
    let mut rng = rng_from_seed(seed);
    let s = g.new_state(&mut rng);
    (s, rng)
}

pub fn card(g: &TofuShifu, id: &str) -> u8 {
    g.data.cards.iter().position(|c| c.id == id).unwrap() as u8
}

pub fn tile(g: &TofuShifu, id: &str) -> u8 {
    g.data.customers.iter().position(|c| c.id == id).unwrap() as u8
}

pub fn town(g: &TofuShifu, id: &str) -> u8 {
    g.data
        .town_objectives
        .iter()
        .position(|c| c.id == id)
        .unwrap() as u8
}

/// Takes a card out of wherever it is (deck, market, any zone) and returns it; a market slot it
/// leaves is refilled from the deck with the lowest card id.
fn pull(g: &TofuShifu, s: &mut State, c: u8) {
    let bit = 1u128 << c;
    if s.deck & bit != 0 {
        s.deck &= !bit;
        return;
    }
    for slot in 0..g.market_slots() {
        if s.market[slot] == CardId::new(c) {
            let repl = s.deck.trailing_zeros() as u8;
            s.deck &= !(1u128 << repl);
            s.market[slot] = CardId::new(repl);
            return;
        }
    }
    for p in s.players.iter_mut() {
        for z in [
            &mut p.hand,
            &mut p.rest,
            &mut p.upgrades,
            &mut p.objective_zone,
            &mut p.restaurant_done,
        ] {
            *z &= !bit;
        }
        p.hand_known &= !bit;
    }
}

/// Sets a player's hand: the old hand goes back to the deck, the named cards come from wherever
/// they are.
pub fn set_hand(g: &TofuShifu, s: &mut State, seat: usize, ids: &[&str]) {
    let old = s.players[seat].hand;
    s.players[seat].hand = 0;
    s.players[seat].hand_known = 0;
    s.deck |= old;
    for id in ids {
        let c = card(g, id);
        pull(g, s, c);
        s.players[seat].hand |= 1u128 << c;
    }
}

/// Puts a card in a player's Rest zone.
pub fn put_in_rest(g: &TofuShifu, s: &mut State, seat: usize, id: &str) {
    let c = card(g, id);
    pull(g, s, c);
    s.players[seat].rest |= 1u128 << c;
}

/// Plays a card as an upgrade without paying (scenario set-up).
pub fn add_upgrade(g: &TofuShifu, s: &mut State, seat: usize, id: &str) {
    let c = card(g, id);
    pull(g, s, c);
    let p = &mut s.players[seat];
    p.upgrades |= 1u128 << c;
    match g.data.cards[c as usize].flag {
        Flag::Dish(d) => p.dish_flags[d as usize] += 1,
        Flag::Hat(h) => p.hat_flags[h as usize] += 1,
        Flag::Lantern => p.lanterns += 1,
    }
}

/// Sets a card as a restaurant objective.
pub fn add_restaurant_objective(g: &TofuShifu, s: &mut State, seat: usize, id: &str) {
    let c = card(g, id);
    pull(g, s, c);
    s.players[seat].objective_zone |= 1u128 << c;
}

pub fn set_coins(s: &mut State, seat: usize, n: u16) {
    let p = &mut s.players[seat];
    s.reserve_coins += p.coins as i32 - n as i32;
    p.coins = n;
}

/// Hat tokens (Chef, Waiter, Cashier, Master).
pub fn set_hats(s: &mut State, seat: usize, hats: [u8; 4]) {
    for h in 0..4 {
        s.reserve_hats[h] += s.players[seat].hats[h] as i16 - hats[h] as i16;
        s.players[seat].hats[h] = hats[h];
    }
    s.players[seat].loose_master = 0;
}

/// Hat flags (Chef, Waiter, Cashier, Master); tokens are capped to the flags.
pub fn set_hat_flags(s: &mut State, seat: usize, flags: [u8; 4]) {
    s.players[seat].hat_flags = flags;
}

/// Dish tokens (Soymilk, Silken, Tofu, Dried); flags are raised to match.
pub fn set_dishes(s: &mut State, seat: usize, dishes: [u8; 4]) {
    for d in 0..4 {
        s.reserve_dishes[d] += s.players[seat].dishes[d] as i16 - dishes[d] as i16;
        s.players[seat].dishes[d] = dishes[d];
        if s.players[seat].dish_flags[d] < dishes[d] {
            s.players[seat].dish_flags[d] = dishes[d];
        }
    }
}

/// Seats a customer at a table (from the bag).
pub fn seat_customer(g: &TofuShifu, s: &mut State, seat: usize, id: &str, table: usize) {
    let t = tile(g, id);
    assert!(s.bag & (1u64 << t) != 0, "{id} not in the bag");
    s.bag &= !(1u64 << t);
    let row = &mut s.players[seat].tables[table];
    let free = row.iter().position(|x| x.is_none()).unwrap();
    row[free] = TileId::new(t);
}

/// Moves another player's marker (for occupancy scenarios).
pub fn put_marker(s: &mut State, seat: usize, space: Space) {
    s.players[seat].marker = space as u8;
}

pub fn legal(g: &TofuShifu, s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v
}

/// Applies a legal action (panics with the legal list if it is not legal) and checks the
/// invariants.
pub fn play(g: &TofuShifu, s: &mut State, rng: &mut GameRng, a: Action) {
    if let Err(e) = g.apply_checked(s, a, rng) {
        let names: Vec<String> = legal(g, s).iter().map(|&x| g.action_name(s, x)).collect();
        panic!("{e}; legal: {names:?}");
    }
    g.check_invariants(s).unwrap();
}

pub fn moves(g: &TofuShifu, s: &State) -> Vec<Space> {
    legal(g, s)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move(sp) => Some(sp),
            _ => None,
        })
        .collect()
}

/// Marks a card as a completed restaurant objective (scenario set-up for objective counts).
pub fn add_completed(g: &TofuShifu, s: &mut State, seat: usize, id: &str) {
    let c = card(g, id);
    pull(g, s, c);
    s.players[seat].restaurant_done |= 1u128 << c;
}

/// Puts a Town objective face up (whatever was drawn at set-up).
pub fn show_town(g: &TofuShifu, s: &mut State, id: &str) {
    s.town_display |= 1 << town(g, id);
}

/// Marks dishes (bit per dish) as served to the customer at `table`, `slot`, taking the tokens
/// from the reserve, as a Serve would have.
pub fn mark_served(s: &mut State, seat: usize, table: usize, slot: usize, dishes: u8) {
    s.players[seat].served[table][slot] |= dishes;
    for d in 0..4 {
        if dishes & (1 << d) != 0 {
            s.reserve_dishes[d] -= 1;
        }
    }
}

/// Moves to Checkout, pays its Cashier hat with a token, and cleans up table 1 completing no
/// objective.
pub fn checkout_first_table(g: &TofuShifu, s: &mut State, rng: &mut GameRng) {
    play(g, s, rng, Action::Move(Space::Checkout));
    play(g, s, rng, Action::PayToken(Hat::Cashier));
    let clean = Action::CleanTable {
        table: 0,
        objective: CardId::NONE,
    };
    play(g, s, rng, clean);
}
