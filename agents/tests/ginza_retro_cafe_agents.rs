//! Ginza Retro Café agents: no peeking at other seats' player and bonus cards or the customer
//! deck, and greedy's edge over random through the generic runner.

mod common;

use shifu_agents::{build_agent, game_seed, play_game, Agent};
use shifu_engine::ginza_retro_cafe::{GinzaRetroCafe, Params, Phase};

fn game(players: u8) -> GinzaRetroCafe {
    GinzaRetroCafe::with_params(Params::with_players(players)).unwrap()
}

#[test]
fn no_agent_peeks_at_hidden_information_in_ginza() {
    // Same agent RNG state, the true position vs a copy with every hidden card re-dealt: the
    // choice must not change.
    let g = game(3);
    let specs = [
        "random",
        "greedy",
        "mcts:iters=40,depth=10",
        "mcts:iters=12,rollout=greedy,root=paired",
    ];
    // Draft picks and turns, where other seats' bonus cards are hidden.
    let ps = common::positions(&g, 16, 60, |step, s, legal| {
        legal.len() > 1
            && (matches!(s.phase, Phase::Draft { .. })
                || (step % 7 == 3 && matches!(s.phase, Phase::Turn { .. })))
    });
    let differing_worlds = common::assert_no_peeking(&g, &specs, &ps, 55);
    assert!(
        differing_worlds > 40,
        "genuinely different worlds: {differing_worlds}"
    );
}

#[test]
fn greedy_beats_random_in_ginza() {
    // 200 two-player games, seats alternated on the same seeds; greedy wins far more than half.
    let g = game(2);
    let mut wins = 0.0;
    let mut buf = Vec::new();
    for i in 0..100u64 {
        let seed = game_seed(2026, i);
        for greedy_seat in 0..2u8 {
            let mut agents: Vec<Box<dyn Agent<GinzaRetroCafe>>> = (0..2u8)
                .map(|s| {
                    let spec = if s == greedy_seat { "greedy" } else { "random" };
                    build_agent::<GinzaRetroCafe>(spec, seed, s).unwrap()
                })
                .collect();
            let r = play_game(&g, &mut agents, seed, &mut buf);
            assert!(!r.outcome.capped, "games end by the rules");
            wins += r.outcome.win_share(greedy_seat);
        }
    }
    // Binomial(200, 1/2): 130 or more has p < 0.0001.
    assert!(wins >= 130.0, "greedy won {wins} of 200");
}
