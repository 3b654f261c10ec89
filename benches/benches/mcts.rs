//! MCTS iterations per second on a 4-player Tofu Shifu midgame position.
//! Run: `cargo bench -p shifu-benches --bench mcts`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shifu_agents::mcts::{MctsAgent, MctsConfig, Rollout};
use shifu_agents::{agent_rng, Agent, Decision};
use shifu_benches::midgame;
use shifu_engine::tofu_shifu::{Params, TofuShifu};
use shifu_engine::Game;

fn mcts(c: &mut Criterion) {
    let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
    // A midgame position where the player to move has a real choice.
    let mut steps = 200;
    let state = loop {
        let s = midgame(&g, 11, steps);
        let mut legal = Vec::new();
        g.legal_actions(&s, &mut legal);
        if legal.len() >= 3 {
            break s;
        }
        steps += 1;
    };
    let mut legal = Vec::new();
    g.legal_actions(&state, &mut legal);
    let seat = g.to_move(&state).unwrap();
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
