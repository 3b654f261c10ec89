//! Ginza Retro Café rules, one test per rule, named after it; the rulebook quoted where subtle.
#![allow(clippy::needless_range_loop)]

use shifu_engine::ginza_retro_cafe::params::{SetupTie, StartTie};
use shifu_engine::ginza_retro_cafe::{
    CardId, Choice, GinzaRetroCafe, Params, Phase, Place, SeatId, Serve, State,
};
use shifu_engine::{rng_from_seed, Game, GameRng};

fn game(players: u8) -> GinzaRetroCafe {
    GinzaRetroCafe::with_params(Params::with_players(players)).unwrap()
}

fn game_with(players: u8, f: impl FnOnce(&mut Params)) -> GinzaRetroCafe {
    let mut p = Params::with_players(players);
    f(&mut p);
    GinzaRetroCafe::with_params(p).unwrap()
}

fn legal(g: &GinzaRetroCafe, s: &State) -> Vec<Choice> {
    let mut v = Vec::new();
    g.choices(s, &mut v);
    v
}

/// Plays the set-up choices (the first option each time) up to the first turn.
fn first_turn(g: &GinzaRetroCafe, seed: u64) -> (State, GameRng) {
    let mut rng = rng_from_seed(seed);
    let mut s = g.new_state(&mut rng);
    while !matches!(s.phase, Phase::Turn { .. }) {
        let a = legal(g, &s)[0];
        g.apply_choice_checked(&mut s, a, &mut rng).unwrap();
    }
    (s, rng)
}

/// The first turn, with seat 0 to act.
fn seat0_turn(g: &GinzaRetroCafe, seed: u64) -> (State, GameRng) {
    let (mut s, rng) = first_turn(g, seed);
    s.phase = Phase::Turn { seat: 0 };
    (s, rng)
}

/// The index of a card id known to be there.
fn ix(c: CardId) -> usize {
    c.index().expect("a card")
}

fn order_id(g: &GinzaRetroCafe, name: &str) -> u8 {
    g.data.orders.iter().position(|o| o.name == name).unwrap() as u8
}

/// Puts the named order (same rank) in place `p`, slot 0, swapping it with wherever it is.
fn put_order(g: &GinzaRetroCafe, s: &mut State, p: usize, name: &str) {
    let new = order_id(g, name);
    let old = s.places[p].orders[0];
    assert_eq!(
        g.data.orders[ix(old)].rank,
        g.data.orders[usize::from(new)].rank
    );
    if s.order_deck & (1 << new) != 0 {
        s.order_deck &= !(1 << new);
        s.order_deck |= 1 << ix(old);
    } else {
        let (q, k) = (0..3)
            .flat_map(|q| (0..3).map(move |k| (q, k)))
            .find(|&(q, k)| s.places[q].orders[k] == CardId::new(new))
            .expect("the order is in the deck or at a customer");
        s.places[q].orders[k] = old;
    }
    s.places[p].orders[0] = CardId::new(new);
}

/// Finds a place whose first order is rank I, and a rank-I order by name goes there.
fn rank_one_place(g: &GinzaRetroCafe, s: &mut State, name: &str) -> usize {
    let p = (0..3)
        .find(|&p| s.places[p].occupied() && g.data.orders[ix(s.places[p].orders[0])].rank == 0)
        .expect("a customer with a rank I order");
    if g.data.orders[ix(s.places[p].orders[0])].name != name {
        put_order(g, s, p, name);
    }
    p
}

fn faces(list: &[u8]) -> [u8; 6] {
    let mut f = [0u8; 6];
    for &x in list {
        f[usize::from(x) - 1] += 1;
    }
    f
}

/// The numbers of the legal actions of one kind (`Add(k)`, `Wash(k)`), in legal order.
fn counts(g: &GinzaRetroCafe, s: &State, kind: impl Fn(Choice) -> Option<u8>) -> Vec<u8> {
    legal(g, s).into_iter().filter_map(kind).collect()
}

fn serves(g: &GinzaRetroCafe, s: &State, p: usize) -> Vec<Serve> {
    legal(g, s)
        .into_iter()
        .filter_map(|a| match a {
            Choice::Serve(sv) if usize::from(sv.place) == p && sv.slot == 0 => Some(sv),
            _ => None,
        })
        .collect()
}

#[test]
fn players_start_with_no_coins() {
    for seed in 0..20 {
        let (s, _) = first_turn(&game(4), seed);
        assert_eq!(&s.coins[..4], &[0; 4]);
    }
}

#[test]
fn start_yen_by_position_variant_pays_by_turn_position_from_the_start_player() {
    let g = game_with(4, |p| p.start_yen_by_position = vec![0, 1, 2, 3]);
    for seed in 0..20 {
        let (s, _) = first_turn(&g, seed);
        let start = usize::from(s.first_start);
        for pos in 0..4 {
            assert_eq!(s.coins[(start + pos) % 4], pos as u16, "seed {seed}");
        }
    }
    // One entry per player, each at most 20, within the bank.
    for bad in [vec![1, 2, 3], vec![0, 0, 0, 21], vec![20, 20, 20, 20]] {
        let mut p = Params::with_players(4);
        p.start_yen_by_position = bad.clone();
        let e = GinzaRetroCafe::with_params(p).unwrap_err().to_string();
        assert!(e.contains("start_yen_by_position"), "{bad:?}: {e}");
    }
}

#[test]
fn each_player_is_dealt_two_player_cards_and_keeps_one_hidden_until_all_are_revealed() {
    let g = game(4);
    let mut rng = rng_from_seed(1);
    let mut s = g.new_state(&mut rng);
    assert_eq!(s.card_box.count_ones(), 0, "4 players x 2 cards = all 8");
    assert!(s.card_dealt[..4].iter().flatten().all(|c| c.is_some()));
    g.apply_choice_checked(&mut s, Choice::ChooseCard(1), &mut rng)
        .unwrap();
    assert_eq!(s.card[0], s.card_dealt[0][1]);
    assert!(!s.cards_revealed());
    assert_eq!(g.observation(&s, 1).state.card[0], CardId::NONE);
    let g3 = game(3);
    let s3 = g3.new_state(&mut rng_from_seed(1));
    assert_eq!(s3.card_box.count_ones(), 2, "two cards stay in the box");
}

#[test]
fn action_tokens_are_three_each_or_four_with_two_players() {
    for (players, tokens) in [(2, 4), (3, 3), (4, 3)] {
        let (s, _) = first_turn(&game(players), 2);
        for seat in 0..usize::from(players) {
            assert_eq!(s.tokens[seat], tokens, "{players} players");
        }
    }
}

#[test]
fn each_player_starts_with_five_rolled_dice_and_kiku_takes_a_sixth() {
    for seed in 0..20 {
        let (s, _) = first_turn(&game(4), seed);
        for seat in 0..4 {
            let card = &g_name(&s, seat);
            let want = if card == "Kiku" { 6 } else { 5 };
            assert_eq!(s.dice_count(seat), want, "{card}");
            assert_eq!(s.limit[seat], want);
        }
    }
}

fn g_name(s: &State, seat: usize) -> String {
    game(4).data.players[ix(s.card[seat])].name.clone()
}

#[test]
fn the_bonus_draft_keeps_one_of_three_passes_two_left_and_keeps_one_of_two() {
    let g = game(3);
    let mut rng = rng_from_seed(3);
    let mut s = g.new_state(&mut rng);
    for _ in 0..3 {
        g.apply_choice_checked(&mut s, Choice::ChooseCard(0), &mut rng)
            .unwrap();
    }
    let dealt = s.bonus_offer;
    for _ in 0..3 {
        g.apply_choice_checked(&mut s, Choice::Draft(2), &mut rng)
            .unwrap();
    }
    // "Pass the remaining 2 cards face down to the player to your left."
    for seat in 0..3 {
        assert_eq!(s.bonus_hand[seat][0], dealt[seat][2]);
        assert_eq!(s.bonus_passed[seat], [dealt[seat][0], dealt[seat][1]]);
        let left = (seat + 1) % 3;
        assert_eq!(&s.bonus_offer[left][..2], &s.bonus_passed[seat]);
    }
    for _ in 0..3 {
        g.apply_choice_checked(&mut s, Choice::Draft(0), &mut rng)
            .unwrap();
    }
    for seat in 0..3 {
        let from = (seat + 2) % 3;
        assert_eq!(s.bonus_hand[seat][1], dealt[from][0]);
        assert_eq!(
            s.bonus_discard[seat], dealt[from][1],
            "the other is removed"
        );
    }
    assert!(matches!(s.phase, Phase::Turn { .. }));
}

#[test]
fn start_the_game_with_abilities_apply_after_the_draft() {
    // "With the Yuko card, flip the Arrange card to Change Dice Rolls to change it to Lv.2."
    let g = game(4);
    let mut found = 0;
    for seed in 0..30 {
        let (s, _) = first_turn(&g, seed);
        for seat in 0..4 {
            let pc = &g.data.players[ix(s.card[seat])];
            assert_eq!(s.levels[seat], pc.start_levels(), "{}", pc.name);
            found += usize::from(pc.name == "Yuko" && s.levels[seat][0] == 2);
        }
    }
    assert!(found > 0);
}

#[test]
fn the_start_player_has_the_lowest_dice_total() {
    for tie in [SetupTie::Random, SetupTie::LowestSeat] {
        let g = game_with(4, |p| p.setup_tie = tie);
        for seed in 0..40 {
            let (s, _) = first_turn(&g, seed);
            let total = |i: usize| -> u32 {
                (0..6)
                    .map(|f| (f as u32 + 1) * u32::from(s.dice[i][f]))
                    .sum()
            };
            let low = (0..4).map(total).min().unwrap();
            assert_eq!(total(usize::from(s.first_start)), low, "seed {seed}");
            if tie == SetupTie::LowestSeat {
                assert_eq!(
                    usize::from(s.first_start),
                    (0..4).find(|&i| total(i) == low).unwrap()
                );
            }
            assert_eq!(
                s.phase,
                Phase::Turn {
                    seat: s.first_start
                }
            );
        }
    }
}

#[test]
fn the_customer_deck_is_one_customer_per_player_of_each_time_of_day_morning_first() {
    let g = game(3);
    let (s, _) = first_turn(&g, 5);
    for p in 0..3 {
        assert_eq!((s.deck[p] | s.arrived[p]).count_ones(), 3);
    }
    // The first three to arrive are the three Morning customers.
    assert_eq!(s.arrived[0].count_ones(), 3);
    assert_eq!(s.deck[0], 0);
    assert!(s.places.iter().all(|p| ix(p.card) / 16 == 0));
}

#[test]
fn three_customers_arrive_each_with_a_time_marker_on_2_and_the_orders_its_card_lists() {
    let g = game(4);
    let (s, _) = first_turn(&g, 6);
    for pl in &s.places {
        assert_eq!(pl.time, 2);
        let c = &g.data.customers[ix(pl.card) / 16][ix(pl.card) % 16];
        assert_eq!(pl.order_count(), c.orders.len());
        for (k, &rank) in c.orders.iter().enumerate() {
            assert_eq!(g.data.orders[ix(pl.orders[k])].rank, rank);
        }
    }
    let purple: u8 = s.common.iter().sum();
    assert_eq!(purple, 3, "3 purple common dice");
}

#[test]
fn a_drink_is_served_by_dice_adding_up_to_n_or_more() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 7);
    let p = rank_one_place(&g, &mut s, "Blend Coffee"); // 7+
    s.dice[0] = faces(&[1, 2, 3, 4, 6]);
    s.coins[0] = 0;
    let sv = serves(&g, &s, p);
    assert!(sv.iter().all(|x| {
        let sum: u32 = (0..6).map(|f| (f as u32 + 1) * u32::from(x.dice[f])).sum();
        sum >= 7 && x.common == 0
    }));
    assert!(sv.iter().any(|x| x.dice == faces(&[1, 6])));
    assert!(
        sv.iter().any(|x| x.dice == faces(&[1, 2, 3, 4, 6])),
        "more dice than needed (`any`)"
    );
    let order = s.places[p].orders[0];
    let coins = g.data.orders[ix(order)].coins;
    g.apply_choice_checked(
        &mut s,
        Choice::Serve(Serve {
            place: p as u8,
            slot: 0,
            dice: faces(&[1, 6]),
            common: 0,
            bonus: false,
        }),
        &mut rng,
    )
    .unwrap();
    assert_eq!(
        s.dice[0],
        faces(&[2, 3, 4]),
        "used dice go back to the supply"
    );
    assert_eq!(s.coins[0], u16::from(coins));
    assert!(
        s.places[p].tokens[0] == SeatId::new(0) || s.won_orders[0] & (1 << ix(order)) != 0,
        "the token is on the order (or the customer was served)"
    );
    // Minimal: no die can be left out.
    let g = game_with(2, |p| {
        p.drink_dice = shifu_engine::ginza_retro_cafe::params::DrinkDice::Minimal
    });
    let (mut s, _) = seat0_turn(&g, 7);
    let p = rank_one_place(&g, &mut s, "Blend Coffee");
    s.dice[0] = faces(&[1, 2, 3, 4, 6]);
    assert!(!serves(&g, &s, p)
        .iter()
        .any(|x| x.dice == faces(&[1, 2, 3, 4, 6])));
    assert!(serves(&g, &s, p).iter().any(|x| x.dice == faces(&[1, 6])));
}

#[test]
fn desserts_and_food_need_exactly_the_faces_shown() {
    let g = game(2);
    let (mut s, _) = seat0_turn(&g, 8);
    let p = rank_one_place(&g, &mut s, "Custard Pudding"); // two 3s
    s.coins[0] = 0;
    s.dice[0] = faces(&[3, 4, 5]);
    assert!(serves(&g, &s, p).is_empty());
    s.dice[0] = faces(&[3, 3, 5]);
    let sv = serves(&g, &s, p);
    assert_eq!(sv.len(), 1);
    assert_eq!(sv[0].dice, faces(&[3, 3]));
}

#[test]
fn a_common_die_may_be_added_for_3_yen() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 9);
    let p = rank_one_place(&g, &mut s, "Custard Pudding"); // two 3s
    s.dice[0] = faces(&[3, 5]);
    s.common = faces(&[3, 1, 1]);
    s.coins[0] = 2;
    assert!(
        serves(&g, &s, p).is_empty(),
        "¥2 cannot pay for a common die"
    );
    s.coins[0] = 3;
    let sv = serves(&g, &s, p);
    assert_eq!(sv.len(), 1);
    assert_eq!((sv[0].dice, sv[0].common), (faces(&[3]), 3));
    let coins = g.data.orders[ix(s.places[p].orders[0])].coins;
    g.apply_choice_checked(&mut s, Choice::Serve(sv[0]), &mut rng)
        .unwrap();
    assert_eq!(
        s.coins[0],
        u16::from(coins),
        "paid ¥3, then the order's coins"
    );
    assert_eq!(
        s.purple_held[0], 1,
        "the common die goes to the personal supply"
    );
    assert_eq!(s.common, faces(&[1, 1]));
}

/// Tsuru: "Once per round, a Drink order counts your dice total as +2" (the players data). The
/// ability names no coins: with dice 2 short of a Drink it is offered whether or not the seat can
/// buy a common die that would cover the rest, and the seat chooses.
#[test]
fn tsurus_drink_bonus_is_offered_whether_or_not_a_common_die_is_affordable() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 7);
    let tsuru = g
        .data
        .players
        .iter()
        .position(|c| c.name == "Tsuru")
        .unwrap() as u8;
    s.card[0] = CardId::new(tsuru);
    s.bonus_used = 0;
    let p = rank_one_place(&g, &mut s, "Blend Coffee"); // 7+
    s.dice[0] = faces(&[1, 4]); // 5: short by 2
    s.common = faces(&[2, 6]);
    for coins in [0u16, 3, 20] {
        s.coins[0] = coins;
        let sv = serves(&g, &s, p);
        assert!(
            sv.iter()
                .any(|x| x.bonus && x.dice == faces(&[1, 4]) && x.common == 0),
            "the +2 with ¥{coins}"
        );
        assert_eq!(
            sv.iter().any(|x| x.common != 0),
            coins >= 3,
            "a common die only when ¥3 can pay for it (¥{coins})"
        );
    }
    // Short by 3: the +2 does not reach.
    s.dice[0] = faces(&[4]);
    assert!(!serves(&g, &s, p).iter().any(|x| x.bonus));
    // Used once this round: gone until the next.
    s.dice[0] = faces(&[1, 4]);
    let sv = serves(&g, &s, p);
    let bonus = *sv.iter().find(|x| x.bonus).unwrap();
    g.apply_choice_checked(&mut s, Choice::Serve(bonus), &mut rng)
        .unwrap();
    assert_eq!(s.bonus_used & 1, 1);
    assert_eq!(
        s.coins[0],
        20 + u16::from(g.data.orders[usize::from(order_id(&g, "Blend Coffee"))].coins)
    );
}

/// A 2-player game with a one-order customer at place `p` (its other orders removed).
fn one_order_customer(g: &GinzaRetroCafe, s: &mut State, p: usize) {
    for k in 1..3 {
        if let Some(o) = s.places[p].orders[k].get() {
            s.order_deck |= 1 << o;
            s.places[p].orders[k] = CardId::NONE;
        }
    }
    let _ = g;
}

#[test]
fn a_served_customer_gives_each_token_owner_its_order_card_and_the_token_back() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 10);
    let p = rank_one_place(&g, &mut s, "Blend Coffee");
    one_order_customer(&g, &mut s, p);
    s.dice[0] = faces(&[6, 6]);
    let tokens = s.tokens[0];
    let order = s.places[p].orders[0];
    let served = s.served;
    g.apply_choice_checked(
        &mut s,
        Choice::Serve(Serve {
            place: p as u8,
            slot: 0,
            dice: faces(&[6, 6]),
            common: 0,
            bonus: false,
        }),
        &mut rng,
    )
    .unwrap();
    assert!(
        s.won_orders[0] & (1 << ix(order)) != 0,
        "the order card is taken"
    );
    assert_eq!(s.tokens[0], tokens, "the token came back at once");
    assert_eq!(s.served, served + 1);
    // 4-4: another customer arrives (the deck still holds customers).
    assert!(s.places[p].occupied());
    assert_eq!(s.places[p].time, 2);
}

#[test]
fn two_tokens_on_one_customer_earn_2_yen() {
    use shifu_engine::ginza_retro_cafe::data::Condition;
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 11);
    let p = (0..3)
        .find(|&p| s.places[p].order_count() >= 2)
        .expect("a customer with 2+ orders");
    if let Some(o) = s.places[p].orders[2].get() {
        s.order_deck |= 1 << o;
        s.places[p].orders[2] = CardId::NONE;
    }
    let mut last = (0u16, 0u16);
    for slot in 0..2u8 {
        s.phase = Phase::Turn { seat: 0 };
        s.tokens[0] = 2;
        let order = &g.data.orders[ix(s.places[p].orders[usize::from(slot)])];
        let need = match order.serve {
            Condition::Faces(f) => f,
            Condition::SumAtLeast(n) => [0, 0, 0, 0, 0, n.div_ceil(6)],
        };
        s.dice[0] = need;
        let before = s.coins[0];
        g.apply_choice_checked(
            &mut s,
            Choice::Serve(Serve {
                place: p as u8,
                slot,
                dice: need,
                common: 0,
                bonus: false,
            }),
            &mut rng,
        )
        .unwrap();
        last = (s.coins[0] - before, u16::from(order.coins));
    }
    // "If you have placed action tokens on two or more Order cards of that Customer, you get ¥2."
    assert_eq!(last.0, last.1 + 2);
    assert_eq!(s.won_orders[0].count_ones(), 2);
}

#[test]
fn raising_an_arrange_level_needs_4_vp_of_matching_colour_orders_and_3_yen() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 12);
    s.levels[0] = [1, 1, 1];
    s.coins[0] = 3;
    let drink = g.data.arrange_of_category[0];
    s.won_orders[0] = 1 << order_id(&g, "Iced Coffee"); // a Drink, 3 VP
    assert!(!legal(&g, &s).contains(&Choice::RaiseLevel(drink)));
    s.won_orders[0] |= 1 << order_id(&g, "Blend Coffee"); // 1 VP more: 4
    assert!(legal(&g, &s).contains(&Choice::RaiseLevel(drink)));
    s.coins[0] = 2;
    assert!(!legal(&g, &s).contains(&Choice::RaiseLevel(drink)));
    s.coins[0] = 3;
    g.apply_choice_checked(&mut s, Choice::RaiseLevel(drink), &mut rng)
        .unwrap();
    assert_eq!((s.levels[0][usize::from(drink)], s.coins[0]), (2, 0));
    assert_eq!(
        s.phase,
        Phase::Turn { seat: 0 },
        "an upgrade is not the turn's action"
    );
}

#[test]
fn the_dice_limit_rises_for_4_4_6_6_yen_and_the_new_die_is_rolled() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 13);
    s.card[0] = CardId::new(0); // Yuko: limit 5
    s.limit[0] = 5;
    s.dice[0] = faces(&[1, 1, 1, 1, 1]);
    for (price, limit) in [(4, 6), (4, 7), (6, 8), (6, 9)] {
        s.coins[0] = price - 1;
        assert!(!legal(&g, &s).contains(&Choice::RaiseLimit));
        s.coins[0] = price;
        g.apply_choice_checked(&mut s, Choice::RaiseLimit, &mut rng)
            .unwrap();
        assert_eq!((s.limit[0], s.coins[0], s.dice_count(0)), (limit, 0, limit));
    }
    s.coins[0] = 50;
    assert!(!legal(&g, &s).contains(&Choice::RaiseLimit), "9 is the top");
}

#[test]
fn change_dice_rolls_moves_a_die_by_one_without_wrapping_past_1_or_6() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 14);
    s.levels[0][0] = 1;
    s.dice[0] = faces(&[1, 6]);
    let l = legal(&g, &s);
    // "you cannot change the die roll of a 1 by -1 or a 6 by +1"
    assert!(l.contains(&Choice::Change { face: 1, up: true }));
    assert!(!l.contains(&Choice::Change { face: 1, up: false }));
    assert!(l.contains(&Choice::Change { face: 6, up: false }));
    assert!(!l.contains(&Choice::Change { face: 6, up: true }));
    g.apply_choice_checked(&mut s, Choice::Change { face: 1, up: true }, &mut rng)
        .unwrap();
    assert_eq!(s.dice[0], faces(&[2, 6]));
    assert_ne!(
        s.phase,
        Phase::Change { seat: 0, left: 1 },
        "Lv.1 changes once"
    );
}

#[test]
fn change_dice_rolls_at_lv2_adjusts_twice_the_same_or_another_die() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 15);
    s.levels[0][0] = 2;
    s.dice[0] = faces(&[3]);
    g.apply_choice_checked(&mut s, Choice::Change { face: 3, up: true }, &mut rng)
        .unwrap();
    assert_eq!(s.phase, Phase::Change { seat: 0, left: 1 });
    assert!(
        legal(&g, &s).contains(&Choice::Stop),
        "the second adjustment is optional"
    );
    g.apply_choice_checked(&mut s, Choice::Change { face: 4, up: true }, &mut rng)
        .unwrap();
    assert_eq!(s.dice[0], faces(&[5]));
    let g = game_with(2, |p| p.arrange_partial = false);
    let (mut s, mut rng) = seat0_turn(&g, 15);
    s.levels[0][0] = 2;
    s.dice[0] = faces(&[3]);
    g.apply_choice_checked(&mut s, Choice::Change { face: 3, up: true }, &mut rng)
        .unwrap();
    assert!(!legal(&g, &s).contains(&Choice::Stop));
}

#[test]
fn reroll_dice_rerolls_twice_the_second_time_only_dice_just_rerolled() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 16);
    s.levels[0][1] = 1;
    s.dice[0] = faces(&[1, 2, 6]);
    g.apply_choice_checked(&mut s, Choice::Reroll(faces(&[1, 2])), &mut rng)
        .unwrap();
    let Phase::Reroll { left, just, .. } = s.phase else {
        panic!("a second reroll follows: {:?}", s.phase)
    };
    assert_eq!((left, just.iter().sum::<u8>()), (1, 2));
    // Every offered reroll is a subset of the two dice just rerolled; the 6 is never offered.
    for a in legal(&g, &s) {
        if let Choice::Reroll(d) = a {
            assert!((0..6).all(|f| d[f] <= just[f]), "{d:?} not within {just:?}");
        }
    }
    let total_before = s.dice_count(0);
    let sub = legal(&g, &s)
        .into_iter()
        .find(|a| matches!(a, Choice::Reroll(_)))
        .unwrap();
    g.apply_choice_checked(&mut s, sub, &mut rng).unwrap();
    assert_eq!(s.dice_count(0), total_before);
    assert!(
        matches!(s.phase, Phase::Turn { seat: 1 }),
        "Lv.1 rerolls twice: {:?}",
        s.phase
    );
    // Lv.2: four rerolls.
    let (mut s, mut rng) = seat0_turn(&g, 16);
    s.levels[0][1] = 2;
    s.dice[0] = faces(&[1, 2, 6]);
    let mut rerolls = 0;
    while let Phase::Turn { seat: 0 } | Phase::Reroll { seat: 0, .. } = s.phase {
        let a = legal(&g, &s)
            .into_iter()
            .find(|a| matches!(a, Choice::Reroll(_)))
            .unwrap();
        g.apply_choice_checked(&mut s, a, &mut rng).unwrap();
        rerolls += 1;
    }
    assert_eq!(rerolls, 4);
}

#[test]
fn add_dice_adds_up_to_3_or_to_the_limit_at_lv2_never_past_the_limit() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 17);
    s.limit[0] = 9;
    s.dice[0] = faces(&[2]);
    s.levels[0][2] = 1;
    let adds: Vec<u8> = counts(&g, &s, |a| match a {
        Choice::Add(k) => Some(k),
        _ => None,
    });
    assert_eq!(adds, [1, 2, 3]);
    s.levels[0][2] = 2;
    let adds: Vec<u8> = counts(&g, &s, |a| match a {
        Choice::Add(k) => Some(k),
        _ => None,
    });
    assert_eq!(adds.last(), Some(&8), "to the limit");
    s.limit[0] = 5;
    s.dice[0] = faces(&[2, 2, 2, 2]);
    s.levels[0][2] = 1;
    let adds: Vec<u8> = counts(&g, &s, |a| match a {
        Choice::Add(k) => Some(k),
        _ => None,
    });
    assert_eq!(adds, [1], "\"you can only add 1 die\"");
    g.apply_choice_checked(&mut s, Choice::Add(1), &mut rng)
        .unwrap();
    assert_eq!(s.dice_count(0), 5);
}

#[test]
fn wash_dishes_spends_ones_for_1_3_5_7_yen() {
    for (ones, coins) in [(0u8, 1u16), (1, 3), (2, 5), (3, 7)] {
        let g = game(2);
        let (mut s, mut rng) = seat0_turn(&g, 18);
        s.card[0] = CardId::new(0); // Yuko: the standard table
        s.coins[0] = 0;
        s.dice[0] = faces(&[1, 1, 1, 1, 4]);
        let washes: Vec<u8> = counts(&g, &s, |a| match a {
            Choice::Wash(k) => Some(k),
            _ => None,
        });
        assert_eq!(washes, [0, 1, 2, 3], "at most three 1s");
        g.apply_choice_checked(&mut s, Choice::Wash(ones), &mut rng)
            .unwrap();
        assert_eq!(s.coins[0], coins);
        assert_eq!(s.dice[0][0], 4 - ones);
        assert_eq!(s.parked[0], 1, "the token is on the Dishwashing area");
    }
}

/// Ends the round: every seat's tokens are parked.
fn end_round_now(g: &GinzaRetroCafe, s: &mut State, rng: &mut GameRng) {
    for seat in 1..usize::from(s.players) {
        s.parked[seat] += s.tokens[seat];
        s.tokens[seat] = 0;
    }
    s.parked[0] += s.tokens[0] - 1;
    s.tokens[0] = 1;
    s.phase = Phase::Turn { seat: 0 };
    g.apply_choice_checked(s, Choice::Wash(0), rng).unwrap();
}

#[test]
fn at_the_end_of_a_round_time_markers_tick_and_a_customer_on_1_leaves_unserved() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 19);
    // Seat 0 puts a token on place 0's first order; the customer then runs out of time.
    s.places[0].tokens[0] = SeatId::new(0);
    s.tokens[0] -= 1;
    let orders = s.places[0].orders;
    s.places[0].time = 1;
    s.places[1].time = 2;
    let card1 = s.places[1].card;
    end_round_now(&g, &mut s, &mut rng);
    assert_eq!(s.left_unserved, 1);
    assert_eq!(s.places[1].card, card1);
    assert_eq!(s.places[1].time, 1, "2 becomes 1");
    for o in orders.iter().filter_map(|o| o.get()) {
        assert!(s.order_discard & (1 << o) != 0, "its orders are discarded");
    }
    assert_eq!(s.places[0].time, 2, "a new customer arrives with 2");
    assert_eq!(
        s.tokens[0],
        g.tokens_each(),
        "its tokens came back, as did the parked ones"
    );
    assert_eq!(s.round, 2);
}

#[test]
fn tokens_on_orders_stay_at_the_end_of_a_round() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 20);
    s.places[1].tokens[0] = SeatId::new(0);
    s.tokens[0] -= 1;
    s.places[1].time = 2;
    end_round_now(&g, &mut s, &mut rng);
    assert_eq!(s.places[1].tokens[0], SeatId::new(0));
    assert_eq!(
        s.tokens[0],
        g.tokens_each() - 1,
        "\"the owners of such tokens start the next round with fewer\""
    );
}

#[test]
fn the_next_start_player_has_the_most_dice_ties_from_the_current_start_player() {
    for (tie, want) in [(StartTie::CurrentFirst, 0), (StartTie::LeftFirst, 1)] {
        let g = game_with(3, |p| p.start_tie = tie);
        let (mut s, mut rng) = seat0_turn(&g, 21);
        s.start_player = 0;
        s.limit = [9, 9, 9, 0];
        s.dice[0] = faces(&[2, 2, 2, 2]);
        s.dice[1] = faces(&[2, 2, 2, 2]);
        s.dice[2] = faces(&[2, 2]);
        for p in &mut s.places {
            p.time = 2;
        }
        end_round_now(&g, &mut s, &mut rng);
        // Seat 0 washed (no 1s used), so seats 0 and 1 tie on 4 dice.
        assert_eq!(s.start_player, want, "{tie:?}");
        assert_eq!(s.phase, Phase::Turn { seat: want });
    }
    let g = game(3);
    let (mut s, mut rng) = seat0_turn(&g, 21);
    s.start_player = 0;
    s.limit = [9, 9, 9, 0];
    s.dice[2] = faces(&[2, 2, 2, 2, 2, 2]);
    s.dice[0] = faces(&[2]);
    s.dice[1] = faces(&[2]);
    for p in &mut s.places {
        p.time = 2;
    }
    end_round_now(&g, &mut s, &mut rng);
    assert_eq!(s.start_player, 2, "the most dice");
}

#[test]
fn dice_are_replenished_to_the_limit_and_the_common_dice_rolled_again() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 22);
    s.limit[0] = 7;
    s.dice[0] = faces(&[3]);
    s.dice[1] = faces(&[]);
    s.common = faces(&[5]);
    s.purple_held[1] = 2;
    for p in &mut s.places {
        p.time = 2;
    }
    end_round_now(&g, &mut s, &mut rng);
    assert_eq!(s.dice_count(0), 7);
    assert_eq!(s.dice_count(1), s.limit[1]);
    assert_eq!(s.common.iter().sum::<u8>(), 3);
    assert_eq!(s.purple_held, [0; 4]);
}

#[test]
fn the_game_ends_as_soon_as_no_customer_is_left() {
    let g = game(2);
    let (mut s, mut rng) = seat0_turn(&g, 23);
    // The last customer: the deck is empty and two places are empty.
    for p in 0..3 {
        s.deck[p] = 0;
    }
    let keep = rank_one_place(&g, &mut s, "Blend Coffee");
    one_order_customer(&g, &mut s, keep);
    for p in 0..3 {
        if p != keep {
            s.places[p] = Place::EMPTY;
        }
    }
    s.dice[0] = faces(&[6, 6]);
    g.apply_choice_checked(
        &mut s,
        Choice::Serve(Serve {
            place: keep as u8,
            slot: 0,
            dice: faces(&[6, 6]),
            common: 0,
            bonus: false,
        }),
        &mut rng,
    )
    .unwrap();
    assert!(
        s.is_over(),
        "\"end the game and go to Scoring without passing the turn\""
    );
    assert!(g.outcome(&s).is_some());
}

#[test]
fn score_is_order_vp_plus_met_bonus_vp_plus_1_per_4_yen() {
    let g = game(2);
    let (mut s, _) = seat0_turn(&g, 24);
    s.won_orders[0] = (1 << order_id(&g, "Iced Coffee")) | (1 << order_id(&g, "Cream Soda")); // 3 + 1
    s.coins[0] = 11; // 2 VP
    let drink_master = g
        .data
        .bonus
        .iter()
        .position(|b| b.name == "Drink Master")
        .unwrap() as u8;
    let cafe = g
        .data
        .bonus
        .iter()
        .position(|b| b.name == "Cafe of Dreams")
        .unwrap() as u8;
    s.bonus_hand[0] = [CardId::new(drink_master), CardId::new(cafe)];
    s.won_orders[1] = 0;
    let p = g.points(&s, 0);
    assert_eq!((p.orders, p.bonus, p.coins), (4, 5, 2));
    assert_eq!(p.met, 0b01);
}

#[test]
fn most_bonuses_include_ties_and_need_at_least_one_card() {
    let g = game(2);
    let (mut s, _) = seat0_turn(&g, 25);
    let waitress = g
        .data
        .bonus
        .iter()
        .position(|b| b.name == "Ginza No.1 Waitress")
        .unwrap();
    s.won_orders = [0; 4];
    assert!(
        !g.bonus_met(&s, 0, waitress),
        "a count of 0 is not the most"
    );
    let gz = game_with(2, |p| p.most_with_zero = true);
    assert!(gz.bonus_met(&s, 0, waitress));
    s.won_orders[0] = 1 << order_id(&g, "Blend Coffee");
    s.won_orders[1] = 1 << order_id(&g, "Napolitan");
    assert!(g.bonus_met(&s, 0, waitress), "ties count");
    assert!(g.bonus_met(&s, 1, waitress));
}

#[test]
fn ties_go_to_more_order_points_then_the_win_is_shared() {
    let g = game(2);
    let (mut s, _) = seat0_turn(&g, 26);
    s.bonus_hand = [[CardId::NONE; 2]; 4];
    s.won_orders = [0; 4];
    s.won_orders[0] = 1 << order_id(&g, "Iced Coffee"); // 3 VP
    s.coins = [4, 16, 0, 0]; // seat 0: 3 + 1 = 4; seat 1: 0 + 4 = 4
    s.phase = Phase::Over;
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b01, "order points break the tie");
    s.won_orders[1] = 1 << order_id(&g, "Lemon Squash"); // 3 VP
    s.coins = [4, 4, 0, 0];
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b11, "shared");
}

#[test]
fn the_finite_bank_pays_what_it_holds() {
    // Three 1s wash for ¥7; with ¥69 of the box's ¥70 held elsewhere, the bank has ¥1 to pay.
    for (finite, paid) in [(true, 1), (false, 7)] {
        let g = game_with(2, |p| p.finite_bank = finite);
        let (mut s, mut rng) = seat0_turn(&g, 27);
        s.card[0] = CardId::new(0);
        s.coins = [0, 69, 0, 0];
        s.dice[0] = faces(&[1, 1, 1]);
        g.apply_choice_checked(&mut s, Choice::Wash(3), &mut rng)
            .unwrap();
        assert_eq!(s.coins[0], paid, "finite bank {finite}");
    }
}

#[test]
fn without_stacked_tokens_a_spot_takes_one_token_a_round_and_no_turn_dead_ends() {
    let g = game_with(2, |p| p.stacked_tokens = false);
    let (mut s, mut rng) = seat0_turn(&g, 28);
    s.dice[0] = faces(&[2, 3]);
    s.tokens[0] = 4;
    g.apply_choice_checked(&mut s, Choice::Wash(0), &mut rng)
        .unwrap();
    s.phase = Phase::Turn { seat: 0 };
    assert!(!legal(&g, &s).iter().any(|a| matches!(a, Choice::Wash(_))));
    // With every spot taken and nothing to serve, the token is set aside.
    s.parked_on[0] = 0b1111;
    for p in &mut s.places {
        p.tokens = p.orders.map(|o| {
            if o.is_none() {
                SeatId::NONE
            } else {
                SeatId::new(1)
            }
        });
    }
    assert_eq!(legal(&g, &s), [Choice::Stop]);
}
