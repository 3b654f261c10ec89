//! Each rule the rulebooks leave open is a named option; these tests pin both settings.

use crate::helpers::*;
use shifu_engine::tofu_shifu::*;

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
    let c = s.market[0];
    let price = g.data.cards[c as usize].card_price;
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
