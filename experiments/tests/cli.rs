//! The `shifu` command end to end: output, determinism across thread counts, and bad input
//! (exit code 2 with a message naming the problem).

use std::process::{Command, Output};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The result lines of `shifu play`, without the timing line.
fn results(o: &Output) -> String {
    stdout(o)
        .lines()
        .filter(|l| !l.contains("games/s"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn play_prints_win_rates_by_seat() {
    let o = shifu(&["play", "--players", "3", "--games", "60", "--seed", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("tofu-shifu with 3 players, 60 games"), "{out}");
    for seat in ["   1  random", "   2  random", "   3  random"] {
        assert!(out.contains(seat), "{out}");
    }
    assert!(
        out.contains("PROPOSAL"),
        "the reconstructed data is named: {out}"
    );
}

#[test]
fn play_results_do_not_depend_on_thread_count() {
    let one = shifu(&[
        "play",
        "--players",
        "2",
        "--games",
        "40",
        "--seed",
        "9",
        "--threads",
        "1",
    ]);
    let two = shifu(&[
        "play",
        "--players",
        "2",
        "--games",
        "40",
        "--seed",
        "9",
        "--threads",
        "2",
    ]);
    assert!(one.status.success() && two.status.success());
    assert_eq!(results(&one), results(&two));
    let other = shifu(&[
        "play",
        "--players",
        "2",
        "--games",
        "40",
        "--seed",
        "10",
        "--threads",
        "1",
    ]);
    assert_ne!(results(&one), results(&other));
}

#[test]
fn play_takes_parameters_from_set_and_config() {
    let dir = std::env::temp_dir().join(format!("shifu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("p.toml");
    std::fs::write(&cfg, "players = 2\nstart_coins = [3, 3]\nmax_rounds = 5\n").unwrap();
    let o = shifu(&[
        "play",
        "--config",
        cfg.to_str().unwrap(),
        "--games",
        "10",
        "--set",
        "objective_limit=one-total",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("with 2 players"));
    assert!(stdout(&o).contains("capped at 5 rounds"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_2_with_a_message_naming_it() {
    let cases: [(&[&str], &str); 7] = [
        (&["play", "--game", "chess"], "chess"),
        (&["play", "--set", "bogus=1"], "bogus"),
        (&["play", "--set", "players=lots"], "players"),
        (&["play", "--agents", "wizard"], "wizard"),
        (&["play", "--players", "9"], "players"),
        (
            &["play", "--data", "/nonexistent/cards.json"],
            "/nonexistent/cards.json",
        ),
        (&["show", "--take", "999"], "999"),
    ];
    for (args, needle) in cases {
        let o = shifu(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn show_lists_legal_actions_and_replays_choices() {
    let o = shifu(&["show", "--players", "2", "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("legal actions"), "{out}");
    assert!(out.contains("move to"), "{out}");
    let o = shifu(&[
        "show",
        "--players",
        "2",
        "--seed",
        "3",
        "--take",
        "0",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"num_players\": 2"));
}

#[test]
fn show_saves_and_loads_a_state() {
    let dir = std::env::temp_dir().join(format!("shifu-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("pos.json");
    let a = shifu(&[
        "show",
        "--players",
        "2",
        "--seed",
        "3",
        "--take",
        "0",
        "--save-state",
        f.to_str().unwrap(),
    ]);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = shifu(&["show", "--players", "2", "--state", f.to_str().unwrap()]);
    assert!(b.status.success(), "{}", stderr(&b));
    let tail = |o: &Output| {
        stdout(o)
            .split("legal actions")
            .nth(1)
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(tail(&a), tail(&b));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_prints_json_with_steps_per_second() {
    let o = shifu(&["bench", "--players", "2", "--games", "4", "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["single_core"]["steps_per_sec"].as_f64().unwrap() > 0.0);
    assert_eq!(v["single_core"]["games"], 4);
    assert!(v["all_cores"]["avg_steps_per_game"].as_f64().unwrap() > 10.0);
}

#[test]
fn duel_rotates_agent_a_through_every_seat() {
    let o = shifu(&[
        "duel",
        "--players",
        "3",
        "--agents",
        "greedy,random",
        "--seeds",
        "2",
        "--markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("2 seeds x 3 seats = 6 games"), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("| greedy | random | 3 | 6 |"),
        "{out}"
    );
    let bad = shifu(&["duel", "--agents", "greedy"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("two specs"), "{}", stderr(&bad));
}

#[test]
fn play_accepts_mcts_specs_with_options() {
    let o = shifu(&[
        "play",
        "--players",
        "2",
        "--games",
        "1",
        "--set",
        "max_rounds=3",
        "--agents",
        "mcts:iters=5,depth=5,rollout=greedy,random",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("mcts:iters=5,depth=5,rollout=greedy"),
        "{}",
        stdout(&o)
    );
    let bad = shifu(&["play", "--agents", "mcts:iters=5,depht=3"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("depht"), "{}", stderr(&bad));
}
