//! The legal actions.

use super::action::{Action, Serve};
use super::data::{Ability, Condition};
use super::params::DrinkDice;
use super::state::{Phase, State, NONE};
use super::GinzaRetroCafe;

/// Where a token is parked, as a bit number of [`State::parked_on`]: the Arrange cards are 0..3,
/// then the Dishwashing area, then "set aside" (a token with no legal action).
pub(crate) const WASH_SPOT: u8 = 3;
/// A token set aside (only with `stacked_tokens` off, when no action is legal).
pub(crate) const ASIDE_SPOT: u8 = 4;

impl GinzaRetroCafe {
    pub(crate) fn legal(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        match s.phase {
            Phase::Over => {}
            Phase::ChoosePlayerCard { seat } => {
                for k in 0..2u8 {
                    if s.card_dealt[usize::from(seat)][usize::from(k)] != NONE {
                        out.push(Action::ChooseCard(k));
                    }
                }
            }
            Phase::Draft { seat, .. } => {
                for (k, &c) in s.bonus_offer[usize::from(seat)].iter().enumerate() {
                    if c != NONE {
                        out.push(Action::Draft(k as u8));
                    }
                }
            }
            Phase::Turn { seat } => self.legal_turn(s, usize::from(seat), out),
            Phase::Change { seat, .. } => {
                self.push_changes(s, usize::from(seat), out);
                if self.params.arrange_partial {
                    out.push(Action::Stop);
                }
            }
            Phase::Reroll { just, .. } => {
                push_subsets(&just, out, |d| Some(Action::Reroll(d)));
                if self.params.arrange_partial {
                    out.push(Action::Stop);
                }
            }
        }
    }

    /// Coins a seat pays to raise an Arrange level.
    pub(crate) fn arrange_price(&self, s: &State, seat: usize) -> u8 {
        self.ability(s, seat, |a| match a {
            Ability::ArrangePrice(n) => Some(n),
            _ => None,
        })
        .unwrap_or(self.data.rulebook.arrange_upgrade_price)
    }

    /// Coins a seat pays for a common die.
    pub(crate) fn common_price(&self, s: &State, seat: usize) -> u8 {
        self.ability(s, seat, |a| match a {
            Ability::CommonDiePrice(n) => Some(n),
            _ => None,
        })
        .unwrap_or(self.data.rulebook.common_die_price)
    }

    /// A seat's once-a-round Drink bonus, if its player card has one.
    pub(crate) fn drink_bonus(&self, s: &State, seat: usize) -> Option<u8> {
        self.ability(s, seat, |a| match a {
            Ability::DrinkBonus(n) => Some(n),
            _ => None,
        })
    }

    fn ability(&self, s: &State, seat: usize, f: impl Fn(Ability) -> Option<u8>) -> Option<u8> {
        let c = s.card[seat];
        if c == NONE {
            return None;
        }
        self.data.players[usize::from(c)]
            .act
            .iter()
            .find_map(|&a| f(a))
    }

    /// VP of a seat's order cards whose category's colour matches an Arrange card.
    pub fn arrange_vp(&self, s: &State, seat: usize, arrange: u8) -> u32 {
        let mut vp = 0;
        let mut m = s.won_orders[seat];
        while m != 0 {
            let o = &self.data.orders[m.trailing_zeros() as usize];
            m &= m - 1;
            if self.data.arrange_of_category[usize::from(o.category)] == arrange {
                vp += u32::from(o.vp);
            }
        }
        vp
    }

    /// Whether a seat may put a token on this spot (an Arrange card 0..3, or 3 Dishwashing).
    fn spot_free(&self, s: &State, seat: usize, spot: u8) -> bool {
        self.params.stacked_tokens || s.parked_on[seat] & (1 << spot) == 0
    }

    fn legal_turn(&self, s: &State, seat: usize, out: &mut Vec<Action>) {
        let rb = &self.data.rulebook;
        let coins = s.coins[seat];
        for k in 0..3u8 {
            if s.levels[seat][usize::from(k)] == 1
                && self.arrange_vp(s, seat, k) >= u32::from(rb.arrange_upgrade_vp)
                && coins >= u16::from(self.arrange_price(s, seat))
            {
                out.push(Action::RaiseLevel(k));
            }
        }
        let limit = s.limit[seat];
        if limit < self.top_limit() {
            let price = self.limit_prices[usize::from(limit - rb.start_dice)];
            if coins >= u16::from(price) {
                out.push(Action::RaiseLimit);
            }
        }
        self.push_serves(s, seat, out);
        let count = s.dice_count(seat);
        if count > 0 && self.spot_free(s, seat, 0) {
            self.push_changes(s, seat, out);
        }
        if count > 0 && self.spot_free(s, seat, 1) {
            push_subsets(&s.dice[seat], out, |d| Some(Action::Reroll(d)));
        }
        if count < limit && self.spot_free(s, seat, 2) {
            let lv = usize::from(s.levels[seat][2]) - 1;
            let most = rb.add_dice[lv].min(limit - count);
            let least = if self.params.arrange_partial { 1 } else { most };
            for k in least..=most {
                out.push(Action::Add(k));
            }
        }
        if self.spot_free(s, seat, WASH_SPOT) {
            let table = &self.data.players[usize::from(s.card[seat])].dishwashing;
            let most = (s.dice[seat][0] as usize).min(table.len() - 1);
            for k in 0..=most {
                out.push(Action::Wash(k as u8));
            }
        }
        if out.is_empty() {
            // Only with `stacked_tokens` off: every spot is taken and no dish can be served.
            out.push(Action::Stop);
        }
    }

    fn push_changes(&self, s: &State, seat: usize, out: &mut Vec<Action>) {
        for f in 0..6u8 {
            if s.dice[seat][usize::from(f)] == 0 {
                continue;
            }
            // "you cannot change the die roll of a 1 by -1 or a 6 by +1"
            if f > 0 {
                out.push(Action::Change {
                    face: f + 1,
                    up: false,
                });
            }
            if f < 5 {
                out.push(Action::Change {
                    face: f + 1,
                    up: true,
                });
            }
        }
    }

    fn push_serves(&self, s: &State, seat: usize, out: &mut Vec<Action>) {
        let common_ok = s.coins[seat] >= u16::from(self.common_price(s, seat));
        let bonus = self
            .drink_bonus(s, seat)
            .filter(|_| s.bonus_used & (1 << seat) == 0);
        let dice = &s.dice[seat];
        for (p, pl) in s.places.iter().enumerate() {
            if !pl.occupied() {
                continue;
            }
            for slot in 0..3 {
                if pl.orders[slot] == NONE || pl.tokens[slot] != NONE {
                    continue;
                }
                let order = &self.data.orders[usize::from(pl.orders[slot])];
                let base = Serve {
                    place: p as u8,
                    slot: slot as u8,
                    dice: [0; 6],
                    common: 0,
                    bonus: false,
                };
                match order.serve {
                    Condition::Faces(need) => {
                        if covers(dice, &need) {
                            out.push(Action::Serve(Serve { dice: need, ..base }));
                        }
                        if !common_ok {
                            continue;
                        }
                        for f in 0..6 {
                            if need[f] > 0 && s.common[f] > 0 {
                                let mut own = need;
                                own[f] -= 1;
                                if covers(dice, &own) {
                                    out.push(Action::Serve(Serve {
                                        dice: own,
                                        common: f as u8 + 1,
                                        ..base
                                    }));
                                }
                            }
                        }
                    }
                    Condition::SumAtLeast(n) => {
                        self.push_drinks(s, dice, n, common_ok, bonus, base, out);
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push_drinks(
        &self,
        s: &State,
        dice: &[u8; 6],
        n: u8,
        common_ok: bool,
        bonus: Option<u8>,
        base: Serve,
        out: &mut Vec<Action>,
    ) {
        let minimal = self.params.drink_dice == DrinkDice::Minimal;
        let n = u16::from(n);
        let mut odo = SubMultisets::default();
        loop {
            let (sub, sum, lowest) = (odo.sub, odo.sum, odo.lowest());
            debug_assert_eq!((sum, lowest), sum_low(&sub));
            // Own dice only, then a common die where they fall short, then the bonus where
            // both fall short.
            let fits = |total: u16, low: u16| total >= n && (!minimal || total - low < n);
            if sum >= n {
                if odo.faces != 0 && fits(sum, lowest) {
                    out.push(Action::Serve(Serve { dice: sub, ..base }));
                }
            } else {
                let mut short = true;
                if common_ok {
                    for f in 0..6u16 {
                        if s.common[f as usize] > 0 && sum + f + 1 >= n {
                            short = false;
                            if fits(sum + f + 1, lowest.min(f + 1)) {
                                out.push(Action::Serve(Serve {
                                    dice: sub,
                                    common: f as u8 + 1,
                                    ..base
                                }));
                            }
                        }
                    }
                }
                if let Some(b) = bonus {
                    let b = u16::from(b);
                    if sum > 0 && short && sum + b >= n && fits(sum + b, lowest) {
                        out.push(Action::Serve(Serve {
                            dice: sub,
                            bonus: true,
                            ..base
                        }));
                    }
                }
            }
            if !odo.step(dice) {
                return;
            }
        }
    }
}

/// Whether `have` holds at least `need` of every face.
pub(crate) fn covers(have: &[u8; 6], need: &[u8; 6]) -> bool {
    have.iter().zip(need).all(|(h, n)| h >= n)
}

/// The total and the lowest face of dice counted per face (lowest 7 when none): what
/// [`SubMultisets`] keeps as it turns (checked in debug builds).
fn sum_low(d: &[u8; 6]) -> (u16, u16) {
    let mut sum = 0u16;
    let mut low = 7u16;
    for (f, &k) in d.iter().enumerate() {
        sum += (f as u16 + 1) * u16::from(k);
        if k > 0 && low == 7 {
            low = f as u16 + 1;
        }
    }
    (sum, low)
}

/// An odometer through every sub-multiset of some dice counted per face, from the empty one,
/// keeping its total and the faces present as it turns.
#[derive(Default)]
struct SubMultisets {
    /// Dice of each face taken.
    sub: [u8; 6],
    /// Their total.
    sum: u16,
    /// Bit `f` set when face `f + 1` is taken.
    faces: u8,
}

impl SubMultisets {
    /// Steps to the next sub-multiset of `of`; false after the last.
    fn step(&mut self, of: &[u8; 6]) -> bool {
        for f in 0..6 {
            if self.sub[f] < of[f] {
                self.sub[f] += 1;
                self.sum += f as u16 + 1;
                self.faces |= 1 << f;
                return true;
            }
            self.sum -= (f as u16 + 1) * u16::from(self.sub[f]);
            self.sub[f] = 0;
            self.faces &= !(1 << f);
        }
        false
    }

    /// The lowest face taken (7 when none).
    fn lowest(&self) -> u16 {
        if self.faces == 0 {
            7
        } else {
            self.faces.trailing_zeros() as u16 + 1
        }
    }
}

/// Pushes an action for every non-empty sub-multiset of `of`.
fn push_subsets(of: &[u8; 6], out: &mut Vec<Action>, f: impl Fn([u8; 6]) -> Option<Action>) {
    let mut odo = SubMultisets::default();
    while odo.step(of) {
        if let Some(a) = f(odo.sub) {
            out.push(a);
        }
    }
}
