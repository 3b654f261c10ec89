//! `shifu serve` under load: the built binary on 127.0.0.1 (a free port), 50 tables at once
//! (every game), each played to its end by a scripted client over raw HTTP with random legal
//! actions, hostile requests mixed in. Every game must finish and leave a game log that
//! replays; every view a client saw must be exactly the engine's view of its seat at that step
//! (so nothing of another seat or another table shows); every refusal must name the problem
//! and leave the table as it was; and the server must keep answering.

use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use shifu::game_log::LogLine;
use shifu::games::Playable;
use shifu_engine::{DataFile, ParamFile};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server, stopped when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    logs: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(name: &str, max_tables: usize) -> Server {
    start_with(name, max_tables, &[])
}

fn start_with(name: &str, max_tables: usize, more: &[&str]) -> Server {
    let logs = std::env::temp_dir().join(format!("shifu-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&logs);
    let mut child = Command::new(env!("CARGO_BIN_EXE_shifu"))
        .args(["serve", "--bind", "127.0.0.1:0", "--max-tables"])
        .arg(max_tables.to_string())
        .arg("--logs")
        .arg(&logs)
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start shifu serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the server's first line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in `{line}`"));
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|e| panic!("`{url}`: {e}"));
    Server { child, addr, logs }
}

/// One HTTP/1.1 request on a fresh connection: the status and the body.
fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("send the head");
    // A refused body may be cut off by the server: the answer still comes.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("{method} {path}: no answer: `{text}`"));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in `{head}`"));
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    (status, if chunked { dechunk(rest) } else { rest.into() })
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).expect("chunk size");
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = request(addr, "GET", path, None);
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = request(addr, "POST", path, Some(body.to_string().as_bytes()));
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A table a client plays: its id and each human seat's token.
struct Ticket {
    id: String,
    game: &'static str,
    seats: Vec<(u64, String)>,
}

fn create(addr: SocketAddr, game: &'static str, players: u64, humans: &[u64]) -> Ticket {
    let mut req = json!({"game": game, "players": players, "humans": humans, "agents": ["random"]});
    if game == "tofu-shifu" {
        // A random game of Tofu Shifu runs to thousands of steps: here it ends by its rules after
        // one completed objective, objectives at half their cost (about 80 steps at 2 players).
        req["set"] = json!([
            "end_objectives=1",
            "player_objective_cost_scale=0.5",
            "town_objective_cost_scale=0.5"
        ]);
    }
    let (status, v) = post(addr, "/api/tables", &req);
    assert_eq!(status, 201, "{v}");
    Ticket {
        id: v["table"].as_str().expect("table").to_string(),
        game,
        seats: v["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|t| {
                (
                    t["seat"].as_u64().unwrap(),
                    t["token"].as_str().unwrap().into(),
                )
            })
            .collect(),
    }
}

fn view(addr: SocketAddr, t: &Ticket, k: usize) -> Value {
    let (seat, token) = &t.seats[k];
    let (status, v) = get(
        addr,
        &format!("/api/tables/{}?seat={seat}&token={token}", t.id),
    );
    assert_eq!(status, 200, "{v}");
    v
}

/// Asserts a refusal: its status and an error message naming the problem.
fn refused(got: (u16, Value), want: u16, what: &str) {
    assert_eq!(got.0, want, "{what}: {}", got.1);
    {
        assert!(
            got.1["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}: no error named: {}",
            got.1
        );
    }
}

/// Hostile requests against table `t` (its other table `other`), each checked to change
/// nothing: the history of every seat's view is as before.
fn hostile(addr: SocketAddr, t: &Ticket, other: &Ticket, rng: &mut impl Rng) {
    let before: Vec<String> = (0..t.seats.len())
        .map(|k| view(addr, t, k).to_string())
        .collect();
    let (seat, token) = &t.seats[0];
    let act = format!("/api/tables/{}/act", t.id);
    match rng.gen_range(0..8) {
        0 => {
            let big = format!(
                "{{\"seat\":{seat},\"token\":\"{token}\",\"action\":0,\"pad\":\"{}\"}}",
                "x".repeat(70 * 1024)
            );
            let (status, body) = request(addr, "POST", &act, Some(big.as_bytes()));
            let body = serde_json::from_str(&body).unwrap_or(Value::Null);
            refused((status, body), 413, "an oversized body");
        }
        1 => {
            let (status, body) = request(addr, "POST", &act, Some(b"{\"seat\": 1, \"token\": "));
            let body = serde_json::from_str(&body).unwrap_or(Value::Null);
            refused((status, body), 400, "bad JSON");
        }
        2 => {
            // This table's token at the other table.
            let path = format!("/api/tables/{}/act", other.id);
            let got = post(
                addr,
                &path,
                &json!({"seat": seat, "token": token, "action": 0}),
            );
            refused(got, 403, "another table's token");
            let path = format!("/api/tables/{}?seat={seat}&token={token}", other.id);
            refused(get(addr, &path), 403, "a view with another table's token");
        }
        3 => {
            // A seat that is not this client's (a bot's, or past the table), with its token.
            let bot = (1..=8)
                .find(|s| t.seats.iter().all(|(h, _)| h != s))
                .unwrap();
            let got = post(
                addr,
                &act,
                &json!({"seat": bot, "token": token, "action": 0}),
            );
            assert!(got.0 == 403 || got.0 == 400, "a bot's seat: {}", got.1);
            let path = format!("/api/tables/{}?seat={bot}&token={token}", t.id);
            let got = get(addr, &path);
            assert!(got.0 == 403 || got.0 == 400, "a bot's view: {}", got.1);
            assert!(got.1["error"].is_string());
        }
        4 => {
            let got = post(
                addr,
                &act,
                &json!({"seat": seat, "token": "00ff", "action": 0}),
            );
            refused(got, 403, "a wrong token");
            let got = get(addr, &format!("/api/tables/{}?seat={seat}", t.id));
            refused(got, 400, "no token");
        }
        5 => {
            for path in [
                "/assets/../../Cargo.toml",
                "/assets/..%2F..%2FCargo.toml",
                "/../../../etc/passwd",
                "/table/../assets/board.js/../../Cargo.toml",
                "/assets/%2e%2e/Cargo.toml",
            ] {
                let (status, body) = request(addr, "GET", path, None);
                assert_eq!(status, 404, "{path}: {body}");
                assert!(!body.contains("[package]"), "{path} read a file");
            }
        }
        6 => {
            let got = post(
                addr,
                &act,
                &json!({"seat": seat, "token": token, "action": 1u64 << 40}),
            );
            assert!(got.0 == 400 || got.0 == 409, "an illegal action: {}", got.1);
            let got = post(
                addr,
                &act,
                &json!({"seat": seat, "token": token, "action": -1}),
            );
            refused(got, 400, "a negative action");
        }
        _ => {
            let got = post(
                addr,
                "/api/tables/ffffffffffffffff/act",
                &json!({"seat": 1, "token": token, "action": 0}),
            );
            refused(got, 404, "an unknown table");
        }
    }
    let after: Vec<String> = (0..t.seats.len())
        .map(|k| view(addr, t, k).to_string())
        .collect();
    assert_eq!(before, after, "a refused request changed table {}", t.id);
}

/// Plays table `t` to its end with random legal actions; returns every view seen, by seat
/// (from 1) and history length.
fn play(addr: SocketAddr, t: &Ticket, other: &Ticket, seed: u64) -> Vec<(u64, usize, Value)> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seen = Vec::new();
    let mut views: Vec<Value> = (0..t.seats.len()).map(|k| view(addr, t, k)).collect();
    let mut attacks = 0;
    for moves in 0.. {
        assert!(moves < 20_000, "table {} does not end", t.id);
        for (k, v) in views.iter().enumerate() {
            assert_eq!(v["game"], t.game);
            assert_eq!(v["seat"], t.seats[k].0);
            if v["result"].is_null() {
                assert!(!v.to_string().contains("\"seed\""), "the seed shows: {v}");
            }
            let steps = v["history"].as_array().expect("history").len();
            seen.push((t.seats[k].0, steps, v["board"].clone()));
        }
        if !views[0]["result"].is_null() {
            return seen;
        }
        let Some(k) = views.iter().position(|v| v["your_turn"] == true) else {
            panic!("table {}: no human seat is to move: {}", t.id, views[0]);
        };
        let path = format!("/api/tables/{}/act", t.id);
        if t.seats.len() > 1 && moves % 7 == 3 {
            // The seat not to move tries to act.
            let (seat, token) = &t.seats[1 - k];
            let got = post(
                addr,
                &path,
                &json!({"seat": seat, "token": token, "action": 0}),
            );
            refused(got, 409, "out of turn");
        }
        if moves % 4 == 1 && attacks < 4 {
            attacks += 1;
            hostile(addr, t, other, &mut rng);
        }
        let legal = views[k]["legal"].as_array().expect("legal");
        assert!(!legal.is_empty());
        let pick = &legal[rng.gen_range(0..legal.len())];
        let (seat, token) = &t.seats[k];
        let body = json!({"seat": seat, "token": token, "action": pick["index"]});
        let (status, v) = post(addr, &path, &body);
        assert_eq!(status, 200, "{v}");
        for (j, slot) in views.iter_mut().enumerate() {
            *slot = if j == k { v.clone() } else { view(addr, t, j) };
        }
    }
    unreachable!()
}

/// Plays the logged game again in the engine and checks each view seen against the engine's
/// view of that seat at that step; returns the log's scores.
fn check_log(path: &Path, seen: &[(u64, usize, Value)]) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let line: LogLine = serde_json::from_str(text.trim()).expect("a log line");
    let boards = shifu::with_game!(line.game_name.as_str(), G => boards_of::<G>(&line));
    let boards = boards.expect("replay the log");
    for (seat, step, board) in seen {
        assert_eq!(
            &boards[*step][*seat as usize - 1],
            board,
            "{}: step {step}: seat {seat}'s view is not the engine's",
            path.display()
        );
    }
    line.result.score
}

/// Every seat's board at every step of the logged game `line`, played again in the engine.
fn boards_of<G: Playable>(line: &LogLine) -> anyhow::Result<Vec<Vec<Value>>> {
    let params = G::Params::from_toml_str(&line.params)?;
    let game = G::from_parts(G::Data::embedded(), params)?;
    let mut rng = shifu_agents::game_rng(line.seed);
    let mut state = game.new_state(&mut rng);
    let mut legal = Vec::new();
    let seats = game.num_seats();
    let boards = |state: &G::State| -> Vec<Value> {
        (0..seats as u8)
            .map(|s| serde_json::to_value(game.board(state, Some(s))).unwrap())
            .collect()
    };
    let mut out = vec![boards(&state)];
    for &i in &line.actions {
        game.legal_actions(&state, &mut legal);
        game.apply(&mut state, legal[i as usize], &mut rng);
        out.push(boards(&state));
    }
    let o = game.outcome(&state).expect("the logged game is over");
    assert_eq!(o.score[..seats], line.result.score[..]);
    Ok(out)
}

#[test]
fn fifty_tables_at_once_with_hostile_requests() {
    let server = start("load", 64);
    let addr = server.addr;
    let plan: [(&str, u64); 4] = [
        ("tofu-shifu", 2),
        ("tofu-kingdom", 3),
        ("wok-star", 2),
        ("ginza-retro-cafe", 2),
    ];
    let tickets: Vec<Ticket> = (0..50)
        .map(|i| {
            let (game, players) = plan[i % 4];
            // Every fifth table has two human seats, played by one client.
            let humans: &[u64] = if i % 5 == 0 { &[1, 2] } else { &[1] };
            create(addr, game, players, humans)
        })
        .collect();
    let tickets = std::sync::Arc::new(tickets);
    let handles: Vec<_> = (0..50)
        .map(|i| {
            let tickets = tickets.clone();
            std::thread::spawn(move || {
                let other = &tickets[(i + 1) % 50];
                play(addr, &tickets[i], other, i as u64)
            })
        })
        .collect();
    let seen: Vec<_> = handles
        .into_iter()
        .map(|h| h.join().expect("a client failed"))
        .collect();
    let mut replayed = 0;
    for (i, t) in tickets.iter().enumerate() {
        let log = server.logs.join(format!("{}.jsonl", t.id));
        let score = check_log(&log, &seen[i]);
        let last = view(addr, t, 0);
        let shown: Vec<f64> = last["result"]["score"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(shown, score);
        if i < 4 {
            let out = server.logs.join(format!("{}.html", t.id));
            let o = Command::new(env!("CARGO_BIN_EXE_shifu"))
                .args(["replay", "--row", "0", "--log"])
                .arg(&log)
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            replayed += 1;
        }
    }
    assert_eq!(replayed, 4);
    let (status, games) = get(addr, "/api/games");
    assert_eq!(status, 200);
    assert_eq!(games.as_array().unwrap().len(), 4);
    let _ = std::fs::remove_dir_all(&server.logs);
}

#[test]
fn the_table_cap_refuses_a_table_too_many_and_the_lobby_pages_load() {
    let server = start("cap", 2);
    let addr = server.addr;
    let a = create(addr, "wok-star", 2, &[1]);
    create(addr, "tofu-shifu", 2, &[1]);
    let req = json!({"game": "wok-star", "players": 2, "humans": [1]});
    let (status, v) = post(addr, "/api/tables", &req);
    assert!(status == 503 || status == 429, "{status} {v}");
    assert!(v["error"].as_str().unwrap().contains("--max-tables"));
    for (req, field) in [
        (
            json!({"game": "chess", "players": 2, "humans": [1]}),
            "game",
        ),
        (
            json!({"game": "wok-star", "players": 9, "humans": [1]}),
            "players",
        ),
        (
            json!({"game": "wok-star", "players": 2, "humans": [3]}),
            "humans",
        ),
        (
            json!({"game": "wok-star", "players": 2, "humans": []}),
            "humans",
        ),
        (
            json!({"game": "wok-star", "players": 2, "humans": [1], "agents": ["a", "b", "c"]}),
            "agents",
        ),
    ] {
        let (status, v) = post(addr, "/api/tables", &req);
        assert_eq!(status, 400, "{req}: {v}");
        assert!(v["error"].as_str().unwrap().contains(field), "{req}: {v}");
    }
    for path in [
        "/",
        &format!("/table/{}", a.id),
        "/assets/board.js",
        "/assets/table.js",
    ] {
        let (status, body) = request(addr, "GET", path, None);
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty());
    }
    let (status, _) = request(addr, "GET", "/table/0000", None);
    assert_eq!(status, 404);
    let _ = std::fs::remove_dir_all(&server.logs);
}

#[test]
fn an_idle_table_is_abandoned_for_a_new_one_and_logged_as_such() {
    let server = start_with("idle", 1, &["--idle-minutes", "0"]);
    let addr = server.addr;
    let a = create(addr, "wok-star", 2, &[1]);
    std::thread::sleep(Duration::from_millis(20));
    let b = create(addr, "wok-star", 2, &[1]);
    let (status, _) = get(
        addr,
        &format!("/api/tables/{}?seat=1&token={}", a.id, a.seats[0].1),
    );
    assert_eq!(status, 404, "the idle table is still there");
    assert_eq!(view(addr, &b, 0)["game"], "wok-star");
    let log = server.logs.join(format!("{}.abandoned.jsonl", a.id));
    let line: LogLine =
        serde_json::from_str(std::fs::read_to_string(&log).unwrap().trim()).unwrap();
    assert_eq!(line.agents[0], "human");
    assert!(line.result.score.is_empty());
    let _ = std::fs::remove_dir_all(&server.logs);
}

/// A bot's move stops at --move-ms: a search of 10^8 iterations plays its turn at once.
#[test]
fn a_bot_move_is_cut_at_the_move_limit() {
    let server = start_with("limit", 4, &["--move-ms", "50"]);
    let addr = server.addr;
    let started = std::time::Instant::now();
    let req = json!({"game": "tofu-shifu", "players": 2, "humans": [2],
        "agents": ["mcts:iters=100000000", "random"], "seed": 3});
    let (status, v) = post(addr, "/api/tables", &req);
    assert_eq!(status, 201, "{v}");
    let t = Ticket {
        id: v["table"].as_str().unwrap().into(),
        game: "tofu-shifu",
        seats: vec![(2, v["seats"][0]["token"].as_str().unwrap().into())],
    };
    let seen = view(addr, &t, 0);
    let moves = seen["history"].as_array().unwrap().len();
    assert!(moves >= 1, "the bot did not move: {seen}");
    assert_eq!(seen["your_turn"], true);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{moves} bot moves took {:?}",
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&server.logs);
}
