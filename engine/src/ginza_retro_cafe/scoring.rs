//! 6. Scoring: Order Card Points + Bonus Card Points + Coin Points.

use super::data::BonusCondition;
use super::state::State;
use super::GinzaRetroCafe;

/// A seat's points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Points {
    /// VP of the order cards.
    pub orders: u32,
    /// VP of the bonus cards whose conditions are met.
    pub bonus: u32,
    /// 1 VP per ¥4 (the coin rate in force).
    pub coins: u32,
    /// Which of the two bonus cards in hand are met (bit 0, bit 1).
    pub met: u8,
}

impl Points {
    /// The total.
    pub fn total(&self) -> u32 {
        self.orders + self.bonus + self.coins
    }
}

impl GinzaRetroCafe {
    /// A seat's points as the position stands (final once the game is over).
    pub fn points(&self, s: &State, seat: usize) -> Points {
        let mut p = Points {
            coins: u32::from(s.coins[seat]) / u32::from(self.yen_per_vp),
            ..Points::default()
        };
        let mut m = s.won_orders[seat];
        while m != 0 {
            p.orders += u32::from(self.data.orders[m.trailing_zeros() as usize].vp);
            m &= m - 1;
        }
        for (k, b) in s.bonus_hand[seat].iter().enumerate() {
            let Some(b) = b.index() else {
                continue;
            };
            if self.bonus_met(s, seat, b) {
                p.bonus += u32::from(self.data.bonus[b].vp);
                p.met |= 1 << k;
            }
        }
        p
    }

    /// Order cards a seat holds per category and per subcategory.
    pub fn order_counts(&self, s: &State, seat: usize) -> ([u8; 3], [u8; 16]) {
        let mut cat = [0u8; 3];
        let mut sub = [0u8; 16];
        let mut m = s.won_orders[seat];
        while m != 0 {
            let o = &self.data.orders[m.trailing_zeros() as usize];
            m &= m - 1;
            cat[usize::from(o.category)] += 1;
            sub[usize::from(o.subcategory)] += 1;
        }
        (cat, sub)
    }

    /// Whether a seat meets bonus card `b`'s condition.
    pub fn bonus_met(&self, s: &State, seat: usize, b: usize) -> bool {
        let (cat, sub) = self.order_counts(s, seat);
        let n = usize::from(self.players);
        // "You have the most ... (including ties)"; a count of 0 is "the most" only with
        // `most_with_zero`.
        let most = |mine: u8, theirs: &dyn Fn(usize) -> u8, ties: bool| {
            (mine > 0 || self.params.most_with_zero)
                && (0..n).filter(|&j| j != seat).all(|j| {
                    let t = theirs(j);
                    if ties {
                        mine >= t
                    } else {
                        mine > t
                    }
                })
        };
        match self.data.bonus[b].cond {
            BonusCondition::SubcategoryAtLeast(k, need) => sub[usize::from(k)] >= need,
            BonusCondition::EachAtLeastOne(bits) => {
                (0..16).all(|k| bits & (1 << k) == 0 || sub[k] >= 1)
            }
            BonusCondition::MostOfCategory(c, ties) => most(
                cat[usize::from(c)],
                &|j| self.order_counts(s, j).0[usize::from(c)],
                ties,
            ),
            BonusCondition::MostOrderCards(ties) => most(
                s.won_orders[seat].count_ones() as u8,
                &|j| s.won_orders[j].count_ones() as u8,
                ties,
            ),
            BonusCondition::EachCategoryAtLeast(need) => (0..3).all(|c| cat[c] >= need[c]),
        }
    }
}
