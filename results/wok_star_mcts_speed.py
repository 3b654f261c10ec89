#!/usr/bin/env python3
"""Wok Star: how fast a strong (MCTS) 2-player team must play to win each difficulty half the time.
Runs the shifu binary (argument 1) and writes results/wok_star_mcts_speed.md.

    bash results/wok_star_mcts_speed.sh     (about 5 minutes on 2 cores)

Standard library only. Every cell is `shifu play --game wok-star --players 2 ... --set speed=S`,
master seed 2026, so every cell plays the same deals and dice streams; Wilson 95% intervals.
"""
import math
import sys
import time

import wok_star as ws

MCTS = "mcts:iters=40,rollout=greedy,root=paired,depth=0"
SPEEDS = [0.25, 0.5, 1, 2]
GAMES = 150
DIFFICULTIES = ["mild", "medium", "extra_spicy"]


def crossing(speeds, cells, target=0.5):
    """The speed where the win rate crosses `target`, interpolated linearly in log(speed)
    between the two cells around it; None when no pair of neighbouring cells straddles it."""
    for s0, s1, c0, c1 in zip(speeds, speeds[1:], cells, cells[1:]):
        w0, w1 = c0["win"], c1["win"]
        if w0 != w1 and min(w0, w1) <= target <= max(w0, w1):
            f = (target - w0) / (w1 - w0)
            return math.exp(math.log(s0) + f * (math.log(s1) - math.log(s0)))
    return None


def main():
    out = sys.argv[2] if len(sys.argv) > 2 else "results/wok_star_mcts_speed.md"
    t0 = time.time()
    lines = [
        "# Wok Star: how fast a strong team must play",
        "",
        "Regenerate: `bash results/wok_star_mcts_speed.sh` (about 5 minutes on 2 cores).",
        f"Reconstructed data, default rules, 2 players, every seat `{MCTS}` (the strongest",
        f"team we have, results/wok_star_mcts.md), {GAMES} games a cell on the same seeds (master seed",
        "2026), Wilson 95% intervals. `speed` divides every duration of the clock model (README,",
        "\"The clock\"): 0.5 is a team taking twice the proposed seconds per action, 2 a team twice as",
        "fast. The durations themselves are proposals, so \"speed 1\" is only as good as they are.",
        "No game can be capped; the last column is the share of days ended at the 600 s day limit.",
        "",
        "| difficulty | " + " | ".join(f"speed {s}" for s in SPEEDS)
        + " | speed for 50% wins | day limit (all cells) |",
        "|" + " --- |" * (len(SPEEDS) + 3),
    ]
    commands = []
    readings = []
    for d in DIFFICULTIES:
        cells = []
        for s in SPEEDS:
            c = ws.play(2, MCTS, GAMES, f"difficulty={d}", f"speed={s}")
            cells.append(c)
            commands.append(c["command"])
            print(f"{d} speed {s}: {ws.share(c)} ({c['seconds']:.0f} s)", file=sys.stderr)
        x = crossing(SPEEDS, cells)
        if x is not None:
            half = f"about {x:.2f}"
        elif all(c["win"] > 0.5 for c in cells):
            half = f"below {SPEEDS[0]}"
        else:
            half = f"not reached up to speed {SPEEDS[-1]}"
        fast = [c["win"] for s, c in zip(SPEEDS, cells) if s >= 0.5]
        readings.append(f"- {d}: from speed 0.5 up the win rate stays within {min(fast):.3f} to "
                        f"{max(fast):.3f}; at speed {SPEEDS[0]} it is {cells[0]['win']:.3f}, with "
                        f"{100 * cells[0]['late']:.0f}% of customers served late.")
        limit = max(c["closed"][2] for c in cells)
        lines.append(f"| {d} | " + " | ".join(
            f"{ws.share(c)} ({100 * c['late']:.0f}% late)" for c in cells)
            + f" | {half} | {limit:.3f}{' WARNING' if limit > 0.05 else ''} |")
    lines += ["", "Reading (where the team's speed matters):", ""] + readings + [
        "",
        "Where the rate hardly moves with speed, dice, not time, run out first, and a 50% speed",
        "found between two such cells is noise: read it as \"any speed from 0.5 up\".",
    ]
    lines += [
        "",
        "The 50% speed is interpolated in log(speed) between the two cells around 0.5; with",
        f"{GAMES} games a cell each rate is known to about ±0.08, so read it as a range of roughly a",
        "factor of 1.5 either way. \"% late\" is the share of served customers served late.",
        "",
        "Commands of the cells:",
        "",
    ]
    lines += [f"- `{c}`" for c in commands]
    lines += ["", f"Total time {time.time() - t0:.0f} s.", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
