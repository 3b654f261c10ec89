//! `SHIFU_MAX_GAMES=N`: an upper bound on every count that sets how long a run takes, for
//! trying the README's commands (and for CI, which runs each of them). It caps the values of
//! `--games`, `--seeds`, `--generations`, `--duel-games` (kept a multiple of `--players`),
//! `--epochs`, `dose`'s `--vectors` and `balance`'s `--max-games`, `--first-look`, `--validation-games` and `--batch`, and `iters=` in agent specs, at N, including the defaults a command line leaves
//! out; and it says so on standard error, so that nobody mistakes a cut run for the real one.

use std::ffi::OsString;

/// The environment variable.
pub const VAR: &str = "SHIFU_MAX_GAMES";

/// Flags whose value is a count to cap.
const COUNTED: &[&str] = &[
    "--games",
    "--seeds",
    "--generations",
    "--duel-games",
    "--epochs",
    "--max-games",
    "--first-look",
    "--validation-games",
    "--vectors",
    "--batch",
];

/// Defaults above any sensible cap, which a command line that leaves the flag out still gets:
/// (subcommand, flag, default).
const DEFAULTS: &[(&str, &str, u64)] = &[
    ("play", "--games", 10_000),
    ("seats", "--games", 10_000),
    ("sweep", "--games", 10_000),
    ("calibrate", "--games", 10_000),
    ("export", "--games", 100),
    ("tournament", "--seeds", 50),
    ("duel", "--seeds", 100),
    ("mechanics", "--seeds", 200),
    ("train", "--generations", 20),
    ("train", "--games", 64),
    ("train", "--duel-games", 400),
    ("fit", "--epochs", 10),
    ("balance", "--max-games", 12_800),
    ("balance", "--first-look", 100),
    ("balance", "--validation-games", 10_000),
    ("balance", "--batch", 100),
    ("dose", "--games", 10_000),
    ("dose", "--vectors", 64),
];

/// The command line with every count capped at `SHIFU_MAX_GAMES`, when it is set; a note on
/// standard error lists what was cut. A value that is not a positive number is an error.
pub fn cap_args(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let Some(raw) = std::env::var_os(VAR) else {
        return Ok(args);
    };
    let cap: u64 = raw
        .to_str()
        .and_then(|s| s.trim().parse().ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{VAR}={raw:?}: expected a whole number of at least 1"))?;
    let (args, cuts) = cap_with(args, cap);
    if !cuts.is_empty() {
        eprintln!(
            "note: {VAR}={cap} cuts this run short: {} (unset {VAR} for the full run)",
            cuts.join(", ")
        );
    }
    Ok(args)
}

/// [`cap_args`] with the cap given: the new arguments and a phrase for each cut.
fn cap_with(args: Vec<OsString>, cap: u64) -> (Vec<OsString>, Vec<String>) {
    let mut out: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if out.iter().any(|a| a == "--help" || a == "-h") {
        return (args, Vec::new());
    }
    let sub = out.get(1).cloned().unwrap_or_default();
    let players: u64 = value_of(&out, "--players")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut cuts = Vec::new();
    for &(cmd, flag, default) in DEFAULTS {
        if cmd == sub && default > cap && value_of(&out, flag).is_none() {
            out.push(flag.to_string());
            out.push(default.to_string());
        }
    }
    let mut i = 2;
    while i < out.len() {
        let (flag, inline) = match out[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (out[i].clone(), None),
        };
        let value_at = if inline.is_some() { i } else { i + 1 };
        let value = inline.or_else(|| out.get(i + 1).cloned());
        if let Some(value) = value {
            let new = if COUNTED.contains(&flag.as_str()) {
                value.parse::<u64>().ok().filter(|&n| n > cap).map(|n| {
                    let mut to = cap;
                    if flag == "--duel-games" {
                        to = cap.div_ceil(players) * players;
                    }
                    cuts.push(format!("{flag} {n} to {to}"));
                    to.to_string()
                })
            } else if flag == "--agents" || flag == "--agent" {
                cap_iters(&value, cap, &mut cuts)
            } else {
                None
            };
            if let Some(new) = new {
                out[value_at] = if value_at == i {
                    format!("{flag}={new}")
                } else {
                    new
                };
            }
        }
        i += 1;
    }
    (out.into_iter().map(OsString::from).collect(), cuts)
}

/// The value after `flag` (`--flag V` or `--flag=V`).
fn value_of(args: &[String], flag: &str) -> Option<String> {
    args.iter().enumerate().find_map(|(i, a)| {
        if a == flag {
            args.get(i + 1).cloned()
        } else {
            a.strip_prefix(flag)
                .and_then(|r| r.strip_prefix('='))
                .map(str::to_string)
        }
    })
}

/// Agent specs with every `iters=N` above the cap lowered to it; `None` when none was.
fn cap_iters(specs: &str, cap: u64, cuts: &mut Vec<String>) -> Option<String> {
    let mut changed = false;
    let parts: Vec<String> = specs
        .split(',')
        .map(|part| {
            let (head, kv) = match part.rsplit_once(':') {
                Some((h, kv)) => (format!("{h}:"), kv),
                None => (String::new(), part),
            };
            match kv
                .strip_prefix("iters=")
                .and_then(|n| n.parse::<u64>().ok())
            {
                Some(n) if n > cap => {
                    changed = true;
                    cuts.push(format!("iters={n} to {cap}"));
                    format!("{head}iters={cap}")
                }
                _ => part.to_string(),
            }
        })
        .collect();
    changed.then(|| parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str, cap: u64) -> (String, Vec<String>) {
        let args = line.split(' ').map(OsString::from).collect();
        let (out, cuts) = cap_with(args, cap);
        let out: Vec<String> = out.iter().map(|a| a.to_string_lossy().into()).collect();
        (out.join(" "), cuts)
    }

    #[test]
    fn max_games_caps_counts_iters_and_defaults() {
        let (line, cuts) = run(
            "shifu tournament --players 2 --agents random,greedy,mcts:iters=100,c=2 --seeds=50",
            8,
        );
        assert_eq!(
            line,
            "shifu tournament --players 2 --agents random,greedy,mcts:iters=8,c=2 --seeds=8"
        );
        assert_eq!(cuts, ["iters=100 to 8", "--seeds 50 to 8"]);
        let (line, _) = run("shifu train --players 5 --games 64", 4);
        assert_eq!(
            line,
            "shifu train --players 5 --games 4 --generations 4 --duel-games 5"
        );
        let (line, cuts) = run("shifu play --games 3", 4);
        assert_eq!((line.as_str(), cuts.len()), ("shifu play --games 3", 0));
    }
}
