//! Robustness drivers: arbitrary bytes turned into card data, states and action sequences and
//! run through the engine's checked entry points. The fuzz targets (`fuzz/`, one per kind, the
//! first byte picking the game: [`by_game`]) and the tests call them. None may panic on any
//! input: a panic here is a bug in the engine, never in the input.
//!
//! What each driver asserts beyond "no panic": a state that passes its load check plays on with
//! its invariants intact, and a game that is not over always has a legal action.

use crate::data_file::DataFile;
use crate::game::Game;
use crate::present::Present;
use crate::{ginza_retro_cafe as gz, tofu_kingdom as tk, tofu_shifu as ts, wok_star as ws};
use rand::SeedableRng;

/// Reads numbers off the front of a byte string; zeros once it runs out.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// The next eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |x, i| x | (self.u8() as u64) << (8 * i))
    }

    /// Whether bytes are left.
    pub fn more(&self) -> bool {
        self.pos < self.data.len()
    }
}

/// The open rule options of Tofu Shifu, one bit each of `bits`.
fn tofu_shifu_params(players: u8, bits: u8) -> ts::Params {
    use crate::ParamFile;
    let mut p = ts::Params::with_players(players);
    let sets = [
        ["objective_limit=one-town", "objective_limit=one-total"],
        [
            "unserved_coin_customer_pays=true",
            "unserved_coin_customer_pays=false",
        ],
        ["board_flags_count=false", "board_flags_count=true"],
        ["market_price_mode=slot", "market_price_mode=card"],
        ["copy_can_target_rest=false", "copy_can_target_rest=true"],
        [
            "require_effective_action=true",
            "require_effective_action=false",
        ],
        ["finite_reserve=true", "finite_reserve=false"],
        ["end_rule=after-round", "end_rule=immediate"],
    ];
    for (i, pair) in sets.iter().enumerate() {
        p.set_all([pair[(bits >> i) as usize & 1]])
            .expect("the option values are valid");
    }
    p
}

/// Plays from `s`: each byte picks a legal action (below 200) or an arbitrary one decoded from
/// the following bytes, applied through `apply_checked`. After each applied action the game must
/// keep its invariants, and a game not over must offer an action.
fn play_on<G: Game>(
    g: &G,
    s: &mut G::State,
    b: &mut Bytes,
    arbitrary: impl Fn(&mut Bytes) -> G::Action,
    check: impl Fn(&G::State) -> Result<(), String>,
    steps: usize,
) {
    let mut rng = crate::GameRng::seed_from_u64(b.u64());
    let mut legal = Vec::new();
    for _ in 0..steps {
        if g.to_move(s).is_none() {
            assert!(
                g.outcome(s).is_some(),
                "a game with nobody to move has an outcome"
            );
            return;
        }
        g.legal_actions(s, &mut legal);
        assert!(!legal.is_empty(), "a game not over offers an action");
        let pick = b.u8();
        let a = if pick < 200 || !b.more() {
            legal[pick as usize % legal.len()]
        } else {
            arbitrary(b)
        };
        if g.apply_checked(s, a, &mut rng).is_ok() {
            if let Err(e) = check(s) {
                panic!("invariant broken after {a:?}: {e}");
            }
        }
    }
}

/// A new game of `g` passes its own load check and plays on with its invariants intact.
fn play_fresh<G: Present>(
    g: &G,
    seed: u64,
    arbitrary: impl Fn(&mut Bytes) -> G::Action,
    check: impl Fn(&G::State) -> Result<(), String>,
) {
    let mut s = g.new_state(&mut crate::rng_from_seed(seed));
    g.check_state(&s)
        .expect("a new game passes its own load check");
    let bytes = seed.to_le_bytes();
    play_on(
        g,
        &mut s,
        &mut Bytes::new(&bytes[..1]),
        arbitrary,
        check,
        3_000,
    );
}

/// A state loaded from the bytes (JSON) for the game `build` makes for its player count:
/// refused by the load check, or played on (more bytes pick the actions) without a panic or a
/// broken invariant.
fn play_loaded<G: Present>(
    data: &[u8],
    build: impl Fn(usize) -> Option<G>,
    arbitrary: impl Fn(&mut Bytes) -> G::Action,
    check: impl Fn(&G, &G::State) -> Result<(), String>,
) {
    let Ok(mut s) = serde_json::from_slice::<G::State>(data) else {
        return;
    };
    let Some(g) = build(G::state_players(&s)) else {
        return;
    };
    if g.check_state(&s).is_err() {
        return;
    }
    play_on(
        &g,
        &mut s,
        &mut Bytes::new(data),
        arbitrary,
        |s| check(&g, s),
        500,
    );
}

/// An arbitrary Tofu Shifu action, fields from the bytes (mostly illegal).
pub fn tofu_shifu_action(b: &mut Bytes) -> ts::Action {
    use ts::{Action as A, Dish, Hat, Space};
    let space = |x: u8| Space::from_index(x as usize % 9);
    let (v, x, y, z) = (b.u8(), b.u8(), b.u8(), b.u8());
    match v % 23 {
        0 => A::ClaimTown(x),
        1 => A::ClaimPlayer(x),
        2 => A::Move(space(x)),
        3 => A::Pass,
        4 => A::CopyTarget(space(x)),
        5 => A::ChooseCard(x),
        6 => A::PayToken(Hat::from_index(x as usize % 5)),
        7 => A::PayCard(x),
        8 => A::SeatExtra(x),
        9 => A::SeatDraw,
        10 => A::PlaceTile { tile: x, table: y },
        11 => A::ReturnTile(x),
        12 => A::ServeCustomer {
            table: x,
            seat: y,
            dish: Dish::from_index(z as usize % 4),
        },
        13 => A::SellToMarket(Dish::from_index(x as usize % 4)),
        14 => A::EndServe,
        15 => A::CleanTable {
            table: x,
            objective: ts::CardId::from_byte(y),
        },
        16 => A::EndCheckout,
        17 => A::Hire(x),
        18 => A::Buy(x),
        19 => A::EndBuying,
        20 => A::ReturnCard(x),
        21 => A::KeepCard(x),
        _ => A::EndTurn,
    }
}

/// An arbitrary Tofu Kingdom action.
pub fn tofu_kingdom_action(b: &mut Bytes) -> tk::Action {
    use tk::{Action as A, Answer, Question};
    let (v, x, y) = (b.u8(), b.u8(), b.u8());
    let question = match y % 3 {
        0 => Question::WherePrincess,
        1 => Question::OwnCard,
        _ => Question::CardOf(y / 3),
    };
    match v % 6 {
        0 => A::Ask { to: x, question },
        1 => A::Answer(Answer::Seat(x)),
        2 => A::Answer(Answer::Centre),
        3 => A::Answer(Answer::Card(x)),
        4 => A::Guess(x),
        _ => A::Steal(x),
    }
}

/// Tofu Shifu card data from the bytes: refused, or every player count plays without a panic.
pub fn tofu_shifu_data(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(cards) = ts::CardData::parse(&text, "fuzz.json") else {
        return;
    };
    for players in 2..=4 {
        if let Ok(g) = ts::TofuShifu::new(cards.clone(), ts::Params::with_players(players)) {
            play_fresh(&g, u64::from(players), tofu_shifu_action, |s| {
                g.check_invariants(s)
            });
        }
    }
}

/// A Tofu Shifu state from the bytes (JSON), on the calibrated data: refused by the load check,
/// or played on (more bytes pick the actions) without a panic or a broken invariant.
pub fn tofu_shifu_state(data: &[u8]) {
    play_loaded(
        data,
        |n| ts::TofuShifu::with_params(ts::Params::with_players(n.clamp(2, 4) as u8)).ok(),
        tofu_shifu_action,
        |g, s| g.check_invariants(s),
    );
}

/// A Tofu Shifu game from the bytes: a seed, a player count and the rule options, then actions
/// (legal ones and arbitrary ones through `apply_checked`).
pub fn tofu_shifu_actions(data: &[u8]) {
    let mut b = Bytes::new(data);
    let seed = b.u64();
    let players = 2 + b.u8() % 3;
    let g = ts::TofuShifu::with_params(tofu_shifu_params(players, b.u8()))
        .expect("every option combination builds");
    let mut s = g.new_state(&mut crate::rng_from_seed(seed));
    play_on(
        &g,
        &mut s,
        &mut b,
        tofu_shifu_action,
        |s| g.check_state(s),
        2_000,
    );
}

/// Tofu Kingdom card data from the bytes (YAML).
pub fn tofu_kingdom_data(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(cards) = tk::CardData::parse(&text, "fuzz.yaml") else {
        return;
    };
    for players in 3..=8 {
        if let Ok(g) = tk::TofuKingdom::new(cards.clone(), tk::Params::with_players(players)) {
            play_fresh(&g, u64::from(players), tofu_kingdom_action, |s| {
                g.check_invariants(s)
            });
        }
    }
}

/// A Tofu Kingdom state from the bytes (JSON).
pub fn tofu_kingdom_state(data: &[u8]) {
    play_loaded(
        data,
        |n| tk::TofuKingdom::with_params(tk::Params::with_players(n.clamp(3, 8) as u8)).ok(),
        tofu_kingdom_action,
        |g, s| g.check_invariants(s),
    );
}

/// A Tofu Kingdom game from the bytes: a seed and a player count, then actions.
pub fn tofu_kingdom_actions(data: &[u8]) {
    let mut b = Bytes::new(data);
    let seed = b.u64();
    let players = 3 + b.u8() % 6;
    let g = tk::TofuKingdom::with_params(tk::Params::with_players(players))
        .expect("every player count builds");
    let mut s = g.new_state(&mut crate::rng_from_seed(seed));
    play_on(
        &g,
        &mut s,
        &mut b,
        tofu_kingdom_action,
        |s| g.check_state(s),
        2_000,
    );
}

/// An arbitrary Wok Star action, fields from the bytes (mostly illegal).
pub fn wok_star_action(b: &mut Bytes) -> ws::Action {
    use ws::{Action as A, Die};
    let (v, x, y, z, w) = (b.u8(), b.u8(), b.u8(), b.u8(), b.u8());
    let die = |o: u8, f: u8| Die {
        owner: o % 5,
        face: f % 8,
    };
    match v % 27 {
        0 => A::ExtraDie(x),
        1 => A::GiveIngredient(x),
        2 => A::Serve,
        3 => A::Prepare {
            ingredient: x,
            method: y,
        },
        4 => A::GainHustle(x),
        5 => A::Rotate {
            owner: z,
            face: x,
            up: y % 2 == 0,
        },
        6 => A::HustleCubes { from: x, to: y },
        7 => A::SecondCube { from: x, to: y },
        8 => A::NoSecondCube,
        9 => A::Wash,
        10 => A::EndWash,
        11 => A::Wait,
        12 => A::Close,
        13 => A::Done,
        14 => A::GiveCube(x),
        15 => A::BuyRecipe { slot: x, seat: y },
        16 => A::Upgrade(x),
        17 => A::BuyHustle,
        18 => A::Advertise,
        19 => A::OpenDay,
        20 => A::ChooseIngredient(x),
        21 => A::Character(x),
        22 => A::UsePower,
        23 => A::PowerServe { using: x },
        24 => A::PowerPrepare {
            ingredient: x,
            method: y,
        },
        25 => A::SetDie { face: x, to: y },
        _ => A::UseDie(die(z, w)),
    }
}

/// Wok Star data from the bytes (YAML): refused, or every player count and difficulty it has
/// plays without a panic.
pub fn wok_star_data(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(d) = ws::WokData::parse(&text, "fuzz.yaml") else {
        return;
    };
    let difficulties: Vec<String> = d.income_goals.keys().cloned().collect();
    for players in 2..=4u8 {
        for difficulty in &difficulties {
            let p = ws::Params {
                players,
                difficulty: difficulty.clone(),
                events: players != 3,
                powers: players != 2,
                ..ws::Params::default()
            };
            if let Ok(g) = ws::WokStar::new(d.clone(), p) {
                play_fresh(&g, u64::from(players), wok_star_action, |s| {
                    g.check_invariants(s)
                });
            }
        }
    }
}

/// A Wok Star state from the bytes (JSON), on the embedded data.
pub fn wok_star_state(data: &[u8]) {
    play_loaded(
        data,
        |n| ws::WokStar::with_params(ws::Params::with_players(n.clamp(2, 4) as u8)).ok(),
        wok_star_action,
        |g, s| g.check_invariants(s),
    );
}

/// A Wok Star game from the bytes: a seed, a player count and the rule options, then actions.
pub fn wok_star_actions(data: &[u8]) {
    use ws::params::{DiceGrowth, ForeignDice, RecipeOffer, TimerFlip, TrackTop, UndrawnEvents};
    let mut b = Bytes::new(data);
    let seed = b.u64();
    let players = 2 + b.u8() % 3;
    let bits = u16::from(b.u8()) | u16::from(b.u8()) << 8;
    let on = |k: u16| bits & (1 << k) != 0;
    let p = ws::Params {
        players,
        difficulty: ["mild", "medium", "extra_spicy"][usize::from(bits >> 10) % 3].to_string(),
        timer_flip: if on(0) {
            TimerFlip::Refill
        } else {
            TimerFlip::Sand
        },
        on_time_at_empty: on(1),
        wash_with_unused_dice: on(2),
        fourth_method: if on(3) {
            ForeignDice::ExactlyOne
        } else {
            ForeignDice::AtLeastOne
        },
        track_top: if on(4) {
            TrackTop::Refuse
        } else {
            TrackTop::Cap
        },
        cube_at_income_passed: on(5),
        early_goal_cubes: on(6),
        hustle_after_close: on(7),
        dice_growth: if on(8) {
            DiceGrowth::Served
        } else {
            DiceGrowth::OnTime
        },
        recipe_offer: if on(9) {
            RecipeOffer::EachPurchase
        } else {
            RecipeOffer::Once
        },
        events: on(11) || on(12),
        powers: on(14) || on(15),
        undrawn_events: if on(13) {
            UndrawnEvents::Discard
        } else {
            UndrawnEvents::Stay
        },
        ..ws::Params::default()
    };
    let g = ws::WokStar::with_params(p).expect("every option combination builds");
    let mut s = g.new_state(&mut crate::rng_from_seed(seed));
    play_on(
        &g,
        &mut s,
        &mut b,
        wok_star_action,
        |s| g.check_state(s),
        3_000,
    );
}

/// An arbitrary Ginza Retro Café action, fields from the bytes (mostly illegal).
pub fn ginza_action(b: &mut Bytes) -> gz::Action {
    use gz::{Action as A, Help};
    let (v, x, y) = (b.u8(), b.u8(), b.u8());
    match v % 13 {
        0 => A::ChooseCard(x % 3),
        1 => A::Draft(x % 4),
        2 => A::RaiseLevel(x % 4),
        3 => A::RaiseLimit,
        4 => A::Serve {
            place: x % 4,
            slot: y % 4,
        },
        5 => A::ServeDie(x % 8),
        6 => A::ServeWith(match x % 9 {
            0 => Help::Own,
            8 => Help::Bonus,
            c => Help::Common(c),
        }),
        7 => A::Change {
            face: x % 8,
            up: y % 2 == 0,
        },
        8 => A::RerollDie(x % 8),
        9 => A::Roll,
        10 => A::Add(x % 10),
        11 => A::Wash(x % 6),
        _ => A::Stop,
    }
}

/// Ginza Retro Café data from the bytes (YAML): refused, or every player count it allows plays
/// without a panic under a few option settings.
pub fn ginza_data(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(d) = gz::GinzaData::parse(&text, "fuzz.yaml") else {
        return;
    };
    for players in 2..=4u8 {
        let p = gz::Params {
            players,
            stacked_tokens: players != 3,
            arrange_partial: players != 4,
            ..gz::Params::default()
        };
        if let Ok(g) = gz::GinzaRetroCafe::new(d.clone(), p) {
            play_fresh(&g, u64::from(players), ginza_action, |s| {
                g.check_invariants(s)
            });
        }
    }
}

/// A Ginza Retro Café state from the bytes (JSON), on the embedded data.
pub fn ginza_state(data: &[u8]) {
    play_loaded(
        data,
        |n| gz::GinzaRetroCafe::with_params(gz::Params::with_players(n.clamp(2, 4) as u8)).ok(),
        ginza_action,
        |g, s| g.check_invariants(s),
    );
}

/// A Ginza Retro Café game from the bytes: a seed, a player count and the rule options, then
/// actions.
pub fn ginza_actions(data: &[u8]) {
    use gz::params::{DrinkDice, SetupTie, StartTie};
    let mut b = Bytes::new(data);
    let seed = b.u64();
    let players = 2 + b.u8() % 3;
    let bits = b.u8();
    let on = |k: u8| bits & (1 << k) != 0;
    let p = gz::Params {
        players,
        setup_tie: if on(0) {
            SetupTie::LowestSeat
        } else {
            SetupTie::Random
        },
        start_tie: if on(1) {
            StartTie::LeftFirst
        } else {
            StartTie::CurrentFirst
        },
        drink_dice: if on(2) {
            DrinkDice::Minimal
        } else {
            DrinkDice::Any
        },
        arrange_partial: on(3),
        stacked_tokens: on(4),
        arrivals_tick: on(5),
        most_with_zero: on(6),
        finite_bank: on(7),
        ..gz::Params::default()
    };
    let g = gz::GinzaRetroCafe::with_params(p).expect("every option combination builds");
    let mut s = g.new_state(&mut crate::rng_from_seed(seed));
    play_on(
        &g,
        &mut s,
        &mut b,
        ginza_action,
        |s| g.check_state(s),
        3_000,
    );
}

/// A driver: bytes in, a panic only on an engine bug.
pub type Driver = fn(&[u8]);

/// The kinds of driver each game has: its data file, a loaded state, an action sequence.
pub const KINDS: [&str; 3] = ["data", "state", "actions"];

/// The game a fuzz input of the combined targets is for: its first byte, modulo the number of
/// registered games, indexes the engine's list ([`crate::GAMES`]); the rest is the game's input.
pub fn split_game(bytes: &[u8]) -> Option<(&'static crate::GameInfo, &[u8])> {
    let (&first, rest) = bytes.split_first()?;
    Some((&crate::GAMES[usize::from(first) % crate::GAMES.len()], rest))
}

/// The driver of `kind` for the game named `game` (`tofu-shifu`): `<game>_<kind>` in
/// [`DRIVERS`], dashes as underscores.
pub fn driver(game: &str, kind: &str) -> Option<Driver> {
    let name = format!("{}_{kind}", game.replace('-', "_"));
    DRIVERS.iter().find(|(n, _)| *n == name).map(|&(_, d)| d)
}

/// Runs the `kind` driver of the game the first byte picks ([`split_game`]) on the rest: the
/// body of the fuzz targets `data`, `state` and `actions`, one each for every game.
pub fn by_game(kind: &str, bytes: &[u8]) {
    if let Some((game, rest)) = split_game(bytes) {
        let d = driver(game.name, kind)
            .unwrap_or_else(|| panic!("{} has no {kind} driver in hostile::DRIVERS", game.name));
        d(rest);
    }
}

/// Every driver by name, as the fuzz targets and the corpus test call them.
pub const DRIVERS: [(&str, Driver); 12] = [
    ("tofu_shifu_data", tofu_shifu_data),
    ("tofu_shifu_state", tofu_shifu_state),
    ("tofu_shifu_actions", tofu_shifu_actions),
    ("tofu_kingdom_data", tofu_kingdom_data),
    ("tofu_kingdom_state", tofu_kingdom_state),
    ("tofu_kingdom_actions", tofu_kingdom_actions),
    ("wok_star_data", wok_star_data),
    ("wok_star_state", wok_star_state),
    ("wok_star_actions", wok_star_actions),
    ("ginza_retro_cafe_data", ginza_data),
    ("ginza_retro_cafe_state", ginza_state),
    ("ginza_retro_cafe_actions", ginza_actions),
];
