//! Playout throughput (steps/s with random agents), legal-move generation, state clone and
//! determinization for Tofu Shifu; playouts and the Prince's determinization for Tofu Kingdom;
//! random playouts, greedy team games and legal-move generation for Wok Star, and the same for
//! Ginza Retro Café.
//! Run: `cargo bench -p shifu-benches`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shifu_benches::{greedy_game, midgame, random_playout};
use shifu_engine::tofu_shifu::{Params, TofuShifu};
use shifu_engine::{rng_from_seed, Game};

const SEEDS: std::ops::Range<u64> = 0..8;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("tofu_shifu_random_playout");
    group.sample_size(20);
    for players in [2u8, 4] {
        let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::with_capacity(256);
        let steps: u64 = SEEDS.map(|s| random_playout(&g, s, &mut buf)).sum();
        // Elements are applied actions: criterion reports steps per second.
        group.throughput(Throughput::Elements(steps));
        group.bench_with_input(BenchmarkId::new("players", players), &g, |b, g| {
            b.iter(|| SEEDS.map(|s| random_playout(g, s, &mut buf)).sum::<u64>())
        });
    }
    group.finish();
}

fn positions(c: &mut Criterion) {
    let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
    let states: Vec<_> = (0..64).map(|seed| midgame(&g, seed, 200)).collect();
    let mut buf = Vec::with_capacity(256);
    let mut group = c.benchmark_group("tofu_shifu_4p_midgame");
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("legal_actions", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &states {
                g.legal_actions(black_box(s), &mut buf);
                n += buf.len();
            }
            n
        })
    });
    group.bench_function("clone_state", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| black_box(s.clone()).round)
                .sum::<u16>()
        })
    });
    let mut rng = rng_from_seed(1);
    group.bench_function("determinize", |b| {
        b.iter(|| {
            states
                .iter()
                .map(|s| {
                    g.determinize(black_box(s), (s.current + 1) % 4, &mut rng)
                        .round
                })
                .sum::<u16>()
        })
    });
    group.finish();
    println!(
        "size of one Tofu Shifu State: {} bytes",
        std::mem::size_of::<shifu_engine::tofu_shifu::State>()
    );
}

fn tofu_kingdom(c: &mut Criterion) {
    use shifu_engine::tofu_kingdom::{Phase, TofuKingdom};
    let mut group = c.benchmark_group("tofu_kingdom");
    group.sample_size(20);
    for players in [3u8, 5, 8] {
        let g = TofuKingdom::with_params(shifu_engine::tofu_kingdom::Params::with_players(players))
            .unwrap();
        let mut buf = Vec::with_capacity(64);
        let steps: u64 = SEEDS.map(|s| random_playout(&g, s, &mut buf)).sum();
        group.throughput(Throughput::Elements(steps));
        group.bench_with_input(BenchmarkId::new("random_playout", players), &g, |b, g| {
            b.iter(|| SEEDS.map(|s| random_playout(g, s, &mut buf)).sum::<u64>())
        });
        // The Prince's determinization once every question is answered (exact sampling among
        // the deals consistent with the answers).
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

/// Wok Star: random playouts (the standard game and with events and powers), whole greedy team
/// games and legal-move generation in positions of the first day.
fn wok_star(c: &mut Criterion) {
    use shifu_engine::wok_star::{Params, WokStar};
    let mut group = c.benchmark_group("wok_star");
    group.sample_size(20);
    for (name, events) in [("random_playout", false), ("random_playout_variants", true)] {
        for players in [2u8, 4] {
            let g = WokStar::with_params(Params {
                players,
                events,
                powers: events,
                ..Params::default()
            })
            .unwrap();
            let mut buf = Vec::with_capacity(4096);
            let seeds = 0..64u64;
            let steps: u64 = seeds.clone().map(|s| random_playout(&g, s, &mut buf)).sum();
            group.throughput(Throughput::Elements(steps));
            group.bench_with_input(BenchmarkId::new(name, players), &g, |b, g| {
                b.iter(|| {
                    seeds
                        .clone()
                        .map(|s| random_playout(g, s, &mut buf))
                        .sum::<u64>()
                })
            });
        }
    }
    // Whole greedy team games (random teams close on the first day): the games/s that matter
    // for the findings. Elements are games.
    for players in [2u8, 4] {
        let g = WokStar::with_params(Params::with_players(players)).unwrap();
        let seeds = 0..16u64;
        let mut buf = Vec::with_capacity(4096);
        group.throughput(Throughput::Elements(seeds.end - seeds.start));
        group.bench_with_input(BenchmarkId::new("greedy_team_game", players), &g, |b, g| {
            b.iter(|| {
                seeds
                    .clone()
                    .map(|s| greedy_game(g, s, &mut buf))
                    .sum::<u64>()
            })
        });
    }
    let g = WokStar::with_params(Params::default()).unwrap();
    let states: Vec<_> = (0..64).map(|seed| midgame(&g, seed, 12)).collect();
    let mut buf = Vec::with_capacity(4096);
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("legal_actions_4p", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &states {
                g.legal_actions(black_box(s), &mut buf);
                n += buf.len();
            }
            n
        })
    });
    group.finish();
}

/// Ginza Retro Café: random playouts, whole greedy games and legal-move generation in positions
/// of the first rounds.
fn ginza_retro_cafe(c: &mut Criterion) {
    use shifu_engine::ginza_retro_cafe::{GinzaRetroCafe, Params};
    let mut group = c.benchmark_group("ginza_retro_cafe");
    group.sample_size(20);
    for players in [2u8, 4] {
        let g = GinzaRetroCafe::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::with_capacity(4096);
        let seeds = 0..64u64;
        let steps: u64 = seeds.clone().map(|s| random_playout(&g, s, &mut buf)).sum();
        group.throughput(Throughput::Elements(steps));
        group.bench_with_input(BenchmarkId::new("random_playout", players), &g, |b, g| {
            b.iter(|| {
                seeds
                    .clone()
                    .map(|s| random_playout(g, s, &mut buf))
                    .sum::<u64>()
            })
        });
        let seeds = 0..16u64;
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
    let g = GinzaRetroCafe::with_params(Params::default()).unwrap();
    let states: Vec<_> = (0..64).map(|seed| midgame(&g, seed, 12)).collect();
    let mut buf = Vec::with_capacity(4096);
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("legal_actions_4p", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &states {
                g.legal_actions(black_box(s), &mut buf);
                n += buf.len();
            }
            n
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    playouts,
    positions,
    tofu_kingdom,
    wok_star,
    ginza_retro_cafe
);
criterion_main!(benches);
