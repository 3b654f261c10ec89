//! A position as the network reads it: the observer's encoding, rotated so that the observer is
//! seat 0, and the legal mask.

use shifu_engine::{Encoder, Encoding, Seat, SeatRotation};

/// Writes network inputs for one game, with its own scratch (no allocation per position).
#[derive(Debug, Clone)]
pub struct Features {
    rotation: SeatRotation,
    absolute: Vec<f32>,
}

impl Features {
    /// Features of `game`'s positions.
    pub fn new<G: Encoding>(game: &G) -> Self {
        let rotation = SeatRotation::of(game);
        let absolute = vec![0.0; rotation.len()];
        Features { rotation, absolute }
    }

    /// Writes `observer`'s view `obs`, relative to the observer, into `out`.
    pub fn observation<G: Encoding>(
        &mut self,
        game: &G,
        obs: &G::Observation,
        observer: Seat,
        out: &mut [f32],
    ) {
        let mut e = Encoder::new(&mut self.absolute);
        game.encode(obs, &mut e);
        self.rotation.rotate(observer, &self.absolute, out);
    }

    /// Writes `seat`'s view of `state`, relative to the seat, into `out`.
    pub fn state<G: Encoding>(&mut self, game: &G, state: &G::State, seat: Seat, out: &mut [f32]) {
        game.encode_observation(state, seat, &mut self.absolute);
        self.rotation.rotate(seat, &self.absolute, out);
    }

    /// Writes the mask of `legal` (1 at each one's index) into `mask`.
    pub fn mask<G: Encoding>(game: &G, legal: &[G::Action], mask: &mut [u8]) {
        mask.fill(0);
        for &a in legal {
            if let Some(m) = mask.get_mut(game.action_index(a)) {
                *m = 1;
            }
        }
    }
}
