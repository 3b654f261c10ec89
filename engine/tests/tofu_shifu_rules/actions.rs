use crate::helpers::*;
use shifu_engine::tofu_shifu::*;
use shifu_engine::{Game, GameRng};

fn two_players(seed: u64) -> (TofuShifu, State, GameRng) {
    let g = game(2);
    let (s, rng) = start(&g, seed);
    (g, s, rng)
}

/// Pays every pending hat with the first option offered.
fn pay_all(g: &TofuShifu, s: &mut State, rng: &mut GameRng) {
    while s.turn.phase == Phase::PayHats {
        let a = legal(g, s)[0];
        play(g, s, rng, a);
    }
}

/// Moves to Seat and pays its Apprentice signpost with a Chef token.
fn enter_seat(g: &TofuShifu, s: &mut State, rng: &mut GameRng) {
    play(g, s, rng, Action::Move(Space::Seat));
    play(g, s, rng, Action::PayToken(Hat::Chef));
}

/// Serving `dish` to the customer at `table`, `seat`.
fn serve(table: u8, seat: u8, dish: Dish) -> Action {
    Action::ServeCustomer { table, seat, dish }
}

// ------------------------------------------------------------------ Upgrade (Iron Wok)

#[test]
fn upgrade_plays_a_card_and_pays_its_cost() {
    // "Example: a Silken Tofu upgrade costs a Chef Hat, a Soymilk and 2 Coins."
    let (g, mut s, mut rng) = two_players(1);
    set_hats(&mut s, 0, [1, 0, 0, 1]);
    set_hat_flags(&mut s, 0, [1, 0, 0, 1]);
    set_coins(&mut s, 0, 3);
    set_hand(&g, &mut s, 0, &["P09"]);
    let p09 = card(&g, "P09");
    let reserve_soymilk = s.reserve_dishes[0];
    play(&g, &mut s, &mut rng, Action::Move(Space::Upgrade));
    play(&g, &mut s, &mut rng, Action::ChooseCard(p09));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Master));
    let p = &s.players[0];
    assert_eq!(s.turn.phase, Phase::TurnEnd);
    assert_eq!(p.coins, 1);
    assert_eq!(p.dishes, [0, 1, 0, 0]);
    assert_eq!(s.reserve_dishes[0], reserve_soymilk + 1);
    assert_eq!(p.dish_flags, [1, 2, 0, 0]);
    assert_ne!(p.upgrades & (1 << p09), 0);
    assert_eq!(p.hand, 0);
}

#[test]
fn upgrade_only_offers_affordable_cards() {
    let (g, mut s, mut rng) = two_players(1);
    set_hats(&mut s, 0, [2, 0, 0, 0]);
    set_hat_flags(&mut s, 0, [2, 0, 0, 1]);
    set_coins(&mut s, 0, 2);
    // P09 Silken (Soymilk + 2 coins) is affordable; P21 Tofu (Silken + 3 coins) is not.
    set_hand(&g, &mut s, 0, &["P09", "P21"]);
    play(&g, &mut s, &mut rng, Action::Move(Space::Upgrade));
    assert_eq!(legal(&g, &s), vec![Action::ChooseCard(card(&g, "P09"))]);
}

// ------------------------------------------------------------------ Produce (Stone Mill)

#[test]
fn produce_fills_only_flags_without_an_unsold_token() {
    // "Example: a Silken Tofu and a Tofu are produced, while the Soymilk misses the production."
    let (g, mut s, mut rng) = two_players(1);
    add_upgrade(&g, &mut s, 0, "P21"); // a Tofu flag
    set_dishes(&mut s, 0, [1, 0, 0, 0]);
    set_hats(&mut s, 0, [1, 0, 0, 1]);
    set_hat_flags(&mut s, 0, [1, 0, 0, 1]);
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    pay_all(&g, &mut s, &mut rng);
    assert_eq!(s.players[0].dishes, [1, 1, 1, 0]);
    assert_eq!(
        s.players[0].dishes, s.players[0].dish_flags,
        "tokens match the cyan flags"
    );
}

// ------------------------------------------------------------------ Seat (Chopsticks)

fn seat_position(seed: u64) -> (TofuShifu, State, GameRng) {
    let (g, mut s, rng) = two_players(seed);
    set_hats(&mut s, 0, [2, 3, 2, 1]);
    set_hat_flags(&mut s, 0, [2, 3, 2, 1]);
    set_hand(&g, &mut s, 0, &["P03", "P05"]); // two Apprentice cards
    (g, s, rng)
}

#[test]
fn seat_draws_two_tiles() {
    let (g, mut s, mut rng) = seat_position(2);
    enter_seat(&g, &mut s, &mut rng);
    assert_eq!(s.turn.phase, Phase::SeatExtra);
    play(&g, &mut s, &mut rng, Action::SeatDraw);
    assert_eq!(s.drawn.count_ones(), 2);
    assert_eq!(s.bag.count_ones(), 38);
}

#[test]
fn seat_extra_waiter_hats_draw_two_more_each_at_most_three() {
    let (g, mut s, mut rng) = seat_position(2);
    enter_seat(&g, &mut s, &mut rng);
    for _ in 0..3 {
        play(&g, &mut s, &mut rng, Action::SeatExtra(0));
        play(&g, &mut s, &mut rng, Action::PayToken(Hat::Waiter));
    }
    // "a maximum of 3 extra Waiter Hats"
    assert_eq!(legal(&g, &s), vec![Action::SeatDraw]);
    play(&g, &mut s, &mut rng, Action::SeatDraw);
    assert_eq!(s.drawn.count_ones(), 8);
}

#[test]
fn seat_two_apprentice_hats_replace_a_waiter_hat() {
    let (g, mut s, mut rng) = seat_position(2);
    enter_seat(&g, &mut s, &mut rng);
    assert_eq!(
        legal(&g, &s),
        vec![Action::SeatExtra(0), Action::SeatExtra(1), Action::SeatDraw]
    );
    play(&g, &mut s, &mut rng, Action::SeatExtra(1));
    assert_eq!(s.turn.pending, [0, 0, 0, 0, 2]);
    play(&g, &mut s, &mut rng, Action::PayCard(card(&g, "P03")));
    play(&g, &mut s, &mut rng, Action::PayCard(card(&g, "P05")));
    play(&g, &mut s, &mut rng, Action::SeatDraw);
    assert_eq!(s.drawn.count_ones(), 4);
}

#[test]
fn seat_copied_cannot_use_two_apprentice_hats() {
    // "When the Seat action is copied, you cannot use 2 Apprentice Hats in place of a Waiter Hat"
    let (g, mut s, mut rng) = seat_position(2);
    put_marker(&mut s, 1, Space::Seat);
    play(&g, &mut s, &mut rng, Action::Move(Space::Copy));
    play(&g, &mut s, &mut rng, Action::CopyTarget(Space::Seat));
    pay_all(&g, &mut s, &mut rng);
    assert_eq!(legal(&g, &s), vec![Action::SeatExtra(0), Action::SeatDraw]);
}

#[test]
fn seat_places_at_most_two_customers_per_table_and_returns_the_rest() {
    let (g, mut s, mut rng) = seat_position(3);
    enter_seat(&g, &mut s, &mut rng);
    play(&g, &mut s, &mut rng, Action::SeatExtra(0));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Waiter));
    play(&g, &mut s, &mut rng, Action::SeatDraw);
    assert_eq!(s.drawn.count_ones(), 4);
    // One table at the start (no Lantern): two tiles fit, the rest go back to the bag.
    for _ in 0..2 {
        let a = legal(&g, &s)[0];
        assert!(matches!(a, Action::PlaceTile { table: 0, .. }), "{a:?}");
        play(&g, &mut s, &mut rng, a);
    }
    assert_eq!(s.turn.phase, Phase::TurnEnd);
    assert_eq!(s.drawn, 0);
    assert_eq!(s.players[0].table_customers(0), 2);
    assert_eq!(s.bag.count_ones(), 38);
}

#[test]
fn seat_unplaced_tiles_return_to_the_bag() {
    let (g, mut s, mut rng) = seat_position(3);
    enter_seat(&g, &mut s, &mut rng);
    play(&g, &mut s, &mut rng, Action::SeatDraw);
    let first = s.drawn.trailing_zeros() as u8;
    play(&g, &mut s, &mut rng, Action::ReturnTile(first));
    assert_ne!(s.bag & (1 << first), 0);
}

#[test]
fn seat_tables_unlock_by_lantern_up_to_four() {
    let (g, mut s, _) = two_players(1);
    assert_eq!(g.tables_open(&s.players[0]), 1);
    for (i, id) in ["P65", "P66", "P67", "P68"].iter().enumerate() {
        add_upgrade(&g, &mut s, 0, id);
        assert_eq!(g.tables_open(&s.players[0]), (2 + i).min(4));
    }
}

#[test]
fn seat_offers_one_empty_table_when_several_are_empty() {
    let (g, mut s, mut rng) = seat_position(3);
    add_upgrade(&g, &mut s, 0, "P65");
    add_upgrade(&g, &mut s, 0, "P66");
    seat_customer(&g, &mut s, 0, "C40", 0);
    enter_seat(&g, &mut s, &mut rng);
    play(&g, &mut s, &mut rng, Action::SeatDraw);
    let tables: Vec<u8> = legal(&g, &s)
        .iter()
        .filter_map(|a| match a {
            Action::PlaceTile { table, .. } => Some(*table),
            _ => None,
        })
        .collect();
    // Table 1 has a free seat; tables 2 and 3 are empty and interchangeable.
    assert_eq!(tables, vec![0, 1]);
}

// ------------------------------------------------------------------ Serve (Carrying Pole)

fn serve_position(seed: u64) -> (TofuShifu, State, GameRng) {
    let (g, mut s, rng) = two_players(seed);
    set_hats(&mut s, 0, [0, 2, 0, 1]);
    set_hat_flags(&mut s, 0, [0, 2, 0, 1]);
    set_dishes(&mut s, 0, [2, 1, 1, 0]);
    (g, s, rng)
}

#[test]
fn serve_prices_are_1_2_3_4_and_one_market_sale() {
    // "a Silken Tofu and a Tofu are served to Customers, and a Soymilk is sold to the Market,
    // gaining 2+3+1=6 coins."
    let (g, mut s, mut rng) = serve_position(4);
    seat_customer(&g, &mut s, 0, "C14", 0); // orders Silken Tofu, Tofu
    let coins = s.players[0].coins;
    play(&g, &mut s, &mut rng, Action::Move(Space::Serve));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Waiter));
    play(&g, &mut s, &mut rng, serve(0, 0, Dish::SilkenTofu));
    play(&g, &mut s, &mut rng, serve(0, 0, Dish::Tofu));
    play(&g, &mut s, &mut rng, Action::SellToMarket(Dish::Soymilk));
    assert_eq!(s.players[0].coins, coins + 6);
    // "only one can be sold per Serve action"
    assert_eq!(legal(&g, &s), vec![Action::EndServe]);
    // "Dish tokens sold to a customer are kept on the tile."
    assert_eq!(s.players[0].table_served(0), [0, 1, 1, 0]);
}

#[test]
fn serve_a_customer_accepts_one_of_each_ordered_dish() {
    let (g, mut s, mut rng) = serve_position(4);
    seat_customer(&g, &mut s, 0, "C01", 0); // orders Soymilk, Silken Tofu
    play(&g, &mut s, &mut rng, Action::Move(Space::Serve));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Waiter));
    play(&g, &mut s, &mut rng, serve(0, 0, Dish::Soymilk));
    let l = legal(&g, &s);
    assert!(!l.contains(&Action::ServeCustomer {
        table: 0,
        seat: 0,
        dish: Dish::Soymilk
    }));
    assert!(
        !l.iter().any(|a| matches!(
            a,
            Action::ServeCustomer {
                dish: Dish::Tofu,
                ..
            }
        )),
        "Tofu not ordered"
    );
    assert!(l.contains(&Action::ServeCustomer {
        table: 0,
        seat: 0,
        dish: Dish::SilkenTofu
    }));
}

// ------------------------------------------------------------------ Checkout (Abacus)

fn checkout_position(seed: u64, sets: &[&str]) -> (TofuShifu, State, GameRng) {
    let g = game_with(2, sets);
    let (mut s, rng) = start(&g, seed);
    set_hats(&mut s, 0, [0, 0, 2, 1]);
    set_hat_flags(&mut s, 0, [0, 0, 2, 1]);
    add_upgrade(&g, &mut s, 0, "P65");
    (g, s, rng)
}

#[test]
fn checkout_coin_customer_pays_one_coin_when_leaving() {
    let (g, mut s, mut rng) = checkout_position(5, &[]);
    seat_customer(&g, &mut s, 0, "C37", 0); // coin customer, unserved
    seat_customer(&g, &mut s, 0, "C02", 0); // no coin
    let coins = s.players[0].coins;
    checkout_first_table(&g, &mut s, &mut rng);
    assert_eq!(s.players[0].coins, coins + 1);
    assert_eq!(s.players[0].table_customers(0), 0);
    assert_eq!(s.bag.count_ones(), 40, "tiles go back to the bag");
}

#[test]
fn checkout_returns_served_dishes_to_the_reserve() {
    let (g, mut s, mut rng) = checkout_position(5, &[]);
    seat_customer(&g, &mut s, 0, "C01", 0);
    mark_served(&mut s, 0, 0, 0, 0b11); // served Soymilk and Silken Tofu
    g.check_invariants(&s).unwrap();
    let before = s.reserve_dishes;
    checkout_first_table(&g, &mut s, &mut rng);
    assert_eq!(s.reserve_dishes[0], before[0] + 1);
    assert_eq!(s.reserve_dishes[1], before[1] + 1);
}

#[test]
fn checkout_one_restaurant_objective_per_table_several_per_checkout() {
    // "Only one Objective can be completed per table, but you may complete multiple Objectives
    // per Abacus (Checkout)."
    let (g, mut s, mut rng) = checkout_position(5, &[]);
    add_restaurant_objective(&g, &mut s, 0, "P14"); // Soymilk + Silken Tofu
    add_restaurant_objective(&g, &mut s, 0, "P62"); // Tofu, Tofu, Dried Tofu (not met)
    add_restaurant_objective(&g, &mut s, 0, "P63"); // Silken Tofu + Tofu
    seat_customer(&g, &mut s, 0, "C01", 0); // Soymilk, Silken
    seat_customer(&g, &mut s, 0, "C14", 1); // Silken, Tofu
    mark_served(&mut s, 0, 0, 0, 0b0011);
    mark_served(&mut s, 0, 1, 0, 0b0110);
    g.check_invariants(&s).unwrap();
    play(&g, &mut s, &mut rng, Action::Move(Space::Checkout));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Cashier));
    let (p14, p63) = (CardId::new(card(&g, "P14")), CardId::new(card(&g, "P63")));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::CleanTable {
        table: 0,
        objective: p14
    }));
    assert!(
        !l.contains(&Action::CleanTable {
            table: 0,
            objective: p63
        }),
        "table 1 lacks Tofu"
    );
    assert!(l.contains(&Action::CleanTable {
        table: 1,
        objective: p63
    }));
    // Dried Tofu is asked too; no table was served any.
    let p62 = CardId::new(card(&g, "P62"));
    assert!(!l
        .iter()
        .any(|a| matches!(a, Action::CleanTable { objective, .. } if *objective == p62)));
    play(
        &g,
        &mut s,
        &mut rng,
        Action::CleanTable {
            table: 0,
            objective: p14,
        },
    );
    play(
        &g,
        &mut s,
        &mut rng,
        Action::CleanTable {
            table: 1,
            objective: p63,
        },
    );
    assert_eq!(s.players[0].restaurant_done.count_ones(), 2);
    assert_eq!(s.players[0].objectives(), 2);
    assert_eq!(s.players[0].objective_zone.count_ones(), 1);
}

#[test]
fn checkout_may_clean_a_table_without_serving_it() {
    let (g, mut s, mut rng) = checkout_position(5, &[]);
    seat_customer(&g, &mut s, 0, "C02", 0);
    play(&g, &mut s, &mut rng, Action::Move(Space::Checkout));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Cashier));
    assert!(legal(&g, &s).contains(&Action::CleanTable {
        table: 0,
        objective: CardId::NONE
    }));
}

// ------------------------------------------------------------------ Hire (Hiring Fair)

#[test]
fn hire_is_free_and_the_market_shifts_right_with_a_new_card_leftmost() {
    let (g, mut s, mut rng) = two_players(6);
    set_hats(&mut s, 0, [0, 0, 1, 1]);
    set_hat_flags(&mut s, 0, [0, 0, 1, 1]);
    let before = s.market;
    let coins = s.players[0].coins;
    play(&g, &mut s, &mut rng, Action::Move(Space::Hire));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Cashier));
    play(&g, &mut s, &mut rng, Action::Hire(2));
    assert_ne!(
        s.players[0].rest & (1 << before[2].get().unwrap()),
        0,
        "hired card goes to the Rest zone"
    );
    assert_eq!(s.players[0].coins, coins, "hiring is free");
    assert_eq!(s.market[1], before[0]);
    assert_eq!(s.market[2], before[1]);
    assert_eq!(s.market[3], before[3]);
    assert_eq!(s.market[4], before[4]);
    assert!(
        s.market[0].is_some() && !before.contains(&s.market[0]),
        "new card leftmost"
    );
}

// ------------------------------------------------------------------ Set Objective (Plaque)

#[test]
fn set_objective_plays_a_card_face_up_as_a_restaurant_objective() {
    let (g, mut s, mut rng) = two_players(6);
    set_hand(&g, &mut s, 0, &["P14", "P02"]);
    let p14 = card(&g, "P14");
    play(&g, &mut s, &mut rng, Action::Move(Space::SetObjective));
    play(&g, &mut s, &mut rng, Action::ChooseCard(p14));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Master));
    assert_eq!(s.players[0].objective_zone, 1 << p14);
    assert_eq!(s.players[0].objectives(), 0, "set, not completed");
}

// ------------------------------------------------------------------ Copy (Leaf Fan)

#[test]
fn copy_takes_the_copied_action() {
    let (g, mut s, mut rng) = two_players(6);
    set_hats(&mut s, 0, [1, 1, 0, 1]);
    set_hat_flags(&mut s, 0, [1, 1, 0, 1]);
    put_marker(&mut s, 1, Space::Hire);
    play(&g, &mut s, &mut rng, Action::Move(Space::Copy));
    play(&g, &mut s, &mut rng, Action::CopyTarget(Space::Hire));
    pay_all(&g, &mut s, &mut rng);
    assert_eq!(s.turn.phase, Phase::Hire);
    assert_eq!(s.players[0].marker, Space::Copy as u8);
}

// ------------------------------------------------------------------ Rest (Herbal Tea)

#[test]
fn rest_refills_hats_to_the_light_brown_flags() {
    let (g, mut s, mut rng) = two_players(7);
    add_upgrade(&g, &mut s, 0, "P41"); // Chef flag
    add_upgrade(&g, &mut s, 0, "P55"); // Cashier flag
    set_hats(&mut s, 0, [0, 0, 0, 1]);
    put_marker(&mut s, 0, Space::Hire);
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    // "Example: a Cashier and a Chef token is refilled." The Master flag had its token.
    assert_eq!(s.players[0].hats, [1, 0, 1, 1]);
}

#[test]
fn rest_buys_any_number_of_cards_at_slot_prices_then_refills_the_market() {
    let (g, mut s, mut rng) = two_players(7);
    set_coins(&mut s, 0, 5);
    put_marker(&mut s, 0, Space::Hire);
    let before = s.market;
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    // Prices by slot, left to right: 4, 3, 2, 2, 1.
    play(&g, &mut s, &mut rng, Action::Buy(1));
    play(&g, &mut s, &mut rng, Action::Buy(4));
    assert_eq!(s.players[0].coins, 1);
    assert!(
        !legal(&g, &s).iter().any(|a| matches!(a, Action::Buy(_))),
        "1 coin buys nothing left"
    );
    play(&g, &mut s, &mut rng, Action::EndBuying);
    // Remaining cards shift right: [c0, _, c2, c3, _] -> [new, new, c0, c2, c3].
    assert_eq!(&s.market[2..5], &[before[0], before[2], before[3]]);
    assert!(s.market[..2].iter().all(|c| c.is_some()));
    // The bought cards went to the Rest zone and then into the hand.
    let hand = s.players[0].hand;
    assert_ne!(hand & (1 << before[1].get().unwrap()), 0);
    assert_ne!(hand & (1 << before[4].get().unwrap()), 0);
    assert_eq!(s.players[0].rest, 0);
}

#[test]
fn rest_refill_hand_keeps_at_most_six_cards_of_the_players_choice() {
    let (g, mut s, mut rng) = two_players(7);
    set_hand(&g, &mut s, 0, &["P01", "P02", "P03", "P04"]);
    for id in ["P05", "P06", "P07", "P08"] {
        put_in_rest(&g, &mut s, 0, id);
    }
    put_marker(&mut s, 0, Space::Hire);
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    play(&g, &mut s, &mut rng, Action::EndBuying);
    assert_eq!(s.turn.phase, Phase::RestDiscard);
    // The player chooses: return P01 and P08.
    play(&g, &mut s, &mut rng, Action::ReturnCard(card(&g, "P01")));
    play(&g, &mut s, &mut rng, Action::ReturnCard(card(&g, "P08")));
    assert_eq!(s.turn.phase, Phase::TurnEnd);
    assert_eq!(s.players[0].hand.count_ones(), 6);
    assert_eq!(
        s.players[0].rest,
        (1 << card(&g, "P01")) | (1 << card(&g, "P08"))
    );
}

#[test]
fn rest_refill_hand_far_over_the_limit_chooses_the_cards_to_keep() {
    let (g, mut s, mut rng) = two_players(7);
    set_hand(&g, &mut s, 0, &["P01", "P02", "P03", "P04"]);
    let extra = [
        "P05", "P06", "P07", "P08", "P09", "P10", "P11", "P12", "P13",
    ];
    for id in extra {
        put_in_rest(&g, &mut s, 0, id);
    }
    put_marker(&mut s, 0, Space::Hire);
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    play(&g, &mut s, &mut rng, Action::EndBuying);
    assert_eq!(s.turn.phase, Phase::RestKeep);
    for id in ["P02", "P04", "P06", "P08", "P10", "P12"] {
        play(&g, &mut s, &mut rng, Action::KeepCard(card(&g, id)));
    }
    assert_eq!(s.turn.phase, Phase::TurnEnd);
    assert_eq!(s.players[0].hand.count_ones(), 6);
    assert_eq!(s.players[0].rest.count_ones(), 7);
    assert_ne!(s.players[0].hand & (1 << card(&g, "P12")), 0);
}

#[test]
fn rest_zone_cards_are_public_once_back_in_hand() {
    let (g, mut s, mut rng) = two_players(7);
    put_in_rest(&g, &mut s, 0, "P05");
    put_marker(&mut s, 0, Space::Hire);
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    play(&g, &mut s, &mut rng, Action::EndBuying);
    let p05 = 1u128 << card(&g, "P05");
    assert_eq!(s.players[0].hand_known, p05);
    assert_eq!(g.observation(&s, 1).public.players[0].hand, p05);
}
