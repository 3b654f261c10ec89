//! `shifu play --log`: one JSON line per game, in game order, the same whatever the thread
//! count, each holding the game's actions (index and name) and its result.

use std::process::{Command, Output};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu")
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-log-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn the_log_is_the_same_on_one_thread_and_three_and_matches_the_csv() {
    let dir = tmpdir("threads");
    let mut logs = Vec::new();
    for threads in ["1", "3"] {
        let log = dir.join(format!("log{threads}.jsonl"));
        let csv = dir.join(format!("games{threads}.csv"));
        let o = shifu(&[
            "play",
            "--game",
            "tofu-kingdom",
            "--players",
            "4",
            "--agents",
            "greedy,random,random,random",
            "--games",
            "12",
            "--rotate",
            "--seed",
            "3",
            "--threads",
            threads,
            "--quiet",
            "--log",
            log.to_str().unwrap(),
            "--out",
            csv.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        logs.push((std::fs::read_to_string(&log).unwrap(), csv));
    }
    assert_eq!(logs[0].0, logs[1].0, "the log depends on the thread count");
    let mut rows = csv::Reader::from_path(&logs[0].1).unwrap();
    let header = rows.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let lines: Vec<serde_json::Value> = logs[0]
        .0
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 12);
    for (i, (line, rec)) in lines.iter().zip(rows.records()).enumerate() {
        let rec = rec.unwrap();
        assert_eq!(line["game"], i as u64);
        assert_eq!(line["game_name"], "tofu-kingdom");
        assert_eq!(line["seed"].to_string(), rec[col("seed")]);
        assert_eq!(line["agents"].as_array().unwrap().len(), 4);
        let agents: Vec<&str> = line["agents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(agents.join("|"), rec[col("agents")]);
        let actions = line["actions"].as_array().unwrap();
        let names = line["names"].as_array().unwrap();
        assert_eq!(actions.len().to_string(), rec[col("steps")]);
        assert_eq!(names.len(), actions.len());
        assert!(names.iter().all(|n| !n.as_str().unwrap().is_empty()));
        assert_eq!(line["result"]["steps"].to_string(), rec[col("steps")]);
        assert_eq!(line["param_set"], rec[col("param_set")]);
        for s in 1..=4 {
            let score = line["result"]["score"][s - 1].as_f64().unwrap();
            let csv_score: f64 = rec[col(&format!("score_{s}"))].parse().unwrap();
            assert_eq!(score, csv_score);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn log_with_resume_is_refused() {
    let dir = tmpdir("resume");
    let out = dir.join("g.csv");
    let log = dir.join("g.jsonl");
    let o = shifu(&[
        "play",
        "--games",
        "2",
        "--agents",
        "random",
        "--quiet",
        "--resume",
        "--out",
        out.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--log"));
    std::fs::remove_dir_all(&dir).ok();
}
