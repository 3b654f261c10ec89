//! Where a random 4-player Ginza Retro Café step's listing goes: each phase's share of the steps
//! and its legal list's mean length, and at the start of a turn the dish and drink orders open
//! and the sub-multisets of the seat's dice a drink order walks (`results/benchmarks.md`,
//! "2026-12-03, night").
//!
//!     cargo run --release -p shifu-engine --example ginza_step_mix [GAMES]   # default 1000
use rand::Rng;
use shifu_engine::ginza_retro_cafe::data::Condition;
use shifu_engine::ginza_retro_cafe::{GinzaData, GinzaRetroCafe, Params, Phase};
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game};
use std::collections::BTreeMap;

fn main() {
    let games: u64 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 1000,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("ginza_step_mix: GAMES must be a positive whole number");
            std::process::exit(2)
        }
    };
    let g = GinzaRetroCafe::new(GinzaData::embedded(), Params::with_players(4))
        .expect("the embedded data loads");
    let mut buf = Vec::new();
    // Phase name -> (steps, actions listed).
    let mut phases = BTreeMap::<&str, (u64, u64)>::new();
    let (mut turns, mut dishes, mut drinks, mut walked) = (0u64, 0u64, 0u64, 0u64);
    // Complete choices (a serve or a reroll is several steps) and the longest legal list.
    let (mut choices, mut longest) = (0u64, 0usize);
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        while g.to_move(&s).is_some() {
            g.legal_actions(&s, &mut buf);
            longest = longest.max(buf.len());
            let name = match s.phase {
                _ if g.mid_decision(&s) => "serve or reroll begun",
                Phase::Turn { seat } => {
                    turns += 1;
                    let dice = &s.dice[usize::from(seat)];
                    for pl in s.places.iter().filter(|p| p.occupied()) {
                        for slot in 0..3 {
                            let Some(order) = pl.orders[slot].index() else {
                                continue;
                            };
                            if pl.tokens[slot].is_some() {
                                continue;
                            }
                            match g.data.orders[order].serve {
                                Condition::Faces(_) => dishes += 1,
                                Condition::SumAtLeast(_) => {
                                    drinks += 1;
                                    walked +=
                                        dice.iter().map(|&k| u64::from(k) + 1).product::<u64>();
                                }
                            }
                        }
                    }
                    "turn"
                }
                Phase::Reroll { .. } => "reroll",
                Phase::Change { .. } => "change",
                Phase::Draft { .. } => "draft",
                Phase::ChoosePlayerCard { .. } => "choose player card",
                Phase::Over => "over",
            };
            let e = phases.entry(name).or_default();
            e.0 += 1;
            e.1 += buf.len() as u64;
            let a = buf[rng.gen_range(0..buf.len())];
            choices += u64::from(g.completed(&s, a).is_some());
            g.apply(&mut s, a, &mut rng);
        }
    }
    let steps: u64 = phases.values().map(|e| e.0).sum();
    println!(
        "{games} games, {steps} steps ({:.1} a game), {choices} complete choices ({:.1} a game); \
         at most {longest} actions listed",
        steps as f64 / games as f64,
        choices as f64 / games as f64
    );
    for (name, (n, listed)) in &phases {
        println!(
            "{name}: {:.1}% of steps, {:.1} actions listed",
            100.0 * *n as f64 / steps as f64,
            *listed as f64 / *n as f64
        );
    }
    let t = turns as f64;
    println!(
        "a turn: {:.2} dish and {:.2} drink orders open; a drink order walks {:.1} sub-multisets",
        dishes as f64 / t,
        drinks as f64 / t,
        walked as f64 / drinks.max(1) as f64
    );
}
