use crate::helpers::*;
use shifu_engine::tofu_shifu::*;
use shifu_engine::Game;

const EIGHT: [&str; 8] = ["P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08"];

#[test]
fn game_ends_before_the_first_players_turn_once_someone_has_eight_objectives() {
    // "Before each of the first player's rounds, if any player has completed 8 or more
    // Objectives, the game ends" — so every player has had the same number of turns.
    let g = game(3);
    let (mut s, mut rng) = start(&g, 1);
    for id in EIGHT {
        add_completed(&g, &mut s, 1, id);
    }
    // Seat 0 is to move: the check happens only before seat 0's turns, so play goes on.
    assert_eq!(g.to_move(&s), Some(0));
    for seat in 0..3 {
        assert_eq!(g.to_move(&s), Some(seat));
        play_turn(&g, &mut s, &mut rng);
    }
    assert_eq!(g.to_move(&s), None);
    assert_eq!(s.turns, 3);
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b010);
    assert_eq!(o.rank[1], 1);
    assert_eq!(o.score[1], 8.0);
    assert!(!o.capped);
}

/// Plays one whole turn: the first Move (or Pass), then the last legal action of each phase.
fn play_turn(g: &TofuShifu, s: &mut State, rng: &mut shifu_engine::GameRng) {
    let a = *legal(g, s)
        .iter()
        .find(|a| matches!(a, Action::Move(_) | Action::Pass))
        .unwrap();
    play(g, s, rng, a);
    while s.turn.phase != Phase::TurnEnd {
        let a = *legal(g, s).last().unwrap();
        play(g, s, rng, a);
    }
    play(g, s, rng, Action::EndTurn);
}

#[test]
fn game_does_not_end_below_eight_objectives() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    for id in &EIGHT[..7] {
        add_completed(&g, &mut s, 0, id);
    }
    play_turn(&g, &mut s, &mut rng);
    play_turn(&g, &mut s, &mut rng);
    assert_eq!(g.to_move(&s), Some(0));
    assert_eq!(g.round(&s), 2);
}

fn finished(g: &TofuShifu, s: &mut State) {
    s.turn.phase = Phase::GameOver;
    g.check_invariants(s).unwrap();
}

#[test]
fn tie_break_most_coins_wins() {
    let g = game(2);
    let (mut s, _) = start(&g, 1);
    add_completed(&g, &mut s, 0, "P01");
    add_completed(&g, &mut s, 1, "P02");
    set_coins(&mut s, 0, 4);
    set_coins(&mut s, 1, 5);
    finished(&g, &mut s);
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b10);
    assert_eq!(o.rank[..2], [2, 1]);
}

#[test]
fn tie_break_then_most_remaining_dish_and_hat_tokens() {
    let g = game(2);
    let (mut s, _) = start(&g, 1);
    set_coins(&mut s, 0, 5);
    set_coins(&mut s, 1, 5);
    set_dishes(&mut s, 0, [1, 1, 0, 0]);
    set_dishes(&mut s, 1, [1, 0, 0, 0]);
    finished(&g, &mut s);
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b01);
}

#[test]
fn tie_break_still_tied_shares_the_victory() {
    let g = game(3);
    let (mut s, _) = start(&g, 1);
    for seat in 0..3 {
        set_coins(&mut s, seat, 2);
    }
    set_dishes(&mut s, 2, [0, 0, 0, 0]);
    finished(&g, &mut s);
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b011);
    assert_eq!(o.rank[..3], [1, 1, 3]);
    assert_eq!(o.win_share(0), 0.5);
}

#[test]
fn round_cap_ends_the_game_and_marks_it_capped() {
    let g = game_with(2, &["max_rounds=1"]);
    let (mut s, mut rng) = start(&g, 1);
    play_turn(&g, &mut s, &mut rng);
    play_turn(&g, &mut s, &mut rng);
    let o = g.outcome(&s).expect("over after one round");
    assert!(o.capped);
    assert_eq!(g.round(&s), 1);
}

#[test]
fn outcome_is_none_while_the_game_runs() {
    let g = game(2);
    let (s, _) = start(&g, 1);
    assert!(g.outcome(&s).is_none());
}

#[test]
fn the_end_trigger_is_the_first_seat_to_finish_a_turn_at_eight_objectives() {
    let g = game(3);
    let (mut s, mut rng) = start(&g, 1);
    for id in EIGHT {
        add_completed(&g, &mut s, 1, id);
    }
    assert_eq!(s.end_trigger, SeatId::NONE);
    play_turn(&g, &mut s, &mut rng);
    assert_eq!(
        s.end_trigger,
        SeatId::NONE,
        "seat 0 has not reached the count"
    );
    play_turn(&g, &mut s, &mut rng);
    assert_eq!(s.end_trigger, SeatId::new(1));
    play_turn(&g, &mut s, &mut rng);
    assert!(s.is_over());
    assert_eq!(s.end_trigger, SeatId::new(1));
}

#[test]
fn the_round_the_coin_reserve_first_runs_out_is_recorded() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    assert_eq!(s.coins_out_round, 0);
    // Leave one coin in the reserve, then sell a dish worth more.
    let take = (s.reserve_coins - 1) as u16;
    s.reserve_coins -= take as i32;
    s.players[1].coins += take;
    s.round = 7;
    play(&g, &mut s, &mut rng, Action::Move(Space::Serve));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Master));
    play(&g, &mut s, &mut rng, Action::SellToMarket(Dish::SilkenTofu));
    assert_eq!(s.reserve_coins, 0);
    assert_eq!(s.coins_out_round, 7);
}

#[test]
fn the_round_the_deck_first_runs_out_is_recorded() {
    let g = game(2);
    let (mut s, mut rng) = start(&g, 1);
    // Keep one card in the deck: the Hire refill takes it.
    let keep = s.deck.trailing_zeros();
    let rest = s.deck & !(1u128 << keep);
    s.deck &= !rest;
    s.players[1].rest |= rest;
    s.round = 5;
    put_marker(&mut s, 0, Space::Rest);
    play(&g, &mut s, &mut rng, Action::Move(Space::Hire));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Master));
    play(&g, &mut s, &mut rng, Action::Hire(0));
    assert_eq!(s.deck, 0);
    assert_eq!(s.deck_out_round, 5);
    g.check_invariants(&s).unwrap();
}
