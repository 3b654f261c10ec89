use rand::Rng;
use shifu_engine::tofu_shifu::*;
use shifu_engine::{rng_from_seed, Game};

#[test]
fn smoke() {
    for players in 2..=4u8 {
        let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::new();
        let mut total_steps = 0u64;
        let mut capped = 0;
        let mut rounds = 0u64;
        for seed in 0..200u64 {
            let mut rng = rng_from_seed(seed);
            let mut arng = rng_from_seed(seed + 1_000_000);
            let mut s = g.new_state(&mut rng);
            g.check_invariants(&s).unwrap();
            while g.to_move(&s).is_some() {
                g.legal_actions(&s, &mut buf);
                assert!(!buf.is_empty(), "{:?}", s.turn);
                let a = buf[arng.gen_range(0..buf.len())];
                g.apply(&mut s, a, &mut rng);
                if let Err(e) = g.check_invariants(&s) {
                    panic!("seed {seed} after {a:?}: {e}\n{:?}", s.turn);
                }
                total_steps += 1;
            }
            let o = g.outcome(&s).unwrap();
            capped += o.capped as u32;
            rounds += s.round as u64;
        }
        eprintln!("players {players}: avg steps {} avg rounds {} capped {capped}", total_steps / 200, rounds / 200);
    }
}

#[test]
fn stats() {
    use std::collections::HashMap;
    let g = TofuShifu::with_params(Params::with_players(2)).unwrap();
    let mut buf = Vec::new();
    let mut counts: HashMap<String, u64> = HashMap::new();
    let mut objs = 0u64;
    let mut upg = 0u64;
    for seed in 0..100u64 {
        let mut rng = rng_from_seed(seed);
        let mut arng = rng_from_seed(seed + 1_000_000);
        let mut s = g.new_state(&mut rng);
        while g.to_move(&s).is_some() {
            g.legal_actions(&s, &mut buf);
            let a = buf[arng.gen_range(0..buf.len())];
            let k = format!("{:?}", a);
            let k = k.split(|c| c == '(' || c == ' ').next().unwrap().to_string();
            *counts.entry(k).or_default() += 1;
            g.apply(&mut s, a, &mut rng);
        }
        for p in &s.players[..2] { objs += p.objectives() as u64; upg += p.upgrades.count_ones() as u64; }
    }
    let mut v: Vec<_> = counts.into_iter().collect();
    v.sort();
    eprintln!("{v:?}\nobjectives/player {} upgrades/player {}", objs as f64 / 200.0, upg as f64/200.0);
}
