//! Hostile files (issue 46 §2 items 5, 9, 10, 11, 14, 15): devices and oversized files as
//! inputs, symlinks and devices as outputs, an output that is an input, two runs on one output.
//! Each is refused with exit 2 and a message naming the file or option.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `args`, killed after 20 s; expects exit 2 and every one of `words` in stderr.
fn refused(args: &[&str], words: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(20) {
            child.kill().ok();
            child.wait().ok();
            panic!("{args:?} ran past 20 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: `{w}` not in: {err}");
    }
}

/// Item 5: `/dev/urandom` as weights never ended; `/dev/zero` as weights, leaf model, data,
/// config or state was read until memory ran out.
#[test]
fn device_and_oversized_input_files_are_refused() {
    fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let p = ["play", "--players", "2", "--games", "1", "--quiet"];
        p.iter().chain(extra).copied().collect()
    }
    for dev in ["/dev/urandom", "/dev/zero"] {
        let w = format!("greedy:weights={dev}");
        refused(&with(&["--agents", &w]), &[dev, "regular file"]);
    }
    refused(
        &with(&["--agents", "mcts:iters=2,leaf=/dev/zero"]),
        &["/dev/zero", "regular file"],
    );
    refused(
        &with(&["--data", "/dev/zero"]),
        &["/dev/zero", "regular file"],
    );
    refused(
        &with(&["--config", "/dev/zero"]),
        &["/dev/zero", "regular file"],
    );
    refused(
        &["show", "--players", "2", "--state", "/dev/zero"],
        &["/dev/zero", "regular file"],
    );
    // A sparse file past the 64 MiB limit is refused by its size, the limit stated.
    let d = tmpdir("big");
    let big = d.join("big.toml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    refused(
        &with(&["--config", big.to_str().unwrap()]),
        &["big.toml", "64 MiB"],
    );
}

/// Item 9: sweep, calibrate, report and show --save-state wrote through symlinks and into
/// devices; every output now goes through a temporary file renamed over a regular target.
#[test]
fn writing_commands_refuse_symlink_and_device_targets() {
    let d = tmpdir("targets");
    let victim = d.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let link = d.join("link.csv");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let l = link.to_str().unwrap();
    let sweep = [
        "sweep",
        "--players",
        "2",
        "--games",
        "2",
        "--quiet",
        "--vary",
        "start_coins=1,2/2,2",
        "--out",
        l,
    ];
    refused(&sweep, &["link.csv", "symbolic link"]);
    refused(
        &["show", "--players", "2", "--save-state", l],
        &["link.csv", "symbolic link"],
    );
    refused(
        &["show", "--players", "2", "--save-state", "/dev/null"],
        &["/dev/null", "device"],
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    // A good run replaces a regular file whole, leaving no temporary file behind.
    let out = d.join("s.csv");
    std::fs::write(&out, "old").unwrap();
    let mut ok = sweep;
    ok[9] = out.to_str().unwrap();
    let o = shifu(&ok);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("cell,"));
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Item 15: `report adir` said only "Is a directory".
#[test]
fn report_of_a_directory_names_it() {
    let d = tmpdir("adir");
    let out = d.join("r.md");
    refused(
        &[
            "report",
            d.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &[d.to_str().unwrap(), "a directory", "not a regular file"],
    );
}

/// Item 10: `merge --out mg0.csv mg0.csv mg1.csv` exited 0 and replaced an input.
#[test]
fn merge_refuses_an_output_that_is_an_input() {
    let d = tmpdir("merge");
    let mut args = vec!["play", "--players", "2", "--games", "4", "--quiet"];
    let (a, b) = (d.join("mg0.csv"), d.join("mg1.csv"));
    args.extend(["--out", a.to_str().unwrap()]);
    assert!(shifu(&args).status.success());
    std::fs::copy(&a, &b).unwrap();
    let before = std::fs::read(&a).unwrap();
    // The same file under another spelling is still the same file.
    let other = d.join(".").join("mg0.csv");
    refused(
        &[
            "merge",
            "--out",
            other.to_str().unwrap(),
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        &["mg0.csv", "may not be an input"],
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);
}

/// Item 14: `--threads 5000` was accepted (the load average reached several hundred).
#[test]
fn threads_capped_at_four_per_core() {
    let max = shifu::setup::max_threads();
    let too_many = (max + 1).to_string();
    refused(
        &[
            "play",
            "--players",
            "2",
            "--games",
            "1",
            "--threads",
            &too_many,
        ],
        &["--threads", &format!("{max}"), "per core"],
    );
    refused(&["duel", "--threads", "5000"], &["--threads", "per core"]);
    let o = shifu(&[
        "play",
        "--players",
        "2",
        "--games",
        "2",
        "--quiet",
        "--threads",
        &max.to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn tofu_run(games: u64, threads: Option<usize>) -> (shifu::setup::GameArgs, shifu::setup::RunArgs) {
    let game = shifu::setup::GameArgs {
        game: "tofu-shifu".into(),
        players: Some(2),
        data: None,
        config: None,
        set: Vec::new(),
    };
    let run = shifu::setup::RunArgs {
        agents: "random".into(),
        games,
        seed: 1,
        rotate: false,
        threads,
    };
    (game, run)
}

/// Item 14: the Python binding's `threads=10**6` was accepted, and a long run ignored Ctrl-C:
/// the in-memory run it calls refuses the thread count and stops when its `stop` hook fails.
#[test]
fn in_memory_run_caps_threads_and_stops_on_request() {
    let (game, run) = tofu_run(10, Some(1_000_000));
    let Err(e) = shifu::play::play_in_memory(&game, &run, 0.02, None) else {
        panic!("threads=1000000 accepted")
    };
    assert!(format!("{e:#}").contains("threads"), "{e:#}");
    let (game, run) = tofu_run(1_000_000_000, Some(2));
    let t = Instant::now();
    let mut stop = || -> anyhow::Result<()> { anyhow::bail!("interrupted") };
    let Err(e) = shifu::play::play_in_memory_until(&game, &run, 0.02, None, &mut stop) else {
        panic!("a billion games finished")
    };
    assert!(format!("{e:#}").contains("interrupted"), "{e:#}");
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
}

/// Item 15: clap answered "unexpected argument '-1'" for a negative number.
#[test]
fn negative_number_names_the_option() {
    refused(
        &["play", "--players", "2", "--games", "-1"],
        &["--games", "-1"],
    );
    let o = shifu(&["play", "--players", "2", "--games", "-1"]);
    assert!(
        !stderr(&o).contains("unexpected argument"),
        "{}",
        stderr(&o)
    );
}

/// Item 15: two runs on one `--out` are detected by a lock file; one left by a killed run is
/// taken over.
#[test]
fn two_runs_on_one_out_are_detected_by_a_lock_file() {
    let d = tmpdir("lock");
    let out = d.join("run.csv");
    let lock = d.join("run.csv.lock");
    let args = [
        "play",
        "--players",
        "2",
        "--games",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    std::fs::write(&lock, format!("{}\n", std::process::id())).unwrap();
    refused(&args, &["another shifu run", "run.csv.lock"]);
    assert!(!out.exists());
    std::fs::write(&lock, "999999999\n").unwrap();
    let o = shifu(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.exists() && !lock.exists());
}

/// Item 11: a `train` killed before its first checkpoint refused `--resume`; it now starts
/// fresh and says so.
#[test]
fn train_resume_without_checkpoint_starts_fresh() {
    let d = tmpdir("train-fresh");
    let out = d.join("t");
    let o = shifu(&[
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
        "--tune",
        "points,opponent_share",
        "--duel-games",
        "12",
        "--generations",
        "1",
        "--resume",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("starting fresh"), "{}", stderr(&o));
}

/// Item 11: a killed `export` left `FILE.parts/` and the rerun refused until it was deleted by
/// hand; a rerun now removes its own leftovers (and still refuses a folder it did not make).
#[test]
fn export_rerun_cleans_its_own_leftover_parts() {
    let d = tmpdir("export-left");
    let out = d.join("x.npz");
    let parts = d.join("x.npz.parts");
    std::fs::create_dir(&parts).unwrap();
    std::fs::write(parts.join("shifu-export.pid"), "999999999\n").unwrap();
    std::fs::write(parts.join("obs.raw"), [0u8; 16]).unwrap();
    let args = [
        "export",
        "--game",
        "tofu-kingdom",
        "--players",
        "4",
        "--agents",
        "greedy",
        "--games",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = shifu(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("left by an export"), "{}", stderr(&o));
    assert!(out.exists() && !parts.exists());
}

/// Item 11: a killed `export` could only start over; `--resume` now continues it from its last
/// checkpoint, to the archive an uninterrupted run writes, byte for byte, and refuses other
/// settings.
#[test]
fn export_resume_continues_a_killed_export_to_the_same_bytes() {
    let d = tmpdir("export-resume");
    let run = |out: &std::path::Path, seed: &str, extra: &[&str], kill: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_shifu"));
        c.args([
            "export",
            "--game",
            "tofu-kingdom",
            "--players",
            "4",
            "--agents",
            "greedy,random,greedy,random",
            "--games",
            "48",
            "--threads",
            "2",
            "--quiet",
            "--seed",
            seed,
            "--out",
        ])
        .arg(out)
        .args(extra);
        if let Some(n) = kill {
            c.env("SHIFU_TEST_KILL_EXPORT_AFTER", n);
        }
        c.output().unwrap()
    };
    let (whole, part) = (d.join("whole.npz"), d.join("part.npz"));
    let o = run(&whole, "3", &[], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let killed = run(&part, "3", &[], Some("16"));
    assert!(!killed.status.success() && !part.exists());
    let parts = d.join("part.npz.parts");
    // Rows of a batch in flight at the kill, past the checkpoint, are dropped on resume.
    let mut obs = std::fs::OpenOptions::new()
        .append(true)
        .open(parts.join("observation.raw"))
        .unwrap();
    std::io::Write::write_all(&mut obs, b"torn").unwrap();
    let other = run(&part, "4", &["--resume"], None);
    assert_eq!(other.status.code(), Some(2), "{}", stderr(&other));
    assert!(stderr(&other).contains("master seed"), "{}", stderr(&other));
    let store = run(&part, "3", &["--resume", "--store"], None);
    assert_eq!(store.status.code(), Some(2), "{}", stderr(&store));
    assert!(stderr(&store).contains("--store"), "{}", stderr(&store));
    assert!(
        parts.join("progress.json").exists(),
        "a refused resume keeps the parts"
    );
    let resumed = run(&part, "3", &["--resume"], None);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("continuing") && stderr(&resumed).contains("after game 16"),
        "{}",
        stderr(&resumed)
    );
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&part).unwrap(),
        "the resumed archive differs from the uninterrupted one"
    );
    assert!(!parts.exists());
    // Nothing to resume: it starts fresh and says so.
    let fresh = d.join("fresh.npz");
    let o = run(&fresh, "3", &["--resume"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("starting fresh"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&fresh).unwrap()
    );
}

/// Item 15: a full disk said "No space left on device" without naming the file, and truncated a
/// good earlier file. With the disk full after 10 bytes (`SHIFU_TEST_FULL_DISK_AFTER`, the
/// error the kernel gives), `show --save-state` exits 2 naming the file, and the earlier file
/// and the folder are as they were.
#[test]
fn full_disk_names_the_file_and_keeps_the_earlier_one() {
    let d = tmpdir("full-disk");
    let pos = d.join("pos.json");
    std::fs::write(&pos, "a good earlier file").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(["show", "--seed", "7", "--take", "0", "--save-state"])
        .arg(&pos)
        .env("SHIFU_TEST_FULL_DISK_AFTER", "10")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("pos.json") && stderr(&o).contains("No space left on device"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&pos).unwrap(),
        "a good earlier file"
    );
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        1,
        "a temporary file was left"
    );
}
