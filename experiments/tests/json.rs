//! `--json`: every subcommand that prints a result prints the same result as JSON, which parses
//! and carries the figures of the text (each test runs the command both ways on a tiny run and
//! finds a JSON figure, formatted as the text formats it, in the text).

use serde_json::Value;
use std::process::Command;

/// Runs `shifu` with `args` and returns its standard output, failing on a non-zero exit.
fn run(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu");
    assert!(
        o.status.success(),
        "shifu {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// The text output and the parsed JSON output of the same command line.
fn both(args: &[&str]) -> (String, Value) {
    let text = run(args);
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let out = run(&with_json);
    let json = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (text, json)
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-json-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const PLAY: [&str; 10] = [
    "--players",
    "3",
    "--agents",
    "greedy,random,random",
    "--games",
    "40",
    "--seed",
    "3",
    "--quiet",
    "--threads=1",
];

#[test]
fn play_json_holds_the_seat_table_of_the_text() {
    let mut args = vec!["play"];
    args.extend(PLAY);
    let (text, j) = both(&args);
    assert_eq!(j["games"], 40);
    assert_eq!(j["players"], 3);
    let seats = j["stats"]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    for s in seats {
        let line = format!(
            "{:>4}  {:<16} {:>9.4}   [{:.4}, {:.4}]",
            s["seat"].as_u64().unwrap(),
            s["agent"].as_str().unwrap(),
            num(&s["win_share"]),
            num(&s["ci_low"]),
            num(&s["ci_high"])
        );
        assert!(text.contains(&line), "{line}\n{text}");
    }
    let chi = format!("chi-square {:.2} on", num(&j["stats"]["chi_square"]));
    assert!(text.contains(&chi), "{chi}\n{text}");
    let b = &j["stats"]["balance_interval"];
    let line = format!(
        "balance corrected for 40 games {:.4} [95% CI {:.4}, {:.4}]",
        num(&b["corrected"]),
        num(&b["ci_low"]),
        num(&b["ci_high"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    assert!(num(&b["ci_low"]) <= num(&b["corrected"]) && num(&b["corrected"]) <= 1.0);
    assert!(j["analysis"].is_null());
    assert!(num(&j["timing"]["seconds"]) >= 0.0);
}

#[test]
fn seats_json_holds_the_contrasts_and_the_verdict() {
    let mut args = vec!["seats"];
    args.extend(PLAY);
    args.extend(["--margin", "0.05"]);
    let (text, j) = both(&args);
    let c = &j["analysis"]["contrasts"];
    assert_eq!(c["pairs"].as_array().unwrap().len(), 3);
    let ordering = c["ordering"].as_str().unwrap();
    assert!(text.contains(ordering), "{ordering}\n{text}");
    let e = &j["stats"]["equivalence"];
    assert_eq!(num(&e["margin"]), 0.05);
    let verdict = e["verdict"].as_str().unwrap();
    assert!(
        text.contains(&format!("verdict: {}", verdict.replace('_', " "))),
        "{verdict}\n{text}"
    );
    let worst = e["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == e["worst"])
        .unwrap();
    let line = format!(
        "{} {:.3} [{:.3}, {:.3}]",
        e["worst"].as_str().unwrap(),
        num(&worst["mean"]),
        num(&worst["ci_low"]),
        num(&worst["ci_high"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    let p = &c["pairs"][0];
    let line = format!(
        "  seat {} - seat {}: {:+.4}",
        p["seat_a"],
        p["seat_b"],
        num(&p["diff"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
}

#[test]
fn sweep_json_holds_every_cell() {
    let (text, j) = both(&[
        "sweep",
        "--players",
        "2",
        "--agents",
        "greedy",
        "--games",
        "20",
        "--vary",
        "start_coins=1,1/2,2",
        "--quiet",
    ]);
    let cells = j["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2);
    for c in cells {
        let s = &c["stats"]["seats"][0];
        let row = format!(
            "| {} | {:.4} [{:.4}, {:.4}] |",
            c["cell"].as_str().unwrap(),
            num(&s["win_share"]),
            num(&s["ci_low"]),
            num(&s["ci_high"])
        );
        assert!(text.contains(&row), "{row}\n{text}");
    }
    let best = &j["best"];
    let line = format!(
        "fairest cell by unfairness: {} ({:.4}); it is the fairest in {:.0}% of",
        best["cell"].as_str().unwrap(),
        num(&best["unfairness"]),
        100.0 * num(&best["p_best"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    assert!(text.contains(best["retest"].as_str().unwrap()), "{text}");
    let d = &cells[1]["to_baseline"]["shares"][0];
    let row = format!(
        "| {} | {:+.4} [{:+.4}, {:+.4}] |",
        cells[1]["cell"].as_str().unwrap(),
        num(&d["estimate"]),
        num(&d["ci_low"]),
        num(&d["ci_high"])
    );
    assert!(text.contains(&row), "{row}\n{text}");
    assert!(cells[0]["to_baseline"].is_null());
}

#[test]
fn calibrate_json_holds_every_cell_and_the_choice() {
    let (text, j) = both(&[
        "calibrate",
        "--players",
        "2",
        "--agents",
        "greedy",
        "--games",
        "8",
        "--vary",
        "upgrade_coin_scale=0.5,1",
        "--quiet",
    ]);
    let cells = j["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2);
    let rounds = &cells[1]["figures"]["rounds"];
    let row = format!(
        "| {} | {:.1} [",
        cells[1]["cell"].as_str().unwrap(),
        num(&rounds[0])
    );
    assert!(text.contains(&row), "{row}\n{text}");
    let meeting = format!("{} of 2 cells meet every target.", j["meeting"]);
    assert!(text.contains(&meeting), "{meeting}\n{text}");
}

#[test]
fn tournament_json_holds_the_ratings() {
    let (text, j) = both(&[
        "tournament",
        "--players",
        "2",
        "--agents",
        "random,greedy",
        "--seeds",
        "6",
    ]);
    assert_eq!(j["mode"], "ratings");
    assert_eq!(j["games"], 12);
    for r in j["ratings"].as_array().unwrap() {
        let row = format!(
            "| {} | {:+.0} | [{:+.0}, {:+.0}] | {:.3} |",
            r["agent"].as_str().unwrap(),
            num(&r["elo"]),
            num(&r["ci_low"]),
            num(&r["ci_high"]),
            num(&r["win_share"])
        );
        assert!(text.contains(&row), "{row}\n{text}");
        // Each agent's thinking time: every move it chose, and a time per move.
        let t = &r["thinking"];
        assert!(t["moves"].as_u64().unwrap() > 0, "{t}");
        assert!(
            num(&t["ms_per_move"]) >= 0.0 && num(&t["seconds"]) >= 0.0,
            "{t}"
        );
    }
    assert!(text.contains("| ms per move |"), "{text}");
}

#[test]
fn tournament_sprt_json_holds_the_decision() {
    let (text, j) = both(&[
        "tournament",
        "--players",
        "2",
        "--agents",
        "greedy,random",
        "--sprt",
        "--elo1",
        "200",
        "--seeds",
        "30",
    ]);
    assert_eq!(j["mode"], "sprt");
    let line = format!(
        "after {} games (A scored {:.1}); log-likelihood ratio {:.3}",
        j["games"],
        num(&j["a_score"]),
        num(&j["llr"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    let moves = |k: &str| j[k]["moves"].as_u64().unwrap();
    assert!(moves("a_thinking") > 0 && moves("b_thinking") > 0, "{j}");
    let line = format!("ms per move ({} moves)", moves("a_thinking"));
    assert!(
        text.contains("thinking time: A ") && text.contains(&line),
        "{line}\n{text}"
    );
}

/// Wok Star is cooperative: a duel plays each seed once per team and compares the teams on
/// the shared seeds (the same agent on both sides plays the same games, so they never differ).
#[test]
fn a_cooperative_duel_pairs_the_teams_on_each_seed() {
    let args = |agents| {
        [
            "duel",
            "--game",
            "wok-star",
            "--players",
            "2",
            "--set",
            "difficulty=mild",
            "--agents",
            agents,
            "--seeds",
            "30",
            "--threads",
            "2",
        ]
    };
    let (text, j) = both(&args("greedy,random"));
    assert_eq!(j["games"], 60);
    let t = &j["teams"];
    let (a, b) = (num(&j["a_win_share"]), num(&t["b_win_rate"]));
    assert!((num(&t["difference"]) - (a - b)).abs() < 1e-12, "{j}");
    let net = t["only_a"].as_u64().unwrap() as f64 - t["only_b"].as_u64().unwrap() as f64;
    assert!((net / 30.0 - (a - b)).abs() < 1e-12, "{j}");
    assert_eq!(num(&j["equal_share"]), b);
    let line = format!(
        "team win rate: A {a:.4} [{:.4}, {:.4}], B {b:.4}",
        num(&j["ci_low"]),
        num(&j["ci_high"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    let (_, same) = both(&args("greedy,greedy"));
    let t = &same["teams"];
    assert_eq!(
        (num(&t["difference"]), &t["only_a"], &t["only_b"]),
        (0.0, &0.into(), &0.into()),
        "{same}"
    );
}

#[test]
fn duel_json_holds_a_win_share() {
    let (text, j) = both(&[
        "duel",
        "--players",
        "2",
        "--agents",
        "greedy,random",
        "--seeds",
        "10",
    ]);
    assert_eq!(j["games"], 20);
    let line = format!(
        "A win share {:.4}  95% CI [{:.4}, {:.4}]",
        num(&j["a_win_share"]),
        num(&j["ci_low"]),
        num(&j["ci_high"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    // A's rating against B, read from the same share (greedy wins most games against random).
    let e = &j["a_elo"];
    let share = num(&j["a_win_share"]);
    if share < 1.0 {
        let elo = 400.0 * (share / (1.0 - share)).log10();
        assert!((num(&e["elo"]) - elo).abs() < 1e-6, "{j}");
    }
    assert!(num(&e["low"]) > 0.0, "{j}");
    assert!(text.contains("A's rating against B: "), "{text}");
    // A's rank score with its interval over the seeds, around the score.
    let (r, ci) = (num(&j["a_rank_score"]), &j["a_rank_ci"]);
    assert!(num(&ci[0]) <= r && r <= num(&ci[1]), "{j}");
    let line = format!(
        "A rank score {r:.3} [{:.3}, {:.3}] over the seeds",
        num(&ci[0]),
        num(&ci[1])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    // A's and B's thinking time: A chose in every game, B in every game's other seat.
    let (a, b) = (&j["a_thinking"], &j["b_thinking"]);
    assert!(
        a["moves"].as_u64().unwrap() > 0 && b["moves"].as_u64().unwrap() > 0,
        "{j}"
    );
    assert!(
        num(&a["ms_per_move"]) >= 0.0 && num(&b["ms_per_move"]) >= 0.0,
        "{j}"
    );
    assert!(text.contains(&format!("({} moves)", a["moves"])), "{text}");
}

#[test]
fn train_json_holds_the_weights_and_the_curve() {
    let d = tmpdir("train");
    let run_in = |out: &std::path::Path, json: bool| {
        let out = out.to_str().unwrap().to_string();
        let mut args = vec![
            "train",
            "--players",
            "2",
            "--agent",
            "greedy",
            "--tune",
            "objectives",
            "--generations",
            "1",
            "--population",
            "2",
            "--games",
            "4",
            "--duel-games",
            "4",
            "--quiet",
            "--out",
            &out,
        ];
        if json {
            args.push("--json");
        }
        run(&args)
    };
    let text = run_in(&d.join("text"), false);
    let j: Value = serde_json::from_str(&run_in(&d.join("json"), true)).unwrap();
    assert_eq!(j["generations"], 1);
    assert_eq!(j["curve"].as_array().unwrap().len(), 1);
    let w = &j["weights"][0];
    let line = format!(
        "{:<18} {:>9.4} {:>11.4}",
        w["name"].as_str().unwrap(),
        num(&w["start"]),
        num(&w["champion"])
    );
    assert!(text.contains(&line), "{line}\n{text}");
    std::fs::remove_dir_all(&d).ok();
}
