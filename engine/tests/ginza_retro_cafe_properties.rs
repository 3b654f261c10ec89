//! Randomized Ginza Retro Café tests: invariants after every action over thousands of games under
//! every combination of the rule options (no dead end, ever), hidden information and perft.

mod common;

use rand::{Rng, SeedableRng};
use shifu_engine::ginza_retro_cafe::params::{DrinkDice, SetupTie, StartTie};
use shifu_engine::ginza_retro_cafe::{
    Action, CardId, Choice, GinzaRetroCafe, Params, Phase, Picking, State,
};
use shifu_engine::perft::perft;
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game, GameRng};
use std::collections::HashSet;

/// Every combination of the eight two-valued rule options (256) at 2, 3 and 4 players.
fn variants() -> Vec<GinzaRetroCafe> {
    let mut v = Vec::new();
    for bits in 0..256u32 {
        for players in shifu_engine::ginza_retro_cafe::INFO.players() {
            let b = |k: u32| bits & (1 << k) != 0;
            let p = Params {
                players,
                setup_tie: if b(0) {
                    SetupTie::LowestSeat
                } else {
                    SetupTie::Random
                },
                start_tie: if b(1) {
                    StartTie::LeftFirst
                } else {
                    StartTie::CurrentFirst
                },
                drink_dice: if b(2) {
                    DrinkDice::Minimal
                } else {
                    DrinkDice::Any
                },
                arrange_partial: !b(3),
                stacked_tokens: !b(4),
                arrivals_tick: b(5),
                most_with_zero: b(6),
                finite_bank: !b(7),
                // The start-coin variant rides with the first option.
                start_yen_by_position: if b(0) {
                    (0..players).map(|i| 2 * i).collect()
                } else {
                    Vec::new()
                },
                ..Params::default()
            };
            v.push(GinzaRetroCafe::with_params(p).unwrap());
        }
    }
    v
}

/// Plays a game, checking the invariants after every action (see `common::play_checked`).
fn play(g: &GinzaRetroCafe, seed: u64, pick: impl FnMut(&State, &[Action]) -> usize) -> State {
    common::play_checked(g, seed, |s| g.check_invariants(s), pick, 10_000)
}

/// A random player that serves when it can (so that customers get served and order cards,
/// upgrades and bonus conditions come into play).
fn server(seed: u64) -> impl FnMut(&State, &[Action]) -> usize {
    let mut r = GameRng::seed_from_u64(seed ^ 0x5eed);
    move |_, legal| {
        let serves: Vec<usize> = (0..legal.len())
            .filter(|&k| {
                matches!(
                    legal[k],
                    Action::Serve { .. } | Action::RaiseLevel(_) | Action::RaiseLimit
                )
            })
            .collect();
        if !serves.is_empty() && r.gen_bool(0.9) {
            return serves[r.gen_range(0..serves.len())];
        }
        r.gen_range(0..legal.len())
    }
}

#[test]
fn thousands_of_random_games_under_every_option_keep_every_invariant() {
    let games = variants();
    let mut total = 0;
    let mut served = 0u32;
    let mut raised = 0u32;
    for (i, g) in games.iter().enumerate() {
        for k in 0..8u64 {
            let seed = k * 10_000 + i as u64;
            let end = if k % 2 == 0 {
                let mut r = GameRng::seed_from_u64(seed);
                play(g, seed, move |_, l| r.gen_range(0..l.len()))
            } else {
                play(g, seed, server(seed))
            };
            served += u32::from(end.served);
            raised += end.levels.iter().flatten().filter(|&&l| l == 2).count() as u32;
            total += 1;
        }
    }
    assert!(total >= 6000, "{total}");
    assert!(
        served > 2 * total,
        "{served} customers served in {total} games"
    );
    assert!(
        raised > total,
        "{raised} Arrange cards at Lv.2 in {total} games"
    );
}

/// The complete choices reached from `s` by every sequence of legal steps, each reached by one
/// sequence only; every state on the way is mid-decision and has a legal step.
fn reached(g: &GinzaRetroCafe, s: &State, out: &mut HashSet<Choice>) {
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    assert!(!legal.is_empty(), "a dead end in {:?}", s.picking);
    for a in legal {
        match g.completed(s, a) {
            Some(c) => assert!(out.insert(c), "{c:?} reached twice"),
            None => {
                let mut t = s.clone();
                // A step that only begins or continues a choice draws nothing.
                let mut no_draw = rng_from_seed(0);
                g.apply(&mut t, a, &mut no_draw);
                assert_eq!(no_draw.gen::<u64>(), rng_from_seed(0).gen::<u64>());
                assert!(g.mid_decision(&t) && t.picking != Picking::Nothing);
                g.check_invariants(&t).unwrap();
                reached(g, &t, out);
            }
        }
    }
}

/// Checks the steps against the complete choices in `s`: the same set, and each choice's steps
/// (from [`GinzaRetroCafe::step_toward`]) end where the choice played at once does, with the
/// same random stream. Returns the number of choices.
fn check_twin(g: &GinzaRetroCafe, s: &State, seed: u64) -> usize {
    let mut flat = Vec::new();
    g.choices(s, &mut flat);
    let set: HashSet<Choice> = flat.iter().copied().collect();
    assert_eq!(set.len(), flat.len(), "a choice listed twice");
    let mut by_steps = HashSet::new();
    reached(g, s, &mut by_steps);
    let missing: Vec<_> = set.difference(&by_steps).collect();
    let extra: Vec<_> = by_steps.difference(&set).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{:?} {:?}: not reached {missing:?}, reached but not a choice {extra:?}",
        s.phase,
        s.picking
    );
    for (k, &c) in flat.iter().enumerate() {
        let (mut a, mut b) = (s.clone(), s.clone());
        let (mut ra, mut rb) = (
            rng_from_seed(seed + k as u64),
            rng_from_seed(seed + k as u64),
        );
        let mut steps = 0;
        loop {
            let step = g.step_toward(&a, c);
            let last = g.completed(&a, step);
            g.apply_checked(&mut a, step, &mut ra).unwrap();
            steps += 1;
            if let Some(done) = last {
                assert_eq!(done, c);
                break;
            }
            assert!(steps < 20, "{c:?} never completes");
        }
        g.play_choice(&mut b, c, &mut rb);
        assert_eq!(a, b, "{c:?}");
        assert_eq!(ra.gen::<u64>(), rb.gen::<u64>(), "{c:?}");
    }
    flat.len()
}

#[test]
fn compact_steps_reach_exactly_the_flat_choices() {
    let games = variants();
    let (mut states, mut choices, mut mid) = (0, 0, 0);
    for (i, g) in games.iter().enumerate() {
        let seed = 77 + i as u64;
        let mut r = GameRng::seed_from_u64(seed);
        let mut pick = server(seed);
        play(g, seed, |s, l| {
            // Every state in a third of the games, every fifth state in the rest.
            if i % 3 == 0 || r.gen_range(0..5) == 0 {
                choices += check_twin(g, s, seed);
                states += 1;
                mid += usize::from(s.picking != Picking::Nothing);
            }
            pick(s, l)
        });
    }
    assert!(
        states > 20_000 && mid > 5_000,
        "{states} states, {mid} mid-choice"
    );
    assert!(choices > 200_000, "{choices} choices");
}

#[test]
fn a_lv1_arrange_may_do_more_than_lv2_and_every_invariant_still_holds() {
    // Data may give Lv.1 more rerolls or changes than Lv.2; a turn at Lv.1 must still pass the
    // invariants (which once bounded the steps left by the Lv.2 count).
    use shifu_engine::ginza_retro_cafe::GinzaData;
    let text = GinzaData::embedded_text()
        .replacen("rerolls: [2, 4]", "rerolls: [4, 2]", 1)
        .replacen("change_steps: [1, 2]", "change_steps: [3, 1]", 1);
    let data = GinzaData::parse(&text, "reversed.yaml").unwrap();
    let g = GinzaRetroCafe::new(data, Params::with_players(3)).unwrap();
    let mut long_arranges = 0;
    for seed in 0..200u64 {
        let mut r = GameRng::seed_from_u64(seed);
        let end = play(&g, seed, |s, l| {
            if let Phase::Reroll { left: 3, .. } | Phase::Change { left: 2, .. } = s.phase {
                long_arranges += 1;
            }
            r.gen_range(0..l.len())
        });
        assert!(end.is_over());
    }
    assert!(long_arranges > 10, "{long_arranges}");
}

#[test]
fn observation_of_a_determinized_copy_is_the_observation() {
    let mut checked = 0;
    let mut moved = [0u32; 3]; // player cards, bonus hands, customer deck
    for players in shifu_engine::ginza_retro_cafe::INFO.players() {
        let g = GinzaRetroCafe::with_params(Params::with_players(players)).unwrap();
        for seed in 0..30u64 {
            let mut det = rng_from_seed(seed + 1000);
            let gr = &g;
            let (checked_ref, moved_ref) = (&mut checked, &mut moved);
            let mut pick = server(seed);
            play(gr, seed, |s, l| {
                for seat in 0..players {
                    let d = gr.determinize(s, seat, &mut det);
                    assert_eq!(
                        gr.observation(&d, seat),
                        gr.observation(s, seat),
                        "{:?}",
                        s.phase
                    );
                    gr.check_invariants(&d).unwrap();
                    // A function of what the seat sees: re-dealing a re-dealt copy with the same
                    // random stream gives the same copy.
                    let k = u64::from(seat) + 7 * *checked_ref as u64;
                    assert_eq!(
                        gr.determinize(&d, seat, &mut rng_from_seed(k)),
                        gr.determinize(s, seat, &mut rng_from_seed(k)),
                        "{:?}",
                        s.phase
                    );
                    moved_ref[0] += u32::from(d.card_dealt != s.card_dealt);
                    moved_ref[1] += u32::from(d.bonus_hand != s.bonus_hand);
                    moved_ref[2] += u32::from(d.deck != s.deck);
                }
                *checked_ref += 1;
                pick(s, l)
            });
        }
    }
    assert!(checked > 1000, "{checked}");
    assert!(
        moved.iter().all(|&m| m > 100),
        "hidden parts re-drawn: {moved:?}"
    );
}

#[test]
fn a_seat_never_sees_another_seats_hidden_cards() {
    let g = GinzaRetroCafe::with_params(Params::with_players(3)).unwrap();
    let mut rng = rng_from_seed(4);
    let mut s = g.new_state(&mut rng);
    let mut legal = Vec::new();
    while !matches!(s.phase, Phase::Turn { .. }) {
        g.legal_actions(&s, &mut legal);
        g.apply(&mut s, legal[0], &mut rng);
    }
    let o = g.observation(&s, 0);
    assert_eq!(o.state.bonus_hand[0], s.bonus_hand[0]);
    for j in 1..3 {
        assert_eq!(
            o.state.bonus_hand[j],
            [CardId::NONE; 2],
            "seat {j}'s bonus cards are hidden"
        );
        assert_eq!(
            o.state.card_dealt[j],
            [CardId::NONE; 2],
            "seat {j}'s declined card is hidden"
        );
        assert_eq!(
            o.state.card[j], s.card[j],
            "chosen cards are revealed together"
        );
    }
    assert_eq!(o.state.deck, [0; 3]);
    assert_eq!(o.deck_sizes, s.deck.map(|d| d.count_ones()));
    // Before the reveal, another seat's choice is hidden.
    let mut s = g.new_state(&mut rng_from_seed(4));
    g.apply(&mut s, Action::ChooseCard(1), &mut rng);
    assert_eq!(g.observation(&s, 1).state.card[0], CardId::NONE);
    assert_eq!(g.observation(&s, 0).state.card[0], s.card_dealt[0][1]);
}

fn perft_counts(players: u8, seed: u64, depth: u32) -> Vec<u64> {
    let g = GinzaRetroCafe::with_params(Params::with_players(players)).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut s = g.new_state(&mut rng);
    // From the first turn: the set-up choices multiply but do not exercise the turn rules.
    let mut legal = Vec::new();
    while !matches!(s.phase, Phase::Turn { .. }) {
        g.legal_actions(&s, &mut legal);
        g.apply(&mut s, legal[0], &mut rng);
    }
    (1..=depth).map(|d| perft(&g, &s, &rng, d)).collect()
}

#[test]
fn perft_from_the_first_turn_is_pinned() {
    assert_eq!(perft_counts(2, 1, 5), PERFT_2P);
    assert_eq!(perft_counts(4, 1, 5), PERFT_4P);
}

/// Depths 1 to 5 from the first turn, 2 players, seed 1, default data and parameters, counting
/// steps (a serve or a reroll is several).
const PERFT_2P: [u64; 5] = [15, 98, 955, 6622, 49008];
/// Depths 1 to 5 from the first turn, 4 players, seed 1, default data and parameters.
const PERFT_4P: [u64; 5] = [12, 87, 685, 3843, 37160];
