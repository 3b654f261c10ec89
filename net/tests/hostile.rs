//! Weights files a user might give by mistake or malice: each is refused with a message naming
//! the file, never a panic.

use safetensors::tensor::{Dtype, TensorView};
use shifu_engine::tofu_kingdom::{self, TofuKingdom};
use shifu_engine::tofu_shifu::{Params, TofuShifu};
use shifu_net::{NetConfig, Weights};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

struct Dir(PathBuf);

impl Dir {
    fn new(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("shifu-net-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

fn weights() -> Weights {
    let g = TofuShifu::with_params(Params::with_players(2)).unwrap();
    Weights::init(NetConfig::for_game(&g, 8, 1), 1)
}

/// Loading `path` fails with a message naming it and containing `says`.
fn refused(path: &Path, says: &str) {
    let e = Weights::load(path)
        .expect_err("loaded a bad file")
        .to_string();
    assert!(e.contains(&path.display().to_string()), "{e}");
    assert!(e.contains(says), "{e}");
}

/// The file of `w` with tensor `name`'s data and shape replaced, and metadata key `key` set.
fn edited(w: &Weights, name: &str, data: Vec<f32>, shape: Vec<usize>) -> Vec<u8> {
    let bytes: Vec<Vec<u8>> = w
        .config
        .tensors()
        .iter()
        .zip(&w.params)
        .map(|((n, _), p)| {
            let p = if n == name { &data } else { p };
            p.iter().flat_map(|x| x.to_le_bytes()).collect()
        })
        .collect();
    let views: Vec<(String, TensorView)> = w
        .config
        .tensors()
        .into_iter()
        .zip(&bytes)
        .map(|((n, s), b)| {
            let s = if n == name { shape.clone() } else { s };
            let v = TensorView::new(Dtype::F32, s, b).unwrap();
            (n, v)
        })
        .collect();
    let good = w.to_bytes();
    let (_, meta) = safetensors::SafeTensors::read_metadata(&good).unwrap();
    let info: HashMap<String, String> = meta.metadata().clone().unwrap();
    safetensors::serialize(views, Some(info)).unwrap()
}

#[test]
fn nan_and_infinite_values_are_refused() {
    let d = Dir::new("nan");
    let w = weights();
    for (bad, says) in [(f32::NAN, "NaN"), (f32::INFINITY, "inf")] {
        let mut data = w.params[1].clone();
        data[3] = bad;
        let f = d.0.join("nan.safetensors");
        std::fs::write(&f, edited(&w, "stem.bias", data, vec![8])).unwrap();
        refused(&f, says);
    }
}

#[test]
fn a_wrong_shape_is_refused() {
    let d = Dir::new("shape");
    let w = weights();
    let f = d.0.join("shape.safetensors");
    let data = w.params[1][..4].to_vec();
    std::fs::write(&f, edited(&w, "stem.bias", data, vec![4])).unwrap();
    refused(&f, "stem.bias");
}

#[test]
fn a_truncated_or_foreign_file_is_refused() {
    let d = Dir::new("trunc");
    let bytes = weights().to_bytes();
    let f = d.0.join("t.safetensors");
    for cut in [0, 7, 100, bytes.len() - 1] {
        std::fs::write(&f, &bytes[..cut]).unwrap();
        refused(&f, "safetensors");
    }
    std::fs::write(&f, b"{\"a\": 1}").unwrap();
    refused(&f, "safetensors");
}

#[test]
fn a_directory_a_pipe_and_an_oversized_file_are_refused() {
    let d = Dir::new("kind");
    refused(&d.0, "directory");
    let fifo = d.0.join("fifo");
    let ok = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        refused(&fifo, "pipe");
    }
    let big = d.0.join("big.safetensors");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(65 << 20).unwrap();
    refused(&big, "limit");
    refused(&d.0.join("missing.safetensors"), "No such file");
}

#[test]
fn a_network_for_another_game_or_player_count_is_named() {
    let w = weights();
    let other = TofuShifu::with_params(Params::with_players(3)).unwrap();
    let m = w.config.mismatch(&other).expect("3 players refused");
    assert!(m.contains("2 players") && m.contains("3 players"), "{m}");
    let tk = TofuKingdom::with_params(tofu_kingdom::Params::with_players(4)).unwrap();
    let m = w.config.mismatch(&tk).expect("another game refused");
    assert!(m.contains("tofu-shifu"), "{m}");
}

#[test]
fn metadata_that_is_missing_or_out_of_range_is_refused() {
    let d = Dir::new("meta");
    let w = weights();
    let f = d.0.join("m.safetensors");
    let bytes = w.to_bytes();
    let (_, meta) = safetensors::SafeTensors::read_metadata(&bytes).unwrap();
    let info = meta.metadata().clone().unwrap();
    for (key, value, says) in [
        ("version", Some("9"), "version 9"),
        ("hidden", Some("0"), "hidden"),
        ("players", Some("99"), "players"),
        ("game", None, "game"),
        ("format", Some("other"), "format"),
    ] {
        let mut info = info.clone();
        match value {
            Some(v) => info.insert(key.to_string(), v.to_string()),
            None => info.remove(key),
        };
        let data: Vec<Vec<u8>> = w
            .params
            .iter()
            .map(|p| p.iter().flat_map(|x| x.to_le_bytes()).collect())
            .collect();
        let views: Vec<(String, TensorView)> = w
            .config
            .tensors()
            .into_iter()
            .zip(&data)
            .map(|((n, s), b)| (n, TensorView::new(Dtype::F32, s, b).unwrap()))
            .collect();
        std::fs::write(&f, safetensors::serialize(views, Some(info)).unwrap()).unwrap();
        refused(&f, says);
    }
}
