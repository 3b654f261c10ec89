//! MCTS iterations per second on a 4-player Tofu Shifu midgame position.
//! Run: `cargo bench -p shifu-benches --bench mcts`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shifu_agents::mcts::{MctsAgent, MctsConfig, Rollout};
use shifu_agents::{agent_rng, Agent, Decision};
use shifu_benches::midgame_decision;
use shifu_engine::tofu_shifu::{Params, TofuShifu};

fn mcts(c: &mut Criterion) {
    let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
    let (state, legal, seat) = midgame_decision(&g);
    let iters = 500u32;
    let mut group = c.benchmark_group("mcts_4p_midgame");
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
        let mut agent = MctsAgent::<TofuShifu>::new(
            config,
            Default::default(),
            agent_rng(1, seat),
            name.into(),
        );
        group.bench_function(name, |b| {
            b.iter(|| agent.choose(&Decision::new(&g, &state, seat, &legal)))
        });
    }
    group.finish();
}

criterion_group!(benches, mcts);
criterion_main!(benches);
