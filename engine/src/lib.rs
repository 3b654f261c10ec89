//! # shifu-engine
//!
//! Fast, allocation-light rules engines for the shifu games. Start with the [`game`] module: the
//! [`Game`] trait is the contract every game implements (Game/State split, legal actions into a
//! caller-owned buffer, explicit RNG, outcome with tie-breaks, determinization). Each game lives in
//! its own folder; [`tofu_shifu`] is the model to copy when adding one.

#![warn(missing_docs)]
// Rules code walks parallel arrays indexed by dish or hat kind; index loops say that best.
#![allow(clippy::needless_range_loop)]

pub mod alloc_counter;
pub mod bitset_json;
pub mod board;
pub mod bytes;
pub mod data_file;
mod data_names;
pub mod encode;
pub mod error;
pub mod files;
pub mod game;
pub mod ginza_retro_cafe;
pub mod hostile;
mod listing;
pub mod mechanics;
pub mod optional_id;
pub mod param_file;
pub mod perft;
pub mod present;
pub mod registry;
pub mod seat_rotation;
pub mod tofu_kingdom;
pub mod tofu_shifu;
pub mod wok_star;

pub use data_file::DataFile;
pub use encode::{Bound, Encoder, Encoding, Field, Recording, Sink};
pub use error::EngineError;
pub use game::{Game, IllegalAction, Outcome, Seat, MAX_SEATS};
pub use mechanics::Mechanics;
pub use param_file::ParamFile;
pub use present::{BuildOptions, Present};
pub use registry::{GameInfo, GAMES};
pub use seat_rotation::SeatRotation;

/// The RNG every shifu component uses: ChaCha8, seeded explicitly.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// A fresh [`GameRng`] from a seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    use rand::SeedableRng;
    GameRng::seed_from_u64(seed)
}
