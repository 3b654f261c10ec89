//! Randomized Wok Star tests: invariants after every action over thousands of games under every
//! combination of the rule options (no dead end, ever), hidden information and perft.

mod common;

use rand::{Rng, SeedableRng};
use shifu_engine::perft::perft;
use shifu_engine::wok_star::params::{
    DiceGrowth, ForeignDice, RecipeOffer, TimerFlip, TrackTop, UndrawnEvents,
};
use shifu_engine::wok_star::{Action, Params, State, WokData, WokStar};
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game, GameRng};

/// The embedded data with one more difficulty, `trivial`, whose goals every team meets, so that
/// random games reach every day and the win.
fn data_with_trivial_goals() -> WokData {
    let text = WokData::embedded_text().replacen(
        "income_goals:\n",
        "income_goals:\n  trivial: {2: [0, 1, 2, 3], 3: [0, 1, 2, 3], 4: [0, 1, 2, 3]}\n",
        1,
    );
    WokData::parse(&text, "trivial.yaml").unwrap()
}

/// Every combination of the thirteen two-valued rule options (8,192), spread over players and
/// difficulties (a quarter with goals every team meets).
fn variants() -> Vec<WokStar> {
    let trivial = data_with_trivial_goals();
    let mut v = Vec::new();
    for bits in 0..8192u32 {
        let b = |k: u32| bits & (1 << k) != 0;
        let p = Params {
            players: 2 + (bits % 3) as u8,
            difficulty: ["mild", "medium", "extra_spicy", "trivial"][(bits / 3 % 4) as usize]
                .to_string(),
            timer_flip: if b(0) {
                TimerFlip::Refill
            } else {
                TimerFlip::Sand
            },
            on_time_at_empty: b(1),
            wash_with_unused_dice: !b(2),
            fourth_method: if b(3) {
                ForeignDice::ExactlyOne
            } else {
                ForeignDice::AtLeastOne
            },
            track_top: if b(4) {
                TrackTop::Refuse
            } else {
                TrackTop::Cap
            },
            cube_at_income_passed: !b(5),
            early_goal_cubes: !b(6),
            hustle_after_close: b(7),
            dice_growth: if b(8) {
                DiceGrowth::Served
            } else {
                DiceGrowth::OnTime
            },
            recipe_offer: if b(9) {
                RecipeOffer::EachPurchase
            } else {
                RecipeOffer::Once
            },
            events: b(10),
            powers: b(11),
            all_wait_closes: !b(12),
            undrawn_events: if b(1) {
                UndrawnEvents::Discard
            } else {
                UndrawnEvents::Stay
            },
            ..Params::default()
        };
        v.push(WokStar::new(trivial.clone(), p).unwrap());
    }
    v
}

/// Plays a game, checking the invariants after every action (see `common::play_checked`).
fn play(g: &WokStar, seed: u64, pick: impl FnMut(&State, &[Action]) -> usize) -> State {
    common::play_checked(g, seed, |s| g.check_invariants(s), pick, 100_000)
}

/// A random player with a little sense: it serves when it can, prepares what the waiting
/// customer lacks, and rarely closes, so that games reach later days.
fn busy(seed: u64) -> impl FnMut(&State, &[Action]) -> usize {
    let g = WokStar::with_params(Params::default()).unwrap();
    let mut r = GameRng::seed_from_u64(seed ^ 0x5eed);
    move |s, legal| {
        if let Some(k) = legal.iter().position(|a| matches!(a, Action::Serve)) {
            if r.gen_bool(0.95) {
                return k;
            }
        }
        if let Some(c) = s.customer {
            let recipe = &g.data.recipes[c as usize / 8];
            let lacking: Vec<usize> = legal
                .iter()
                .enumerate()
                .filter(|(_, a)| match a {
                    Action::Prepare { ingredient, .. } => {
                        recipe.ingredients.contains(ingredient)
                            && s.track[*ingredient as usize] == 0
                    }
                    _ => false,
                })
                .map(|(k, _)| k)
                .collect();
            if !lacking.is_empty() && r.gen_bool(0.9) {
                return lacking[r.gen_range(0..lacking.len())];
            }
        }
        loop {
            let k = r.gen_range(0..legal.len());
            let p = match legal[k] {
                Action::Close => 0.002,
                Action::OpenDay | Action::Done | Action::EndWash => 0.05,
                _ => 1.0,
            };
            if r.gen_bool(p) || legal.len() == 1 {
                return k;
            }
        }
    }
}

#[test]
fn thousands_of_random_games_under_every_option_keep_every_invariant() {
    let games = variants();
    let mut total = 0;
    let mut days = [0u32; 5];
    for (i, g) in games.iter().enumerate() {
        for seed in 0..1u64 {
            let seed = seed * 10_000 + i as u64;
            let end = if i % 2 == 0 {
                let mut r = GameRng::seed_from_u64(seed);
                play(g, seed, move |_, l| r.gen_range(0..l.len()))
            } else {
                play(g, seed, busy(seed))
            };
            days[end.days_met as usize] += 1;
            total += 1;
        }
    }
    assert!(total >= 8000, "{total}");
    // The busy players survive some days: the test reaches accounting, prep and later days.
    assert!(days[1..].iter().sum::<u32>() > 300, "{days:?}");
    assert!(days[2..].iter().sum::<u32>() > 300, "{days:?}");
    assert!(days[4] > 300, "{days:?}");
}

#[test]
fn observation_of_a_determinized_copy_is_the_observation() {
    let mut checked = 0;
    let mut moved_events = 0;
    for events in [false, true] {
        let g = WokStar::with_params(Params {
            events,
            ..Params::default()
        })
        .unwrap();
        for seed in 0..40u64 {
            let mut det = rng_from_seed(seed + 1000);
            let mut b = busy(seed);
            let gr = &g;
            let checked_ref = &mut checked;
            let moved_ref = &mut moved_events;
            play(gr, seed, |s, l| {
                for seat in 0..4 {
                    let d = gr.determinize(s, seat, &mut det);
                    assert_eq!(gr.observation(&d, seat), gr.observation(s, seat));
                    if d.event_deck != s.event_deck {
                        *moved_ref += 1;
                    }
                }
                *checked_ref += 1;
                b(s, l)
            });
        }
    }
    assert!(checked > 2000, "{checked}");
    assert!(
        moved_events > 100,
        "the hidden event cards are re-drawn: {moved_events}"
    );
}

#[test]
fn advertised_coupons_are_hidden_from_everyone_and_resampled() {
    let g = WokStar::with_params(Params::default()).unwrap();
    // Reach a Next Day Prep and advertise twice.
    for seed in 0..200u64 {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut legal = Vec::new();
        let mut pick = busy(seed);
        while g.to_move(&s).is_some() && s.phase != shifu_engine::wok_star::Phase::Prep {
            g.legal_actions(&s, &mut legal);
            let a = legal[pick(&s, &legal)];
            g.apply(&mut s, a, &mut rng);
        }
        if s.phase != shifu_engine::wok_star::Phase::Prep {
            continue;
        }
        g.apply_checked(&mut s, Action::Advertise, &mut rng)
            .unwrap();
        g.apply_checked(&mut s, Action::Advertise, &mut rng)
            .unwrap();
        let obs = g.observation(&s, 0);
        assert_eq!(obs.advertised, 2);
        // Every seat sees the same table; only the observing seat's number differs.
        let mut other = g.observation(&s, 1);
        assert_eq!(other.seat, 1);
        other.seat = 0;
        assert_eq!(obs, other);
        let mut differs = false;
        for k in 0..50 {
            let d = g.determinize(&s, 0, &mut rng_from_seed(k));
            assert_eq!(g.observation(&d, 0), obs);
            differs |= d.deck != s.deck;
        }
        assert!(differs, "determinize never moved the advertised coupons");
        return;
    }
    panic!("no game reached Next Day Prep");
}

#[test]
fn perft_is_pinned() {
    let g = WokStar::with_params(Params::default()).unwrap();
    let mut rng = rng_from_seed(2026);
    let mut s = g.new_state(&mut rng);
    // Hand the ingredient cards out round the table, then count from the opening of day 1.
    let mut seat = 0;
    while s.phase != shifu_engine::wok_star::Phase::Business {
        g.apply_checked(&mut s, Action::GiveIngredient(seat), &mut rng)
            .unwrap();
        seat = (seat + 1) % 4;
    }
    let counts: Vec<u64> = (1..=3).map(|d| perft(&g, &s, &rng, d)).collect();
    // (4956 and 113952 since a Hustle may rotate any seat's die and moves 2 cubes: were 4936
    // and 110784.)
    assert_eq!(counts, vec![112, 4956, 113952]);
}
