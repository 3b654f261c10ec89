//! `shifu report --html`: each kind of result (run, sweep, balance, tournament, dose) gives a
//! self-contained page whose charts carry the values of the input in their data attributes;
//! strings from the files stay inert; malformed files are refused with exit 2, naming the file
//! and the field.

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(args)
        .output()
        .expect("run shifu")
}

fn ok(args: &[&str]) -> Output {
    let o = shifu(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shifu-report-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The page at `path`, checked to be self-contained: no network address but the SVG namespace,
/// no external resource, one script element.
fn page(path: &Path) -> String {
    let html = std::fs::read_to_string(path).unwrap();
    let rest = html.replace("http://www.w3.org/2000/svg", "");
    assert!(
        !rest.contains("http://") && !rest.contains("https://"),
        "{}",
        path.display()
    );
    for banned in [
        "src=",
        "href=",
        "<link",
        "url(",
        "@import",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!html.contains(banned), "{}: `{banned}`", path.display());
    }
    assert_eq!(html.matches("<script").count(), 1, "{}", path.display());
    html
}

fn unescape(v: &str) -> String {
    v.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The attributes of every element whose class list holds `class`.
fn elements(html: &str, class: &str) -> Vec<HashMap<String, String>> {
    let mut out = Vec::new();
    for tag in html.split('<').skip(1) {
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        let mut attrs = HashMap::new();
        let mut rest = tag;
        while let Some(eq) = rest.find("=\"") {
            let name = rest[..eq].rsplit(' ').next().unwrap().to_string();
            let after = &rest[eq + 2..];
            let end = after.find('"').unwrap();
            attrs.insert(name, unescape(&after[..end]));
            rest = &after[end + 1..];
        }
        if attrs
            .get("class")
            .is_some_and(|c| c.split(' ').any(|x| x == class))
        {
            out.push(attrs);
        }
    }
    out
}

fn num(a: &HashMap<String, String>, k: &str) -> f64 {
    a[k].parse()
        .unwrap_or_else(|_| panic!("{k}: {:?}", a.get(k)))
}

#[test]
fn a_run_page_holds_the_seat_shares_of_its_file() {
    let dir = tmpdir("run");
    let (csv, html, md) = (
        dir.join("run.csv"),
        dir.join("run.html"),
        dir.join("run.md"),
    );
    ok(&[
        "play",
        "--players",
        "3",
        "--agents",
        "greedy",
        "--games",
        "40",
        "--out",
        s(&csv),
    ]);
    ok(&["report", s(&csv), "--html", s(&html), "--out", s(&md)]);
    assert!(md.exists() && dir.join("run.seats.svg").exists());
    let page = page(&html);
    assert!(page.contains("data-kind=\"run\""));
    // Win shares straight from the winners column.
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let head = r.headers().unwrap().clone();
    let (wi, ci) = (
        head.iter().position(|h| h == "winners").unwrap(),
        head.iter().position(|h| h == "capped").unwrap(),
    );
    let (mut wins, mut games, mut capped) = ([0.0; 3], 0.0, 0);
    for rec in r.records() {
        let rec = rec.unwrap();
        let w: Vec<usize> = rec[wi].split('|').map(|x| x.parse().unwrap()).collect();
        for &x in &w {
            wins[x - 1] += 1.0 / w.len() as f64;
        }
        games += 1.0;
        capped += usize::from(&rec[ci] == "true");
    }
    let bars: Vec<_> = elements(&page, "bar")
        .into_iter()
        .filter(|b| b.contains_key("data-seat"))
        .collect();
    assert_eq!(bars.len(), 3);
    for b in &bars {
        let seat: usize = b["data-seat"].parse().unwrap();
        assert!((num(b, "data-share") - wins[seat - 1] / games).abs() < 1e-12);
        assert!(num(b, "data-ci-low") <= num(b, "data-share"));
    }
    let chart = &elements(&page, "seat-chart")[0];
    assert!(
        ["fair", "unfair", "undetermined", "no_verdict"].contains(&chart["data-verdict"].as_str())
    );
    assert_eq!(elements(&page, "band").len(), 1);
    let lengths = &elements(&page, "length-chart")[0];
    assert_eq!(lengths["data-games"], "40");
    assert_eq!(lengths["data-capped"], capped.to_string());
    let histogram: u64 = elements(&page, "bar")
        .iter()
        .filter(|b| b.contains_key("data-from"))
        .map(|b| b["data-games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(histogram, 40);
    assert_eq!(page.matches("button class=\"export\"").count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sweep_heatmap_has_a_cell_per_setting_with_the_files_verdict() {
    let dir = tmpdir("sweep");
    let (csv, html) = (dir.join("sweep.csv"), dir.join("sweep.html"));
    ok(&[
        "sweep",
        "--players",
        "2",
        "--vary",
        "start_coins=1,1/2,2/3,3",
        "--vary",
        "max_rounds=30,80",
        "--games",
        "8",
        "--quiet",
        "--out",
        s(&csv),
    ]);
    ok(&["report", s(&csv), "--html", s(&html)]);
    let page = page(&html);
    let cells = elements(&page, "cell");
    assert_eq!(cells.len(), 6);
    let map = &elements(&page, "heatmap")[0];
    assert_eq!(
        (map["data-rows"].as_str(), map["data-cols"].as_str()),
        ("3", "2")
    );
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let head = r.headers().unwrap().clone();
    let col = |n: &str| head.iter().position(|h| h == n).unwrap();
    let (vi, ui) = (col("verdict"), col("unfairness"));
    let mut seen = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        let c = cells
            .iter()
            .find(|c| c["data-cell"] == rec[0])
            .expect("a cell per row");
        assert_eq!(c["data-verdict"], rec[vi]);
        assert_eq!(
            c["data-gap"].parse::<f64>().ok(),
            rec[ui].parse::<f64>().ok()
        );
        let (row, column) = rec[0].split_once(' ').unwrap();
        assert_eq!(
            (c["data-row"].as_str(), c["data-col"].as_str()),
            (row, column)
        );
        seen += 1;
    }
    assert_eq!(seen, 6);
    // max_rounds=30 stops most games: those cells are grey, without a verdict.
    for c in cells.iter().filter(|c| c["data-verdict"] == "no_verdict") {
        assert_eq!(c["fill"], "#bdbdbd");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_balance_page_draws_the_race_and_the_pareto_front() {
    let dir = tmpdir("balance");
    let (json, html) = (dir.join("bal.json"), dir.join("bal.html"));
    ok(&[
        "balance",
        "--players",
        "2",
        "--agents",
        "random",
        "--search",
        "start_coins=0..1",
        "--first-look",
        "4",
        "--max-games",
        "8",
        "--finalists",
        "2",
        "--validation-games",
        "4",
        "--quiet",
        "--out",
        s(&json),
    ]);
    ok(&["report", s(&json), "--html", s(&html)]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let page = page(&html);
    let entries = v["race_entries"].as_array().unwrap();
    let points = elements(&page, "point");
    // Every setting in the race chart, every survivor again in the front's.
    let alive = entries
        .iter()
        .filter(|e| e["eliminated_at_look"].is_null())
        .count();
    assert_eq!(points.len(), entries.len() + alive);
    let finalists: Vec<&str> = v["race"]["finalists"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            entries[i.as_u64().unwrap() as usize]["name"]
                .as_str()
                .unwrap()
        })
        .collect();
    for p in &points {
        let is_final = finalists.contains(&p["data-setting"].as_str());
        assert_eq!(p["data-status"] == "finalist", is_final, "{p:?}");
    }
    // The front by hand: lowest estimate, then distance, no survivor better on both.
    let key = |e: &Value| {
        (
            e["estimate"][0].as_f64().unwrap(),
            e["distance"].as_f64().unwrap(),
        )
    };
    let front: Vec<&str> = entries
        .iter()
        .filter(|c| {
            !entries.iter().any(|b| {
                let (a, c) = (key(b), key(c));
                a.0 <= c.0 && a.1 <= c.1 && (a.0 < c.0 || a.1 < c.1)
            })
        })
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let mut marked: Vec<&str> = points
        .iter()
        .filter(|p| p.get("data-pareto").is_some())
        .map(|p| p["data-setting"].as_str())
        .collect();
    marked.sort();
    let mut want = front.clone();
    want.sort();
    assert_eq!(marked, want);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_kept_balance_results_have_pages() {
    let dir = tmpdir("kept");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/balance");
    for name in ["tofu_kingdom_4p_greedy.json", "efficiency_3p_race.json"] {
        let html = dir.join("p.html");
        ok(&["report", s(&root.join(name)), "--html", s(&html)]);
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(root.join(name)).unwrap()).unwrap();
        let page = page(&html);
        let race = elements(&page, "race-chart");
        assert_eq!(
            race[0]["data-settings"],
            v["race_entries"].as_array().unwrap().len().to_string()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tournament_page_holds_the_ratings() {
    let dir = tmpdir("tournament");
    let html = dir.join("t.html");
    for sprt in [false, true] {
        let mut args = vec![
            "tournament",
            "--players",
            "2",
            "--agents",
            "greedy,random",
            "--seeds",
            "6",
            "--json",
        ];
        if sprt {
            args.push("--sprt");
        }
        let out = ok(&args);
        let json = dir.join("t.json");
        std::fs::write(&json, &out.stdout).unwrap();
        ok(&["report", s(&json), "--html", s(&html)]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let page = page(&html);
        if sprt {
            let p = &elements(&page, "llr")[0];
            assert_eq!(num(p, "data-llr"), v["llr"].as_f64().unwrap());
            assert_eq!(p["data-decision"], v["decision"].as_str().unwrap());
        } else {
            let points = elements(&page, "point");
            assert_eq!(points.len(), 2);
            for (p, r) in points.iter().zip(v["ratings"].as_array().unwrap()) {
                assert_eq!(p["data-agent"], r["agent"].as_str().unwrap());
                assert_eq!(num(p, "data-elo"), r["elo"].as_f64().unwrap());
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dose_page_holds_the_curves_from_json_and_csv() {
    let dir = tmpdir("dose");
    let (csv, json, html) = (dir.join("d.csv"), dir.join("d.json"), dir.join("d.html"));
    let out = ok(&[
        "dose",
        "--players",
        "2",
        "--agents",
        "greedy",
        "--vary",
        "town_objective_cost_scale=0.5..1.5:0.5",
        "--games",
        "4",
        "--quiet",
        "--json",
        "--out",
        s(&csv),
    ]);
    std::fs::write(&json, &out.stdout).unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    for input in [&json, &csv] {
        ok(&["report", s(input), "--html", s(&html)]);
        let page = page(&html);
        let charts = elements(&page, "dose-chart");
        assert_eq!(charts.len(), 3);
        let seat2: Vec<_> = elements(&page, "point")
            .into_iter()
            .filter(|p| p["data-series"] == "seat 2")
            .collect();
        let points = v["points"].as_array().unwrap();
        assert_eq!(seat2.len(), points.len());
        for (p, want) in seat2.iter().zip(points) {
            assert_eq!(num(p, "data-x"), want["value"].as_f64().unwrap());
            assert_eq!(
                num(p, "data-y"),
                want["seats"][1]["win_share"].as_f64().unwrap()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn strings_from_files_stay_inert() {
    let dir = tmpdir("hostile");
    let evil = "</script><script>alert(1)</script><img onerror=alert(2)>";
    // A run whose game name and agents are markup.
    let (csv, html) = (dir.join("run.csv"), dir.join("run.html"));
    ok(&[
        "play",
        "--players",
        "2",
        "--agents",
        "random",
        "--games",
        "5",
        "--out",
        s(&csv),
    ]);
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let head = r.headers().unwrap().clone();
    let mut w = csv::Writer::from_path(dir.join("evil.csv")).unwrap();
    w.write_record(&head).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        let row: Vec<&str> = head
            .iter()
            .zip(rec.iter())
            .map(|(h, v)| {
                if h == "game_name" || h == "agents" {
                    evil
                } else {
                    v
                }
            })
            .collect();
        w.write_record(&row).unwrap();
    }
    w.flush().unwrap();
    ok(&["report", s(&dir.join("evil.csv")), "--html", s(&html)]);
    let p = page(&html);
    assert!(
        p.contains("&lt;/script&gt;&lt;script&gt;alert(1)"),
        "the name is shown, escaped"
    );
    assert!(!p.contains("<img"));
    // A balance result whose setting names are markup.
    let json = dir.join("bal.json");
    ok(&[
        "balance",
        "--players",
        "2",
        "--agents",
        "random",
        "--search",
        "start_coins=0..1",
        "--first-look",
        "4",
        "--max-games",
        "8",
        "--finalists",
        "2",
        "--validation-games",
        "4",
        "--quiet",
        "--out",
        s(&json),
    ]);
    let text = std::fs::read_to_string(&json)
        .unwrap()
        .replace("start_coins=", &evil.replace('"', "\\\""));
    std::fs::write(&json, text).unwrap();
    ok(&["report", s(&json), "--html", s(&html)]);
    let p = page(&html);
    assert!(!p.contains("<img") && !p.contains("alert(1)</script>"));
    assert!(elements(&p, "point")[0]["data-setting"].starts_with(evil));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn extreme_round_counts_are_drawn() {
    let dir = tmpdir("rounds");
    let (csv, html) = (dir.join("run.csv"), dir.join("run.html"));
    ok(&[
        "play",
        "--players",
        "2",
        "--agents",
        "random",
        "--games",
        "3",
        "--out",
        s(&csv),
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let col = lines[0].split(',').position(|h| h == "rounds").unwrap();
    for (k, rounds) in [(1, "0"), (2, "4294967295")] {
        let mut f: Vec<&str> = lines[k].split(',').collect();
        f[col] = rounds;
        lines[k] = f.join(",");
    }
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    ok(&["report", s(&csv), "--html", s(&html)]);
    let page = page(&html);
    let bars: u64 = elements(&page, "bar")
        .iter()
        .filter(|b| b.contains_key("data-from"))
        .map(|b| b["data-games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(bars, 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `shifu report` with `args` fails with exit 2 and a message holding every one of `words`.
fn refused(args: &[&str], words: &[&str]) {
    let o = shifu(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: `{w}` not in {err}");
    }
}

#[test]
fn malformed_files_are_refused_naming_file_and_field() {
    let dir = tmpdir("malformed");
    let html = dir.join("out.html");
    let h = s(&html);
    let sweep = dir.join("bad-sweep.csv");
    std::fs::write(
        &sweep,
        "cell,games,win_share_1,ci_low_1,ci_high_1,holm_p,balance,capped,mean_rounds\na=1,4,lots,0,1,1,1,0,3\n",
    )
    .unwrap();
    refused(
        &["report", s(&sweep), "--html", h],
        &["bad-sweep.csv", "row 2", "win_share_1", "lots"],
    );
    let bal = dir.join("bad-balance.json");
    std::fs::write(&bal, r#"{"race_entries": [], "game": "tofu-shifu"}"#).unwrap();
    refused(
        &["report", s(&bal), "--html", h],
        &["bad-balance.json", "balance result", "players"],
    );
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{ \"mode\": ").unwrap();
    refused(
        &["report", s(&broken), "--html", h],
        &["broken.json", "not valid JSON"],
    );
    let other = dir.join("other.json");
    std::fs::write(&other, "{\"x\": 1}").unwrap();
    refused(
        &["report", s(&other), "--html", h],
        &["other.json", "not a shifu result JSON"],
    );
    let t = dir.join("t.json");
    std::fs::write(&t, r#"{"mode": "ratings", "game": "g"}"#).unwrap();
    refused(
        &["report", s(&t), "--html", h],
        &["t.json", "tournament result", "missing field"],
    );
    refused(
        &["report", s(&t), "--out", s(&dir.join("x.md"))],
        &["t.json", "--html"],
    );
    let dose = dir.join("d.csv");
    std::fs::write(&dose, "value,games,win_share_1,ci_low_1,ci_high_1,unfairness,mean_rounds,capped,in_fit\nk=1,4,0.5,0,1,0,3,0,maybe\n").unwrap();
    refused(
        &["report", s(&dose), "--html", h],
        &["d.csv", "row 2", "in_fit", "maybe"],
    );
    refused(&["report", s(&dose)], &["--out", "--html"]);
    let short = dir.join("short.json");
    std::fs::write(
        &short,
        r#"{"analysis": "dose", "game": "g", "players": 2, "games_per_setting": 4, "key": "k",
            "points": [{"value": 1, "text": "k=1", "seats": [{"win_share": 1, "ci_low": 0, "ci_high": 1}],
            "unfairness": 0.5, "mean_rounds": 3, "capped_share": 0, "in_fit": true}]}"#,
    )
    .unwrap();
    refused(
        &["report", s(&short), "--html", h],
        &["short.json", "points[0].seats", "players 2"],
    );
    assert!(!html.exists(), "nothing written from a bad file");
    std::fs::remove_dir_all(&dir).unwrap();
}
