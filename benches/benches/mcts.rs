//! MCTS iterations per second on a midgame decision of every registered game at its most
//! players (from the engine's list), with random and with greedy rollouts.
//! Run: `cargo bench -p shifu-benches --bench mcts`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shifu_agents::mcts::{MctsAgent, MctsConfig, Rollout};
use shifu_agents::{agent_rng, Agent, Decision, Evaluate};
use shifu_benches::{build, midgame_decision};
use shifu_engine::Present;

/// One group a game, `mcts_<module>_<players>p_midgame` (`mcts_tofu_shifu_4p_midgame`).
fn mcts<G: Present + Evaluate>(c: &mut Criterion, name: &str) {
    let players = G::INFO.max_players;
    let g: G = build(players);
    let (state, legal, seat) = midgame_decision(&g);
    let iters = 500u32;
    let mut group = c.benchmark_group(format!("mcts_{name}_{players}p_midgame"));
    group.sample_size(20);
    group.throughput(Throughput::Elements(iters as u64));
    for (name, rollout, depth) in [
        ("random_rollout_depth60", Rollout::Random, 60),
        ("greedy_rollout_depth10", Rollout::Greedy, 10),
    ] {
        let config = MctsConfig {
            iters,
            rollout,
            depth,
            ..MctsConfig::default()
        };
        let mut agent =
            MctsAgent::<G>::new(config, Default::default(), agent_rng(1, seat), name.into());
        group.bench_function(name, |b| {
            b.iter(|| agent.choose(&Decision::new(&g, &state, seat, &legal)))
        });
    }
    group.finish();
}

/// [`mcts`] for each game of the list.
macro_rules! every_game {
    ([$($id:ident : $T:ty => $pins:tt),* $(,)?]) => {
        fn registered(c: &mut Criterion) {
            $(mcts::<$T>(c, stringify!($id));)*
        }
    };
}
shifu_engine::game_list!(every_game!());

criterion_group!(benches, registered);
criterion_main!(benches);
