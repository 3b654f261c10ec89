//! `shifu mechanics`: the JSON document's shape, the same figures on one thread as on two, and
//! hostile options refused with exit code 2.

use serde_json::Value;
use std::process::{Command, Output};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .env_remove("SHIFU_MAX_GAMES")
        .output()
        .expect("run shifu")
}

fn json(args: &[&str]) -> Value {
    let o = shifu(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn json_shape_and_threads() {
    let base = [
        "mechanics",
        "--game",
        "tofu-kingdom",
        "--players",
        "3",
        "--agent",
        "random",
        "--seeds",
        "6",
        "--quiet",
        "--json",
    ];
    let one = json(&[&base[..], &["--threads", "1"]].concat());
    let two = json(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two, "one thread and two differ");
    assert_eq!(one["game"], "tofu-kingdom");
    assert_eq!(one["players"], 3);
    assert_eq!(one["cooperative"], false);
    // Per seed: one unrestricted game, then one per mechanic and restricted seat.
    assert_eq!(one["games"], 6 * (1 + 3 * 3));
    let rows = one["mechanics"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["mechanic"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ask-where", "ask-own-card", "ask-other-card"]);
    for r in rows {
        let d = r["difference"].as_f64().unwrap();
        let (lo, hi) = (
            r["ci_low"].as_f64().unwrap(),
            r["ci_high"].as_f64().unwrap(),
        );
        assert!(lo <= d && d <= hi, "{r}");
        let paired = r["restricted"].as_f64().unwrap() - r["unrestricted"].as_f64().unwrap();
        assert!((paired - d).abs() < 1e-9, "{r}");
        assert!(r["uses_per_game"].as_f64().unwrap() > 0.0, "{r}");
    }
    // The unrestricted agent in every seat of every seed: the shares sum to one per game.
    assert!((rows[0]["unrestricted"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
}

#[test]
fn cooperative_games_restrict_every_seat() {
    let v = json(&[
        "mechanics",
        "--game",
        "wok-star",
        "--players",
        "2",
        "--agent",
        "random",
        "--mechanics",
        "hustle",
        "--seeds",
        "3",
        "--quiet",
        "--json",
    ]);
    assert_eq!(v["cooperative"], true);
    assert_eq!(v["games"], 3 * 2);
    assert_eq!(v["mechanics"].as_array().unwrap().len(), 1);
}

#[test]
fn hostile_options_exit_2_naming_the_problem() {
    for (args, says) in [
        (
            vec!["--mechanics", "teleport"],
            "copy, town-objective, player-objective",
        ),
        (vec!["--mechanics", "copy,copy"], "twice"),
        (vec!["--seeds", "0"], "--seeds"),
        (vec!["--agent", "greedy:forbid=copy"], "forbid"),
        (vec!["--agent", "mcts:iters=5,forbid=nope"], "forbid"),
        (vec!["--agent", "psychic"], "unknown agent"),
        (vec!["--seeds", "-3"], "--seeds"),
    ] {
        let o = shifu(&[&["mechanics", "--players", "2", "--quiet"][..], &args].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A mechanic the unrestricted agent never used is named under the table: its row measures the
/// perturbation of forbidding unchosen moves, not the mechanic. The note lists exactly the rows
/// whose uses per game are 0, and is absent when every mechanic was used.
#[test]
fn mechanics_never_used_are_named_as_a_perturbation() {
    let o = shifu(&[
        "mechanics",
        "--game",
        "ginza-retro-cafe",
        "--players",
        "3",
        "--agent",
        "greedy",
        "--seeds",
        "10",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let mechanics = ["change", "reroll", "add", "wash"];
    let unused: Vec<&str> = out
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let name = w.next()?;
            (mechanics.contains(&name) && w.next()? == "0.00").then_some(name)
        })
        .collect();
    let note = out
        .lines()
        .find(|l| l.starts_with("never used unrestricted: "));
    match note {
        Some(n) => {
            assert!(!unused.is_empty(), "{out}");
            assert!(
                n.contains(&format!("never used unrestricted: {};", unused.join(", "))),
                "{out}"
            );
        }
        None => assert!(unused.is_empty(), "{out}"),
    }
}
