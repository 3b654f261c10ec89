//! Randomized tests: thousands of random games with every invariant checked after every action,
//! determinism across threads, determinization, serialisation and checked application.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use shifu_engine::tofu_shifu::*;
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game, GameRng, ParamFile};

fn game(players: u8) -> TofuShifu {
    TofuShifu::with_params(Params::with_players(players)).unwrap()
}

/// Plays a random game, calling `visit` on every position reached (before each action).
fn random_game(
    g: &TofuShifu,
    seed: u64,
    mut visit: impl FnMut(&State, &[Action], &mut GameRng),
) -> State {
    let mut rng = rng_from_seed(seed);
    let mut pick = GameRng::seed_from_u64(seed ^ 0xA5A5_A5A5);
    let mut s = g.new_state(&mut rng);
    let mut buf = Vec::new();
    while g.to_move(&s).is_some() {
        g.legal_actions(&s, &mut buf);
        visit(&s, &buf, &mut pick);
        let a = buf[pick.gen_range(0..buf.len())];
        g.apply(&mut s, a, &mut rng);
    }
    s
}

#[test]
fn ten_thousand_random_games_keep_every_invariant() {
    // 10,002 games: 3,334 each at 2, 3 and 4 players, on two threads.
    let per = 3_334u64;
    let total_steps = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        for part in 0..2u64 {
            let total_steps = &total_steps;
            scope.spawn(move || {
                for players in shifu_engine::tofu_shifu::INFO.players() {
                    let g = game(players);
                    for i in (part..per).step_by(2) {
                        let seed = 1_000_000 * players as u64 + i;
                        let mut steps = 0u64;
                        let end = random_game(&g, seed, |s, legal, _| {
                            steps += 1;
                            assert!(
                                !legal.is_empty(),
                                "seed {seed}: no legal action in {:?}",
                                s.turn
                            );
                            if let Err(e) = g.check_invariants(s) {
                                panic!("seed {seed} step {steps}: {e}");
                            }
                        });
                        g.check_invariants(&end).unwrap();
                        let o = g.outcome(&end).unwrap();
                        assert!(o.winner_count() >= 1);
                        total_steps.fetch_add(steps, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    assert!(total_steps.into_inner() > 10_000 * 1_000);
}

/// The rule options and study variants that change which actions are legal or when the game
/// ends, each with both of its values.
const OPTIONS: [[&str; 2]; 8] = [
    ["objective_limit=one-town", "objective_limit=one-total"],
    [
        "unserved_coin_customer_pays=true",
        "unserved_coin_customer_pays=false",
    ],
    ["board_flags_count=false", "board_flags_count=true"],
    ["market_price_mode=slot", "market_price_mode=card"],
    ["copy_can_target_rest=false", "copy_can_target_rest=true"],
    [
        "require_effective_action=true",
        "require_effective_action=false",
    ],
    ["finite_reserve=true", "finite_reserve=false"],
    ["end_rule=after-round", "end_rule=immediate"],
];

#[test]
fn no_dead_end_under_any_combination_of_rule_options() {
    // Every one of the 2^8 = 256 combinations, 12 random games each (4 at each player count,
    // alternately on the calibrated and the first reconstruction's data): 3,072 games. After
    // every action the legal list is empty exactly when the game is over, and the invariants
    // hold.
    let games = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        for part in 0..2usize {
            let games = &games;
            scope.spawn(move || {
                for combo in (part..256usize).step_by(2) {
                    let sets: Vec<&str> = (0..8).map(|i| OPTIONS[i][(combo >> i) & 1]).collect();
                    for players in shifu_engine::tofu_shifu::INFO.players() {
                        let mut p = Params::with_players(players);
                        p.set_all(sets.iter().copied()).unwrap();
                        for k in 0..4u64 {
                            let data = ["calibrated", "reconstructed"][(combo + k as usize) % 2];
                            let g = TofuShifu::new(CardData::builtin(data).unwrap(), p.clone())
                                .unwrap();
                            let seed = (combo as u64) << 16 | (players as u64) << 8 | k;
                            let end = random_game(&g, seed, |s, legal, _| {
                                assert!(
                                    !legal.is_empty(),
                                    "{sets:?} {data} seed {seed}: no legal action in {:?}",
                                    s.turn
                                );
                                assert!(g.to_move(s).is_some());
                                if let Err(e) = g.check_invariants(s) {
                                    panic!("{sets:?} {data} seed {seed}: {e}");
                                }
                            });
                            let mut legal = Vec::new();
                            g.legal_actions(&end, &mut legal);
                            assert!(legal.is_empty() && g.outcome(&end).is_some());
                            games.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    assert_eq!(games.into_inner(), 3_072);
}

#[test]
fn legal_actions_are_distinct_and_all_apply_cleanly() {
    let g = game(3);
    for seed in 0..30 {
        random_game(&g, seed, |s, legal, _| {
            for (i, a) in legal.iter().enumerate() {
                assert!(!legal[..i].contains(a), "duplicate {a:?}");
            }
            // Every listed action applies through the checked path and keeps the invariants.
            for &a in legal.iter().take(6) {
                let mut t = s.clone();
                g.apply_checked(&mut t, a, &mut rng_from_seed(seed))
                    .unwrap();
                g.check_invariants(&t).unwrap();
            }
        });
    }
}

#[test]
fn same_seed_and_actions_give_the_same_game_on_any_thread() {
    let g = game(4);
    let here: Vec<State> = (0..8)
        .map(|seed| random_game(&g, seed, |_, _, _| {}))
        .collect();
    let there: Vec<State> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8u64)
            .map(|seed| {
                let g = &g;
                scope.spawn(move || random_game(g, seed, |_, _, _| {}))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(here, there);
    assert_ne!(here[0], here[1]);
}

#[test]
fn determinize_keeps_the_observers_view_and_conserves_cards() {
    let g = game(4);
    let mut resampled = 0u32;
    let mut with_hidden = 0u32;
    let mut checked = 0;
    for seed in 0..20 {
        let mut step = 0;
        random_game(&g, seed, |s, _, rng| {
            step += 1;
            if step % 7 != 0 || step > 400 {
                return;
            }
            for observer in 0..4u8 {
                let d = g.determinize(s, observer, rng);
                checked += 1;
                // The observer sees exactly the same position.
                assert_eq!(g.observation(&d, observer), g.observation(s, observer));
                // Its own hand is untouched; every card and token is still accounted for.
                assert_eq!(
                    d.players[observer as usize].hand,
                    s.players[observer as usize].hand
                );
                g.check_invariants(&d).unwrap();
                for q in 0..4 {
                    assert_eq!(
                        d.players[q].hand.count_ones(),
                        s.players[q].hand.count_ones()
                    );
                    assert_eq!(d.players[q].hand_known, s.players[q].hand_known);
                }
                assert_eq!(d.deck.count_ones(), s.deck.count_ones());
                let hidden =
                    (0..4).any(|q| q != observer as usize && s.players[q].hidden_hand() != 0);
                if hidden {
                    with_hidden += 1;
                    resampled += (d != *s) as u32;
                } else {
                    assert_eq!(&d, s, "nothing hidden, nothing to re-sample");
                }
                // The determinized copy plays on like any position.
                let mut legal = Vec::new();
                g.legal_actions(&d, &mut legal);
                assert!(!legal.is_empty());
            }
        });
    }
    assert!(checked > 100);
    assert!(with_hidden > 50);
    assert!(
        resampled * 2 > with_hidden,
        "hidden cards are re-dealt ({resampled} of {with_hidden})"
    );
}

#[test]
fn observation_hides_other_hands_and_the_deck() {
    let g = game(3);
    let mut rng = rng_from_seed(4);
    let s = g.new_state(&mut rng);
    let o = g.observation(&s, 1);
    assert_eq!(o.public.players[1].hand, s.players[1].hand);
    assert_eq!(o.public.players[0].hand, 0);
    assert_eq!(o.public.players[2].hand, 0);
    assert_eq!(o.hidden_hand_sizes[0], 4);
    assert_eq!(o.public.deck, 0);
    assert_eq!(o.deck_size, s.deck.count_ones());
}

#[test]
fn state_serialises_to_json_and_back() {
    let g = game(4);
    for seed in 0..5 {
        let mut step = 0;
        random_game(&g, seed, |s, _, _| {
            step += 1;
            if step % 53 == 0 {
                let json = serde_json::to_string(s).unwrap();
                let back: State = serde_json::from_str(&json).unwrap();
                assert_eq!(&back, s);
            }
        });
    }
}

#[test]
fn apply_checked_refuses_an_illegal_action_and_leaves_the_state_unchanged() {
    let g = game(2);
    let mut rng = rng_from_seed(1);
    let mut s = g.new_state(&mut rng);
    let before = s.clone();
    for bad in [
        Action::Move(Space::Rest),
        Action::Buy(0),
        Action::EndTurn,
        Action::PayCard(200),
    ] {
        let e = g.apply_checked(&mut s, bad, &mut rng).unwrap_err();
        assert_eq!(e.seat, Some(0));
        assert_eq!(s, before);
    }
    let e = g
        .apply_checked(&mut s, Action::Buy(0), &mut rng)
        .unwrap_err();
    assert!(e.to_string().contains("buy"), "{e}");
}

#[test]
fn a_user_data_file_replaces_the_embedded_one_and_errors_name_file_and_field() {
    let dir = std::env::temp_dir().join(format!("shifu-data-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("cards.json");
    let text = data::EMBEDDED_JSON.replace("\"SOYMILK\": 1,", "\"SOYMILK\": 5,");
    std::fs::write(&good, &text).unwrap();
    let d = CardData::from_path(&good).unwrap();
    assert_eq!(d.dish_values[0], 5);
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        data::EMBEDDED_JSON.replacen("\"hat_type\": \"CHEF\"", "\"hat_type\": \"COOK\"", 1),
    )
    .unwrap();
    let e = CardData::from_path(&bad).unwrap_err().to_string();
    assert!(e.contains("bad.json:"), "{e}");
    assert!(e.contains("production_cards[0].hat_type"), "{e}");
    let missing = CardData::from_path(&dir.join("nope.json"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("nope.json"), "{missing}");
    std::fs::remove_dir_all(&dir).ok();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any seed, any player count, any sequence of choices: invariants hold, and every
    /// observer's determinization agrees with what it sees.
    #[test]
    fn any_play_keeps_invariants_and_consistent_determinization(
        seed in any::<u64>(),
        players in 2u8..=4,
        choices in proptest::collection::vec(any::<u32>(), 1..400),
    ) {
        let g = game(players);
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut buf = Vec::new();
        for c in choices {
            if g.to_move(&s).is_none() {
                break;
            }
            g.legal_actions(&s, &mut buf);
            prop_assert!(!buf.is_empty());
            let a = buf[c as usize % buf.len()];
            g.apply(&mut s, a, &mut rng);
            prop_assert!(g.check_invariants(&s).is_ok(), "{:?}", g.check_invariants(&s));
        }
        for o in 0..players {
            let d = g.determinize(&s, o, &mut rng);
            prop_assert_eq!(g.observation(&d, o), g.observation(&s, o));
        }
    }
}

#[test]
fn every_reachable_state_passes_the_load_check() {
    for players in shifu_engine::tofu_shifu::INFO.players() {
        let g = game(players);
        for seed in 0..20 {
            let end = random_game(&g, 50_000 + seed, |s, _, _| {
                if let Err(e) = g.check_state(s) {
                    panic!("seed {seed}: {e} in {:?}", s.turn);
                }
            });
            g.check_state(&end).unwrap();
        }
    }
}

/// A named way to break one field of a state, from a random number.
type Mutation = (&'static str, fn(&mut State, u64));

/// Field mutations that a loaded state could carry: each sets one field to a value from `v`.
const MUTATIONS: &[Mutation] = &[
    ("current", |s, v| s.current = v as u8),
    ("num_players", |s, v| s.num_players = v as u8),
    ("round", |s, v| s.round = v as u16),
    ("turns", |s, v| s.turns = v as u32),
    ("capped", |s, v| s.capped = v % 2 == 1),
    ("deck", |s, v| s.deck ^= 1u128 << (v % 128)),
    ("market", |s, v| {
        s.market[(v % 8) as usize] = CardId::from_byte((v >> 3) as u8)
    }),
    ("bag", |s, v| s.bag ^= 1u64 << (v % 64)),
    ("drawn", |s, v| s.drawn ^= 1u64 << (v % 64)),
    ("town_display", |s, v| s.town_display ^= 1 << (v % 16)),
    ("coin_stack_taken", |s, v| s.coin_stack_taken = v as u8),
    ("reserve_coins", |s, v| {
        s.reserve_coins = (v % 300) as i32 - 100
    }),
    ("reserve_dishes", |s, v| {
        s.reserve_dishes[(v % 4) as usize] = (v >> 2) as i16
    }),
    ("end_trigger", |s, v| {
        s.end_trigger = SeatId::from_byte(v as u8)
    }),
    ("deck_out_round", |s, v| s.deck_out_round = v as u16),
    ("turn.card", |s, v| s.turn.card = CardId::from_byte(v as u8)),
    ("turn.pending", |s, v| {
        s.turn.pending[(v % 5) as usize] = (v >> 3) as u8
    }),
    ("turn.cursor", |s, v| s.turn.cursor = v as u8),
    ("turn.extra", |s, v| s.turn.extra = v as u8),
    ("turn.kept", |s, v| s.turn.kept ^= 1u128 << (v % 128)),
    ("players.coins", |s, v| {
        s.players[(v % 4) as usize].coins = (v >> 2) as u16
    }),
    ("players.marker", |s, v| {
        s.players[(v % 4) as usize].marker = (v >> 2) as u8
    }),
    ("players.hand", |s, v| {
        s.players[(v % 4) as usize].hand ^= 1u128 << ((v >> 2) % 128)
    }),
    ("players.upgrades", |s, v| {
        s.players[(v % 4) as usize].upgrades ^= 1u128 << ((v >> 2) % 128)
    }),
    ("players.dishes", |s, v| {
        s.players[(v % 4) as usize].dishes[((v >> 2) % 4) as usize] = (v >> 4) as u8
    }),
    ("players.hats", |s, v| {
        s.players[(v % 4) as usize].hats[((v >> 2) % 4) as usize] = (v >> 4) as u8
    }),
    ("players.dish_flags", |s, v| {
        s.players[(v % 4) as usize].dish_flags[((v >> 2) % 4) as usize] = (v >> 4) as u8
    }),
    ("players.lanterns", |s, v| {
        s.players[(v % 4) as usize].lanterns = (v >> 2) as u8
    }),
    ("players.tables", |s, v| {
        s.players[(v % 4) as usize].tables[((v >> 2) % 4) as usize][((v >> 4) % 2) as usize] =
            TileId::from_byte((v >> 5) as u8)
    }),
    ("players.served", |s, v| {
        s.players[(v % 4) as usize].served[((v >> 2) % 4) as usize][((v >> 4) % 2) as usize] =
            (v >> 5) as u8
    }),
    ("players.town_done", |s, v| {
        s.players[(v % 4) as usize].town_done ^= 1 << ((v >> 2) % 16)
    }),
    ("players.player_done", |s, v| {
        s.players[(v % 4) as usize].player_done ^= 1 << ((v >> 2) % 8)
    }),
    ("players.bonuses", |s, v| {
        s.players[(v % 4) as usize].bonuses ^= 1 << ((v >> 2) % 16)
    }),
    ("players.loose_master", |s, v| {
        s.players[(v % 4) as usize].loose_master = (v >> 2) as u8
    }),
];

/// A named break of a fresh state, and the word the refusal must name.
type Case = (&'static str, Box<dyn Fn(&mut State)>);

#[test]
fn loaded_states_out_of_range_or_inconsistent_are_refused_naming_the_field() {
    let g = game(4);
    let mut rng = rng_from_seed(8);
    let s = g.new_state(&mut rng);
    let hand_card = s.players[0].hand.trailing_zeros() as u8;
    let tile = s.bag.trailing_zeros() as u8;
    let cases: Vec<Case> = vec![
        ("current", Box::new(|s| s.current = 4)),
        ("num_players", Box::new(|s| s.num_players = 3)),
        ("round", Box::new(|s| s.round = 0)),
        ("turns", Box::new(|s| s.turns = 9)),
        ("marker", Box::new(|s| s.players[0].marker = 9)),
        ("market[0]", Box::new(|s| s.market[0] = CardId::new(200))),
        ("market[6]", Box::new(|s| s.market[6] = CardId::new(3))),
        ("turn.card", Box::new(|s| s.turn.card = CardId::new(200))),
        ("coins", Box::new(|s| s.players[0].coins = 200)),
        ("flags", Box::new(|s| s.players[1].dish_flags[0] = 9)),
        ("bonuses", Box::new(|s| s.players[0].bonuses = 1)),
        (
            "tables[0][0]",
            Box::new(|s| s.players[0].tables[0][0] = TileId::new(200)),
        ),
        ("served[0][0]", Box::new(|s| s.players[0].served[0][0] = 16)),
        ("end_trigger", Box::new(|s| s.end_trigger = SeatId::new(7))),
        ("deck_out_round", Box::new(|s| s.deck_out_round = 50)),
        ("coin_stack_taken", Box::new(|s| s.coin_stack_taken = 9)),
        ("capped", Box::new(|s| s.capped = true)),
        ("phase", Box::new(|s| s.turn.phase = Phase::RestDiscard)),
        ("hand", Box::new(|s| s.players[0].hand |= 1u128 << 100)),
        (
            "card(s)",
            Box::new(move |s| s.market[0] = CardId::new(hand_card)),
        ),
        (
            "tile",
            Box::new(move |s| {
                s.bag &= !(1 << tile);
                s.players[0].tables[0][0] = TileId::new(tile);
                s.players[1].tables[0][0] = TileId::new(tile);
            }),
        ),
    ];
    for (needle, break_it) in cases {
        let mut bad = s.clone();
        break_it(&mut bad);
        let e = g
            .check_state(&bad)
            .expect_err(&format!("{needle}: accepted"));
        assert!(e.contains(needle), "{needle}: {e}");
    }
}

#[test]
fn randomly_mutated_states_never_panic_the_check_or_the_game() {
    // Reachable states with one field set to a random value, 5,000 times: the check either
    // refuses the state, or the game plays on from it without panicking and keeps its invariants.
    let g = game(3);
    let mut rng = GameRng::seed_from_u64(99);
    let mut states = Vec::new();
    for seed in 0..6 {
        let mut step = 0;
        random_game(&g, 70_000 + seed, |s, _, _| {
            step += 1;
            if step % 97 == 0 {
                states.push(s.clone());
            }
        });
    }
    let (mut accepted, mut refused) = (0, 0);
    for k in 0..5_000 {
        let mut m = states[k % states.len()].clone();
        let (name, mutate) = MUTATIONS[rng.gen_range(0..MUTATIONS.len())];
        let v = match rng.gen_range(0..4) {
            0 => rng.gen_range(0..4),
            1 => rng.gen_range(0..300),
            2 => u64::MAX,
            _ => rng.gen(),
        };
        mutate(&mut m, v);
        if g.check_state(&m).is_err() {
            refused += 1;
            continue;
        }
        accepted += 1;
        let mut buf = Vec::new();
        for _ in 0..200 {
            if g.to_move(&m).is_none() {
                break;
            }
            g.legal_actions(&m, &mut buf);
            assert!(!buf.is_empty(), "{name} = {v}: dead end in {:?}", m.turn);
            let a = buf[rng.gen_range(0..buf.len())];
            g.apply(&mut m, a, &mut rng);
            g.check_invariants(&m).unwrap();
        }
    }
    assert!(
        refused > 1_000 && accepted > 100,
        "refused {refused}, accepted {accepted}"
    );
}
