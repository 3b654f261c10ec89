"""The PettingZoo environments: PettingZoo's own API, seed and parallel tests for every game and
player count, and what the environments promise beyond them."""

import os
import signal
import threading
import time

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

import shifu

PLAYERS = {name: info["players"] for name, info in shifu.game_info().items()}
CASES = [(g, n) for g, counts in PLAYERS.items() for n in counts]


def test_the_registry_names_every_game_with_its_player_counts():
    info = shifu.game_info()
    assert list(info) == shifu.games()
    assert {"tofu-shifu", "tofu-kingdom", "wok-star", "ginza-retro-cafe"} <= set(info)
    for name, g in info.items():
        assert g["players"] == list(range(g["min_players"], g["max_players"] + 1)), name
        with pytest.raises(ValueError, match="players"):
            shifu.env(name, players=g["max_players"] + 1)
    assert info["wok-star"]["cooperative"] and not info["tofu-shifu"]["cooperative"]


@pytest.mark.parametrize("game,players", CASES)
def test_pettingzoo_api_test(game, players):
    api_test(shifu.env(game, players=players), num_cycles=400)


@pytest.mark.parametrize("game,players", CASES)
def test_pettingzoo_seed_test(game, players):
    seed_test(lambda: shifu.env(game, players=players), num_cycles=200)


@pytest.mark.parametrize("game,players", CASES)
def test_pettingzoo_parallel_api_test_and_parallel_determinism(game, players):
    parallel_api_test(shifu.parallel_env(game, players=players), num_cycles=200)
    # PettingZoo's parallel_seed_test samples actions without the action mask, which no game
    # with illegal actions can pass; the same check with masked samples:
    runs = []
    for _ in range(2):
        env = shifu.parallel_env(game, players=players)
        obs, infos = env.reset(seed=42)
        rng = np.random.default_rng(42)
        trace = []
        while env.agents:
            actions = {
                a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if obs[a]["action_mask"].any() else 0
                for a in env.agents
            }
            obs, rewards, terms, truncs, infos = env.step(actions)
            trace.append((sorted(actions.items()), sorted(rewards.items()), [o["observation"].tobytes() for o in obs.values()]))
        runs.append(trace)
    assert runs[0] == runs[1]


def play_out(env, seed, pick):
    """Plays one game to its end; returns the actions taken and the final rewards."""
    env.reset(seed=seed)
    actions = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = pick(env, obs)
        actions.append(a)
        env.step(a)
    return actions, env


def random_pick(rng):
    def pick(env, obs):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    return pick


@pytest.mark.parametrize("game,players", [("tofu-shifu", 4), ("tofu-kingdom", 5), ("wok-star", 3), ("ginza-retro-cafe", 3)])
def test_rewards_come_at_the_end_and_share_the_win(game, players):
    env = shifu.env(game, players=players)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            assert set(info) == {"score", "capped"}
            assert trunc == info["capped"]
            env.step(None)
            continue
        assert reward == 0.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    values = list(totals.values())
    assert all(0.0 <= v <= 1.0 for v in values)
    if shifu.game_info()[game]["cooperative"]:  # all win or none
        assert len(set(values)) == 1
    else:
        assert abs(sum(values) - 1.0) < 1e-9


@pytest.mark.parametrize("game,players", [("tofu-shifu", 3), ("tofu-kingdom", 6), ("ginza-retro-cafe", 2)])
def test_a_game_is_a_function_of_its_seed_and_actions(game, players):
    actions, env = play_out(shifu.env(game, players=players), 11, random_pick(np.random.default_rng(1)))
    first = env.core.state_json()
    replay = shifu.env(game, players=players)
    replay.reset(seed=11)
    for a in actions:
        replay.step(a)
    assert replay.core.state_json() == first


def test_only_the_agent_to_act_has_a_mask_and_masks_are_exactly_the_legal_actions():
    env = shifu.env("tofu-shifu", players=4)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(300):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        for a in env.agents:
            m = env.observe(a)["action_mask"]
            if a == env.agent_selection:
                assert sorted(np.flatnonzero(m).tolist()) == sorted(env.core.legal())
            else:
                assert not m.any()
        env.step(int(rng.choice(env.core.legal())))


def test_each_seat_sees_its_own_view():
    # The encoding starts with the observer one-hot, and hidden hands differ by seat.
    env = shifu.env("tofu-shifu", players=4)
    env.reset(seed=3)
    views = [env.observe(a)["observation"] for a in env.possible_agents]
    for i, v in enumerate(views):
        assert v[i] == 1.0 and v[:4].sum() == 1.0
    assert not np.array_equal(views[0], views[1])


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = shifu.env("tofu-shifu", players=2)
    env.reset(seed=1)
    before = env.core.state_json()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="not an action"):
        env.step(10**9)
    assert env.core.state_json() == before


def test_bad_settings_name_what_is_wrong():
    with pytest.raises(ValueError, match="unknown game `chess`"):
        shifu.env("chess")
    with pytest.raises(ValueError, match="no_such_knob"):
        shifu.env("tofu-shifu", players=4, no_such_knob=3)
    with pytest.raises(ValueError, match="players"):
        shifu.env("tofu-shifu", players=9)
    with pytest.raises(ValueError):
        shifu.env("tofu-shifu", players=4, render_mode="video")


def test_parameters_reach_the_game():
    env = shifu.env("tofu-shifu", players=3, start_coins=[5, 5, 5])
    plain = shifu.env("tofu-shifu", players=3)
    env.reset(seed=1)
    plain.reset(seed=1)
    assert env.core.state_json() != plain.core.state_json()


def test_render_gives_the_position_as_text():
    env = shifu.env("tofu-kingdom", players=4, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Prince Mochi" in text


def test_built_in_agents_act_from_python():
    env = shifu.env("tofu-kingdom", players=5)
    env.reset(seed=4)
    a = env.agent_action("greedy", seed=1)
    assert env.observe(env.agent_selection)["action_mask"][a] == 1
    assert env.agent_action("greedy", seed=1) == a
    with pytest.raises(ValueError, match="unknown agent"):
        env.agent_action("superhuman")


def test_ctrl_c_interrupts_a_long_agent_action():
    # Issue 46 §2 item 14: a long search ignored Ctrl-C until it ended. A SIGINT half a second
    # into a search of billions of iterations (cut at 20 s, should the check fail) raises
    # KeyboardInterrupt within a second.
    env = shifu.env("tofu-shifu", players=2)
    env.reset(seed=1)
    while len(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])) < 2:
        env.step(env.agent_action("random"))
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        env.agent_action("mcts:iters=4294967295,time_ms=20000", seed=1)
    timer.join()
    assert time.monotonic() - started < 1.5
    # The environment still works.
    assert env.observe(env.agent_selection)["action_mask"][env.agent_action("greedy")] == 1


def test_data_files_reach_the_game(tmp_path):
    # The same seed and the same policy (the first legal action) on other card values: the
    # games part.
    ends = []
    for data in (None, "builtin:reconstructed"):
        env = shifu.env("tofu-shifu", players=4, data=data)
        env.reset(seed=1)
        while env.core.to_move() is not None:
            env.core.step(min(env.core.legal()))
        ends.append(env.core.state_json())
    assert ends[0] != ends[1]
    with pytest.raises(ValueError, match="missing.json"):
        shifu.env("tofu-shifu", players=4, data=str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("cards: [1, 2\n")
    with pytest.raises(ValueError, match="bad.yaml"):
        shifu.env("tofu-kingdom", players=4, data=str(bad))
    assert shifu.seats("tofu-shifu", 4, "random", 20, 1, data="builtin:reconstructed").games == 20
