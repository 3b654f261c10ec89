//! The robustness drivers (`shifu_engine::hostile`, also the fuzz targets' bodies) on the
//! committed fuzz corpus and on mutated inputs made here: no input may panic.

use rand::{Rng, SeedableRng};
use shifu_engine::hostile::{self, DRIVERS};
use shifu_engine::tofu_kingdom::TofuKingdom;
use shifu_engine::tofu_shifu::TofuShifu;
use shifu_engine::DataFile;
use shifu_engine::{Game, GameRng};

/// Inputs a driver starts from: its game's part of the committed corpus of its kind
/// (fuzz/corpus/<kind>/, the first byte of each file picking the game), that byte removed.
fn corpus(name: &str) -> Vec<Vec<u8>> {
    let kind = hostile::KINDS
        .into_iter()
        .find(|k| name.ends_with(&format!("_{k}")))
        .expect("a driver name ends with its kind");
    let game = &name[..name.len() - kind.len() - 1];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(kind);
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let bytes = std::fs::read(e.path()).unwrap();
        match hostile::split_game(&bytes) {
            Some((g, rest)) if g.name.replace('-', "_") == game => out.push(rest.to_vec()),
            _ => {}
        }
    }
    out
}

#[test]
fn every_registered_game_has_a_driver_of_each_kind_and_a_corpus() {
    for g in shifu_engine::GAMES {
        for kind in hostile::KINDS {
            assert!(hostile::driver(g.name, kind).is_some(), "{} {kind}", g.name);
            let name = format!("{}_{kind}", g.name.replace('-', "_"));
            assert!(!corpus(&name).is_empty(), "no corpus for {name}");
        }
    }
    assert_eq!(
        DRIVERS.len(),
        shifu_engine::GAMES.len() * hostile::KINDS.len()
    );
    // The combined targets' bodies on their corpus.
    for kind in hostile::KINDS {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
        for e in std::fs::read_dir(dir.join(kind)).unwrap().flatten() {
            hostile::by_game(kind, &std::fs::read(e.path()).unwrap());
        }
    }
}

/// Byte-level mutations: flips, cuts, repeats, insertions of digits and structure characters.
fn mutate(input: &[u8], rng: &mut GameRng) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..rng.gen_range(1..4) {
        if v.is_empty() {
            v.push(b'{');
        }
        let i = rng.gen_range(0..v.len());
        match rng.gen_range(0..6) {
            0 => v[i] ^= 1 << rng.gen_range(0..8),
            1 => v.truncate(i),
            2 => {
                let j = rng.gen_range(i..v.len().min(i + 64).max(i + 1));
                let piece = v[i..j].to_vec();
                v.splice(i..i, piece);
            }
            3 => v.insert(i, b"0123456789-.e,:[]{}\"9"[rng.gen_range(0..21)]),
            4 => {
                let digits = format!("{}", rng.gen::<u64>() >> rng.gen_range(0..64));
                v.splice(i..i, digits.bytes());
            }
            _ => {
                v.remove(i);
            }
        }
    }
    v
}

/// Seeds for each driver: valid data files, reachable states, action strings.
fn seeds(name: &str) -> Vec<Vec<u8>> {
    let mut out = corpus(name);
    let ts = TofuShifu::with_params(Default::default()).unwrap();
    let tk = TofuKingdom::with_params(Default::default()).unwrap();
    match name {
        "tofu_shifu_data" => out.push(shifu_engine::tofu_shifu::data::EMBEDDED_JSON.into()),
        "tofu_kingdom_data" => {
            out.push(shifu_engine::tofu_kingdom::CardData::embedded_text().into())
        }
        "tofu_shifu_state" => {
            let mut s = ts.new_state(&mut shifu_engine::rng_from_seed(1));
            let mut legal = Vec::new();
            let mut rng = shifu_engine::rng_from_seed(2);
            for step in 0..400 {
                if step % 40 == 0 {
                    out.push(serde_json::to_vec(&s).unwrap());
                }
                ts.legal_actions(&s, &mut legal);
                let a = legal[rng.gen_range(0..legal.len())];
                ts.apply(&mut s, a, &mut rng);
            }
        }
        "tofu_kingdom_state" => {
            let mut s = tk.new_state(&mut shifu_engine::rng_from_seed(1));
            let mut legal = Vec::new();
            let mut rng = shifu_engine::rng_from_seed(2);
            for step in 0..120 {
                if tk.to_move(&s).is_none() {
                    break;
                }
                if step % 12 == 0 {
                    out.push(serde_json::to_vec(&s).unwrap());
                }
                tk.legal_actions(&s, &mut legal);
                let a = legal[rng.gen_range(0..legal.len())];
                tk.apply(&mut s, a, &mut rng);
            }
        }
        "wok_star_data" => out.push(shifu_engine::wok_star::WokData::embedded_text().into()),
        "wok_star_state" => {
            use shifu_engine::wok_star::{Params, WokStar};
            let ws = WokStar::with_params(Params::default()).unwrap();
            for seed in 0..6 {
                let mut s = ws.new_state(&mut shifu_engine::rng_from_seed(seed));
                let mut legal = Vec::new();
                let mut rng = shifu_engine::rng_from_seed(seed + 100);
                for step in 0..200 {
                    if ws.to_move(&s).is_none() {
                        break;
                    }
                    if step % 25 == 0 {
                        out.push(serde_json::to_vec(&s).unwrap());
                    }
                    ws.legal_actions(&s, &mut legal);
                    // Serve when possible, else anything but closing: states deep in a day.
                    let a = legal
                        .iter()
                        .copied()
                        .find(|a| matches!(a, shifu_engine::wok_star::Action::Serve))
                        .unwrap_or_else(|| {
                            let k = rng.gen_range(0..legal.len());
                            if legal[k] == shifu_engine::wok_star::Action::Close {
                                legal[0]
                            } else {
                                legal[k]
                            }
                        });
                    ws.apply(&mut s, a, &mut rng);
                }
            }
        }
        _ => {
            let mut rng = shifu_engine::rng_from_seed(3);
            for _ in 0..8 {
                out.push((0..3000).map(|_| rng.gen::<u8>()).collect());
            }
        }
    }
    out
}

#[test]
fn no_driver_panics_on_its_corpus_or_on_mutations_of_it() {
    let rounds: usize = std::env::var("SHIFU_HOSTILE_ROUNDS")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(150);
    for (name, drive) in DRIVERS {
        let base = seeds(name);
        assert!(!base.is_empty(), "{name}");
        let mut rng = GameRng::seed_from_u64(name.len() as u64);
        for input in &base {
            drive(input);
        }
        for k in 0..rounds {
            let input = mutate(&base[k % base.len()], &mut rng);
            let result = std::panic::catch_unwind(|| drive(&input));
            if result.is_err() {
                let path = std::env::temp_dir().join(format!("shifu-crash-{name}-{k}"));
                std::fs::write(&path, &input).unwrap();
                panic!("{name} panicked on {} (input saved)", path.display());
            }
        }
    }
}

#[test]
fn the_byte_reader_pads_with_zeros() {
    let mut b = hostile::Bytes::new(&[1, 2]);
    assert_eq!(b.u8(), 1);
    assert!(b.more());
    assert_eq!(b.u64(), 2);
    assert!(!b.more());
    assert_eq!(b.u8(), 0);
}
