//! Every `shifu` command in README.md runs as written: each command line of the README's
//! ```sh blocks that starts with `shifu ` (or `cargo run ... --bin shifu --`) runs, in order, in
//! one temporary folder (so files an earlier command writes are there for a later one), and
//! must exit 0. Counts are cut by `SHIFU_MAX_GAMES` (see experiments/src/limits.rs and the
//! README), which the binary reports on standard error; `SHIFU_README_MAX_GAMES` sets the cut
//! for this test (default 4).

use std::process::Command;

/// The README's command lines, in order, as `sh` runs them (`shifu` on the PATH).
fn readme_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("read README.md");
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let t = match t.split_once("cargo run") {
            Some(("", rest)) => match rest.split_once("--bin shifu --") {
                Some((_, args)) => format!("shifu{args}"),
                None => continue,
            },
            _ => t.to_string(),
        };
        if t.starts_with("shifu ") {
            out.push(t);
        }
    }
    out
}

#[test]
fn every_shifu_command_in_the_readme_runs_as_written() {
    let commands = readme_commands();
    assert!(commands.len() >= 25, "found only {commands:?}");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_shifu"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cap = std::env::var("SHIFU_README_MAX_GAMES").unwrap_or_else(|_| "4".into());
    let dir = std::env::temp_dir().join(format!("shifu-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut failed = Vec::new();
    for c in &commands {
        let started = std::time::Instant::now();
        let o = Command::new("sh")
            .args(["-c", c])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("SHIFU_MAX_GAMES", &cap)
            .output()
            .expect("run sh");
        eprintln!("{:6.1} s  {c}", started.elapsed().as_secs_f64());
        if !o.status.success() {
            failed.push(format!(
                "{c}\n  exit {:?}: {}",
                o.status.code(),
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failed.is_empty(),
        "README commands that failed:\n{}",
        failed.join("\n")
    );
}
