//! `shifu balance` from the command line: the result's shape, its independence from the thread
//! count, a resume after kill -9 to the same result, and hostile options refused with exit 2.

use serde_json::Value;
use std::process::{Command, Output};

fn shifu(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shifu"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run shifu")
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let o = shifu(&a, &[]);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// The result without its timing.
fn result_only(mut v: Value) -> Value {
    v.as_object_mut().expect("an object").remove("seconds");
    v
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-balance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[path = "common/kingdom_race.rs"]
mod kingdom_race;
use kingdom_race::KINGDOM;

/// `balance` over Tofu Kingdom at 4 players with random agents, searching the extra question,
/// followed by `rest`.
fn kingdom_extra(rest: &[&'static str]) -> Vec<&'static str> {
    let base = [
        "balance",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--agents",
        "random",
        "--search",
        "extra_question=true/false",
    ];
    [&base[..], rest].concat()
}

#[test]
fn balance_json_recommends_settings_with_a_verdict() {
    let v = json(KINGDOM);
    assert_eq!(v["settings"], 4);
    assert!(v["race_games"].as_u64().unwrap() <= 400);
    let rec = v["recommended"].as_array().expect("recommended");
    assert_eq!(rec.len(), 2);
    for r in rec {
        let set = r["set"].as_array().unwrap();
        assert_eq!(set.len(), 2);
        assert!(set[0].as_str().unwrap().starts_with("extra_question="));
        assert_eq!(r["validation"]["games"], 150);
        let e = &r["validation"]["equivalence"];
        assert_eq!(e["margin"], 0.02);
        assert!(
            e["verdict"].is_string() && e["p_equivalence"].is_number(),
            "{e}"
        );
        let find = &r["validation"]["metrics"][0];
        assert_eq!(find["name"], "stats.finds/stats.princess_dealt");
        assert!(find["ci_low"].as_f64().unwrap() <= find["value"].as_f64().unwrap());
    }
    let p: f64 = rec
        .iter()
        .map(|r| r["validation"]["probability_best"].as_f64().unwrap())
        .sum();
    assert!((p - 1.0).abs() < 1e-9, "{p}");
    let cmd = v["validate_command"].as_str().unwrap();
    assert!(
        cmd.starts_with("shifu seats --game tofu-kingdom --players 4 --set "),
        "{cmd}"
    );
    assert!(
        cmd.contains(&format!("--seed {}", v["validation_seed"])),
        "{cmd}"
    );
}

#[test]
fn balance_validation_games_are_the_command_it_names() {
    // The validation games are `shifu play` on the named seed: the same seat shares.
    let v = json(&kingdom_extra(&[
        "--first-look",
        "20",
        "--max-games",
        "40",
        "--finalists",
        "1",
        "--validation-games",
        "120",
        "--quiet",
    ]));
    let r = &v["recommended"][0];
    let mut args = vec![
        "play",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--agents",
        "random",
    ];
    let set: Vec<String> = r["set"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    for s in &set {
        args.extend(["--set", s]);
    }
    let seed = v["validation_seed"].to_string();
    args.extend(["--games", "120", "--seed", &seed, "--quiet"]);
    let play = json(&args);
    for k in 0..4 {
        let a = play["stats"]["seats"][k]["win_share"].as_f64().unwrap();
        // Tofu Kingdom has no start player: seat k is turn position k.
        let b = r["validation"]["metrics"][k]["value"].as_f64().unwrap();
        assert!((a - b).abs() < 1e-6, "seat {k}: play {a}, balance {b}");
    }
}

#[test]
fn balance_threads_do_not_change_the_result() {
    let mut one = KINGDOM.to_vec();
    one.extend(["--threads", "1"]);
    let mut two = KINGDOM.to_vec();
    two.extend(["--threads", "2"]);
    assert_eq!(result_only(json(&one)), result_only(json(&two)));
}

#[test]
fn balance_resume_after_kill_gives_the_same_result() {
    let d = tmpdir("resume");
    let whole = d.join("whole.json");
    let cut = d.join("cut.json");
    let with_out = |out: &std::path::Path, extra: &[&str]| {
        let mut a = KINGDOM.to_vec();
        a.extend(["--out", out.to_str().unwrap()]);
        a.extend(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let args = with_out(&whole, &[]);
    let o = shifu(&args.iter().map(String::as_str).collect::<Vec<_>>(), &[]);
    assert!(o.status.success());
    // Killed right after its second save (a look), then resumed.
    let args = with_out(&cut, &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = shifu(&args, &[("SHIFU_TEST_KILL_BALANCE_AFTER", "2")]);
    assert!(!o.status.success(), "the kill hook did not fire");
    assert!(!cut.exists());
    let progress = d.join("cut.json.race");
    assert!(progress.exists());
    // Without --resume the progress is not overwritten.
    let o = shifu(&args, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    // Another seed is another run: refused.
    let mut other = args.clone();
    other.extend(["--resume", "--seed", "9"]);
    let o = shifu(&other, &[]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut resume = args.clone();
    resume.push("--resume");
    let o = shifu(&resume, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!progress.exists());
    let read = |p: &std::path::Path| {
        result_only(serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
    };
    assert_eq!(read(&whole), read(&cut));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn balance_per_seat_axis_lists_vectors() {
    let v = json(&[
        "balance",
        "--players",
        "2",
        "--agents",
        "random",
        "--search",
        "start_coins=0..1",
        "--first-look",
        "4",
        "--max-games",
        "8",
        "--finalists",
        "4",
        "--validation-games",
        "4",
        "--quiet",
    ]);
    assert_eq!(v["settings"], 4);
    let names: Vec<&str> = v["race_entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "start_coins=0,0",
            "start_coins=0,1",
            "start_coins=1,0",
            "start_coins=1,1"
        ]
    );
    // Tofu Shifu's rulebook coins (1,2 at two players) give the distance.
    let r = &v["recommended"][0];
    assert!(r["distance"].as_f64().is_some(), "{r}");
}

/// Hostile `shifu balance` options (after a Tofu Kingdom base command) and the text each
/// error must contain.
const HOSTILE_BALANCE: &[(&str, &str)] = &[
    ("--search extra_question", "expected key=LO..HI"),
    ("--search winning_score=9..3", "LO is above HI"),
    ("--search no_such_key=1..2", "no_such_key"),
    ("--search extra_question=true/false --sum extra_question=1", "per-seat"),
    ("--search extra_question=true/false --margin 0", "--margin"),
    ("--search extra_question=true/false --error-rate 1", "--error-rate"),
    ("--search extra_question=true/false --objective loud", "loud"),
    ("--search extra_question=true/false --objective target:nope=0.5", "metric `nope`"),
    ("--search extra_question=true/false --objective target:stats.nope=1", "no statistic `nope`"),
    ("--search extra_question=true/false --objective distance", "measured objective"),
    ("--search extra_question=true/false --first-look 1", "--first-look"),
    ("--search players=2..4", "--players"),
    ("--search extra_question=true/false --method ntbea --resume --out x.json", "--resume is not supported with --method ntbea"),
    ("--search extra_question=true/false --method ntbea --budget 50", "cannot pay for one evaluation"),
    ("--search extra_question=true/false --method ntbea --exploration -1", "--exploration"),
    ("--search extra_question=true/false --method ntbea --shard 0/2 --out x.json", "--method ntbea runs on one machine"),
    ("--search extra_question=true/false --objective skill=0.1", "needs --strong SPEC and --weak SPEC"),
    ("--search extra_question=true/false --objective skill=0.9 --strong greedy --weak random", "MARGIN must be at least 0"),
    ("--search extra_question=true/false --objective skill=much --strong greedy --weak random", "`much` is not a number"),
    ("--search extra_question=true/false --objective skill=0.1 --strong wizard --weak random", "--strong `wizard`"),
    ("--search extra_question=true/false --objective skill=0.1 --strong greedy --weak random,greedy", "one agent spec"),
    ("--search extra_question=true/false --strong greedy", "add that objective"),
];

#[test]
fn balance_hostile_options_exit_2() {
    let base = "balance --game tofu-kingdom --players 4 --agents random --quiet";
    for (extra, needle) in HOSTILE_BALANCE {
        let line = format!("{base} {extra}");
        let a: Vec<&str> = line.split_whitespace().collect();
        let o = shifu(&a, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra}: {err}");
        assert!(err.contains(needle), "{extra}: `{needle}` not in {err}");
    }
    let o = shifu(
        &[
            "balance",
            "--game",
            "wok-star",
            "--search",
            "goal_scale=0.5..1:0.5",
            "--objective",
            "fair",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cooperative"));
}

#[test]
fn balance_resume_refuses_a_tampered_progress_file() {
    let d = tmpdir("tampered");
    let out = d.join("r.json");
    let mut args = KINGDOM.to_vec();
    args.extend(["--out", out.to_str().unwrap()]);
    let o = shifu(&args, &[("SHIFU_TEST_KILL_BALANCE_AFTER", "1")]);
    assert!(!o.status.success(), "the kill hook did not fire");
    let progress = d.join("r.json.race");
    let bytes = std::fs::read(&progress).unwrap();
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    let mut header: Value = serde_json::from_slice(&bytes[..nl]).unwrap();
    for e in header["entries"].as_array_mut().unwrap() {
        e["estimate"] = Value::Array(Vec::new());
    }
    let mut tampered = serde_json::to_vec(&header).unwrap();
    tampered.extend_from_slice(&bytes[nl..]);
    std::fs::write(&progress, tampered).unwrap();
    args.push("--resume");
    let o = shifu(&args, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("without its estimates"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn balance_skill_games_are_counted_and_are_the_games_named() {
    let v = json(&kingdom_extra(&[
        "--objective",
        "fair",
        "--objective",
        "skill=0.05",
        "--strong",
        "greedy",
        "--weak",
        "random",
        "--first-look",
        "20",
        "--max-games",
        "40",
        "--finalists",
        "1",
        "--validation-games",
        "100",
        "--quiet",
    ]));
    // Each recorded game has one skill game: twice the games.
    assert_eq!(v["games_per_row"], 2);
    let race = v["race_games"].as_u64().unwrap();
    assert_eq!(race % 2, 0);
    assert_eq!(v["games"].as_u64().unwrap(), race + 2 * 100);
    let r = &v["recommended"][0];
    let k = &r["skill"];
    assert_eq!(k["needed"].as_f64().unwrap(), 0.3);
    let value = k["value"].as_f64().unwrap();
    assert!(k["ci_low"].as_f64().unwrap() <= value && value <= k["ci_high"].as_f64().unwrap());
    // Row i's skill game is game i/4 of the skill master of seat i mod 4, the strong agent in
    // that seat: `shifu play` on those seeds gives the same wins.
    let vseed = v["validation_seed"].as_u64().unwrap();
    let set: Vec<String> = r["set"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    let mut wins = 0.0;
    for seat in 0..4 {
        let agents: Vec<&str> = (0..4)
            .map(|x| if x == seat { "greedy" } else { "random" })
            .collect();
        let agents = agents.join(",");
        let seed = shifu::balance::skill::skill_master(vseed, seat as u64).to_string();
        let mut args = vec!["play", "--game", "tofu-kingdom", "--players", "4"];
        args.extend([
            "--agents", &agents, "--games", "25", "--seed", &seed, "--quiet",
        ]);
        for s in &set {
            args.extend(["--set", s]);
        }
        let play = json(&args);
        wins += 25.0 * play["stats"]["seats"][seat]["win_share"].as_f64().unwrap();
    }
    assert!(
        (wins / 100.0 - value).abs() < 1e-6,
        "{wins} against {value}"
    );
}

#[test]
fn balance_skill_of_a_cooperative_game_is_team_against_team() {
    let v = json(&[
        "balance",
        "--game",
        "wok-star",
        "--players",
        "3",
        "--agents",
        "greedy",
        "--search",
        "goal_scale=0.5..1:0.5",
        "--objective",
        "target:win=0.5",
        "--objective",
        "skill=0.1",
        "--strong",
        "greedy",
        "--weak",
        "random",
        "--first-look",
        "10",
        "--max-games",
        "20",
        "--finalists",
        "2",
        "--validation-games",
        "40",
        "--quiet",
    ]);
    assert_eq!(v["games_per_row"], 3);
    assert_eq!(
        v["games"].as_u64().unwrap(),
        v["race_games"].as_u64().unwrap() + 3 * 80
    );
    for r in v["recommended"].as_array().unwrap() {
        let k = &r["skill"];
        assert_eq!(k["needed"].as_f64().unwrap(), 0.1);
        assert!(k["measure"].as_str().unwrap().contains("all-strong team"));
        let x = k["value"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&x), "{x}");
        // The objective is the shortfall below the margin.
        let o = &r["validation"]["objectives"][1];
        assert_eq!(o["name"], "skill=0.1");
        let short = o["value"].as_f64().unwrap();
        assert!((short - (0.1 - x).max(0.0)).abs() < 1e-6, "{short} {x}");
    }
}

/// NTBEA over Tofu Shifu's start coins 0..15 at 4 players: 16⁴ = 65,536 vectors, more than a
/// race lists.
fn ntbea_args(threads: &str) -> Vec<String> {
    [
        "balance",
        "--players",
        "4",
        "--agents",
        "greedy",
        "--search",
        "start_coins=0..15",
        "--method",
        "ntbea",
        "--budget",
        "600",
        "--batch",
        "20",
        "--finalists",
        "2",
        "--validation-games",
        "40",
        "--threads",
        threads,
        "--quiet",
    ]
    .into_iter()
    .map(String::from)
    .collect()
}

#[test]
fn balance_ntbea_searches_a_space_too_large_to_list() {
    let o = shifu(
        &[
            "balance",
            "--players",
            "4",
            "--search",
            "start_coins=0..15",
            "--quiet",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--method ntbea"));
    let one = ntbea_args("1");
    let v = json(&one.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(v["method"], "ntbea");
    assert_eq!(v["settings"], 65_536);
    let n = &v["ntbea"];
    assert_eq!(n["dimensions"], serde_json::json!([16, 16, 16, 16]));
    assert_eq!(n["evaluations"], 30);
    assert_eq!(n["games"], 600);
    assert_eq!(v["race_games"], 600);
    let rec = v["recommended"].as_array().unwrap();
    assert!(!rec.is_empty() && rec.len() <= 2);
    assert_eq!(v["games"].as_u64().unwrap(), 600 + 40 * rec.len() as u64);
    // The validation plays the fresh validation seed, as `shifu play` replays it.
    let seed = v["validation_seed"].as_u64().unwrap();
    assert_ne!(seed, 1);
    assert_eq!(seed, shifu::balance::validation_seed(1));
    let r = &rec[0];
    let set = r["set"][0].as_str().unwrap();
    assert!(set.starts_with("start_coins="), "{set}");
    let seed = seed.to_string();
    let play = json(&[
        "play",
        "--players",
        "4",
        "--agents",
        "greedy",
        "--set",
        set,
        "--games",
        "40",
        "--seed",
        &seed,
        "--quiet",
    ]);
    let ours = r["validation"]["mean_rounds"].as_f64().unwrap();
    let theirs = play["stats"]["mean_rounds"].as_f64().unwrap();
    assert!((ours - theirs).abs() < 1e-9, "{ours} against {theirs}");
    // The same result whatever the thread count.
    let two = ntbea_args("2");
    let w = json(&two.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(result_only(v), result_only(w));
}
