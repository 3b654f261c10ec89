//! The complete choices as the rulebook states them: the set-up choices, A-2 Ability Upgrade and
//! A-3 Perform an action (Serve a Dish, the three Arrange cards, Wash Dishes).

use super::action::{Choice, Serve};
use super::data::{Ability, Condition};
use super::params::DrinkDice;
use super::state::{Phase, Picking, State};
use super::GinzaRetroCafe;
use crate::bytes::HIGH_BITS;
use crate::listing::Sink;

/// Where a token is parked, as a bit number of [`State::parked_on`]: the Arrange cards are 0..3,
/// then the Dishwashing area, then "set aside" (a token with no legal action).
pub(crate) const WASH_SPOT: u8 = 3;
/// A token set aside (only with `stacked_tokens` off, when no action is legal).
pub(crate) const ASIDE_SPOT: u8 = 4;

impl GinzaRetroCafe {
    /// Every complete choice the seat to move has, as the rulebook states them: the definition
    /// twin of the steps ([`Action`](super::Action)) the game lists. In the middle of a choice
    /// begun step by step ([`Picking`]), the complete choices that continue it.
    pub fn choices(&self, s: &State, out: &mut Vec<Choice>) {
        out.clear();
        self.list_choices(s, out);
        let taken = s.picking.dice();
        match s.picking {
            Picking::Nothing => {}
            Picking::Serve { place, slot, .. } => out.retain(|c| {
                matches!(c, Choice::Serve(sv) if sv.place == place && sv.slot == slot
                    && continues(&taken, &sv.dice))
            }),
            Picking::Reroll { .. } => {
                out.retain(|c| matches!(c, Choice::Reroll(d) if continues(&taken, d)))
            }
        }
    }

    /// The complete choices of a state, whatever has been begun.
    pub(crate) fn list_choices<S: Sink<Choice>>(&self, s: &State, out: &mut S) {
        match s.phase {
            Phase::Over => {}
            Phase::ChoosePlayerCard { seat } => {
                for k in 0..2u8 {
                    if s.card_dealt[usize::from(seat)][usize::from(k)].is_some() {
                        out.push(Choice::ChooseCard(k));
                    }
                }
            }
            Phase::Draft { seat, .. } => {
                for (k, c) in s.bonus_offer[usize::from(seat)].iter().enumerate() {
                    if c.is_some() {
                        out.push(Choice::Draft(k as u8));
                    }
                }
            }
            Phase::Turn { seat } => self.legal_turn(s, usize::from(seat), out),
            Phase::Change { seat, .. } => {
                self.push_changes(s, usize::from(seat), out);
                if self.params.arrange_partial {
                    out.push(Choice::Stop);
                }
            }
            Phase::Reroll { just, .. } => {
                push_rerolls(&just, out);
                if self.params.arrange_partial {
                    out.push(Choice::Stop);
                }
            }
        }
    }
}

/// The Add Dice and Wash Dishes actions open to a seat: `Add(add_from)` and the `adds - 1`
/// counts after it, then `Wash(0)` to `Wash(washes - 1)`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AddAndWash {
    /// The fewest dice added.
    pub(crate) add_from: u8,
    /// How many Add Dice actions (none when its spot is taken or the dice are at the limit).
    pub(crate) adds: usize,
    /// How many Wash Dishes actions (none when its spot is taken).
    pub(crate) washes: usize,
}

/// Whether dice `all` (count per face) continue dice `taken` lowest face first: they hold
/// every die taken, and as many of each face below the highest taken.
pub(crate) fn continues(taken: &[u8; 6], all: &[u8; 6]) -> bool {
    let top = taken.iter().rposition(|&k| k > 0).unwrap_or(0);
    (0..6).all(|f| all[f] >= taken[f] && (f >= top || all[f] == taken[f]))
}

impl GinzaRetroCafe {
    /// Coins a seat pays to raise an Arrange level.
    pub(crate) fn arrange_price(&self, s: &State, seat: usize) -> u8 {
        self.ability(s, seat, |a| match a {
            Ability::ArrangePrice(n) => Some(n),
            _ => None,
        })
        .unwrap_or(self.data.rulebook.arrange_upgrade_price)
    }

    /// Coins a seat pays for a common die.
    #[inline]
    pub(crate) fn common_price(&self, s: &State, seat: usize) -> u8 {
        match s.card[seat].index() {
            Some(c) => self.card_terms[c].common_price,
            None => self.data.rulebook.common_die_price,
        }
    }

    /// A seat's once-a-round Drink bonus, if its player card has one.
    #[inline]
    pub(crate) fn drink_bonus(&self, s: &State, seat: usize) -> Option<u8> {
        self.card_terms[s.card[seat].index()?].drink_bonus
    }

    fn ability(&self, s: &State, seat: usize, f: impl Fn(Ability) -> Option<u8>) -> Option<u8> {
        let c = s.card[seat].index()?;
        self.data.players[c].act.iter().find_map(|&a| f(a))
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

    /// The upgrades a seat can pay for: each Arrange card at Lv.1 whose colour's orders give
    /// enough VP, then the dice limit.
    pub(crate) fn push_raises(&self, s: &State, seat: usize, out: &mut impl Sink<Choice>) {
        let rb = &self.data.rulebook;
        let coins = s.coins[seat];
        // The price first: the VP walk over the seat's orders only when it can pay.
        if coins >= u16::from(self.arrange_price(s, seat)) {
            for k in 0..3u8 {
                if s.levels[seat][usize::from(k)] == 1
                    && self.arrange_vp(s, seat, k) >= u32::from(rb.arrange_upgrade_vp)
                {
                    out.push(Choice::RaiseLevel(k));
                }
            }
        }
        let limit = s.limit[seat];
        if limit < self.top_limit() {
            let price = self.limit_prices[usize::from(limit - rb.start_dice)];
            if coins >= u16::from(price) {
                out.push(Choice::RaiseLimit);
            }
        }
    }

    /// Whether a seat may put a token on this spot (an Arrange card 0..3, or 3 Dishwashing).
    pub(crate) fn spot_free(&self, s: &State, seat: usize, spot: u8) -> bool {
        self.params.stacked_tokens || s.parked_on[seat] & (1 << spot) == 0
    }

    fn legal_turn(&self, s: &State, seat: usize, out: &mut impl Sink<Choice>) {
        self.push_raises(s, seat, out);
        self.push_serves(s, seat, out);
        let count = s.dice_count(seat);
        if count > 0 && self.spot_free(s, seat, 0) {
            self.push_changes(s, seat, out);
        }
        if count > 0 && self.spot_free(s, seat, 1) {
            push_rerolls(&s.dice[seat], out);
        }
        self.push_add_and_wash(s, seat, out);
        if out.listed() == 0 {
            // Only with `stacked_tokens` off: every spot is taken and no dish can be served.
            out.push(Choice::Stop);
        }
    }

    /// The Add Dice and Wash Dishes actions a seat may take.
    pub(crate) fn push_add_and_wash(&self, s: &State, seat: usize, out: &mut impl Sink<Choice>) {
        let aw = self.add_and_wash(s, seat);
        let mut k = aw.add_from;
        out.extend(aw.adds, || {
            k += 1;
            Choice::Add(k - 1)
        });
        let mut k = 0u8;
        out.extend(aw.washes, || {
            k += 1;
            Choice::Wash(k - 1)
        });
    }

    /// How many dice a seat may add, and with how many 1s it may wash.
    pub(crate) fn add_and_wash(&self, s: &State, seat: usize) -> AddAndWash {
        let rb = &self.data.rulebook;
        let limit = s.limit[seat];
        let count = s.dice_count(seat);
        let mut aw = AddAndWash {
            add_from: 0,
            adds: 0,
            washes: 0,
        };
        if count < limit && self.spot_free(s, seat, 2) {
            let lv = usize::from(s.levels[seat][2]) - 1;
            let most = rb.add_dice[lv].min(limit - count);
            let least = if self.params.arrange_partial { 1 } else { most };
            aw.add_from = least;
            aw.adds = usize::from(most + 1 - least);
        }
        if self.spot_free(s, seat, WASH_SPOT) {
            let table = &self.data.players[s.player_card(seat)].dishwashing;
            aw.washes = (s.dice[seat][0] as usize).min(table.len() - 1) + 1;
        }
        aw
    }

    /// The Change Dice Rolls adjustments a seat may make.
    pub(crate) fn push_changes(&self, s: &State, seat: usize, out: &mut impl Sink<Choice>) {
        for f in 0..6u8 {
            if s.dice[seat][usize::from(f)] == 0 {
                continue;
            }
            // "you cannot change the die roll of a 1 by -1 or a 6 by +1"
            if f > 0 {
                out.push(Choice::Change {
                    face: f + 1,
                    up: false,
                });
            }
            if f < 5 {
                out.push(Choice::Change {
                    face: f + 1,
                    up: true,
                });
            }
        }
    }

    fn push_serves(&self, s: &State, seat: usize, out: &mut impl Sink<Choice>) {
        let common_ok = s.coins[seat] >= u16::from(self.common_price(s, seat));
        let bonus = self
            .drink_bonus(s, seat)
            .filter(|_| s.bonus_used & (1 << seat) == 0);
        let dice = &s.dice[seat];
        // The faces of the common dice a seat may take: the top bit of the face's byte.
        let commons = if common_ok {
            (0..6).fold(0u64, |m, f| m | u64::from(s.common[f] > 0) << (8 * f + 7))
        } else {
            0
        };
        for (p, pl) in s.places.iter().enumerate() {
            if !pl.occupied() {
                continue;
            }
            for slot in 0..3 {
                let Some(order) = pl.orders[slot].index() else {
                    continue;
                };
                if pl.tokens[slot].is_some() {
                    continue;
                }
                let order = &self.data.orders[order];
                let base = Serve {
                    place: p as u8,
                    slot: slot as u8,
                    dice: [0; 6],
                    common: 0,
                    bonus: false,
                };
                match order.serve {
                    Condition::Faces(need) => push_dishes(dice, &need, commons, base, out),
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
        out: &mut impl Sink<Choice>,
    ) {
        let minimal = self.params.drink_dice == DrinkDice::Minimal;
        let n = u16::from(n);
        // The faces of the common dice a seat may take, a bit each (face `f + 1` at bit `f`).
        let common = if common_ok {
            (0..6).fold(0u8, |m, f| m | u8::from(s.common[f] > 0) << f)
        } else {
            0
        };
        let mut odo = SubMultisets::new(dice);
        // Every serve needs the dice taken, plus a common die or the bonus, to reach `n`: when
        // all the dice and the most either adds fall short, there is none.
        let most_added = if common == 0 {
            0
        } else {
            8 - common.leading_zeros() as u16
        };
        let most_added = most_added.max(bonus.map_or(0, u16::from));
        if odo.total() + most_added < n {
            return;
        }
        loop {
            let sum = odo.sum;
            debug_assert_eq!((sum, odo.lowest()), sum_low(&odo.sub()));
            // Own dice only, then a common die where they fall short, then the bonus where it
            // covers the shortfall, whether or not a common die could (the seat chooses).
            let fits = |total: u16, low: u16| total >= n && (!minimal || total - low < n);
            if sum >= n {
                if odo.any() && fits(sum, odo.lowest()) {
                    out.push(Choice::Serve(Serve {
                        dice: odo.sub(),
                        ..base
                    }));
                }
            } else if sum + most_added >= n {
                // (Short of `n` by more than a common die or the bonus adds: no serve.)
                // The common faces that reach `n`: face `f + 1` with `sum + f + 1 >= n`.
                let lacking = n - sum - 1;
                let mut reach = if lacking < 6 {
                    common >> lacking << lacking
                } else {
                    0
                };
                while reach != 0 {
                    let f = reach.trailing_zeros() as u16;
                    reach &= reach - 1;
                    if fits(sum + f + 1, odo.lowest().min(f + 1)) {
                        out.push(Choice::Serve(Serve {
                            dice: odo.sub(),
                            common: f as u8 + 1,
                            ..base
                        }));
                    }
                }
                if let Some(b) = bonus {
                    // Tsuru: "Once per round, a Drink order counts your dice total as +2". The
                    // ability names no coins: it is offered whenever the dice fall short by the
                    // bonus or less, whether or not a common die could be bought instead.
                    let b = u16::from(b);
                    if sum > 0 && sum + b >= n && fits(sum + b, odo.lowest()) {
                        out.push(Choice::Serve(Serve {
                            dice: odo.sub(),
                            bonus: true,
                            ..base
                        }));
                    }
                }
            }
            if !odo.step() {
                return;
            }
        }
    }
}

/// One in every byte of a [`packed`] word.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;

/// Pushes the serves of a dish asking for the faces `need`: the seat's own dice alone, then each
/// face the dish asks for whose common die may stand in for one of the seat's (`commons`: the
/// top bit of that face's byte, as [`packed`]). A stand-in needs the seat's dice to cover the
/// dish but for one die of its face: when they cover it all, every such face serves; when they
/// fall short by exactly one die, only that die's face; otherwise none. The faces are compared
/// a byte each in one word; counts above 126 take the plain path, [`push_dishes_plain`].
pub(crate) fn push_dishes(
    dice: &[u8; 6],
    need: &[u8; 6],
    commons: u64,
    base: Serve,
    out: &mut impl Sink<Choice>,
) {
    let Some((own, mut stand_ins)) = dish_serves(dice, need, commons) else {
        return push_dishes_plain(dice, need, commons, base, out);
    };
    if own {
        out.push(Choice::Serve(Serve {
            dice: *need,
            ..base
        }));
    }
    while stand_ins != 0 {
        let f = (stand_ins.trailing_zeros() / 8) as usize;
        stand_ins &= stand_ins - 1;
        push_stand_in(need, f, base, out);
    }
}

/// The serves of [`push_dishes`] in one word: whether the seat's dice alone serve the dish, and
/// the faces whose common die may stand in (the top bit of the face's byte, as `commons`).
/// `None` when a count is above 126: then [`push_dishes_plain`] lists them.
#[inline]
pub(crate) fn dish_serves(dice: &[u8; 6], need: &[u8; 6], commons: u64) -> Option<(bool, u64)> {
    let (have, want) = (packed(dice), packed(need));
    // A byte of 128 or more shows in `have | want`; then 127 in `have + 1` (no carry).
    if (have | want | have.wrapping_add(BYTE_ONES)) & HIGH_BITS != 0 {
        return None;
    }
    // With every byte below 127 no byte borrows: the top bit says `have >= want` (`+ 1`).
    let short = !((have | HIGH_BITS) - want) & HIGH_BITS;
    let short_by_two = !(((have + BYTE_ONES) | HIGH_BITS) - want) & HIGH_BITS;
    Some(if short == 0 {
        let asked = ((want | HIGH_BITS) - BYTE_ONES) & HIGH_BITS;
        (true, asked & commons)
    } else if short & (short - 1) == 0 && short_by_two == 0 {
        (false, short & commons)
    } else {
        (false, 0)
    })
}

/// A serve of the dish `need` with a common die of face `f + 1` standing in for one of the
/// seat's.
fn push_stand_in(need: &[u8; 6], f: usize, base: Serve, out: &mut impl Sink<Choice>) {
    let mut own = *need;
    own[f] -= 1;
    out.push(Choice::Serve(Serve {
        dice: own,
        common: f as u8 + 1,
        ..base
    }));
}

/// [`push_dishes`] by its definition: the seat's dice alone, then each face the dish asks for
/// with a common die of it, if the seat's dice cover the rest.
fn push_dishes_plain(
    dice: &[u8; 6],
    need: &[u8; 6],
    commons: u64,
    base: Serve,
    out: &mut impl Sink<Choice>,
) {
    if covers(dice, need) {
        out.push(Choice::Serve(Serve {
            dice: *need,
            ..base
        }));
    }
    for f in 0..6 {
        if need[f] > 0 && commons & (0x80 << (8 * f)) != 0 {
            let mut own = *need;
            own[f] -= 1;
            if covers(dice, &own) {
                push_stand_in(need, f, base, out);
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

/// Dice counted per face, one face per byte from the lowest (face 1 in byte 0).
pub(crate) fn packed(d: &[u8; 6]) -> u64 {
    let mut b = [0u8; 8];
    b[..6].copy_from_slice(d);
    u64::from_le_bytes(b)
}

/// An odometer through every sub-multiset of some dice counted per face, from the empty one
/// (face 1 turns fastest), keeping its total as it turns. The counts are packed one per byte,
/// so that a step is a few word operations instead of a walk over the faces.
struct SubMultisets {
    /// The dice, [`packed`].
    of: u64,
    /// Dice of each face taken, [`packed`] (each byte at most `of`'s).
    sub: u64,
    /// Their total.
    sum: u16,
    /// `drop[f]`: the total of every die of the faces below `f + 1`, which a step that turns
    /// face `f + 1` takes away (those faces go back to none); `drop[6]` is every die's total.
    /// Eight long, as a byte index of a `u64` is, so that no bounds check is needed.
    drop: [u16; 8],
}

impl SubMultisets {
    /// At the empty sub-multiset of `of`.
    fn new(of: &[u8; 6]) -> SubMultisets {
        let mut drop = [0u16; 8];
        for f in 1..7 {
            drop[f] = drop[f - 1] + f as u16 * u16::from(of[f - 1]);
        }
        SubMultisets {
            of: packed(of),
            sub: 0,
            sum: 0,
            drop,
        }
    }

    /// The total of every die.
    fn total(&self) -> u16 {
        self.drop[6]
    }

    /// Dice of each face taken.
    fn sub(&self) -> [u8; 6] {
        unpacked(self.sub)
    }

    /// Steps to the next sub-multiset; false after the last.
    #[inline]
    fn step(&mut self) -> bool {
        if self.sub == self.of {
            return false;
        }
        let f = (self.of - self.sub).trailing_zeros() / 8;
        self.sub = turned(self.of, self.sub);
        self.sum = self.sum - self.drop[f as usize] + f as u16 + 1;
        true
    }

    /// Whether some die is taken.
    fn any(&self) -> bool {
        self.sub != 0
    }

    /// The lowest face taken (7 when none).
    fn lowest(&self) -> u16 {
        if self.sub == 0 {
            7
        } else {
            (self.sub.trailing_zeros() / 8) as u16 + 1
        }
    }
}

/// Pushes a reroll for every non-empty sub-multiset of `of`: as many as the product of each
/// face's count plus one, less the empty one, so they are handed over as one counted run
/// (written by one `extend` of a counted range, counted without a walk).
fn push_rerolls(of: &[u8; 6], out: &mut impl Sink<Choice>) {
    let count = of
        .iter()
        .fold(1usize, |n, &k| n.saturating_mul(usize::from(k) + 1))
        - 1;
    // [`SubMultisets::step`] without the totals, and without its test for the end, which the
    // count makes needless: some face is always left to turn.
    let all = packed(of);
    let mut sub = 0u64;
    out.extend(count, || {
        sub = turned(all, sub);
        Choice::Reroll(unpacked(sub))
    });
}

/// The odometer's next sub-multiset of `all` after `sub` (both [`packed`]; `sub` not yet `all`):
/// the faces not yet all taken are the non-zero bytes of `all - sub` (no byte borrows), the
/// lowest turns, and every face below it (all taken) goes back to none.
fn turned(all: u64, sub: u64) -> u64 {
    let unit = 1u64 << ((all - sub).trailing_zeros() & !7);
    (sub & unit.wrapping_neg()) + unit
}

/// Dice counted per face from [`packed`]: one copy of six bytes (a four- and a two-byte store),
/// not six byte stores.
fn unpacked(sub: u64) -> [u8; 6] {
    let mut d = [0u8; 6];
    d.copy_from_slice(&sub.to_le_bytes()[..6]);
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ginza_retro_cafe::Params;
    use crate::Game;
    use rand::{Rng, SeedableRng};

    /// The drink serves of an order asking for `n` by their definition, as the listing stood
    /// before the packed odometer: every sub-multiset of the dice, each face of the common dice
    /// tried in turn.
    #[allow(clippy::too_many_arguments)]
    fn drinks_by_definition(
        g: &GinzaRetroCafe,
        s: &State,
        dice: &[u8; 6],
        n: u8,
        common_ok: bool,
        bonus: Option<u8>,
        base: Serve,
        out: &mut impl Sink<Choice>,
    ) {
        let minimal = g.params.drink_dice == DrinkDice::Minimal;
        let n = u16::from(n);
        for sub in by_definition(dice) {
            let (sum, lowest) = sum_low(&sub);
            let fits = |total: u16, low: u16| total >= n && (!minimal || total - low < n);
            if sum >= n {
                if sub != [0; 6] && fits(sum, lowest) {
                    out.push(Choice::Serve(Serve { dice: sub, ..base }));
                }
                continue;
            }
            for f in 0..6u16 {
                if common_ok
                    && s.common[f as usize] > 0
                    && sum + f + 1 >= n
                    && fits(sum + f + 1, lowest.min(f + 1))
                {
                    let common = f as u8 + 1;
                    out.push(Choice::Serve(Serve {
                        dice: sub,
                        common,
                        ..base
                    }));
                }
            }
            if let Some(b) = bonus.map(u16::from) {
                if sum > 0 && sum + b >= n && fits(sum + b, lowest) {
                    out.push(Choice::Serve(Serve {
                        dice: sub,
                        bonus: true,
                        ..base
                    }));
                }
            }
        }
    }

    #[test]
    fn drink_serves_are_listed_as_their_definition_lists_them() {
        let mut checked = 0;
        for (v, drink_dice) in [DrinkDice::Any, DrinkDice::Minimal].into_iter().enumerate() {
            for players in crate::ginza_retro_cafe::INFO.players() {
                let p = Params {
                    players,
                    drink_dice,
                    ..Params::default()
                };
                let g = GinzaRetroCafe::with_params(p).unwrap();
                let mut legal = Vec::new();
                for seed in 0..40u64 {
                    let mut rng = crate::rng_from_seed(seed * 8 + v as u64 + 100 * players as u64);
                    let mut s = g.new_state(&mut rng);
                    while g.to_move(&s).is_some() {
                        if let Phase::Turn { seat } = s.phase {
                            let seat = usize::from(seat);
                            let (mut fast, mut slow) = (Vec::new(), Vec::new());
                            let options = [
                                (true, None),
                                (false, None),
                                (true, Some(2)),
                                (false, Some(4)),
                            ];
                            for ((common_ok, bonus), n) in options
                                .into_iter()
                                .flat_map(|o| (1..=30).map(move |n| (o, n)))
                            {
                                let base = Serve {
                                    place: 0,
                                    slot: 0,
                                    dice: [0; 6],
                                    common: 0,
                                    bonus: false,
                                };
                                let dice = &s.dice[seat];
                                g.push_drinks(&s, dice, n, common_ok, bonus, base, &mut fast);
                                drinks_by_definition(
                                    &g, &s, dice, n, common_ok, bonus, base, &mut slow,
                                );
                            }
                            assert_eq!(fast, slow);
                            checked += fast.len();
                        }
                        g.legal_actions(&s, &mut legal);
                        let a = legal[rng.gen_range(0..legal.len())];
                        g.apply(&mut s, a, &mut rng);
                    }
                }
            }
        }
        assert!(checked > 100_000, "only {checked} serves compared");
    }

    #[test]
    fn dishes_in_one_word_are_listed_as_their_definition_lists_them() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let base = Serve {
            place: 1,
            slot: 2,
            dice: [0; 6],
            common: 0,
            bonus: false,
        };
        let face_counts = |rng: &mut rand_chacha::ChaCha8Rng| {
            let mut d = [0u8; 6];
            for k in &mut d {
                *k = match rng.gen_range(0..10) {
                    0..=3 => 0,
                    4..=8 => rng.gen_range(1..4),
                    // Past the word's range, on the plain path.
                    _ => rng.gen_range(120..=255),
                };
            }
            d
        };
        let (mut some, mut stand_ins) = (0, 0);
        for _ in 0..20_000 {
            let (dice, need) = (face_counts(&mut rng), face_counts(&mut rng));
            let commons = (0..6).fold(0u64, |m, f| m | u64::from(rng.gen_bool(0.5)) << (8 * f + 7));
            let (mut fast, mut plain) = (Vec::new(), Vec::new());
            push_dishes(&dice, &need, commons, base, &mut fast);
            push_dishes_plain(&dice, &need, commons, base, &mut plain);
            assert_eq!(fast, plain, "{dice:?} {need:?} {commons:x}");
            some += usize::from(!fast.is_empty());
            stand_ins += fast.len().saturating_sub(1);
        }
        assert!(some > 1_000 && stand_ins > 1_000, "{some} {stand_ins}");
    }

    /// The sub-multisets of `of` by their definition, in the odometer's order (face 1 turns
    /// fastest): nested counts, the highest face outermost.
    fn by_definition(of: &[u8; 6]) -> Vec<[u8; 6]> {
        let mut all = vec![[0u8; 6]];
        for f in 0..6 {
            let mut next = Vec::new();
            for k in 0..=of[f] {
                for s in &all {
                    let mut s = *s;
                    s[f] = k;
                    next.push(s);
                }
            }
            all = next;
        }
        all
    }

    #[test]
    fn the_packed_odometer_visits_every_sub_multiset_once_in_order() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut cases = vec![[0u8; 6], [1; 6], [0, 0, 0, 0, 0, 3], [40, 0, 0, 0, 0, 2]];
        for _ in 0..300 {
            let mut of = [0u8; 6];
            for k in &mut of {
                *k = if rng.gen_bool(0.4) {
                    0
                } else {
                    rng.gen_range(1..=4)
                };
            }
            cases.push(of);
        }
        for of in cases {
            let mut odo = SubMultisets::new(&of);
            let mut seen = vec![odo.sub()];
            assert_eq!((odo.sum, odo.lowest()), sum_low(&odo.sub()));
            while odo.step() {
                assert_eq!((odo.sum, odo.lowest()), sum_low(&odo.sub()), "{of:?}");
                assert_eq!(odo.any(), odo.sub() != [0; 6]);
                seen.push(odo.sub());
            }
            assert_eq!(seen, by_definition(&of), "{of:?}");
            // The rerolls, written by a range counted from the product of the counts, are the
            // same sub-multisets less the empty one: none missing, none repeated.
            let mut rerolls = vec![Choice::Stop];
            push_rerolls(&of, &mut rerolls);
            let subs: Vec<Choice> = seen[1..].iter().map(|&d| Choice::Reroll(d)).collect();
            assert_eq!(rerolls[0], Choice::Stop, "{of:?}");
            assert_eq!(rerolls[1..], subs[..], "{of:?}");
        }
    }
}
