//! Randomized Wok Star tests: invariants after every action over thousands of games under every
//! combination of the rule options (no dead end, ever), hidden information and perft.

mod common;

use rand::{Rng, RngCore, SeedableRng};
use shifu_engine::perft::perft;
use shifu_engine::wok_star::params::{
    DiceGrowth, ForeignDice, RecipeOffer, TimerFlip, TrackTop, UndrawnEvents,
};
use shifu_engine::wok_star::{Action, Choice, Params, Preparing, State, WokData, WokStar};
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

/// The complete choice a path of compact steps from `s` makes.
fn choice_of(s: &State, path: &[Action]) -> Choice {
    let mut p = s.preparing;
    let mut dice = Vec::new();
    for &a in path {
        match a {
            Action::Prepare { ingredient, method }
            | Action::PowerPrepare { ingredient, method } => {
                p = Some(Preparing {
                    power: matches!(a, Action::PowerPrepare { .. }),
                    ingredient,
                    method,
                    first: None,
                });
            }
            Action::UseDie(d) => dice.push(d),
            a => return Choice::Single(a),
        }
    }
    let p = p.expect("a die step with a preparation pending");
    let mut dice = p.first.into_iter().chain(dice);
    Choice::Prepare {
        power: p.power,
        ingredient: p.ingredient,
        method: p.method,
        a: dice.next().unwrap(),
        b: dice.next().unwrap(),
    }
}

/// The complete choices reachable from `s` by compact steps (depth first), each with the state
/// and the RNG its steps leave; `start` is the state the walk began at and `path` the steps taken
/// from it. Checks at every node, mid-split ones included, that the choices reachable from it
/// are exactly the flat list there, and counts the nodes.
fn reach(
    g: &WokStar,
    s: &State,
    rng: &GameRng,
    start: &State,
    path: &mut Vec<Action>,
    nodes: &mut u64,
) -> Vec<(Choice, State, GameRng)> {
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    assert!(!legal.is_empty(), "a dead end: {s:?}");
    let mut out = Vec::new();
    for a in legal {
        let mut t = s.clone();
        let mut r = rng.clone();
        g.apply(&mut t, a, &mut r);
        path.push(a);
        if g.mid_decision(&t) {
            out.extend(reach(g, &t, &r, start, path, nodes));
        } else {
            out.push((choice_of(start, path), t, r));
        }
        path.pop();
    }
    let mut flat = Vec::new();
    g.choices(s, &mut flat);
    let key = |c: &Choice| format!("{c:?}");
    let mut want: Vec<String> = flat.iter().map(key).collect();
    let mut got: Vec<String> = out.iter().map(|(c, _, _)| key(c)).collect();
    want.sort();
    got.sort();
    let n = want.len();
    want.dedup();
    assert_eq!(want.len(), n, "the flat list repeats a choice: {s:?}");
    assert_eq!(
        got, want,
        "the compact steps and the flat list differ: {s:?}"
    );
    *nodes += 1;
    out
}

/// From random states of random games under every combination of the rule options (and from the
/// states in the middle of a preparation that the walk passes through), the complete choices
/// that compact steps reach are exactly the flat list; applying a choice's steps leaves the
/// state and the RNG that applying the flat choice in one call leaves; and
/// [`WokStar::step_toward`] walks each flat choice's steps.
#[test]
fn compact_steps_reach_exactly_the_flat_choices() {
    let games = variants();
    let (mut nodes, mut prepared, mut mid, mut power) = (0u64, 0u64, 0u64, 0u64);
    for (i, g) in games.iter().enumerate() {
        let seed = 50_000 + i as u64;
        let mut sample = GameRng::seed_from_u64(!seed);
        let mut r = GameRng::seed_from_u64(seed);
        let mut b = busy(seed);
        play(g, seed, |s, l| {
            if sample.gen_bool(0.04) {
                let rng = GameRng::seed_from_u64(sample.gen());
                let found = reach(g, s, &rng, s, &mut Vec::new(), &mut nodes);
                for (c, t, mut r1) in found {
                    let mut u = s.clone();
                    let mut r2 = rng.clone();
                    g.apply_choice(&mut u, c, &mut r2);
                    assert_eq!(u, t, "{c:?} from {s:?}");
                    assert_eq!(r1.next_u64(), r2.next_u64(), "{c:?} from {s:?}");
                    let mut v = s.clone();
                    let mut r3 = rng.clone();
                    loop {
                        let a = g.step_toward(&v, c);
                        g.apply_checked(&mut v, a, &mut r3).unwrap();
                        if !g.mid_decision(&v) {
                            break;
                        }
                    }
                    assert_eq!(v, t, "{c:?} from {s:?}");
                    if let Choice::Prepare { power: p, .. } = c {
                        prepared += 1;
                        power += u64::from(p);
                    }
                }
                mid += u64::from(s.preparing.is_some());
            }
            if i % 2 == 0 {
                r.gen_range(0..l.len())
            } else {
                b(s, l)
            }
        });
    }
    assert!(nodes > 20_000, "{nodes} nodes");
    assert!(prepared > 100_000, "{prepared} preparations");
    assert!(power > 1_000, "{power} preparations by Papa Wang's power");
    assert!(mid > 1_000, "{mid} states in the middle of a preparation");
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
    // Compact steps: a preparation is 3 steps (ingredient and method, then a die each).
    let counts: Vec<u64> = (1..=5).map(|d| perft(&g, &s, &rng, d)).collect();
    assert_eq!(counts, vec![10, 119, 1136, 12498, 159350]);
    // Complete choices: the counts of the flat list before preparations were split into steps.
    // (4956 and 113952 since a Hustle may rotate any seat's die and moves 2 cubes: were 4936
    // and 110784.)
    let counts: Vec<u64> = (1..=3).map(|d| perft_choices(&g, &s, &rng, d)).collect();
    assert_eq!(counts, vec![112, 4956, 113952]);
}

/// [`perft`] over complete choices ([`WokStar::choices`], applied in one call).
fn perft_choices(g: &WokStar, s: &State, rng: &GameRng, depth: u32) -> u64 {
    if depth == 0 || g.to_move(s).is_none() {
        return 1;
    }
    let mut choices = Vec::new();
    g.choices(s, &mut choices);
    if depth == 1 {
        return choices.len() as u64;
    }
    let mut total = 0;
    for &c in &choices {
        let mut t = s.clone();
        let mut r = rng.clone();
        g.apply_choice(&mut t, c, &mut r);
        total += perft_choices(g, &t, &r, depth - 1);
    }
    total
}
