//! Agents: no peeking at hidden information, reproducibility, spec errors, and greedy's edge
//! over random (a statistically safe test).

mod common;

use common::choose;
use shifu_agents::{agent_rng, build_agent, game_seed, play_game, Agent, AgentError};
use shifu_engine::tofu_kingdom::TofuKingdom;
use shifu_engine::tofu_shifu::{Params, State, TofuShifu};
use shifu_engine::Game;

fn game(players: u8) -> TofuShifu {
    TofuShifu::with_params(Params::with_players(players)).unwrap()
}

/// Positions from random games where the seat to move has hidden cards around it and a choice.
fn positions(g: &TofuShifu, count: usize) -> Vec<State> {
    common::positions(g, count, 120, |step, s, legal| {
        let hidden = (0..s.num_players as usize)
            .any(|q| q != s.current as usize && s.players[q].hidden_hand() != 0);
        step % 11 == 5 && legal.len() > 1 && hidden
    })
}

#[test]
fn no_agent_peeks_at_hidden_information() {
    // Same agent RNG state, the true position vs a copy with every hidden card re-dealt: the
    // choice must not change.
    let g = game(3);
    let specs = [
        "random",
        "greedy",
        "mcts:iters=60,depth=15",
        "mcts:iters=30,rollout=greedy,depth=5,reward=win",
    ];
    let ps = positions(&g, 12);
    let differing_worlds = common::assert_no_peeking(&g, &specs, &ps, 77);
    assert!(
        differing_worlds > 20,
        "the test must compare genuinely different worlds"
    );
}

#[test]
fn agents_are_reproducible_from_the_seed() {
    let g = game(2);
    // A whole greedy game, twice.
    let run = || {
        let specs = ["greedy", "random"];
        let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = (0..2)
            .map(|s| build_agent::<TofuShifu>(specs[s], 5, s as u8).unwrap())
            .collect();
        let mut buf = Vec::new();
        let r = play_game(&g, &mut agents, 5, &mut buf);
        (r.steps, r.state)
    };
    assert_eq!(run(), run());
    // MCTS decisions, twice (a whole MCTS game is slow for a test).
    for (i, p) in positions(&g, 3).iter().enumerate() {
        let spec = "mcts:iters=40,depth=10";
        let mut a = build_agent::<TofuShifu>(spec, i as u64, p.current).unwrap();
        let mut b = build_agent::<TofuShifu>(spec, i as u64, p.current).unwrap();
        assert_eq!(choose(&g, a.as_mut(), p), choose(&g, b.as_mut(), p));
    }
}

#[test]
fn a_huge_iteration_budget_under_a_time_limit_neither_aborts_nor_runs_on() {
    // Billions of iterations from the command line must not reserve the whole tree up front.
    let g = game(2);
    let p = &positions(&g, 1)[0];
    let mut a = build_agent::<TofuShifu>("mcts:iters=4294967295,time_ms=20", 1, p.current).unwrap();
    let mut legal = Vec::new();
    g.legal_actions(p, &mut legal);
    assert!(legal.contains(&choose(&g, a.as_mut(), p)));
}

/// `root=paired` under `time_ms` (issue 50 §3: MCTS's time per move matched by the trained
/// agent's): with a budget of a million rollouts and 20 ms, or the 20 ms alone, the search stops
/// at its time, long before its rollout budget, and still plays a legal move.
#[test]
fn a_paired_search_under_a_time_limit_stops_at_its_time() {
    use shifu_agents::{MctsAgent, MctsConfig, Root};
    let g = game(2);
    let p = &positions(&g, 1)[0];
    let mut legal = Vec::new();
    g.legal_actions(p, &mut legal);
    assert!(build_agent::<TofuShifu>("mcts:root=paired,iters=0,time_ms=20", 1, p.current).is_ok());
    for iters in [1_000_000, 0] {
        let config = MctsConfig {
            iters,
            time_ms: Some(20),
            root: Root::Paired,
            depth: 10,
            ..MctsConfig::default()
        };
        let rng = agent_rng(1, p.current);
        let mut a = MctsAgent::<TofuShifu>::new(config, Default::default(), rng, "paired".into());
        assert!(legal.contains(&choose(&g, &mut a, p)));
        assert!(
            // A tenth of the budget: at 20 ms that would be 200 ns a rollout of 10 choices.
            a.last_iters >= 2 && a.last_iters < 100_000,
            "iters={iters}: {} rollouts",
            a.last_iters
        );
    }
}

/// The stop check (issue 46 §2 item 14, Ctrl-C in Python): a search of a billion iterations
/// ends at the first poll that says stop, and a check that never says stop changes nothing.
#[test]
fn mcts_stops_when_its_check_says_so_and_not_otherwise() {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    let g = game(2);
    for spec in ["mcts:iters=1000000000", "mcts:iters=1000000,root=paired"] {
        for p in positions(&g, 2) {
            let polls = Arc::new(AtomicU32::new(0));
            let seen = polls.clone();
            let mut a = build_agent::<TofuShifu>(spec, 3, p.current).unwrap();
            a.set_stop(Box::new(move || seen.fetch_add(1, Ordering::Relaxed) >= 3));
            let started = std::time::Instant::now();
            let mut legal = Vec::new();
            g.legal_actions(&p, &mut legal);
            assert!(legal.contains(&choose(&g, a.as_mut(), &p)));
            assert_eq!(polls.load(Ordering::Relaxed), 4, "{spec}");
            assert!(
                started.elapsed().as_secs() < 30,
                "{spec}: {:?}",
                started.elapsed()
            );
        }
    }
    for (i, p) in positions(&g, 3).iter().enumerate() {
        for spec in [
            "mcts:iters=200,depth=10",
            "mcts:iters=200,depth=10,root=paired",
        ] {
            let mut a = build_agent::<TofuShifu>(spec, i as u64, p.current).unwrap();
            let mut b = build_agent::<TofuShifu>(spec, i as u64, p.current).unwrap();
            b.set_stop(Box::new(|| false));
            assert_eq!(
                choose(&g, a.as_mut(), p),
                choose(&g, b.as_mut(), p),
                "{spec}"
            );
        }
    }
}

#[test]
fn agent_streams_are_separate_from_the_game_stream() {
    use rand::RngCore;
    let mut game_stream = shifu_agents::game_rng(9);
    let mut seat0 = agent_rng(9, 0);
    let mut seat1 = agent_rng(9, 1);
    let (a, b, c) = (game_stream.next_u64(), seat0.next_u64(), seat1.next_u64());
    assert!(a != b && b != c && a != c);
}

#[test]
fn greedy_beats_random_at_p_below_0_001() {
    // 400 two-player games, seats alternated on the same seeds. Under the null hypothesis
    // (greedy no better than random) its win share is at most 1/2; one-sided binomial test.
    let g = game(2);
    let mut wins = 0.0;
    let mut buf = Vec::new();
    for i in 0..200u64 {
        let seed = game_seed(2026, i);
        for greedy_seat in 0..2u8 {
            let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = (0..2u8)
                .map(|s| {
                    let spec = if s == greedy_seat { "greedy" } else { "random" };
                    build_agent::<TofuShifu>(spec, seed, s).unwrap()
                })
                .collect();
            let r = play_game(&g, &mut agents, seed, &mut buf);
            wins += r.outcome.win_share(greedy_seat);
        }
    }
    let n = 400u64;
    let k = wins.floor() as u64;
    // P(X >= k) for X ~ Binomial(400, 1/2), each term computed in log space.
    let ln_choose = |n: u64, k: u64| -> f64 {
        (1..=k)
            .map(|i| ((n - k + i) as f64).ln() - (i as f64).ln())
            .sum()
    };
    let p: f64 = (k..=n)
        .map(|j| (ln_choose(n, j) - n as f64 * 2f64.ln()).exp())
        .sum();
    assert!(p < 0.001, "greedy won {wins} of {n} (p = {p})");
}

#[test]
fn malformed_specs_name_the_problem() {
    let err = |spec: &str| build_agent::<TofuShifu>(spec, 1, 0).err().unwrap();
    assert_eq!(err("wizard"), AgentError::UnknownAgent("wizard".into()));
    assert!(matches!(err("greedy:depth=3"), AgentError::UnknownKey { key, .. } if key == "depth"));
    assert!(err("mcts:iters=lots").to_string().contains("iters"));
    assert!(err("mcts:rollout=smart").to_string().contains("rollout"));
    assert!(err("mcts:iters=0").to_string().contains("budget"));
    assert!(err("mcts:root=forest").to_string().contains("root"));
    // The paired root takes iters or time_ms, never calls and never neither.
    assert!(err("mcts:root=paired,iters=0")
        .to_string()
        .contains("time_ms"));
    assert!(err("mcts:root=paired,calls=50")
        .to_string()
        .contains("calls"));
    // Its rewards are kept per world: a budget of billions would grow without bound.
    assert!(err("mcts:root=paired,iters=4000000000")
        .to_string()
        .contains("1000000"));
    assert!(err("greedy:weights=/nonexistent/w.toml")
        .to_string()
        .contains("/nonexistent/w.toml"));
    assert!(err("random:x=1").to_string().contains("`x`"));
}

#[test]
fn greedy_weights_load_from_a_file_and_unknown_keys_are_errors() {
    let dir = std::env::temp_dir().join(format!("shifu-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("w.toml");
    std::fs::write(&good, "coins = 0.2\nobjectives = 2.0\n").unwrap();
    assert!(build_agent::<TofuShifu>(&format!("greedy:weights={}", good.display()), 1, 0).is_ok());
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "coinz = 0.2\n").unwrap();
    let e = build_agent::<TofuShifu>(&format!("greedy:weights={}", bad.display()), 1, 0)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("coinz"), "{e}");
    let nan = dir.join("nan.toml");
    std::fs::write(&nan, "objectives = nan\n").unwrap();
    let e = build_agent::<TofuShifu>(&format!("greedy:weights={}", nan.display()), 1, 0)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("nan.toml") && e.contains("objectives"), "{e}");
    // Tofu Kingdom: a probability outside [0, 1] and an unknown answer model name their line.
    for (name, text, says) in [
        (
            "steer.toml",
            "find_bonus = 5.0\nsteer = 1.5\n",
            "probability",
        ),
        ("slack.toml", "slack = -0.1\n", "probability"),
        ("answerers.toml", "answerers = \"psychic\"\n", "psychic"),
    ] {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let e = build_agent::<TofuKingdom>(&format!("greedy:weights={}", f.display()), 1, 0)
            .err()
            .unwrap()
            .to_string();
        let field = text.lines().last().unwrap().split(' ').next().unwrap();
        assert!(
            e.contains(name) && e.contains(says) && e.contains(field),
            "{e}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
