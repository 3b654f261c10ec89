"""The Gymnasium environment with built-in opponents (shifu.gym): Gymnasium's own checker for
every game, unwrapped and through gymnasium.make, and what the environment promises beyond it."""

import os
import signal
import threading
import time
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import shifu
import shifu.gym

GAMES = {name: info for name, info in shifu.game_info().items()}
# One player count per game for the slower checks: the smallest table, and a larger one.
SMALL = {name: info["min_players"] for name, info in GAMES.items()}


def masked_choice(rng, info):
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def play_episode(env, seed, rng):
    """Plays one episode with random legal actions; returns (actions, observations, infos,
    total reward, terminated, truncated)."""
    obs, info = env.reset(seed=seed)
    actions, observations, infos, total = [], [obs], [info], 0.0
    while True:
        a = masked_choice(rng, info)
        actions.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        observations.append(obs)
        infos.append(info)
        total += reward
        if terminated or truncated:
            return actions, observations, infos, total, terminated, truncated


@pytest.mark.parametrize("game", sorted(GAMES))
def test_gymnasium_check_env_unwrapped(game):
    # check_env steps with samples of the action space that ignore the mask, so it runs with
    # illegal_action="terminate": an illegal sample ends the episode with illegal_reward.
    env = shifu.gym.make(game, players=SMALL[game], opponents="greedy", seat=1, illegal_action="terminate")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    # Gymnasium warns about unbounded or mistyped spaces and observations outside them; the
    # only warnings left are that no spec names the render modes and that text has no fps.
    assert [str(w.message) for w in caught if "spec" not in str(w.message) and "render fps" not in str(w.message)] == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_gymnasium_check_env_through_gymnasium_make(game):
    env = gymnasium.make(shifu.gym.GYM_IDS[game], players=GAMES[game]["max_players"], opponents="random", seat=0, illegal_action="terminate")
    assert env.spec.id == shifu.gym.GYM_IDS[game]
    assert env.unwrapped.game == game
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)  # with a spec, this also makes the env in each render mode
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught if "unwrapped" not in str(w.message) and "render fps" not in str(w.message)] == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_observation_lies_in_the_box(game):
    # Random games at every player count and seat, every observation of the learner checked
    # against the Box's bounds.
    rng = np.random.default_rng(7)
    for players in GAMES[game]["players"]:
        for seed in range(4):
            env = shifu.gym.make(game, players=players, opponents="random", seat=seed % players)
            box = env.observation_space
            assert np.all(np.isfinite(box.low)) and np.all(np.isfinite(box.high)), "the Box is bounded"
            assert np.all(box.low <= box.high)
            _, observations, _, _, _, _ = play_episode(env, seed, rng)
            for obs in observations:
                assert obs.dtype == np.float32 and obs.shape == box.shape
                outside = np.flatnonzero((obs < box.low) | (obs > box.high))
                assert outside.size == 0, f"{game} {players}p seed {seed}: values {obs[outside][:5]} at {outside[:5]} outside the Box"


@pytest.mark.parametrize("game,players", [("tofu-shifu", 4), ("tofu-kingdom", 5), ("wok-star", 3), ("ginza-retro-cafe", 3)])
def test_an_episode_ends_with_the_learners_win_share(game, players):
    env = shifu.gym.make(game, players=players, opponents="greedy", seat=1)
    rng = np.random.default_rng(3)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        assert env.core.to_move() == 1 and info["decision"]
        while True:
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            assert sorted(np.flatnonzero(info["action_mask"]).tolist()) == sorted(env.core.legal())
            obs, reward, terminated, truncated, info = env.step(masked_choice(rng, info))
            if terminated or truncated:
                break
            assert reward == 0.0 and env.core.to_move() == 1
        assert env.core.to_move() is None
        rewards, _, capped = env.core.result()
        assert reward == rewards[1] == info["rewards"][1]
        assert truncated == capped == info["capped"] and terminated != truncated
        assert not env.action_masks().any()
        if GAMES[game]["cooperative"]:  # the opponents are teammates: all win or none
            assert len(set(info["rewards"])) == 1
        else:
            assert abs(sum(info["rewards"]) - 1.0) < 1e-9
        with pytest.raises(RuntimeError, match="reset"):
            env.step(0)


@pytest.mark.parametrize("game,players", [("tofu-shifu", 3), ("tofu-kingdom", 6), ("wok-star", 2), ("ginza-retro-cafe", 2)])
def test_the_same_seed_and_actions_give_the_same_game(game, players):
    runs = []
    for _ in range(2):
        env = shifu.gym.make(game, players=players, opponents="greedy", seat=players - 1)
        actions, observations, _, total, _, _ = play_episode(env, 11, np.random.default_rng(1))
        runs.append((actions, [o.tobytes() for o in observations], total, env.core.state_json()))
    assert runs[0] == runs[1]
    # Another seed gives another game.
    env = shifu.gym.make(game, players=players, opponents="greedy", seat=players - 1)
    assert play_episode(env, 12, np.random.default_rng(1))[1][0].tobytes() != runs[0][1][0] or env.core.state_json() != runs[0][3]


def test_unseeded_resets_follow_the_seeded_stream():
    env = shifu.gym.make("tofu-shifu", players=2, opponents="greedy")
    env.reset(seed=5)
    first = [env.reset()[0].tobytes() for _ in range(3)]
    env.reset(seed=5)
    assert [env.reset()[0].tobytes() for _ in range(3)] == first


def test_opponents_by_seat():
    env = shifu.gym.make("tofu-shifu", players=3, opponents=["greedy", None, "random"], seat=1)
    assert env.opponents == ["greedy", None, "random"]
    assert shifu.gym.make("tofu-shifu", players=3, opponents=["greedy", "random"], seat=1).opponents == ["greedy", None, "random"]
    with pytest.raises(ValueError, match="unknown agent"):
        shifu.gym.make("tofu-shifu", players=3, opponents=["greedy", "superhuman"], seat=0)
    # The opponents' choices differ by spec: the same seeds and learner actions give other games.
    ends = []
    for opponents in ("greedy", "random"):
        env = shifu.gym.make("tofu-shifu", players=3, opponents=opponents, seat=1)
        ends.append([play_episode(env, seed, np.random.default_rng(seed))[1][-1].tobytes() for seed in range(3)])
    assert ends[0] != ends[1]


def test_bad_settings_raise_the_command_line_messages():
    with pytest.raises(ValueError, match="unknown game `chess`"):
        shifu.gym.make("chess")
    with pytest.raises(ValueError, match="players"):
        shifu.gym.make("tofu-shifu", players=9)
    with pytest.raises(ValueError, match="unknown agent"):
        shifu.gym.make("tofu-shifu", players=2, opponents="superhuman")
    with pytest.raises(ValueError, match="mcts"):
        shifu.gym.make("tofu-shifu", players=2, opponents="mcts:iters=abc")
    with pytest.raises(ValueError, match="no_such_knob"):
        shifu.gym.make("tofu-shifu", players=2, no_such_knob=1)
    for seat in (4, -1, 1.5, True, "1"):
        with pytest.raises(ValueError, match="seat"):
            shifu.gym.make("tofu-shifu", players=4, seat=seat)
    with pytest.raises(ValueError, match="names 2 agents for 3 other seats"):
        shifu.gym.make("tofu-shifu", players=4, opponents=["greedy", "random"])
    with pytest.raises(ValueError, match="not an agent spec"):
        shifu.gym.make("tofu-shifu", players=2, opponents=[None, 3])
    with pytest.raises(ValueError, match="illegal_action"):
        shifu.gym.make("tofu-shifu", players=2, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        shifu.gym.make("tofu-shifu", players=2, render_mode="video")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_illegal_action_is_refused_and_changes_nothing(game):
    env = shifu.gym.make(game, players=SMALL[game], opponents="greedy", seat=0)
    obs, info = env.reset(seed=1)
    before = env.core.state_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="not an action"):
        env.step(env.action_space.n)
    with pytest.raises(ValueError, match="not an action"):
        env.step(-1)
    assert env.core.state_json() == before
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    # The episode goes on.
    env.step(masked_choice(np.random.default_rng(0), info))


def test_illegal_action_terminate_ends_the_episode_with_the_penalty():
    env = shifu.gym.make("tofu-shifu", players=2, opponents="greedy", illegal_action="terminate", illegal_reward=-0.5)
    obs, info = env.reset(seed=1)
    before = env.core.state_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-0.5, True, False, True)
    assert "not legal" in info2["message"]
    assert env.core.state_json() == before and np.array_equal(obs, obs2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_a_game_that_ends_before_the_learners_turn_is_still_an_episode():
    # Tofu Shifu in which the first objective taken ends the game at once, and everyone can
    # afford one from the start: greedy seat 0 takes one before seat 3 ever moves.
    env = shifu.gym.make("tofu-shifu", players=4, opponents="greedy", seat=3, end_objectives=1, end_rule="immediate", start_coins=[20] * 4)
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space
    assert env.core.to_move() is None
    assert not info["decision"] and info["action_mask"].tolist() == [1] + [0] * (env.action_space.n - 1)
    with pytest.raises(ValueError, match="only action 0"):
        env.step(1)
    obs, reward, terminated, truncated, info = env.step(0)
    assert terminated or truncated
    assert reward == env.core.result()[0][3] == info["rewards"][3]


def test_tofu_kingdom_seat_decides_the_role():
    # With first_prince 0 (the default), seat 0 is the first round's Prince: his first decision
    # is a question; any other seat's first decision answers one.
    names = {}
    for seat in (0, 2):
        env = shifu.gym.make("tofu-kingdom", players=4, opponents="greedy", seat=seat)
        obs, info = env.reset(seed=3)
        names[seat] = [env.action_name(a) for a in np.flatnonzero(info["action_mask"])]
    assert all(n.startswith("Ask") for n in names[0]), names[0]
    assert not any(n.startswith("Ask") for n in names[2]), names[2]


def test_parameters_and_data_reach_the_game():
    plain = shifu.gym.make("tofu-shifu", players=3)
    rich = shifu.gym.make("tofu-shifu", players=3, start_coins=[5, 5, 5])
    plain.reset(seed=1)
    rich.reset(seed=1)
    assert plain.core.state_json() != rich.core.state_json()
    recon = shifu.gym.make("tofu-shifu", players=3, data="builtin:reconstructed")
    recon.reset(seed=1)
    assert recon.game == "tofu-shifu"


def test_render_modes():
    env = shifu.gym.make("tofu-kingdom", players=4, render_mode="ansi")
    env.reset(seed=1)
    assert "Prince Mochi" in env.render()


def test_ctrl_c_interrupts_an_opponents_long_search():
    # The learner at seat 1: reset hands the first move to seat 0's search of billions of
    # iterations (cut at 20 s, should the check fail); a SIGINT half a second in raises
    # KeyboardInterrupt within a second, and the environment then asks for a reset.
    env = shifu.gym.make("tofu-shifu", players=2, opponents="mcts:iters=4294967295,time_ms=20000", seat=1)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        env.reset(seed=1)
    timer.join()
    assert time.monotonic() - started < 1.5
    assert env.core.to_move() == 0  # the opponent had not moved
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
