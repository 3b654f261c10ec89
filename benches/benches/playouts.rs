//! Every registered game (from the engine's list): random playouts (steps/s) and whole greedy
//! games at the fewest and the most players, and at the most players legal-move generation,
//! state clone and determinization in positions 40 random actions in. Then what only one game
//! has: the Prince's determinization in Tofu Kingdom, Wok Star's variants.
//! Run: `cargo bench -p shifu-benches`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shifu_agents::Evaluate;
use shifu_benches::{build, greedy_game, midgame, random_playout};
use shifu_engine::{rng_from_seed, Game, Present, Seat};

/// One benchmark group per registered game, named for its module (`tofu_shifu`).
fn game<G: Present + Evaluate>(c: &mut Criterion, name: &str) {
    let mut group = c.benchmark_group(name);
    group.sample_size(20);
    let info = G::INFO;
    for players in [info.min_players, info.max_players] {
        let g: G = build(players);
        let mut buf = Vec::with_capacity(4096);
        let seeds = 0..16u64;
        let steps: u64 = seeds.clone().map(|s| random_playout(&g, s, &mut buf)).sum();
        // Elements are applied actions: criterion reports steps per second.
        group.throughput(Throughput::Elements(steps));
        group.bench_with_input(BenchmarkId::new("random_playout", players), &g, |b, g| {
            b.iter(|| {
                seeds
                    .clone()
                    .map(|s| random_playout(g, s, &mut buf))
                    .sum::<u64>()
            })
        });
        // Whole greedy games: the games/s the findings run at. Elements are games.
        let seeds = 0..8u64;
        group.throughput(Throughput::Elements(seeds.end - seeds.start));
        group.bench_with_input(BenchmarkId::new("greedy_game", players), &g, |b, g| {
            b.iter(|| {
                seeds
                    .clone()
                    .map(|s| greedy_game(g, s, &mut buf))
                    .sum::<u64>()
            })
        });
    }
    let players = info.max_players;
    let g: G = build(players);
    let states: Vec<_> = (0..64).map(|seed| midgame(&g, seed, 40)).collect();
    let mut buf = Vec::with_capacity(4096);
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function(BenchmarkId::new("legal_actions", players), |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &states {
                g.legal_actions(black_box(s), &mut buf);
                n += buf.len();
            }
            n
        })
    });
    group.bench_function(BenchmarkId::new("clone_state", players), |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| g.round(&black_box(s.clone())))
                .sum::<u32>()
        })
    });
    let mut rng = rng_from_seed(1);
    group.bench_function(BenchmarkId::new("determinize", players), |b| {
        b.iter(|| {
            let mut seat: Seat = 0;
            states
                .iter()
                .map(|s| {
                    seat = (seat + 1) % players;
                    g.round(&g.determinize(black_box(s), seat, &mut rng))
                })
                .sum::<u32>()
        })
    });
    group.finish();
}

/// [`game`] for each game of the list.
macro_rules! every_game {
    ([$($id:ident : $T:ty => $pins:tt),* $(,)?]) => {
        fn registered(c: &mut Criterion) {
            $(game::<$T>(c, stringify!($id));)*
        }
    };
}
shifu_engine::game_list!(every_game!());

/// Tofu Kingdom's Prince, once every question is answered: exact sampling among the deals
/// consistent with the answers.
fn tofu_kingdom(c: &mut Criterion) {
    use shifu_engine::tofu_kingdom::{Phase, TofuKingdom};
    let mut group = c.benchmark_group("tofu_kingdom");
    group.sample_size(20);
    for players in [3u8, 5, 8] {
        let g: TofuKingdom = build(players);
        let states: Vec<_> = (0..32)
            .map(|seed| {
                let mut s = midgame(&g, seed, 0);
                let mut k = 0;
                while s.table.phase != Phase::Guess {
                    s = midgame(&g, seed + 1000 * k, 2 * players as u32);
                    k += 1;
                }
                s
            })
            .collect();
        let mut rng = rng_from_seed(1);
        group.throughput(Throughput::Elements(states.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("prince_determinize", players),
            &g,
            |b, g| {
                b.iter(|| {
                    states
                        .iter()
                        .map(|s| {
                            g.determinize(black_box(s), s.table.prince, &mut rng)
                                .table
                                .round
                        })
                        .sum::<u16>()
                })
            },
        );
    }
    group.finish();
}

/// Wok Star's random playouts with events and powers on.
fn wok_star(c: &mut Criterion) {
    use shifu_engine::wok_star::{Params, WokStar};
    let mut group = c.benchmark_group("wok_star");
    group.sample_size(20);
    for players in [2u8, 4] {
        let g = WokStar::with_params(Params {
            players,
            events: true,
            powers: true,
            ..Params::default()
        })
        .unwrap();
        let mut buf = Vec::with_capacity(4096);
        let seeds = 0..64u64;
        let steps: u64 = seeds.clone().map(|s| random_playout(&g, s, &mut buf)).sum();
        group.throughput(Throughput::Elements(steps));
        group.bench_with_input(
            BenchmarkId::new("random_playout_variants", players),
            &g,
            |b, g| {
                b.iter(|| {
                    seeds
                        .clone()
                        .map(|s| random_playout(g, s, &mut buf))
                        .sum::<u64>()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, registered, tofu_kingdom, wok_star);
criterion_main!(benches);
