//! The committed hostile corpus (tests/hostile/, made by make_corpus.py): 280 mutated card data
//! files, 284 mutated saved states and 413 bad command lines (Tofu Shifu, Tofu Kingdom, Wok Star). Every one must exit 0 or 2 (never a
//! panic's 101 or a signal) within a time limit, and a refusal must name the file it refuses.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs shifu with `args`, killing it after `limit`; returns (exit code, stderr).
fn run(args: &[String], limit: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start shifu");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child.stderr.take().unwrap().read_to_string(&mut err).ok();
            return (status.code(), err);
        }
        if started.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("{args:?} ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn corpus(dir: &str) -> Vec<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&d)
        .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// Checks one run: 0 or 2, no panic; a refusal of `file` names it.
fn check(args: Vec<String>, file: Option<&Path>) -> Option<i32> {
    let (code, err) = run(&args, Duration::from_secs(60));
    assert!(
        matches!(code, Some(0) | Some(2)) && !err.contains("panicked"),
        "{args:?} exited {code:?}: {err}"
    );
    if let (Some(2), Some(f)) = (code, file) {
        let name = f.file_name().unwrap().to_string_lossy();
        assert!(
            err.contains(name.as_ref()),
            "{args:?}: the error does not name the file: {err}"
        );
    }
    code
}

/// Runs the cases on two threads; returns how many were refused (exit 2).
fn run_all(cases: Vec<(Vec<String>, Option<PathBuf>)>) -> usize {
    let refused = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for part in 0..2 {
            let (cases, refused) = (&cases, &refused);
            s.spawn(move || {
                for (args, file) in cases.iter().skip(part).step_by(2) {
                    if check(args.clone(), file.as_deref()) == Some(2) {
                        refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    refused.into_inner()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn mutated_card_data_files_are_refused_naming_the_file_or_play() {
    let files = corpus("data");
    assert!(files.len() >= 200, "{}", files.len());
    let cases = files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy();
            let mut args = if name.starts_with("ws") {
                strings(&["play", "--game", "wok-star", "--players", "3"])
            } else if f.extension().is_some_and(|e| e == "yaml") {
                strings(&["play", "--game", "tofu-kingdom", "--players", "4"])
            } else {
                strings(&["play", "--players", "2"])
            };
            args.extend(strings(&["--games", "2", "--quiet", "--data"]));
            args.push(f.to_string_lossy().into_owned());
            (args, Some(f.clone()))
        })
        .collect();
    let refused = run_all(cases);
    assert!(
        refused * 2 > files.len(),
        "only {refused} of {} refused",
        files.len()
    );
}

#[test]
fn mutated_saved_states_are_refused_naming_the_file_or_shown() {
    let files = corpus("states");
    assert!(files.len() >= 200, "{}", files.len());
    let cases = files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy();
            let mut args = if name.starts_with("ws") {
                strings(&["show", "--game", "wok-star", "--players", "4"])
            } else if name.starts_with("tk") {
                strings(&["show", "--game", "tofu-kingdom", "--players", "5"])
            } else {
                strings(&["show", "--players", "3"])
            };
            args.push("--state".into());
            args.push(f.to_string_lossy().into_owned());
            (args, Some(f.clone()))
        })
        .collect();
    let refused = run_all(cases);
    assert!(
        refused * 2 > files.len(),
        "only {refused} of {} refused",
        files.len()
    );
}

#[test]
fn bad_command_lines_exit_0_or_2_and_never_panic_or_hang() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/cli.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() >= 150, "{}", lines.len());
    let cases = lines
        .iter()
        .map(|l| (l.split_whitespace().map(String::from).collect(), None))
        .collect();
    let refused = run_all(cases);
    assert!(
        refused * 10 > lines.len() * 9,
        "only {refused} of {} refused",
        lines.len()
    );
}
