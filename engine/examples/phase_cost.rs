//! Where legal-move generation spends its time, by phase (a profiling aid).
use rand::Rng;
use shifu_engine::tofu_shifu::*;
use shifu_engine::{rng_from_seed, Game};
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let players: u8 = std::env::args().nth(1).and_then(|x| x.parse().ok()).unwrap_or(2);
    let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
    let mut buf = Vec::new();
    let mut by_phase: BTreeMap<String, (u64, f64)> = BTreeMap::new();
    for seed in 0..200u64 {
        let mut rng = rng_from_seed(seed);
        let mut arng = rng_from_seed(seed + 1_000_000);
        let mut s = g.new_state(&mut rng);
        while g.to_move(&s).is_some() {
            let t0 = Instant::now();
            for _ in 0..20 {
                g.legal_actions(std::hint::black_box(&s), &mut buf);
            }
            let dt = t0.elapsed().as_secs_f64() / 20.0;
            let e = by_phase.entry(format!("{:?}", s.turn.phase)).or_default();
            e.0 += 1;
            e.1 += dt;
            let a = buf[arng.gen_range(0..buf.len())];
            g.apply(&mut s, a, &mut rng);
        }
    }
    let total: f64 = by_phase.values().map(|v| v.1).sum();
    for (k, (n, t)) in by_phase {
        println!("{k:>12}: {n:>8} calls, {:>6.1} ns each, {:>5.1}% of time", t / n as f64 * 1e9, 100.0 * t / total);
    }
}
