//! The proof that a game gets the whole contract battery from one line: Hidden Race, a tiny game
//! defined here and registered by the last line of this file, with no edit anywhere else.
//!
//! Two or three runners race to square 10, each stepping 1 or 2 a turn. Each holds one hidden
//! card (1, 2 or 3, dealt from two of each) added to their square when someone arrives; the
//! highest total wins, ties share.

use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use shifu_engine::data_file::NoData;
use shifu_engine::{Encoder, Encoding, EngineError, Game, GameInfo, Outcome, Seat, Sink};
use shifu_engine::{ParamFile, Present, MAX_SEATS};

const GOAL: u8 = 10;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Params {
    players: u8,
}

impl ParamFile for Params {
    const OPTIONAL_KEYS: &'static [&'static str] = &[];
}

struct HiddenRace {
    params: Params,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    players: u8,
    at: [u8; 3],
    cards: [u8; 3],
    turn: u8,
    turns: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct View {
    me: u8,
    at: Vec<u8>,
    card: u8,
    turn: u8,
}

impl Game for HiddenRace {
    type State = State;
    type Action = u8;
    type Observation = View;
    const INFO: GameInfo = GameInfo {
        name: "hidden-race",
        title: "Hidden Race",
        min_players: 2,
        max_players: 3,
        cooperative: false,
        hidden_information: true,
    };

    fn num_seats(&self) -> usize {
        usize::from(self.params.players)
    }
    fn new_state<R: Rng + ?Sized>(&self, rng: &mut R) -> State {
        let mut deck = [1, 1, 2, 2, 3, 3];
        deck.shuffle(rng);
        let (players, cards) = (self.params.players, [deck[0], deck[1], deck[2]]);
        State {
            players,
            at: [0; 3],
            cards,
            turn: 0,
            turns: 0,
        }
    }
    fn to_move(&self, s: &State) -> Option<Seat> {
        (!s.at.contains(&GOAL)).then_some(s.turn)
    }
    fn legal_actions(&self, s: &State, out: &mut Vec<u8>) {
        out.clear();
        if self.to_move(s).is_some() {
            out.extend((1..=2).filter(|&k| s.at[usize::from(s.turn)] + k <= GOAL));
        }
    }
    fn apply<R: Rng + ?Sized>(&self, s: &mut State, step: u8, _rng: &mut R) {
        s.at[usize::from(s.turn)] += step;
        s.turn = (s.turn + 1) % self.params.players;
        s.turns += 1;
    }
    fn outcome(&self, s: &State) -> Option<Outcome> {
        self.to_move(s).is_none().then(|| {
            let mut score = [0.0; MAX_SEATS];
            let total = [0, 1, 2].map(|i| s.at[i] + s.cards[i]);
            (0..3).for_each(|i| score[i] = f64::from(total[i]));
            Outcome::from_keys(self.num_seats(), score, &total, false)
        })
    }
    fn determinize<R: Rng + ?Sized>(&self, s: &State, me: Seat, rng: &mut R) -> State {
        let mut deck = vec![1, 1, 2, 2, 3, 3];
        deck.remove(
            deck.iter()
                .position(|&c| c == s.cards[usize::from(me)])
                .unwrap(),
        );
        deck.shuffle(rng);
        let mut d = s.clone();
        let others = (0..self.num_seats()).filter(|&i| i != usize::from(me));
        others.zip(deck).for_each(|(i, c)| d.cards[i] = c);
        d
    }
    fn observation(&self, s: &State, seat: Seat) -> View {
        let at = s.at[..self.num_seats()].to_vec();
        View {
            me: seat,
            at,
            card: s.cards[usize::from(seat)],
            turn: s.turn,
        }
    }
    fn turns_completed(&self, s: &State) -> u32 {
        s.turns
    }
    fn round(&self, s: &State) -> u32 {
        s.turns / u32::from(self.params.players) + 1
    }
    fn action_name(&self, _: &State, step: u8) -> String {
        format!("step {step}")
    }
}

impl Present for HiddenRace {
    const COUNTS: [&'static str; 2] = ["square", "card"];
    type Data = NoData;
    type Params = Params;
    type Stats = ();
    fn from_parts(_: NoData, params: Params) -> Result<Self, EngineError> {
        Self::INFO.check_players(params.players)?;
        Ok(HiddenRace { params })
    }
    fn data(&self) -> &NoData {
        &NoData
    }
    fn params(&self) -> &Params {
        &self.params
    }
    fn max_rounds(&self) -> u32 {
        u32::from(GOAL)
    }
    fn counts(&self, s: &State, seat: usize) -> [u32; 2] {
        [s.at[seat].into(), s.cards[seat].into()]
    }
    fn state_players(s: &State) -> usize {
        s.players.into()
    }
    fn check_state(&self, s: &State) -> Result<(), String> {
        let n = self.params.players;
        let ok = s.players == n && s.turn < n && s.at.iter().all(|&a| a <= GOAL);
        let ok = ok && s.cards.iter().all(|c| (1..=3).contains(c));
        ok.then_some(())
            .ok_or_else(|| format!("not a position of {n} players: {s:?}"))
    }
}

impl Encoding for HiddenRace {
    fn encode<S: Sink>(&self, v: &View, e: &mut Encoder<S>) {
        e.observer_and_players(v.me.into(), v.at.len(), 3);
        e.one_hot("turn", "the seat to move", Some(v.turn.into()), 3);
        let at: Vec<f32> = v.at.iter().map(|&a| f32::from(a)).collect();
        e.values(
            "at",
            "each runner's square, over the goal",
            &at,
            1.0 / f32::from(GOAL),
            0.0..=f32::from(GOAL),
        );
        e.one_hot("card", "the observer's hidden card", Some(v.card.into()), 4);
    }
    fn action_count(&self) -> usize {
        3
    }
    fn action_index(&self, step: u8) -> usize {
        step.into()
    }
    fn index_action(&self, i: usize) -> Option<u8> {
        (1..3).contains(&i).then_some(i as u8)
    }
}

/// No named mechanics: nothing to forbid.
impl shifu_engine::Mechanics for HiddenRace {}

impl shifu_agents::Evaluate for HiddenRace {
    type Weights = ();
    type Belief = ();
}

impl Default for Params {
    fn default() -> Self {
        Params { players: 2 }
    }
}

shifu::contract_tests!(hidden_race: HiddenRace => { perft_depth: 12, perft: [2906, 4096] });
