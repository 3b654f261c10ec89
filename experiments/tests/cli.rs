//! The `shifu` command end to end: output, determinism across thread counts, and bad input
//! (exit code 2 with a message naming the problem).

use std::process::{Command, Output};

/// Runs `shifu` with `args`. The tests below were written when `play`, `seats`, `sweep` and
/// `calibrate` played random agents by default; they keep them (`--agents random` is added
/// where they name no agents). [`shifu_as_is`] runs a command line unchanged.
fn shifu(args: &[&str]) -> Output {
    shifu_as_is(&random_by_default(args))
}

/// `args`, with `--agents random` added to a `play`, `seats`, `sweep` or `calibrate` command
/// line that names no agents.
fn random_by_default<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    let runs =
        ["play", "seats", "sweep", "calibrate"].contains(&args.first().copied().unwrap_or(""));
    if runs
        && !args
            .iter()
            .any(|a| a.starts_with("--agents") || *a == "--help")
    {
        v.extend(["--agents", "random"]);
    }
    v
}

/// Runs `shifu` with `args` as given.
fn shifu_as_is(args: &[&str]) -> Output {
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
    let o = shifu(&[
        "play",
        "--players",
        "3",
        "--games",
        "60",
        "--seed",
        "5",
        "--agents",
        "random",
    ]);
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
    let dir = tmpdir("config");
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
    assert!(stdout(&o).contains("at the 5-round cap"), "{}", stdout(&o));
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
fn tofu_kingdom_plays_through_the_same_runner_with_its_own_csv_counts_and_summary() {
    let d = tmpdir("kingdom");
    let csv = d.join("tk.csv");
    let run = |threads: &str, out: &std::path::Path| {
        shifu(&[
            "play",
            "--game",
            "tofu-kingdom",
            "--players",
            "6",
            "--agents",
            "greedy,random,random,random,random,random",
            "--games",
            "40",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = run("1", &csv);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("tofu-kingdom with 6 players, 40 games"),
        "{out}"
    );
    assert!(out.contains("Prince finds Princess Tofu"), "{out}");
    assert!(out.contains("winning symbol by round: heart"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.contains("finds_1") && header.contains("prince_rounds_6"),
        "{header}"
    );
    assert_eq!(text.lines().count(), 41);
    // Its own parameters and options are checked like Tofu Shifu's.
    for (args, needle) in [
        (vec!["--set", "centre_answer=maybe"], "centre_answer"),
        (
            vec!["--data", "/nonexistent/tk.yaml"],
            "/nonexistent/tk.yaml",
        ),
    ] {
        let mut a = vec!["play", "--game", "tofu-kingdom", "--games", "5"];
        a.extend(args);
        let o = shifu(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}");
        assert!(stderr(&o).contains(needle), "{a:?}: {}", stderr(&o));
    }
    let o = shifu(&[
        "show",
        "--game",
        "tofu-kingdom",
        "--seed",
        "4",
        "--take",
        "0,0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Prince Mochi: player 1"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn wok_star_plays_through_the_same_runner_as_a_team_with_its_clock_shown() {
    let d = tmpdir("wok");
    let csv = d.join("ws.csv");
    let run = |threads: &str, out: &std::path::Path| {
        shifu(&[
            "play",
            "--game",
            "wok-star",
            "--players",
            "3",
            "--agents",
            "greedy",
            "--games",
            "30",
            "--set",
            "difficulty=mild",
            "--set",
            "events=true",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = run("1", &csv);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("team wins"), "{out}");
    assert!(out.contains("lost on day 1 / 2 / 3 / 4"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.contains("served_1") && header.contains("lost_day"),
        "{header}"
    );
    assert_eq!(text.lines().count(), 31);
    for (args, needle) in [
        (vec!["--set", "difficulty=hot"], "difficulty"),
        (vec!["--set", "speed=0"], "speed"),
    ] {
        let mut a = vec!["play", "--game", "wok-star", "--games", "5"];
        a.extend(args);
        let o = shifu(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}");
        assert!(stderr(&o).contains(needle), "{a:?}: {}", stderr(&o));
    }
    let o = shifu(&[
        "show",
        "--game",
        "wok-star",
        "--seed",
        "3",
        "--take",
        "0,0,0,0,0,0,0,0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = stdout(&o);
    assert!(
        shown.contains("clock: player 1") && shown.contains("timers:"),
        "{shown}"
    );
    std::fs::remove_dir_all(&d).ok();
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
    let dir = tmpdir("show");
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

/// `duel --out`: a row per game in seed order, A rotated through the seats, results that
/// agree with the printed summary; two duels on the same seeds give the same seeds' rows. A
/// path that cannot be written is refused before any game is played.
#[test]
fn duel_out_writes_a_row_per_game_on_the_duels_seeds() {
    let d = tmpdir("duel-out");
    let out = d.join("games.csv");
    let run = |agents: &str| {
        let o = shifu(&[
            "duel",
            "--players",
            "3",
            "--agents",
            agents,
            "--seeds",
            "4",
            "--seed",
            "5",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        (v, text)
    };
    let (v, text) = run("greedy,random");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "players,master_seed,seed_index,seed,a_seat,side,win_share,rank_score,capped,rounds"
    );
    assert_eq!(lines.len(), 1 + 12, "{text}");
    let rows: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split(',').collect()).collect();
    let seats: Vec<&str> = rows.iter().map(|r| r[4]).collect();
    assert_eq!(seats[..6], ["1", "2", "3", "1", "2", "3"]);
    let share: f64 = rows
        .iter()
        .map(|r| r[6].parse::<f64>().unwrap())
        .sum::<f64>()
        / 12.0;
    assert!(
        (share - v["a_win_share"].as_f64().unwrap()).abs() < 1e-9,
        "{text}"
    );
    // The same seeds whatever A is: the rows pair seed by seed.
    let (_, again) = run("random,greedy");
    let key = |t: &str| -> Vec<String> {
        t.lines()
            .skip(1)
            .map(|l| l.split(',').take(5).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(key(&text), key(&again));
    let missing = d.join("no-such-folder/games.csv");
    let bad = shifu(&[
        "duel",
        "--agents",
        "mcts:iters=100000,greedy",
        "--seeds",
        "1000",
        "--out",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("no-such-folder"), "{}", stderr(&bad));
    let dir = shifu(&[
        "duel",
        "--agents",
        "greedy,random",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(dir.status.code(), Some(2));
    assert!(
        stderr(&dir).contains("not a regular file"),
        "{}",
        stderr(&dir)
    );
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

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn play_out(out: &std::path::Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "play",
        "--players",
        "2",
        "--games",
        "300",
        "--seed",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    shifu(&args)
}

#[test]
fn csv_output_is_identical_on_one_and_two_threads() {
    let d = tmpdir("csv-threads");
    let (a, b) = (d.join("a.csv"), d.join("b.csv"));
    assert!(play_out(&a, &["--threads", "1"]).status.success());
    assert!(play_out(&b, &["--threads", "2"]).status.success());
    let (ta, tb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(ta, tb);
    let text = String::from_utf8(ta).unwrap();
    assert_eq!(text.lines().count(), 301);
    assert!(text.starts_with("game,seed,game_name,players,agents,param_set,score_1,score_2,rank_1"));
    assert!(!d.join("a.csv.tmp").exists());
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("a.csv.manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["games"], 300);
    assert_eq!(manifest["master_seed"], 4);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn merged_shards_equal_the_single_run() {
    let d = tmpdir("csv-shards");
    let whole = d.join("whole.csv");
    assert!(play_out(&whole, &[]).status.success());
    let mut parts = Vec::new();
    for k in [2, 0, 1] {
        let p = d.join(format!("part{k}.csv"));
        let o = play_out(&p, &["--shard", &format!("{k}/3")]);
        assert!(o.status.success(), "{}", stderr(&o));
        parts.push(p);
    }
    // k from the environment, as on a SLURM array.
    let env_part = d.join("env1.csv");
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args([
            "play",
            "--agents",
            "random",
            "--players",
            "2",
            "--games",
            "300",
            "--seed",
            "4",
            "--quiet",
            "--shard-count",
            "3",
            "--out",
        ])
        .arg(&env_part)
        .env("SLURM_ARRAY_TASK_ID", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&env_part).unwrap(),
        std::fs::read(&parts[2]).unwrap()
    );
    let merged = d.join("merged.csv");
    let mut args = vec![
        "merge".to_string(),
        "--out".into(),
        merged.to_str().unwrap().into(),
    ];
    args.extend(parts.iter().map(|p| p.to_str().unwrap().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = shifu(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // A missing shard is a gap, not a silently shorter file.
    let o = shifu(&[
        "merge",
        "--out",
        d.join("bad.csv").to_str().unwrap(),
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing games 100..200"),
        "{}",
        stderr(&o)
    );
    // An incomplete but contiguous set (shards 0 and 1 of 3) is refused, unless told.
    let two = d.join("two.csv");
    let first_two = [
        "merge",
        "--out",
        two.to_str().unwrap(),
        parts[1].to_str().unwrap(),
        parts[2].to_str().unwrap(),
    ];
    let o = shifu(&first_two);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("missing games 200..300"),
        "{}",
        stderr(&o)
    );
    let mut allowed = first_two.to_vec();
    allowed.push("--allow-partial");
    let o = shifu(&allowed);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("200 games"), "{}", stdout(&o));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_killed_run_resumes_with_no_game_lost_or_repeated() {
    let d = tmpdir("csv-resume");
    let whole = d.join("whole.csv");
    let args = |out: &std::path::Path| -> Vec<String> {
        [
            "play",
            "--agents",
            "random",
            "--players",
            "4",
            "--games",
            "6000",
            "--seed",
            "8",
            "--quiet",
            "--threads",
            "1",
            "--out",
        ]
        .iter()
        .map(|x| x.to_string())
        .chain([out.to_str().unwrap().to_string()])
        .collect()
    };
    let killed = d.join("killed.csv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args(&killed))
        .spawn()
        .unwrap();
    let tmp = d.join("killed.csv.tmp");
    // Kill it once some rows are on disk.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::fs::metadata(&tmp).map(|m| m.len()).unwrap_or(0) < 20_000 {
        assert!(
            std::time::Instant::now() < deadline,
            "the run wrote nothing"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!killed.exists(), "a killed run must not look complete");
    // Without --resume the partial file is protected.
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args(&killed))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    let mut resumed = args(&killed);
    resumed.push("--resume".into());
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(&resumed)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args(&whole))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn bad_shards_and_unwritable_outputs_exit_2() {
    for (args, needle) in [
        (
            vec!["play", "--games", "10", "--shard", "3/3"],
            "out of range",
        ),
        (
            vec!["play", "--games", "10", "--shard", "x/3"],
            "not a number",
        ),
        (
            vec!["play", "--games", "10", "--out", "/nonexistent-dir/x.csv"],
            "/nonexistent-dir/x.csv",
        ),
        (vec!["play", "--games", "10", "--resume"], "--out"),
    ] {
        let o = shifu(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn seats_reports_chi_square_and_balance_and_rotates_agents() {
    let d = tmpdir("seats");
    let out = d.join("s.csv");
    let o = shifu(&[
        "seats",
        "--players",
        "3",
        "--agents",
        "greedy,random,random",
        "--games",
        "30",
        "--rotate",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("chi-square") && text.contains("balance"),
        "{text}"
    );
    assert!(text.contains("(rotated)"), "{text}");
    let csv = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 30);
    // Games 0, 1, 2 share a seed and rotate greedy through seats 1, 2, 3.
    let field = |r: &str, i: usize| r.split(',').nth(i).unwrap().to_string();
    assert_eq!(field(rows[0], 1), field(rows[1], 1));
    assert_eq!(field(rows[1], 1), field(rows[2], 1));
    assert_eq!(field(rows[0], 4), "greedy|random|random");
    assert_eq!(field(rows[1], 4), "random|greedy|random");
    assert_eq!(field(rows[2], 4), "random|random|greedy");
    assert_ne!(field(rows[0], 1), field(rows[3], 1));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn sweep_analyses_every_cell_on_the_same_seeds() {
    let o = shifu(&[
        "sweep",
        "--players",
        "2",
        "--games",
        "40",
        "--vary",
        "start_coins=1,2/2,2",
        "--vary",
        "objective_limit=one-town,one-total",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("| start_coins="))
            .count(),
        8,
        "{out}"
    );
    // Random agents: some cells are decided by the round cap and cannot be the fairest.
    assert!(
        out.contains("Holm p")
            && out.contains("fairest cell")
            && out.contains(
                "paired differences to the baseline cell start_coins=1,2 objective_limit=one-town"
            )
            && out.contains("detectable effect"),
        "{out}"
    );
    let bad = shifu(&["sweep", "--vary", "start_coins=1,2,2,3/x"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("start_coins"), "{}", stderr(&bad));
}

#[test]
fn tournament_rates_every_agent_and_sprt_stops_the_same_on_any_thread_count() {
    let o = shifu(&[
        "tournament",
        "--players",
        "2",
        "--agents",
        "random,greedy",
        "--seeds",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("| greedy |") && out.contains("| random |"),
        "{out}"
    );
    assert!(out.contains("on 10 seeds = 20 games"), "{out}");
    let sprt = |threads: &str| {
        let o = shifu(&[
            "tournament",
            "--players",
            "2",
            "--agents",
            "greedy,random",
            "--sprt",
            "--elo1",
            "100",
            "--seeds",
            "100",
            "--threads",
            threads,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        // The thinking times are wall-clock measurements; everything else must match.
        let out = stdout(&o);
        assert!(out.contains("thinking time: A "), "{out}");
        out.lines()
            .filter(|l| !l.starts_with("thinking time: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = sprt("1");
    assert!(one.contains("H1 accepted"), "{one}");
    assert_eq!(one, sprt("2"));
    let bad = shifu(&[
        "tournament",
        "--players",
        "3",
        "--agents",
        "random,greedy",
        "--sprt",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("two-player"), "{}", stderr(&bad));
}

#[test]
fn tournament_rates_three_and_four_player_line_ups_by_plackett_luce() {
    // Two agents at three seats: line-ups AAB and ABB, 3 seat orders each, on 8 seeds.
    let o = shifu(&[
        "tournament",
        "--players",
        "3",
        "--agents",
        "random,greedy",
        "--seeds",
        "8",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("6 seatings") && out.contains("48 games"),
        "{out}"
    );
    assert!(out.contains("Plackett-Luce"), "{out}");
    // Greedy is rated above random: its row comes first, with a positive rating.
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    assert!(rows[2].starts_with("| greedy | +"), "{out}");
    // Each agent sat in 72 of the 144 seats (the column before the thinking time per move).
    let seats = |row: &str| {
        row.split('|')
            .map(str::trim)
            .nth(6)
            .unwrap_or("")
            .to_string()
    };
    assert!(seats(rows[2]) == "72" && seats(rows[3]) == "72", "{out}");
}

#[test]
fn report_turns_a_run_into_markdown_and_an_svg_chart() {
    let d = tmpdir("report");
    let csv = d.join("run.csv");
    assert!(play_out(&csv, &[]).status.success());
    let md = d.join("run.md");
    let o = shifu(&[
        "report",
        csv.to_str().unwrap(),
        "--out",
        md.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("300 games, 2 players"), "{text}");
    // Random agents: half the games capped, so no verdict on the seats (issue 46).
    assert!(
        text.contains("| 1 | ") && text.contains("No verdict on the seats"),
        "{text}"
    );
    assert!(!text.contains("Chi-square"), "{text}");
    let svg = std::fs::read_to_string(d.join("run.seats.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.matches("<rect").count() >= 3);
    let bad = shifu(&[
        "report",
        md.to_str().unwrap(),
        "--out",
        d.join("x.md").to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn sweep_csv_becomes_a_heatmap_report() {
    let d = tmpdir("sweep-report");
    let csv = d.join("sweep.csv");
    let o = shifu(&[
        "sweep",
        "--players",
        "2",
        "--games",
        "20",
        "--vary",
        "start_coins=1,2/2,2",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = d.join("sweep.md");
    let o = shifu(&[
        "report",
        csv.to_str().unwrap(),
        "--out",
        md.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.contains("| start_coins=1,2 |") && text.contains("Holm p"),
        "{text}"
    );
    let svg = std::fs::read_to_string(d.join("sweep.heatmap.svg")).unwrap();
    assert!(
        svg.matches("<rect").count() >= 5,
        "2 cells x 2 seats + background"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn capped_games_are_flagged_beside_every_headline() {
    // A 3-round cap stops every game: each summary says so and warns.
    let cap = ["--players", "2", "--set", "max_rounds=3"];
    let runs: [&[&str]; 5] = [
        &["play", "--games", "20", "--quiet"],
        &["seats", "--games", "20", "--quiet"],
        &[
            "sweep",
            "--games",
            "10",
            "--quiet",
            "--vary",
            "start_coins=1,2/2,2",
        ],
        &["tournament", "--agents", "random,greedy", "--seeds", "3"],
        &["duel", "--agents", "greedy,random", "--seeds", "3"],
    ];
    for args in runs {
        let args: Vec<&str> = args.iter().chain(cap.iter()).copied().collect();
        let o = shifu(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("3-round cap"), "{args:?}: {out}");
        assert!(out.contains("WARNING"), "{args:?}: {out}");
    }
    // Games that end by the rules carry the share and no warning.
    let o = shifu(&[
        "play",
        "--players",
        "2",
        "--agents",
        "greedy",
        "--games",
        "6",
        "--quiet",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("capped 0.0%") && !out.contains("WARNING"),
        "{out}"
    );
}

#[test]
fn csv_records_supply_run_outs_and_the_end_trigger_and_report_summarises_them() {
    let dir = tmpdir("events");
    let csv = dir.join("g.csv");
    let o = shifu(&[
        "play",
        "--players",
        "3",
        "--agents",
        "greedy",
        "--games",
        "12",
        "--quiet",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("the end was triggered"),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &header[header.len() - 4..],
        ["capped", "coins_out_round", "deck_out_round", "end_trigger"]
    );
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let trigger: usize = cells[header.len() - 1].parse().unwrap();
        assert!((1..=3).contains(&trigger), "{line}");
    }
    let md = dir.join("g.md");
    let o = shifu(&[
        "report",
        csv.to_str().unwrap(),
        "--out",
        md.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = std::fs::read_to_string(&md).unwrap();
    assert!(
        report.contains("Deck out: in") && report.contains("The end was triggered in 12 games"),
        "{report}"
    );
    // Issue 46: the report names the data and the parameters (from the run's manifest), with
    // readable labels, not column names.
    assert!(
        report.contains("Card data: builtin:calibrated") && report.contains("```toml"),
        "{report}"
    );
    assert!(
        report.contains("max_rounds = 200") && !report.contains("_round`"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn calibrate_checks_a_tiny_grid_against_the_targets_and_names_the_choice() {
    let dir = tmpdir("calibrate");
    let csv = dir.join("cal.csv");
    let o = shifu(&[
        "calibrate",
        "--players",
        "2",
        "--agents",
        "greedy",
        "--games",
        "4",
        "--quiet",
        "--vary",
        "upgrade_coin_scale=0.5,1",
        "--vary",
        "player_objective_upgrade_delta=-1,0",
        "--target-rounds",
        "1-1000",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("| mean rounds [95% CI] | capped [95% CI] | coins out [95% CI] | deck out [95% CI] | missed |"), "{out}");
    assert!(out.contains("4 of 4 cells meet every target."), "{out}");
    assert!(out.contains("chosen (meets every target"), "{out}");
    assert!(out.contains("alternative (meets every target"), "{out}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 5, "{rows}");
    // An impossible target: every cell misses it, and the nearest miss is named.
    let o = shifu(&[
        "calibrate",
        "--players",
        "2",
        "--agents",
        "greedy",
        "--games",
        "2",
        "--quiet",
        "--vary",
        "upgrade_coin_scale=0.5,1",
        "--target-rounds",
        "1-2",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("0 of 2 cells meet every target.") && out.contains("nearest miss:"),
        "{out}"
    );
    let bad = shifu(&["calibrate", "--target-rounds", "40-20"]);
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn data_writes_the_card_data_after_the_knobs_and_play_accepts_it() {
    let dir = tmpdir("data");
    let file = dir.join("cheap.json");
    let o = shifu(&[
        "data",
        "--data",
        "builtin:reconstructed",
        "--set",
        "upgrade_coin_scale=0.5",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("reconstruction knobs: upgrade_coin_scale=0.5"),
        "{}",
        &text[..300]
    );
    let o = shifu(&[
        "play",
        "--data",
        file.to_str().unwrap(),
        "--players",
        "2",
        "--games",
        "4",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("cheap.json"), "{}", stdout(&o));
    let bad = shifu(&["play", "--data", "builtin:nope"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("builtin:nope") && stderr(&bad).contains("calibrated"),
        "{}",
        stderr(&bad)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn show_watches_agents_play_one_line_per_turn() {
    let o = shifu(&[
        "show",
        "--players",
        "2",
        "--seed",
        "3",
        "--agents",
        "greedy",
        "--turns",
        "6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let turns: Vec<&str> = out.lines().filter(|l| l.starts_with("round ")).collect();
    assert_eq!(
        turns.len(),
        7,
        "six turns and the position after them: {out}"
    );
    assert!(
        turns[0].contains("player 1: move to") && turns[0].contains("=> objectives"),
        "{out}"
    );
    assert!(turns[6].starts_with("round 4, turn 7"), "{out}");
}

#[test]
fn a_loaded_state_is_checked_and_a_bad_one_is_refused_naming_the_field() {
    let dir = tmpdir("badstate");
    let good = dir.join("s.json");
    let o = shifu(&[
        "show",
        "--seed",
        "3",
        "--take",
        "0",
        "--save-state",
        good.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&good).unwrap();
    let cases = [
        ("\"current\": 0", "\"current\": 4", "current"),
        ("\"round\": 1", "\"round\": 0", "round"),
        ("\"marker\": 8", "\"marker\": 9", "marker"),
        ("\"coins\": 1,", "\"coins\": 201,", "coins"),
    ];
    for (from, to, field) in cases {
        assert!(text.contains(from), "{from}");
        let bad = dir.join(format!("bad_{field}.json"));
        std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
        let o = shifu(&["show", "--state", bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{field}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(bad.to_str().unwrap()) && stderr(&o).contains(field),
            "{field}: {}",
            stderr(&o)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A saved Ginza state with one field out of range (in its type or past the game) exits 2,
/// naming the file and the field.
#[test]
fn a_mutated_ginza_state_exits_2_naming_the_field() {
    let dir = tmpdir("badginza");
    let good = dir.join("s.json");
    let o = shifu(&[
        "show",
        "--game",
        "ginza-retro-cafe",
        "--players",
        "3",
        "--seed",
        "3",
        "--take",
        "0,0,0,0,0,0,0,0,0",
        "--save-state",
        good.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&good).unwrap()).unwrap();
    let cases: [(&str, serde_json::Value); 7] = [
        ("start_player", 3.into()),
        ("first_start", 255.into()),
        ("bonus_used", 8.into()),
        ("round", 70_000.into()),
        ("turns", (-1).into()),
        (
            "bonus_passed",
            serde_json::json!([[12, 13], [255, 255], [255, 255], [255, 255]]),
        ),
        ("parked_on", serde_json::json!([64, 0, 0, 0])),
    ];
    for (field, value) in cases {
        let mut bad = state.clone();
        assert!(bad.get(field).is_some(), "{field} in {bad}");
        bad[field] = value;
        let path = dir.join(format!("bad_{field}.json"));
        std::fs::write(&path, bad.to_string()).unwrap();
        let o = shifu(&[
            "show",
            "--game",
            "ginza-retro-cafe",
            "--players",
            "3",
            "--state",
            path.to_str().unwrap(),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{field}: {err}");
        assert!(
            err.contains(path.to_str().unwrap())
                && err.contains(field)
                && !err.contains("panicked"),
            "{field}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn degenerate_or_conflicting_settings_exit_2_naming_them() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["sweep", "--games", "5", "--vary", "players=2,3"],
            "players",
        ),
        (
            &[
                "sweep",
                "--games",
                "5",
                "--vary",
                "start_coins=1,2/2,2",
                "--vary",
                "start_coins=3,3",
            ],
            "twice",
        ),
        (
            &["tournament", "--agents", "random,greedy", "--seeds", "0"],
            "--seeds",
        ),
        (
            &[
                "tournament",
                "--game",
                "wok-star",
                "--agents",
                "random,greedy",
            ],
            "cooperative",
        ),
        (
            &["train", "--game", "wok-star", "--out", "/nonexistent/never"],
            "cooperative",
        ),
        (
            &[
                "tournament",
                "--players",
                "2",
                "--agents",
                "random,greedy",
                "--sprt",
                "--elo1",
                "nan",
            ],
            "--elo0 and --elo1",
        ),
        (&["bench", "--seconds", "inf"], "--seconds"),
        (&["bench", "--games", "0"], "--games"),
        (
            &[
                "play",
                "--games",
                "8",
                "--shard",
                "0/4",
                "--shard-count",
                "4",
            ],
            "--shard-count",
        ),
        (&["play", "--games", "0"], "--games"),
    ];
    for (args, needle) in cases {
        let o = shifu(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    // A huge run's shard bounds are computed without overflow (the run itself is not played).
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args([
            "play",
            "--games",
            "18446744073709551615",
            "--shard",
            "3/4",
            "--shard-count",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // An empty SLURM_ARRAY_TASK_ID falls back to JOB_COMPLETION_INDEX.
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args([
            "play",
            "--agents",
            "random",
            "--games",
            "4",
            "--shard-count",
            "2",
            "--quiet",
        ])
        .env("SLURM_ARRAY_TASK_ID", "")
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("shard 1/2 (games 2..4)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn outputs_never_replace_a_non_regular_file() {
    let dir = tmpdir("nonregular");
    let sub = dir.join("a_directory");
    std::fs::create_dir_all(&sub).unwrap();
    let target = sub.to_str().unwrap();
    let runs: [&[&str]; 3] = [
        &["play", "--games", "2", "--quiet", "--out", target],
        &["data", "--out", target],
        &["merge", "--out", target, "x.csv"],
    ];
    for args in runs {
        let o = shifu(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("not a regular file") && stderr(&o).contains("a_directory"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(sub.is_dir());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_killed_before_its_first_row_starts_over_and_a_resume_notices_changed_inputs() {
    let dir = tmpdir("earlykill");
    let out = dir.join("g.csv");
    let tmp = dir.join("g.csv.tmp");
    // A kill in the first moments leaves an empty or header-only file and maybe no manifest:
    // a fresh run and a resume both start over.
    for (leftover, resume) in [("", false), ("game,seed\n", true)] {
        std::fs::write(&tmp, leftover).unwrap();
        let _ = std::fs::remove_file(dir.join("g.csv.manifest.json"));
        let mut args = vec!["play", "--players", "2", "--games", "6", "--quiet", "--out"];
        args.push(out.to_str().unwrap());
        if resume {
            args.push("--resume");
        }
        let o = shifu(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 7);
    }
    // A partial run whose data file was edited before the resume: refused, naming the data.
    let data = dir.join("cards.json");
    let o = shifu(&["data", "--out", data.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "--players",
            "2",
            "--games",
            "6",
            "--quiet",
            "--data",
        ];
        args.push(data.to_str().unwrap());
        args.push("--out");
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        shifu(&args)
    };
    assert!(run(&[]).status.success());
    let full = std::fs::read_to_string(&out).unwrap();
    let partial: String = full.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::remove_file(&out).unwrap();
    std::fs::write(&tmp, partial).unwrap();
    let text = std::fs::read_to_string(&data).unwrap();
    std::fs::write(&data, text.replacen("\"coins\": 80", "\"coins\": 81", 1)).unwrap();
    let o = run(&["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("card data"), "{}", stderr(&o));
    // Restored, the resume completes the same file byte for byte.
    std::fs::write(&data, text).unwrap();
    let o = run(&["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn show_json_is_one_document_and_observe_and_determinize_respect_hidden_cards() {
    let json = |args: &[&str]| -> serde_json::Value {
        let o = shifu(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    };
    let d = json(&[
        "show",
        "--players",
        "3",
        "--seed",
        "5",
        "--take",
        "0",
        "--json",
        "--observe",
        "2",
    ]);
    assert_eq!(d["game"], "tofu-shifu");
    assert_eq!(d["log"].as_array().unwrap().len(), 1);
    assert!(d["legal_actions"][0]["name"].is_string());
    assert!(d["outcome"].is_null());
    // Player 2 sees its own hand, not player 1's or 3's (their private cards are removed).
    let obs = &d["observation"]["public"]["players"];
    assert_eq!(obs[1]["hand"], d["state"]["players"][1]["hand"]);
    // Sets are arrays of card indices (every JSON number at most 2^53): an empty hand is [].
    assert_eq!(obs[0]["hand"], serde_json::json!([]));
    assert_eq!(obs[2]["hand"], serde_json::json!([]));
    assert!(!obs[1]["hand"].as_array().unwrap().is_empty());
    // A re-deal for player 2 keeps its hand and changes the others'.
    let here = json(&["show", "--players", "3", "--seed", "5", "--json"]);
    let there = json(&[
        "show",
        "--players",
        "3",
        "--seed",
        "5",
        "--json",
        "--determinize",
        "2",
    ]);
    let hand = |v: &serde_json::Value, p: usize| v["state"]["players"][p]["hand"].to_string();
    assert_eq!(hand(&here, 1), hand(&there, 1));
    assert_ne!(hand(&here, 0), hand(&there, 0));
    // Tofu Kingdom too.
    let tk = json(&[
        "show",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--json",
        "--observe",
        "1",
    ]);
    assert!(!tk["observation"].is_null());
    let bad = shifu(&["show", "--players", "2", "--observe", "3"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--observe 3"), "{}", stderr(&bad));
}

/// The peak memory a run reports with SHIFU_PEAK_MEMORY set, in kB (Linux only).
fn peak_kb(o: &Output) -> Option<u64> {
    stderr(o)
        .lines()
        .find_map(|l| l.strip_prefix("peak memory: "))
        .and_then(|x| x.trim_end_matches(" kB").trim().parse().ok())
}

#[test]
fn resuming_a_long_run_keeps_memory_flat() {
    // A partial run of 200,000 rows resumes with about the memory of one of 1,000: rows read back
    // are tallied, not kept.
    let dir = tmpdir("resume-memory");
    let out = dir.join("g.csv");
    let run = |games: &str, resume: bool| {
        let mut args = vec![
            "play",
            "--agents",
            "random",
            "--players",
            "2",
            "--games",
            games,
            "--quiet",
            "--out",
        ];
        args.push(out.to_str().unwrap());
        if resume {
            args.push("--resume");
        }
        Command::new(env!("CARGO_BIN_EXE_shifu"))
            .args(&args)
            .env("SHIFU_PEAK_MEMORY", "1")
            .output()
            .unwrap()
    };
    let mut peaks = Vec::new();
    for rows in [1_000u64, 200_000] {
        // One real game gives the row format; the partial file repeats it with each index.
        let _ = std::fs::remove_file(&out);
        let o = run("1", false);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&out).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        let row = lines.next().unwrap();
        let rest = row.split_once(',').unwrap().1;
        let mut partial = String::with_capacity(rows as usize * row.len());
        partial.push_str(header);
        partial.push('\n');
        for i in 0..rows {
            partial.push_str(&format!("{i},{rest}\n"));
        }
        std::fs::remove_file(&out).unwrap();
        std::fs::write(dir.join("g.csv.tmp"), partial).unwrap();
        // The manifest must match the resumed settings: rewrite it for the longer run.
        let m = dir.join("g.csv.manifest.json");
        let games = (rows + 2).to_string();
        let manifest = std::fs::read_to_string(&m).unwrap();
        let manifest = manifest
            .replace("\"games\": 1,", &format!("\"games\": {games},"))
            .replace(
                "\"shard_range\": [\n    0,\n    1\n  ]",
                &format!("\"shard_range\": [\n    0,\n    {games}\n  ]"),
            );
        std::fs::write(&m, manifest).unwrap();
        let o = run(&games, true);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            std::fs::read_to_string(&out).unwrap().lines().count() as u64,
            rows + 3
        );
        peaks.push(peak_kb(&o));
    }
    if let [Some(small), Some(large)] = peaks[..] {
        assert!(
            large < small + 8_000,
            "peak {small} kB for 1,000 rows, {large} kB for 200,000"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn wok_star_warns_when_more_than_5_percent_of_days_end_at_the_day_limit() {
    let play = |players: &str, limit: &str| {
        let o = shifu(&[
            "play",
            "--game",
            "wok-star",
            "--players",
            players,
            "--agents",
            "greedy",
            "--games",
            "200",
            "--seed",
            "2026",
            "--quiet",
            "--set",
            "difficulty=mild",
            "--set",
            limit,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    // Greedy at 2 players: about 3% of days end at the 600 s limit, no warning.
    let out = play("2", "max_day_seconds=600");
    assert!(out.contains("day limit"), "{out}");
    assert!(!out.contains("WARNING"), "{out}");
    // A 20 s limit ends every day (a day of serving takes minutes of table time): warned.
    let out = play("2", "max_day_seconds=20");
    assert!(
        out.contains("WARNING") && out.contains("day limit (max_day_seconds)"),
        "{out}"
    );
}

/// Runs `shifu export` into `out` with extra options.
fn export(out: &std::path::Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "export",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--quiet",
        "--out",
    ];
    args.push(out.to_str().unwrap());
    args.extend_from_slice(extra);
    if !extra.contains(&"--agents") {
        args.extend_from_slice(&["--agents", "greedy"]);
    }
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(&args)
        .env("SHIFU_PEAK_MEMORY", "1")
        .output()
        .unwrap()
}

#[test]
fn export_writes_the_same_archive_whatever_the_thread_count() {
    let dir = tmpdir("export-threads");
    let (a, b) = (dir.join("a.npz"), dir.join("b.npz"));
    let one = export(&a, &["--games", "30", "--seed", "4", "--threads", "1"]);
    assert!(one.status.success(), "{}", stderr(&one));
    let two = export(&b, &["--games", "30", "--seed", "4", "--threads", "2"]);
    assert!(two.status.success(), "{}", stderr(&two));
    let (x, y) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(x, y, "the archives differ");
    // A zip archive of .npy files, no temporary files left behind.
    assert_eq!(&x[..4], b"PK\x03\x04");
    assert!(x.windows(15).any(|w| w == b"observation.npy"));
    assert!(!dir.join("a.npz.parts").exists() && !dir.join("a.npz.tmp").exists());
    assert!(
        stdout(&one).contains("decisions from 30 games"),
        "{}",
        stdout(&one)
    );
    let stored = export(&b, &["--games", "30", "--seed", "4", "--store"]);
    assert!(stored.status.success());
    assert!(
        std::fs::read(&b).unwrap().len() > x.len(),
        "stored is larger than deflated"
    );
    let other = export(&b, &["--games", "30", "--seed", "5"]);
    assert!(other.status.success());
    assert_ne!(
        x,
        std::fs::read(&b).unwrap(),
        "another seed, another archive"
    );
}

#[test]
fn export_memory_stays_flat_as_the_games_grow() {
    let dir = tmpdir("export-memory");
    let mut peaks = Vec::new();
    for games in ["40", "2000"] {
        let o = export(
            &dir.join("m.npz"),
            &["--games", games, "--agents", "random"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        if let Some(kb) = peak_kb(&o) {
            peaks.push(kb);
        }
    }
    if let [small, large] = peaks[..] {
        // 50 times the rows (about 300 MB of observations more, were they kept) with one batch
        // of games in memory: a batch of long games costs a few MB more than a short one.
        assert!(
            large < small + 16_000,
            "peak memory {small} kB for 40 games, {large} kB for 2000"
        );
    }
}

#[test]
fn export_refuses_bad_input_before_writing_anything() {
    let dir = tmpdir("export-hostile");
    let out = dir.join("x.npz");
    let bad = export(&out, &["--agents", "greedy:depth=3", "--games", "5"]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("depth"), "{}", stderr(&bad));
    assert!(!out.exists() && !dir.join("x.npz.parts").exists());
    let into_dir = export(&dir, &["--games", "5"]);
    assert_eq!(into_dir.status.code(), Some(2));
    assert!(
        stderr(&into_dir).contains("not a regular file"),
        "{}",
        stderr(&into_dir)
    );
    std::fs::create_dir(dir.join("x.npz.parts")).unwrap();
    let left = export(&out, &["--games", "5"]);
    assert_eq!(left.status.code(), Some(2));
    assert!(stderr(&left).contains("x.npz.parts"), "{}", stderr(&left));
}

/// Every registered game through the command, from the engine's list: `play --out` writes the
/// same file on one and two threads, `show` and `encoding` print, `--help` names the game, and a
/// player count or parameter it does not take exits 2 naming it.
#[test]
fn every_registered_game_plays_shows_encodes_and_refuses_bad_input() {
    let d = tmpdir("every-game");
    let help = stdout(&shifu(&["play", "--help"]));
    for info in shifu_engine::GAMES {
        let game = info.name;
        assert!(help.contains(game), "--help lacks {game}: {help}");
        let players = info.min_players.to_string();
        let csv = |threads: &str| {
            let out = d.join(format!("{game}-{threads}.csv"));
            let o = shifu(&[
                "play",
                "--game",
                game,
                "--players",
                &players,
                "--games",
                "8",
                "--threads",
                threads,
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{game}: {}", stderr(&o));
            std::fs::read(out).unwrap()
        };
        let one = csv("1");
        assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), 9, "{game}");
        assert_eq!(one, csv("2"), "{game}: one and two threads differ");
        let o = shifu(&["show", "--game", game, "--seed", "3"]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("legal actions"),
            "{game}: {}",
            stdout(&o)
        );
        let o = shifu(&["encoding", "--game", game, "--json"]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let last = v["layout"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            last["offset"].as_u64().unwrap() + last["len"].as_u64().unwrap(),
            v["observation_len"].as_u64().unwrap(),
            "{game}"
        );
        assert!(v["action_count"].as_u64().unwrap() > 0, "{game}");
        let too_many = (info.max_players + 1).to_string();
        for (args, needle) in [
            (vec!["--players", too_many.as_str()], info.players_text()),
            (vec!["--set", "no_such_knob=1"], "no_such_knob".to_string()),
        ] {
            let mut a = vec!["play", "--game", game, "--games", "5"];
            a.extend(args);
            let o = shifu(&a);
            assert_eq!(o.status.code(), Some(2), "{a:?}");
            assert!(stderr(&o).contains(&needle), "{a:?}: {}", stderr(&o));
        }
    }
    std::fs::remove_dir_all(&d).ok();
}

/// Runs `shifu train` on small Tofu Kingdom settings into `out`, with extra options.
fn train(out: &std::path::Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "train",
        "--game",
        "tofu-kingdom",
        "--players",
        "3",
        "--agent",
        "greedy",
        "--games",
        "6",
        "--quiet",
        "--out",
    ];
    args.push(out.to_str().unwrap());
    args.extend_from_slice(extra);
    for (key, value) in [("--tune", "points,opponent_share"), ("--duel-games", "12")] {
        if !extra.contains(&key) {
            args.extend_from_slice(&[key, value]);
        }
    }
    shifu(&args)
}

/// The curve without its wall-clock column.
fn curve(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("curve.csv"))
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn train_writes_a_champion_that_agents_load_and_a_curve() {
    let dir = tmpdir("train-files").join("run");
    let o = train(&dir, &["--generations", "3", "--seed", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["champion.toml", "curve.csv", "curve.svg", "checkpoint.json"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    assert_eq!(curve(&dir).lines().count(), 4, "a header and 3 generations");
    assert!(std::fs::read_to_string(dir.join("curve.svg"))
        .unwrap()
        .contains("<svg"));
    let spec = format!("greedy:weights={}", dir.join("champion.toml").display());
    let p = shifu(&[
        "play",
        "--game",
        "tofu-kingdom",
        "--players",
        "3",
        "--agents",
        &spec,
        "--games",
        "3",
    ]);
    assert!(p.status.success(), "{}", stderr(&p));
}

#[test]
fn train_resumed_or_on_other_thread_counts_gives_the_same_run() {
    let base = tmpdir("train-resume");
    let (whole, parts, one) = (base.join("whole"), base.join("parts"), base.join("one"));
    assert!(train(&whole, &["--generations", "4"]).status.success());
    assert!(train(&parts, &["--generations", "2"]).status.success());
    let resumed = train(&parts, &["--generations", "4", "--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(curve(&whole), curve(&parts));
    let champion = |d: &std::path::Path| std::fs::read_to_string(d.join("champion.toml")).unwrap();
    assert_eq!(champion(&whole), champion(&parts));
    assert!(train(&one, &["--generations", "4", "--threads", "1"])
        .status
        .success());
    assert_eq!(curve(&whole), curve(&one));
}

#[test]
fn train_refuses_bad_settings_with_exit_code_2() {
    let base = tmpdir("train-hostile");
    let dir = base.join("run");
    let cases: [(&[&str], &str); 5] = [
        (&["--tune", "nope"], "nope"),
        (&["--bounds", "points=2:3"], "--bounds points=2:3"),
        (&["--bounds", "steer=0:1"], "not among the tuned"),
        (&["--duel-games", "13"], "--duel-games 13"),
        (&["--alpha", "0.9"], "--alpha"),
    ];
    for (extra, needle) in cases {
        let o = train(&dir, extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{extra:?}: {}", stderr(&o));
    }
    assert!(train(&dir, &["--generations", "1"]).status.success());
    let again = train(&dir, &["--generations", "1"]);
    assert_eq!(
        again.status.code(),
        Some(2),
        "a checkpoint is not overwritten"
    );
    let other = train(&dir, &["--generations", "2", "--resume", "--seed", "9"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).contains("other settings"),
        "{}",
        stderr(&other)
    );
    std::fs::write(dir.join("checkpoint.json"), "{ not json").unwrap();
    let torn = train(&dir, &["--generations", "2", "--resume"]);
    assert_eq!(torn.status.code(), Some(2));
    assert!(
        stderr(&torn).contains("checkpoint.json"),
        "{}",
        stderr(&torn)
    );
}

/// Runs `shifu fit` on `input` (a Tofu Kingdom 4-player export) into `out`.
fn fit(input: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "fit",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--hidden",
        "4",
        "--epochs",
        "2",
        "--input",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    shifu(&args)
}

#[test]
fn fit_writes_a_model_that_mcts_uses_as_its_leaf_evaluation() {
    let dir = tmpdir("fit");
    let data = dir.join("d.npz");
    assert!(export(&data, &["--games", "40", "--seed", "3"])
        .status
        .success());
    let model = dir.join("m.json");
    let o = fit(&data, &model, &["--target", "td", "--lambda", "0.5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("held-out MSE"), "{}", stdout(&o));
    let again = dir.join("m2.json");
    assert!(fit(&data, &again, &["--target", "td", "--lambda", "0.5"])
        .status
        .success());
    assert_eq!(
        std::fs::read(&model).unwrap(),
        std::fs::read(&again).unwrap(),
        "a fit is a function of its data and seed"
    );
    // The next round of a generate-fit-evaluate loop starts from this model.
    let next = dir.join("m3.json");
    let o = fit(&data, &next, &["--init", model.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("from "), "{}", stdout(&o));
    let spec = format!("mcts:iters=30,depth=4,leaf={}", model.display());
    let duel = shifu(&[
        "duel",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--agents",
        &format!("{spec},greedy"),
        "--seeds",
        "4",
    ]);
    assert!(duel.status.success(), "{}", stderr(&duel));
}

#[test]
fn fit_and_leaf_refuse_bad_input_with_exit_code_2() {
    let dir = tmpdir("fit-hostile");
    let data = dir.join("d.npz");
    assert!(export(&data, &["--games", "20", "--seed", "3"])
        .status
        .success());
    let model = dir.join("m.json");
    // An export of another player count encodes another length.
    let o = shifu(&[
        "fit",
        "--game",
        "tofu-kingdom",
        "--players",
        "5",
        "--input",
        data.to_str().unwrap(),
        "--out",
        model.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("d.npz"), "{}", stderr(&o));
    assert!(!model.exists());
    std::fs::write(dir.join("junk.npz"), "junk").unwrap();
    let o = fit(&dir.join("junk.npz"), &model, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("junk.npz"), "{}", stderr(&o));
    let o = fit(&data, &model, &["--lambda", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(fit(&data, &model, &[]).status.success());
    // A model used by another game, or a torn model file, is refused before any game.
    let play = |spec: String, game: &str| {
        shifu(&[
            "play",
            "--game",
            game,
            "--players",
            "4",
            "--games",
            "2",
            "--agents",
            &spec,
        ])
    };
    let o = play(
        format!("mcts:iters=5,leaf={}", model.display()),
        "tofu-shifu",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("tofu-kingdom"), "{}", stderr(&o));
    std::fs::write(dir.join("torn.json"), "{\"game\": ").unwrap();
    let torn = dir.join("torn.json");
    let o = fit(
        &data,
        &dir.join("m4.json"),
        &["--init", torn.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("torn.json"), "{}", stderr(&o));
    let o = play(
        format!("mcts:iters=5,leaf={}", dir.join("torn.json").display()),
        "tofu-kingdom",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("torn.json"), "{}", stderr(&o));
}

#[test]
fn export_every_keeps_one_decision_in_k() {
    let dir = tmpdir("export-every");
    let count = |o: &Output| -> u64 {
        let out = stdout(o);
        let after = out.split_once(": ").unwrap().1;
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    let all = export(&dir.join("a.npz"), &["--games", "20", "--seed", "4"]);
    assert!(all.status.success(), "{}", stderr(&all));
    let third = export(
        &dir.join("b.npz"),
        &["--games", "20", "--seed", "4", "--every", "3"],
    );
    assert!(third.status.success(), "{}", stderr(&third));
    let (n, k) = (count(&all), count(&third));
    assert!(
        k * 3 >= n - 40 && k * 3 <= n + 40,
        "{n} decisions, {k} kept of every 3"
    );
    let zero = export(&dir.join("c.npz"), &["--games", "20", "--every", "0"]);
    assert_eq!(zero.status.code(), Some(2), "{}", stderr(&zero));
    assert!(!dir.join("c.npz").exists());
}

/// Issue 46, the first hour: `play`, `seats` and `sweep` default to greedy agents, whose games
/// end by the rules, not to random ones, whose games the round cap decides; `--help` says so.
#[test]
fn play_seats_and_sweep_default_to_greedy() {
    for args in [
        &["play", "--players", "2", "--games", "4", "--quiet"][..],
        &["seats", "--players", "2", "--games", "4", "--quiet"],
        &[
            "sweep",
            "--players",
            "2",
            "--games",
            "4",
            "--quiet",
            "--vary",
            "start_coins=1,2/2,2",
        ],
    ] {
        let o = shifu_as_is(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("agents greedy | greedy"),
            "{args:?}: {}",
            stdout(&o)
        );
    }
    let help = stdout(&shifu_as_is(&["seats", "--help"]));
    assert!(
        help.contains("[default: greedy]") && help.contains("round cap"),
        "{help}"
    );
}

/// Issue 46: no verdict (no chi-square, no balance, no fairest cell, no seat verdict) from
/// games above the capped-share limit; instead the output says the round cap decides them.
#[test]
fn no_verdict_from_games_the_round_cap_decides() {
    let common = [
        "--players",
        "2",
        "--games",
        "40",
        "--agents",
        "random",
        "--quiet",
    ];
    for cmd in ["play", "seats"] {
        let mut a = vec![cmd];
        a.extend(common);
        let o = shifu(&a);
        let out = stdout(&o);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            out.contains("no verdict") && out.contains("cap decides"),
            "{out}"
        );
        for verdict in ["equal chances", "balance (", "seat contrasts"] {
            assert!(!out.contains(verdict), "{cmd} printed `{verdict}`: {out}");
        }
        assert!(!out.lines().any(|l| l.starts_with("verdict: ")), "{out}");
    }
    let mut a = vec!["sweep", "--vary", "start_coins=1,2/2,2"];
    a.extend(common);
    let out = stdout(&shifu(&a));
    assert!(!out.lines().any(|l| l.starts_with("fairest cell")), "{out}");
    assert!(
        out.contains("no fairest cell") && out.contains("(cap decides)"),
        "{out}"
    );
    for line in out.lines().filter(|l| l.starts_with("  start_coins=")) {
        assert!(line.contains(": verdict: none:"), "{line}");
    }
}

/// Issue 46: `seats` adds what its help says: pairwise seat contrasts with intervals, Holm
/// corrected, and the ordering they show. Issue 48: the verdict (in `play` too) is the
/// equivalence test's: 30 games can neither show a gap nor show fairness within ±0.02.
#[test]
fn seats_adds_pairwise_contrasts_and_an_equivalence_verdict() {
    let o = shifu_as_is(&["seats", "--players", "3", "--games", "30", "--quiet"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    for line in [
        "seat 1 - seat 2:",
        "seat 1 - seat 3:",
        "seat 2 - seat 3:",
        "(Holm)",
    ] {
        assert!(out.contains(line), "{out}");
    }
    let verdict = out
        .lines()
        .find(|l| l.starts_with("verdict: "))
        .expect(&out);
    assert!(
        verdict.starts_with("verdict: undetermined at ±0.02:")
            && verdict.contains("games in all would settle it"),
        "{verdict}"
    );
    assert!(out.lines().any(|l| l.starts_with("ordering")), "{out}");
    // `play` prints no such analysis.
    let play = stdout(&shifu_as_is(&[
        "play",
        "--players",
        "3",
        "--games",
        "30",
        "--quiet",
    ]));
    assert!(!play.contains("seat contrasts"), "{play}");
    assert!(play.contains("\nverdict: undetermined at ±0.02:"), "{play}");
    // With --rotate the contrasts are paired on shared seeds.
    let o = shifu_as_is(&[
        "seats",
        "--players",
        "2",
        "--games",
        "20",
        "--agents",
        "greedy,random",
        "--rotate",
        "--quiet",
    ]);
    assert!(
        stdout(&o).contains("paired on 10 shared seeds"),
        "{}",
        stdout(&o)
    );
}

/// Issue 46: cooperative Wok Star prints the team's result (wins with an interval, days met,
/// margin), no win share per seat, no chi-square by seat, and no round cap line.
#[test]
fn cooperative_wok_star_prints_the_team_result() {
    for cmd in ["play", "seats"] {
        let o = shifu(&[
            cmd,
            "--game",
            "wok-star",
            "--players",
            "3",
            "--games",
            "6",
            "--quiet",
        ]);
        let out = stdout(&o);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            out.contains("team wins") && out.contains("mean days met"),
            "{out}"
        );
        assert!(out.contains("mean margin"), "{out}");
        for seat_line in ["win share", "chi-square", "round cap", "seat contrasts"] {
            assert!(
                !out.contains(seat_line),
                "{cmd} printed `{seat_line}`: {out}"
            );
        }
    }
}

/// Issue 46: p-values read `p = 0.73`, not `7.3e-1`.
#[test]
fn p_values_print_as_plain_numbers() {
    let out = stdout(&shifu_as_is(&[
        "play",
        "--players",
        "2",
        "--games",
        "20",
        "--quiet",
    ]));
    let line = out
        .lines()
        .find(|l| l.starts_with("equal chances"))
        .expect(&out);
    let p = line.split("p = ").nth(1).expect(line);
    assert!(p.starts_with("0.") || p.starts_with("1.0"), "{line}");
    assert!(!p.split(';').next().unwrap_or("").contains('e'), "{line}");
}

/// Issue 46: no Rust debug text (`ChoosePlayerCard { seat: 0 }`) in a printed position, and
/// Tofu Kingdom's cards by name (Queen Tofu), not by data id (queen_tofu).
#[test]
fn show_prints_card_names_and_no_rust_debug_text() {
    let o = shifu(&[
        "show",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--seed",
        "1",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("Prince Mochi") && out.contains("Princess Tofu"),
        "{out}"
    );
    assert!(
        !out.contains("_tofu") && !out.contains("prince_mochi"),
        "{out}"
    );
    for game in ["tofu-shifu", "tofu-kingdom", "wok-star", "ginza-retro-cafe"] {
        for take in ["0", "0,0,0"] {
            let o = shifu(&[
                "show",
                "--game",
                game,
                "--players",
                "3",
                "--seed",
                "7",
                "--take",
                take,
            ]);
            let out = stdout(&o);
            assert!(o.status.success(), "{game}: {}", stderr(&o));
            for debug in [
                " { ",
                "ChoosePlayerCard",
                "GiveIngredients",
                "WherePrincess",
                "PayHats",
            ] {
                assert!(!out.contains(debug), "{game} printed `{debug}`: {out}");
            }
        }
    }
}

/// Issue 46: did you mean, for a misspelled parameter, agent option and subcommand, and `/` for
/// a `--vary` list value split on commas; each still exits 2.
#[test]
fn did_you_mean_for_parameters_agent_options_subcommands_and_vary_lists() {
    for (args, want) in [
        (
            &["play", "--set", "start_coin=1", "--games", "1"][..],
            "did you mean `start_coins`?",
        ),
        (
            &["play", "--agents", "mcts:iter=10", "--games", "1"],
            "did you mean `iters`? mcts's options: iters",
        ),
        (&["plya"], "similar subcommands exist: 'replay', 'play'"),
        (
            &["sweep", "--vary", "start_coins=2,2,2,2", "--games", "1"],
            "list values are separated by `/`",
        ),
    ] {
        let o = shifu(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn too_few_production_cards_are_blamed_on_the_data_file_unless_hand_size_was_set() {
    let d = tmpdir("few-cards");
    let full = d.join("full.json");
    assert!(shifu(&["data", "--out", full.to_str().unwrap()])
        .status
        .success());
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&full).unwrap()).unwrap();
    v["production_cards"].as_array_mut().unwrap().truncate(14);
    v["supply"]["production_cards"] = 14.into();
    let few = d.join("few.json");
    std::fs::write(&few, v.to_string()).unwrap();
    let base = [
        "play",
        "--players",
        "4",
        "--games",
        "1",
        "--quiet",
        "--data",
    ];
    let mut args = base.to_vec();
    args.push(few.to_str().unwrap());
    let o = shifu(&args);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("few.json") && e.contains("production_cards") && !e.contains("parameter"),
        "{e}"
    );
    args.extend(["--set", "hand_size=3"]);
    let e = stderr(&shifu(&args));
    assert!(e.contains("parameter `hand_size`"), "{e}");
}

/// Issue 48: `--margin` is a share above 0 and below 0.5 on every command that prints a
/// verdict; anything else exits 2 naming the option.
#[test]
fn margin_outside_zero_to_one_half_is_refused() {
    for cmd in [
        vec!["play"],
        vec!["seats"],
        vec!["sweep", "--vary", "start_coins=1,2/2,2"],
        vec!["report", "run.csv", "--out", "r.md"],
    ] {
        for bad in ["0", "0.5", "-0.1", "nan", "x"] {
            let mut a = cmd.clone();
            a.extend(["--margin", bad, "--games", "2"]);
            if cmd[0] == "report" {
                a.truncate(a.len() - 2);
            }
            let o = shifu_as_is(&a);
            assert_eq!(o.status.code(), Some(2), "{a:?}");
            assert!(stderr(&o).contains("--margin"), "{a:?}: {}", stderr(&o));
        }
    }
}

/// Issue 48: Ginza Retro Café draws its first start player, so its verdict is by turn position
/// from that player: the shares tested are the game's own "wins by seat after the start player".
#[test]
fn ginza_verdict_is_by_turn_position_from_the_start_player() {
    let o = shifu_as_is(&[
        "play",
        "--game",
        "ginza-retro-cafe",
        "--players",
        "3",
        "--agents",
        "random",
        "--games",
        "40",
        "--quiet",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let line = j["game_lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l.as_str())
        .find(|l| l.starts_with("wins by seat after the start player"))
        .unwrap()
        .to_string();
    let comps = j["stats"]["equivalence"]["components"].as_array().unwrap();
    for (k, c) in comps.iter().enumerate() {
        assert_eq!(c["label"], format!("turn position {}", k + 1));
        let share = format!("{k}: {:.3}", c["mean"].as_f64().unwrap());
        assert!(line.contains(&share), "{share} not in {line}");
    }
}

/// Issue 48: the fairest cell of a sweep is re-tested on fresh seeds by the command the sweep
/// prints: it plays the cell's settings with another master seed.
#[test]
fn sweep_prints_a_retest_command_that_plays_the_fairest_cell_on_fresh_seeds() {
    let o = shifu_as_is(&[
        "sweep",
        "--players",
        "2",
        "--games",
        "30",
        "--seed",
        "5",
        "--vary",
        "start_coins=1,2/2,2",
        "--quiet",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let best = &j["best"];
    let cmd = best["retest"].as_str().unwrap();
    let cell = best["cell"].as_str().unwrap();
    assert!(
        cmd.starts_with("shifu seats ") && cmd.contains(&format!("--set {cell}")),
        "{cmd}"
    );
    assert!(cmd.ends_with("--seed 6"), "{cmd}");
    let p: f64 = j["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["p_best"].as_f64().unwrap())
        .sum();
    assert!((p - 1.0).abs() < 1e-9, "{p}");
    // --baseline names a cell as the table does; anything else exits 2 listing the cells.
    let bad = shifu_as_is(&[
        "sweep",
        "--players",
        "2",
        "--vary",
        "start_coins=1,2/2,2",
        "--baseline",
        "x=1",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("start_coins=2,2"), "{}", stderr(&bad));
    let args: Vec<&str> = cmd.split(' ').skip(1).chain(["--quiet"]).collect();
    let again = shifu_as_is(&args);
    assert!(again.status.success(), "{cmd}: {}", stderr(&again));
    assert!(
        stdout(&again).contains("master seed 6"),
        "{}",
        stdout(&again)
    );
}

/// Issue 48: `report` reads a run back and gives the verdict `play` gave for it, at the same
/// margin (rotated runs by seed, as the manifest says).
#[test]
fn report_gives_the_verdict_play_gave_for_the_same_run() {
    let d = tmpdir("report-verdict");
    let csv = d.join("run.csv");
    for margin in ["0.02", "0.2"] {
        let o = shifu_as_is(&[
            "play",
            "--players",
            "2",
            "--agents",
            "greedy,random",
            "--rotate",
            "--games",
            "24",
            "--margin",
            margin,
            "--quiet",
            "--out",
            csv.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let verdict = out
            .lines()
            .find(|l| l.starts_with("verdict: "))
            .expect(&out);
        let md = d.join("run.md");
        let r = shifu_as_is(&[
            "report",
            csv.to_str().unwrap(),
            "--out",
            md.to_str().unwrap(),
            "--margin",
            margin,
        ]);
        assert!(r.status.success(), "{}", stderr(&r));
        let text = std::fs::read_to_string(&md).unwrap();
        let expected = format!("**V{}**", &verdict[1..]);
        assert!(text.contains(&expected), "{expected}\n{text}");
    }
    std::fs::remove_dir_all(&d).ok();
}
