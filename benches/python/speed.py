"""Python-side speed, side by side, in one run (issue 15):

- steps/s of a random-agent loop over shifu's PettingZoo AEC environment (each step reads the
  acting agent's observation and mask through ``env.last()``, as a learner's loop does);
- steps/s of the batch API (``shifu.seats`` with random agents: games played in Rust on every
  core, no Python per step);
- steps/s of the engine itself on one core (`shifu bench --threads 1`, random agents, no Python),
  for every game, when the release binary is found (`SHIFU`, else `target/release/shifu`);
- the same random loop over OpenSpiel's pyspiel on hearts (and oh_hell, euchre), when pyspiel is
  installed: with and without reading the observation tensor each step;
- the ratios between shifu's loops and pyspiel's, per game.

    python benches/python/speed.py [--seconds 3] [--json out.json]

A step is one applied action. Random choices use numpy in every loop, so the loops differ only in
the environment.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time

import numpy as np

import shifu

GAMES = [("tofu-shifu", 4), ("tofu-kingdom", 5), ("wok-star", 3), ("ginza-retro-cafe", 2)]


def timed(loop: str, game: str, players, seconds: float, play_one) -> dict:
    """Plays games with `play_one(seed)` (which returns its steps) for about `seconds`."""
    steps, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += play_one(games)
        games += 1
    secs = time.perf_counter() - start
    return {"loop": loop, "game": game, "players": players, "steps": steps, "games": games,
            "seconds": secs, "steps_per_s": steps / secs}


def aec_loop(game: str, players: int, seconds: float) -> dict:
    env = shifu.env(game, players=players)
    rng = np.random.default_rng(1)

    def play_one(seed):
        steps = 0
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            # A bool view: numpy finds the ones in a bool array ten times faster than in int8,
            # which matters for games with long action lists.
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        return steps

    return timed("shifu AEC (observe + mask each step)", game, players, seconds, play_one)


def core_loop(game: str, players: int, seconds: float) -> dict:
    """The same random loop through the environment's Rust core without observations (legal
    indices and step only): the per-step cost of crossing into Rust, comparable with pyspiel's
    minimal loop."""
    core = shifu.env(game, players=players).core
    rng = np.random.default_rng(1)

    def play_one(seed):
        steps = 0
        core.reset(seed)
        while core.to_move() is not None:
            legal = core.legal()
            core.step(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    return timed("shifu core (legal + step)", game, players, seconds, play_one)


def batch(game: str, players: int, seconds: float) -> dict:
    # Size the run to about `seconds` from a short trial.
    n = 200
    while True:
        start = time.perf_counter()
        s = shifu.seats(game, players, "random", n, 1)
        secs = time.perf_counter() - start
        if secs >= seconds or n >= 10_000_000:
            break
        n = int(n * max(2.0, 1.2 * seconds / max(secs, 1e-3)))
    steps = s.extra["steps"]
    return {"loop": f"shifu batch API ({os.cpu_count()} cores)", "game": game, "players": players,
            "steps": steps, "games": n, "seconds": secs, "steps_per_s": steps / secs,
            "capped_share": s.capped_share}


def native(game: str, players: int, seconds: float) -> dict | None:
    """The engine's own random playouts on one core (`shifu bench`), without Python."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    exe = os.environ.get("SHIFU") or os.path.join(root, "target", "release", "shifu")
    if not os.path.exists(exe):
        return None
    out = subprocess.run([exe, "bench", "--game", game, "--players", str(players),
                          "--seconds", str(seconds), "--threads", "1"],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)["single_core"]
    return {"loop": "shifu engine (shifu bench, 1 core)", "game": game, "players": players,
            "steps": r["steps"], "games": r["games"], "seconds": r["seconds"],
            "steps_per_s": r["steps_per_sec"]}


def ratios(rows: list[dict]) -> None:
    """Each shifu loop's steps/s over each pyspiel loop's of the same kind: loops that read
    observations against pyspiel's with the tensor, the others against its bare loop."""
    spiel = {(r["game"], "tensor" in r["loop"] or "+ mask" in r["loop"]): r["steps_per_s"]
             for r in rows if r["loop"].startswith("pyspiel")}
    names = list(dict.fromkeys(g for g, _ in spiel))
    if not names:
        return
    print()
    print("Ratios: shifu steps/s over pyspiel steps/s (observing loops against pyspiel with its "
          "tensor, the others against its bare loop)")
    print()
    print("| loop | game | " + " | ".join(f"vs {n}" for n in names) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in names) + " |")
    for r in rows:
        if r["loop"].startswith("pyspiel"):
            continue
        observing = "AEC" in r["loop"]
        cells = [f"{r['steps_per_s'] / spiel[(n, observing)]:,.2f}" if (n, observing) in spiel else "-"
                 for n in names]
        print(f"| {r['loop']} | {r['game']} | " + " | ".join(cells) + " |")


def pyspiel_loop(name: str, seconds: float, observe: bool) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    kind = game.get_type()
    # Chance nodes (the deal) count as steps, as pyspiel applies them as actions; shifu draws
    # chance inside `step`, so its steps are decisions only.
    # Hearts, oh_hell and euchre give only an information-state tensor.
    tensor = "observation_tensor" if kind.provides_observation_tensor else "information_state_tensor"
    rng = np.random.default_rng(1)
    steps, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                if observe:
                    np.asarray(getattr(state, tensor)(state.current_player()), dtype=np.float32)
                    np.asarray(state.legal_actions_mask(), dtype=np.int8)
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        games += 1
    secs = time.perf_counter() - start
    what = f"pyspiel ({tensor.replace('_', ' ')} + mask each step)" if observe else "pyspiel (legal + apply)"
    return {"loop": what, "game": name, "players": game.num_players(), "steps": steps, "games": games,
            "seconds": secs, "steps_per_s": steps / secs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    args = ap.parse_args()
    rows = []
    for game, players in GAMES:
        r = native(game, players, args.seconds)
        if r is None:
            print("no release binary (cargo build --release, or set SHIFU): no engine rows")
        else:
            rows.append(r)
        rows.append(aec_loop(game, players, args.seconds))
        rows.append(core_loop(game, players, args.seconds))
        rows.append(batch(game, players, args.seconds))
    for name in ("hearts", "oh_hell", "euchre"):
        for observe in (False, True):
            r = pyspiel_loop(name, args.seconds, observe)
            if r is None:
                print("pyspiel is not installed: no OpenSpiel rows (pip install open_spiel)")
                break
            rows.append(r)
    print("| loop | game | players | steps/s | games | seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['loop']} | {r['game']} | {r['players']} | {r['steps_per_s']:,.0f} | {r['games']:,} | {r['seconds']:.1f} |")
    ratios(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
