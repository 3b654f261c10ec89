//! Hidden information: what a seat sees, and determinization.
//!
//! What is hidden in Tofu Shifu: the cards dealt to each player at set-up while they stay in that
//! player's hand, and the contents of the deck. Everything else is public: the market, every
//! board, the face-up Rest zones (so cards that come back to a hand from the Rest zone are known),
//! upgrades, objectives, coins, and the customer tiles (the bag holds exactly the tiles not on a
//! table, and every draw is a fresh random draw, so the bag has no hidden order). The deck has no
//! hidden order either: each draw is a uniform draw from the cards left.

use super::*;
use serde::Serialize;

/// What one seat sees: the state with every other player's private hand cards and the deck's
/// contents removed, and their counts kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    /// The observing seat.
    pub observer: Seat,
    /// The state with hidden cards removed (others' private hand cards, deck contents).
    pub public: State,
    /// Cards in the deck.
    pub deck_size: u32,
    /// Private cards in each player's hand (the observer's own are in `public`).
    pub hidden_hand_sizes: [u32; MAX_PLAYERS],
}

impl TofuShifu {
    pub(crate) fn observe(&self, s: &State, observer: Seat) -> Observation {
        let mut public = s.clone();
        let mut hidden_hand_sizes = [0u32; MAX_PLAYERS];
        for q in 0..s.num_players as usize {
            if q != observer as usize {
                let p = &mut public.players[q];
                hidden_hand_sizes[q] = p.hidden_hand().count_ones();
                p.hand &= p.hand_known;
            }
        }
        public.deck = 0;
        Observation {
            observer,
            public,
            deck_size: s.deck.count_ones(),
            hidden_hand_sizes,
        }
    }

    /// Re-deals every card `observer` cannot see: the other players' private hand cards and the
    /// deck are pooled and dealt again at random, keeping each hand's private count.
    pub(crate) fn determinized<R: Rng + ?Sized>(
        &self,
        s: &State,
        observer: Seat,
        rng: &mut R,
    ) -> State {
        let mut d = s.clone();
        let mut pool = s.deck;
        for q in 0..s.num_players as usize {
            if q != observer as usize {
                pool |= s.players[q].hidden_hand();
            }
        }
        for q in 0..s.num_players as usize {
            if q == observer as usize {
                continue;
            }
            let p = &mut d.players[q];
            let k = p.hidden_hand().count_ones();
            p.hand &= p.hand_known;
            for _ in 0..k {
                let c = random_card(pool, rng);
                pool &= !(1u128 << c);
                p.hand |= 1u128 << c;
            }
        }
        d.deck = pool;
        d
    }
}
