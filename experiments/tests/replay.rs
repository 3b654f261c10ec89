//! `shifu replay`: a self-contained page for each game whose final scores are those of `shifu
//! show --json` for the same game; replays from a game log and a play CSV row; the seat view's
//! hidden moves; hostile inputs refused with exit 2 naming the file and field.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu")
}

fn ok(args: &[&str]) -> Output {
    let o = shifu(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-replay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The replay embedded in a page, checked to load nothing from elsewhere.
fn embedded(page: &Path) -> Value {
    let html = std::fs::read_to_string(page).unwrap();
    for banned in [
        "src=",
        "href=",
        "<link",
        "url(",
        "@import",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!html.contains(banned), "{}: `{banned}`", page.display());
    }
    let start = html
        .find("<script id=\"replay-data\" type=\"application/json\">")
        .unwrap();
    let body = &html[start..];
    let body = &body[body.find('>').unwrap() + 1..];
    let json = &body[..body.find("</script>").unwrap()];
    serde_json::from_str(json).unwrap()
}

#[test]
fn every_games_page_ends_with_the_scores_of_show_json() {
    let dir = tmpdir("show");
    for (game, players) in [
        ("tofu-shifu", "3"),
        ("ginza-retro-cafe", "3"),
        ("wok-star", "3"),
        ("tofu-kingdom", "4"),
    ] {
        let page = dir.join(format!("{game}.html"));
        let agents = "greedy,mcts:iters=20,random";
        let agents = if players == "4" {
            "greedy,mcts:iters=20,random,greedy"
        } else {
            agents
        };
        let common = [
            "--game",
            game,
            "--players",
            players,
            "--seed",
            "5",
            "--agents",
            agents,
        ];
        let mut args = vec!["replay"];
        args.extend(common);
        args.extend(["--out", page.to_str().unwrap()]);
        ok(&args);
        let doc = embedded(&page);
        let mut args = vec!["show"];
        args.extend(common);
        args.push("--json");
        let show: Value = serde_json::from_slice(&ok(&args).stdout).unwrap();
        let seats: usize = players.parse().unwrap();
        let shown = &show["outcome"]["score"].as_array().unwrap()[..seats];
        assert_eq!(doc["outcome"]["score"].as_array().unwrap(), shown, "{game}");
        let steps = doc["steps"].as_array().unwrap();
        assert_eq!(doc["frames"].as_array().unwrap().len(), steps.len() + 1);
        assert!(steps.iter().all(|s| s["index"].is_u64()), "{game}");
        // Some decision shows scored candidates (greedy values or MCTS visits).
        assert!(
            steps
                .iter()
                .any(|s| !s["candidates"].as_array().unwrap().is_empty()),
            "{game}: no decision explained"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_seat_page_names_only_that_seats_moves() {
    let dir = tmpdir("seat");
    let page = dir.join("p2.html");
    ok(&[
        "replay",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--seed",
        "3",
        "--agents",
        "greedy",
        "--seat",
        "2",
        "--out",
        page.to_str().unwrap(),
    ]);
    let doc = embedded(&page);
    assert_eq!(doc["seat"], 2);
    let steps = doc["steps"].as_array().unwrap();
    let mut own = 0;
    for s in steps {
        if s["actor"] == 2 {
            own += 1;
            assert!(s["index"].is_u64());
        } else {
            assert!(s["index"].is_null(), "{s}");
            assert!(s["candidates"].as_array().unwrap().is_empty(), "{s}");
            assert_eq!(s["name"], format!("player {} moves", s["actor"]));
        }
    }
    assert!(own > 0 && own < steps.len());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_logged_game_and_a_csv_row_replay_to_their_recorded_scores() {
    let dir = tmpdir("log");
    let (log, csv) = (dir.join("g.jsonl"), dir.join("g.csv"));
    ok(&[
        "play",
        "--game",
        "ginza-retro-cafe",
        "--players",
        "3",
        "--agents",
        "greedy,random,random",
        "--games",
        "6",
        "--rotate",
        "--seed",
        "4",
        "--quiet",
        "--log",
        log.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
    ]);
    let line: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .nth(4)
            .unwrap(),
    )
    .unwrap();
    for source in ["--log", "--from"] {
        let page = dir.join(format!("r{source}.html"));
        let file = if source == "--log" { &log } else { &csv };
        ok(&[
            "replay",
            source,
            file.to_str().unwrap(),
            "--row",
            "4",
            "--out",
            page.to_str().unwrap(),
        ]);
        let doc = embedded(&page);
        assert_eq!(doc["outcome"]["score"], line["result"]["score"], "{source}");
        assert_eq!(doc["seed"], line["seed"]);
        let names: Vec<&Value> = doc["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["name"])
            .collect();
        assert_eq!(
            names,
            line["names"].as_array().unwrap().iter().collect::<Vec<_>>()
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `args`; expects exit 2 and every one of `words` in stderr.
fn refused(args: &[&str], words: &[&str]) {
    let o = shifu(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: `{w}` not in: {err}");
    }
}

#[test]
fn hostile_logs_and_rows_are_refused_naming_the_file_and_field() {
    let dir = tmpdir("hostile");
    let log = dir.join("g.jsonl");
    ok(&[
        "play",
        "--game",
        "wok-star",
        "--players",
        "2",
        "--agents",
        "random",
        "--games",
        "2",
        "--quiet",
        "--log",
        log.to_str().unwrap(),
    ]);
    let out = dir.join("x.html");
    let out = out.to_str().unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let write = |name: &str, line: &Value| {
        let p = dir.join(name);
        std::fs::write(&p, format!("{line}\n")).unwrap();
        p.to_str().unwrap().to_string()
    };
    let mut illegal = first.clone();
    illegal["actions"][0] = 999.into();
    let illegal = write("illegal.jsonl", &illegal);
    let mut renamed = first.clone();
    renamed["names"][0] = "not this action".into();
    let renamed = write("renamed.jsonl", &renamed);
    let mut short = first.clone();
    short["actions"].as_array_mut().unwrap().pop();
    short["names"].as_array_mut().unwrap().pop();
    let short = write("short.jsonl", &short);
    let garbage = dir.join("garbage.jsonl");
    std::fs::write(&garbage, "{\"game\": 0, \"seed\": \"x\"}\n").unwrap();
    let garbage = garbage.to_str().unwrap();
    let log = log.to_str().unwrap();
    refused(
        &["replay", "--log", &illegal, "--row", "0", "--out", out],
        &["illegal.jsonl", "actions[0]", "999"],
    );
    refused(
        &["replay", "--log", &renamed, "--row", "0", "--out", out],
        &["renamed.jsonl", "names[0]"],
    );
    refused(
        &["replay", "--log", &short, "--row", "0", "--out", out],
        &["short.jsonl", "actions"],
    );
    refused(
        &["replay", "--log", garbage, "--row", "0", "--out", out],
        &["garbage.jsonl", "line 1"],
    );
    refused(
        &["replay", "--log", log, "--row", "7", "--out", out],
        &["g.jsonl", "--row 7"],
    );
    refused(
        &[
            "replay",
            "--log",
            log,
            "--row",
            "0",
            "--game",
            "tofu-shifu",
            "--out",
            out,
        ],
        &["g.jsonl", "game_name", "wok-star"],
    );
    refused(
        &[
            "replay",
            "--log",
            "/nonexistent/g.jsonl",
            "--row",
            "0",
            "--out",
            out,
        ],
        &["/nonexistent/g.jsonl"],
    );
    refused(
        &[
            "replay",
            "--from",
            "/nonexistent/g.csv",
            "--row",
            "0",
            "--out",
            out,
        ],
        &["/nonexistent/g.csv"],
    );
    refused(&["replay", "--log", log, "--out", out], &["--row"]);
    refused(
        &[
            "replay", "--game", "wok-star", "--seed", "1", "--seat", "9", "--out", out,
        ],
        &["--seat 9"],
    );
    assert!(!Path::new(out).exists());
    std::fs::remove_dir_all(&dir).ok();
}
