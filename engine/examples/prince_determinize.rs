//! Determinizes, as Prince Mochi, 32 Tofu Kingdom positions in which every question of the round
//! is answered, `reps` times each: a fixed workload for counting instructions per
//! determinization under callgrind (`results/benchmarks.md`, Tofu Kingdom):
//!
//! ```text
//! cargo build --release -p shifu-engine --example prince_determinize
//! valgrind --tool=callgrind target/release/examples/prince_determinize 8 100   # and with 0
//! valgrind --tool=callgrind target/release/examples/prince_determinize 8 100 in-a-row
//! ```
//!
//! (the difference of the two totals, over 3,200, is the count per determinization). By default
//! the positions take turns, so every call meets a new position; `in-a-row` determinizes each
//! position `REPS` times in a row, as a search does at its root, where the engine reuses what it
//! compiled for the last position.
use rand::Rng;
use shifu_engine::tofu_kingdom::{Params, Phase, TofuKingdom};
use shifu_engine::{rng_from_seed, Game};

fn main() {
    let arg = |i: usize, name: &str| -> usize {
        std::env::args()
            .nth(i)
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| {
                eprintln!(
                    "usage: prince_determinize PLAYERS REPS [in-a-row] ({name} missing or not a number)"
                );
                std::process::exit(2)
            })
    };
    let (players, reps) = (arg(1, "PLAYERS"), arg(2, "REPS"));
    let g = match u8::try_from(players)
        .ok()
        .and_then(|p| TofuKingdom::with_params(Params::with_players(p)).ok())
    {
        Some(g) => g,
        None => {
            eprintln!(
                "prince_determinize: Tofu Kingdom takes {} players, got {players}",
                shifu_engine::tofu_kingdom::INFO.players_text()
            );
            std::process::exit(2)
        }
    };
    // Random play from a fresh deal until the Prince must name a seat (a new seed per try).
    let mut states = Vec::new();
    let mut buf = Vec::new();
    let mut tries = 0u64;
    while states.len() < 32 {
        let mut rng = rng_from_seed(tries);
        tries += 1;
        let mut s = g.new_state(&mut rng);
        while s.table.phase != Phase::Guess && g.to_move(&s).is_some() {
            g.legal_actions(&s, &mut buf);
            let a = buf[rng.gen_range(0..buf.len())];
            g.apply(&mut s, a, &mut rng);
        }
        if s.table.phase == Phase::Guess {
            states.push(s);
        }
    }
    let mut rng = rng_from_seed(1);
    let mut check = 0u64;
    // Each position `reps` times in a row (a search determinizing its root), or the positions
    // in turn `reps` times (every call a new position).
    let in_a_row = std::env::args().nth(3).as_deref() == Some("in-a-row");
    let order: Vec<usize> = if in_a_row {
        (0..states.len())
            .flat_map(|i| std::iter::repeat_n(i, reps))
            .collect()
    } else {
        (0..reps).flat_map(|_| 0..states.len()).collect()
    };
    for i in order {
        let s = &states[i];
        let d = g.determinize(s, s.table.prince, &mut rng);
        // Every dealt card and the centre's order, so that two builds can be compared.
        for &c in d.cards.iter().chain(&d.centre) {
            check = check.wrapping_mul(31).wrapping_add(u64::from(c));
        }
    }
    println!("{} determinizations, checksum {check}", reps * states.len());
}
