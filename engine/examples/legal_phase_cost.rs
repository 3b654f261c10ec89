//! What listing the legal actions costs in each Tofu Shifu phase, for a profiler: it keeps the
//! first 5,000 positions of one phase met in random 4-player games (seeds 0 to 39) and lists their
//! legal actions `REPS` times.
//!
//!     cargo build --release -p shifu-engine --example legal_phase_cost
//!     for r in 1 3; do valgrind --tool=callgrind --callgrind-out-file=/tmp/p$r.out \
//!         target/release/examples/legal_phase_cost TurnStart $r; done
//!
//! Instructions per listing = (Ir(3) - Ir(1)) / (2 * positions). It also prints how often each
//! phase comes up (`legal_phase_cost shares`).
use rand::Rng;
use shifu_engine::tofu_shifu::*;
use shifu_engine::{rng_from_seed, Game};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (phase, reps) = match (
        args.get(1),
        args.get(2).and_then(|r| r.parse::<usize>().ok()),
    ) {
        (Some(p), Some(r)) => (p.as_str(), r),
        (Some(p), None) if p == "shares" => (p.as_str(), 0),
        _ => {
            eprintln!("usage: legal_phase_cost PHASE REPS | legal_phase_cost shares");
            std::process::exit(2);
        }
    };
    let g = TofuShifu::with_params(Params::with_players(4)).expect("the default data is valid");
    let mut states = Vec::new();
    let mut shares = std::collections::BTreeMap::<String, u64>::new();
    let mut buf = Vec::new();
    for seed in 0..40u64 {
        let mut rng = rng_from_seed(seed);
        let mut pick = rng_from_seed(seed + 7);
        let mut s = g.new_state(&mut rng);
        while g.to_move(&s).is_some() {
            g.legal_actions(&s, &mut buf);
            let name = format!("{:?}", s.turn.phase);
            if name == phase && states.len() < 5000 {
                states.push(s.clone());
            }
            *shares.entry(name).or_default() += 1;
            let a = buf[pick.gen_range(0..buf.len())];
            g.apply(&mut s, a, &mut rng);
        }
    }
    if phase == "shares" {
        let total: u64 = shares.values().sum();
        for (name, n) in shares {
            println!("{name:12} {:6.2}%", 100.0 * n as f64 / total as f64);
        }
        return;
    }
    let mut listed = 0usize;
    for _ in 0..reps {
        for s in &states {
            g.legal_actions(std::hint::black_box(s), &mut buf);
            listed += buf.len();
        }
    }
    println!("{} positions, {listed} actions listed", states.len());
}
