//! No heap allocation in legal-move generation or `apply` once the action buffer is warm: a
//! counting global allocator watches whole games.

use rand::Rng;
use shifu_engine::alloc_counter::{count, Counting};
use shifu_engine::tofu_shifu::{Params, TofuShifu};
use shifu_engine::{rng_from_seed, Game};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn play<G: Game>(g: &G, seed: u64, buf: &mut Vec<G::Action>) -> u64 {
    let mut rng = rng_from_seed(seed);
    let mut pick = rng_from_seed(seed + 99);
    let mut s = g.new_state(&mut rng);
    let mut steps = 0;
    while g.to_move(&s).is_some() {
        g.legal_actions(&s, buf);
        let a = buf[pick.gen_range(0..buf.len())];
        g.apply(&mut s, a, &mut rng);
        steps += 1;
    }
    std::hint::black_box(g.outcome(&s));
    steps
}

#[test]
fn whole_games_allocate_nothing_once_the_buffer_is_warm() {
    for players in 2..=4u8 {
        let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::with_capacity(256);
        play(&g, 1, &mut buf); // warm-up (debug builds also warm their own check buffer)
        let (steps, allocations) =
            count(|| (2..7).map(|seed| play(&g, seed, &mut buf)).sum::<u64>());
        assert!(steps > 5_000, "{steps} steps");
        assert_eq!(allocations, 0, "{players} players, {steps} steps");
    }
}

#[test]
fn tofu_kingdom_games_allocate_nothing_once_the_buffer_is_warm() {
    use shifu_engine::tofu_kingdom::{Params, TofuKingdom};
    for players in 3..=8u8 {
        let g = TofuKingdom::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::with_capacity(64);
        play(&g, 1, &mut buf);
        let (steps, allocations) =
            count(|| (2..12).map(|seed| play(&g, seed, &mut buf)).sum::<u64>());
        assert!(steps > 500, "{steps} steps");
        assert_eq!(allocations, 0, "{players} players, {steps} steps");
    }
}

#[test]
fn wok_star_games_allocate_nothing_once_the_buffer_is_warm() {
    use shifu_engine::wok_star::{Params, WokStar};
    for players in 2..=4u8 {
        let g = WokStar::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::with_capacity(4096);
        play(&g, 1, &mut buf);
        let (steps, allocations) =
            count(|| (2..40).map(|seed| play(&g, seed, &mut buf)).sum::<u64>());
        assert!(steps > 500, "{steps} steps");
        assert_eq!(allocations, 0, "{players} players, {steps} steps");
    }
}

#[test]
fn ginza_retro_cafe_games_allocate_nothing_once_the_buffer_is_warm() {
    use shifu_engine::ginza_retro_cafe::{GinzaRetroCafe, Params};
    for players in 2..=4u8 {
        let g = GinzaRetroCafe::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::with_capacity(4096);
        play(&g, 1, &mut buf);
        let (steps, allocations) =
            count(|| (2..40).map(|seed| play(&g, seed, &mut buf)).sum::<u64>());
        assert!(steps > 500, "{steps} steps");
        assert_eq!(allocations, 0, "{players} players, {steps} steps");
    }
}

#[test]
fn the_counter_sees_allocations() {
    // Guards the test above against a counter that never counts.
    let (v, allocations) = count(|| std::hint::black_box(Vec::<u64>::with_capacity(10)));
    drop(v);
    assert_eq!(allocations, 1);
}
