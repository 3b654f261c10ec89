"""The vector environment (``shifu.vector``): N games stepped in one Rust call into numpy arrays.
Determinism whatever the thread count, auto-reset, masks and observations equal to the single
environment's, the uint8 form, the bounds, and hostile input."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import shifu
import shifu.vector
from shifu import _shifu

GAMES = {"tofu-shifu": 4, "tofu-kingdom": 5, "wok-star": 2, "ginza-retro-cafe": 3}


def random_actions(env, rng):
    """One random legal action per env, chosen in numpy from the masks."""
    return np.argmax(rng.random(env.masks.shape) * env.masks, axis=1)


def run(env, steps, seed=0):
    """Steps with numpy-chosen actions; returns copies of every array after each step."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        o, r, te, tr, info = env.step(random_actions(env, rng))
        out.append((o.copy(), r.copy(), te.copy(), tr.copy(), info["to_move"].copy(), env.masks.copy()))
    return out


@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_the_same_seed_gives_the_same_arrays_whatever_the_thread_count(dtype):
    runs = []
    for threads in (1, 3):
        env = shifu.vector.make("tofu-shifu", num_envs=150, players=4, dtype=dtype, seed=7, threads=threads)
        runs.append(run(env, 60))
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    other = run(shifu.vector.make("tofu-shifu", num_envs=150, players=4, dtype=dtype, seed=8), 1)
    assert not np.array_equal(other[0][0], runs[0][0][0])


@pytest.mark.parametrize("game,players", GAMES.items())
def test_observations_and_masks_are_the_single_envs(game, players):
    # Env i's first game is game seed + i: replaying its actions on a single Env gives the same
    # observation of the seat to move and the same mask, at every step until the game ends.
    n, seed = 4, 11
    venv = shifu.vector.make(game, num_envs=n, players=players, seed=seed)
    u8 = shifu.vector.make(game, num_envs=n, players=players, seed=seed, dtype="uint8")
    singles = [_shifu.Env(game, players, None, None, [], seed + i) for i in range(n)]
    live = [True] * n
    rng = np.random.default_rng(3)
    for _ in range(300):
        for i, e in enumerate(singles):
            if not live[i]:
                continue
            seat = e.to_move()
            assert venv.to_move[i] == seat
            obs = np.frombuffer(e.observe(seat), dtype=np.float32)
            np.testing.assert_array_equal(venv.observations[i], obs)
            np.testing.assert_array_equal(u8.observations[i], np.frombuffer(e.observe_u8(seat), dtype=np.uint8))
            np.testing.assert_array_equal(venv.masks[i], np.frombuffer(e.mask(), dtype=np.uint8))
        actions = random_actions(venv, rng)
        venv.step(actions)
        u8.step(actions)
        for i, e in enumerate(singles):
            if live[i]:
                e.step(int(actions[i]))
                if e.to_move() is None:
                    live[i] = False
                    rewards, _, capped = e.result()
                    np.testing.assert_allclose(venv.rewards[i], rewards)
                    assert venv.truncated[i] == capped and venv.terminated[i] != capped
        if not any(live):
            break


def test_auto_reset_reports_the_end_and_starts_the_next_game_of_the_stream():
    n, seed = 3, 5
    env = shifu.vector.make("tofu-kingdom", num_envs=n, players=4, seed=seed)
    rng = np.random.default_rng(0)
    games = np.zeros(n, dtype=int)
    for _ in range(5000):
        _, rewards, term, trunc, info = env.step(random_actions(env, rng))
        done = term | trunc
        for i in np.flatnonzero(done):
            assert rewards[i].sum() > 0, "a finished game pays its winners"
            games[i] += 1
            # The env now plays its next game: seed + i + games * n.
            fresh = _shifu.Env("tofu-kingdom", 4, None, None, [], seed + i + games[i] * n)
            np.testing.assert_array_equal(env.observations[i], np.frombuffer(fresh.observe(fresh.to_move()), np.float32))
            assert info["final_observation"][i].any()
        assert not rewards[~done].any()
        if games.min() >= 2:
            break
    assert games.min() >= 2


@pytest.mark.parametrize("game,players", GAMES.items())
def test_observations_stay_within_the_bounds_and_uint8_reads_back(game, players):
    f = shifu.vector.make(game, num_envs=16, players=players, seed=2)
    q = shifu.vector.make(game, num_envs=16, players=players, seed=2, dtype="uint8")
    single = _shifu.Env(game, players)
    np.testing.assert_array_equal(f.observation_low, np.asarray(single.observation_low(), np.float32))
    np.testing.assert_array_equal(f.observation_high, np.asarray(single.observation_high(), np.float32))
    assert len(f.observation_low) == f.observation_len
    assert (f.observation_low <= f.observation_high).all()
    for _ in range(200):
        assert (f.observations >= f.observation_low).all() and (f.observations <= f.observation_high).all()
        back = q.to_float32(q.observations)
        # Within rounding for the exact values, half a step for the measured ones (clocks).
        assert np.all(np.abs(back - f.observations) <= q._step * 0.5001 + 1e-5), game
        f.step_random()
        q.step_random()


def test_step_random_is_deterministic_and_keeps_to_legal_actions():
    a = shifu.vector.make("ginza-retro-cafe", num_envs=40, players=4, dtype="uint8", seed=3, threads=2)
    b = shifu.vector.make("ginza-retro-cafe", num_envs=40, players=4, dtype="uint8", seed=3, threads=1)
    for _ in range(50):
        a.step_random()
        b.step_random()
        np.testing.assert_array_equal(a.observations, b.observations)
        np.testing.assert_array_equal(a.masks, b.masks)
        assert (a.masks.sum(axis=1) > 0).all()


@pytest.mark.parametrize("game,players", GAMES.items())
def test_sample_actions_are_legal_and_play_what_step_random_plays(game, players):
    # The sampler draws from the stream step_random draws from: stepping with its actions gives
    # the same arrays as step_random, game ends and auto-resets included.
    a = shifu.vector.make(game, num_envs=30, players=players, dtype="uint8", seed=5)
    b = shifu.vector.make(game, num_envs=30, players=players, dtype="uint8", seed=5, threads=2)
    ended, steps = 0, 0
    while steps < 100 or (ended == 0 and steps < 10_000):
        steps += 1
        actions = a.sample_actions()
        assert actions.dtype == np.int64 and actions.shape == (30,)
        assert (a.masks[np.arange(30), actions] == 1).all()
        a.step(actions)
        b.step_random()
        np.testing.assert_array_equal(a.observations, b.observations)
        np.testing.assert_array_equal(a.masks, b.masks)
        np.testing.assert_array_equal(a.rewards, b.rewards)
        np.testing.assert_array_equal(a.terminated, b.terminated)
        ended += int(a.terminated.sum() + a.truncated.sum())
    assert ended > 0
    # Draws differ from env to env and step to step.
    assert len({tuple(a.sample_actions()) for _ in range(5)}) > 1


def test_hostile_construction_gets_the_commands_messages():
    with pytest.raises(ValueError, match="unknown game"):
        shifu.vector.make("tofu-shfu", num_envs=2)
    with pytest.raises(ValueError, match="players"):
        shifu.vector.make("tofu-shifu", num_envs=2, players=9)
    with pytest.raises(ValueError, match="dtype"):
        shifu.vector.make("tofu-shifu", num_envs=2, dtype="float16")
    for n in (0, -3, 2**40):
        with pytest.raises(ValueError, match="num_envs"):
            shifu.vector.make("tofu-shifu", num_envs=n)
    with pytest.raises(ValueError, match="num_envs"):
        shifu.vector.make("tofu-shifu", num_envs=2.5)
    # Within the count's range but past the memory limit: refused before anything is allocated.
    with pytest.raises(ValueError, match="GiB"):
        shifu.vector.make("tofu-shifu", num_envs=2**24, players=4)
    with pytest.raises(ValueError, match="no_such_key"):
        shifu.vector.make("tofu-shifu", num_envs=2, no_such_key=1)


def test_a_bad_action_names_the_env_and_changes_nothing():
    env = shifu.vector.make("tofu-shifu", num_envs=5, players=3, seed=4)
    rng = np.random.default_rng(1)
    run(env, 3)
    before = [x.copy() for x in (env.observations, env.masks, env.to_move, env.rewards)]
    good = random_actions(env, rng)
    illegal = good.copy()
    illegal[3] = int(np.flatnonzero(env.masks[3] == 0)[0])
    cases = [
        (illegal, "env 3: action .* is not legal"),
        (np.where(np.arange(5) == 2, env.action_count, good), "env 2: action .* is not an action"),
        (np.where(np.arange(5) == 1, -1, good), "env 1: action -1"),
        (good[:4], r"shape \(5,\)"),
        (good.astype(float), "integer"),
        (good.reshape(5, 1), r"shape \(5,\)"),
    ]
    for actions, message in cases:
        with pytest.raises(ValueError, match=message):
            env.step(actions)
        for x, y in zip(before, (env.observations, env.masks, env.to_move, env.rewards)):
            np.testing.assert_array_equal(x, y)
    # The good actions still play, as they would have: the next step matches a fresh copy's.
    twin = shifu.vector.make("tofu-shifu", num_envs=5, players=3, seed=4)
    run(twin, 3)
    env.step(good)
    twin.step(good)
    np.testing.assert_array_equal(env.observations, twin.observations)


def test_ctrl_c_interrupts_a_long_step_random():
    env = shifu.vector.make("tofu-shifu", num_envs=64, players=4, dtype="uint8")
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        env.step_random(10**9)
    timer.join()
    assert time.monotonic() - started < 2.0
    env.step_random()
    assert (env.masks.sum(axis=1) > 0).all()


def test_reset_restarts_the_stream():
    env = shifu.vector.make("tofu-kingdom", num_envs=4, players=3, seed=9)
    first = env.observations.copy()
    run(env, 5)
    obs, info = env.reset()
    np.testing.assert_array_equal(obs, first)
    env.reset(seed=10)
    np.testing.assert_array_equal(env.observations, shifu.vector.make("tofu-kingdom", num_envs=4, players=3, seed=10).observations)
