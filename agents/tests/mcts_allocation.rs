//! The MCTS tree lives in an arena reused between decisions: once warm, deciding allocates
//! nothing (a counting allocator watches).

use rand::Rng;
use shifu_agents::{build_agent, Decision};
use shifu_engine::alloc_counter::{count, Counting};
use shifu_engine::tofu_shifu::{Params, State, TofuShifu};
use shifu_engine::{rng_from_seed, Game};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn mcts_decisions_allocate_nothing_once_warm() {
    let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
    // Positions where seat 0 must choose among several actions.
    let mut states: Vec<State> = Vec::new();
    let mut rng = rng_from_seed(3);
    let mut s = g.new_state(&mut rng);
    let mut buf = Vec::new();
    while states.len() < 6 && g.to_move(&s).is_some() {
        g.legal_actions(&s, &mut buf);
        if s.current == 0 && buf.len() > 2 {
            states.push(s.clone());
        }
        let a = buf[rng.gen_range(0..buf.len())];
        g.apply(&mut s, a, &mut rng);
    }
    assert_eq!(states.len(), 6);
    let mut agent = build_agent::<TofuShifu>("mcts:iters=300,depth=30", 1, 0).unwrap();
    let mut legal = Vec::with_capacity(256);
    let mut decide = |s: &State, legal: &mut Vec<_>| {
        g.legal_actions(s, legal);
        agent.choose(&Decision::new(&g, s, 0, legal))
    };
    decide(&states[0], &mut legal); // warm-up: the arena and buffers reach their size
    let (_, allocations) = count(|| {
        for s in &states[1..] {
            decide(s, &mut legal);
        }
    });
    assert_eq!(allocations, 0);
}
