//! The MCTS benchmark's decision (`benches/benches/mcts.rs`, random rollouts cut at depth 60, or
//! greedy ones cut at depth 10), repeated, for a profiler: where an iteration's time goes
//! (determinization, tree policy, rollouts).
//!
//!     cargo build --release -p shifu-benches --example mcts_profile
//!     valgrind --tool=callgrind --callgrind-out-file=/tmp/mcts.out \
//!         target/release/examples/mcts_profile 20
//!     callgrind_annotate --inclusive=yes /tmp/mcts.out | head -40
//!
//! The argument is the number of decisions (500 iterations each); run it with 0 too and
//! subtract, so that start-up cancels. A second argument `greedy` runs the benchmark's other
//! configuration, greedy rollouts cut at depth 10.
use shifu_agents::mcts::{MctsAgent, MctsConfig, Rollout};
use shifu_agents::{agent_rng, Agent, Decision};
use shifu_benches::midgame_decision;
use shifu_engine::tofu_shifu::{Params, TofuShifu};

fn main() {
    let decisions: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
    let (state, legal, seat) = midgame_decision(&g);
    let (rollout, depth) = match std::env::args().nth(2).as_deref() {
        Some("greedy") => (Rollout::Greedy, 10),
        _ => (Rollout::Random, 60),
    };
    let config = MctsConfig {
        iters: 500,
        rollout,
        depth,
        ..MctsConfig::default()
    };
    let mut agent =
        MctsAgent::<TofuShifu>::new(config, Default::default(), agent_rng(1, seat), "p".into());
    let mut chosen = 0u64;
    for _ in 0..decisions {
        let a = agent.choose(&Decision::new(&g, &state, seat, &legal));
        chosen += legal.iter().position(|&x| x == a).unwrap_or(0) as u64;
    }
    println!("{decisions} decisions, checksum {chosen}");
}
