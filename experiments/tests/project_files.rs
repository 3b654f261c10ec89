//! Issue 46, project files: the sample `--config` file loads through the real loader, shell
//! completions and the manual page generate, and LICENSE, CHANGELOG.md and Cargo.toml agree.

use shifu::setup::GameArgs;
use shifu_engine::tofu_shifu::TofuShifu;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn sample_config_loads_through_the_config_loader() {
    let args = GameArgs {
        game: "tofu-shifu".into(),
        players: None,
        data: None,
        config: Some(root().join("experiments/examples/config.toml")),
        set: Vec::new(),
    };
    let g: TofuShifu = args.build().expect("the sample config loads");
    assert_eq!(g.params.players, 4);
    assert_eq!(g.params.start_coins, Some(vec![2, 2, 2, 2]));
    assert_eq!(g.params.max_rounds, 200);
}

fn shifu(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("start shifu");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn shell_completions_and_the_man_page_generate() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = shifu(&["completions", shell]);
        assert!(
            script.contains("shifu") && script.contains("tournament"),
            "{shell}"
        );
    }
    assert!(shifu(&["completions", "bash"]).contains("--max-bytes"));
    let page = shifu(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH shifu"),
        "{page:.200}"
    );
    assert!(
        page.contains("SHIFU FIT") && page.contains("max\\-bytes"),
        "a section a subcommand"
    );
}

#[test]
fn license_changelog_and_manifest_agree() {
    let read = |p: &str| std::fs::read_to_string(root().join(p)).unwrap();
    let manifest = read("Cargo.toml");
    assert!(manifest.contains("license = \"MIT\""));
    assert!(
        !manifest.contains("example.invalid"),
        "no placeholder repository"
    );
    let license = read("LICENSE");
    assert!(license.starts_with("MIT License"));
    assert!(license.contains("the shifu developers"));
    let changelog = read("CHANGELOG.md");
    assert!(changelog.contains("## [Unreleased]"));
}
