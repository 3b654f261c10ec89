//! A network's parameters as plain `f32` arrays, created from a seed, saved to and loaded from
//! a safetensors file.
//!
//! The file holds one `F32` tensor per parameter, named and shaped as PyTorch's `nn.Linear`
//! keeps them (`stem.weight` `[hidden, inputs]`, `stem.bias`, `blocks.0.fc1.weight`, …,
//! `policy.weight`, `value.weight`; see [`NetConfig::tensors`]), and the metadata of
//! [`NetConfig`] as strings: `format` (`shifu-net`), `version`, `game`, `players`, `inputs`,
//! `encoding_hash` (16 hexadecimal digits), `actions`, `hidden`, `blocks`.

use crate::config::{NetConfig, FORMAT_VERSION};
use rand::{Rng, SeedableRng};
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use shifu_engine::files::{read_bytes, write_atomic, FileError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A weights file that cannot be used, or written; the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read or written (a directory, a pipe, too large, missing).
    #[error(transparent)]
    File(#[from] FileError),
    /// The file was read but is not a usable network.
    #[error("{}: {message}", file.display())]
    Bad {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

fn bad(file: &Path, message: impl Into<String>) -> NetError {
    NetError::Bad {
        file: file.to_path_buf(),
        message: message.into(),
    }
}

/// A network's configuration and parameters, in the order of [`NetConfig::tensors`].
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// The game and the shape.
    pub config: NetConfig,
    /// Each parameter tensor's values, row-major.
    pub params: Vec<Vec<f32>>,
}

impl Weights {
    /// New weights drawn from `seed` as PyTorch initialises `nn.Linear` (uniform within
    /// ±1/√inputs, biases too); the same seed gives the same weights.
    pub fn init(config: NetConfig, seed: u64) -> Self {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let tensors = config.tensors();
        let mut params = Vec::with_capacity(tensors.len());
        for pair in tensors.chunks(2) {
            let fan_in = pair[0].1[1];
            let bound = 1.0 / (fan_in.max(1) as f32).sqrt();
            for (_, shape) in pair {
                let n = shape.iter().product();
                params.push((0..n).map(|_| rng.gen_range(-bound..=bound)).collect());
            }
        }
        Weights { config, params }
    }

    /// The parameter named `name` (see [`NetConfig::tensors`]).
    pub fn get(&self, name: &str) -> Option<&[f32]> {
        let i = self.config.tensors().iter().position(|(n, _)| n == name)?;
        Some(&self.params[i])
    }

    fn metadata(&self) -> HashMap<String, String> {
        let c = &self.config;
        [
            ("format", "shifu-net".to_string()),
            ("version", FORMAT_VERSION.to_string()),
            ("game", c.game.clone()),
            ("players", c.players.to_string()),
            ("inputs", c.inputs.to_string()),
            ("encoding_hash", format!("{:016x}", c.encoding_hash)),
            ("actions", c.actions.to_string()),
            ("hidden", c.hidden.to_string()),
            ("blocks", c.blocks.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// The safetensors bytes of these weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        let tensors = self.config.tensors();
        let bytes: Vec<Vec<u8>> = self
            .params
            .iter()
            .map(|p| p.iter().flat_map(|x| x.to_le_bytes()).collect())
            .collect();
        let views = tensors.iter().zip(&bytes).map(|((name, shape), b)| {
            let view = TensorView::new(Dtype::F32, shape.clone(), b).expect("shape fits data");
            (name.clone(), view)
        });
        canonical_safetensors(
            safetensors::serialize(views, Some(self.metadata())).expect("serializable"),
        )
    }

    /// Writes the weights to `path` (atomically: a temporary file renamed over it).
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        Ok(write_atomic(path, &self.to_bytes())?)
    }

    /// Reads weights from `path`: a regular file of at most 64 MiB, in the format of
    /// [`Weights::save`], every value finite. Any other file is refused, naming it.
    pub fn load(path: &Path) -> Result<Self, NetError> {
        let bytes = read_bytes(path)?;
        Weights::from_bytes(&bytes).map_err(|m| bad(path, m))
    }

    /// Weights from safetensors bytes, or what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let (_, meta) = SafeTensors::read_metadata(bytes)
            .map_err(|e| format!("not a safetensors file ({e})"))?;
        let info = meta.metadata().clone().unwrap_or_default();
        let config = config_of(&info)?;
        let st =
            SafeTensors::deserialize(bytes).map_err(|e| format!("not a safetensors file ({e})"))?;
        let tensors = config.tensors();
        if st.len() != tensors.len() {
            return Err(format!(
                "{} tensors; a network of this shape has {}",
                st.len(),
                tensors.len()
            ));
        }
        let mut params = Vec::with_capacity(tensors.len());
        for (name, shape) in &tensors {
            let t = st
                .tensor(name)
                .map_err(|_| format!("tensor `{name}` is missing"))?;
            if t.dtype() != Dtype::F32 {
                return Err(format!("tensor `{name}` is {:?}, not F32", t.dtype()));
            }
            if t.shape() != shape.as_slice() {
                return Err(format!(
                    "tensor `{name}` has shape {:?}; the metadata gives {:?}",
                    t.shape(),
                    shape
                ));
            }
            let v: Vec<f32> = t
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                return Err(format!("tensor `{name}` holds {} at index {i}", v[i]));
            }
            params.push(v);
        }
        Ok(Weights { config, params })
    }
}

/// `bytes` (a safetensors file) with its JSON header's keys sorted at every level.
/// `safetensors::serialize` writes the metadata from a `HashMap`, whose order changes from run to
/// run: without this the same weights would not give the same file, byte for byte. Bytes that
/// are not a safetensors file come back unchanged.
pub fn canonical_safetensors(mut bytes: Vec<u8>) -> Vec<u8> {
    fn sorted(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let items: Vec<String> = keys
                    .iter()
                    .map(|k| format!("{}:{}", serde_json::Value::from(k.as_str()), sorted(&m[*k])))
                    .collect();
                format!("{{{}}}", items.join(","))
            }
            other => other.to_string(),
        }
    }
    let Some(head) = bytes.get(..8) else {
        return bytes;
    };
    let n = u64::from_le_bytes(head.try_into().expect("8 bytes")) as usize;
    let Some(json) = bytes.get(8..8usize.saturating_add(n)) else {
        return bytes;
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(json) else {
        return bytes;
    };
    let mut text = sorted(&v);
    if text.len() > n {
        return bytes;
    }
    // The same length as before (compact JSON either way), padded with spaces as written.
    while text.len() < n {
        text.push(' ');
    }
    bytes[8..8 + n].copy_from_slice(text.as_bytes());
    bytes
}

/// The configuration in a file's metadata, checked.
fn config_of(info: &HashMap<String, String>) -> Result<NetConfig, String> {
    let get = |k: &str| {
        info.get(k)
            .map(String::as_str)
            .ok_or_else(|| format!("metadata `{k}` is missing: not a shifu network"))
    };
    let num = |k: &str, least: usize, most: usize| -> Result<usize, String> {
        let v = get(k)?;
        match v.parse::<usize>() {
            Ok(n) if (least..=most).contains(&n) => Ok(n),
            _ => Err(format!(
                "metadata `{k}` = `{v}` is not a number from {least} to {most}"
            )),
        }
    };
    if get("format")? != "shifu-net" {
        return Err("metadata `format` is not `shifu-net`".into());
    }
    let version = get("version")?;
    if version != FORMAT_VERSION.to_string() {
        return Err(format!(
            "format version {version}; this shifu reads version {FORMAT_VERSION}"
        ));
    }
    let hash = get("encoding_hash")?;
    let encoding_hash = u64::from_str_radix(hash, 16)
        .map_err(|_| format!("metadata `encoding_hash` = `{hash}` is not hexadecimal"))?;
    // Bounds keep a hostile header from sizing a huge network; the tensors must match anyway.
    let config = NetConfig {
        game: get("game")?.to_string(),
        players: num("players", 1, shifu_engine::MAX_SEATS)?,
        inputs: num("inputs", 1, 1 << 24)?,
        encoding_hash,
        actions: num("actions", 1, 1 << 24)?,
        hidden: num("hidden", 1, 1 << 16)?,
        blocks: num("blocks", 0, 64)?,
    };
    Ok(config)
}
