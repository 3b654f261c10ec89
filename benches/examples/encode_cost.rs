//! The cost of writing observations: random Tofu Shifu games (4 players) in which every step
//! encodes the acting seat's view as `f32` values, as `u8` values, or not at all, for a
//! profiler. Run it under callgrind in each mode and subtract `none` from the others; the
//! program prints the steps, so the difference divided by them is the encoding's instructions
//! per step.
//!
//!     cargo build --release -p shifu-benches --example encode_cost
//!     for m in none f32 u8; do
//!       valgrind --tool=callgrind --callgrind-out-file=/tmp/enc-$m.out \
//!         target/release/examples/encode_cost $m 20
//!     done
//!
//! Arguments: the mode (`none`, `f32`, `u8`) and the number of games (seeds 0..N).
use rand::Rng;
use shifu_engine::encode::Encoding;
use shifu_engine::tofu_shifu::{Params, TofuShifu};
use shifu_engine::{rng_from_seed, Game};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "f32".into());
    let games: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
    let len = g.observation_len();
    let (mut f, mut q) = (vec![0f32; len], vec![0u8; len]);
    let mut legal = Vec::new();
    let (mut steps, mut check) = (0u64, 0f64);
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        while let Some(seat) = g.to_move(&s) {
            match mode.as_str() {
                "f32" => {
                    g.encode_observation(&s, seat, &mut f);
                    check += f64::from(f[steps as usize % len]);
                }
                "u8" => {
                    g.encode_observation_u8(&s, seat, &mut q);
                    check += f64::from(q[steps as usize % len]);
                }
                _ => {}
            }
            g.legal_actions(&s, &mut legal);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, a, &mut rng);
            steps += 1;
        }
    }
    println!("{mode}: {steps} steps (checksum {check})");
}
