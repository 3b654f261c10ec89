//! Randomized Tofu Kingdom tests: invariants after every action over thousands of games,
//! determinization that never produces a world inconsistent with the answers heard, and perft.

use rand::{Rng, SeedableRng};
use shifu_engine::perft::perft;
use shifu_engine::tofu_kingdom::{
    CentreAnswer, Deal, EndCheck, Params, PrinceReward, State, TofuKingdom,
};
use shifu_engine::{rng_from_seed, Game, GameRng};
use std::collections::HashMap;

/// A game for each player count and each of the 64 combinations of the six two-valued rule
/// options (the question-type switches are covered by the rules tests).
fn all_option_variants() -> Vec<TofuKingdom> {
    let mut v = Vec::new();
    for players in shifu_engine::tofu_kingdom::INFO.players() {
        for bits in 0..64u32 {
            let on = |k: u32| bits & (1 << k) != 0;
            v.push(
                TofuKingdom::with_params(Params {
                    players,
                    deal: if on(0) {
                        Deal::BlueOrangeLists
                    } else {
                        Deal::AllCharacters
                    },
                    centre_answer: if on(1) {
                        CentreAnswer::Free
                    } else {
                        CentreAnswer::SayCentre
                    },
                    centre_is_a_lie: on(2),
                    end_check: if on(3) {
                        EndCheck::AfterSteals
                    } else {
                        EndCheck::Reached
                    },
                    prince_reward: if on(4) {
                        PrinceReward::None
                    } else {
                        PrinceReward::Data
                    },
                    extra_question: on(5),
                    first_prince: (bits % players as u32) as u8,
                    ..Params::default()
                })
                .unwrap(),
            );
        }
    }
    v
}

/// A smaller spread of the same: each player count with each deal and centre answer, the other
/// options varied with them.
fn variants() -> Vec<TofuKingdom> {
    all_option_variants()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % 64 < 4 || (i % 64) % 21 == 5)
        .map(|(_, g)| g)
        .collect()
}

/// Plays a random game, calling `each` on every position before its action.
fn random_game(g: &TofuKingdom, seed: u64, mut each: impl FnMut(&State)) -> State {
    let mut rng = rng_from_seed(seed);
    let mut pick = GameRng::seed_from_u64(seed ^ 0xABCD);
    let mut s = g.new_state(&mut rng);
    let mut legal = Vec::new();
    while g.to_move(&s).is_some() {
        each(&s);
        g.legal_actions(&s, &mut legal);
        assert!(!legal.is_empty());
        let a = legal[pick.gen_range(0..legal.len())];
        g.apply(&mut s, a, &mut rng);
        if let Err(e) = g.check_invariants(&s) {
            panic!("seed {seed}, {} players, after {a:?}: {e}", g.num_seats());
        }
    }
    s
}

#[test]
fn thousands_of_random_games_keep_every_invariant_and_every_answer_respects_its_eye() {
    let games = all_option_variants();
    let mut total = 0;
    for (i, g) in games.iter().enumerate() {
        for seed in 0..10u64 {
            let end = random_game(g, seed * 1000 + i as u64, |_| {});
            let o = g.outcome(&end).expect("over");
            let holds = end.table.points.iter().any(|&p| p >= g.target());
            match g.params.end_check {
                EndCheck::AfterSteals => assert!(o.capped || holds),
                // A steal may take the score back below: the round still ends the game.
                EndCheck::Reached => assert!(o.capped || holds || end.table.reached),
            }
            total += 1;
        }
    }
    assert!(total >= 3000, "{total}");
}

#[test]
fn legal_lists_hold_distinct_actions_that_all_apply() {
    for g in variants().iter().step_by(3) {
        random_game(g, 7, |s| {
            let mut legal = Vec::new();
            g.legal_actions(s, &mut legal);
            let mut d = legal.clone();
            d.sort_by_key(|a| format!("{a:?}"));
            d.dedup();
            assert_eq!(d.len(), legal.len());
            for &a in &legal {
                let mut t = *s;
                g.apply_checked(&mut t, a, &mut rng_from_seed(1)).unwrap();
            }
        });
    }
}

#[test]
fn princes_determinization_never_produces_a_world_inconsistent_with_the_answers() {
    for g in variants() {
        let mut rng = rng_from_seed(5);
        for seed in 0..10 {
            random_game(&g, seed, |s| {
                let prince = s.table.prince;
                let w = g.determinize(s, prince, &mut rng);
                assert!(g.consistent(&w.table, &w.cards), "inconsistent world");
                g.check_invariants(&w).unwrap();
                assert_eq!(g.observation(&w, prince), g.observation(s, prince));
                // Other seats know every dealt card: only the centre's order may change.
                let other = (prince + 1) % g.num_seats() as u8;
                let v = g.determinize(s, other, &mut rng);
                assert_eq!(v.cards, s.cards);
                assert_eq!(g.observation(&v, other), g.observation(s, other));
            });
        }
    }
}

#[test]
fn princes_determinization_samples_the_consistent_worlds_uniformly() {
    // Five players (840 deals): after the questions, enumerate the consistent worlds and check
    // that 100 samples per world hit each about equally often and nothing else.
    let g = TofuKingdom::with_params(Params::with_players(5)).unwrap();
    let mut rng = rng_from_seed(11);
    let mut checked = 0;
    for seed in 0..40 {
        let mut at_guess = None;
        random_game(&g, seed, |s| {
            if at_guess.is_none() && s.table.phase == shifu_engine::tofu_kingdom::Phase::Guess {
                at_guess = Some(*s);
            }
        });
        let Some(s) = at_guess else { continue };
        let mut worlds = Vec::new();
        g.for_each_world(&s.table, |w| worlds.push(*w));
        assert!(worlds.contains(&s.cards), "the true world is consistent");
        if !(3..=150).contains(&worlds.len()) {
            continue;
        }
        let mut hits: HashMap<[u8; 8], u32> = HashMap::new();
        let n = 100 * worlds.len();
        for _ in 0..n {
            let w = g.determinize(&s, s.table.prince, &mut rng);
            *hits.entry(w.cards).or_default() += 1;
        }
        assert_eq!(
            hits.len(),
            worlds.len(),
            "every consistent world and no other"
        );
        let expected = n as f64 / worlds.len() as f64;
        let chi: f64 = hits
            .values()
            .map(|&h| (h as f64 - expected).powi(2) / expected)
            .sum();
        // Far above the 0.999 quantile of chi-square with df = worlds - 1 (about
        // df + 4.4 sqrt(df)): a sampler that favours some worlds fails by a wide margin.
        let df = worlds.len() as f64 - 1.0;
        assert!(
            chi < df + 6.0 * df.sqrt() + 10.0,
            "chi-square {chi} over {} worlds",
            worlds.len()
        );
        checked += 1;
    }
    assert!(checked >= 3, "{checked} positions checked");
}

/// Every deal of `deck` to the seats other than the Prince that passes `consistent`, checked
/// whole (no masks, no pruning), in seat-by-seat deck order.
fn brute_force_worlds(g: &TofuKingdom, s: &State) -> Vec<[u8; 8]> {
    fn go(
        g: &TofuKingdom,
        s: &State,
        cards: &mut [u8; 8],
        seat: u8,
        used: u16,
        out: &mut Vec<[u8; 8]>,
    ) {
        if seat == g.num_seats() as u8 {
            if g.consistent(&s.table, cards) {
                out.push(*cards);
            }
            return;
        }
        if seat == s.table.prince {
            return go(g, s, cards, seat + 1, used, out);
        }
        for (i, &c) in g.deck().iter().enumerate() {
            if used & (1 << i) == 0 {
                cards[seat as usize] = c;
                go(g, s, cards, seat + 1, used | (1 << i), out);
            }
        }
    }
    let mut cards = s.cards;
    let mut out = Vec::new();
    go(g, s, &mut cards, 0, 0, &mut out);
    out
}

#[test]
fn pruned_enumeration_finds_exactly_the_consistent_deals() {
    let mut checked = 0;
    // Every option combination sampled at up to 6 players, and every player count at seed 0.
    let small = variants().into_iter().filter(|g| g.num_seats() <= 6);
    let counts = shifu_engine::tofu_kingdom::INFO
        .players()
        .map(|p| TofuKingdom::with_params(Params::with_players(p)).unwrap());
    for (k, g) in small.chain(counts).enumerate() {
        for seed in 0..if g.num_seats() <= 6 { 3 } else { 1 } {
            random_game(&g, seed + 100 * k as u64, |s| {
                if (s.table.log_len > 0 || s.table.guess.is_some()) && s.table.turns % 3 == 0 {
                    let mut worlds = Vec::new();
                    let n = g.for_each_world(&s.table, |w| worlds.push(*w));
                    assert_eq!(worlds, brute_force_worlds(&g, s));
                    assert_eq!(n as usize, worlds.len());
                    assert!(worlds.contains(&s.cards), "the true deal is consistent");
                    checked += 1;
                }
            });
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn same_seed_same_game_on_any_thread() {
    let g = TofuKingdom::with_params(Params::with_players(6)).unwrap();
    let here = random_game(&g, 42, |_| {});
    let there = std::thread::scope(|sc| sc.spawn(|| random_game(&g, 42, |_| {})).join().unwrap());
    assert_eq!(here, there);
    let json = serde_json::to_string(&here).unwrap();
    assert_eq!(serde_json::from_str::<State>(&json).unwrap(), here);
}

fn counts(players: u8, depth: u32) -> Vec<u64> {
    let g = TofuKingdom::with_params(Params::with_players(players)).unwrap();
    let mut rng = rng_from_seed(1);
    let s = g.new_state(&mut rng);
    (1..=depth).map(|d| perft(&g, &s, &rng, d)).collect()
}

#[test]
fn perft_three_and_five_players_seed_1() {
    assert_eq!(counts(3, 6), PERFT_3P);
    assert_eq!(counts(5, 4), PERFT_5P, "5p");
}

/// Depths 1 to 6, three players, seed 1, default data and parameters.
const PERFT_3P: [u64; 6] = [6, 31, 93, 476, 2856, 14756];
/// Depths 1 to 4, five players, seed 1.
const PERFT_5P: [u64; 4] = [20, 99, 1485, 6814];

#[test]
fn state_is_small_plain_data() {
    let size = std::mem::size_of::<State>();
    println!("size of one Tofu Kingdom State: {size} bytes");
    // 264 bytes today, about 100 of them the referee's statistics for the findings.
    assert!(size <= 320, "{size} bytes");
}

#[test]
fn every_reachable_state_passes_the_load_check_and_mutated_ones_never_panic() {
    use shifu_engine::tofu_kingdom::state::{Answer, Phase, Question};
    let mut rng = GameRng::seed_from_u64(5);
    let mut refused = 0;
    for g in variants().iter().step_by(3) {
        let mut states = Vec::new();
        for seed in 0..4 {
            let end = random_game(g, 9_000 + seed, |s| {
                g.check_state(s)
                    .unwrap_or_else(|e| panic!("{e}: {:?}", s.table.phase));
                states.push(*s);
            });
            g.check_state(&end).unwrap();
        }
        // One field at a time set to a random value: refused, or played on without a panic.
        for k in 0..600 {
            let mut m = states[k % states.len()];
            let v: u8 = match rng.gen_range(0..3) {
                0 => rng.gen_range(0..10),
                1 => rng.gen(),
                _ => 200,
            };
            let i = (v % 8) as usize;
            let which = rng.gen_range(0..12);
            match which {
                0 => m.table.prince = v,
                1 => m.table.players = v,
                2 => m.cards[i] = v,
                3 => m.centre[i] = v,
                4 => m.centre_len = v,
                5 => m.table.log_len = v,
                6 => m.table.guess = Some(v),
                7 => {
                    m.table.phase = Phase::Answer {
                        to: v,
                        question: Question::CardOf(v),
                    }
                }
                8 => m.table.phase = Phase::Steal { seat: v },
                9 => m.table.log[i].answer = Answer::Seat(v),
                10 => m.table.points[i] = i16::from(v) - 100,
                _ => m.table.round = u16::from(v),
            }
            if g.check_state(&m).is_err() {
                refused += 1;
                continue;
            }
            let mut legal = Vec::new();
            for _ in 0..100 {
                if g.to_move(&m).is_none() {
                    break;
                }
                g.legal_actions(&m, &mut legal);
                assert!(
                    !legal.is_empty(),
                    "mutation {which} = {v}: dead end in {:?}",
                    m.table
                );
                let a = legal[rng.gen_range(0..legal.len())];
                g.apply(&mut m, a, &mut rng);
            }
        }
    }
    assert!(refused > 1_000, "{refused}");
}
