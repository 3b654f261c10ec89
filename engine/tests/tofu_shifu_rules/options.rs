//! Each rule the rulebooks leave open is a named option; these tests pin both settings.

use crate::helpers::*;
use shifu_engine::tofu_shifu::*;
use shifu_engine::ParamFile;

#[test]
fn option_objective_limit_one_total_allows_one_town_or_player_objective_per_turn() {
    for (sets, expect_town_after_player) in
        [(&[][..], true), (&["objective_limit=one-total"][..], false)]
    {
        let g = game_with(2, sets);
        let (mut s, mut rng) = start(&g, 1);
        s.town_display = 0;
        show_town(&g, &mut s, "T05");
        add_upgrade(&g, &mut s, 0, "P65");
        add_upgrade(&g, &mut s, 0, "P66");
        play(&g, &mut s, &mut rng, Action::ClaimPlayer(0));
        let town_offered = legal(&g, &s).contains(&Action::ClaimTown(town(&g, "T05")));
        assert_eq!(town_offered, expect_town_after_player, "{sets:?}");
    }
}

#[test]
fn option_unserved_coin_customer_pays() {
    for (sets, gain) in [
        (&[][..], 1),
        (&["unserved_coin_customer_pays=false"][..], 0),
    ] {
        let g = game_with(2, sets);
        let (mut s, mut rng) = start(&g, 1);
        set_hats(&mut s, 0, [0, 0, 1, 1]);
        set_hat_flags(&mut s, 0, [0, 0, 1, 1]);
        seat_customer(&g, &mut s, 0, "C37", 0);
        let coins = s.players[0].coins;
        checkout_first_table(&g, &mut s, &mut rng);
        assert_eq!(s.players[0].coins, coins + gain, "{sets:?}");
    }
}

#[test]
fn option_board_flags_count_for_objectives() {
    let g = game_with(2, &["board_flags_count=true"]);
    let (mut s, _) = start(&g, 1);
    s.town_display = 0;
    // PO2 (3 dish upgrades): the board's Soymilk and Silken flags plus one upgrade.
    add_upgrade(&g, &mut s, 0, "P01");
    assert!(legal(&g, &s).contains(&Action::ClaimPlayer(1)));
}

#[test]
fn option_market_price_by_card() {
    let g = game_with(2, &["market_price_mode=card"]);
    let (mut s, mut rng) = start(&g, 1);
    put_marker(&mut s, 0, Space::Hire);
    set_coins(&mut s, 0, 20);
    let c = s.market[0].index().unwrap();
    let price = g.data.cards[c].card_price;
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    play(&g, &mut s, &mut rng, Action::Buy(0));
    assert_eq!(s.players[0].coins, 20 - price);
}

#[test]
fn option_finite_reserve_limits_gains() {
    for (sets, expect) in [(&[][..], 0u8), (&["finite_reserve=false"][..], 1)] {
        let g = game_with(2, sets);
        let (mut s, mut rng) = start(&g, 1);
        add_upgrade(&g, &mut s, 0, "P21"); // a Tofu flag
                                           // Empty the Tofu reserve: move every Tofu token to seat 1.
        let n = s.reserve_dishes[2];
        s.reserve_dishes[2] = 0;
        s.players[1].dishes[2] = n as u8;
        s.players[1].dish_flags[2] = n as u8;
        set_dishes(&mut s, 0, [0, 1, 0, 0]); // the Soymilk flag can still produce
        play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
        play(&g, &mut s, &mut rng, Action::PayToken(Hat::Master));
        assert_eq!(s.players[0].dishes[0], 1, "{sets:?}");
        assert_eq!(s.players[0].dishes[2], expect, "{sets:?}");
    }
}

#[test]
fn option_copy_can_target_rest() {
    let g = game_with(2, &["copy_can_target_rest=true"]);
    let (mut s, mut rng) = start(&g, 1);
    put_marker(&mut s, 0, Space::Hire);
    set_hats(&mut s, 0, [1, 1, 0, 0]);
    set_hat_flags(&mut s, 0, [1, 1, 0, 1]);
    // Seat 1's marker is on its Rest space.
    play(&g, &mut s, &mut rng, Action::Move(Space::Copy));
    assert_eq!(legal(&g, &s), vec![Action::CopyTarget(Space::Rest)]);
    play(&g, &mut s, &mut rng, Action::CopyTarget(Space::Rest));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Waiter));
    assert_eq!(s.turn.phase, Phase::RestBuy);
    assert_eq!(s.players[0].hats[3], 1, "the Master flag refilled");
}

#[test]
fn option_require_effective_action() {
    let g = game(2);
    let (s, _) = start(&g, 1);
    assert!(!moves(&g, &s).contains(&Space::Produce));
    let g = game_with(2, &["require_effective_action=false"]);
    let (s, _) = start(&g, 1);
    assert!(moves(&g, &s).contains(&Space::Produce));
    assert!(
        moves(&g, &s).contains(&Space::Checkout),
        "may clean no table"
    );
}

#[test]
fn option_town_objective_cost_scale_and_single_override() {
    let g = game_with(
        2,
        &["town_objective_cost_scale=0.5", "objective_cost.T02=1"],
    );
    let costs: Vec<u16> = ["T01", "T02", "T03", "T07"]
        .iter()
        .map(|id| g.town_requirement(town(&g, id) as usize).coins)
        .collect();
    assert_eq!(costs, vec![3, 1, 5, 1]);
    // The stack stays lowest-first after the change.
    let (s, _) = start(&g, 1);
    assert_eq!(g.coin_stack_top(&s), Some(town(&g, "T02")));
}

#[test]
fn option_end_objectives_and_hand_limit_parameters() {
    let g = game_with(2, &["end_objectives=1", "hand_limit=5"]);
    assert_eq!(g.end_objectives(), 1);
    let (s, _) = start(&g, 1);
    assert_eq!(g.hand_limit(&s.players[0]), 5);
}

#[test]
fn bad_parameters_are_errors_naming_the_key() {
    let mut p = Params::with_players(5);
    let e = TofuShifu::with_params(p.clone()).unwrap_err().to_string();
    assert!(e.contains("players"), "{e}");
    p.players = 4;
    p.start_coins = Some(vec![1, 2]);
    let e = TofuShifu::with_params(p.clone()).unwrap_err().to_string();
    assert!(e.contains("start_coins"), "{e}");
    p.start_coins = None;
    p.objective_cost.insert("T99".into(), 3);
    let e = TofuShifu::with_params(p.clone()).unwrap_err().to_string();
    assert!(e.contains("objective_cost.T99"), "{e}");
    p.objective_cost.clear();
    p.market_size = Some(3);
    let e = TofuShifu::with_params(p).unwrap_err().to_string();
    assert!(e.contains("market_prices"), "{e}");
}

#[test]
fn option_copy_can_target_rest_only_when_the_copy_cost_can_be_paid() {
    // Copy's single signpost still has to be paid when the copied space is a free Rest: with
    // no hat to pay it, neither Copy nor Copy-to-Rest is offered (it used to dead-end the turn).
    let g = game_with(2, &["copy_can_target_rest=true"]);
    let (mut s, _) = start(&g, 1);
    put_marker(&mut s, 0, Space::Hire);
    set_hats(&mut s, 0, [0, 0, 0, 0]);
    set_hand(&g, &mut s, 0, &[]);
    assert!(!moves(&g, &s).contains(&Space::Copy), "{:?}", moves(&g, &s));
    // One Apprentice-capable payer is not enough for the two Apprentice symbols either.
    set_hats(&mut s, 0, [1, 0, 0, 0]);
    assert!(!moves(&g, &s).contains(&Space::Copy));
    set_hats(&mut s, 0, [1, 1, 0, 0]);
    assert!(moves(&g, &s).contains(&Space::Copy));
}

#[test]
fn option_end_rule_immediate_ends_the_game_with_the_turn_that_reaches_the_count() {
    for (sets, over_after_seat_0) in [(&[][..], false), (&["end_rule=immediate"][..], true)] {
        let g = game_with(3, sets);
        let (mut s, mut rng) = start(&g, 1);
        for id in ["P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08"] {
            add_completed(&g, &mut s, 0, id);
        }
        put_marker(&mut s, 0, Space::Hire);
        play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
        while s.turn.phase != Phase::TurnEnd {
            let a = *legal(&g, &s).last().unwrap();
            play(&g, &mut s, &mut rng, a);
        }
        play(&g, &mut s, &mut rng, Action::EndTurn);
        assert_eq!(s.end_trigger, SeatId::new(0), "{sets:?}");
        assert_eq!(s.is_over(), over_after_seat_0, "{sets:?}");
    }
}

#[test]
fn knob_upgrade_coin_scale_keeps_the_costs_the_rulebook_prints() {
    let g = game_with(2, &["upgrade_coin_scale=0.5"]);
    let base = game(2);
    let cost = |g: &TofuShifu, id: &str| g.data.cards[card(g, id) as usize].cost_coins;
    // "a Silken Tofu upgrade costs a Chef Hat, a Soymilk and 2 Coins" (P09 in the data).
    assert_eq!(cost(&g, "P09"), 2);
    // Other cards are halved, halves rounded up: 2 -> 1, 3 -> 2, 5 -> 3.
    assert_eq!((cost(&base, "P10"), cost(&g, "P10")), (2, 1));
    assert_eq!((cost(&base, "P41"), cost(&g, "P41")), (3, 2));
    assert_eq!((cost(&base, "P62"), cost(&g, "P62")), (5, 3));
    assert!(
        g.data.status.contains("upgrade_coin_scale=0.5"),
        "{}",
        g.data.status
    );
}

#[test]
fn knob_restaurant_objective_dishes_distinct_and_max_dishes() {
    let g = game_with(
        2,
        &[
            "restaurant_objective_dishes=distinct",
            "restaurant_objective_max_dishes=2",
        ],
    );
    let need = |id: &str| g.data.cards[card(&g, id) as usize].objective;
    // P03 asks Dried Tofu, Dried Tofu, Soymilk: distinct keeps Dried Tofu and Soymilk.
    assert_eq!(need("P03"), [1, 0, 0, 1]);
    // P07 asks all four dishes: the first two stay.
    assert_eq!(need("P07"), [1, 1, 0, 0]);
    // P01's Soymilk, Silken Tofu and Tofu is the rulebook's example and stays whole.
    assert_eq!(need("P01"), [1, 1, 1, 0]);
}

#[test]
fn knob_player_objective_upgrade_delta_never_goes_below_one() {
    let g = game_with(2, &["player_objective_upgrade_delta=-1"]);
    // PO1: 2 Lanterns -> 1; PO4: Tofu 1 and Dried Tofu 1 stay 1, its 3 coins stay.
    assert_eq!(g.player_requirement(0).lantern, 1);
    let po4 = g.player_requirement(3);
    assert_eq!((po4.dish[2], po4.dish[3], po4.coins), (1, 1, 3));
    let g = game_with(2, &["player_objective_upgrade_delta=1"]);
    assert_eq!(g.player_requirement(0).lantern, 3);
}

#[test]
fn knob_town_bonus_powers_off_gives_no_power() {
    let g = game_with(2, &["town_bonus_powers=false"]);
    let (mut s, mut rng) = start(&g, 1);
    s.town_display = 0;
    show_town(&g, &mut s, "T05");
    add_upgrade(&g, &mut s, 0, "P65");
    add_upgrade(&g, &mut s, 0, "P66");
    play(&g, &mut s, &mut rng, Action::ClaimTown(town(&g, "T05")));
    assert_eq!(s.players[0].town_done.count_ones(), 1);
    assert_eq!(s.players[0].bonuses, 0);
}

#[test]
fn knob_values_out_of_range_are_errors_naming_the_key() {
    for (set, key) in [
        ("upgrade_coin_scale=-1", "upgrade_coin_scale"),
        ("upgrade_coin_scale=nan", "upgrade_coin_scale"),
        (
            "restaurant_objective_max_dishes=0",
            "restaurant_objective_max_dishes",
        ),
        ("town_objective_cost_scale=inf", "town_objective_cost_scale"),
    ] {
        let mut p = Params::with_players(2);
        let e = match p.set_all([set]) {
            Err(e) => e.to_string(),
            Ok(()) => TofuShifu::new(data(), p).unwrap_err().to_string(),
        };
        assert!(e.contains(key), "{set}: {e}");
    }
    let mut p = Params::with_players(2);
    let e = p
        .set_all(["objective_cost.T01=65536"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("objective_cost.T01"), "{e}");
}
