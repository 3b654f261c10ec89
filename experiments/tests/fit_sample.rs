//! Issue 46: `shifu export --games 1000` then `shifu fit` failed on a 4 GB observation array
//! without a remedy. `fit` now streams the archive and, past `--max-bytes`, fits on a sample of
//! whole games, saying so.

use std::process::Command;

fn shifu(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("start shifu")
}

#[test]
fn fit_samples_whole_games_within_max_bytes() {
    let dir = std::env::temp_dir().join(format!("shifu-fit-sample-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let npz = dir.join("tk.npz");
    let model = dir.join("tk.json");
    let (npz_s, model_s) = (npz.to_str().unwrap(), model.to_str().unwrap());
    let game = ["--game", "tofu-kingdom", "--players", "4"];
    let mut export = game.to_vec();
    export.extend([
        "--agents", "random", "--games", "40", "--quiet", "--out", npz_s,
    ]);
    let mut args = vec!["export"];
    args.extend(export);
    let o = shifu(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // 40 games of about 150 decisions of 570 values: 13.5 MB of observations, 2 MB kept.
    let mut args = vec!["fit"];
    args.extend(game);
    args.extend([
        "--input",
        npz_s,
        "--out",
        model_s,
        "--hidden",
        "0",
        "--epochs",
        "1",
        "--max-bytes",
        "2000000",
    ]);
    let o = shifu(&args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{}{}",
        out,
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("a sample of") && out.contains("of its 40 games"),
        "{out}"
    );
    assert!(std::fs::metadata(&model).unwrap().len() > 0);
    // A limit below one game's observations names the remedies.
    let mut args = vec!["fit"];
    args.extend(game);
    args.extend(["--input", npz_s, "--out", model_s, "--max-bytes", "16"]);
    let o = shifu(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--max-bytes") && err.contains("--every"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
