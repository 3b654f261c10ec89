//! What a network is for and how big it is: the game it reads, and its layer sizes.

use shifu_engine::{Encoding, Field};

/// The version of the weights file format ([`crate::Weights::save`]).
pub const FORMAT_VERSION: u32 = 1;

/// A network's game and shape, kept in its weights file's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetConfig {
    /// The game's name (`tofu-shifu`).
    pub game: String,
    /// Its player count.
    pub players: usize,
    /// Length of the observation vector ([`Encoding::observation_len`]).
    pub inputs: usize,
    /// A hash of the encoding's field list ([`encoding_hash`]): a net never reads a vector laid
    /// out differently from the one it was made for.
    pub encoding_hash: u64,
    /// Policy outputs: the game's [`Encoding::action_count`].
    pub actions: usize,
    /// Width of the hidden layers.
    pub hidden: usize,
    /// Residual blocks after the input layer.
    pub blocks: usize,
}

/// The default hidden width.
pub const DEFAULT_HIDDEN: usize = 128;
/// The default number of residual blocks.
pub const DEFAULT_BLOCKS: usize = 2;

impl NetConfig {
    /// A network for `game` with the given hidden width and residual blocks.
    pub fn for_game<G: Encoding>(game: &G, hidden: usize, blocks: usize) -> Self {
        let layout = game.layout();
        NetConfig {
            game: game.name().to_string(),
            players: game.num_seats(),
            inputs: layout.last().map_or(0, |f| f.offset + f.len),
            encoding_hash: encoding_hash(&layout),
            actions: game.action_count(),
            hidden,
            blocks,
        }
    }

    /// Why `game` cannot use a network of this configuration, if it cannot.
    pub fn mismatch<G: Encoding>(&self, game: &G) -> Option<String> {
        let want = NetConfig::for_game(game, self.hidden, self.blocks);
        if self.game != want.game || self.players != want.players {
            return Some(format!(
                "a network for {} at {} players; this game is {} at {} players",
                self.game, self.players, want.game, want.players
            ));
        }
        if self.inputs != want.inputs || self.encoding_hash != want.encoding_hash {
            return Some(format!(
                "made for another encoding ({} values, hash {:016x}) than this game's \
                 ({} values, hash {:016x}): other options or data files",
                self.inputs, self.encoding_hash, want.inputs, want.encoding_hash
            ));
        }
        if self.actions != want.actions {
            return Some(format!(
                "{} policy outputs; this game has {} action indices",
                self.actions, want.actions
            ));
        }
        None
    }

    /// The value head's outputs: one per seat, relative to the observer.
    pub fn values(&self) -> usize {
        self.players
    }

    /// Each parameter tensor's name and shape (`[out, in]` for a weight matrix, as PyTorch's
    /// `nn.Linear` keeps it; `[out]` for a bias), in a fixed order.
    pub fn tensors(&self) -> Vec<(String, Vec<usize>)> {
        let (h, mut v) = (self.hidden, Vec::new());
        let mut linear = |name: String, inp: usize, out: usize| {
            v.push((format!("{name}.weight"), vec![out, inp]));
            v.push((format!("{name}.bias"), vec![out]));
        };
        linear("stem".into(), self.inputs, h);
        for b in 0..self.blocks {
            linear(format!("blocks.{b}.fc1"), h, h);
            linear(format!("blocks.{b}.fc2"), h, h);
        }
        linear("policy".into(), h, self.actions);
        linear("value".into(), h, self.values());
        v
    }
}

/// FNV-1a (64 bits) of the encoding's field names, offsets and lengths.
pub fn encoding_hash(layout: &[Field]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in layout {
        eat(f.name.as_bytes());
        eat(&(f.offset as u64).to_le_bytes());
        eat(&(f.len as u64).to_le_bytes());
    }
    h
}
