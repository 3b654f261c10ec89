//! `shifu train --method expert-iteration` end to end, on tiny settings: the files it writes,
//! byte-identical weights from the same seed (resumed or not, on 1 or 2 threads), and the
//! refusals of bad flags and foreign checkpoints (exit code 2, naming the flag or file).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A tiny expert-iteration run of Tofu Shifu at 2 players into `out`, with extra options.
fn train(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "train",
        "--method",
        "expert-iteration",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    let defaults = [
        ("--players", "2"),
        ("--games", "2"),
        ("--search-iters", "6"),
        ("--hidden", "8"),
        ("--blocks", "1"),
        ("--batch", "64"),
        ("--epochs", "1"),
        ("--duel-games", "4"),
        ("--explore", "4"),
        ("--threads", "1"),
    ];
    args.extend_from_slice(extra);
    for (k, v) in defaults {
        if !extra.contains(&k) {
            args.extend_from_slice(&[k, v]);
        }
    }
    shifu(&args)
}

fn bytes(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
}

#[test]
fn the_same_seed_gives_the_same_weights_resumed_or_not() {
    let base = tmpdir("expert-resume");
    let (whole, parts, two) = (base.join("whole"), base.join("parts"), base.join("two"));
    let o = train(&whole, &["--generations", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in [
        "incumbent.safetensors",
        "candidate.safetensors",
        "curve.csv",
        "curve.svg",
        "checkpoint.json",
    ] {
        assert!(whole.join(f).exists(), "{f}");
    }
    assert!(whole.join("state/buffer-2.safetensors").exists());
    assert!(
        !whole.join("state/buffer-1.safetensors").exists(),
        "old state files are dropped"
    );
    assert_eq!(
        std::fs::read_to_string(whole.join("curve.csv"))
            .unwrap()
            .lines()
            .count(),
        3
    );
    // One iteration, then a resumed run to two: as if killed after the first checkpoint.
    assert!(train(&parts, &["--generations", "1"]).status.success());
    let r = train(&parts, &["--generations", "2", "--resume"]);
    assert!(r.status.success(), "{}", stderr(&r));
    // The same run on two threads.
    assert!(train(&two, &["--generations", "2", "--threads", "2"])
        .status
        .success());
    for f in [
        "incumbent.safetensors",
        "candidate.safetensors",
        "state/buffer-2.safetensors",
    ] {
        assert_eq!(bytes(&whole, f), bytes(&parts, f), "{f}: resumed");
        assert_eq!(bytes(&whole, f), bytes(&two, f), "{f}: 2 threads");
    }
    // Training moved the candidate away from the first network.
    let first = base.join("first.safetensors");
    let init = shifu(&[
        "net",
        "init",
        "--players",
        "2",
        "--hidden",
        "8",
        "--blocks",
        "1",
        "--seed",
        "1",
        "--out",
        first.to_str().unwrap(),
    ]);
    assert!(init.status.success(), "{}", stderr(&init));
    assert_ne!(
        bytes(&whole, "candidate.safetensors"),
        std::fs::read(&first).unwrap()
    );
    // The trained network plays.
    let spec = format!(
        "az:model={},iters=0",
        whole.join("incumbent.safetensors").display()
    );
    let d = shifu(&[
        "duel",
        "--players",
        "2",
        "--agents",
        &format!("{spec},random"),
        "--seeds",
        "2",
    ]);
    assert!(d.status.success(), "{}", stderr(&d));
    std::fs::remove_dir_all(&base).ok();
}

/// Wok Star is cooperative: the gate plays seeds by two teams, so its cap need not be a
/// multiple of the players, and the run is the same on 1 and 2 threads.
#[test]
fn a_cooperative_run_gates_teams_the_same_on_any_thread_count() {
    let base = tmpdir("expert-coop");
    let run = |dir: &Path, threads| {
        let o = train(
            dir,
            &[
                "--game",
                "wok-star",
                "--generations",
                "2",
                "--duel-games",
                "3",
                "--eval-games",
                "2",
                "--threads",
                threads,
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let (one, two) = (base.join("one"), base.join("two"));
    run(&one, "1");
    run(&two, "2");
    for f in [
        "incumbent.safetensors",
        "candidate.safetensors",
        "state/buffer-2.safetensors",
    ] {
        assert_eq!(bytes(&one, f), bytes(&two, f), "{f}: 2 threads");
    }
    let curve = std::fs::read_to_string(one.join("curve.csv")).unwrap();
    let header: Vec<&str> = curve.lines().next().unwrap().split(',').collect();
    let col = |name| header.iter().position(|h| *h == name).unwrap();
    for row in curve.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        let games: u64 = cells[col("gate_games")].parse().unwrap();
        assert!((1..=3).contains(&games), "{row}");
    }
    std::fs::remove_dir_all(&base).ok();
}

/// `--search-options`: the expert's leaves valued by greedy rollouts play other self-play
/// games than the network's value alone, the same ones again from the same seed, and a resume
/// must give the same options.
#[test]
fn search_options_value_the_experts_leaves_and_a_resume_keeps_them() {
    let base = tmpdir("expert-leaf");
    let rollouts = ["--search-options", "rollout=1,rollout_by=greedy,depth=2"];
    let run = |dir: &Path, extra: &[&str]| {
        let o = train(dir, &[extra, &["--generations", "1"]].concat());
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
    };
    let (plain, greedy, again) = (base.join("plain"), base.join("greedy"), base.join("again"));
    run(&plain, &[]);
    run(&greedy, &rollouts);
    run(&again, &rollouts);
    let buffer = "state/buffer-1.safetensors";
    assert_ne!(bytes(&plain, buffer), bytes(&greedy, buffer), "no change");
    assert_eq!(
        bytes(&greedy, buffer),
        bytes(&again, buffer),
        "not repeatable"
    );
    let o = train(
        &greedy,
        &[
            "--resume",
            "--generations",
            "2",
            "--search-options",
            "rollout=0.5",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--search-options"), "{}", stderr(&o));
    std::fs::remove_dir_all(&base).ok();
}

/// `--value-target mix`: the same self-play games with other value targets in the buffer, and
/// a resume must give the same target.
#[test]
fn a_value_target_changes_the_buffers_values_and_a_resume_keeps_it() {
    let base = tmpdir("expert-value-target");
    let (plain, mix) = (base.join("plain"), base.join("mix"));
    for (dir, extra) in [(&plain, &[][..]), (&mix, &["--value-target", "mix"][..])] {
        let o = train(dir, &[extra, &["--generations", "1"]].concat());
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
    }
    let buffer = "state/buffer-1.safetensors";
    assert_eq!(
        bytes(&plain, buffer).len(),
        bytes(&mix, buffer).len(),
        "the same positions"
    );
    assert_ne!(bytes(&plain, buffer), bytes(&mix, buffer), "no change");
    let o = train(
        &mix,
        &["--resume", "--generations", "2", "--value-target", "search"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--value-target"), "{}", stderr(&o));
    std::fs::remove_dir_all(&base).ok();
}

/// `--warm-agent greedy --warm-games N`: the network imitates greedy before the first
/// iteration; the run resumes to the same weights (the warm start is not redone), keeps the
/// warm start's figures in its checkpoint, and a resume with another warm start is refused.
#[test]
fn a_warm_start_imitates_greedy_and_resumes_to_the_same_weights() {
    let base = tmpdir("expert-warm");
    let (whole, parts, cold) = (base.join("whole"), base.join("parts"), base.join("cold"));
    let warm = [
        "--warm-agent",
        "greedy",
        "--warm-games",
        "3",
        "--warm-epochs",
        "2",
    ];
    let args = |g: &'static str, resume: bool| {
        let mut a = vec!["--generations", g];
        a.extend_from_slice(&warm);
        if resume {
            a.push("--resume");
        }
        a
    };
    let o = train(&whole, &args("2", false));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("warm start: imitated greedy over 3 games (0 capped), one decision in 8"),
        "{out}"
    );
    let checkpoint = std::fs::read_to_string(whole.join("checkpoint.json")).unwrap();
    assert!(
        checkpoint.contains("\"warm_agent\": \"greedy\""),
        "{checkpoint}"
    );
    assert!(checkpoint.contains("\"positions\""), "{checkpoint}");
    let curve = std::fs::read_to_string(whole.join("curve.csv")).unwrap();
    assert!(curve.lines().next().unwrap().contains("selfplay_capped"));
    // Where self-play's time went: the encoding is measured apart, and is part of the rest.
    let header: Vec<&str> = curve.lines().next().unwrap().split(',').collect();
    let last: Vec<&str> = curve.lines().last().unwrap().split(',').collect();
    let col = |name: &str| -> f64 {
        let i = header.iter().position(|h| *h == name).unwrap();
        last[i].parse().unwrap()
    };
    let (game, encode) = (col("game_share"), col("encode_share"));
    assert!(
        encode > 0.0 && encode < game && game < 1.0,
        "{game} {encode}"
    );
    assert!(
        out.contains("% encoding positions for the network"),
        "{out}"
    );
    assert!(train(&parts, &args("1", false)).status.success());
    let r = train(&parts, &args("2", true));
    assert!(r.status.success(), "{}", stderr(&r));
    for f in ["incumbent.safetensors", "candidate.safetensors"] {
        assert_eq!(bytes(&whole, f), bytes(&parts, f), "{f}: resumed");
    }
    // Without the warm start the weights differ.
    assert!(train(&cold, &["--generations", "2"]).status.success());
    assert_ne!(
        bytes(&whole, "candidate.safetensors"),
        bytes(&cold, "candidate.safetensors")
    );
    // Resuming with another warm start, or another capped value, is refused.
    let mut other = args("3", true);
    other[5] = "4";
    let o = train(&whole, &other);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("other settings"), "{}", stderr(&o));
    let mut other = args("3", true);
    other.extend_from_slice(&["--capped-value", "skip"]);
    let o = train(&whole, &other);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    std::fs::remove_dir_all(&base).ok();
}

#[test]
fn bad_flags_and_foreign_checkpoints_are_refused_with_exit_code_2() {
    let base = tmpdir("expert-hostile");
    let dir = base.join("run");
    let file = base.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let cases: [(&[&str], &str); 22] = [
        (&["--warm-agent", "greedy"], "--warm-games"),
        (&["--warm-games", "3"], "--warm-agent"),
        (
            &["--warm-agent", "nonsense", "--warm-games", "2"],
            "--warm-agent nonsense",
        ),
        (
            &[
                "--warm-agent",
                "greedy",
                "--warm-games",
                "2",
                "--warm-epochs",
                "0",
            ],
            "--warm-epochs",
        ),
        (&["--warm-every", "0"], "--warm-every"),
        (
            &["--warm-agent", "mcts:time_ms=5", "--warm-games", "2"],
            "time budget",
        ),
        (
            &[
                "--warm-agent",
                "greedy",
                "--warm-games",
                "200000",
                "--warm-every",
                "1",
            ],
            "20000",
        ),
        (&["--sample-every", "0"], "--sample-every"),
        (&["--capped-value", "maybe"], "--capped-value"),
        (&["--games", "0"], "--games"),
        (&["--generations", "0"], "--generations"),
        (&["--batch", "0"], "--batch"),
        (&["--epochs", "0"], "--epochs"),
        (&["--buffer", "0"], "--buffer"),
        (&["--search-iters", "0"], "--search-iters"),
        (&["--lr", "-1"], "--lr"),
        (&["--hidden", "0"], "--hidden"),
        (&["--elo0", "10", "--elo1", "5"], "--elo0"),
        (&["--duel-games", "3"], "--duel-games 3"),
        (&["--beta", "0.7"], "--beta"),
        (&["--search-options", "iters=3"], "--search-options iters=3"),
        (
            &["--search-options", "rollout_by=greedy"],
            "--search-options rollout_by=greedy",
        ),
    ];
    for (extra, needle) in cases {
        let o = train(&dir, extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{extra:?}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains("panicked"),
            "{extra:?}: {}",
            stderr(&o)
        );
    }
    // --out is a file.
    let o = train(&file, &["--generations", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a-file"), "{}", stderr(&o));
    // --resume of a folder whose checkpoint is not one of ours.
    let junk = base.join("junk");
    std::fs::create_dir_all(&junk).unwrap();
    std::fs::write(junk.join("checkpoint.json"), "{\"settings\": 1}").unwrap();
    let o = train(&junk, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not an expert-iteration checkpoint"),
        "{}",
        stderr(&o)
    );
    let o = train(&base.join("missing"), &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    // A checkpoint of another game, and of other settings.
    assert!(train(&dir, &["--generations", "1"]).status.success());
    let o = train(
        &dir,
        &[
            "--generations",
            "2",
            "--resume",
            "--players",
            "3",
            "--duel-games",
            "6",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("checkpoint.json") && stderr(&o).contains("2 players"),
        "{}",
        stderr(&o)
    );
    let o = train(&dir, &["--generations", "2", "--resume", "--lr", "0.5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("other settings (--lr 0.001 (this run: 0.5))"),
        "{}",
        stderr(&o)
    );
    // A new run never overwrites a checkpoint.
    let o = train(&dir, &["--generations", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    // A damaged state file is refused naming it.
    std::fs::write(dir.join("state/buffer-1.safetensors"), "garbage").unwrap();
    let o = train(&dir, &["--generations", "2", "--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("buffer-1.safetensors"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&base).ok();
}

/// Every committed bot (`results/bots/<game>-<players>p.safetensors`) still loads for its game
/// (its encoding matches) and plays a game to the end, alone and with search.
#[test]
fn the_committed_bots_load_and_play() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/bots");
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".safetensors") else {
            continue;
        };
        let (game, players) = stem.rsplit_once('-').expect("<game>-<players>p");
        let game = game.replace('_', "-");
        let players = players.strip_suffix('p').expect("<players>p");
        for search in ["iters=0", "iters=4"] {
            let spec = format!("az:model={},{search}", path.display());
            let o = shifu(&[
                "duel",
                "--game",
                &game,
                "--players",
                players,
                "--agents",
                &format!("{spec},random"),
                "--seeds",
                "1",
            ]);
            assert!(o.status.success(), "{name}: {}", stderr(&o));
        }
        seen += 1;
    }
    assert!(seen >= 1, "no bot in {}", dir.display());
}
