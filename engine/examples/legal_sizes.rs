//! Distribution of legal-list sizes over random games (how small the decisions are).
use rand::Rng;
use shifu_engine::tofu_shifu::*;
use shifu_engine::{rng_from_seed, Game};

fn main() {
    for players in shifu_engine::tofu_shifu::INFO.players() {
        let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
        let mut hist = [0u64; 65];
        let mut buf = Vec::new();
        for seed in 0..300u64 {
            let mut rng = rng_from_seed(seed);
            let mut pick = rng_from_seed(seed + 7);
            let mut s = g.new_state(&mut rng);
            while g.to_move(&s).is_some() {
                g.legal_actions(&s, &mut buf);
                hist[buf.len().min(64)] += 1;
                let a = buf[pick.gen_range(0..buf.len())];
                g.apply(&mut s, a, &mut rng);
            }
        }
        let total: u64 = hist.iter().sum();
        let mean = hist
            .iter()
            .enumerate()
            .map(|(i, &n)| i as f64 * n as f64)
            .sum::<f64>()
            / total as f64;
        let max = hist.iter().rposition(|&n| n > 0).unwrap();
        let over12 = hist[13..].iter().sum::<u64>() as f64 / total as f64;
        println!(
            "{players} players: mean {mean:.2} actions, max {max}, share above 12: {:.3}%",
            100.0 * over12
        );
    }
}
