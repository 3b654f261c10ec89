//! Wok Star agents: no peeking at the hidden deck order and advertised coupons, reproducible
//! paired-worlds MCTS, and whole team games through the generic runner.

#[allow(dead_code)]
mod common;

use rand::Rng;
use shifu_agents::{build_agent, play_game, Agent, Decision};
use shifu_engine::wok_star::{Params, State, WokStar};
use shifu_engine::{rng_from_seed, Game};

fn game(players: u8, events: bool) -> WokStar {
    let mut p = Params::with_players(players);
    p.difficulty = "mild".into();
    p.events = events;
    WokStar::with_params(p).unwrap()
}

/// Positions from team games (every 5th decision with a choice): greedy, with one choice in four
/// random so that coupons get advertised, and later days and Next Day Prep are reached.
fn positions(g: &WokStar, count: usize) -> Vec<State> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        seed += 1;
        let mut rng = rng_from_seed(seed);
        let mut pick = rng_from_seed(seed + 500);
        let mut greedy = build_agent::<WokStar>("greedy", seed, 0).unwrap();
        let mut s = g.new_state(&mut rng);
        let mut k = 0;
        while let Some(seat) = g.to_move(&s) {
            g.legal_actions(&s, &mut legal);
            if legal.len() > 1 {
                k += 1;
                if k % 5 == 0 {
                    out.push(s.clone());
                }
            }
            let a = if pick.gen_range(0..4) == 0 {
                legal[pick.gen_range(0..legal.len())]
            } else {
                greedy.choose(&Decision::new(g, &s, seat, &legal))
            };
            g.apply(&mut s, a, &mut rng);
        }
    }
    out.truncate(count);
    out
}

#[test]
fn no_agent_peeks_at_hidden_information_in_wok_star() {
    // Same agent RNG state, the true position vs a copy with the Regular deck's order and the
    // advertised coupons re-drawn: the choice must not change.
    // Events on: the event deck's order is hidden too.
    let g = game(2, true);
    let specs = [
        "random",
        "greedy",
        "mcts:iters=30,rollout=greedy,depth=20",
        "mcts:iters=12,rollout=greedy,root=paired",
    ];
    let ps = positions(&g, 24);
    let differing_worlds = common::assert_no_peeking(&g, &specs, &ps, 91);
    assert!(
        differing_worlds > 40,
        "the test must compare genuinely different worlds ({differing_worlds})"
    );
}

#[test]
fn paired_mcts_plays_whole_reproducible_team_games() {
    let g = game(2, false);
    let run = |seed: u64| {
        let mut agents: Vec<Box<dyn Agent<WokStar>>> = (0..2)
            .map(|s| build_agent::<WokStar>("mcts:iters=8,rollout=greedy,root=paired", seed, s))
            .collect::<Result<_, _>>()
            .unwrap();
        let mut buf = Vec::new();
        let r = play_game(&g, &mut agents, seed, &mut buf);
        (r.steps, r.state)
    };
    for seed in 1..3 {
        let (steps, state) = run(seed);
        assert!(g.outcome(&state).is_some(), "the game ends by the rules");
        assert_eq!((steps, state), run(seed), "seed {seed}");
    }
}

#[test]
fn paired_root_works_for_competitive_games_too() {
    // The paired search scores the deciding seat's own reward, so it is not only for teams.
    use shifu_engine::tofu_shifu::TofuShifu;
    let g = TofuShifu::with_params(shifu_engine::tofu_shifu::Params::with_players(2)).unwrap();
    let mut legal = Vec::new();
    let mut rng = rng_from_seed(3);
    let s = g.new_state(&mut rng);
    g.legal_actions(&s, &mut legal);
    let seat = g.to_move(&s).unwrap();
    let mut a = build_agent::<TofuShifu>("mcts:iters=20,depth=10,root=paired", 1, seat).unwrap();
    let choice = a.choose(&Decision::new(&g, &s, seat, &legal));
    assert!(legal.contains(&choice));
}
