//! The fixed encodings for learners beyond the contract tests (`experiments/tests/contract.rs`,
//! which check every game's defaults): Wok Star's variants, and what one game's encoding reads.

use rand::Rng;
use shifu_engine::encode::Encoding;
use shifu_engine::tofu_kingdom::{self, TofuKingdom};
use shifu_engine::wok_star::{self, WokStar};
use shifu_engine::{rng_from_seed, Game};
use std::collections::HashSet;

/// Every index maps to at most one action and back; no two actions share an index.
fn check_index_space<G: Encoding>(g: &G) {
    let n = g.action_count();
    for i in 0..n {
        if let Some(a) = g.index_action(i) {
            assert_eq!(g.action_index(a), i, "{}: index {i} gives {a:?}", g.name());
        }
    }
    assert_eq!(g.index_action(n), None);
}

/// Plays `games` random games; at every position checks the encoding of each seat's view
/// against `dets` determinizations, and the mask and indices of the legal actions.
fn check_games<G: Encoding>(g: &G, games: u64, dets: usize) -> usize {
    let len = g.observation_len();
    let seats = g.num_seats() as u8;
    let mut legal = Vec::new();
    let mut scratch = Vec::new();
    let mut mask = vec![0u8; g.action_count()];
    let (mut a, mut b) = (vec![0f32; len], vec![0f32; len]);
    let mut positions = 0;
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        while g.to_move(&s).is_some() {
            positions += 1;
            for seat in 0..seats {
                assert_eq!(g.encode_observation(&s, seat, &mut a), len, "{}", g.name());
                assert!(a.iter().all(|x| x.is_finite()));
                for _ in 0..dets {
                    let d = g.determinize(&s, seat, &mut rng);
                    assert_eq!(g.encode_observation(&d, seat, &mut b), len);
                    assert_eq!(
                        a,
                        b,
                        "{} seed {seed}: seat {seat}'s encoding differs",
                        g.name()
                    );
                }
            }
            g.legal_actions(&s, &mut legal);
            g.legal_mask(&s, &mut scratch, &mut mask);
            let marked: HashSet<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
            let indices: HashSet<usize> = legal.iter().map(|&x| g.action_index(x)).collect();
            assert_eq!(
                indices.len(),
                legal.len(),
                "two legal actions share an index"
            );
            assert_eq!(marked, indices, "{} seed {seed}: mask differs", g.name());
            for &x in &legal {
                let i = g.action_index(x);
                assert!(i < g.action_count());
                assert_eq!(g.index_action(i), Some(x), "{}: {x:?} round trip", g.name());
            }
            let x = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, x, &mut rng);
        }
    }
    positions
}

/// Wok Star with its events and powers on (the contract tests check every game's defaults).
#[test]
fn wok_star_encoding_with_events_and_powers_is_fixed_consistent_and_round_trips() {
    for players in wok_star::INFO.players() {
        let g = WokStar::with_params(wok_star::Params {
            events: true,
            powers: true,
            ..wok_star::Params::with_players(players)
        })
        .unwrap();
        check_index_space(&g);
        let n = check_games(&g, 100, 2);
        assert!(n > 1000, "{n} positions");
    }
}

#[test]
fn the_encoding_reads_what_the_seat_sees() {
    // Tofu Kingdom: an answerer sees every dealt card, the Prince only his own.
    let g = TofuKingdom::with_params(tofu_kingdom::Params::default()).unwrap();
    let s = g.new_state(&mut rng_from_seed(4));
    let layout = g.layout();
    let card_values = |seat: u8| -> f32 {
        let mut v = vec![0f32; g.observation_len()];
        g.encode_observation(&s, seat, &mut v);
        layout
            .iter()
            .filter(|f| f.name.ends_with(".card"))
            .map(|f| v[f.offset..f.offset + f.len].iter().sum::<f32>())
            .sum()
    };
    let prince = s.table.prince;
    let other = (prince + 1) % s.table.players;
    assert_eq!(card_values(prince), 1.0);
    assert_eq!(card_values(other), f32::from(s.table.players));
}

/// Plays `games` random games of `g`; at every position checks that each seat's `f32`
/// observation lies within the declared bounds, and that its `u8` form reads back to it (to
/// within half a step where the value is inside the `u8` range). Returns the positions seen.
fn check_bounds<G: Encoding>(g: &G, games: u64, seed: u64) -> usize {
    let bounds = g.bounds();
    let len = g.observation_len();
    assert_eq!(bounds.len(), len);
    let (mut f, mut q) = (vec![0f32; len], vec![0u8; len]);
    let mut legal = Vec::new();
    let mut positions = 0;
    for k in 0..games {
        let mut rng = rng_from_seed(seed * 1000 + k);
        let mut s = g.new_state(&mut rng);
        while g.to_move(&s).is_some() {
            positions += 1;
            for seat in 0..g.num_seats() as u8 {
                assert_eq!(g.encode_observation(&s, seat, &mut f), len);
                assert_eq!(g.encode_observation_u8(&s, seat, &mut q), len);
                for (i, b) in bounds.iter().enumerate() {
                    let v = f[i];
                    assert!(
                        (b.low..=b.high).contains(&v),
                        "{} seed {k}: value {i} = {v} outside {b:?}",
                        g.name()
                    );
                    let top = b.zero + 255.0 * b.step;
                    if (b.zero..=top).contains(&v) {
                        let back = b.dequantize(q[i]);
                        assert!(
                            (back - v).abs() <= b.step * 0.5001 + v.abs() * 1e-6,
                            "{} seed {k}: value {i} = {v} reads back {back} from {}",
                            g.name(),
                            q[i]
                        );
                    }
                }
            }
            g.legal_actions(&s, &mut legal);
            let x = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, x, &mut rng);
        }
    }
    positions
}

/// `base` with each boolean option flipped, and each `alternatives` setting applied, with
/// probability one half.
fn random_options<P: shifu_engine::ParamFile>(base: P, alternatives: &[&str], seed: u64) -> P {
    let mut rng = rng_from_seed(seed);
    let mut p = base;
    let json = serde_json::to_value(&p).expect("parameters serialise");
    let mut sets: Vec<String> = alternatives.iter().map(|s| s.to_string()).collect();
    if let Some(map) = json.as_object() {
        for (k, v) in map {
            if let Some(b) = v.as_bool() {
                sets.push(format!("{k}={}", !b));
            }
        }
    }
    for kv in sets {
        if rng.gen_bool(0.5) {
            p.set_all([kv.as_str()]).expect("a valid option");
        }
    }
    p
}

/// Random play under random option sets and every player count never leaves the declared
/// bounds, in any of the four games.
#[test]
fn observations_stay_within_their_bounds_under_every_option() {
    use shifu_engine::{ginza_retro_cafe as gz, tofu_shifu as ts};
    for seed in 0..4u64 {
        for players in ts::INFO.players() {
            let p = random_options(
                ts::Params::with_players(players),
                &[
                    "objective_limit=one-total",
                    "end_rule=immediate",
                    "restaurant_objective_dishes=distinct",
                ],
                seed,
            );
            let g = ts::TofuShifu::with_params(p).unwrap();
            assert!(check_bounds(&g, 2, seed) > 50);
        }
        for players in tofu_kingdom::INFO.players() {
            let p = random_options(
                tofu_kingdom::Params::with_players(players),
                &[
                    "deal=blue-orange-lists",
                    "end_check=after-steals",
                    "prince_reward=none",
                    "centre_answer=free",
                ],
                seed,
            );
            let g = TofuKingdom::with_params(p).unwrap();
            assert!(check_bounds(&g, 2, seed) > 10);
        }
        for players in wok_star::INFO.players() {
            let p = random_options(
                wok_star::Params::with_players(players),
                &[
                    "timer_flip=refill",
                    "fourth_method=exactly-one",
                    "track_top=refuse",
                    "hustle_dice=own",
                    "dice_growth=served",
                    "recipe_offer=each-purchase",
                    "undrawn_events=discard",
                    "difficulty=extra_spicy",
                ],
                seed,
            );
            let g = WokStar::with_params(p).unwrap();
            assert!(check_bounds(&g, 2, seed) > 10);
        }
        for players in gz::INFO.players() {
            let p = random_options(
                gz::Params::with_players(players),
                &[
                    "setup_tie=lowest-seat",
                    "start_tie=left-first",
                    "drink_dice=minimal",
                ],
                seed,
            );
            let g = gz::GinzaRetroCafe::with_params(p).unwrap();
            assert!(check_bounds(&g, 2, seed) > 10);
        }
    }
}

/// Checks the seat rotation of `g` over `games` random games: for every observer it is a
/// permutation, the observer's own seat block comes first, and the one-hot field `name` (a
/// seat) reads `seat` minus the observer, turn order kept.
fn check_rotation<G: Encoding>(g: &G, games: u64, name: &str, seat: impl Fn(&G::State) -> u8) {
    use shifu_engine::SeatRotation;
    let r = SeatRotation::of(g);
    let layout = g.layout();
    let len = g.observation_len();
    let n = g.num_seats();
    assert_eq!(r.len(), len);
    for o in 0..n as u8 {
        let mut seen: Vec<usize> = (0..len).map(|i| r.source(o, i)).collect();
        seen.sort_unstable();
        assert!(
            seen.iter().copied().eq(0..len),
            "{}: not a permutation",
            g.name()
        );
    }
    let field = layout.iter().find(|f| f.name == name).expect("field");
    let own = |k: usize| {
        layout
            .iter()
            .find(|f| f.name == format!("seat{k}.{}", field_after_seat(&layout)))
            .unwrap()
            .offset
    };
    let (mut abs, mut rel) = (vec![0f32; len], vec![0f32; len]);
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut legal = Vec::new();
        while g.to_move(&s).is_some() {
            for o in 0..n as u8 {
                g.encode_observation(&s, o, &mut abs);
                r.rotate(o, &abs, &mut rel);
                let want = (usize::from(seat(&s)) + n - usize::from(o)) % n;
                let hot: Vec<usize> = (0..n).filter(|&k| rel[field.offset + k] == 1.0).collect();
                assert_eq!(hot, [want], "{} seed {seed}: observer {o}", g.name());
                for k in 0..n {
                    let a = own((k + usize::from(o)) % n);
                    assert_eq!(rel[own(k)], abs[a], "{}: seat block {k}", g.name());
                }
                checked += 1;
            }
            g.legal_actions(&s, &mut legal);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, a, &mut rng);
        }
    }
    assert!(checked > 50);
}

/// The name (after `seat0.`) of the first field of seat 0.
fn field_after_seat(layout: &[shifu_engine::Field]) -> String {
    let f = layout
        .iter()
        .find(|f| f.name.starts_with("seat0."))
        .unwrap();
    f.name["seat0.".len()..].to_string()
}

/// The relative encoding puts the observer first in every game: Tofu Shifu's seat to move and
/// Tofu Kingdom's Prince are counted from the observer.
#[test]
fn the_seat_rotation_counts_seats_from_the_observer() {
    use shifu_engine::tofu_shifu as ts;
    for players in [2u8, 4] {
        let g = ts::TofuShifu::with_params(ts::Params::with_players(players)).unwrap();
        check_rotation(&g, 2, "current", |s| g.to_move(s).unwrap());
    }
    let g = TofuKingdom::with_params(tofu_kingdom::Params::with_players(5)).unwrap();
    check_rotation(&g, 2, "prince", |s| s.table.prince);
}
