//! `shifu dose` from the command line: the JSON shape of both analyses, independence from the
//! thread count, the CSV, and hostile options refused with exit 2.

use serde_json::Value;
use std::process::{Command, Output};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu")
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--json", "--quiet"]);
    let o = shifu(&a);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// A dose curve over Tofu Kingdom's winning score (random agents: fast, no capped games).
const CURVE: &[&str] = &[
    "dose",
    "--game",
    "tofu-kingdom",
    "--players",
    "4",
    "--agents",
    "random",
    "--vary",
    "winning_score=3..5",
    "--games",
    "120",
];

/// The value of one unit of Ginza's start yen by position, every vector at 3 players.
const COIN: &[&str] = &[
    "dose",
    "--game",
    "ginza-retro-cafe",
    "--players",
    "3",
    "--agents",
    "random",
    "--per-seat",
    "start_yen_by_position=0..1",
    "--games",
    "40",
];

fn with(base: &[&'static str], more: &[&'static str]) -> Vec<&'static str> {
    base.iter().chain(more).copied().collect()
}

#[test]
fn dose_curve_json_shape_and_threads() {
    let one = json(&with(CURVE, &["--threads", "1"]));
    let two = json(&with(CURVE, &["--threads", "2"]));
    assert_eq!(one, two, "1 and 2 threads differ");
    assert_eq!(one["analysis"], "dose");
    assert_eq!(one["key"], "winning_score");
    assert_eq!(one["games_per_setting"], 120);
    let points = one["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    for p in points {
        let shares: f64 = p["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["win_share"].as_f64().unwrap())
            .sum();
        assert!((shares - 1.0).abs() < 1e-9, "{p}");
        assert_eq!(p["in_fit"], true);
        assert!(p["unfairness"].as_f64().unwrap() >= 0.0);
    }
    let slopes = one["seat_slopes"].as_array().unwrap();
    assert_eq!(slopes.len(), 4);
    // Seat shares sum to 1 at every value, so the slopes sum to 0.
    let sum: f64 = slopes.iter().map(|s| s["estimate"].as_f64().unwrap()).sum();
    assert!(sum.abs() < 1e-9, "{sum}");
    for s in slopes {
        assert!(s["ci_low"].as_f64() < s["ci_high"].as_f64());
    }
    // A higher winning score makes longer games.
    assert!(one["rounds_slope"]["ci_low"].as_f64().unwrap() > 0.0);
    // Other seeds, other games.
    assert_ne!(
        json(&with(CURVE, &["--seed", "2"]))["points"],
        one["points"]
    );
}

#[test]
fn dose_coin_value_json_shape_threads_and_csv() {
    let dir = std::env::temp_dir().join(format!("shifu-dose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("coin.csv");
    let csv_s = csv.to_str().unwrap().to_string();
    let csv_arg: &'static str = Box::leak(csv_s.into_boxed_str());
    let one = json(&with(COIN, &["--threads", "1", "--out", csv_arg]));
    let two = json(&with(COIN, &["--threads", "2"]));
    assert_eq!(one, two, "1 and 2 threads differ");
    assert_eq!(one["analysis"], "coin");
    assert_eq!(one["design"], "full-factorial");
    assert_eq!(one["vectors"].as_array().unwrap().len(), 8);
    let fit = &one["fit"];
    assert_eq!(fit["vectors_in_fit"], 8);
    assert_eq!(fit["games_in_fit"], 320);
    assert_eq!(fit["clusters"], 40);
    assert_eq!(fit["seat_effects"].as_array().unwrap().len(), 3);
    let b = &fit["beta"];
    assert!(b["ci_low"].as_f64() < b["estimate"].as_f64());
    assert!(b["estimate"].as_f64() < b["ci_high"].as_f64());
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(text.starts_with("vector,games,win_share_1,"), "{text}");
    // A sample instead of the full factorial, drawn with the seed.
    let some = json(&with(COIN, &["--vectors", "5"]));
    assert_eq!(some["design"], "random-sample");
    assert_eq!(some["vectors"].as_array().unwrap().len(), 5);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dose_text_names_the_slopes_and_the_variance() {
    let o = shifu(&with(CURVE, &["--quiet"]));
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("slopes per unit of winning_score over 3 values"),
        "{text}"
    );
    assert!(text.contains("clustered by game index"), "{text}");
    let o = shifu(&with(COIN, &["--quiet"]));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("beta, the win share one more unit buys a seat"),
        "{text}"
    );
}

#[test]
fn dose_capped_values_leave_the_fit() {
    // Random agents leave many Tofu Shifu games at a 3-round cap: every value is capped.
    let v = json(&[
        "dose",
        "--players",
        "2",
        "--agents",
        "random",
        "--set",
        "max_rounds=3",
        "--vary",
        "town_objective_cost_scale=0.5/1",
        "--games",
        "10",
    ]);
    assert_eq!(v["values_in_fit"], 0);
    assert!(v["seat_slopes"].is_null());
    assert!(v["points"][0]["in_fit"] == false);
}

/// Each bad `dose` command line (its words split at spaces) and what its error must name.
const HOSTILE_DOSE: &[(&str, &str)] = &[
    ("dose --games 5", "--vary"),
    (
        "dose --vary town_objective_cost_scale=1/2 --per-seat start_coins=0..1",
        "cannot be used with",
    ),
    (
        "dose --vary town_objective_cost_scale=1.5..0.5:0.25",
        "LO must be below HI",
    ),
    (
        "dose --vary town_objective_cost_scale=a/b",
        "is not a number",
    ),
    (
        "dose --vary town_objective_cost_scale=1",
        "at least two values",
    ),
    (
        "dose --vary town_objective_cost_scale=0..1:0",
        "STEP must be above 0",
    ),
    ("dose --vary no_such_key=1/2 --games 2", "no_such_key"),
    (
        "dose --vary town_objective_cost_scale=-1/1 --games 2",
        "town_objective_cost_scale",
    ),
    (
        "dose --per-seat town_objective_cost_scale=0..1 --games 2",
        "not a per-seat parameter",
    ),
    ("dose --per-seat start_coins=3..1", "LO must be below HI"),
    ("dose --per-seat start_coins=0.5..2", "not a whole number"),
    ("dose --per-seat start_coins", "expected key=LO..HI"),
    (
        "dose --vary town_objective_cost_scale=1/2 --games 1",
        "--games must be at least 2",
    ),
    (
        "dose --per-seat start_coins=0..1 --vectors 1",
        "--vectors must be at least 2",
    ),
    (
        "dose --vary town_objective_cost_scale=1/2 --rotate --agents greedy,random",
        "--rotate",
    ),
    (
        "dose --vary town_objective_cost_scale=1/2 --agents nobody",
        "nobody",
    ),
];

#[test]
fn dose_hostile_options_exit_2() {
    for (line, want) in HOSTILE_DOSE {
        let args: Vec<&str> = line.split_whitespace().collect();
        let o = shifu(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert!(err.contains(want), "{line}: {err}");
    }
}
