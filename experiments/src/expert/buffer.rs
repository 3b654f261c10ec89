//! The replay buffer: the positions of the last K self-play games, kept sparse (an encoding is
//! mostly zeros, and a policy target is non-zero only on legal actions), saved as a
//! safetensors file for `--resume`.

use anyhow::{bail, Result};
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use std::collections::{HashMap, VecDeque};
use std::path::Path;

/// One game's recorded decisions: per row, the non-zero inputs of the relative observation,
/// the legal actions with their target probabilities (root visit shares), and the final
/// outcome per seat counted from the row's observer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameSamples {
    /// Non-zero inputs per row.
    pub input_len: Vec<u32>,
    /// Their indices, rows concatenated.
    pub input_index: Vec<u32>,
    /// Their values.
    pub input_value: Vec<f32>,
    /// Legal actions per row.
    pub legal_len: Vec<u32>,
    /// Their action indices, rows concatenated.
    pub legal_index: Vec<u32>,
    /// Their target probabilities.
    pub legal_policy: Vec<f32>,
    /// Target values (`rows × players`, relative to each row's observer).
    pub value: Vec<f32>,
}

impl GameSamples {
    /// Rows recorded.
    pub fn rows(&self) -> usize {
        self.input_len.len()
    }
}

/// A game's rows with their offsets, for random access.
#[derive(Debug, Clone)]
struct Stored {
    g: GameSamples,
    input_start: Vec<usize>,
    legal_start: Vec<usize>,
}

fn starts(lens: &[u32]) -> Vec<usize> {
    let mut s = Vec::with_capacity(lens.len() + 1);
    s.push(0);
    for &l in lens {
        s.push(s[s.len() - 1] + l as usize);
    }
    s
}

/// The sliding window of the last `capacity` games' positions.
#[derive(Debug, Clone)]
pub struct Buffer {
    inputs: usize,
    actions: usize,
    players: usize,
    capacity: usize,
    games: VecDeque<Stored>,
}

impl Buffer {
    /// An empty buffer of `capacity` games for a network's inputs, actions and players.
    pub fn new(inputs: usize, actions: usize, players: usize, capacity: usize) -> Self {
        Buffer {
            inputs,
            actions,
            players,
            capacity: capacity.max(1),
            games: VecDeque::new(),
        }
    }

    /// Adds a game, dropping the oldest beyond the capacity.
    pub fn push(&mut self, g: GameSamples) {
        let input_start = starts(&g.input_len);
        let legal_start = starts(&g.legal_len);
        self.games.push_back(Stored {
            g,
            input_start,
            legal_start,
        });
        while self.games.len() > self.capacity {
            self.games.pop_front();
        }
    }

    /// Every position as (game, row), in order.
    pub fn index(&self) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        for (i, s) in self.games.iter().enumerate() {
            v.extend((0..s.g.rows() as u32).map(|r| (i as u32, r)));
        }
        v
    }

    /// Positions held.
    pub fn positions(&self) -> usize {
        self.games.iter().map(|s| s.g.rows()).sum()
    }

    /// Games held.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Writes position `(game, row)` densely into one row of each batch array.
    pub fn fill(
        &self,
        (game, row): (u32, u32),
        x: &mut [f32],
        mask: &mut [u8],
        p: &mut [f32],
        v: &mut [f32],
    ) {
        let s = &self.games[game as usize];
        let r = row as usize;
        x.fill(0.0);
        for k in s.input_start[r]..s.input_start[r + 1] {
            x[s.g.input_index[k] as usize] = s.g.input_value[k];
        }
        mask.fill(0);
        p.fill(0.0);
        for k in s.legal_start[r]..s.legal_start[r + 1] {
            let a = s.g.legal_index[k] as usize;
            mask[a] = 1;
            p[a] = s.g.legal_policy[k];
        }
        v.copy_from_slice(&s.g.value[r * self.players..(r + 1) * self.players]);
    }

    /// The buffer as safetensors bytes (the games concatenated, with their row counts).
    pub fn to_bytes(&self) -> Vec<u8> {
        let u32s = |f: &dyn Fn(&GameSamples) -> &[u32]| -> Vec<u8> {
            self.games
                .iter()
                .flat_map(|s| f(&s.g).iter().flat_map(|x| x.to_le_bytes()))
                .collect()
        };
        let f32s = |f: &dyn Fn(&GameSamples) -> &[f32]| -> Vec<u8> {
            self.games
                .iter()
                .flat_map(|s| f(&s.g).iter().flat_map(|x| x.to_le_bytes()))
                .collect()
        };
        let game_rows: Vec<u8> = self
            .games
            .iter()
            .flat_map(|s| (s.g.rows() as u32).to_le_bytes())
            .collect();
        let data: Vec<(&str, Dtype, Vec<u8>)> = vec![
            ("game_rows", Dtype::U32, game_rows),
            ("input_len", Dtype::U32, u32s(&|g| &g.input_len)),
            ("input_index", Dtype::U32, u32s(&|g| &g.input_index)),
            ("input_value", Dtype::F32, f32s(&|g| &g.input_value)),
            ("legal_len", Dtype::U32, u32s(&|g| &g.legal_len)),
            ("legal_index", Dtype::U32, u32s(&|g| &g.legal_index)),
            ("legal_policy", Dtype::F32, f32s(&|g| &g.legal_policy)),
            ("value", Dtype::F32, f32s(&|g| &g.value)),
        ];
        let views = data.iter().map(|(name, dtype, b)| {
            let view = TensorView::new(*dtype, vec![b.len() / 4], b).expect("shape fits data");
            (name.to_string(), view)
        });
        let meta: HashMap<String, String> = [
            ("format", "shifu-replay-buffer".to_string()),
            ("inputs", self.inputs.to_string()),
            ("actions", self.actions.to_string()),
            ("players", self.players.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        shifu_net::canonical_safetensors(
            safetensors::serialize(views, Some(meta)).expect("serializable"),
        )
    }

    /// A buffer like `self` (same shape and capacity) read from `path`, every field checked.
    pub fn load_like(&self, path: &Path) -> Result<Buffer> {
        let meta = std::fs::metadata(path).map_err(|e| {
            anyhow::anyhow!("{}: cannot read the replay buffer ({e})", path.display())
        })?;
        if !meta.is_file() {
            bail!(
                "{}: the replay buffer is not a regular file",
                path.display()
            );
        }
        let bytes = std::fs::read(path).map_err(|e| {
            anyhow::anyhow!("{}: cannot read the replay buffer ({e})", path.display())
        })?;
        self.read_like(&bytes)
            .map_err(|m| anyhow::anyhow!("{}: not this run's replay buffer: {m}", path.display()))
    }

    fn read_like(&self, bytes: &[u8]) -> Result<Buffer, String> {
        let (_, header) =
            SafeTensors::read_metadata(bytes).map_err(|e| format!("not safetensors ({e})"))?;
        let info = header.metadata().clone().unwrap_or_default();
        let want = [
            ("format", "shifu-replay-buffer".to_string()),
            ("inputs", self.inputs.to_string()),
            ("actions", self.actions.to_string()),
            ("players", self.players.to_string()),
        ];
        for (k, v) in want {
            if info.get(k) != Some(&v) {
                return Err(format!(
                    "metadata `{k}` is {:?}, expected `{v}`",
                    info.get(k)
                ));
            }
        }
        let st = SafeTensors::deserialize(bytes).map_err(|e| format!("not safetensors ({e})"))?;
        let raw = |name: &str, dtype: Dtype| -> Result<Vec<[u8; 4]>, String> {
            let t = st
                .tensor(name)
                .map_err(|_| format!("tensor `{name}` is missing"))?;
            if t.dtype() != dtype || t.shape().len() != 1 {
                return Err(format!("tensor `{name}` is not a vector of {dtype:?}"));
            }
            Ok(t.data()
                .chunks_exact(4)
                .map(|b| [b[0], b[1], b[2], b[3]])
                .collect())
        };
        let u = |name: &str| -> Result<Vec<u32>, String> {
            Ok(raw(name, Dtype::U32)?
                .into_iter()
                .map(u32::from_le_bytes)
                .collect())
        };
        let f = |name: &str| -> Result<Vec<f32>, String> {
            let v: Vec<f32> = raw(name, Dtype::F32)?
                .into_iter()
                .map(f32::from_le_bytes)
                .collect();
            match v.iter().position(|x| !x.is_finite()) {
                Some(i) => Err(format!("tensor `{name}` holds {} at index {i}", v[i])),
                None => Ok(v),
            }
        };
        let (game_rows, input_len, legal_len) = (u("game_rows")?, u("input_len")?, u("legal_len")?);
        let (input_index, legal_index) = (u("input_index")?, u("legal_index")?);
        let (input_value, legal_policy, value) =
            (f("input_value")?, f("legal_policy")?, f("value")?);
        let rows: u64 = game_rows.iter().map(|&r| u64::from(r)).sum();
        let sum = |v: &[u32]| v.iter().map(|&x| u64::from(x)).sum::<u64>();
        let consistent = input_len.len() as u64 == rows
            && legal_len.len() as u64 == rows
            && value.len() as u64 == rows * self.players as u64
            && sum(&input_len) == input_index.len() as u64
            && input_index.len() == input_value.len()
            && sum(&legal_len) == legal_index.len() as u64
            && legal_index.len() == legal_policy.len()
            && input_index.iter().all(|&i| (i as usize) < self.inputs)
            && legal_index.iter().all(|&i| (i as usize) < self.actions);
        if !consistent {
            return Err("its tensors' lengths or indices do not agree".into());
        }
        let mut b = Buffer::new(self.inputs, self.actions, self.players, self.capacity);
        let (mut r0, mut i0, mut l0) = (0usize, 0usize, 0usize);
        for &n in &game_rows {
            let r1 = r0 + n as usize;
            let i1 = i0 + input_len[r0..r1].iter().map(|&x| x as usize).sum::<usize>();
            let l1 = l0 + legal_len[r0..r1].iter().map(|&x| x as usize).sum::<usize>();
            b.push(GameSamples {
                input_len: input_len[r0..r1].to_vec(),
                input_index: input_index[i0..i1].to_vec(),
                input_value: input_value[i0..i1].to_vec(),
                legal_len: legal_len[r0..r1].to_vec(),
                legal_index: legal_index[l0..l1].to_vec(),
                legal_policy: legal_policy[l0..l1].to_vec(),
                value: value[r0 * self.players..r1 * self.players].to_vec(),
            });
            (r0, i0, l0) = (r1, i1, l1);
        }
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(k: u32) -> GameSamples {
        GameSamples {
            input_len: vec![2, 1],
            input_index: vec![0, 3, k % 5],
            input_value: vec![1.0, 0.5, 2.0],
            legal_len: vec![2, 1],
            legal_index: vec![1, 6, 2],
            legal_policy: vec![0.25, 0.75, 1.0],
            value: vec![1.0, -1.0, -1.0, 1.0],
        }
    }

    #[test]
    fn a_window_of_the_last_games_fills_dense_rows_and_round_trips() {
        let mut b = Buffer::new(5, 7, 2, 2);
        for k in 0..3 {
            b.push(game(k));
        }
        assert_eq!((b.games(), b.positions()), (2, 4));
        let (mut x, mut m, mut p, mut v) = (vec![9.0; 5], vec![9; 7], vec![9.0; 7], vec![0.0; 2]);
        b.fill((1, 1), &mut x, &mut m, &mut p, &mut v);
        // Game 1 of the window is game 2 pushed: its second row has input 2 at index 2.
        assert_eq!(x, [0.0, 0.0, 2.0, 0.0, 0.0]);
        assert_eq!(m, [0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(p[2], 1.0);
        assert_eq!(v, [-1.0, 1.0]);
        let back = b.read_like(&b.to_bytes()).unwrap();
        assert_eq!(back.to_bytes(), b.to_bytes());
        assert_eq!(back.index(), b.index());
    }

    #[test]
    fn a_buffer_of_another_shape_or_a_bad_file_is_refused() {
        let mut b = Buffer::new(5, 7, 2, 2);
        b.push(game(0));
        let other = Buffer::new(5, 8, 2, 2);
        assert!(other
            .read_like(&b.to_bytes())
            .unwrap_err()
            .contains("actions"));
        assert!(b.read_like(b"not a file").is_err());
        let mut bad = game(0);
        bad.input_index[0] = 99;
        let mut c = Buffer::new(5, 7, 2, 2);
        c.push(bad);
        assert!(b.read_like(&c.to_bytes()).unwrap_err().contains("indices"));
    }
}
