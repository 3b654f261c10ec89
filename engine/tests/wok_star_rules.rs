//! Wok Star rules, one test per rule, named after it; the rulebook quoted where subtle.

use shifu_engine::wok_star::params::{ForeignDice, TimerFlip};
use shifu_engine::wok_star::{Action, Choice, Closing, Die, Params, Phase, State, WokStar};
use shifu_engine::{rng_from_seed, Game, GameRng};

const NOBODY: u8 = u8::MAX;

fn game(players: u8) -> WokStar {
    WokStar::with_params(Params::with_players(players)).unwrap()
}

fn game_with(f: impl FnOnce(&mut Params)) -> WokStar {
    let mut p = Params::default();
    f(&mut p);
    WokStar::with_params(p).unwrap()
}

/// A game opened for business: ingredient cards handed out round the table.
fn opened(g: &WokStar, seed: u64) -> (State, GameRng) {
    let mut rng = rng_from_seed(seed);
    let mut s = g.new_state(&mut rng);
    if s.phase == Phase::ExtraDie {
        g.apply_checked(&mut s, Action::ExtraDie(0), &mut rng)
            .unwrap();
    }
    let mut seat = 0;
    while s.phase == Phase::GiveIngredients {
        let mut legal = Vec::new();
        g.legal_actions(&s, &mut legal);
        let a = if legal.contains(&Action::GiveIngredient(seat)) {
            Action::GiveIngredient(seat)
        } else {
            legal[0]
        };
        g.apply_checked(&mut s, a, &mut rng).unwrap();
        seat = (seat + 1) % g.num_seats() as u8;
    }
    assert_eq!(s.phase, Phase::Business);
    (s, rng)
}

fn legal(g: &WokStar, s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v
}

/// The complete choices (a preparation with both dice).
fn choices(g: &WokStar, s: &State) -> Vec<Choice> {
    let mut v = Vec::new();
    g.choices(s, &mut v);
    v
}

/// Applies a complete choice step by step, each step checked.
fn apply_choice(g: &WokStar, s: &mut State, c: Choice, rng: &mut GameRng) {
    loop {
        let a = g.step_toward(s, c);
        g.apply_checked(s, a, rng).unwrap();
        if s.preparing.is_none() {
            return;
        }
    }
}

fn recipe_of(s: &State) -> usize {
    s.customer.unwrap() as usize / 8
}

/// Makes the current customer servable by its owner, who also gets the earliest clock.
fn ready_to_serve(g: &WokStar, s: &mut State) -> u8 {
    let r = recipe_of(s);
    for &k in &g.data.recipes[r].ingredients {
        s.track[k as usize] = 3;
    }
    let owner = s.recipe_owner[r];
    s.clock[owner as usize] = 0;
    owner
}

#[test]
fn recipes_are_dealt_by_player_count() {
    for (players, prices) in [
        (2, vec![11, 16]),
        (3, vec![11, 11, 16]),
        (4, vec![11, 11, 16, 16]),
    ] {
        let g = game(players);
        for seed in 0..20 {
            let s = g.new_state(&mut rng_from_seed(seed));
            let mut got: Vec<u16> = (0..g.data.recipes.len())
                .filter(|&r| s.recipe_owner[r] != NOBODY)
                .map(|r| g.data.recipes[r].price)
                .collect();
            got.sort();
            assert_eq!(got, prices);
            for seat in 0..players {
                let owned = (0..12).filter(|&r| s.recipe_owner[r] == seat).count();
                assert_eq!(owned, 1, "every player gets 1 Recipe card");
            }
        }
    }
}

#[test]
fn customers_three_regular_shuffled_face_down_two_coupon_face_up() {
    let g = game(4);
    let s = g.new_state(&mut rng_from_seed(1));
    assert_eq!(s.deck.count_ones(), 12);
    assert_eq!(s.coupons.count_ones(), 8);
    let obs = g.observation(&s, 0);
    assert_eq!(obs.advertised, 0);
}

#[test]
fn ingredient_tokens_start_on_row_1_and_hustle_tokens_cover_the_two_rightmost_methods() {
    let g = game(3);
    let (s, _) = opened(&g, 3);
    let in_play: Vec<usize> = (0..10)
        .filter(|&k| s.ingredient_owner[k] != NOBODY)
        .collect();
    assert!(!in_play.is_empty());
    for &k in &in_play {
        assert_eq!(s.track[k], 1);
    }
    assert_eq!(usize::from(s.hustle_covering), 2 * in_play.len());
    assert_eq!(usize::from(s.hustle_supply), 25 - 2 * in_play.len());
}

#[test]
fn each_player_gets_two_dice_two_fortune_cubes_and_at_least_one_ingredient_card() {
    for players in shifu_engine::wok_star::INFO.players() {
        let g = game(players);
        for seed in 0..10 {
            let (s, _) = opened(&g, seed);
            for i in 0..players as usize {
                let extra = u8::from(players == 2 && i == 0);
                assert_eq!(s.dice_count[i], 2 + extra);
                assert_eq!(s.cubes[i], 2);
                assert!(
                    s.ingredient_owner.contains(&(i as u8)),
                    "seat {i} holds a card"
                );
            }
        }
    }
}

/// However the cards are handed out (always to the first seat allowed, or at random), every
/// player holds one when the day opens ("Each player should have at least 1 Ingredient card"):
/// the last cards must go to those without.
#[test]
fn each_player_should_have_at_least_1_ingredient_card_however_they_are_handed_out() {
    use rand::Rng;
    for players in shifu_engine::wok_star::INFO.players() {
        let g = game(players);
        for seed in 0..40 {
            let mut rng = rng_from_seed(seed);
            let mut s = g.new_state(&mut rng);
            while matches!(s.phase, Phase::ExtraDie | Phase::GiveIngredients) {
                let legal = legal(&g, &s);
                let a = if seed % 2 == 0 {
                    legal[0]
                } else {
                    legal[rng.gen_range(0..legal.len())]
                };
                g.apply_checked(&mut s, a, &mut rng).unwrap();
            }
            for i in 0..players {
                assert!(
                    s.ingredient_owner.contains(&i),
                    "{players} players, seed {seed}: seat {i} holds a card"
                );
            }
        }
    }
}

#[test]
fn two_players_remove_the_31_recipes_and_one_player_starts_with_3_dice() {
    let g = game(2);
    let mut rng = rng_from_seed(5);
    let mut s = g.new_state(&mut rng);
    assert_eq!(s.phase, Phase::ExtraDie);
    assert_eq!(
        legal(&g, &s),
        vec![Action::ExtraDie(0), Action::ExtraDie(1)]
    );
    g.apply_checked(&mut s, Action::ExtraDie(1), &mut rng)
        .unwrap();
    assert_eq!(&s.dice_count[..2], &[2, 3]);
    // Next Day Prep never offers a $31 recipe.
    let mut offered = 0;
    for seed in 0..40 {
        let (mut s, mut rng) = opened(&g, seed);
        s.income = 60;
        g.apply_checked(&mut s, Action::Close, &mut rng).unwrap();
        for _ in 0..2 {
            g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
        }
        while s.phase == Phase::GiveCubes {
            g.apply_checked(&mut s, Action::GiveCube(0), &mut rng)
                .unwrap();
        }
        assert_eq!(s.phase, Phase::Prep);
        for &o in s.offer.iter().filter(|&&o| o != NOBODY) {
            assert_ne!(g.data.recipes[o as usize].price, 31);
            offered += 1;
        }
    }
    assert!(offered >= 100, "{offered}");
}

#[test]
fn only_the_recipe_owner_serves() {
    let g = game(4);
    let (mut s, _) = opened(&g, 7);
    let owner = ready_to_serve(&g, &mut s);
    assert!(legal(&g, &s).contains(&Action::Serve));
    for other in 0..4u8 {
        if other != owner {
            let mut t = s.clone();
            t.clock = [10_000; 4];
            t.clock[other as usize] = 0;
            assert!(!legal(&g, &t).contains(&Action::Serve));
        }
    }
}

#[test]
fn serving_moves_each_ingredient_token_down_one_and_a_token_at_zero_blocks_the_dish() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 8);
    ready_to_serve(&g, &mut s);
    let r = recipe_of(&s);
    let ks = g.data.recipes[r].ingredients.clone();
    let mut blocked = s.clone();
    blocked.track[ks[0] as usize] = 0;
    assert!(!legal(&g, &blocked).contains(&Action::Serve));
    g.apply_checked(&mut s, Action::Serve, &mut rng).unwrap();
    for &k in &ks {
        assert_eq!(s.track[k as usize], 2);
    }
}

#[test]
fn a_dish_served_while_a_timer_runs_is_on_time_and_late_when_both_are_empty() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 9);
    let owner = ready_to_serve(&g, &mut s) as usize;
    let (income, _) = g.customer_income(s.customer.unwrap());
    let mut late = s.clone();
    g.apply_checked(&mut s, Action::Serve, &mut rng.clone())
        .unwrap();
    assert_eq!(
        (s.income, s.on_time[owner], s.late),
        (i32::from(income), 1, 0)
    );
    // "If both timers are empty when the customer is served, the meal is served late ...
    // It's worth $1 less."
    late.clock[owner] = 31_000;
    for i in 0..4 {
        if i != owner {
            late.clock[i] = 40_000;
        }
    }
    g.apply_checked(&mut late, Action::Serve, &mut rng).unwrap();
    assert_eq!(
        (late.income, late.on_time[owner], late.late),
        (i32::from(income) - 1, 0, 1)
    );
}

#[test]
fn each_serve_flips_a_timer_and_reveals_the_next_customer() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 10);
    ready_to_serve(&g, &mut s);
    let deck = s.deck.count_ones();
    let first = s.customer;
    g.apply_checked(&mut s, Action::Serve, &mut rng).unwrap();
    assert_eq!(s.deck.count_ones(), deck - 1);
    assert_ne!(s.customer, first);
    // "Immediately after serving the first customer, flip over the second, empty timer."
    assert_eq!(s.timers[1].top, 30_000);
    assert_eq!(s.timers[1].at, 0);
}

#[test]
fn a_flip_of_a_running_sand_timer_leaves_what_had_run_down_or_refills_by_option() {
    for (flip, expect) in [(TimerFlip::Sand, 20_000), (TimerFlip::Refill, 30_000)] {
        let g = game_with(|p| p.timer_flip = flip);
        let (mut s, mut rng) = opened(&g, 11);
        let owner = ready_to_serve(&g, &mut s) as usize;
        s.timers[1].top = 30_000; // both running: timer 0 has 20 s left at 10 s
        s.timers[1].at = 0;
        s.timers[0].top = 20_000;
        s.clock = [20_000; 4];
        s.clock[owner] = 10_000;
        g.apply_checked(&mut s, Action::Serve, &mut rng).unwrap();
        // Timer 0 had 10 s left at 10 s, timer 1 had 20 s: the emptier one is flipped, and a
        // sand timer then holds the 20 s that had run down.
        assert_eq!(s.timers[0].left(10_000), expect, "{flip:?}");
    }
}

#[test]
fn the_two_leftmost_methods_are_open_and_upgrades_open_the_others_in_order() {
    let g = game(4);
    let (mut s, _) = opened(&g, 12);
    let seat = g.earliest(&s);
    let mine: Vec<u8> = (0..10u8)
        .filter(|&k| s.ingredient_owner[k as usize] == seat)
        .collect();
    for &m in &legal(&g, &s) {
        if let Action::Prepare { method, .. } = m {
            assert!(method < 2, "{m:?}");
        }
    }
    s.upgrades[mine[0] as usize] = 1;
    s.hustle_covering -= 1;
    s.hustle_pool += 1;
    // Every player holds 1 to 5, so every method's condition can be met.
    for i in 0..4 {
        s.dice[i] = [1, 2, 3, 4, 5];
        s.dice_count[i] = 5;
    }
    s.cubes = [9; 4];
    // The third method is open now; the fourth is not.
    let methods: Vec<u8> = legal(&g, &s)
        .iter()
        .filter_map(|a| match a {
            Action::Prepare {
                ingredient, method, ..
            } if *ingredient == mine[0] => Some(*method),
            _ => None,
        })
        .collect();
    assert!(methods.iter().all(|&m| m < 3), "{methods:?}");
    assert!(
        methods.contains(&2),
        "the upgrade opens the third method: {methods:?}"
    );
}

#[test]
fn the_fourth_method_needs_another_players_die() {
    for rule in [ForeignDice::AtLeastOne, ForeignDice::ExactlyOne] {
        let g = game_with(|p| p.fourth_method = rule);
        let (mut s, _) = opened(&g, 13);
        let seat = g.earliest(&s);
        let k = (0..10u8)
            .find(|&k| s.ingredient_owner[k as usize] == seat)
            .unwrap();
        s.upgrades[k as usize] = 2;
        s.cubes = [5; 4];
        for i in 0..4 {
            s.dice[i] = [1, 2, 3, 4, 5];
            s.dice_count[i] = 5;
        }
        let fourth: Vec<(Die, Die)> = choices(&g, &s)
            .iter()
            .filter_map(|c| match *c {
                Choice::Prepare {
                    ingredient,
                    method: 3,
                    a,
                    b,
                    ..
                } if ingredient == k => Some((a, b)),
                _ => None,
            })
            .collect();
        assert!(!fourth.is_empty());
        for (a, b) in fourth {
            let foreign = u8::from(a.owner != seat) + u8::from(b.owner != seat);
            match rule {
                ForeignDice::AtLeastOne => assert!(foreign >= 1),
                ForeignDice::ExactlyOne => assert_eq!(foreign, 1),
            }
        }
    }
}

#[test]
fn a_die_of_another_players_colour_costs_a_fortune_cube_handed_to_that_player() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 14);
    let seat = g.earliest(&s) as usize;
    let other = (seat + 1) % 4;
    let k = (0..10u8)
        .find(|&k| s.ingredient_owner[k as usize] == seat as u8)
        .unwrap();
    s.dice[seat] = [2, 0, 0, 0, 0];
    s.dice[other] = [5, 0, 0, 0, 0];
    let a = Choice::Prepare {
        power: false,
        ingredient: k,
        method: 0,
        a: Die {
            owner: seat as u8,
            face: 2,
        },
        b: Die {
            owner: other as u8,
            face: 5,
        },
    };
    let mut broke = s.clone();
    broke.cubes[seat] = 0;
    // "If you do not have a Fortune cube to exchange, you can't use dice belonging to other
    // players."
    assert!(!choices(&g, &broke).contains(&a));
    let (mine, theirs) = (s.cubes[seat], s.cubes[other]);
    let before = s.track[k as usize];
    apply_choice(&g, &mut s, a, &mut rng);
    assert_eq!((s.cubes[seat], s.cubes[other]), (mine - 1, theirs + 1));
    // Used dice go to the Dirty Dishes; the token moves up by the method's gain.
    assert_eq!((s.dice[seat][0], s.dice[other][0]), (0, 0));
    assert_eq!(s.track[k as usize], (before + 1).min(6));
}

#[test]
fn the_dishwasher_serves_twice_a_day_stops_the_timers_and_rerolls_all_dirty_dice() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 15);
    for i in 0..4 {
        s.dice[i] = [0, 0, 0, 0, 0];
    }
    assert!(legal(&g, &s).contains(&Action::Wash));
    for wash in 0..2 {
        let seat = g.earliest(&s) as usize;
        let now = s.clock[seat];
        g.apply_checked(&mut s, Action::Wash, &mut rng).unwrap();
        assert_eq!(s.phase, Phase::Washing);
        assert!(s.timers.iter().all(|t| !t.standing));
        // "As long as the timers are stopped, no customers may be served."
        assert!(!legal(&g, &s).contains(&Action::Serve));
        let left = [
            s.timers[0].left(now + 99_000),
            s.timers[1].left(now + 99_000),
        ];
        assert_eq!(left, [s.timers[0].top, s.timers[1].top]);
        g.apply_checked(&mut s, Action::EndWash, &mut rng).unwrap();
        assert_eq!(s.phase, Phase::Business);
        assert!(s.timers.iter().all(|t| t.standing));
        for i in 0..4 {
            assert_eq!(s.unused_dice(i), 2, "wash {wash}: every dirty die rolled");
            s.dice[i] = [0, 0, 0, 0, 0];
        }
    }
    assert_eq!(s.washes_left, 0);
    assert!(!legal(&g, &s).contains(&Action::Wash));
}

#[test]
fn hustle_a_die_becomes_a_token_a_token_turns_a_die_and_moves_two_cubes() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 16);
    let seat = g.earliest(&s) as usize;
    s.dice[seat] = [6, 1, 0, 0, 0];
    g.apply_checked(&mut s, Action::GainHustle(1), &mut rng)
        .unwrap();
    assert_eq!((s.hustle_pool, s.dice[seat][1]), (1, 0));
    s.clock[seat] = 0;
    // "You may also rotate a 1 to a 6 and a 6 to a 1."
    let rotate = Action::Rotate {
        owner: seat as u8,
        face: 6,
        up: true,
    };
    g.apply_checked(&mut s, rotate, &mut rng).unwrap();
    assert_eq!((s.hustle_pool, s.dice[seat][0]), (0, 1));
    s.hustle_pool = 1;
    s.hustle_supply -= 1;
    s.clock[seat] = 0;
    let cubes = s.cubes;
    g.apply_checked(&mut s, Action::HustleCubes { from: 1, to: 2 }, &mut rng)
        .unwrap();
    assert_eq!(
        g.to_move(&s),
        Some(seat as u8),
        "the same seat moves the second cube"
    );
    g.apply_checked(&mut s, Action::SecondCube { from: 3, to: 2 }, &mut rng)
        .unwrap();
    assert_eq!(s.cubes[2], cubes[2] + 2);
    assert_eq!((s.cubes[1], s.cubes[3]), (cubes[1] - 1, cubes[3] - 1));
}

#[test]
fn hustle_moves_2_fortune_cubes() {
    // "Move 2 Fortune cubes from any player to any other player." A single cube moves only
    // where fewer than 2 are at the table.
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 16);
    let seat = g.earliest(&s);
    s.hustle_pool = 1;
    s.hustle_supply -= 1;
    s.cubes = [1, 0, 0, 0];
    let mut one = s.clone();
    g.apply_checked(&mut s, Action::HustleCubes { from: 0, to: 1 }, &mut rng)
        .unwrap();
    // One cube at the table: it has moved, and the Hustle is done.
    assert_eq!(s.second_cube, None);
    assert!(!legal(&g, &s).contains(&Action::NoSecondCube));
    one.cubes = [1, 1, 0, 0];
    g.apply_checked(&mut one, Action::HustleCubes { from: 0, to: 2 }, &mut rng)
        .unwrap();
    assert_eq!(g.to_move(&one), Some(seat));
    let l = legal(&g, &one);
    assert!(!l.contains(&Action::NoSecondCube), "{l:?}");
    assert!(
        l.iter().all(|a| matches!(a, Action::SecondCube { .. })),
        "{l:?}"
    );
    g.apply_checked(&mut one, Action::SecondCube { from: 1, to: 3 }, &mut rng)
        .unwrap();
    assert_eq!(one.cubes, [0, 0, 1, 1]);
}

#[test]
fn hustle_may_rotate_any_unused_die_at_the_table() {
    // "Anyone can use Hustle tokens in the pool ... Rotate 1 unused die up or down 1 value."
    let any = game(4);
    let own = game_with(|p| p.hustle_dice = shifu_engine::wok_star::params::HustleDice::Own);
    for g in [&any, &own] {
        let (mut s, mut rng) = opened(g, 16);
        let seat = g.earliest(&s);
        let other = (seat + 1) % 4;
        s.hustle_pool = 1;
        s.hustle_supply -= 1;
        s.dice[other as usize][0] = 3;
        let rotate = Action::Rotate {
            owner: other,
            face: 3,
            up: true,
        };
        let offered = legal(g, &s).contains(&rotate);
        assert_eq!(offered, std::ptr::eq(g, &any));
        if offered {
            g.apply_checked(&mut s, rotate, &mut rng).unwrap();
            assert_eq!(s.dice[other as usize][0], 4);
            assert_eq!(s.hustle_pool, 0);
        }
    }
}

#[test]
fn the_seat_whose_clock_is_earliest_acts_next_and_speed_scales_every_duration() {
    let slow = game(4);
    let fast = game_with(|p| p.speed = 2.0);
    assert_eq!(slow.durations().serve, 3_000);
    assert_eq!(fast.durations().serve, 1_500);
    let (mut s, mut rng) = opened(&slow, 17);
    s.clock = [9_000, 4_000, 4_000, 7_000];
    assert_eq!(slow.to_move(&s), Some(1));
    slow.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    assert_eq!(s.clock[1], 5_000);
    assert_eq!(slow.to_move(&s), Some(2));
}

#[test]
fn the_day_closes_when_the_regular_deck_is_served_and_accounting_follows() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 18);
    let mut served = 0;
    while s.phase == Phase::Business {
        ready_to_serve(&g, &mut s);
        g.apply_checked(&mut s, Action::Serve, &mut rng).unwrap();
        served += 1;
    }
    assert_eq!(served, 12);
    assert_eq!(s.closing, Closing::DeckDone);
    assert_eq!(s.phase, Phase::AfterClose { seat: 0 });
    for _ in 0..4 {
        g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
    }
    // 12 customers served on time: income over the first goal; dice grow to the on-time
    // serves, at most 5.
    assert!(s.day_income[0] >= 15);
    assert_eq!(s.days_met, 1);
    assert!(s.dice_count.iter().all(|&d| (2..=5).contains(&d)));
}

#[test]
fn dice_pools_grow_to_the_on_time_customers_up_to_five_and_are_never_lost() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 19);
    s.on_time = [7, 3, 1, 0];
    s.dice_count = [2, 2, 4, 2];
    s.income = 100;
    g.apply_checked(&mut s, Action::Close, &mut rng).unwrap();
    for _ in 0..4 {
        g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
    }
    assert_eq!(s.dice_count, [5, 3, 4, 2]);
}

#[test]
fn a_missed_income_goal_ends_the_game_and_everyone_loses() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 20);
    s.income = 14; // the Medium 4-player goal of day 1 is $15
    g.apply_checked(&mut s, Action::Close, &mut rng).unwrap();
    for _ in 0..4 {
        g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
    }
    let o = g.outcome(&s).unwrap();
    assert_eq!((o.winners, o.team_score), (0, Some(-1.0)));
}

#[test]
fn a_met_goal_gains_the_cubes_passed_on_the_tracker_for_the_team_to_hand_out() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 21);
    s.income = 26; // passes the $15 and the $26 cubes (early cubes on by default)
    g.apply_checked(&mut s, Action::Close, &mut rng).unwrap();
    for _ in 0..4 {
        g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
    }
    assert_eq!((s.phase, s.cubes_to_give), (Phase::GiveCubes, 2));
    let c3 = s.cubes[3];
    g.apply_checked(&mut s, Action::GiveCube(3), &mut rng)
        .unwrap();
    g.apply_checked(&mut s, Action::GiveCube(3), &mut rng)
        .unwrap();
    assert_eq!(s.cubes[3], c3 + 2);
    assert_eq!(s.phase, Phase::Prep);
    assert_eq!(s.money, 26);
}

#[test]
fn next_day_prep_prices_recipes_upgrades_hustle_and_unspent_money_is_lost() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 22);
    s.income = 15;
    g.apply_checked(&mut s, Action::Close, &mut rng).unwrap();
    for _ in 0..4 {
        g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
    }
    while s.phase == Phase::GiveCubes {
        g.apply_checked(&mut s, Action::GiveCube(0), &mut rng)
            .unwrap();
    }
    assert_eq!(s.money, 15);
    let k = (0..10u8)
        .find(|&k| s.ingredient_owner[k as usize] != NOBODY)
        .unwrap();
    let pool = s.hustle_pool;
    g.apply_checked(&mut s, Action::Upgrade(k), &mut rng)
        .unwrap();
    assert_eq!(
        (s.money, s.upgrades[k as usize], s.hustle_pool),
        (9, 1, pool + 1)
    );
    g.apply_checked(&mut s, Action::BuyHustle, &mut rng)
        .unwrap();
    assert_eq!((s.money, s.hustle_pool), (7, pool + 2));
    g.apply_checked(&mut s, Action::Upgrade(k), &mut rng)
        .unwrap();
    assert_eq!(s.money, 1);
    // Two upgrades per card; nothing else is affordable.
    let l = legal(&g, &s);
    assert!(!l.contains(&Action::Upgrade(k)) && !l.contains(&Action::BuyHustle));
    g.apply_checked(&mut s, Action::Advertise, &mut rng)
        .unwrap();
    assert_eq!(g.observation(&s, 0).advertised, 1);
    g.apply_checked(&mut s, Action::OpenDay, &mut rng).unwrap();
    assert_eq!((s.day, s.money, s.phase), (2, 0, Phase::Business));
    // The advertised coupon is in the deck (or already revealed).
    assert_eq!((s.deck.count_ones() + 1) as usize, 13);
}

#[test]
fn the_team_wins_by_meeting_the_fourth_goal() {
    let g = game(4);
    let (mut s, mut rng) = opened(&g, 23);
    for day in 1..=4u8 {
        assert_eq!(s.day, day);
        s.income = 60;
        g.apply_checked(&mut s, Action::Close, &mut rng).unwrap();
        for _ in 0..4 {
            g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
        }
        while s.phase == Phase::GiveCubes {
            g.apply_checked(&mut s, Action::GiveCube(0), &mut rng)
                .unwrap();
        }
        if day < 4 {
            g.apply_checked(&mut s, Action::OpenDay, &mut rng).unwrap();
        }
    }
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b1111);
    assert_eq!(o.team_score, Some(4.0)); // $60 against the $56 goal
}

#[test]
fn a_day_that_runs_past_the_time_limit_closes() {
    let g = game_with(|p| {
        p.max_day_seconds = 20.0;
        p.all_wait_closes = false;
    });
    let (mut s, mut rng) = opened(&g, 24);
    while s.phase == Phase::Business {
        g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    }
    assert_eq!(s.closing, Closing::TimeLimit);
    assert!(s.clock.iter().all(|&c| c >= 20_000));
}

#[test]
fn a_day_closes_when_every_seat_waits_in_turn_with_nothing_else_done() {
    // "The phase ends when the team cannot or will not serve": a table where every player
    // passes will not serve (open rule `all_wait_closes`, default on).
    let g = game(3);
    let (mut s, mut rng) = opened(&g, 25);
    let start = s.clock;
    for k in 0..3 {
        assert_eq!(s.phase, Phase::Business, "closed after {k} waits");
        g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    }
    assert_eq!(s.closing, Closing::AllWaited);
    assert!(matches!(s.phase, Phase::AfterClose { .. }));
    assert!(s.clock.iter().zip(start).all(|(&c, b)| c <= b + 1_000));
}

#[test]
fn any_other_action_starts_the_waiting_round_again() {
    let g = game(2);
    let (mut s, mut rng) = opened(&g, 26);
    let first = g.to_move(&s).unwrap();
    g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    // The other seat acts (a die becomes a Hustle token) instead of waiting.
    let other = loop {
        let seat = g.to_move(&s).unwrap();
        if seat != first {
            break seat;
        }
        g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    };
    let hustle = legal(&g, &s)
        .into_iter()
        .find(|a| matches!(a, Action::GainHustle(_)))
        .unwrap();
    g.apply_checked(&mut s, hustle, &mut rng).unwrap();
    assert_eq!(s.waited, 0);
    // Now both wait in turn (the first seat perhaps several times): the day closes only when
    // the second has waited too.
    while g.to_move(&s) == Some(first) {
        g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
        assert_eq!(s.phase, Phase::Business);
    }
    assert_eq!(g.to_move(&s), Some(other));
    g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    assert_eq!(s.closing, Closing::AllWaited);
}

#[test]
fn without_all_wait_closes_waiting_seats_keep_the_day_open() {
    let g = game_with(|p| {
        p.players = 3;
        p.all_wait_closes = false;
    });
    let (mut s, mut rng) = opened(&g, 25);
    for _ in 0..30 {
        g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    }
    assert_eq!(s.phase, Phase::Business);
}

fn with_events() -> WokStar {
    game_with(|p| p.events = true)
}

/// An opened Events game whose first card revealed was a customer.
fn opened_on_a_customer(g: &WokStar, from: u64) -> (State, GameRng) {
    (from..from + 100)
        .map(|seed| opened(g, seed))
        .find(|(s, _)| s.customer.is_some())
        .unwrap()
}

/// The index of the event card with this name.
fn event(g: &WokStar, name: &str) -> u8 {
    g.data.events.iter().position(|e| e.name == name).unwrap() as u8
}

#[test]
fn events_two_event_cards_join_the_regular_deck_each_day() {
    let g = with_events();
    let (s, _) = opened(&g, 30);
    assert_eq!(s.event_deck.count_ones() + s.events_today.count_ones(), 2);
    assert_eq!(s.event_box.count_ones(), 13);
    // Without the rule there are none.
    let (plain, _) = opened(&game(4), 30);
    assert_eq!((plain.event_deck, plain.event_box), (0, 0));
}

/// Leaves one customer and the event `e` in the Regular deck, then serves the waiting customer
/// on the first seed whose draw reveals the event.
fn serve_into_event(g: &WokStar, s: &State, e: u8) -> (State, GameRng) {
    let mut s = s.clone();
    s.deck &= s.deck.wrapping_neg(); // one customer left
    assert_eq!(s.deck.count_ones(), 1);
    s.event_box |= s.event_deck;
    s.event_box &= !(1 << e);
    s.event_deck = 1 << e;
    (0..64)
        .map(|seed| {
            let (mut t, mut rng) = (s.clone(), rng_from_seed(seed));
            g.apply_checked(&mut t, Action::Serve, &mut rng).unwrap();
            (t, rng)
        })
        .find(|(t, _)| t.event == Some(e))
        .unwrap()
}

#[test]
fn events_a_drawn_event_holds_the_next_customer_until_a_timer_is_up() {
    let g = with_events();
    let (mut s, _) = opened_on_a_customer(&g, 31);
    let owner = ready_to_serve(&g, &mut s) as usize;
    s.clock = [5_000; 4];
    s.clock[owner] = 1_000;
    let e = event(&g, "Rent Is Due");
    let (mut s, mut rng) = serve_into_event(&g, &s, e);
    assert_eq!(s.customer, None);
    assert!(!legal(&g, &s).contains(&Action::Serve));
    // Wait out the timers: the event gives way to the last customer. (Waits while an event
    // shows do not close the day: the team is waiting for the sand.)
    while s.event.is_some() {
        g.apply_checked(&mut s, Action::Wait, &mut rng).unwrap();
    }
    assert_eq!(s.phase, Phase::Business);
    assert!(s.customer.is_some());
    assert_eq!(s.deck, 0);
    assert!(s.clock.iter().all(|&c| c >= 30_000), "{:?}", s.clock);
}

#[test]
fn events_all_customers_from_the_regular_deck_served_ends_open_for_business() {
    // "The Open for Business phase ends, if: ... All customers from the Regular deck are
    // served." An event card still in the deck does not keep the day open.
    let g = with_events();
    let (mut s, mut rng) = opened_on_a_customer(&g, 35);
    ready_to_serve(&g, &mut s);
    let e = event(&g, "Rent Is Due");
    s.deck = 0;
    s.event_box |= s.event_deck;
    s.event_box &= !(1 << e);
    s.event_deck = 1 << e;
    g.apply_checked(&mut s, Action::Serve, &mut rng).unwrap();
    assert_eq!(
        s.event, None,
        "no event is revealed once the customers are served"
    );
    assert_eq!(s.closing, Closing::DeckDone);
    assert_eq!(s.phase, Phase::AfterClose { seat: 0 });
    assert_eq!(s.events_today & (1 << e), 0);
}

#[test]
fn events_end_of_round_events_change_the_income_at_accounting() {
    let g = with_events();
    let (mut s, mut rng) = opened(&g, 32);
    let rent = event(&g, "Rent Is Due");
    let critic = event(&g, "Food Critic");
    s.event_box |= s.event_deck | s.events_today;
    s.event_deck = 0;
    s.events_today = 0;
    s.event = None;
    if s.customer.is_none() {
        s.customer = Some((0..12).find(|&r| s.recipe_owner[r] != NOBODY).unwrap() as u8 * 8);
    }
    s.event_box &= !((1 << rent) | (1 << critic));
    s.events_today = (1 << rent) | (1 << critic);
    s.income = 20;
    s.late = 0;
    g.apply_checked(&mut s, Action::Close, &mut rng).unwrap();
    for _ in 0..4 {
        g.apply_checked(&mut s, Action::Done, &mut rng).unwrap();
    }
    // -$2 rent, +$5 for no late customer.
    assert_eq!(s.day_income[0], 23);
    assert_eq!(s.events_gone, (1 << rent) | (1 << critic));
}

#[test]
fn events_catering_order_needs_the_dish_twice_and_pays_double() {
    let g = with_events();
    let (mut s, mut rng) = opened_on_a_customer(&g, 33);
    let owner = ready_to_serve(&g, &mut s);
    s.event = None;
    s.double_next = true;
    let r = recipe_of(&s);
    let ks = g.data.recipes[r].ingredients.clone();
    let mut short = s.clone();
    short.track[ks[0] as usize] = 1;
    assert!(!legal(&g, &short).contains(&Action::Serve));
    let (income, _) = g.customer_income(s.customer.unwrap());
    let before = s.income;
    let _ = owner;
    g.apply_checked(&mut s, Action::Serve, &mut rng).unwrap();
    assert_eq!(s.income - before, 2 * i32::from(income));
    for &k in &ks {
        assert_eq!(s.track[k as usize], 1);
    }
    assert!(!s.double_next);
}

#[test]
fn events_grandmas_pantry_lets_the_revealing_seat_choose_an_ingredient() {
    let g = with_events();
    let (mut s, _) = opened_on_a_customer(&g, 34);
    let owner = ready_to_serve(&g, &mut s);
    let pantry = event(&g, "Grandma's Pantry");
    s.clock = [9_000; 4];
    s.clock[owner as usize] = 0;
    let (mut s, mut rng) = serve_into_event(&g, &s, pantry);
    assert_eq!(g.to_move(&s), Some(owner));
    let l = legal(&g, &s);
    assert!(
        l.iter().all(|a| matches!(a, Action::ChooseIngredient(_))),
        "{l:?}"
    );
    let Action::ChooseIngredient(k) = l[0] else {
        unreachable!()
    };
    let before = s.track[k as usize];
    g.apply_checked(&mut s, l[0], &mut rng).unwrap();
    assert_eq!(s.track[k as usize], (before + 2).min(6));
}

fn with_powers() -> WokStar {
    game_with(|p| p.powers = true)
}

/// The index of the character with this name.
fn character(g: &WokStar, name: &str) -> u8 {
    g.data
        .characters
        .iter()
        .position(|c| c.name == name)
        .unwrap() as u8
}

/// An opened Player Powers game whose first card is a customer, with `name` held by the seat
/// that owns the waiting customer's recipe (characters handed out in data order otherwise).
fn powered(g: &WokStar, name: &str, seed: u64) -> (State, GameRng, u8) {
    let mut rng = rng_from_seed(seed);
    let mut s = g.new_state(&mut rng);
    assert_eq!(s.phase, Phase::ChooseCharacters);
    for c in 0..4 {
        g.apply_checked(&mut s, Action::Character(c), &mut rng)
            .unwrap();
    }
    let mut seat = 0;
    while s.phase == Phase::GiveIngredients {
        let l = legal(g, &s);
        let a = if l.contains(&Action::GiveIngredient(seat)) {
            Action::GiveIngredient(seat)
        } else {
            l[0]
        };
        g.apply_checked(&mut s, a, &mut rng).unwrap();
        seat = (seat + 1) % 4;
    }
    let owner = ready_to_serve(g, &mut s);
    let want = character(g, name);
    match s.character.iter().position(|&c| c == want) {
        Some(holder) => s.character.swap(holder, owner as usize),
        None => s.character[owner as usize] = want,
    }
    (s, rng, owner)
}

#[test]
fn powers_each_player_gets_a_character_and_each_power_works_once_a_round() {
    let g = with_powers();
    let (mut s, mut rng, owner) = powered(&g, "Mama Wang", 40);
    let i = owner as usize;
    s.dice[i] = [0, 0, 0, 0, 0];
    assert!(legal(&g, &s).contains(&Action::UsePower));
    g.apply_checked(&mut s, Action::UsePower, &mut rng).unwrap();
    // "reroll all of your own dice in the Dirty Dishes without using the Dishwasher"
    assert_eq!(s.unused_dice(i), 2);
    assert_eq!(s.washes_left, 2);
    s.dice[i] = [0, 0, 0, 0, 0];
    s.clock[i] = 0;
    assert!(!legal(&g, &s).contains(&Action::UsePower), "once per round");
}

#[test]
fn powers_lily_flips_a_running_timer_back_to_full() {
    let g = with_powers();
    let (mut s, mut rng, owner) = powered(&g, "Lily Wang", 41);
    s.clock = [20_000; 4];
    s.clock[owner as usize] = 10_000;
    g.apply_checked(&mut s, Action::UsePower, &mut rng).unwrap();
    assert_eq!(s.timers[0].left(10_000), 30_000);
}

#[test]
fn powers_grandpa_serves_with_another_ingredient_in_place_of_a_missing_one() {
    let g = with_powers();
    let (mut s, mut rng, owner) = powered(&g, "Grandpa Wang", 42);
    let r = recipe_of(&s);
    let need = g.data.recipes[r].ingredients.clone();
    s.track[need[0] as usize] = 0;
    assert!(!legal(&g, &s).contains(&Action::Serve));
    let subs: Vec<Action> = legal(&g, &s)
        .into_iter()
        .filter(|a| matches!(a, Action::PowerServe { .. }))
        .collect();
    if subs.is_empty() {
        // No ingredient outside the recipe is in play at this seed; give one a token.
        let k = (0..10u8).find(|&k| s.ingredient_owner[k as usize] != NOBODY && !need.contains(&k));
        assert!(k.is_none(), "a substitute exists but is not offered");
        return;
    }
    let Action::PowerServe { using } = subs[0] else {
        unreachable!()
    };
    let before = s.track[using as usize];
    g.apply_checked(&mut s, subs[0], &mut rng).unwrap();
    assert_eq!(s.track[using as usize], before - 1);
    assert_eq!(s.track[need[0] as usize], 0);
    assert_eq!(s.served_count[owner as usize], 1);
}

#[test]
fn powers_papa_uses_other_players_dice_without_cubes_and_auntie_sets_a_die() {
    let g = with_powers();
    let (mut s, mut rng, owner) = powered(&g, "Papa Wang", 43);
    let i = owner as usize;
    let other = (i + 1) % 4;
    s.cubes[i] = 0;
    s.dice[other] = [4, 5, 0, 0, 0];
    let free: Vec<Choice> = choices(&g, &s)
        .into_iter()
        .filter(|c| matches!(c, Choice::Prepare { power: true, .. }))
        .collect();
    assert!(!free.is_empty());
    let cubes = s.cubes;
    apply_choice(&g, &mut s, free[0], &mut rng);
    assert_eq!(s.cubes, cubes, "no cube changes hands");
    let (mut t, mut rng, owner) = powered(&g, "Auntie Wang", 44);
    t.dice[owner as usize] = [2, 0, 0, 0, 0];
    g.apply_checked(&mut t, Action::SetDie { face: 2, to: 6 }, &mut rng)
        .unwrap();
    assert_eq!(t.dice[owner as usize][0], 6);
    assert_eq!(t.hustle_pool, 0, "no Hustle needed");
}

#[test]
fn powers_chris_earns_a_dollar_for_the_same_recipe_twice_in_a_row() {
    let g = with_powers();
    let (mut s, mut rng, owner) = powered(&g, "Chris Wang", 45);
    let r = recipe_of(&s);
    s.last_recipe = r as u8;
    let (income, _) = g.customer_income(s.customer.unwrap());
    g.apply_checked(&mut s, Action::Serve, &mut rng).unwrap();
    assert_eq!(s.income, i32::from(income) + 1);
    assert_ne!(s.powers_used & (1 << owner), 0);
}

#[test]
fn a_loaded_state_with_an_ingredient_owner_past_the_data_is_refused_naming_it() {
    // Such a state loaded, then panicked in the legal moves.
    let g = game(3);
    let (s, _) = opened(&g, 40);
    assert!(g.check_state(&s).is_ok());
    let mut bad = s.clone();
    bad.ingredient_owner[g.data.ingredients.len()] = 0;
    let e = g.check_state(&bad).unwrap_err();
    assert!(e.starts_with("ingredient_owner:"), "{e}");
    let mut bad = s.clone();
    bad.steps = u32::MAX;
    assert!(g.check_state(&bad).unwrap_err().starts_with("steps:"));
    let mut bad = s;
    bad.phase = Phase::Prep;
    assert!(g.check_state(&bad).is_err(), "a mid-day Next Day Prep");
}

#[test]
fn instant_waits_without_all_wait_closes_are_refused_naming_both_keys() {
    let mut p = Params {
        wait_seconds: 0.0,
        all_wait_closes: false,
        ..Params::default()
    };
    let e = WokStar::with_params(p.clone()).err().unwrap().to_string();
    assert!(
        e.contains("wait_seconds") && e.contains("all_wait_closes"),
        "{e}"
    );
    // Either alone is fine.
    p.all_wait_closes = true;
    assert!(WokStar::with_params(p.clone()).is_ok());
    p.wait_seconds = 1.0;
    p.all_wait_closes = false;
    assert!(WokStar::with_params(p).is_ok());
}

#[test]
fn goal_scale_multiplies_every_income_goal() {
    let g = game_with(|p| {
        p.difficulty = "mild".into();
        p.players = 4;
        p.goal_scale = 0.5;
    });
    assert_eq!(g.goals(), [7, 12, 18, 25]); // Mild, 4 players: 13, 23, 36, 50, halved and rounded
    assert!(WokStar::with_params(Params {
        goal_scale: f64::NAN,
        ..Params::default()
    })
    .is_err());
}
