//! The network: deterministic creation, the inference pass against candle's, no allocation
//! once warm, training that learns, and the weights file round trip.

use rand::Rng;
use shifu_engine::alloc_counter::{count, Counting};
use shifu_engine::tofu_shifu::{Params, TofuShifu};
use shifu_engine::{rng_from_seed, Encoding, Game};
use shifu_net::{Batch, Features, Inference, Net, NetConfig, TrainConfig, Trainer, Weights};

#[global_allocator]
static A: Counting = Counting;

fn game() -> TofuShifu {
    TofuShifu::with_params(Params::with_players(3)).unwrap()
}

/// `rows` positions of random play: relative inputs and legal masks, row-major.
fn positions(g: &TofuShifu, rows: usize) -> (Vec<f32>, Vec<u8>) {
    let (n, a) = (g.observation_len(), g.action_count());
    let mut f = Features::new(g);
    let (mut x, mut m) = (vec![0.0; rows * n], vec![0; rows * a]);
    let mut rng = rng_from_seed(7);
    let mut s = g.new_state(&mut rng);
    let mut legal = Vec::new();
    for r in 0..rows {
        if g.to_move(&s).is_none() {
            s = g.new_state(&mut rng);
        }
        let seat = g.to_move(&s).unwrap();
        g.legal_actions(&s, &mut legal);
        f.state(g, &s, seat, &mut x[r * n..(r + 1) * n]);
        Features::mask(g, &legal, &mut m[r * a..(r + 1) * a]);
        for _ in 0..5 {
            if g.to_move(&s).is_none() {
                break;
            }
            g.legal_actions(&s, &mut legal);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, a, &mut rng);
        }
    }
    (x, m)
}

#[test]
fn the_same_seed_gives_the_same_weights() {
    let c = NetConfig::for_game(&game(), 32, 1);
    assert_eq!(Weights::init(c.clone(), 3), Weights::init(c.clone(), 3));
    assert_ne!(Weights::init(c.clone(), 3), Weights::init(c.clone(), 4));
    // The file too, byte for byte (its metadata comes from a HashMap, in a random order).
    let w = Weights::init(c, 3);
    let first = w.to_bytes();
    for _ in 0..8 {
        assert_eq!(w.to_bytes(), first);
    }
    assert_eq!(Weights::from_bytes(&first).unwrap(), w);
}

#[test]
fn inference_agrees_with_candle_and_allocates_nothing_once_warm() {
    let g = game();
    let w = Weights::init(NetConfig::for_game(&g, 64, 2), 1);
    let rows = 16;
    let (x, m) = positions(&g, rows);
    let (p, v) = Trainer::new(&w, TrainConfig::default())
        .unwrap()
        .forward(rows, &x, &m)
        .unwrap();
    let mut inf = Inference::new(Net::new(&w), rows);
    let (n, a, seats) = (w.config.inputs, w.config.actions, w.config.values());
    for r in 0..rows {
        let (xi, mi) = inf.row_mut(r);
        xi.copy_from_slice(&x[r * n..(r + 1) * n]);
        mi.copy_from_slice(&m[r * a..(r + 1) * a]);
    }
    inf.forward(rows);
    let ((), allocs) = count(|| inf.forward(rows));
    assert_eq!(allocs, 0, "a warm forward pass allocated");
    for r in 0..rows {
        for (k, (&x, &y)) in inf.policy(r).iter().zip(&p[r * a..]).enumerate() {
            assert!((x - y).abs() < 1e-5, "row {r} action {k}: {x} vs {y}");
            if m[r * a + k] == 0 {
                assert_eq!(x, 0.0, "an illegal action has probability");
            }
        }
        let sum: f32 = inf.policy(r).iter().sum();
        assert!((sum - 1.0).abs() < 1e-4);
        for (&x, &y) in inf.value(r).iter().zip(&v[r * seats..]) {
            assert!((x - y).abs() < 1e-5, "row {r} value: {x} vs {y}");
        }
    }
}

#[test]
fn training_fits_a_fixed_batch() {
    let g = game();
    let w = Weights::init(NetConfig::for_game(&g, 32, 1), 2);
    let rows = 8;
    let (x, m) = positions(&g, rows);
    let (a, seats) = (w.config.actions, w.config.values());
    // Target: all weight on the first legal action; the observer wins.
    let mut policy = vec![0.0; rows * a];
    for r in 0..rows {
        let first = (0..a).find(|&k| m[r * a + k] == 1).unwrap();
        policy[r * a + first] = 1.0;
    }
    let value: Vec<f32> = (0..rows * seats)
        .map(|i| if i % seats == 0 { 1.0 } else { -1.0 })
        .collect();
    let b = Batch {
        rows,
        inputs: &x,
        mask: &m,
        policy: &policy,
        value: &value,
    };
    let t = TrainConfig {
        lr: 1e-2,
        weight_decay: 0.0,
    };
    let mut tr = Trainer::new(&w, t).unwrap();
    let first = tr.step(&b).unwrap();
    let mut last = first;
    for _ in 0..30 {
        last = tr.step(&b).unwrap();
    }
    assert!(last.policy < first.policy / 4.0, "{first:?} -> {last:?}");
    assert!(last.value < first.value / 4.0, "{first:?} -> {last:?}");
    assert_ne!(tr.weights().unwrap(), w);
}

#[test]
fn a_nan_loss_leaves_the_weights_unchanged() {
    let g = game();
    let w = Weights::init(NetConfig::for_game(&g, 16, 1), 5);
    let rows = 4;
    let (x, m) = positions(&g, rows);
    let (a, seats) = (w.config.actions, w.config.values());
    let mut policy = vec![0.0; rows * a];
    for r in 0..rows {
        let first = (0..a).find(|&k| m[r * a + k] == 1).unwrap();
        policy[r * a + first] = 1.0;
    }
    let mut value = vec![0.5; rows * seats];
    value[1] = f32::NAN;
    let b = Batch {
        rows,
        inputs: &x,
        mask: &m,
        policy: &policy,
        value: &value,
    };
    let mut tr = Trainer::new(&w, TrainConfig::default()).unwrap();
    let l = tr.step(&b).unwrap();
    assert!(l.policy.is_nan() || l.value.is_nan(), "{l:?}");
    assert_eq!(tr.weights().unwrap(), w, "a NaN step changed the weights");
    // A clean batch still trains afterwards.
    let mut clean = value.clone();
    clean[1] = 0.5;
    let b = Batch { value: &clean, ..b };
    assert!(tr.step(&b).unwrap().policy.is_finite());
    assert_ne!(tr.weights().unwrap(), w);
}

#[test]
fn weights_survive_a_save_and_load() {
    let g = game();
    let w = Weights::init(NetConfig::for_game(&g, 16, 1), 5);
    let dir = std::env::temp_dir().join(format!("shifu-net-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("w.safetensors");
    w.save(&f).unwrap();
    let back = Weights::load(&f).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.config.mismatch(&g), None);
    std::fs::remove_dir_all(&dir).unwrap();
}
