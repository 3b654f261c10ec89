use crate::helpers::*;
use shifu_engine::tofu_shifu::*;
use shifu_engine::Game;

/// A 4-player start where seat 0 has plenty of hats, coins and cards.
fn rich(seed: u64) -> (TofuShifu, State, shifu_engine::GameRng) {
    let g = game(4);
    let (mut s, rng) = start(&g, seed);
    set_hats(&mut s, 0, [2, 2, 2, 2]);
    set_hat_flags(&mut s, 0, [2, 2, 2, 2]);
    set_coins(&mut s, 0, 10);
    set_hand(&g, &mut s, 0, &["P01", "P09", "P41", "P65"]);
    (g, s, rng)
}

#[test]
fn shifu_action_must_move_to_a_different_space() {
    let (g, mut s, _) = rich(1);
    set_dishes(&mut s, 0, [0, 0, 0, 0]); // Produce would do something
    put_marker(&mut s, 0, Space::Produce);
    let m = moves(&g, &s);
    assert!(!m.contains(&Space::Produce), "{m:?}");
    assert!(m.contains(&Space::Rest));
    put_marker(&mut s, 0, Space::Rest);
    let m = moves(&g, &s);
    assert!(
        m.contains(&Space::Produce) && !m.contains(&Space::Rest),
        "{m:?}"
    );
}

#[test]
fn signpost_lower_cost_when_no_other_marker() {
    let (g, mut s, mut rng) = rich(1);
    set_dishes(&mut s, 0, [0, 0, 0, 0]);
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    assert_eq!(s.turn.phase, Phase::PayHats);
    assert_eq!(s.turn.pending, g.data.spaces[Space::Produce as usize].lower);
    assert_eq!(s.turn.pending, [0, 0, 0, 0, 1]); // one Apprentice hat
}

#[test]
fn signpost_higher_cost_when_another_marker_present() {
    let (g, mut s, mut rng) = rich(1);
    set_dishes(&mut s, 0, [0, 0, 0, 0]);
    put_marker(&mut s, 2, Space::Produce);
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    assert_eq!(s.turn.pending, [1, 0, 0, 0, 1]); // Chef + Apprentice
}

#[test]
fn board_space_holds_at_most_two_markers() {
    let (g, mut s, _) = rich(1);
    set_dishes(&mut s, 0, [0, 0, 0, 0]);
    put_marker(&mut s, 1, Space::Produce);
    assert!(moves(&g, &s).contains(&Space::Produce));
    put_marker(&mut s, 2, Space::Produce);
    assert!(!moves(&g, &s).contains(&Space::Produce));
}

#[test]
fn copy_space_has_one_signpost_and_holds_one_marker() {
    let (g, mut s, mut rng) = rich(1);
    put_marker(&mut s, 1, Space::Hire);
    assert!(moves(&g, &s).contains(&Space::Copy));
    put_marker(&mut s, 2, Space::Copy);
    assert!(
        !moves(&g, &s).contains(&Space::Copy),
        "Copy holds one marker"
    );
    put_marker(&mut s, 2, Space::Rest);
    play(&g, &mut s, &mut rng, Action::Move(Space::Copy));
    assert_eq!(s.turn.phase, Phase::CopyTarget);
    play(&g, &mut s, &mut rng, Action::CopyTarget(Space::Hire));
    assert_eq!(s.turn.pending, [0, 0, 0, 0, 2]); // the single signpost: two Apprentice hats
}

#[test]
fn rest_is_player_exclusive_and_free() {
    let (g, mut s, mut rng) = rich(1);
    // Every other marker is on its own Rest space; Rest is still open and costs nothing.
    put_marker(&mut s, 0, Space::Hire);
    assert!(moves(&g, &s).contains(&Space::Rest));
    let hats = s.players[0].hats;
    play(&g, &mut s, &mut rng, Action::Move(Space::Rest));
    assert_eq!(s.turn.phase, Phase::RestBuy);
    assert_eq!(
        s.players[0].hats[..],
        hats[..],
        "no hat paid (flags were full)"
    );
}

#[test]
fn shifu_action_space_must_be_affordable() {
    let g = game(2);
    let (mut s, _) = start(&g, 5);
    set_hats(&mut s, 0, [0, 0, 0, 0]);
    set_hand(&g, &mut s, 0, &[]);
    put_marker(&mut s, 0, Space::Hire);
    // No hats and no cards: nothing on the Town map can be paid for.
    assert_eq!(moves(&g, &s), vec![Space::Rest]);
}

#[test]
fn shifu_action_must_be_able_to_take_the_action() {
    // "must move to a different board space that you can afford and whose action you can take"
    let g = game(2);
    let (mut s, _) = start(&g, 5);
    set_hats(&mut s, 0, [1, 1, 1, 1]);
    set_hat_flags(&mut s, 0, [1, 1, 1, 1]);
    set_hand(&g, &mut s, 0, &["P62"]); // Master hat upgrade: 2 Apprentice + 5 coins
    set_coins(&mut s, 0, 1);
    assert!(
        !moves(&g, &s).contains(&Space::Upgrade),
        "cannot afford the only card"
    );
    set_coins(&mut s, 0, 5);
    assert!(moves(&g, &s).contains(&Space::Upgrade));
    // Checkout needs a customer; Serve needs a dish token.
    assert!(!moves(&g, &s).contains(&Space::Checkout));
    seat_customer(&g, &mut s, 0, "C01", 0);
    assert!(moves(&g, &s).contains(&Space::Checkout));
    set_dishes(&mut s, 0, [0, 0, 0, 0]);
    assert!(!moves(&g, &s).contains(&Space::Serve));
}

#[test]
fn produce_cannot_be_entered_when_it_would_produce_nothing() {
    let g = game(2);
    let (s, _) = start(&g, 5);
    // At set-up every flag holds its token.
    assert!(!moves(&g, &s).contains(&Space::Produce));
}

#[test]
fn pass_when_no_space_can_be_entered() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 5);
    set_hats(&mut s, 0, [0, 0, 0, 0]);
    set_hand(&g, &mut s, 0, &[]);
    // On Rest with nothing to pay with: the player passes and the marker stays.
    assert_eq!(legal(&g, &s), vec![Action::Pass]);
    play(&g, &mut s, &mut rng, Action::Pass);
    assert_eq!(s.turn.phase, Phase::TurnEnd);
    assert_eq!(s.players[0].marker, Space::Rest as u8);
    play(&g, &mut s, &mut rng, Action::EndTurn);
    assert_eq!(g.to_move(&s), Some(1));
}

#[test]
fn copy_only_a_space_occupied_by_another_players_marker() {
    let (g, mut s, mut rng) = rich(1);
    // Nobody on the Town map: nothing to copy.
    assert!(!moves(&g, &s).contains(&Space::Copy));
    put_marker(&mut s, 3, Space::Hire);
    put_marker(&mut s, 1, Space::Upgrade);
    play(&g, &mut s, &mut rng, Action::Move(Space::Copy));
    let targets: Vec<Action> = legal(&g, &s);
    assert_eq!(
        targets,
        vec![
            Action::CopyTarget(Space::Upgrade),
            Action::CopyTarget(Space::Hire)
        ]
    );
}

#[test]
fn copy_cannot_target_rest_by_default() {
    let (g, mut s, mut rng) = rich(1);
    put_marker(&mut s, 1, Space::Hire);
    play(&g, &mut s, &mut rng, Action::Move(Space::Copy));
    // Seats 2 and 3 are on their Rest spaces, which are player-exclusive.
    assert_eq!(legal(&g, &s), vec![Action::CopyTarget(Space::Hire)]);
}
