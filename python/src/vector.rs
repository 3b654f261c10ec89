//! N games of one kind stepped together into flat arrays: the part of `shifu.vector` that runs
//! in Rust, free of Python.
//!
//! Env `i`'s `k`-th game (from 0) is game number `seed + i + k * N` of `shifu play --seed`
//! (ChaCha8 stream 0 of that number), so every game of every env is reproducible on its own.
//! When a game ends, the step reports its rewards and final observation and starts the env's
//! next game at once.

use rand::Rng;
use rayon::prelude::*;
use shifu::games::Playable;
use shifu_agents::{agent_rng, game_rng};
use shifu_engine::{GameRng, Seat};
use std::sync::Arc;

/// Envs stepped per task when the step is spread over threads.
const CHUNK: usize = 64;

/// An observation element type: `f32` or the `u8` form of the encoding.
pub trait Obs: Copy + Send + Sync + Default {
    /// Writes `seat`'s observation of `state` into `out`.
    fn encode<G: Playable>(game: &G, state: &G::State, seat: Seat, out: &mut [Self]);
}

impl Obs for f32 {
    fn encode<G: Playable>(game: &G, state: &G::State, seat: Seat, out: &mut [f32]) {
        game.encode_observation(state, seat, out);
    }
}

impl Obs for u8 {
    fn encode<G: Playable>(game: &G, state: &G::State, seat: Seat, out: &mut [u8]) {
        game.encode_observation_u8(state, seat, out);
    }
}

/// The arrays one step writes, N rows each (row-major).
pub struct Out<'a, T> {
    /// `[N, observation_len]`: the observation of the seat to move.
    pub obs: &'a mut [T],
    /// `[N, action_count]`: 1 where the action is legal for the seat to move.
    pub mask: &'a mut [u8],
    /// `[N, players]`: each seat's reward for a game that ended at this step, else 0.
    pub reward: &'a mut [f32],
    /// `[N]`: the game ended by the rules at this step.
    pub terminated: &'a mut [bool],
    /// `[N]`: the round cap stopped the game at this step.
    pub truncated: &'a mut [bool],
    /// `[N]`: the seat to move.
    pub to_move: &'a mut [i32],
    /// `[N, observation_len]`: for a game that ended, the last mover's final observation; rows
    /// of other envs are left as they were.
    pub final_obs: &'a mut [T],
}

/// One env: its game in progress and where its seed stream stands.
struct Slot<G: Playable> {
    state: G::State,
    rng: GameRng,
    /// Picks `step_random`'s actions: stream 1 of the game's seed.
    pick: GameRng,
    /// The legal actions of the seat to move.
    legal: Vec<G::Action>,
    /// Their action indices, in the same order.
    legal_index: Vec<u32>,
    /// The position in `legal` of the action [`DynVec::check`] accepted for the next step
    /// (`usize::MAX`: none).
    chosen: usize,
    /// The index of this env in the vector.
    index: u64,
    /// Games started so far.
    games: u64,
}

/// N games of one type.
pub struct VecOf<G: Playable> {
    game: Arc<G>,
    slots: Vec<Slot<G>>,
    seed: u64,
    /// The observation length (its layout pass allocates: computed once).
    obs_len: usize,
    pool: Option<rayon::ThreadPool>,
}

/// [`VecOf`] for whatever game: what the Python class calls.
pub trait DynVec: Send + Sync {
    /// Seats at the table.
    fn num_seats(&self) -> usize;
    /// Length of the observation vector.
    fn observation_len(&self) -> usize;
    /// The bound on action indices.
    fn action_count(&self) -> usize;
    /// Every value's bound, in vector order.
    fn bounds(&self) -> Vec<shifu_engine::Bound>;
    /// Restarts every env from its first game of the stream of `seed`.
    fn reset_f32(&mut self, seed: u64, out: Out<'_, f32>);
    /// As [`DynVec::reset_f32`], observations in the `u8` form.
    fn reset_u8(&mut self, seed: u64, out: Out<'_, u8>);
    /// Checks one action per env (index into the legal mask) and keeps them for the next step:
    /// an error naming the first env whose action is out of range or illegal.
    fn check(&mut self, actions: &[i64]) -> Result<(), String>;
    /// Plays one action per env: when `checked`, the actions the last [`DynVec::check`]
    /// accepted (an env without one stays as it is), else a uniform random legal action from
    /// the env's own stream.
    fn step_f32(&mut self, checked: bool, out: Out<'_, f32>);
    /// As [`DynVec::step_f32`], observations in the `u8` form.
    fn step_u8(&mut self, checked: bool, out: Out<'_, u8>);
    /// Writes a uniform random legal action index per env into `out` (-1 for an env with no
    /// seat to move), drawn from the env's own stream: the draw an unchecked step makes, so
    /// stepping with these actions plays what [`DynVec::step_u8`] with `checked` false would.
    fn sample(&mut self, out: &mut [i64]);
}

/// The most memory a vector env's arrays and states may take.
const MAX_BYTES: usize = 8 << 30;

impl<G: Playable + 'static> VecOf<G> {
    /// `n` envs of `game` (seeded by the first reset), stepped on `threads` threads.
    pub fn new(game: G, n: usize, threads: usize) -> Result<Self, String> {
        // Refused up front, so that a large count is an error and not an allocation failure.
        let per_env = 2 * 4 * game.observation_len()
            + game.action_count()
            + 8
            + std::mem::size_of::<Slot<G>>()
            + 64;
        if n.saturating_mul(per_env) > MAX_BYTES {
            return Err(format!(
                "num_envs={n}: {n} envs of {} need about {:.1} GiB of arrays and states; \
                 at most {} GiB are allowed",
                game.name(),
                n as f64 * per_env as f64 / f64::from(1u32 << 30),
                MAX_BYTES >> 30
            ));
        }
        let game = Arc::new(game);
        let slots = (0..n as u64)
            .map(|index| {
                let mut rng = game_rng(0);
                Slot {
                    state: game.new_state(&mut rng),
                    rng,
                    pick: agent_rng(0, 0),
                    legal: Vec::new(),
                    legal_index: Vec::new(),
                    chosen: usize::MAX,
                    index,
                    games: 0,
                }
            })
            .collect();
        let pool = match threads {
            0 | 1 => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| format!("threads={t}: {e}"))?,
            ),
        };
        Ok(VecOf {
            obs_len: game.observation_len(),
            game,
            slots,
            seed: 0,
            pool,
        })
    }

    /// Runs `f` over every env with its rows of `out`, on the pool when there is one.
    fn each<T: Obs>(
        &mut self,
        out: Out<'_, T>,
        f: impl Fn(&G, &mut Slot<G>, Row<'_, T>) + Send + Sync,
    ) {
        let game = &*self.game;
        let (l, a) = (self.obs_len, game.action_count());
        let p = game.num_seats();
        let run = |slots: &mut [Slot<G>], o: Out<'_, T>| {
            for (k, slot) in slots.iter_mut().enumerate() {
                let row = Row {
                    obs: &mut o.obs[k * l..(k + 1) * l],
                    mask: &mut o.mask[k * a..(k + 1) * a],
                    reward: &mut o.reward[k * p..(k + 1) * p],
                    terminated: &mut o.terminated[k],
                    truncated: &mut o.truncated[k],
                    to_move: &mut o.to_move[k],
                    final_obs: &mut o.final_obs[k * l..(k + 1) * l],
                };
                f(game, slot, row);
            }
        };
        match &self.pool {
            None => run(&mut self.slots, out),
            Some(pool) => pool.install(|| {
                self.slots
                    .par_chunks_mut(CHUNK)
                    .zip(out.obs.par_chunks_mut(CHUNK * l))
                    .zip(out.mask.par_chunks_mut(CHUNK * a))
                    .zip(out.reward.par_chunks_mut(CHUNK * p))
                    .zip(out.terminated.par_chunks_mut(CHUNK))
                    .zip(out.truncated.par_chunks_mut(CHUNK))
                    .zip(out.to_move.par_chunks_mut(CHUNK))
                    .zip(out.final_obs.par_chunks_mut(CHUNK * l))
                    .for_each(
                        |(
                            ((((((slots, obs), mask), reward), terminated), truncated), to_move),
                            final_obs,
                        )| {
                            let o = Out {
                                obs,
                                mask,
                                reward,
                                terminated,
                                truncated,
                                to_move,
                                final_obs,
                            };
                            run(slots, o)
                        },
                    )
            }),
        }
    }

    fn reset<T: Obs>(&mut self, seed: u64, out: Out<'_, T>) {
        self.seed = seed;
        let n = self.slots.len() as u64;
        self.each(out, |game, slot, row| {
            slot.games = 0;
            start(game, slot, seed, n);
            row.reward.fill(0.0);
            *row.terminated = false;
            *row.truncated = false;
            show(game, slot, row.obs, row.mask, row.to_move);
        });
    }

    fn step<T: Obs>(&mut self, checked: bool, out: Out<'_, T>) {
        let (seed, n) = (self.seed, self.slots.len() as u64);
        self.each(out, |game, slot, row| {
            let chosen = if checked {
                slot.legal
                    .get(std::mem::replace(&mut slot.chosen, usize::MAX))
                    .copied()
            } else if slot.legal.is_empty() {
                None
            } else {
                Some(slot.legal[slot.pick.gen_range(0..slot.legal.len())])
            };
            row.reward.fill(0.0);
            *row.terminated = false;
            *row.truncated = false;
            let (Some(action), Some(seat)) = (chosen, game.to_move(&slot.state)) else {
                return;
            };
            game.apply(&mut slot.state, action, &mut slot.rng);
            if let Some(o) = game.outcome(&slot.state) {
                T::encode(game, &slot.state, seat, row.final_obs);
                for (s, r) in row.reward.iter_mut().enumerate() {
                    *r = o.learner_reward(s as Seat) as f32;
                }
                *row.terminated = !o.capped;
                *row.truncated = o.capped;
                start(game, slot, seed, n);
            }
            show(game, slot, row.obs, row.mask, row.to_move);
        });
    }
}

/// One env's rows of [`Out`].
struct Row<'a, T> {
    obs: &'a mut [T],
    mask: &'a mut [u8],
    reward: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    to_move: &'a mut i32,
    final_obs: &'a mut [T],
}

/// Starts the env's next game from its seed stream.
fn start<G: Playable>(game: &G, slot: &mut Slot<G>, seed: u64, n: u64) {
    let s = seed
        .wrapping_add(slot.index)
        .wrapping_add(slot.games.wrapping_mul(n));
    slot.games += 1;
    slot.rng = game_rng(s);
    slot.pick = agent_rng(s, 0);
    slot.state = game.new_state(&mut slot.rng);
}

/// Writes the seat to move, its observation and the legal mask (and keeps the legal actions).
fn show<G: Playable, T: Obs>(
    game: &G,
    slot: &mut Slot<G>,
    obs: &mut [T],
    mask: &mut [u8],
    to_move: &mut i32,
) {
    mask.fill(0);
    slot.legal.clear();
    slot.legal_index.clear();
    slot.chosen = usize::MAX;
    let Some(seat) = game.to_move(&slot.state) else {
        obs.fill(T::default());
        *to_move = -1;
        return;
    };
    *to_move = i32::from(seat);
    T::encode(game, &slot.state, seat, obs);
    game.legal_actions(&slot.state, &mut slot.legal);
    for &a in &slot.legal {
        let k = game.action_index(a);
        slot.legal_index.push(k as u32);
        if let Some(m) = mask.get_mut(k) {
            *m = 1;
        }
    }
}

impl<G: Playable + 'static> DynVec for VecOf<G> {
    fn num_seats(&self) -> usize {
        self.game.num_seats()
    }
    fn observation_len(&self) -> usize {
        self.obs_len
    }
    fn action_count(&self) -> usize {
        self.game.action_count()
    }
    fn bounds(&self) -> Vec<shifu_engine::Bound> {
        self.game.bounds()
    }
    fn reset_f32(&mut self, seed: u64, out: Out<'_, f32>) {
        self.reset(seed, out);
    }
    fn reset_u8(&mut self, seed: u64, out: Out<'_, u8>) {
        self.reset(seed, out);
    }
    fn check(&mut self, actions: &[i64]) -> Result<(), String> {
        let g = &*self.game;
        if actions.len() != self.slots.len() {
            return Err(format!(
                "{} actions for {} envs: give one action per env",
                actions.len(),
                self.slots.len()
            ));
        }
        for (i, (&x, slot)) in actions.iter().zip(&mut self.slots).enumerate() {
            // The legal indices first: the common case needs no index arithmetic.
            if let Some(k) = slot.legal_index.iter().position(|&k| i64::from(k) == x) {
                slot.chosen = k;
                continue;
            }
            let action = usize::try_from(x).ok().and_then(|k| g.index_action(k));
            let Some(action) = action else {
                return Err(format!(
                    "env {i}: action {x} is not an action of {} (indices run from 0 below {}); no env was stepped",
                    g.name(),
                    g.action_count()
                ));
            };
            if !slot.legal.contains(&action) {
                let seat = g.to_move(&slot.state).map_or(-1, i32::from);
                return Err(format!(
                    "env {i}: action {x} ({action:?}) is not legal for seat {seat} here (masks[{i}] marks the legal ones); no env was stepped"
                ));
            }
            slot.chosen = slot
                .legal
                .iter()
                .position(|&a| a == action)
                .unwrap_or(usize::MAX);
        }
        Ok(())
    }
    fn step_f32(&mut self, checked: bool, out: Out<'_, f32>) {
        self.step(checked, out);
    }
    fn step_u8(&mut self, checked: bool, out: Out<'_, u8>) {
        self.step(checked, out);
    }
    fn sample(&mut self, out: &mut [i64]) {
        let game = &*self.game;
        for (slot, x) in self.slots.iter_mut().zip(out) {
            *x = match slot.legal.len() {
                0 => -1,
                n => game.action_index(slot.legal[slot.pick.gen_range(0..n)]) as i64,
            };
        }
    }
}

/// The Python class over [`DynVec`]: the arrays it owns and fills in place.
pub mod class {
    use super::{DynVec, Out, VecOf};
    use crate::{game_args, value_error};
    use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
    use pyo3::prelude::*;
    use std::path::PathBuf;

    /// The observation arrays in the dtype asked for.
    enum ObsArrays {
        F32(Py<PyArray2<f32>>, Py<PyArray2<f32>>),
        U8(Py<PyArray2<u8>>, Py<PyArray2<u8>>),
    }

    /// N games stepped together into preallocated numpy arrays (used by `shifu.vector`).
    #[pyclass(module = "shifu._shifu")]
    pub struct VectorEnv {
        inner: Box<dyn DynVec>,
        n: usize,
        obs: ObsArrays,
        mask: Py<PyArray2<u8>>,
        reward: Py<PyArray2<f32>>,
        terminated: Py<PyArray1<bool>>,
        truncated: Py<PyArray1<bool>>,
        to_move: Py<PyArray1<i32>>,
        /// What `sample_actions` fills.
        sampled: Py<PyArray1<i64>>,
    }

    /// Fills the arrays through `f`, the GIL released.
    macro_rules! with_out {
        ($self:ident, $py:ident, |$inner:ident, $out:ident| $f32:expr, $u8:expr) => {{
            let mut mask = $self.mask.bind($py).readwrite();
            let mut reward = $self.reward.bind($py).readwrite();
            let mut terminated = $self.terminated.bind($py).readwrite();
            let mut truncated = $self.truncated.bind($py).readwrite();
            let mut to_move = $self.to_move.bind($py).readwrite();
            let $inner = &mut $self.inner;
            // The outputs, over observation arrays of either dtype.
            macro_rules! out {
                ($o:ident, $f:ident) => {
                    Out {
                        obs: $o.as_slice_mut()?,
                        mask: mask.as_slice_mut()?,
                        reward: reward.as_slice_mut()?,
                        terminated: terminated.as_slice_mut()?,
                        truncated: truncated.as_slice_mut()?,
                        to_move: to_move.as_slice_mut()?,
                        final_obs: $f.as_slice_mut()?,
                    }
                };
            }
            match &$self.obs {
                ObsArrays::F32(o, f) => {
                    let (mut o, mut f) = (o.bind($py).readwrite(), f.bind($py).readwrite());
                    let $out = out!(o, f);
                    $py.allow_threads(|| $f32);
                }
                ObsArrays::U8(o, f) => {
                    let (mut o, mut f) = (o.bind($py).readwrite(), f.bind($py).readwrite());
                    let $out = out!(o, f);
                    $py.allow_threads(|| $u8);
                }
            }
        }};
    }

    #[pymethods]
    impl VectorEnv {
        /// `VectorEnv(game, num_envs, players=None, data=None, config=None, set=[],
        /// dtype="float32", seed=0, threads=1)`.
        #[new]
        #[pyo3(signature = (game, num_envs, players=None, data=None, config=None, set=Vec::new(), dtype="float32", seed=0, threads=1))]
        #[allow(clippy::too_many_arguments)]
        fn new(
            py: Python<'_>,
            game: &str,
            num_envs: i64,
            players: Option<u8>,
            data: Option<PathBuf>,
            config: Option<PathBuf>,
            set: Vec<String>,
            dtype: &str,
            seed: u64,
            threads: usize,
        ) -> PyResult<Self> {
            let n = usize::try_from(num_envs)
                .ok()
                .filter(|&n| (1..=1 << 24).contains(&n))
                .ok_or_else(|| {
                    value_error(format!("num_envs={num_envs}: give from 1 to 16777216 envs"))
                })?;
            let u8_obs = match dtype {
                "float32" => false,
                "uint8" => true,
                d => {
                    return Err(value_error(format!(
                        "dtype={d:?}: observations come as \"float32\" or \"uint8\""
                    )))
                }
            };
            let args = game_args(game, players, data, config, set);
            let inner: anyhow::Result<Box<dyn DynVec>> = shifu::with_game!(game, G => {
                args.build::<G>().and_then(|g| {
                    VecOf::new(g, n, threads)
                        .map(|v| Box::new(v) as Box<dyn DynVec>)
                        .map_err(anyhow::Error::msg)
                })
            });
            let inner = inner.map_err(|e| value_error(format!("{e:#}")))?;
            let (l, a, p) = (
                inner.observation_len(),
                inner.action_count(),
                inner.num_seats(),
            );
            let obs = if u8_obs {
                ObsArrays::U8(
                    PyArray2::zeros(py, [n, l], false).unbind(),
                    PyArray2::zeros(py, [n, l], false).unbind(),
                )
            } else {
                ObsArrays::F32(
                    PyArray2::zeros(py, [n, l], false).unbind(),
                    PyArray2::zeros(py, [n, l], false).unbind(),
                )
            };
            let mut v = VectorEnv {
                inner,
                n,
                obs,
                mask: PyArray2::zeros(py, [n, a], false).unbind(),
                reward: PyArray2::zeros(py, [n, p], false).unbind(),
                terminated: PyArray1::zeros(py, n, false).unbind(),
                truncated: PyArray1::zeros(py, n, false).unbind(),
                to_move: PyArray1::zeros(py, n, false).unbind(),
                sampled: PyArray1::zeros(py, n, false).unbind(),
            };
            v.reset(py, seed)?;
            Ok(v)
        }

        #[getter]
        fn num_envs(&self) -> usize {
            self.n
        }
        #[getter]
        fn num_seats(&self) -> usize {
            self.inner.num_seats()
        }
        #[getter]
        fn observation_len(&self) -> usize {
            self.inner.observation_len()
        }
        #[getter]
        fn action_count(&self) -> usize {
            self.inner.action_count()
        }

        /// The arrays every call fills in place: `(observations, masks, rewards, terminated,
        /// truncated, to_move, final_observations)`.
        #[allow(clippy::type_complexity)]
        fn arrays<'py>(
            &self,
            py: Python<'py>,
        ) -> (
            PyObject,
            PyObject,
            PyObject,
            PyObject,
            PyObject,
            PyObject,
            PyObject,
        ) {
            let (o, f) = match &self.obs {
                ObsArrays::F32(o, f) => (o.clone_ref(py).into_any(), f.clone_ref(py).into_any()),
                ObsArrays::U8(o, f) => (o.clone_ref(py).into_any(), f.clone_ref(py).into_any()),
            };
            (
                o,
                self.mask.clone_ref(py).into_any(),
                self.reward.clone_ref(py).into_any(),
                self.terminated.clone_ref(py).into_any(),
                self.truncated.clone_ref(py).into_any(),
                self.to_move.clone_ref(py).into_any(),
                f,
            )
        }

        /// Per value of the observation: `(low, high, zero, step)` lists (see
        /// `shifu_engine::Bound`).
        #[allow(clippy::type_complexity)]
        fn bounds(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
            split_bounds(&self.inner.bounds())
        }

        /// Restarts every env: env `i` plays game `seed + i`, then `seed + i + N`, and so on.
        fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
            with_out!(
                self,
                py,
                |inner, out| inner.reset_f32(seed, out),
                inner.reset_u8(seed, out)
            );
            Ok(())
        }

        /// Plays one action per env (a 1-D int64 array of N action indices). Every action is
        /// checked before any is played: a ValueError names the first bad env, and no env
        /// changes.
        fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
            if actions.len() != self.n {
                return Err(value_error(format!(
                    "actions has {} entries for {} envs: give one action per env",
                    actions.len(),
                    self.n
                )));
            }
            let a = actions.as_slice()?;
            self.inner.check(a).map_err(value_error)?;
            with_out!(
                self,
                py,
                |inner, out| inner.step_f32(true, out),
                inner.step_u8(true, out)
            );
            py.check_signals()
        }

        /// A uniform random legal action index per env (-1 for an env with no seat to move),
        /// drawn in Rust from the env's own stream, in an int64 array of N that every call
        /// refills. `step` with these actions plays what `step_random` would have.
        fn sample_actions(&mut self, py: Python<'_>) -> PyResult<Py<PyArray1<i64>>> {
            {
                let mut a = self.sampled.bind(py).readwrite();
                self.inner.sample(a.as_slice_mut()?);
            }
            Ok(self.sampled.clone_ref(py))
        }

        /// Plays `steps` steps in which every env takes a uniform random legal action, drawn in
        /// Rust from the env's own stream. Ctrl-C stops it between steps.
        #[pyo3(signature = (steps=1))]
        fn step_random(&mut self, py: Python<'_>, steps: u64) -> PyResult<()> {
            for _ in 0..steps {
                with_out!(
                    self,
                    py,
                    |inner, out| inner.step_f32(false, out),
                    inner.step_u8(false, out)
                );
                py.check_signals()?;
            }
            Ok(())
        }
    }

    /// `(low, high, zero, step)` per value.
    pub fn split_bounds(b: &[shifu_engine::Bound]) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
        (
            b.iter().map(|b| b.low).collect(),
            b.iter().map(|b| b.high).collect(),
            b.iter().map(|b| b.zero).collect(),
            b.iter().map(|b| b.step).collect(),
        )
    }
}
