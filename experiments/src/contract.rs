//! The contract every game keeps, checked generically: [`contract`] runs the whole battery for a
//! game type at each of its player counts. It is for tests: every registered game gets it from
//! `experiments/tests/contract.rs` through [`contract_tests!`], and a game under development gets
//! it from one line of its own test file. Each check panics with the game, the player count and
//! the seed when the game breaks the contract.
//!
//! The battery, per player count (default data and parameters):
//! - [`playouts`]: invariants ([`Present::check_state`]) after every action of random and greedy
//!   games; the legal list is empty exactly when the game is over, and a finished game has an
//!   outcome; counted = listed = drawn ([`Game::random_action`] draws what listing and indexing
//!   draw, leaving the RNG where they leave it);
//! - [`hidden_information`]: a determinized copy has the same observation, and equals the truth
//!   where [`GameInfo::hidden_information`] is false; no agent peeks: each chooses the same
//!   action in the truth and in a copy its seat cannot tell apart, and the legal list is the same;
//! - [`encoding`]: the observation vector has one length and the same values in every
//!   determinization, indices round-trip, the legal mask marks the legal actions, and the layout's
//!   fields tile the vector, each named once and documented;
//! - [`no_allocation`]: whole random games allocate nothing once the action buffer is warm;
//! - [`perft`]: the pinned leaf count from seed 1;
//! - [`illegal_actions`]: [`Game::apply_checked`] refuses every encodable action that is not
//!   legal, and any action once the game is over, without changing the state;
//! - [`threads`]: one and two threads write the same CSV bytes;
//!
//! and once per game, [`bad_parameters`]: an unknown parameter and a player count outside the
//! range are errors (which the `shifu` command reports with exit status 2).
//!
//! [`no_allocation`] needs the counting allocator installed in the test binary, as
//! [`contract_tests!`] does.

use crate::games::Playable;
use crate::setup::{GameArgs, RunArgs};
use rand::{Rng, RngCore};
use shifu_agents::{build_agent, Agent, Decision};
use shifu_engine::alloc_counter::count;
use shifu_engine::{rng_from_seed, BuildOptions, Game, GameInfo, Present, Seat};
use std::collections::HashSet;

/// A game's pinned perft: the leaves at `depth` from seed 1, one count per player count from the
/// fewest players to the most.
#[derive(Debug, Clone, Copy)]
pub struct Pins {
    /// The depth counted.
    pub depth: u32,
    /// The leaves, one per player count.
    pub leaves: &'static [u64],
}

/// The agents whose choices the no-peeking check compares.
const AGENTS: [&str; 3] = ["random", "greedy", "mcts:iters=16,depth=8"];

/// Runs the whole battery for `G` at each of its player counts (see the module documentation).
pub fn contract<G: Playable>(pins: Pins) {
    let info = G::INFO;
    assert_eq!(
        pins.leaves.len(),
        info.players().count(),
        "{}: one perft pin per player count ({})",
        info.name,
        info.players_text()
    );
    for (players, &leaves) in info.players().zip(pins.leaves) {
        let g = build::<G>(players);
        assert_eq!(g.num_seats(), usize::from(players), "{}", info.name);
        playouts(&g);
        hidden_information(&g);
        encoding(&g);
        no_allocation(&g);
        perft(&g, pins.depth, leaves);
        illegal_actions(&g);
        threads::<G>(players);
    }
    bad_parameters::<G>();
}

/// Registers games for the contract battery: one `#[test]` per game, named `module`, and the
/// counting allocator [`no_allocation`] needs. Use it once per test file, either with the
/// engine's list (`shifu_engine::game_list!(shifu::contract_tests!())`) or with games of one's
/// own:
///
/// ```text
/// shifu::contract_tests!(tiny_race: TinyRace => { perft_depth: 4, perft: [16, 81] });
/// ```
#[macro_export]
macro_rules! contract_tests {
    ([$($list:tt)*]) => {
        $crate::contract_tests!($($list)*);
    };
    ($($id:ident : $T:ty => { perft_depth: $depth:literal, perft: [$($leaves:literal),* $(,)?] }),* $(,)?) => {
        #[global_allocator]
        static CONTRACT_ALLOCATOR: shifu_engine::alloc_counter::Counting =
            shifu_engine::alloc_counter::Counting;
        $(
            #[test]
            fn $id() {
                $crate::contract::contract::<$T>($crate::contract::Pins {
                    depth: $depth,
                    leaves: &[$($leaves),*],
                });
            }
        )*
    };
}

/// The game at `players` players with the default data and parameters.
pub fn build<G: Present>(players: u8) -> G {
    let options = BuildOptions {
        players: Some(players),
        ..BuildOptions::default()
    };
    G::build(&options).unwrap_or_else(|e| panic!("{} at {players} players: {e}", G::INFO.name))
}

fn label<G: Game>(g: &G) -> String {
    format!("{} at {} players", G::INFO.name, g.num_seats())
}

/// Random and greedy games keep the invariants after every action, list no action exactly when
/// the game is over, end with an outcome, and draw with [`Game::random_action`] what listing and
/// indexing draw.
pub fn playouts<G: Playable>(g: &G) {
    let who = label(g);
    for seed in 0..4 {
        let mut pick = rng_from_seed(seed + 1000);
        play_checked(g, seed, |_, legal| pick.gen_range(0..legal.len()));
    }
    for seed in 0..2 {
        let mut agents: Vec<Box<dyn Agent<G>>> = (0..g.num_seats())
            .map(|s| build_agent::<G>("greedy", seed, s as Seat).expect("greedy builds"))
            .collect();
        play_checked(g, seed, |d, legal| {
            let a = agents[usize::from(d.seat())].choose(d);
            legal.iter().position(|&x| x == a).unwrap_or_else(|| {
                panic!("{who} seed {seed}: greedy chose {a:?}, not a legal action")
            })
        });
    }
}

/// Plays one game from `seed`, `pick` choosing the index of the action taken, with the checks of
/// [`playouts`] at every step.
fn play_checked<G: Playable>(
    g: &G,
    seed: u64,
    mut pick: impl FnMut(&Decision<'_, G>, &[G::Action]) -> usize,
) {
    let who = label(g);
    let check = |s: &G::State, after: &str| {
        if let Err(e) = g.check_state(s) {
            panic!("{who} seed {seed}, {after}: {e}\n{s:?}");
        }
    };
    let mut rng = rng_from_seed(seed);
    let mut s = g.new_state(&mut rng);
    check(&s, "after set-up");
    let (mut legal, mut scratch) = (Vec::new(), Vec::new());
    for step in 0u64.. {
        assert!(step < 1_000_000, "{who} seed {seed}: no end in sight");
        g.legal_actions(&s, &mut legal);
        let Some(seat) = g.to_move(&s) else {
            assert!(legal.is_empty(), "{who} seed {seed}: actions after the end");
            break;
        };
        assert!(
            !legal.is_empty(),
            "{who} seed {seed}: seat {seat} to move, nothing legal"
        );
        assert!(
            g.outcome(&s).is_none(),
            "{who} seed {seed}: an outcome mid-game"
        );
        let mut listed_rng = rng_from_seed(seed ^ (step << 32));
        let mut drawn_rng = listed_rng.clone();
        let listed = legal[listed_rng.gen_range(0..legal.len())];
        let drawn = g.random_action(&s, &mut scratch, &mut drawn_rng);
        assert_eq!(
            drawn, listed,
            "{who} seed {seed} step {step}: drawn vs listed"
        );
        assert_eq!(
            drawn_rng.next_u64(),
            listed_rng.next_u64(),
            "{who}: RNG left elsewhere"
        );
        let i = pick(&Decision::new(g, &s, seat, &legal), &legal);
        let a = legal[i];
        g.apply(&mut s, a, &mut rng);
        check(&s, &format!("step {step}, after {a:?}"));
    }
    assert!(
        g.outcome(&s).is_some(),
        "{who} seed {seed}: over without an outcome"
    );
}

/// Positions from random games: every `every`-th decision of seeds `0..games`.
fn positions<G: Game>(g: &G, games: u64, every: u64) -> Vec<G::State> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        for step in 0u64.. {
            if g.to_move(&s).is_none() {
                break;
            }
            if step % every == every / 2 {
                out.push(s.clone());
            }
            g.legal_actions(&s, &mut legal);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(&mut s, a, &mut rng);
        }
    }
    out
}

fn json<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).expect("states serialise")
}

/// A determinized copy has the same observation for its observer, and equals the truth when the
/// game declares no hidden information; each of [`AGENTS`] chooses the same action in the truth
/// and in the copy, from the same seed.
pub fn hidden_information<G: Playable>(g: &G) {
    let who = label(g);
    let mut differing = 0;
    let positions = positions(g, 3, 7);
    assert!(
        positions.len() >= 4,
        "{who}: only {} positions",
        positions.len()
    );
    for (i, s) in positions.iter().take(24).enumerate() {
        let mut rng = rng_from_seed(i as u64 + 77);
        for seat in 0..g.num_seats() as Seat {
            let d = g.determinize(s, seat, &mut rng);
            assert_eq!(
                g.observation(&d, seat),
                g.observation(s, seat),
                "{who}, position {i}: seat {seat}'s view of its determinized copy"
            );
            differing += usize::from(json(&d) != json(s));
        }
        let seat = g.to_move(s).expect("positions are mid-game");
        let other = g.determinize(s, seat, &mut rng);
        let mut legal = Vec::new();
        g.legal_actions(s, &mut legal);
        let mut legal_other = Vec::new();
        g.legal_actions(&other, &mut legal_other);
        assert_eq!(
            legal, legal_other,
            "{who}, position {i}: the legal list reveals"
        );
        for spec in AGENTS {
            let mut a = build_agent::<G>(spec, i as u64, seat).expect("agent builds");
            let mut b = build_agent::<G>(spec, i as u64, seat).expect("agent builds");
            assert_eq!(
                a.choose(&Decision::new(g, s, seat, &legal)),
                b.choose(&Decision::new(g, &other, seat, &legal)),
                "{who}, position {i}: {spec} peeks"
            );
        }
    }
    // A game with hidden information may show none in these positions (Wok Star's advertised
    // Coupon customers come later than random teams get); one without must show none.
    assert!(
        G::INFO.hidden_information || differing == 0,
        "{who}: {differing} determinized copies differ from the truth, but the game declares no \
         hidden information"
    );
}

/// The encoding: one length, the same values in every determinization, indices that round-trip,
/// a mask of exactly the legal actions, and a layout whose fields tile the vector.
pub fn encoding<G: Playable>(g: &G) {
    let who = label(g);
    let layout = g.layout();
    let mut at = 0;
    let mut names = HashSet::new();
    for f in &layout {
        assert_eq!(f.offset, at, "{who}: field {} overlaps", f.name);
        assert!(
            names.insert(f.name.clone()),
            "{who}: field {} twice",
            f.name
        );
        assert!(!f.doc.is_empty(), "{who}: field {} undocumented", f.name);
        at += f.len;
    }
    let len = g.observation_len();
    assert_eq!(at, len, "{who}: the fields end before the vector");
    let n = g.action_count();
    for i in 0..n {
        if let Some(a) = g.index_action(i) {
            assert_eq!(g.action_index(a), i, "{who}: index {i} gives {a:?}");
        }
    }
    assert_eq!(
        g.index_action(n),
        None,
        "{who}: an action past action_count"
    );
    let (mut a, mut b) = (vec![0f32; len], vec![0f32; len]);
    let (mut legal, mut scratch) = (Vec::new(), Vec::new());
    let mut mask = vec![0u8; n];
    let mut rng = rng_from_seed(5);
    for (i, s) in positions(g, 3, 3).iter().enumerate() {
        for seat in 0..g.num_seats() as Seat {
            assert_eq!(g.encode_observation(s, seat, &mut a), len, "{who}: length");
            assert!(a.iter().all(|x| x.is_finite()), "{who}: a value not finite");
            let d = g.determinize(s, seat, &mut rng);
            assert_eq!(g.encode_observation(&d, seat, &mut b), len);
            assert_eq!(a, b, "{who}, position {i}: seat {seat}'s encoding differs");
        }
        g.legal_actions(s, &mut legal);
        g.legal_mask(s, &mut scratch, &mut mask);
        let marked: HashSet<usize> = (0..n).filter(|&i| mask[i] == 1).collect();
        let indices: HashSet<usize> = legal.iter().map(|&x| g.action_index(x)).collect();
        assert_eq!(
            indices.len(),
            legal.len(),
            "{who}: two legal actions share an index"
        );
        assert_eq!(marked, indices, "{who}, position {i}: the mask differs");
        for &x in &legal {
            let k = g.action_index(x);
            assert!(k < n, "{who}: {x:?} at {k}, past action_count {n}");
            assert_eq!(g.index_action(k), Some(x), "{who}: {x:?} round trip");
        }
    }
}

/// Random games from a warm action buffer allocate nothing.
pub fn no_allocation<G: Game>(g: &G) {
    let who = label(g);
    let (v, allocations) = count(|| std::hint::black_box(Vec::<u64>::with_capacity(4)));
    drop(v);
    assert_eq!(
        allocations, 1,
        "the counting allocator is not installed (use contract_tests!)"
    );
    let play = |seed: u64, buf: &mut Vec<G::Action>| {
        let mut rng = rng_from_seed(seed);
        let mut pick = rng_from_seed(seed + 99);
        let mut s = g.new_state(&mut rng);
        let mut steps = 0u64;
        while g.to_move(&s).is_some() {
            g.legal_actions(&s, buf);
            let a = buf[pick.gen_range(0..buf.len())];
            g.apply(&mut s, a, &mut rng);
            steps += 1;
        }
        std::hint::black_box(g.outcome(&s));
        steps
    };
    let mut buf = Vec::with_capacity(4096);
    play(1, &mut buf);
    let (steps, allocations) = count(|| (2..8).map(|seed| play(seed, &mut buf)).sum::<u64>());
    assert!(steps > 0);
    assert_eq!(
        allocations, 0,
        "{who}: {allocations} allocations in {steps} steps"
    );
}

/// The leaves at `depth` from seed 1 are `leaves`.
pub fn perft<G: Game>(g: &G, depth: u32, leaves: u64) {
    let mut rng = rng_from_seed(1);
    let s = g.new_state(&mut rng);
    assert_eq!(
        shifu_engine::perft::perft(g, &s, &rng, depth),
        leaves,
        "{}: perft at depth {depth} from seed 1 (a rule's legal moves changed?)",
        label(g)
    );
}

/// [`Game::apply_checked`] refuses each action that is not legal (encodable actions, and actions
/// legal elsewhere), and every action once the game is over, leaving the state as it was; it
/// applies a legal one as [`Game::apply`] does.
pub fn illegal_actions<G: Playable>(g: &G) {
    let who = label(g);
    let mut legal = Vec::new();
    let n = g.action_count();
    let mut candidates: Vec<G::Action> = (0..n)
        .step_by(n / 64 + 1)
        .filter_map(|i| g.index_action(i))
        .collect();
    let positions = positions(g, 2, 5);
    for s in positions.iter().take(32) {
        g.legal_actions(s, &mut legal);
        for &a in &legal {
            if candidates.len() < 256 && !candidates.contains(&a) {
                candidates.push(a);
            }
        }
    }
    let mut rng = rng_from_seed(3);
    for s in positions.iter().take(16) {
        g.legal_actions(s, &mut legal);
        let before = json(s);
        for &a in candidates.iter().filter(|a| !legal.contains(a)) {
            let mut t = s.clone();
            assert!(
                g.apply_checked(&mut t, a, &mut rng).is_err(),
                "{who}: {a:?} applied though not legal"
            );
            assert_eq!(json(&t), before, "{who}: a refused {a:?} changed the state");
        }
        let a = legal[0];
        let (mut t, mut u) = (s.clone(), s.clone());
        let (mut r1, mut r2) = (rng_from_seed(4), rng_from_seed(4));
        g.apply_checked(&mut t, a, &mut r1)
            .unwrap_or_else(|e| panic!("{who}: a legal action refused: {e}"));
        g.apply(&mut u, a, &mut r2);
        assert_eq!(
            json(&t),
            json(&u),
            "{who}: apply_checked differs from apply"
        );
    }
    let mut s = g.new_state(&mut rng);
    while g.to_move(&s).is_some() {
        g.legal_actions(&s, &mut legal);
        let a = legal[rng.gen_range(0..legal.len())];
        g.apply(&mut s, a, &mut rng);
    }
    let before = json(&s);
    for &a in &candidates {
        assert!(
            g.apply_checked(&mut s, a, &mut rng).is_err(),
            "{who}: {a:?} after the end"
        );
    }
    assert_eq!(
        json(&s),
        before,
        "{who}: a refused action changed a finished game"
    );
}

/// One and two threads write the same CSV, byte for byte (greedy in the first seat, random in
/// the others, seats rotated).
pub fn threads<G: Playable>(players: u8) {
    let game = GameArgs {
        game: G::INFO.name.to_string(),
        players: Some(players),
        data: None,
        config: None,
        set: Vec::new(),
    };
    let mut agents = vec!["random"; usize::from(players)];
    agents[0] = "greedy";
    let csv = |threads: usize| {
        let run = RunArgs {
            agents: agents.join(","),
            games: 12,
            seed: 3,
            rotate: true,
            threads: Some(threads),
        };
        crate::play::in_memory_game::<G>(
            &game,
            &run,
            crate::equivalence::DEFAULT_MARGIN,
            None,
            &mut || Ok(()),
        )
        .and_then(|r| r.csv(true))
        .unwrap_or_else(|e| panic!("{} at {players} players: {e:#}", G::INFO.name))
    };
    let one = csv(1);
    assert!(
        one.iter().filter(|&&b| b == b'\n').count() == 13,
        "{}",
        G::INFO.name
    );
    assert!(
        one == csv(2),
        "{} at {players} players: the CSVs differ",
        G::INFO.name
    );
}

/// An unknown parameter and a player count outside the range are errors, each naming what is
/// wrong; the `shifu` command reports any error with exit status 2.
pub fn bad_parameters<G: Playable>() {
    let info: GameInfo = G::INFO;
    let build = |players: Option<u8>, set: &[&str]| {
        let game = GameArgs {
            game: info.name.to_string(),
            players,
            data: None,
            config: None,
            set: set.iter().map(|s| s.to_string()).collect(),
        };
        game.build::<G>().err().map(|e| format!("{e:#}"))
    };
    let e = build(None, &["no_such_parameter=1"])
        .unwrap_or_else(|| panic!("{}: an unknown parameter was accepted", info.name));
    assert!(e.contains("no_such_parameter"), "{}: {e}", info.name);
    for players in [info.min_players - 1, info.max_players + 1] {
        let e = build(Some(players), &[])
            .unwrap_or_else(|| panic!("{}: {players} players were accepted", info.name));
        assert!(e.contains("players"), "{}: {e}", info.name);
    }
    assert_eq!(build(None, &[]), None, "{}: the defaults build", info.name);
}
