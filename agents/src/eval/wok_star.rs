//! The Wok Star team evaluation: one value for the whole team (every seat gets the same), on a
//! scale where one day's goal met is worth 1.
//!
//! - Days met count 1 each.
//! - While a day runs: today's income as a share of today's goal (`income`), the ingredient stock
//!   (`stock` per token slot above the bottom, up to the slots the customers still to come need),
//!   a penalty while the waiting customer's dish is blocked (`blocked`), unused dice (`die`),
//!   washes left (`wash`) and Hustle tokens (`hustle`), and what the customers still to serve
//!   could bring (`potential`, times the team's means to serve them: any unused die, wash or
//!   stock).
//! - After closing and in Next Day Prep: the stock carried over, the recipes owned (their Regular
//!   customers' incomes against the next goal, `recipe`), upgrades (`upgrade`), Hustle tokens and
//!   advertised coupons (`coupon`, at most `coupon_cap` of them). Money left is worth nothing: it
//!   is lost when the next day opens.

use super::Evaluate;
use crate::Decision;
use rand::Rng;
use serde::{Deserialize, Serialize};
use shifu_engine::wok_star::data::CUSTOMER_SLOTS;
use shifu_engine::wok_star::{Action, Choice, Phase, State, WokStar, COUPON_SLOTS};
use shifu_engine::{Game, Outcome, Seat};

/// Weights of the Wok Star team evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WokStarWeights {
    /// Today's income, per share of today's goal.
    pub income: f64,
    /// Per ingredient slot above the bottom, up to the need of the customers to come.
    pub stock: f64,
    /// Penalty while the waiting customer's dish has an ingredient on the bottom slot.
    pub blocked: f64,
    /// Per unused die while a day runs.
    pub die: f64,
    /// Per wash left while a day runs.
    pub wash: f64,
    /// Per Hustle token in the pool.
    pub hustle: f64,
    /// Per share of today's goal the customers still to serve could bring.
    pub potential: f64,
    /// Per share of the next goal the owned recipes' Regular customers bring.
    pub recipe: f64,
    /// Per ingredient upgrade, times (1 + the recipes in play that use the ingredient) / 2.
    pub upgrade: f64,
    /// Per advertised Coupon customer, up to `coupon_cap`.
    pub coupon: f64,
    /// Most advertised coupons valued (default 0: with dice short, a $1 customer is not worth
    /// the ingredients it eats; measured, greedy at Mild wins more without advertising).
    pub coupon_cap: f64,
}

impl Default for WokStarWeights {
    fn default() -> Self {
        WokStarWeights {
            income: 1.0,
            stock: 0.02,
            blocked: 0.1,
            die: 0.008,
            wash: 0.02,
            hustle: 0.006,
            potential: 0.3,
            recipe: 0.6,
            upgrade: 0.25,
            coupon: 0.02,
            coupon_cap: 0.0,
        }
    }
}

fn stock_value(g: &WokStar, s: &State, w: &WokStarWeights) -> f64 {
    // What the Regular customers still to come need of each ingredient (advertised coupons are
    // left out, so that advertising does not look like stock gained).
    let mut need = [0u32; 16];
    let mut deck = (s.deck & !COUPON_SLOTS) | s.customer.map_or(0, |c| 1u128 << c);
    while deck != 0 {
        let c = deck.trailing_zeros() as usize;
        deck &= deck - 1;
        for &k in &g.data.recipes[c / CUSTOMER_SLOTS].ingredients {
            need[k as usize] += 1;
        }
    }
    let min = g.data.track.min;
    let mut v = 0.0;
    for (k, &need) in need.iter().enumerate().take(g.data.ingredients.len()) {
        if s.ingredient_owner[k] != u8::MAX {
            let have = u32::from(s.track[k].saturating_sub(min));
            v += f64::from(have.min(need.max(1)));
        }
    }
    w.stock * v
}

impl Evaluate for WokStar {
    type Weights = WokStarWeights;
    type Belief = ();

    fn cooperative(&self) -> bool {
        true
    }

    /// 1 for a win; a loss is worth 0.2 for each day survived (the score), at most 0.6.
    fn team_outcome_value(&self, outcome: &Outcome) -> f64 {
        if outcome.winners != 0 {
            1.0
        } else {
            (0.2 * outcome.score[0]).clamp(0.0, 0.6)
        }
    }

    /// The team's evaluation (days met, about 0 to 4) at 0.2 a day, at most 0.8: below a win.
    fn team_cut_value(&self, evaluation: f64) -> f64 {
        (0.2 * evaluation).clamp(0.0, 0.8)
    }

    /// The greedy team's plays outside a one-ply look:
    /// - Next Day Prep is a shopping list: buy whatever raises the evaluation most, and open the
    ///   next day only when nothing does (a one-ply look would open at once, since opening shows
    ///   the day's prospects and a purchase shows only itself);
    /// - while open, a kitchen routine: serve when possible; otherwise prepare what the waiting
    ///   and coming customers lack (the blocked dish first, the best gain per die, few cubes
    ///   spent); during a wash turn leftover dice into Hustle (they come back re-rolled); wash
    ///   when no unused die can help; close only when nothing can help any more; else wait;
    /// - cards and cubes go to the seat holding fewest.
    ///
    /// The routine chooses among complete choices ([`WokStar::choices`], a preparation with
    /// both dice) and plays the compact step toward the one chosen; while a preparation is
    /// pending it finishes the best that continues it.
    fn greedy_choice<R: Rng + ?Sized>(
        &self,
        d: &Decision<'_, Self>,
        w: &WokStarWeights,
        rng: &mut R,
    ) -> Option<Action> {
        let s = d.determinize(rng);
        let mut flat = Vec::new();
        self.choices(&s, &mut flat);
        // Only the choices whose next step is among the decision's (a restricted agent may
        // have left some out).
        let legal = d.legal();
        flat.retain(|&c| legal.contains(&self.step_toward(&s, c)));
        if flat.is_empty() {
            return None;
        }
        let legal = &flat[..];
        let choice = match s.phase {
            Phase::Prep => shop(self, &s, d.seat(), legal, w, rng),
            Phase::Business | Phase::Washing | Phase::AfterClose { .. } => {
                kitchen(self, &s, d.seat(), legal)
            }
            Phase::GiveIngredients => fewest(legal, |c| match c {
                Choice::Single(Action::GiveIngredient(x)) => {
                    Some(s.ingredient_owner.iter().filter(|&&o| o == x).count())
                }
                _ => None,
            }),
            Phase::GiveCubes => fewest(legal, |c| match c {
                Choice::Single(Action::GiveCube(x)) => Some(usize::from(s.cubes[x as usize])),
                _ => None,
            }),
            _ => return None,
        };
        Some(self.step_toward(&s, choice))
    }

    fn evaluate(&self, s: &State, _seat: Seat, w: &WokStarWeights) -> f64 {
        let days = f64::from(s.days_met);
        if s.is_over() {
            return days;
        }
        let goals = self.goals();
        let day = (s.day as usize).clamp(1, 4) - 1;
        let goal = f64::from(goals[day].max(1));
        // What the team carries from day to day, valued the same in every phase so that no
        // phase change looks like a gain or a loss: recipes against the goal of the day they
        // will serve, upgrades, advertised coupons, stock and Hustle.
        let serving_day = match s.phase {
            Phase::Business | Phase::Washing | Phase::AfterClose { .. } => day,
            _ if s.opened => (day + 1).min(3),
            _ => day,
        };
        let mut regular = 0.0;
        for (r, rec) in self.data.recipes.iter().enumerate() {
            if s.recipe_owner[r] != u8::MAX {
                regular += rec.regular.iter().map(|&x| f64::from(x)).sum::<f64>();
            }
        }
        // An upgrade is worth more on an ingredient more of the team's recipes use.
        let mut uses = [0u32; 16];
        for (r, rec) in self.data.recipes.iter().enumerate() {
            if s.recipe_owner[r] != u8::MAX {
                for &k in &rec.ingredients {
                    uses[k as usize] += 1;
                }
            }
        }
        let upgrades: f64 = s
            .upgrades
            .iter()
            .zip(uses)
            .map(|(&u, n)| f64::from(u) * (0.5 + 0.5 * f64::from(n)))
            .sum();
        // Coupons past the cap crowd the deck with $1 customers: each costs what one within it
        // gains.
        let c = f64::from((s.deck & COUPON_SLOTS).count_ones());
        let coupons = c.min(w.coupon_cap) - (c - w.coupon_cap).max(0.0);
        let carried = days
            + w.recipe * regular / f64::from(goals[serving_day].max(1))
            + w.upgrade * upgrades
            + w.coupon * coupons
            + stock_value(self, s, w)
            + w.hustle * f64::from(s.hustle_pool);
        let income = w.income * (f64::from(s.income) / goal).min(1.5);
        match s.phase {
            Phase::Business | Phase::Washing => {
                let n = self.num_seats();
                // During a wash every dirty die is about to be rolled again.
                let dice: usize = if s.phase == Phase::Washing {
                    (0..n).map(|i| usize::from(s.dice_count[i])).sum()
                } else {
                    (0..n).map(|i| s.unused_dice(i)).sum()
                };
                let mut blocked = 0.0;
                let mut left = 0.0;
                if let Some(c) = s.customer {
                    let r = &self.data.recipes[c as usize / CUSTOMER_SLOTS];
                    if r.ingredients
                        .iter()
                        .any(|&k| s.track[k as usize] <= self.data.track.min)
                    {
                        blocked = w.blocked;
                    }
                    left += f64::from(self.customer_income(c).0);
                }
                let mut deck = s.deck & !COUPON_SLOTS;
                while deck != 0 {
                    let c = deck.trailing_zeros() as u8;
                    deck &= deck - 1;
                    left += f64::from(self.customer_income(c).0);
                }
                let means = dice > 1 || s.washes_left > 0;
                let potential = if means {
                    w.potential * left / goal
                } else {
                    0.0
                };
                carried + income + potential - blocked
                    + w.die * dice as f64
                    + w.wash * f64::from(s.washes_left)
            }
            Phase::AfterClose { .. } => carried + income,
            _ => carried,
        }
    }
}

/// Next Day Prep: the purchase that raises the evaluation most, or open the day.
fn shop<R: Rng + ?Sized>(
    g: &WokStar,
    s: &State,
    seat: Seat,
    legal: &[Choice],
    w: &WokStarWeights,
    rng: &mut R,
) -> Choice {
    let open = Choice::Single(Action::OpenDay);
    let now = g.evaluate(s, seat, w);
    let mut best = (open, now + 1e-9);
    for &c in legal {
        if c == open {
            continue;
        }
        let mut t = s.clone();
        g.apply_choice(&mut t, c, rng);
        let v = g.evaluate(&t, seat, w);
        if v > best.1 {
            best = (c, v);
        }
    }
    best.0
}

/// The legal choice whose key is smallest (the first on a tie).
fn fewest(legal: &[Choice], key: impl Fn(Choice) -> Option<usize>) -> Choice {
    legal
        .iter()
        .filter_map(|&c| key(c).map(|k| (k, c)))
        .min_by_key(|&(k, _)| k)
        .map_or(legal[0], |(_, c)| c)
}

/// How many more token slots each ingredient needs: the waiting customer's dish three times
/// over, and once for every Regular customer still to come (all of them after closing).
fn shortfall(g: &WokStar, s: &State) -> [i32; 16] {
    let mut need = [0i32; 16];
    let after_close = matches!(s.phase, Phase::AfterClose { .. });
    let mut deck = s.deck & !COUPON_SLOTS;
    if after_close {
        deck = 0;
        for r in 0..g.data.recipes.len() {
            if s.recipe_owner[r] != u8::MAX {
                deck |= ((1u128 << g.data.recipes[r].regular.len()) - 1) << (r * CUSTOMER_SLOTS);
            }
        }
    }
    while deck != 0 {
        let c = deck.trailing_zeros() as usize;
        deck &= deck - 1;
        for &k in &g.data.recipes[c / CUSTOMER_SLOTS].ingredients {
            need[k as usize] += 1;
        }
    }
    if let Some(c) = s.customer {
        for &k in &g.data.recipes[c as usize / CUSTOMER_SLOTS].ingredients {
            need[k as usize] += 3;
        }
    }
    for (k, n) in need.iter_mut().enumerate().take(g.data.ingredients.len()) {
        *n -= i32::from(s.track[k].saturating_sub(g.data.track.min));
    }
    need
}

/// The best preparation among `legal`: slots that meet a shortfall, the blocked dish first,
/// few cubes spent.
fn best_preparation(
    g: &WokStar,
    s: &State,
    seat: Seat,
    legal: &[Choice],
    short: &[i32; 16],
    blocked: u16,
) -> Option<(f64, Choice)> {
    let mut best: Option<(f64, Choice)> = None;
    for &c in legal {
        let Choice::Prepare {
            power: free,
            ingredient: k,
            method: m,
            a: x,
            b: y,
        } = c
        else {
            continue;
        };
        let gain = i32::from(g.data.ingredients[k as usize].methods[m as usize].gain);
        let room = i32::from(g.data.track.max) - i32::from(s.track[k as usize]);
        let useful = gain.min(short[k as usize]).min(room);
        if useful <= 0 {
            continue;
        }
        let foreign = u8::from(x.owner != seat) + u8::from(y.owner != seat);
        let mut v = f64::from(useful) - if free { 0.0 } else { 0.3 * f64::from(foreign) };
        if blocked & (1 << k) != 0 {
            v += 10.0;
        }
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, c));
        }
    }
    best
}

/// The single action `a`, as a choice.
const fn one(a: Action) -> Choice {
    Choice::Single(a)
}

/// The kitchen routine while a day runs (and after closing).
fn kitchen(g: &WokStar, s: &State, seat: Seat, legal: &[Choice]) -> Choice {
    let has = |a: Action| legal.contains(&one(a));
    let find = |f: fn(&Action) -> bool| {
        legal
            .iter()
            .copied()
            .find(|c| matches!(c, Choice::Single(a) if f(a)))
    };
    if has(Action::Serve) {
        return one(Action::Serve);
    }
    if let Some(c) = find(|a| matches!(a, Action::PowerServe { .. })) {
        return c;
    }
    if has(Action::NoSecondCube) {
        return one(Action::NoSecondCube);
    }
    // A Hustle moves 2 cubes: the second must follow.
    if let Some(c) = find(|a| matches!(a, Action::SecondCube { .. })) {
        return c;
    }
    let short = shortfall(g, s);
    if legal
        .iter()
        .all(|c| matches!(c, Choice::Single(Action::ChooseIngredient(_))))
    {
        return *legal
            .iter()
            .max_by_key(|c| match c {
                Choice::Single(Action::ChooseIngredient(k)) => short[*k as usize],
                _ => i32::MIN,
            })
            .unwrap_or(&legal[0]);
    }
    let blocked: u16 = s.customer.map_or(0, |c| {
        let r = &g.data.recipes[c as usize / CUSTOMER_SLOTS];
        let mut b = 0u16;
        for &k in &r.ingredients {
            if s.track[k as usize] <= g.data.track.min {
                b |= 1 << k;
            }
        }
        b
    });
    let best = best_preparation(g, s, seat, legal, &short, blocked);
    if s.preparing.is_some() {
        // Finishing a preparation begun: the best that continues it (the one begun, when this
        // routine began it).
        return best.map_or(legal[0], |(_, c)| c);
    }
    // A Hustle token turning a die is worth it when it opens a preparation at least one slot
    // better than the best one now.
    if s.hustle_pool > 0 && !matches!(s.phase, Phase::AfterClose { .. }) {
        let now = best.map_or(0.0, |(v, _)| v);
        let mut turn: Option<(f64, Choice)> = None;
        let mut buf = Vec::new();
        for &c in legal {
            let Choice::Single(a @ Action::Rotate { .. }) = c else {
                continue;
            };
            let mut t = s.clone();
            g.apply(&mut t, a, &mut rand::rngs::mock::StepRng::new(0, 1));
            t.clock = s.clock;
            t.second_cube = None;
            g.choices(&t, &mut buf);
            if g.to_move(&t) != Some(seat) {
                continue;
            }
            if let Some((v, _)) = best_preparation(g, &t, seat, &buf, &short, blocked) {
                if v >= now + 1.0 && turn.is_none_or(|(b, _)| v > b) {
                    turn = Some((v, c));
                }
            }
        }
        if let Some((_, c)) = turn {
            return c;
        }
    }
    if let Some((_, c)) = best {
        return c;
    }
    match s.phase {
        Phase::Washing => {
            find(|a| matches!(a, Action::GainHustle(_))).unwrap_or(one(Action::EndWash))
        }
        Phase::AfterClose { .. } => one(Action::Done),
        _ => {
            let n = g.num_seats();
            let unused: usize = (0..n).map(|i| s.unused_dice(i)).sum();
            if has(Action::Wash) && (unused < 2 || blocked != 0 && unused < 4) {
                return one(Action::Wash);
            }
            if let Some(c) = find(|a| matches!(a, Action::UsePower)) {
                return c;
            }
            let hopeless = unused < 2 && s.washes_left == 0 && blocked != 0;
            if hopeless && has(Action::Close) {
                one(Action::Close)
            } else {
                one(Action::Wait)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shifu_engine::rng_from_seed;
    use shifu_engine::wok_star::Params;

    fn opened(seed: u64) -> (WokStar, State) {
        let g = WokStar::with_params(Params::default()).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut seat = 0;
        while s.phase == Phase::GiveIngredients {
            let mut legal = Vec::new();
            g.legal_actions(&s, &mut legal);
            let a = if legal.contains(&Action::GiveIngredient(seat)) {
                Action::GiveIngredient(seat)
            } else {
                legal[0]
            };
            g.apply(&mut s, a, &mut rng);
            seat = (seat + 1) % 4;
        }
        (g, s)
    }

    #[test]
    fn serving_is_worth_more_than_waiting_and_waiting_more_than_closing() {
        let (g, mut s) = opened(1);
        let w = WokStarWeights::default();
        let r = s.customer.unwrap() as usize / 8;
        for &k in &g.data.recipes[r].ingredients {
            s.track[k as usize] = 2;
        }
        s.clock[s.recipe_owner[r] as usize] = 0;
        let value = |a: Action| {
            let mut t = s.clone();
            g.apply(&mut t, a, &mut rng_from_seed(2));
            g.evaluate(&t, 0, &w)
        };
        assert!(value(Action::Serve) > value(Action::Wait));
        assert!(value(Action::Wait) > value(Action::Close));
    }

    #[test]
    fn preparing_a_blocked_ingredient_beats_waiting() {
        let (g, mut s) = opened(3);
        let w = WokStarWeights::default();
        let seat = g.earliest(&s);
        let r = s.customer.unwrap() as usize / 8;
        let k = g.data.recipes[r].ingredients[0];
        s.ingredient_owner[k as usize] = seat;
        s.track[k as usize] = 0;
        s.dice[seat as usize] = [1, 2, 0, 0, 0];
        let mut legal = Vec::new();
        g.choices(&s, &mut legal);
        let prep = legal
            .iter()
            .copied()
            .find(|c| matches!(c, Choice::Prepare { ingredient, .. } if *ingredient == k))
            .unwrap();
        let value = |c: Choice| {
            let mut t = s.clone();
            g.apply_choice(&mut t, c, &mut rng_from_seed(2));
            g.evaluate(&t, 0, &w)
        };
        assert!(value(prep) > value(Choice::Single(Action::Wait)));
    }

    #[test]
    fn every_seat_gets_the_same_team_value() {
        let (g, s) = opened(4);
        let w = WokStarWeights::default();
        let v: Vec<f64> = (0..4).map(|seat| g.evaluate(&s, seat, &w)).collect();
        assert!(v.iter().all(|&x| x == v[0]));
    }
}

#[cfg(test)]
mod prep_tests {
    use super::*;
    use shifu_engine::rng_from_seed;
    use shifu_engine::wok_star::Params;

    #[test]
    fn advertising_past_the_cap_loses_value() {
        let g = WokStar::with_params(Params::with_players(2)).unwrap();
        for cap in [0.0, 2.0] {
            let w = WokStarWeights {
                coupon_cap: cap,
                ..WokStarWeights::default()
            };
            let mut rng = rng_from_seed(1);
            let mut s = g.new_state(&mut rng);
            s.phase = Phase::Prep;
            s.opened = true;
            s.pending = 0;
            for k in 0..10 {
                if s.track[k] > 0 {
                    s.ingredient_owner[k] = 0;
                }
            }
            let mut values = vec![g.evaluate(&s, 0, &w)];
            for _ in 0..4 {
                g.apply(&mut s, Action::Advertise, &mut rng);
                values.push(g.evaluate(&s, 0, &w));
            }
            for k in 1..values.len() {
                if (k as f64) <= cap {
                    assert!(values[k] > values[k - 1], "cap {cap}: {values:?}");
                } else {
                    assert!(values[k] < values[k - 1], "cap {cap}: {values:?}");
                }
            }
        }
    }
}

#[cfg(test)]
mod kitchen_tests {
    use super::*;
    use shifu_engine::rng_from_seed;
    use shifu_engine::wok_star::Params;

    #[test]
    fn the_kitchen_routine_serves_first_and_prepares_the_blocked_dish() {
        let g = WokStar::with_params(Params::default()).unwrap();
        let mut rng = rng_from_seed(7);
        let mut s = g.new_state(&mut rng);
        while s.phase != Phase::Business {
            let mut legal = Vec::new();
            g.legal_actions(&s, &mut legal);
            g.apply(&mut s, legal[0], &mut rng);
        }
        let c = s.customer.unwrap();
        let r = c as usize / 8;
        let owner = s.recipe_owner[r];
        s.clock = [9_000; 4];
        s.clock[owner as usize] = 0;
        for &k in &g.data.recipes[r].ingredients {
            s.track[k as usize] = 2;
        }
        let mut legal = Vec::new();
        g.choices(&s, &mut legal);
        assert_eq!(kitchen(&g, &s, owner, &legal), one(Action::Serve));
        // Block the dish on an ingredient the mover holds, with dice to prepare it.
        let k = g.data.recipes[r].ingredients[0];
        s.track[k as usize] = 0;
        s.ingredient_owner[k as usize] = owner;
        s.dice[owner as usize] = [2, 5, 0, 0, 0];
        g.choices(&s, &mut legal);
        match kitchen(&g, &s, owner, &legal) {
            Choice::Prepare { ingredient, .. } => assert_eq!(ingredient, k),
            c => panic!("{c:?}"),
        }
    }
}
