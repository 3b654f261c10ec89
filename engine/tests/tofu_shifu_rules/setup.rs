use crate::helpers::*;
use shifu_engine::tofu_shifu::*;
use shifu_engine::Game;

#[test]
fn setup_market_has_five_face_up_cards() {
    let g = game(4);
    let (s, _) = start(&g, 1);
    assert_eq!(s.market[..5].iter().filter(|c| c.is_some()).count(), 5);
    assert!(s.market[5..].iter().all(|c| c.is_none()));
}

#[test]
fn setup_town_objectives_equal_player_count() {
    for n in shifu_engine::tofu_shifu::INFO.players() {
        let g = game(n);
        let (s, _) = start(&g, 7);
        assert_eq!(s.town_display.count_ones(), n as u32);
        // The display is drawn from the objectives that are not in the coin stack.
        for i in 0..g.data.town_objectives.len() {
            if s.town_display & (1 << i) != 0 {
                assert!(!g.data.town_objectives[i].coin_stack);
            }
        }
    }
}

#[test]
fn setup_coin_cost_town_objectives_stacked_lowest_on_top() {
    // ja setup 1: "コインが要件になっている市街目標カードを、上から額が小さい順に積み重ね"
    let g = game(4);
    let (mut s, _) = start(&g, 1);
    let mut costs = Vec::new();
    while let Some(top) = g.coin_stack_top(&s) {
        costs.push(g.town_requirement(top as usize).coins);
        s.coin_stack_taken += 1;
    }
    assert_eq!(costs, vec![6, 8, 10, 12]);
}

#[test]
fn setup_deals_four_cards_to_each_player_and_keeps_them_private() {
    let g = game(4);
    let (s, _) = start(&g, 3);
    for p in &s.players[..4] {
        assert_eq!(p.hand.count_ones(), 4);
        assert_eq!(p.hand_known, 0);
    }
    assert_eq!(s.deck.count_ones(), 80 - 16 - 5);
}

#[test]
fn setup_board_has_soymilk_silken_tofu_and_master_hat() {
    let g = game(3);
    let (s, _) = start(&g, 3);
    for p in &s.players[..3] {
        assert_eq!(p.dishes, [1, 1, 0, 0]);
        assert_eq!(p.dish_flags, [1, 1, 0, 0]);
        assert_eq!(p.hats, [0, 0, 0, 1]);
        assert_eq!(p.hat_flags, [0, 0, 0, 1]);
    }
    assert_eq!(s.reserve_dishes, [13, 13, 12, 12]);
    assert_eq!(s.reserve_hats, [9, 9, 9, 6]);
}

#[test]
fn setup_all_shifu_markers_on_rest() {
    let g = game(4);
    let (s, _) = start(&g, 3);
    assert!(s.players[..4].iter().all(|p| p.marker == Space::Rest as u8));
    assert_eq!(g.to_move(&s), Some(0));
}

#[test]
fn setup_start_coins_by_seat_1_2_2_3() {
    let g = game(4);
    let (s, _) = start(&g, 3);
    let coins: Vec<u16> = s.players[..4].iter().map(|p| p.coins).collect();
    assert_eq!(coins, vec![1, 2, 2, 3]);
    assert_eq!(s.reserve_coins, 80 - 8);
    // "for 2 or 3 players: the first entries"
    let g = game(2);
    let (s, _) = start(&g, 3);
    assert_eq!((s.players[0].coins, s.players[1].coins), (1, 2));
    let g = game(3);
    let (s, _) = start(&g, 3);
    assert_eq!(s.players[2].coins, 2);
}

#[test]
fn setup_start_coins_parameter_overrides() {
    let g = game_with(4, &["start_coins=0,1,2,3"]);
    let (s, _) = start(&g, 3);
    let coins: Vec<u16> = s.players[..4].iter().map(|p| p.coins).collect();
    assert_eq!(coins, vec![0, 1, 2, 3]);
}

#[test]
fn setup_all_customer_tiles_in_the_bag() {
    let g = game(2);
    let (s, _) = start(&g, 3);
    assert_eq!(s.bag.count_ones(), 40);
}

#[test]
fn setup_is_a_function_of_the_seed() {
    let g = game(4);
    assert_eq!(start(&g, 11).0, start(&g, 11).0);
    assert_ne!(start(&g, 11).0, start(&g, 12).0);
}
