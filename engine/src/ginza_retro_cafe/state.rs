//! The Ginza Retro Café position: small plain data, copied by value.

use serde::{Deserialize, Serialize};

/// Most players.
pub const MAX_PLAYERS: usize = super::INFO.max_players as usize;
/// Customer places at the café.
pub const PLACES: usize = 3;

crate::optional_id! {
    /// A card id within its deck (player, bonus, customer or order card), or none: an empty
    /// slot.
    pub struct CardId;
}

crate::optional_id! {
    /// A seat, or none: whose action token is on an order.
    pub struct SeatId;
}

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// A seat picks one of its two player cards (in secret).
    ChoosePlayerCard {
        /// The seat choosing.
        seat: u8,
    },
    /// A seat keeps a bonus card from the 3 dealt (`second` false) or the 2 passed (true).
    Draft {
        /// The seat choosing.
        seat: u8,
        /// Whether this is the second pick.
        second: bool,
    },
    /// A seat's turn: any ability upgrades, then one action.
    Turn {
        /// The seat to act.
        seat: u8,
    },
    /// The rest of a Change Dice Rolls at Lv.2: adjustments left.
    Change {
        /// The seat.
        seat: u8,
        /// Adjustments left.
        left: u8,
    },
    /// The rest of a Reroll Dice: rerolls left, and the dice just rerolled (count per face).
    Reroll {
        /// The seat.
        seat: u8,
        /// Rerolls left.
        left: u8,
        /// Faces of the dice just rerolled: the next reroll takes some of these.
        just: [u8; 6],
    },
    /// Scored.
    Over,
}

/// A choice split into steps ([`super::Action`]), begun by the seat to move and not yet
/// complete. Public: every seat sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Picking {
    /// No choice begun.
    #[default]
    Nothing,
    /// A serve of the order in this place and slot: the dice taken so far (a Drink's; a Dish
    /// takes none one by one), count per face.
    Serve {
        /// The customer's place.
        place: u8,
        /// The order's slot.
        slot: u8,
        /// The player's dice taken, count per face 1..6.
        dice: [u8; 6],
    },
    /// A reroll: the dice picked so far, count per face (never empty).
    Reroll {
        /// The dice picked, count per face 1..6.
        dice: [u8; 6],
    },
}

impl Picking {
    /// The dice taken or picked so far (none when nothing is begun).
    pub fn dice(&self) -> [u8; 6] {
        match *self {
            Picking::Nothing => [0; 6],
            Picking::Serve { dice, .. } | Picking::Reroll { dice } => dice,
        }
    }
}

/// A customer at the café.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// The customer card: `period * 16 + index`, none for an empty place.
    pub card: CardId,
    /// Rounds left on the Time marker.
    pub time: u8,
    /// The order cards below it (none past the last).
    pub orders: [CardId; 3],
    /// The seat whose action token is on each order.
    pub tokens: [SeatId; 3],
}

impl Place {
    /// An empty place.
    pub const EMPTY: Place = Place {
        card: CardId::NONE,
        time: 0,
        orders: [CardId::NONE; 3],
        tokens: [SeatId::NONE; 3],
    };

    /// Whether a customer is here.
    pub fn occupied(&self) -> bool {
        self.card.is_some()
    }

    /// Number of order cards.
    pub fn order_count(&self) -> usize {
        self.orders.iter().filter(|o| o.is_some()).count()
    }
}

/// One position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Where the game is.
    pub phase: Phase,
    /// The choice the seat to move has begun and not completed (a serve or a reroll taken step
    /// by step).
    pub picking: Picking,
    /// Players.
    pub players: u8,
    /// The round, 1-based (0 during set-up).
    pub round: u8,
    /// Turns completed.
    pub turns: u32,
    /// The start player of this round.
    pub start_player: u8,
    /// The start player chosen at set-up by the dice totals.
    pub first_start: u8,
    /// Player cards dealt to each seat.
    pub card_dealt: [[CardId; 2]; MAX_PLAYERS],
    /// Each seat's chosen player card (hidden until every seat has chosen).
    pub card: [CardId; MAX_PLAYERS],
    /// Arrange levels (1 or 2): Change Dice Rolls, Reroll Dice, Add Dice.
    pub levels: [[u8; 3]; MAX_PLAYERS],
    /// Dice limits.
    pub limit: [u8; MAX_PLAYERS],
    /// Dice in each Dice area, as a count per face 1..6.
    pub dice: [[u8; 6]; MAX_PLAYERS],
    /// Action tokens in each action token area.
    pub tokens: [u8; MAX_PLAYERS],
    /// Action tokens on Arrange cards and the Dishwashing area (back at the end of the round).
    pub parked: [u8; MAX_PLAYERS],
    /// Where this round's parked tokens are: bit 0..2 an Arrange card, bit 3 Dishwashing, bit 4 set
    /// aside (no legal action).
    pub parked_on: [u8; MAX_PLAYERS],
    /// Coins.
    pub coins: [u16; MAX_PLAYERS],
    /// Acquired order cards (bit set of order ids).
    #[serde(with = "crate::bitset_json::array")]
    pub won_orders: [u64; MAX_PLAYERS],
    /// Common dice in each personal supply (used this round).
    pub purple_held: [u8; MAX_PLAYERS],
    /// The common dice in the common area, count per face.
    pub common: [u8; 6],
    /// Seats that used their once-a-round Drink bonus this round (bit set).
    pub bonus_used: u8,
    /// Bonus cards a seat is choosing from (none when used).
    pub bonus_offer: [[CardId; 3]; MAX_PLAYERS],
    /// Bonus cards kept (the hand, hidden).
    pub bonus_hand: [[CardId; 2]; MAX_PLAYERS],
    /// The two bonus cards a seat passed to its left.
    pub bonus_passed: [[CardId; 2]; MAX_PLAYERS],
    /// The bonus card a seat removed after its second pick.
    pub bonus_discard: [CardId; MAX_PLAYERS],
    /// Bonus cards never dealt.
    pub bonus_box: u16,
    /// Player cards never dealt (bit set).
    pub card_box: u16,
    /// The customers at the café.
    pub places: [Place; PLACES],
    /// Customer cards in the Customer deck, per time of day (hidden which).
    pub deck: [u16; 3],
    /// Customer cards that have arrived, per time of day.
    pub arrived: [u16; 3],
    /// Order cards still in the Order decks (all ranks).
    #[serde(with = "crate::bitset_json")]
    pub order_deck: u64,
    /// Order cards discarded with customers who left.
    #[serde(with = "crate::bitset_json")]
    pub order_discard: u64,
    /// Customers served.
    pub served: u8,
    /// Customers who left unserved.
    pub left_unserved: u8,
}

impl State {
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The seat that acts (or chooses), if any.
    pub fn seat(&self) -> Option<u8> {
        match self.phase {
            Phase::ChoosePlayerCard { seat }
            | Phase::Draft { seat, .. }
            | Phase::Turn { seat }
            | Phase::Change { seat, .. }
            | Phase::Reroll { seat, .. } => Some(seat),
            Phase::Over => None,
        }
    }

    /// Whether every seat has chosen its player card (the cards are revealed).
    pub fn cards_revealed(&self) -> bool {
        !matches!(self.phase, Phase::ChoosePlayerCard { .. })
    }

    /// Dice in a seat's Dice area.
    pub fn dice_count(&self, seat: usize) -> u8 {
        self.dice[seat]
            .iter()
            .fold(0u8, |a, &k| a.saturating_add(k))
    }

    /// The index of a seat's chosen player card (only once it has chosen).
    #[inline]
    pub fn player_card(&self, seat: usize) -> usize {
        self.card[seat].index().expect("a chosen player card")
    }

    /// Customers at the café.
    pub fn customers_here(&self) -> usize {
        self.places.iter().filter(|p| p.occupied()).count()
    }
}
