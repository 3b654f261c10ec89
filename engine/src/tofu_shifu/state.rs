//! One Tofu Shifu position: small plain data (bitsets and small arrays), cheap to clone,
//! serialisable to JSON.

use super::types::*;
use serde::{Deserialize, Serialize};

/// Where the current turn is. A turn is a short sequence of these phases; each lists a small set
/// of legal actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Before the Shifu action: complete objectives, then move the Shifu marker (or pass).
    TurnStart,
    /// Copy: choose the occupied space whose action to copy.
    CopyTarget,
    /// Upgrade or Set Objective: choose the card from hand.
    ChooseCard,
    /// Pay the pending hat costs one by one (`TurnCtx::pending`).
    PayHats,
    /// Seat: make extra payments for more tiles, or draw.
    SeatExtra,
    /// Seat: place each drawn tile (lowest id first) at a table, or return it to the bag.
    PlaceTiles,
    /// Serve: sell to customers and the market, in increasing order of `TurnCtx::cursor`.
    Serve,
    /// Checkout: clean up tables in increasing order.
    Checkout,
    /// Hire: take a market card.
    Hire,
    /// Rest: buy market cards in increasing slot order.
    RestBuy,
    /// Rest: hand over the limit by no more than the limit; return cards to the Rest zone
    /// (increasing id order).
    RestDiscard,
    /// Rest: hand over the limit by more than the limit; choose the cards to keep (increasing id
    /// order) and the others go back to the Rest zone. Same choice as `RestDiscard`, fewer steps.
    RestKeep,
    /// After the Shifu action: complete objectives, then end the turn.
    TurnEnd,
    /// The game is over.
    GameOver,
}

/// Progress of the current turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnCtx {
    /// The current phase.
    pub phase: Phase,
    /// The action being taken (the copied one when copying).
    pub action: Space,
    /// Whether the action is a Copy of another player's space.
    pub copied: bool,
    /// The card chosen for Upgrade / Set Objective.
    pub card: CardId,
    /// Hat symbols still to pay, by [`Hat`].
    pub pending: HatCounts,
    /// Where payment returns to when done: the action itself, or the Seat extra step.
    pub paying_extra: bool,
    /// Seat: extra payments made so far.
    pub extra: u8,
    /// Serve / Checkout / Rest buying / Rest discard: ordering cursor (see the phases).
    pub cursor: u8,
    /// Serve: market sales left this action.
    pub market_left: u8,
    /// Rest: cards chosen to keep (phase `RestKeep`).
    #[serde(with = "crate::bitset_json")]
    pub kept: CardSet,
    /// A Town objective was completed this turn.
    pub town_claimed: bool,
    /// A Town or Player objective was completed this turn.
    pub objective_claimed: bool,
}

impl TurnCtx {
    /// A fresh turn.
    pub fn new() -> TurnCtx {
        TurnCtx {
            phase: Phase::TurnStart,
            action: Space::Rest,
            copied: false,
            card: CardId::NONE,
            pending: [0; 5],
            paying_extra: false,
            extra: 0,
            cursor: 0,
            market_left: 0,
            kept: 0,
            town_claimed: false,
            objective_claimed: false,
        }
    }
}

impl Default for TurnCtx {
    fn default() -> Self {
        Self::new()
    }
}

/// One player's board, hand and zones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Coins.
    pub coins: u16,
    /// Where the Shifu marker stands.
    pub marker: u8,
    /// Cards in hand.
    #[serde(with = "crate::bitset_json")]
    pub hand: CardSet,
    /// Cards in hand whose identity every player has seen (they came back from the face-up Rest
    /// zone). The rest of the hand is private.
    #[serde(with = "crate::bitset_json")]
    pub hand_known: CardSet,
    /// The Rest zone (face up): discarded and newly gained cards.
    #[serde(with = "crate::bitset_json")]
    pub rest: CardSet,
    /// Cards played as upgrades.
    #[serde(with = "crate::bitset_json")]
    pub upgrades: CardSet,
    /// Cards set as restaurant objectives, not yet completed (face up).
    #[serde(with = "crate::bitset_json")]
    pub objective_zone: CardSet,
    /// Restaurant objectives completed (flipped).
    #[serde(with = "crate::bitset_json")]
    pub restaurant_done: CardSet,
    /// Town objectives completed, by index.
    pub town_done: u16,
    /// Player objectives completed, by index.
    pub player_done: u8,
    /// Bonus powers held (bit per [`Bonus`]).
    pub bonuses: u16,
    /// Dish tokens on the board (unsold), by [`Dish`].
    pub dishes: DishCounts,
    /// Hat tokens on the board, by token kind (Chef, Waiter, Cashier, Master); includes loose ones.
    pub hats: [u8; 4],
    /// Master hat tokens not tied to a flag (from a bonus power). Included in `hats[Master]`.
    pub loose_master: u8,
    /// Cyan flags (board + upgrades), by [`Dish`].
    pub dish_flags: DishCounts,
    /// Light brown flags (board + upgrades), by token kind.
    pub hat_flags: [u8; 4],
    /// Lantern upgrades.
    pub lanterns: u8,
    /// Customer tiles at each table seat.
    pub tables: [[TileId; SEATS_PER_TABLE]; MAX_TABLES],
    /// Dishes served to each seated customer (bit per [`Dish`]).
    pub served: [[u8; SEATS_PER_TABLE]; MAX_TABLES],
}

impl Default for PlayerState {
    /// All zero: the board of a seat not in the game, as saved states have always stored it (its
    /// table bytes read as tile 0; nothing reads a seat not in the game). Setup gives a seat in
    /// the game empty tables.
    fn default() -> PlayerState {
        PlayerState {
            coins: 0,
            marker: 0,
            hand: 0,
            hand_known: 0,
            rest: 0,
            upgrades: 0,
            objective_zone: 0,
            restaurant_done: 0,
            town_done: 0,
            player_done: 0,
            bonuses: 0,
            dishes: [0; 4],
            hats: [0; 4],
            loose_master: 0,
            dish_flags: [0; 4],
            hat_flags: [0; 4],
            lanterns: 0,
            tables: [[TileId::new(0); SEATS_PER_TABLE]; MAX_TABLES],
            served: [[0; SEATS_PER_TABLE]; MAX_TABLES],
        }
    }
}

impl PlayerState {
    /// Completed objectives of all three kinds: the game's score.
    pub fn objectives(&self) -> u32 {
        self.town_done.count_ones()
            + self.player_done.count_ones()
            + self.restaurant_done.count_ones()
    }

    /// Dish and hat tokens left on the board (the second tie-breaker).
    pub fn tokens(&self) -> u32 {
        self.dishes.iter().map(|&x| x as u32).sum::<u32>()
            + self.hats.iter().map(|&x| x as u32).sum::<u32>()
    }

    /// Whether the player holds a bonus power.
    pub fn has(&self, b: Bonus) -> bool {
        self.bonuses & b.bit() != 0
    }

    /// Private (unseen by others) cards in hand.
    pub fn hidden_hand(&self) -> CardSet {
        self.hand & !self.hand_known
    }

    /// Served dish counts at a table, by [`Dish`].
    pub fn table_served(&self, t: usize) -> DishCounts {
        let mut c = [0u8; 4];
        for s in 0..SEATS_PER_TABLE {
            let m = self.served[t][s];
            for (d, x) in c.iter_mut().enumerate() {
                *x += (m >> d) & 1;
            }
        }
        c
    }

    /// [`Self::table_served`], packed one count per byte (lowest byte: [`Dish`] 0).
    #[inline]
    pub fn table_served_packed(&self, t: usize) -> u32 {
        // One multiply spreads a seat's four dish bits to the low bit of four bytes.
        self.served[t]
            .iter()
            .map(|&m| (m as u32 & 0xF).wrapping_mul(0x0020_4081) & 0x0101_0101)
            .sum()
    }

    /// Customers seated at a table.
    pub fn table_customers(&self, t: usize) -> u32 {
        self.tables[t].iter().filter(|x| x.is_some()).count() as u32
    }
}

fn no_seat() -> SeatId {
    SeatId::NONE
}

/// One Tofu Shifu position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Number of players.
    pub num_players: u8,
    /// The seat whose turn it is.
    pub current: u8,
    /// The current round, 1-based.
    pub round: u16,
    /// Turns completed.
    pub turns: u32,
    /// Progress of the current turn.
    pub turn: TurnCtx,
    /// The game was stopped by the round cap.
    pub capped: bool,
    /// Production cards in the deck (drawn uniformly at random: the order is unknown to all).
    #[serde(with = "crate::bitset_json")]
    pub deck: CardSet,
    /// Market slots, left to right.
    pub market: [CardId; MAX_MARKET],
    /// Customer tiles in the bag.
    #[serde(with = "crate::bitset_json")]
    pub bag: TileSet,
    /// Tiles drawn by the current Seat action, not yet placed or returned.
    #[serde(with = "crate::bitset_json")]
    pub drawn: TileSet,
    /// Face-up Town objectives (not the coin stack), by index.
    pub town_display: u16,
    /// How many coin-stack objectives have been taken (the next one is on top).
    pub coin_stack_taken: u8,
    /// Dish tokens in the reserve (negative only with an infinite reserve).
    pub reserve_dishes: [i16; 4],
    /// Hat tokens in the reserve (negative only with an infinite reserve).
    pub reserve_hats: [i16; 4],
    /// Coins in the reserve (negative only with an infinite reserve).
    pub reserve_coins: i32,
    /// The round in which the coin reserve first ran empty (0: it never did). With an infinite
    /// reserve, the round in which more coins were out than the 80 the components hold.
    #[serde(default)]
    pub coins_out_round: u16,
    /// The round in which the deck first ran out (0: it never did).
    #[serde(default)]
    pub deck_out_round: u16,
    /// The seat that first reached the objectives that end the game (none while nobody has).
    #[serde(default = "no_seat")]
    pub end_trigger: SeatId,
    /// The players, by seat.
    pub players: [PlayerState; MAX_PLAYERS],
}

impl State {
    /// The player whose turn it is.
    pub fn me(&self) -> &PlayerState {
        &self.players[self.seat()]
    }

    /// The player whose turn it is, mutably.
    pub fn me_mut(&mut self) -> &mut PlayerState {
        let seat = self.seat();
        &mut self.players[seat]
    }

    /// The seat whose turn it is, as an index into `players`. `current` is below the player
    /// count (the load check refuses any other), so the mask changes nothing; it spares the
    /// hot paths a bounds check on every use of the index.
    #[inline]
    pub(crate) fn seat(&self) -> usize {
        const _: () = assert!(MAX_PLAYERS.is_power_of_two());
        debug_assert!(self.current < self.num_players);
        self.current as usize % MAX_PLAYERS
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.turn.phase == Phase::GameOver
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed served counts are the counts, for every pair of seats' served dishes.
    #[test]
    fn table_served_packed_counts_each_dish() {
        let mut p = PlayerState::default();
        for a in 0..16u8 {
            for b in 0..16u8 {
                p.served[1] = [a, b];
                assert_eq!(
                    p.table_served_packed(1).to_le_bytes(),
                    p.table_served(1),
                    "{a:04b} {b:04b}"
                );
            }
        }
    }
}
