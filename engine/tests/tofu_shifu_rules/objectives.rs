use crate::helpers::*;
use shifu_engine::tofu_shifu::*;

fn claims(s: &[Action]) -> Vec<Action> {
    s.iter()
        .copied()
        .filter(|a| matches!(a, Action::ClaimTown(_) | Action::ClaimPlayer(_)))
        .collect()
}

#[test]
fn town_objective_requires_the_matching_upgrades() {
    // "To meet the requirement of a Town/Player Objective, you must complete the matching
    // upgrades shown on the Objective card."
    let g = game(2);
    let (mut s, _) = start(&g, 1);
    s.town_display = 0;
    show_town(&g, &mut s, "T05"); // 2 Lanterns
    add_upgrade(&g, &mut s, 0, "P65");
    assert!(claims(&legal(&g, &s)).is_empty());
    add_upgrade(&g, &mut s, 0, "P66");
    let t05 = town(&g, "T05");
    // PO1 (2 Lanterns) is met too.
    assert_eq!(
        claims(&legal(&g, &s)),
        vec![Action::ClaimTown(t05), Action::ClaimPlayer(0)]
    );
}

#[test]
fn objective_coins_are_paid_on_completion() {
    // "Some Objectives require Coins to complete. You must pay the coins as you complete them."
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    s.town_display = 0;
    show_town(&g, &mut s, "T07"); // 2 Silken Tofu upgrades + 2 coins
    add_upgrade(&g, &mut s, 0, "P09");
    add_upgrade(&g, &mut s, 0, "P10");
    set_coins(&mut s, 0, 1);
    assert!(claims(&legal(&g, &s)).is_empty(), "1 coin is not enough");
    set_coins(&mut s, 0, 3);
    let t07 = town(&g, "T07");
    play(&g, &mut s, &mut rng, Action::ClaimTown(t07));
    assert_eq!(s.players[0].coins, 1);
    assert_eq!(s.players[0].objectives(), 1);
    assert_eq!(
        s.town_display & (1 << t07),
        0,
        "the card leaves the display"
    );
}

#[test]
fn coin_stack_objective_is_taken_from_the_top() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    s.town_display = 0;
    set_coins(&mut s, 0, 14);
    let t01 = town(&g, "T01");
    assert_eq!(
        claims(&legal(&g, &s)),
        vec![Action::ClaimTown(t01)],
        "only the top (6 coins)"
    );
    play(&g, &mut s, &mut rng, Action::ClaimTown(t01));
    assert_eq!(s.players[0].coins, 8);
    assert_eq!(g.coin_stack_top(&s), Some(town(&g, "T02")));
}

#[test]
fn at_most_one_town_objective_per_turn() {
    // "Each player can only take at most 1 Town Objective card each turn."
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    s.town_display = 0;
    show_town(&g, &mut s, "T05");
    add_upgrade(&g, &mut s, 0, "P65");
    add_upgrade(&g, &mut s, 0, "P66");
    set_coins(&mut s, 0, 6); // T01 (coin stack) is met as well
    play(&g, &mut s, &mut rng, Action::ClaimTown(town(&g, "T05")));
    let c = claims(&legal(&g, &s));
    assert_eq!(
        c,
        vec![Action::ClaimPlayer(0)],
        "no second Town objective; Player objectives still"
    );
    play(&g, &mut s, &mut rng, Action::ClaimPlayer(0));
    assert_eq!(s.players[0].objectives(), 2);
}

#[test]
fn objectives_can_be_completed_before_and_after_the_shifu_action() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    s.town_display = 0;
    add_upgrade(&g, &mut s, 0, "P65");
    add_upgrade(&g, &mut s, 0, "P66");
    assert!(
        legal(&g, &s).contains(&Action::ClaimPlayer(0)),
        "at turn start"
    );
    put_marker(&mut s, 0, Space::Hire);
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    play(&g, &mut s, &mut rng, Action::EndBuying);
    assert_eq!(s.turn.phase, Phase::TurnEnd);
    assert_eq!(
        legal(&g, &s),
        vec![Action::ClaimPlayer(0), Action::EndTurn],
        "at turn end"
    );
}

#[test]
fn player_objectives_are_exclusive_to_each_player() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    s.town_display = 0;
    for id in ["P65", "P66"] {
        add_upgrade(&g, &mut s, 0, id);
    }
    for id in ["P67", "P68"] {
        add_upgrade(&g, &mut s, 1, id);
    }
    play(&g, &mut s, &mut rng, Action::ClaimPlayer(0));
    s.players[0].marker = Space::Hire as u8;
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    play(&g, &mut s, &mut rng, Action::EndBuying);
    play(&g, &mut s, &mut rng, Action::EndTurn);
    // Seat 1 can still complete its own copy of the same objective.
    assert!(legal(&g, &s).contains(&Action::ClaimPlayer(0)));
    // And seat 0 cannot complete it twice.
    assert_eq!(s.players[0].player_done, 1);
}

#[test]
fn printed_board_flags_do_not_count_as_upgrades_by_default() {
    let g = game(2);
    let (mut s, _) = start(&g, 1);
    s.town_display = 0;
    // PO2: 3 dish upgrades. The board's Soymilk and Silken flags do not count.
    add_upgrade(&g, &mut s, 0, "P01");
    add_upgrade(&g, &mut s, 0, "P09");
    assert!(!legal(&g, &s).contains(&Action::ClaimPlayer(1)));
    add_upgrade(&g, &mut s, 0, "P21");
    assert!(legal(&g, &s).contains(&Action::ClaimPlayer(1)));
}
