//! The small named things of Tofu Shifu: dishes, hats, board spaces, town-objective bonus powers,
//! and the bitset helpers the state is built from.

use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A set of production cards, one bit per card id (at most [`MAX_CARDS`]).
pub type CardSet = u128;
/// A set of customer tiles, one bit per tile id (at most [`MAX_TILES`]).
pub type TileSet = u64;

/// The most production cards a data file may define.
pub const MAX_CARDS: usize = 128;
/// The most customer tiles a data file may define.
pub const MAX_TILES: usize = 64;
/// The most town objective cards a data file may define.
pub const MAX_TOWN_OBJECTIVES: usize = 16;
/// The most player objective cards a data file may define.
pub const MAX_PLAYER_OBJECTIVES: usize = 8;
/// The most market slots.
pub const MAX_MARKET: usize = 8;
/// Tables on a player board ("a maximum of 4").
pub const MAX_TABLES: usize = 4;
/// Customers per table ("Each table can hold a maximum of 2 customers").
pub const SEATS_PER_TABLE: usize = 2;
/// Seats in Tofu Shifu.
pub const MAX_PLAYERS: usize = super::INFO.max_players as usize;

crate::optional_id! {
    /// A production card id, or none: a market slot, the turn's chosen card, the objective a
    /// Checkout completes.
    pub struct CardId;
}

crate::optional_id! {
    /// A customer tile id, or none: a table seat.
    pub struct TileId;
}

crate::optional_id! {
    /// A seat, or none: the seat that triggered the game's end.
    pub struct SeatId;
}

/// A tofu dish; its index is its position in the price list 1/2/3/4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Dish {
    /// Soymilk, sells for 1 coin.
    Soymilk = 0,
    /// Silken Tofu, sells for 2 coins.
    SilkenTofu = 1,
    /// Tofu, sells for 3 coins.
    Tofu = 2,
    /// Dried Tofu, sells for 4 coins.
    DriedTofu = 3,
}

impl Dish {
    /// All four dishes in price order.
    pub const ALL: [Dish; 4] = [Dish::Soymilk, Dish::SilkenTofu, Dish::Tofu, Dish::DriedTofu];

    /// The dish with this index (0..4).
    pub fn from_index(i: usize) -> Dish {
        Dish::ALL[i]
    }

    /// The rulebook's name.
    pub fn name(self) -> &'static str {
        match self {
            Dish::Soymilk => "Soymilk",
            Dish::SilkenTofu => "Silken Tofu",
            Dish::Tofu => "Tofu",
            Dish::DriedTofu => "Dried Tofu",
        }
    }
}

/// A hat type. Chef, Waiter, Cashier and Master exist as tokens and on cards; Apprentice is
/// printed on cards and signposts only (there are no Apprentice tokens).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Hat {
    /// Chef hat.
    Chef = 0,
    /// Waiter hat.
    Waiter = 1,
    /// Cashier hat.
    Cashier = 2,
    /// Master hat: pays any hat cost.
    Master = 3,
    /// Apprentice hat: pays only Apprentice costs.
    Apprentice = 4,
}

impl Hat {
    /// All five hat types.
    pub const ALL: [Hat; 5] = [
        Hat::Chef,
        Hat::Waiter,
        Hat::Cashier,
        Hat::Master,
        Hat::Apprentice,
    ];
    /// The four hat types that exist as tokens.
    pub const TOKENS: [Hat; 4] = [Hat::Chef, Hat::Waiter, Hat::Cashier, Hat::Master];

    /// The hat with this index (0..5).
    pub fn from_index(i: usize) -> Hat {
        Hat::ALL[i]
    }

    /// The rulebook's name.
    pub fn name(self) -> &'static str {
        match self {
            Hat::Chef => "Chef",
            Hat::Waiter => "Waiter",
            Hat::Cashier => "Cashier",
            Hat::Master => "Master",
            Hat::Apprentice => "Apprentice",
        }
    }
}

/// A board space a Shifu marker can move to. Eight are on the Town map; Rest is on each player
/// board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Space {
    /// Iron Wok: play a card as an upgrade.
    Upgrade = 0,
    /// Stone Mill: produce dish tokens.
    Produce = 1,
    /// Chopsticks: draw and seat customers.
    Seat = 2,
    /// Carrying Pole: sell dishes to customers and the market.
    Serve = 3,
    /// Abacus: clean up tables, complete restaurant objectives.
    Checkout = 4,
    /// Hiring Fair: take a market card for free.
    Hire = 5,
    /// Plaque: play a card as a restaurant objective.
    SetObjective = 6,
    /// Leaf Fan: copy a space occupied by another player's marker.
    Copy = 7,
    /// Herbal Tea: refill hats, buy cards, refill hand. Player-exclusive and free.
    Rest = 8,
}

impl Space {
    /// All nine spaces.
    pub const ALL: [Space; 9] = [
        Space::Upgrade,
        Space::Produce,
        Space::Seat,
        Space::Serve,
        Space::Checkout,
        Space::Hire,
        Space::SetObjective,
        Space::Copy,
        Space::Rest,
    ];

    /// The space with this index (0..9).
    pub fn from_index(i: usize) -> Space {
        Space::ALL[i]
    }

    /// The rulebook's name with its board picture.
    pub fn name(self) -> &'static str {
        match self {
            Space::Upgrade => "Upgrade (Iron Wok)",
            Space::Produce => "Produce (Stone Mill)",
            Space::Seat => "Seat (Chopsticks)",
            Space::Serve => "Serve (Carrying Pole)",
            Space::Checkout => "Checkout (Abacus)",
            Space::Hire => "Hire (Hiring Fair)",
            Space::SetObjective => "Set Objective (Plaque)",
            Space::Copy => "Copy (Leaf Fan)",
            Space::Rest => "Rest (Herbal Tea)",
        }
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A town objective's bonus power. The data file names which card carries which power; the
/// engine implements each power by its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Bonus {
    /// When you Seat, draw 2 more tiles.
    SeatPlusTwoTiles = 0,
    /// Your Serve may sell up to 2 dishes to the market.
    MarketSellTwo = 1,
    /// Gain 1 coin whenever you Produce.
    ProduceIncome = 2,
    /// Your hand limit is 7.
    #[serde(rename = "HAND_LIMIT_7")]
    HandLimit7 = 3,
    /// Your upgrades cost 1 coin less.
    UpgradeDiscount = 4,
    /// At Checkout gain +1 coin per cleaned table that was served 3+ dishes.
    CheckoutBonus = 5,
    /// During Rest each bought card costs 1 coin less (min 0).
    RestDiscount = 6,
    /// When you Hire, also put the top deck card into your Rest zone.
    HireDraw = 7,
    /// Immediately gain 2 coins and 1 Master hat token (not tied to a flag).
    #[serde(rename = "ONE_SHOT_2C_MASTER")]
    OneShot2cMaster = 8,
    /// You always pay the lower signpost cost.
    AlwaysLowerSignpost = 9,
}

impl Bonus {
    /// This power's bit in a player's `bonuses` mask.
    pub fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// Counts of hat symbols, indexed by [`Hat`] (a hat cost or a pool of payers).
pub type HatCounts = [u8; 5];
/// Counts of dishes, indexed by [`Dish`].
pub type DishCounts = [u8; 4];

/// Picks a uniformly random member of a non-empty card set.
pub fn random_card<R: Rng + ?Sized>(set: CardSet, rng: &mut R) -> u8 {
    debug_assert!(set != 0);
    let n = rng.gen_range(0..set.count_ones());
    nth_bit_u128(set, n)
}

/// Picks a uniformly random member of a non-empty tile set.
pub fn random_tile<R: Rng + ?Sized>(set: TileSet, rng: &mut R) -> u8 {
    debug_assert!(set != 0);
    let n = rng.gen_range(0..set.count_ones());
    nth_bit_u64(set, n)
}

/// The index of the `n`th set bit (0-based) of `x`.
pub fn nth_bit_u64(mut x: u64, n: u32) -> u8 {
    for _ in 0..n {
        x &= x - 1;
    }
    x.trailing_zeros() as u8
}

/// The index of the `n`th set bit (0-based) of `x`.
pub fn nth_bit_u128(x: CardSet, n: u32) -> u8 {
    let lo = x as u64;
    let c = lo.count_ones();
    if n < c {
        nth_bit_u64(lo, n)
    } else {
        64 + nth_bit_u64((x >> 64) as u64, n - c)
    }
}

/// Iterates the set bits of a card set, lowest first.
pub fn cards(set: CardSet) -> impl Iterator<Item = u8> {
    Cards {
        low: set as u64,
        high: (set >> 64) as u64,
    }
}

/// The cards of a set, a word at a time (a 128-bit step costs twice a 64-bit one, and the
/// default data's cards fit in the low word).
struct Cards {
    low: u64,
    high: u64,
}

impl Iterator for Cards {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.low != 0 {
            let c = self.low.trailing_zeros() as u8;
            self.low &= self.low - 1;
            Some(c)
        } else if self.high != 0 {
            let c = 64 + self.high.trailing_zeros() as u8;
            self.high &= self.high - 1;
            Some(c)
        } else {
            None
        }
    }
}

/// Iterates the set bits of a tile set, lowest first.
pub fn tiles(mut set: TileSet) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(c)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_bit_finds_each_member() {
        let x: CardSet = (1 << 3) | (1 << 64) | (1 << 100);
        assert_eq!(nth_bit_u128(x, 0), 3);
        assert_eq!(nth_bit_u128(x, 1), 64);
        assert_eq!(nth_bit_u128(x, 2), 100);
        assert_eq!(cards(x).collect::<Vec<_>>(), vec![3, 64, 100]);
    }

    /// The cards of a set, a word at a time, are its set bits lowest first: for the empty and
    /// the full set, sets in one word or the other, and sets drawn at random.
    #[test]
    fn cards_are_the_set_bits_lowest_first() {
        use rand::Rng;
        let mut rng = crate::rng_from_seed(5);
        let mut sets = vec![
            0,
            CardSet::MAX,
            u64::MAX as CardSet,
            CardSet::MAX << 64,
            1 << 127,
        ];
        sets.extend((0..2000).map(|_| rng.gen::<CardSet>() & rng.gen::<CardSet>()));
        for x in sets {
            let want: Vec<u8> = (0..128).filter(|&i| x >> i & 1 == 1).collect();
            assert_eq!(cards(x).collect::<Vec<_>>(), want, "{x:x}");
        }
    }
}
