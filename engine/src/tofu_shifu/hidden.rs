//! Hidden information: what a seat sees, and determinization.
//!
//! What is hidden in Tofu Shifu: the cards dealt to each player at set-up while they stay in that
//! player's hand, and the contents of the deck. Everything else is public: the market, every
//! board, the face-up Rest zones (so cards that come back to a hand from the Rest zone are known),
//! upgrades, objectives, coins, and the customer tiles (the bag holds exactly the tiles not on a
//! table, and every draw is a fresh random draw, so the bag has no hidden order). The deck has no
//! hidden order either: each draw is a uniform draw from the cards left.

use super::payment::pack;
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
    ///
    /// When another player is in the middle of its turn, its earlier choices this turn (a space
    /// entered, a card chosen) showed that its hand could pay for them. A re-deal that could not
    /// finish the turn is therefore rejected and drawn again (up to 64 times); if none fits, that
    /// player's private cards are kept and only the others are re-dealt.
    pub(crate) fn sample_hidden<R: Rng + ?Sized>(
        &self,
        s: &State,
        observer: Seat,
        rng: &mut R,
    ) -> State {
        let mid_turn = s.current != observer
            && !matches!(
                s.turn.phase,
                Phase::TurnStart | Phase::TurnEnd | Phase::GameOver
            );
        let mut d = s.clone();
        if !mid_turn {
            self.redeal(&mut d, observer, SeatId::NONE, rng);
        } else if !self.redeal_finishing(&mut d, s, observer, rng) {
            self.redeal(&mut d, observer, SeatId::new(s.current), rng);
        }
        d
    }

    /// Re-deals `d` (a copy of `s`) until the player to move can finish its turn, up to 64
    /// times: whether one could (`d` is then that deal; else `s` again).
    fn redeal_finishing<R: Rng + ?Sized>(
        &self,
        d: &mut State,
        s: &State,
        observer: Seat,
        rng: &mut R,
    ) -> bool {
        for _ in 0..64 {
            self.redeal(d, observer, SeatId::NONE, rng);
            if self.turn_can_finish(d) {
                return true;
            }
            d.clone_from(s);
        }
        false
    }

    /// Re-deals, in `d`, the private cards of every seat but `observer` and `keep`.
    fn redeal<R: Rng + ?Sized>(&self, d: &mut State, observer: Seat, keep: SeatId, rng: &mut R) {
        let mut pool = d.deck;
        let redealt = |q: usize| q != observer as usize && keep.index() != Some(q);
        for q in 0..d.num_players as usize {
            if redealt(q) {
                pool |= d.players[q].hidden_hand();
            }
        }
        for q in 0..d.num_players as usize {
            if !redealt(q) {
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
    }

    /// Whether the player to move can complete the phase it is in (the phases whose legality
    /// depends on the hand: paying hats, choosing a card, choosing a space to copy).
    fn turn_can_finish(&self, s: &State) -> bool {
        let seat = s.current as usize;
        let p = &s.players[seat];
        match s.turn.phase {
            Phase::PayHats => self.can_pay(pack(&s.turn.pending), self.payers(p, s.turn.card)),
            Phase::ChooseCard | Phase::CopyTarget => {
                let mut legal = Vec::new();
                self.legal(s, &mut legal);
                !legal.is_empty()
            }
            _ => true,
        }
    }
}
