//! `shifu balance --shard k/n`: shards run at once with the same command and `--out` give the
//! one-machine result; a shard killed with -9 and rerun with `--resume` continues; a shard of
//! another command, a missing shard and a shard without `--out` are refused with exit 2.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

#[path = "common/kingdom_race.rs"]
mod kingdom_race;
use kingdom_race::KINGDOM;

fn command(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shifu"));
    c.args(KINGDOM)
        .arg("--json")
        .args(["--out", out.to_str().unwrap()])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

fn spawn(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Child {
    command(out, extra, env).spawn().expect("start shifu")
}

fn finish(c: Child) -> Output {
    c.wait_with_output().expect("wait for shifu")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-shard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A result without its timing.
fn result_only(bytes: &[u8]) -> Value {
    let mut v: Value = serde_json::from_slice(bytes).expect("JSON");
    v.as_object_mut().expect("an object").remove("seconds");
    v
}

fn one_machine(d: &Path) -> Value {
    let o = command(&d.join("one.json"), &[], &[]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    result_only(&o.stdout)
}

fn ok(o: &Output) -> &Output {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

#[test]
fn balance_shards_give_the_one_machine_result() {
    let d = tmpdir("same");
    let want = one_machine(&d);
    for n in [2, 3] {
        let out = d.join(format!("sharded-{n}.json"));
        let specs: Vec<String> = (0..n).map(|k| format!("{k}/{n}")).collect();
        let children: Vec<Child> = specs
            .iter()
            .map(|s| spawn(&out, &["--shard", s], &[]))
            .collect();
        for c in children {
            // Every shard prints the result.
            assert_eq!(result_only(&ok(&finish(c)).stdout), want, "{n} shards");
        }
        // Shard 0 wrote the file and removed the parts.
        assert_eq!(result_only(&std::fs::read(&out).unwrap()), want);
        assert!(!d.join(format!("sharded-{n}.json.parts")).exists());
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn balance_shard_killed_and_resumed_gives_the_same_result() {
    let d = tmpdir("kill");
    let want = one_machine(&d);
    let out = d.join("r.json");
    let first = spawn(&out, &["--shard", "0/2"], &[]);
    // Shard 1 is killed (SIGKILL) right after writing its second part.
    let killed = finish(spawn(
        &out,
        &["--shard", "1/2"],
        &[("SHIFU_TEST_KILL_BALANCE_AFTER", "2")],
    ));
    assert!(!killed.status.success(), "the kill hook did not fire");
    assert!(!out.exists());
    // Without --resume its parts are not overwritten.
    let o = command(&out, &["--shard", "1/2"], &[]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    let resumed = finish(spawn(&out, &["--shard", "1/2", "--resume"], &[]));
    assert_eq!(result_only(&ok(&resumed).stdout), want);
    assert_eq!(result_only(&ok(&finish(first)).stdout), want);
    assert_eq!(result_only(&std::fs::read(&out).unwrap()), want);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn balance_shard_of_another_command_is_refused() {
    let d = tmpdir("other");
    let out = d.join("r.json");
    let good = spawn(&out, &["--shard", "0/2", "--shard-wait", "60"], &[]);
    let other = spawn(
        &out,
        &["--shard", "1/2", "--seed", "9", "--shard-wait", "60"],
        &[],
    );
    for (o, name) in [(finish(good), "r.json.parts"), (finish(other), "shard-")] {
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("other options") && err.contains(name), "{err}");
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn balance_shard_refusals_exit_2() {
    let d = tmpdir("refused");
    let out = d.join("r.json");
    // A shard alone waits for the other's part, then names it.
    let o = command(&out, &["--shard", "0/2", "--shard-wait", "0.5"], &[])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("shard 1/2 did not write") && err.contains("look-1.shard-1-of-2"),
        "{err}"
    );
    let cases: &[(&[&str], &str)] = &[
        (&["--shard", "2/2"], "out of range"),
        (&["--shard", "x"], "expected k/n"),
        (
            &["--shard", "0/2", "--shard-count", "2"],
            "give one of them",
        ),
        (&["--shard", "0/2", "--shard-wait", "0"], "--shard-wait"),
    ];
    for (extra, needle) in cases {
        let o = command(&d.join("x.json"), extra, &[]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: `{needle}` not in {err}");
    }
    let mut c = Command::new(env!("CARGO_BIN_EXE_shifu"));
    let o = c
        .args(KINGDOM)
        .args(["--json", "--shard", "0/2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--shard needs --out"));
    std::fs::remove_dir_all(&d).ok();
}
