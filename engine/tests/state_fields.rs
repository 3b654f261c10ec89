//! Every field of every game's state, mutated in turn: a valid mid-game state (serde JSON) has
//! each leaf set to out-of-range values (100, 255, 65535, u32::MAX, -1, huge numbers; a flag
//! flipped) and each list grown and shrunk by one. Each mutant is either refused on load with
//! an error naming the field (a key on its path), or loads and then plays to the end under
//! random play without a panic, its invariants holding after every action.

use serde_json::Value;
use shifu_engine::error::state_from_json;
use shifu_engine::{ginza_retro_cafe as gz, tofu_kingdom as tk, tofu_shifu as ts, wok_star as ws};
use shifu_engine::{rng_from_seed, Game, Present};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A step of a path into the JSON: an object key or a list index.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// The path as text, `places[1].orders[2]`.
fn path_text(path: &[Step]) -> String {
    let mut t = String::new();
    for s in path {
        match s {
            Step::Key(k) if t.is_empty() => t.push_str(k),
            Step::Key(k) => t.push_str(&format!(".{k}")),
            Step::Index(i) => t.push_str(&format!("[{i}]")),
        }
    }
    t
}

fn at<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match s {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// Every mutant of `v`: its path and the mutated document.
fn mutants(v: &Value) -> Vec<(Vec<Step>, Value)> {
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), v, &mut out);
    out
}

fn walk(root: &Value, path: &mut Vec<Step>, v: &Value, out: &mut Vec<(Vec<Step>, Value)>) {
    let mut put = |new: Value| {
        let mut m = root.clone();
        *at(&mut m, path) = new;
        out.push((path.clone(), m));
    };
    match v {
        Value::Number(_) => {
            for x in [
                Value::from(100u64),
                Value::from(255u64),
                Value::from(65_535u64),
                Value::from(u64::from(u32::MAX)),
                Value::from(-1i64),
                Value::from(u64::MAX),
                Value::from(1e30),
            ] {
                put(x);
            }
        }
        Value::Bool(b) => put(Value::Bool(!b)),
        Value::Array(a) => {
            if let Some(last) = a.last() {
                let mut grown = a.clone();
                grown.push(last.clone());
                put(Value::Array(grown));
                put(Value::Array(a[..a.len() - 1].to_vec()));
            }
            for (i, x) in a.iter().enumerate() {
                path.push(Step::Index(i));
                walk(root, path, x, out);
                path.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                path.push(Step::Key(k.clone()));
                walk(root, path, x, out);
                path.pop();
            }
        }
        Value::String(x) if x.starts_with(BIG) => {
            for x in [
                "0",
                "340282366920938463463374607431768211455",
                "1267650600228229401496703205376",
            ] {
                put(Value::String(format!("{BIG}{x}")));
            }
            put(Value::from(-1i64));
        }
        Value::String(_) | Value::Null => {}
    }
}

/// Whether `error` names the field at `path`: one of the object keys on it.
fn names_field(error: &str, path: &[Step]) -> bool {
    path.iter().any(|s| match s {
        Step::Key(k) => error.contains(k.as_str()),
        Step::Index(_) => false,
    })
}

/// A state of `g` after `steps` random actions, or halfway through the game if it ends sooner.
fn mid_game<G: Game>(g: &G, seed: u64, steps: usize) -> G::State {
    let play = |steps: usize| {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut legal = Vec::new();
        for done in 0..steps {
            if g.to_move(&s).is_none() {
                return (s, done);
            }
            g.legal_actions(&s, &mut legal);
            let a = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
            g.apply(&mut s, a, &mut rng);
        }
        (s, steps)
    };
    let (s, done) = play(steps);
    let s = if g.to_move(&s).is_none() {
        play(done / 2).0
    } else {
        s
    };
    assert!(g.to_move(&s).is_some(), "the mid-game state is not over");
    s
}

/// The prefix marking an integer too large for [`Value`] (Tofu Shifu's 128-bit card sets),
/// carried as a string through the mutation.
const BIG: &str = "#big#";

/// The state as a JSON [`Value`]; integers past `u64` become `"#big#DIGITS"` strings.
fn to_doc<T: serde::Serialize>(state: &T) -> Value {
    let text = serde_json::to_string(state).unwrap();
    let mut out = String::new();
    let (mut in_string, mut escaped) = (false, false);
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() && digits.parse::<u64>().is_err() {
            out.push_str(&format!("\"{BIG}{digits}\""));
        } else {
            out.push_str(digits);
        }
        digits.clear();
    };
    for ch in text.chars() {
        if !in_string && ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        flush(&mut digits, &mut out);
        if in_string {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
            }
        } else if ch == '"' {
            in_string = true;
        }
        out.push(ch);
    }
    flush(&mut digits, &mut out);
    serde_json::from_str(&out).unwrap()
}

/// The document as JSON text, the `"#big#DIGITS"` strings written as the integers they carry.
fn doc_text(doc: &Value) -> String {
    let text = serde_json::to_string(doc).unwrap();
    let mut out = String::new();
    let mut rest = text.as_str();
    let marker = format!("\"{BIG}");
    while let Some(i) = rest.find(&marker) {
        out.push_str(&rest[..i]);
        rest = &rest[i + marker.len()..];
        let end = rest.find('"').unwrap();
        out.push_str(&rest[..end]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Plays `s` to the end at random, checking `check` after every action.
fn play_out<G: Game>(
    g: &G,
    mut s: G::State,
    check: &dyn Fn(&G::State) -> Result<(), String>,
) -> Result<(), String> {
    let mut rng = rng_from_seed(7);
    let mut legal = Vec::new();
    for _ in 0..200_000 {
        if g.to_move(&s).is_none() {
            return match g.outcome(&s) {
                Some(_) => Ok(()),
                None => Err("over without an outcome".into()),
            };
        }
        // What a seat sees, and a re-dealt copy for it (the searches' view), must not panic.
        let seat = g.to_move(&s).unwrap_or(0);
        let _ = g.observation(&s, seat);
        let _ = g.determinize(&s, seat, &mut rng);
        g.legal_actions(&s, &mut legal);
        if legal.is_empty() {
            return Err("no legal action in a game not over".into());
        }
        let a = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
        g.apply(&mut s, a, &mut rng);
        check(&s).map_err(|e| format!("invariant broken after {a:?}: {e}"))?;
    }
    Err("no end after 200,000 actions".into())
}

/// Every mutant of `state`; the failures, one line each (the path, the value, what went wrong).
fn sweep<G: Present>(
    g: &G,
    state: &G::State,
    check: &dyn Fn(&G::State) -> Result<(), String>,
) -> Vec<String> {
    let doc = to_doc(state);
    g.check_state(state)
        .expect("the valid state passes its load check");
    let mut failures = Vec::new();
    let mut count = 0;
    for (path, m) in mutants(&doc) {
        count += 1;
        let text = doc_text(&m);
        let field = path_text(&path);
        let value = at(&mut m.clone(), &path).to_string();
        let value: String = value.chars().take(60).collect();
        // The game's own load check compares the state's player count with the game's.
        let loaded = state_from_json::<G::State>(&text).and_then(|s| g.check_state(&s).map(|()| s));
        match loaded {
            Err(e) if names_field(&e, &path) => {}
            Err(e) => failures.push(format!("{field} = {value}: refused without naming it: {e}")),
            Ok(s) => {
                CAUGHT.with(|c| c.set(true));
                let r = catch_unwind(AssertUnwindSafe(|| play_out(g, s, check)));
                CAUGHT.with(|c| c.set(false));
                match r {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => failures.push(format!("{field} = {value}: loaded, then {e}")),
                    Err(p) => {
                        let msg = p
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        failures.push(format!("{field} = {value}: loaded, then panicked: {msg}"));
                    }
                }
            }
        }
    }
    assert!(count > 20, "only {count} mutants");
    failures
}

fn report(game: &str, failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{game}: {} mutants neither refused naming their field nor played out:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

thread_local! {
    /// Whether a panic on this thread is caught and reported by the sweep (not printed).
    static CAUGHT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Panics inside the sweep's plays are not printed: the sweep reports each one it catches.
fn quiet() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CAUGHT.with(|c| c.get()) {
                default(info);
            }
        }));
    });
}

#[test]
fn every_tofu_shifu_state_field_out_of_range_is_refused_or_plays_out() {
    quiet();
    let g = ts::TofuShifu::with_params(ts::Params::with_players(3)).unwrap();
    let s = mid_game(&g, 1, 12);
    report("tofu-shifu", sweep(&g, &s, &|s| g.check_invariants(s)));
}

#[test]
fn every_tofu_kingdom_state_field_out_of_range_is_refused_or_plays_out() {
    quiet();
    let g = tk::TofuKingdom::with_params(tk::Params::with_players(4)).unwrap();
    let s = mid_game(&g, 1, 12);
    report("tofu-kingdom", sweep(&g, &s, &|s| g.check_invariants(s)));
}

#[test]
fn every_wok_star_state_field_out_of_range_is_refused_or_plays_out() {
    quiet();
    let g = ws::WokStar::with_params(ws::Params::with_players(3)).unwrap();
    let s = mid_game(&g, 1, 30);
    report("wok-star", sweep(&g, &s, &|s| g.check_invariants(s)));
}

#[test]
fn every_ginza_retro_cafe_state_field_out_of_range_is_refused_or_plays_out() {
    quiet();
    let g = gz::GinzaRetroCafe::with_params(gz::Params::with_players(3)).unwrap();
    let mut failures = Vec::new();
    // In the bonus draft, then at a turn mid-game.
    for steps in [4, 30] {
        let s = mid_game(&g, 1, steps);
        failures.extend(sweep(&g, &s, &|s| g.check_invariants(s)));
    }
    report("ginza-retro-cafe", failures);
}

/// A change to a state.
type Mutation = Box<dyn Fn(&mut gz::State)>;

/// The Ginza fields the hostile sweep found unchecked, each refused naming it.
#[test]
fn ginza_state_fields_found_unchecked_are_refused_naming_them() {
    let g = gz::GinzaRetroCafe::with_params(gz::Params::with_players(3)).unwrap();
    let s = mid_game(&g, 1, 30);
    assert!(s.round >= 1, "{:?}", s.phase);
    let boxed = (0..16u8).find(|c| s.card_box & (1 << c) != 0).unwrap();
    let cases: Vec<(&str, Mutation)> = vec![
        (
            "bonus_passed",
            Box::new(|s| s.bonus_passed[0][0] = gz::CardId::new(12)),
        ),
        (
            "bonus_passed",
            Box::new(|s| s.bonus_passed[1][1] = gz::CardId::new(200)),
        ),
        ("start_player", Box::new(|s| s.start_player = 3)),
        ("first_start", Box::new(|s| s.first_start = 3)),
        ("parked_on", Box::new(|s| s.parked_on[0] |= 1 << 6)),
        (
            "parked_on",
            Box::new(|s| {
                s.parked[1] = 0;
                s.parked_on[1] = 0b1;
            }),
        ),
        ("bonus_used", Box::new(|s| s.bonus_used = 0b1000)),
        (
            "card_dealt",
            Box::new(move |s| s.card_box |= 1 << s.card_dealt[0][1].get().unwrap()),
        ),
        ("card_box", Box::new(move |s| s.card_box &= !(1 << boxed))),
        ("round", Box::new(|s| s.round = 200)),
        ("turns", Box::new(|s| s.turns = u32::MAX)),
    ];
    for (field, mutate) in cases {
        let mut bad = s.clone();
        mutate(&mut bad);
        let text = serde_json::to_string(&bad).unwrap();
        let e = state_from_json::<gz::State>(&text)
            .and_then(|x| g.check_state(&x))
            .expect_err(field);
        assert!(e.contains(field), "{field}: {e}");
    }
}

/// The load check refuses no position a game reaches: every state of random games, under each
/// rule option that changes where tokens go, passes it.
#[test]
fn every_reached_ginza_state_passes_its_load_check() {
    let mut checked = 0;
    for bits in 0..8u8 {
        for players in gz::INFO.players() {
            let mut p = gz::Params::with_players(players);
            p.stacked_tokens = bits & 1 == 0;
            p.arrange_partial = bits & 2 == 0;
            p.arrivals_tick = bits & 4 != 0;
            let g = gz::GinzaRetroCafe::with_params(p).unwrap();
            for seed in 0..8u64 {
                let mut rng = rng_from_seed(seed + 100 * u64::from(bits));
                let mut s = g.new_state(&mut rng);
                let mut legal = Vec::new();
                loop {
                    let json = serde_json::to_string(&s).unwrap();
                    let loaded = state_from_json::<gz::State>(&json).unwrap();
                    if let Err(e) = g.check_state(&loaded) {
                        panic!("{e}: {s:?}");
                    }
                    checked += 1;
                    if g.to_move(&s).is_none() {
                        break;
                    }
                    g.legal_actions(&s, &mut legal);
                    let a = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
                    g.apply(&mut s, a, &mut rng);
                }
            }
        }
    }
    assert!(checked > 5_000, "only {checked} states");
}
