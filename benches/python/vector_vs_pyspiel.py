"""The vector environment against pyspiel, side by side in one process (issue 49):

- (a) pyspiel ``hearts``, the bare Python loop: a uniform random action from
  ``state.legal_actions()`` with Python's ``random``, no observation;
- (b) the same loop reading ``information_state_tensor()`` at every decision;
- (c) ``shifu.vector``: Tofu Shifu at 4 players, N games stepped per call, observations (uint8 or
  float32) and masks written every step. Actions are chosen in numpy from the masks, over the
  whole batch, so the figure includes what a Python learner pays to pick them: (c) takes the
  masks' non-zero entries and a uniform one per row; (c') the argmax of uniform noise times the
  mask, which draws a random number for each of the 951 action indices of each env;
- (d) the same with ``step_random``: the random legal action is drawn in Rust (no Python per
  step), reported apart from (c);
- (e) ``env.step(env.sample_actions())``: the actions drawn in Rust by the sampler, then checked
  and played by ``step`` as a learner's actions are.

    python benches/python/vector_vs_pyspiel.py [--seconds 3] [--repeats 3] [--sizes 64,256,1024]
        [--threads 1,2]

``--threads`` lists the thread counts the vector env steps on (pyspiel's loop is one thread):
every shifu loop runs at the first; at the others, (c) uint8, (d) and (e).

A move is one applied action: pyspiel's chance moves (the deal) count too, as in
``benches/python/speed.py``, which flatters pyspiel a little. Each repeat runs every loop once,
in turn, so load on the machine falls on both sides alike; read the ratios. Rates are given per
second of wall-clock time and per second of the process's CPU time: on a shared machine the
second is the steadier measure of one core's work (for a loop on several threads it sums them).
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

import shifu.vector


def pyspiel_loop(seconds: float, tensor: bool) -> tuple[float, float]:
    """Moves per second (of wall-clock time, and of this process's CPU time) of random hearts
    games (with the information-state tensor read at
    every decision when `tensor`)."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rnd = random.Random(1)
    moves = 0
    sink = 0.0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if tensor and not state.is_chance_node():
                sink += np.asarray(state.information_state_tensor(), dtype=np.float32)[0]
            state.apply_action(rnd.choice(state.legal_actions()))
            moves += 1
    return moves / (time.perf_counter() - start), moves / (time.process_time() - cpu)


def pick_nonzero(env, rng) -> np.ndarray:
    """A uniform random legal action per env, in numpy: the legal entries of the masks in row
    order, and in each row the k-th of its `count` entries for k uniform below `count`."""
    # flatnonzero of a bool view: ten times faster than nonzero of the 2-D array.
    flat = np.flatnonzero(env.masks.view(np.bool_))
    counts = np.bincount(flat // env.action_count, minlength=env.num_envs)
    first = np.cumsum(counts) - counts
    return flat[first + (rng.random(env.num_envs) * counts).astype(np.int64)] % env.action_count


def vector_loop(seconds: float, n: int, dtype: str, how: str, threads: int = 1) -> tuple[float, float]:
    """Moves per second (wall-clock, CPU) of N Tofu Shifu games stepped together; actions picked by `how`:
    "nonzero" (pick_nonzero), "argmax" (argmax of uniform noise times the mask), "rust"
    (step_random) or "sample" (sample_actions, then step)."""
    env = shifu.vector.make("tofu-shifu", num_envs=n, players=4, dtype=dtype, seed=1, threads=threads)
    rng = np.random.default_rng(1)
    noise = np.empty(env.masks.shape, dtype=np.float32)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            if how == "rust":
                env.step_random()
            elif how == "sample":
                env.step(env.sample_actions())
            elif how == "argmax":
                rng.random(out=noise, dtype=np.float32)
                noise *= env.masks
                env.step(noise.argmax(axis=1))
            else:
                env.step(pick_nonzero(env, rng))
        steps += 10
    return steps * n / (time.perf_counter() - start), steps * n / (time.process_time() - cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sizes", default="64,256,1024")
    ap.add_argument("--threads", default="1")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    threads = [int(x) for x in args.threads.split(",")]
    loops = [("pyspiel hearts, bare loop (a)", lambda: pyspiel_loop(args.seconds, False)),
             ("pyspiel hearts, information_state_tensor (b)", lambda: pyspiel_loop(args.seconds, True))]
    for t in threads:
        first = t == threads[0]
        at = f", threads={t}" if len(threads) > 1 else ""
        for n in sizes:
            for dtype in ("uint8", "float32") if first else ("uint8",):
                loops.append((f"shifu.vector tofu-shifu 4p, N={n}, {dtype}{at}, numpy nonzero pick (c)",
                              lambda n=n, d=dtype, t=t: vector_loop(args.seconds, n, d, "nonzero", t)))
        if first:
            for n in sizes:
                loops.append((f"shifu.vector tofu-shifu 4p, N={n}, uint8{at}, numpy argmax(noise * mask) (c')",
                              lambda n=n, t=t: vector_loop(args.seconds, n, "uint8", "argmax", t)))
        for n in sizes:
            loops.append((f"shifu.vector tofu-shifu 4p, N={n}, uint8{at}, step_random (d)",
                          lambda n=n, t=t: vector_loop(args.seconds, n, "uint8", "rust", t)))
        for n in sizes:
            loops.append((f"shifu.vector tofu-shifu 4p, N={n}, uint8{at}, step(sample_actions()) (e)",
                          lambda n=n, t=t: vector_loop(args.seconds, n, "uint8", "sample", t)))
    results: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in loops}
    for r in range(args.repeats):
        load = os.getloadavg()[0]
        print(f"repeat {r + 1}: load average {load:.1f} at the start", flush=True)
        for name, run in loops:
            results[name].append(run())
    for k, clock in enumerate(("wall-clock time", "CPU time of this process (all its threads)")):
        bare = [r[k] for r in results[loops[0][0]]]
        tensor = [r[k] for r in results[loops[1][0]]]
        print()
        print(f"Moves per second of {clock}:")
        print()
        print("| loop | moves/s, each repeat | vs (a), each repeat | vs (b), each repeat |")
        print("| --- | --- | --- | --- |")
        for name, pairs in results.items():
            rates = [r[k] for r in pairs]
            cells = ", ".join(f"{x:,.0f}" for x in rates)
            va = ", ".join(f"{x / y:.2f}" for x, y in zip(rates, bare))
            vb = ", ".join(f"{x / y:.1f}" for x, y in zip(rates, tensor))
            print(f"| {name} | {cells} | {va} | {vb} |")


if __name__ == "__main__":
    main()
