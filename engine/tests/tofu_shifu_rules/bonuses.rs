//! Town objective bonus powers. Which card carries which power is reconstructed data; each power
//! is implemented by its key and tested here.

use crate::helpers::*;
use shifu_engine::tofu_shifu::*;
use shifu_engine::GameRng;

fn with_bonus(b: Bonus) -> (TofuShifu, State, GameRng) {
    let g = game(2);
    let (mut s, rng) = start(&g, 2);
    s.players[0].bonuses |= b.bit();
    set_hats(&mut s, 0, [2, 2, 2, 2]);
    set_hat_flags(&mut s, 0, [2, 2, 2, 2]);
    (g, s, rng)
}

#[test]
fn bonus_seat_plus_two_tiles() {
    let (g, mut s, mut rng) = with_bonus(Bonus::SeatPlusTwoTiles);
    play(&g, &mut s, &mut rng, Action::Move(Space::Seat));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    play(&g, &mut s, &mut rng, Action::SeatDraw);
    assert_eq!(s.drawn.count_ones(), 4);
}

#[test]
fn bonus_market_sell_two() {
    let (g, mut s, mut rng) = with_bonus(Bonus::MarketSellTwo);
    play(&g, &mut s, &mut rng, Action::Move(Space::Serve));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Waiter));
    play(&g, &mut s, &mut rng, Action::SellToMarket(Dish::Soymilk));
    play(&g, &mut s, &mut rng, Action::SellToMarket(Dish::SilkenTofu));
    assert_eq!(legal(&g, &s), vec![Action::EndServe]);
}

#[test]
fn bonus_produce_income() {
    let (g, mut s, mut rng) = with_bonus(Bonus::ProduceIncome);
    let coins = s.players[0].coins;
    // Produce may be entered even with every flag full: the coin is an effect.
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    assert_eq!(s.players[0].coins, coins + 1);
}

#[test]
fn bonus_hand_limit_7() {
    let (g, s, _) = with_bonus(Bonus::HandLimit7);
    assert_eq!(g.hand_limit(&s.players[0]), 7);
    assert_eq!(g.hand_limit(&s.players[1]), 6);
}

#[test]
fn bonus_upgrade_discount() {
    let (g, mut s, mut rng) = with_bonus(Bonus::UpgradeDiscount);
    set_hand(&g, &mut s, 0, &["P01"]);
    set_coins(&mut s, 0, 0);
    // P01 costs 1 coin; with the discount it is free.
    play(&g, &mut s, &mut rng, Action::Move(Space::Upgrade));
    play(&g, &mut s, &mut rng, Action::ChooseCard(card(&g, "P01")));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    assert_eq!(s.players[0].dish_flags[0], 2);
}

#[test]
fn bonus_checkout_bonus() {
    let (g, mut s, mut rng) = with_bonus(Bonus::CheckoutBonus);
    seat_customer(&g, &mut s, 0, "C25", 0); // Soymilk, Silken, Tofu; no coin
    mark_served(&mut s, 0, 0, 0, 0b0111);
    let coins = s.players[0].coins;
    checkout_first_table(&g, &mut s, &mut rng);
    assert_eq!(s.players[0].coins, coins + 1);
}

#[test]
fn bonus_rest_discount() {
    let (g, mut s, mut rng) = with_bonus(Bonus::RestDiscount);
    put_marker(&mut s, 0, Space::Hire);
    set_coins(&mut s, 0, 3);
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    play(&g, &mut s, &mut rng, Action::Buy(0)); // slot price 4, discounted to 3
    assert_eq!(s.players[0].coins, 0);
}

#[test]
fn bonus_hire_draw() {
    let (g, mut s, mut rng) = with_bonus(Bonus::HireDraw);
    play(&g, &mut s, &mut rng, Action::Move(Space::Hire));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Cashier));
    play(&g, &mut s, &mut rng, Action::Hire(0));
    assert_eq!(s.players[0].rest.count_ones(), 2);
}

#[test]
fn bonus_one_shot_two_coins_and_a_loose_master_hat() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 2);
    s.town_display = 0;
    show_town(&g, &mut s, "T13"); // Lantern + hat upgrade + dish upgrade
    for id in ["P65", "P41", "P01"] {
        add_upgrade(&g, &mut s, 0, id);
    }
    let coins = s.players[0].coins;
    play(&g, &mut s, &mut rng, Action::ClaimTown(town(&g, "T13")));
    assert_eq!(s.players[0].coins, coins + 2);
    assert_eq!(s.players[0].hats[3], 2);
    assert_eq!(s.players[0].loose_master, 1);
    // The flag's token is spent first, so after a Rest both Master tokens are there again.
    put_marker(&mut s, 0, Space::Hire);
    set_dishes(&mut s, 0, [0, 0, 0, 0]);
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Master));
    assert_eq!((s.players[0].hats[3], s.players[0].loose_master), (1, 1));
}

#[test]
fn bonus_always_lower_signpost() {
    let (g, mut s, mut rng) = with_bonus(Bonus::AlwaysLowerSignpost);
    set_dishes(&mut s, 0, [0, 0, 0, 0]);
    put_marker(&mut s, 1, Space::Produce);
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    assert_eq!(s.turn.pending, [0, 0, 0, 0, 1]);
}
