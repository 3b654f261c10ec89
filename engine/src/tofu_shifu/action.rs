//! Tofu Shifu actions: each one small decision of a compound turn.

use super::types::*;
use serde::{Deserialize, Serialize};

/// One decision. Card and tile fields are ids into the game's data tables; table and slot fields
/// are 0-based positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Four bytes (three without): an action is written to the legal list in whole words.
#[repr(align(4))]
pub enum Action {
    /// Complete a face-up Town objective (index into the data's town objectives), paying its coins.
    ClaimTown(u8),
    /// Complete one of your Player objectives (index), paying its coins.
    ClaimPlayer(u8),
    /// The Shifu action's first step: move the marker to a space.
    Move(Space),
    /// No space can be moved to: the turn passes with the marker where it is.
    Pass,
    /// Copy: the occupied space whose action you take.
    CopyTarget(Space),
    /// Upgrade / Set Objective: the card from hand.
    ChooseCard(u8),
    /// Pay the next hat symbol with a hat token of this kind (back to the reserve).
    PayToken(Hat),
    /// Pay the next hat symbol by discarding this card from hand to the Rest zone.
    PayCard(u8),
    /// Seat: make one more extra payment, by option index (0 = one Waiter hat, 1 = two
    /// Apprentice hats in the default data).
    SeatExtra(u8),
    /// Seat: stop paying and draw the tiles.
    SeatDraw,
    /// Seat: place the next drawn tile at a table.
    PlaceTile {
        /// The tile.
        tile: u8,
        /// The table.
        table: u8,
    },
    /// Seat: return the next drawn tile to the bag.
    ReturnTile(u8),
    /// Serve: sell a dish to a seated customer who ordered it.
    ServeCustomer {
        /// The table.
        table: u8,
        /// The seat at the table.
        seat: u8,
        /// The dish.
        dish: Dish,
    },
    /// Serve: sell a dish to the market.
    SellToMarket(Dish),
    /// Serve: done.
    EndServe,
    /// Checkout: clean up a table, completing at most one restaurant objective.
    CleanTable {
        /// The table.
        table: u8,
        /// The objective card completed, if any.
        objective: CardId,
    },
    /// Checkout: done.
    EndCheckout,
    /// Hire: take the card in this market slot.
    Hire(u8),
    /// Rest: buy the card in this market slot.
    Buy(u8),
    /// Rest: stop buying (then the market refills and the Rest zone returns to hand).
    EndBuying,
    /// Rest: return this card from hand to the Rest zone (hand over the limit).
    ReturnCard(u8),
    /// Rest: keep this card in hand (hand over the limit by more than the limit).
    KeepCard(u8),
    /// End the turn.
    EndTurn,
}
