//! Issue 46: state JSON keeps integers JavaScript reads exactly. A Tofu Shifu deck or hand and a
//! Wok Star deck were written as one `u128` number (above 2^53, which a JavaScript reader
//! rounds); bitsets are now arrays of bit indices. Every game's states along random games (and
//! each seat's observation) have no JSON number above 2^53, and read back equal.

use rand::Rng;
use serde_json::Value;
use shifu_engine::{ginza_retro_cafe, rng_from_seed, tofu_kingdom, tofu_shifu, wok_star, Game};

const EXACT: u64 = 1 << 53;

/// The path of the first number in `v` above 2^53 (or not an integer JavaScript keeps).
fn inexact(v: &Value, path: &str) -> Option<String> {
    match v {
        Value::Number(n) => {
            let ok = n.as_u64().map(|x| x <= EXACT).unwrap_or(false)
                || n.as_i64()
                    .map(|x| x.unsigned_abs() <= EXACT)
                    .unwrap_or(false)
                || n.as_f64().is_some_and(|x| n.is_f64() && x.is_finite());
            (!ok).then(|| format!("{path} = {n}"))
        }
        Value::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, x)| inexact(x, &format!("{path}[{i}]"))),
        Value::Object(o) => o
            .iter()
            .find_map(|(k, x)| inexact(x, &format!("{path}.{k}"))),
        _ => None,
    }
}

fn every_number_is_exact<G: Game>(g: &G, games: u64)
where
    G::State: PartialEq,
{
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut steps = 0;
        loop {
            let json = serde_json::to_value(&s).unwrap();
            if let Some(bad) = inexact(&json, "state") {
                panic!("{} seed {seed} step {steps}: {bad}", g.name());
            }
            let back: G::State = serde_json::from_value(json).unwrap();
            assert!(back == s, "{} seed {seed}: reads back equal", g.name());
            for seat in 0..g.num_seats() {
                let o = serde_json::to_value(g.observation(&s, seat as u8)).unwrap();
                if let Some(bad) = inexact(&o, "observation") {
                    panic!("{} seed {seed} step {steps}: {bad}", g.name());
                }
            }
            g.legal_actions(&s, &mut legal);
            if legal.is_empty() || steps > 3_000 {
                break;
            }
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, a, &mut rng);
            steps += 1;
        }
    }
}

#[test]
fn every_games_state_json_numbers_are_at_most_2_pow_53() {
    let ts = tofu_shifu::TofuShifu::with_params(tofu_shifu::Params {
        players: 4,
        ..Default::default()
    })
    .unwrap();
    every_number_is_exact(&ts, 3);
    let ws = wok_star::WokStar::with_params(Default::default()).unwrap();
    every_number_is_exact(&ws, 3);
    let gz = ginza_retro_cafe::GinzaRetroCafe::with_params(Default::default()).unwrap();
    every_number_is_exact(&gz, 3);
    let tk = tofu_kingdom::TofuKingdom::with_params(Default::default()).unwrap();
    every_number_is_exact(&tk, 3);
}
