//! The cost of one uniform draw, by listing and indexing or by `Game::random_action`, over the
//! states of 200 random 4-player games (Ginza Retro Café or Wok Star). Under callgrind the
//! difference between a run with `list` or `draw` and one with `none` (which only collects the
//! states), over five times the states printed, is the instructions a call:
//!
//! ```text
//! cargo build --release -p shifu-engine --example random_action_cost
//! for m in none list draw; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/ra.$m \
//!     target/release/examples/random_action_cost ginza $m
//! done
//! ```
use rand::Rng;
use shifu_engine::{rng_from_seed, Game};

fn run<G: Game>(g: &G, mode: &str) {
    let mut buf = Vec::new();
    let mut states = Vec::new();
    for seed in 0..200u64 {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        while g.to_move(&s).is_some() {
            states.push(s.clone());
            g.legal_actions(&s, &mut buf);
            let a = buf[rng.gen_range(0..buf.len())];
            g.apply(&mut s, a, &mut rng);
        }
    }
    let mut r = rng_from_seed(5);
    let reps = if mode == "none" { 0 } else { 5 };
    for _ in 0..reps {
        for s in &states {
            let a = if mode == "list" {
                g.legal_actions(s, &mut buf);
                buf[r.gen_range(0..buf.len())]
            } else {
                g.random_action(s, &mut buf, &mut r)
            };
            std::hint::black_box(a);
        }
    }
    println!("{} states", states.len());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (game, mode) = match &args[..] {
        [_, game, mode] if ["none", "list", "draw"].contains(&mode.as_str()) => (game, mode),
        _ => {
            eprintln!("usage: random_action_cost ginza|wok none|list|draw");
            std::process::exit(2);
        }
    };
    use shifu_engine::{ginza_retro_cafe as ginza, wok_star as wok};
    match game.as_str() {
        "ginza" => run(
            &ginza::GinzaRetroCafe::with_params(ginza::Params::with_players(4)).unwrap(),
            mode,
        ),
        "wok" => run(
            &wok::WokStar::with_params(wok::Params::with_players(4)).unwrap(),
            mode,
        ),
        _ => {
            eprintln!("unknown game {game}: ginza or wok");
            std::process::exit(2);
        }
    }
}
