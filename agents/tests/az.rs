//! The `az:` agent: it sees only what its seat sees, is reproducible, plays whole games, and
//! refuses a network made for another game.

mod common;

use common::choose;
use shifu_agents::{build_agent, check_agent, play_game, Agent};
use shifu_engine::ginza_retro_cafe::{self as gz, GinzaRetroCafe};
use shifu_engine::tofu_shifu::{Params, State, TofuShifu};
use shifu_engine::{Encoding, Game};
use shifu_net::{NetConfig, Weights};
use std::path::PathBuf;

fn game(players: u8) -> TofuShifu {
    TofuShifu::with_params(Params::with_players(players)).unwrap()
}

/// An untrained network for `g`, written to a file of this test process.
fn model<G: Encoding>(g: &G, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shifu-az-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{tag}.safetensors"));
    Weights::init(NetConfig::for_game(g, 32, 1), 3)
        .save(&f)
        .unwrap();
    f
}

fn positions(g: &TofuShifu, count: usize) -> Vec<State> {
    common::positions(g, count, 120, |step, s, legal| {
        let hidden = (0..s.num_players as usize)
            .any(|q| q != s.current as usize && s.players[q].hidden_hand() != 0);
        step % 11 == 5 && legal.len() > 1 && hidden
    })
}

#[test]
fn az_does_not_peek_at_hidden_information() {
    let g = game(3);
    let f = model(&g, "peek");
    let specs = [
        format!("az:model={},iters=0", f.display()),
        format!("az:model={},iters=40", f.display()),
        format!(
            "az:model={},iters=40,eval=0.5,rollout=0.5,depth=10",
            f.display()
        ),
    ];
    let specs: Vec<&str> = specs.iter().map(String::as_str).collect();
    let ps = positions(&g, 12);
    assert!(common::assert_no_peeking(&g, &specs, &ps, 77) > 20);
}

#[test]
fn az_is_reproducible_and_plays_whole_games() {
    let g = game(2);
    let f = model(&g, "repro");
    let spec = format!("az:model={},iters=30", f.display());
    for (i, p) in positions(&g, 3).iter().enumerate() {
        let mut a = build_agent::<TofuShifu>(&spec, i as u64, p.current).unwrap();
        let mut b = build_agent::<TofuShifu>(&spec, i as u64, p.current).unwrap();
        assert_eq!(choose(&g, a.as_mut(), p), choose(&g, b.as_mut(), p));
    }
    let policy = format!("az:model={},iters=0", f.display());
    let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = vec![
        build_agent(&policy, 1, 0).unwrap(),
        build_agent("random", 1, 1).unwrap(),
    ];
    let r = play_game(&g, &mut agents, 1, &mut Vec::new());
    assert!(g.outcome(&r.state).is_some());
    // Ginza splits decisions into steps (`mid_decision`): the search needs no special case.
    let gz = GinzaRetroCafe::with_params(gz::Params::with_players(2)).unwrap();
    let f = model(&gz, "ginza");
    let spec = format!("az:model={},iters=8", f.display());
    let mut agents: Vec<Box<dyn Agent<GinzaRetroCafe>>> = vec![
        build_agent(&spec, 2, 0).unwrap(),
        build_agent(&spec, 2, 1).unwrap(),
    ];
    let r = play_game(&gz, &mut agents, 2, &mut Vec::new());
    assert!(gz.outcome(&r.state).is_some());
}

#[test]
fn a_network_for_another_game_or_player_count_is_refused_naming_the_file() {
    let f = model(&game(2), "other");
    let spec = format!("az:model={},iters=0", f.display());
    assert!(check_agent(&game(2), &spec).is_ok());
    let e = check_agent(&game(3), &spec).unwrap_err().to_string();
    assert!(
        e.contains(&f.display().to_string()) && e.contains("3 players"),
        "{e}"
    );
    let gz = GinzaRetroCafe::with_params(gz::Params::with_players(2)).unwrap();
    let e = check_agent(&gz, &spec).unwrap_err().to_string();
    assert!(e.contains("tofu-shifu"), "{e}");
    for (bad, says) in [
        ("az:iters=3", "model=FILE"),
        (
            "az:model=/nonexistent.safetensors",
            "/nonexistent.safetensors",
        ),
        ("az:model=x,iters=0,time_ms=5", "time_ms"),
        ("az:model=x,c_puct=-1", "c_puct"),
        ("az:model=x,depth=3", "depth"),
        ("az:model=x,rollout=1.5", "rollout"),
        ("az:model=x,rollout=-0.1", "rollout"),
        ("az:model=x,rollout=NaN", "rollout"),
    ] {
        let e = check_agent(&game(2), bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// With explanations on, the policy alone gives each legal action's probability (summing to 1)
/// and the search each one's share of the root visits; the best candidate is the action chosen,
/// and asking for the reasons changes no choice.
#[test]
fn az_explains_its_choice_by_policy_or_visit_share_without_changing_it() {
    let g = game(2);
    let f = model(&g, "explain");
    for (spec, kind) in [
        (format!("az:model={},iters=0", f.display()), "policy"),
        (format!("az:model={},iters=30", f.display()), "visits"),
    ] {
        for (i, p) in positions(&g, 3).iter().enumerate() {
            let mut plain = build_agent::<TofuShifu>(&spec, i as u64, p.current).unwrap();
            let mut told = build_agent::<TofuShifu>(&spec, i as u64, p.current).unwrap();
            told.set_explain(true);
            let a = choose(&g, told.as_mut(), p);
            assert_eq!(a, choose(&g, plain.as_mut(), p), "{spec}");
            assert!(plain.explain().candidates.is_empty());
            let why = told.explain();
            assert_eq!(why.kind, kind);
            let mut legal = Vec::new();
            g.legal_actions(p, &mut legal);
            assert_eq!(why.candidates.len(), legal.len(), "{spec}");
            let sum: f64 = why.candidates.iter().map(|c| c.1).sum();
            assert!((sum - 1.0).abs() < 1e-4, "{spec}: shares sum to {sum}");
            let best = why.candidates[0].1;
            let chosen = why.candidates.iter().find(|c| c.0 == a).unwrap().1;
            assert_eq!(
                chosen, best,
                "{spec}: the chosen action is not a best candidate"
            );
        }
    }
}

/// `rollout=1` scores each leaf by a random rollout alone: a network whose value head says the
/// opposite chooses the same moves, while with `rollout=0` the value head is what the search
/// backs up, so flipping it changes some choice. Both play whole games.
#[test]
fn az_rollout_weight_one_ignores_the_value_head() {
    let g = game(2);
    // An untrained value head answers about 0: make it loud, one way and the other.
    let (f, flipped) = loud_pair(&g, "value");
    let (one, zero) = (
        "az:model={},iters=60,rollout=1",
        "az:model={},iters=60,rollout=0",
    );
    assert_eq!(choices_of(&g, &f, one), choices_of(&g, &flipped, one));
    assert_ne!(choices_of(&g, &f, zero), choices_of(&g, &flipped, zero));
    let spec = format!("az:model={},iters=20,rollout=0.5", f.display());
    let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = vec![
        build_agent(&spec, 3, 0).unwrap(),
        build_agent(&spec, 3, 1).unwrap(),
    ];
    let r = play_game(&g, &mut agents, 3, &mut Vec::new());
    assert!(g.outcome(&r.state).is_some());
}

/// Two networks, the same but for their value heads: loud (50 times the untrained one) and
/// loud the other way round.
fn loud_pair(g: &TofuShifu, tag: &str) -> (PathBuf, PathBuf) {
    (
        loud_value(g, &format!("{tag}-loud"), 50.0),
        loud_value(g, &format!("{tag}-flipped"), -50.0),
    )
}

/// A network whose value head is loud (`by` times the untrained one), saved under `tag`.
fn loud_value(g: &TofuShifu, tag: &str, by: f32) -> PathBuf {
    let f = model(g, tag);
    let mut w = Weights::load(&f).unwrap();
    for (i, (name, _)) in w.config.tensors().iter().enumerate() {
        if name.starts_with("value.") {
            w.params[i].iter_mut().for_each(|x| *x *= by);
        }
    }
    w.save(&f).unwrap();
    f
}

/// The choices of `spec` (with `{}` for the model file) at a few fixed positions.
fn choices_of(
    g: &TofuShifu,
    file: &std::path::Path,
    spec: &str,
) -> Vec<shifu_engine::tofu_shifu::Action> {
    let spec = spec.replace("{}", &file.display().to_string());
    positions(g, 8)
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut a = build_agent::<TofuShifu>(&spec, i as u64, p.current).unwrap();
            choose(g, a.as_mut(), p)
        })
        .collect()
}

/// `eval=1` scores each leaf by the hand-written evaluation alone: a value head saying the
/// opposite changes no choice, and the choices differ from the value head's own (`eval=0`).
#[test]
fn az_eval_weight_one_ignores_the_value_head() {
    let g = game(2);
    let (f, flipped) = loud_pair(&g, "eval");
    let spec = "az:model={},iters=60,eval=1";
    assert_eq!(choices_of(&g, &f, spec), choices_of(&g, &flipped, spec));
    assert_ne!(
        choices_of(&g, &f, spec),
        choices_of(&g, &f, "az:model={},iters=60")
    );
}

/// A rollout option (`spec`, with `rollout=1` so the network gives only the priors) ignores the
/// value head, changes the choices against `without` it, and `mixed` (a search with it beside
/// the value head) plays a whole game.
fn check_rollout_option(name: &str, spec: &str, without: &str, mixed: &str) {
    let g = game(2);
    let (f, flipped) = loud_pair(&g, name);
    assert_eq!(choices_of(&g, &f, spec), choices_of(&g, &flipped, spec));
    assert_ne!(choices_of(&g, &f, spec), choices_of(&g, &f, without));
    let mixed = mixed.replace("{}", &f.display().to_string());
    let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = vec![
        build_agent(&mixed, 4, 0).unwrap(),
        build_agent(&mixed, 4, 1).unwrap(),
    ];
    let r = play_game(&g, &mut agents, 4, &mut Vec::new());
    assert!(g.outcome(&r.state).is_some());
}

/// `depth=D` cuts each rollout after D actions and scores it by the evaluation: with
/// `rollout=1` the value head still changes nothing, a cut changes the choices against rollouts
/// to the end, and such a search plays whole games.
#[test]
fn az_cut_rollouts_are_scored_by_the_evaluation() {
    check_rollout_option(
        "cut",
        "az:model={},iters=60,rollout=1,depth=4",
        "az:model={},iters=60,rollout=1",
        "az:model={},iters=20,rollout=0.5,depth=30,eval=0.25",
    );
}

/// `rollout_by=greedy`: rollouts play MCTS's greedy policy. With `rollout=1` the value head
/// still changes nothing, the greedy rollouts change the choices against random ones, and such
/// a search plays whole games.
#[test]
fn az_greedy_rollouts_replace_random_ones() {
    check_rollout_option(
        "greedy-rollouts",
        "az:model={},iters=30,rollout=1,rollout_by=greedy,depth=20",
        "az:model={},iters=30,rollout=1,depth=20",
        "az:model={},iters=10,rollout=0.5,rollout_by=greedy,depth=30",
    );
}

/// The leaf's weights must be weights (`rollout + eval` at most 1), the scale positive, a
/// weights file that cannot be read is refused naming it, and options that would change nothing
/// (a cut without rollouts, weights or a scale without an evaluation to shape) are refused.
#[test]
fn az_leaf_options_out_of_range_are_refused() {
    let g = game(2);
    let f = model(&g, "leaf-options");
    for (opts, says) in [
        ("eval=1.5", "eval must be a weight"),
        ("eval=0.6,rollout=0.6", "rollout + eval at most 1"),
        ("eval=1,scale=0", "scale must be"),
        ("eval=1,scale=NaN", "scale must be"),
        (
            "eval=0.5,weights=/nonexistent/w.toml",
            "/nonexistent/w.toml",
        ),
        ("depth=10", "give rollout=W above 0"),
        ("weights=/nonexistent/w.toml", "give eval=W above 0"),
        ("rollout=1,scale=2", "give eval=W above 0"),
        ("rollout_by=greedy", "give rollout=W above 0"),
        ("rollout=1,rollout_by=best", "give greedy or random"),
        (
            "rollout=1,rollout_by=greedy,weights=/nonexistent/w.toml",
            "/nonexistent/w.toml",
        ),
    ] {
        let spec = format!("az:model={},{opts}", f.display());
        let e = match build_agent::<TofuShifu>(&spec, 0, 0) {
            Ok(_) => panic!("{spec} was accepted"),
            Err(e) => e.to_string(),
        };
        assert!(e.contains(says), "{spec}: {e}");
    }
}
