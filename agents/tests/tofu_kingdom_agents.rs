//! The generic agents on Tofu Kingdom: no peeking (the Prince's choices do not change when the
//! hidden deal is replaced by another consistent with every answer), answers within the eye
//! marks, and the greedy Prince's edge over a random one (a statistically safe test).

#[allow(dead_code)]
mod common;

use common::choose;
use shifu_agents::{build_agent, game_seed, play_game, Agent, Decision};
use shifu_engine::tofu_kingdom::{Params, Phase, State, TofuKingdom};
use shifu_engine::{rng_from_seed, Game};

fn game(players: u8) -> TofuKingdom {
    TofuKingdom::with_params(Params::with_players(players)).unwrap()
}

/// Positions from random games where the Prince decides after hearing answers, or an answerer
/// decides, with a choice to make.
fn positions(g: &TofuKingdom, count: usize) -> Vec<State> {
    common::positions(g, count, 60, |step, s, legal| {
        step % 5 == 2 && legal.len() > 1 && s.table.log_len > 0
    })
}

#[test]
fn no_agent_peeks_at_hidden_information_in_tofu_kingdom() {
    let g = game(5);
    let specs = [
        "random",
        "greedy",
        "mcts:iters=80",
        "mcts:iters=40,reward=win,depth=20",
    ];
    let ps = positions(&g, 16);
    let mut differing = 0;
    for spec in specs {
        for (i, s) in ps.iter().enumerate() {
            let seat = g.to_move(s).unwrap();
            let other = g.determinize(s, seat, &mut rng_from_seed(300 + i as u64));
            differing += (other.cards != s.cards) as u32;
            assert_eq!(g.observation(&other, seat), g.observation(s, seat));
            let mut a = build_agent::<TofuKingdom>(spec, i as u64, seat).unwrap();
            let mut b = build_agent::<TofuKingdom>(spec, i as u64, seat).unwrap();
            assert_eq!(
                choose(&g, a.as_mut(), s),
                choose(&g, b.as_mut(), &other),
                "{spec} at position {i}"
            );
        }
    }
    assert!(
        differing > 10,
        "the test must compare genuinely different deals"
    );
}

#[test]
fn greedy_and_mcts_games_end_and_every_answer_respects_its_eye() {
    for (players, specs) in [(3, "greedy"), (6, "greedy"), (4, "mcts:iters=30")] {
        let g = game(players);
        for i in 0..4 {
            let seed = game_seed(7, i);
            let mut agents: Vec<Box<dyn Agent<TofuKingdom>>> = (0..players)
                .map(|s| build_agent(specs, seed, s).unwrap())
                .collect();
            let r = play_game(&g, &mut agents, seed, &mut Vec::new());
            assert_eq!(r.state.table.phase, Phase::Over);
            g.check_invariants(&r.state).unwrap();
        }
    }
    // Answers are checked against the eye marks after every step of these games.
    let g = game(5);
    let mut rng = rng_from_seed(9);
    let mut s = g.new_state(&mut rng);
    let mut agents: Vec<Box<dyn Agent<TofuKingdom>>> = (0..5)
        .map(|seat| build_agent("greedy", 9, seat).unwrap())
        .collect();
    let mut legal = Vec::new();
    while let Some(seat) = g.to_move(&s) {
        g.legal_actions(&s, &mut legal);
        let a = agents[seat as usize].choose(&Decision::new(&g, &s, seat, &legal));
        g.apply_checked(&mut s, a, &mut rng).unwrap();
        g.check_invariants(&s).unwrap();
    }
}

/// Seat 0's find rate as Prince (rounds naming Princess Tofu's holder / rounds she was dealt)
/// with `prince` in seat 0 and greedy answerers elsewhere.
fn find_rate(prince: &str, players: u8, games: u64) -> (f64, f64) {
    let g = game(players);
    let (mut finds, mut dealt) = (0.0, 0.0);
    for i in 0..games {
        let seed = game_seed(2026, i);
        let mut agents: Vec<Box<dyn Agent<TofuKingdom>>> = (0..players)
            .map(|s| build_agent(if s == 0 { prince } else { "greedy" }, seed, s).unwrap())
            .collect();
        let r = play_game(&g, &mut agents, seed, &mut Vec::new());
        finds += f64::from(r.state.table.finds[0]);
        dealt += f64::from(r.state.table.princess_dealt[0]);
    }
    (finds, dealt)
}

#[test]
fn greedy_prince_finds_the_princess_more_often_than_a_random_prince_p_below_0_001() {
    let (gf, gn) = find_rate("greedy", 5, 150);
    let (rf, rn) = find_rate("random", 5, 150);
    // One-sided two-proportion z-test.
    let (p1, p2) = (gf / gn, rf / rn);
    let p = (gf + rf) / (gn + rn);
    let z = (p1 - p2) / (p * (1.0 - p) * (1.0 / gn + 1.0 / rn)).sqrt();
    assert!(
        z > 3.09,
        "greedy {gf}/{gn} = {p1:.3}, random {rf}/{rn} = {p2:.3}, z = {z:.2}"
    );
}
