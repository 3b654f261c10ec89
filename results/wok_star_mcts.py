#!/usr/bin/env python3
"""Wok Star, MCTS against greedy: runs the shifu binary (argument 1), writes results/wok_star_mcts.md.

    bash results/wok_star_mcts.sh     (builds the binary, then runs this; about two hours on 2 cores)

Standard library only. Every cell is `shifu play --game wok-star ... --quiet` with master seed 2026
(the greedy figures are the same cells as results/wok_star.md). Wilson 95% intervals.

Finished cells are kept in results/wok_star_mcts_cells.json (written after each cell), so a run
cut off goes on from the next cell: on 2 shared cores the whole table takes longer than a working
session. A kept cell is reused only while the code and data it ran on are unchanged (a hash of the
engine's, agents' and command's sources, Cargo.lock, the Wok Star data file and wok_star.py);
delete the file to rerun every cell.
"""
import hashlib
import json
import math
import os
import csv
import pathlib
import subprocess
import sys
import tempfile
import time

import wok_star as ws

MCTS = "mcts:iters=40,rollout=greedy,root=paired,depth=0"
# Games per cell: enough for a half-width of 0.03 where the rate is away from 0 (about 1,070 games
# near 0.5, 850 near 0.25; 2 players at about 0.25 s a game on 2 cores, 3 players at 0.5 to 0.8 s,
# 4 players Mild at about 2 s and Medium at 1.3 s), 200 where the rate is near 0.
CELLS = [(2, "mild", 1100), (2, "medium", 1100), (2, "extra_spicy", 1100),
         (3, "mild", 1100), (3, "medium", 900), (3, "extra_spicy", 200),
         (4, "mild", 1100), (4, "medium", 850), (4, "extra_spicy", 200)]
GREEDY_GAMES = 2000
# The depth comparison quoted in the text: 3 players, Mild, the same 60 seeds, rollouts cut at
# the default 60 actions against played to the end (about 6 minutes; kept like the cells).
DEPTH_CHECK = (3, "mild", 60, "mcts:iters=40,rollout=greedy,root=paired", MCTS)


CELLS_FILE = "results/wok_star_mcts_cells.json"


def fingerprint():
    """A hash of what a cell depends on: the sources of the engine, the agents and the command
    (but the expert-iteration trainer, which `shifu play` never runs), Cargo.lock, the Wok Star
    data file, and results/wok_star.py, which runs and reads the cells."""
    h = hashlib.sha256()
    files = []
    for src in ("engine/src", "agents/src", "experiments/src"):
        files += sorted(f for f in pathlib.Path(src).rglob("*.rs")
                        if "experiments/src/expert" not in f.as_posix())
    files += [pathlib.Path(f) for f in ("Cargo.lock", "engine/data/wok_star.reconstructed.yaml",
                                        "results/wok_star.py")]
    for f in files:
        h.update(str(f).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def load_cells(fp):
    """The kept cells computed on fingerprint `fp` (others are dropped)."""
    try:
        with open(CELLS_FILE) as f:
            kept = json.load(f)
    except FileNotFoundError:
        return {}
    if kept.get("fingerprint") != fp:
        print(f"{CELLS_FILE}: computed on other code or data; every cell is rerun", file=sys.stderr)
        return {}
    return kept.get("cells", {})


def save_cells(fp, cells):
    tmp = CELLS_FILE + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"fingerprint": fp, "cells": cells}, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, CELLS_FILE)


def cell(cells, fp, players, agents, games, d):
    """The cell's result, kept or played now (then kept)."""
    key = f"{players} {agents} {games} difficulty={d} seed={ws.SEED}"
    if key not in cells:
        cells[key] = ws.play(players, agents, games, f"difficulty={d}")
        save_cells(fp, cells)
    return cells[key]


def paired_check(cells, fp, players, d, n, cut_spec, end_spec):
    """The depth check on shared seeds: both searches play the same n games (game i from the
    same seed), and the comparison is the per-game difference of their team results."""
    key = f"paired {players} {cut_spec} | {end_spec} {n} difficulty={d} seed={ws.SEED}"
    if key in cells:
        return cells[key]
    won, commands, start = [], [], time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for spec in (cut_spec, end_spec):
            out = os.path.join(tmp, "games.csv")
            args = [ws.SHIFU, "play", "--game", "wok-star", "--players", str(players), "--agents",
                    spec, "--games", str(n), "--seed", ws.SEED, "--quiet", "--set",
                    f"difficulty={d}", "--out", out]
            subprocess.run(args, check=True, capture_output=True)
            commands.append("shifu " + " ".join(args[1:-2]) + " --out games.csv")
            with open(out) as f:
                rows = sorted(csv.DictReader(f), key=lambda r: int(r["game"]))
            # A won game has every seat among the winners; a lost one names its lost day.
            won.append([1 if r["lost_day"] == "" else 0 for r in rows])
    diff = [e - c for c, e in zip(*won)]
    mean = sum(diff) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diff) / (n - 1))
    half = 1.959964 * sd / math.sqrt(n)
    cells[key] = {"cut": sum(won[0]) / n, "end": sum(won[1]) / n, "games": n, "diff": mean,
                  "lo": mean - half, "hi": mean + half, "only_end": diff.count(1),
                  "only_cut": diff.count(-1), "commands": commands,
                  "seconds": time.time() - start}
    save_cells(fp, cells)
    return cells[key]


def step_z(a, b):
    """Two-proportion z statistic of win rate a over b (dicts with win and games)."""
    va = a["win"] * (1 - a["win"]) / a["games"]
    vb = b["win"] * (1 - b["win"]) / b["games"]
    return (a["win"] - b["win"]) / max(math.sqrt(va + vb), 1e-12)


def reading(rows):
    """The reading of the table, computed from its rows."""
    beats = [f"{p} players {d}" for p, d, g, m in rows if m["lo"] > g["hi"]]
    out = ["Reading:", ""]
    out.append(f"- MCTS wins more often than greedy, the intervals apart, in {len(beats)} of "
               f"{len(rows)} cells" + ("." if len(beats) == len(rows) else
                                      f" (only {', '.join(beats)})."))
    for players in sorted({r[0] for r in rows}):
        cells = [m for p, _, _, m in rows if p == players]
        zs = [step_z(a, b) for a, b in zip(cells, cells[1:])]
        verdict = ("both steps significant" if all(z > 1.96 for z in zs)
                   else "not both steps significant")
        out.append(f"- {players} players, MCTS: Mild > Medium > Extra Spicy, {verdict} (z = "
                   + ", ".join(f"{z:.1f}" for z in zs) + ", two-proportion test, 1.96 at 5%).")
    wide = [f"{p} players {d} ({(m['hi'] - m['lo']) / 2:.3f})" for p, d, _, m in rows
            if (m["hi"] - m["lo"]) / 2 > 0.03]
    if wide:
        out.append("- Half-width above 0.03 (about 1,000 games a cell would be needed near 0.5): "
                   + ", ".join(wide) + ".")
    return out


def main():
    out = sys.argv[2] if len(sys.argv) > 2 else "results/wok_star_mcts.md"
    fp = fingerprint()
    cells = load_cells(fp)
    rows = []
    for players, d, n in CELLS:
        g = cell(cells, fp, players, "greedy", GREEDY_GAMES, d)
        m = cell(cells, fp, players, MCTS, n, d)
        rows.append((players, d, g, m))
        print(f"{players}p {d}: greedy {ws.share(g)}, mcts {ws.share(m)} ({m['seconds']:.0f} s)",
              file=sys.stderr)
    players, d, n, cut_spec, end_spec = DEPTH_CHECK
    dc = paired_check(cells, fp, players, d, n, cut_spec, end_spec)
    paired = (f"{dc['cut']:.3f} cut at 60, {dc['end']:.3f} to the end; the paired difference "
              f"{dc['diff']:+.3f} [{dc['lo']:+.3f}, {dc['hi']:+.3f}]: {dc['only_end']} games won "
              f"only to the end, {dc['only_cut']} only cut")
    print(f"depth check: {paired}", file=sys.stderr)
    lines = [
        "# Wok Star: MCTS against the greedy team",
        "",
        "Regenerate: `bash results/wok_star_mcts.sh` (about two hours on 2 cores). Reconstructed",
        "data (see results/wok_star.md), default rules (so `all_wait_closes` on), master seed 2026,",
        "Wilson 95% intervals; no game can be capped by rounds.",
        "",
        "**Depends on reconstructed data** (ingredient methods, incomes, the goals beyond Mild and",
        "Medium at 2 players). The MCTS cells were not rerun on other reconstructions; for the greedy",
        "team results/wok_star_robust.md shows that the order of the difficulties survives them and",
        "the rates do not, so read these rates as the reconstruction's, and the order as the finding.",
        "",
        f"MCTS here is `{MCTS}`: the paired-worlds root (README, \"Agents\"): the root's",
        "actions are compared in shared sampled worlds (the same deck order and dice for every",
        "action) by sequential halving (a budget of 40 rollouts, at least 2 worlds an action a round),",
        "each a greedy rollout played to the end of the game (`depth=0`) and scored by the team",
        "result (1 for a win, 0.2 per day met for a loss); the greedy team's own choice is kept unless",
        "another action beats it by more than one standard error of the paired differences. Every",
        "seat of the team is this agent. With the default cut after 60 actions, scored by the team",
        "evaluation, the search played worse: the evaluation of a day still open overrates a day",
        "already lost, so a seat preferred waiting to closing (a horizon effect) (3 players Mild,",
        f"the same {n} seeds: {paired}; commands below the tables).",
        "",
        "Days closed: the share of days played that the day limit (`max_day_seconds`, 600 s, a cap",
        "of the model, not a rule) ended, and the share that closed because every seat waited in",
        "turn (`all_wait_closes`, a reading of \"will not serve\"). A cell whose day-limit share is",
        "above 5% is marked WARNING: its win rate leans on the cap.",
        "",
        "| players | difficulty | greedy (2,000 games) | greedy: days met | MCTS | MCTS: days met | MCTS games | half-width | MCTS days: all waited / day limit | greedy days: day limit | seconds |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for players, d, g, m in rows:
        half = (m["hi"] - m["lo"]) / 2
        warn = " WARNING" if max(m["closed"][2], g["closed"][2]) > 0.05 else ""
        lines.append(f"| {players} | {d} | {ws.share(g)} | {g['days']:.2f} | {ws.share(m)} | "
                     f"{m['days']:.2f} | {m['games']} | {half:.3f} | "
                     f"{m['all_waited']:.3f} / {m['closed'][2]:.3f} | {g['closed'][2]:.3f}{warn} | "
                     f"{m['seconds']:.0f} |")
    lines += [
        "",
        "Where MCTS games are lost (share of all games: lost on day 1 / 2 / 3 / 4; share of lost",
        "games whose waiting dish was short of dice):",
        "",
        "| players | difficulty | greedy: lost day 1 / 2 / 3 / 4 | MCTS: lost day 1 / 2 / 3 / 4 | greedy: short of dice | MCTS: short of dice |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for players, d, g, m in rows:
        lg = " / ".join(f"{x:.3f}" for x in g["lost"])
        lm = " / ".join(f"{x:.3f}" for x in m["lost"])
        lines.append(f"| {players} | {d} | {lg} | {lm} | {g['short'][0]:.3f} | {m['short'][0]:.3f} |")
    lines += [""] + reading(rows)
    lines += ["", "Commands of the cells:", ""]
    lines += [f"- `{c}`" for c in dc["commands"]]
    for _, _, g, m in rows:
        lines.append(f"- `{g['command']}`")
        lines.append(f"- `{m['command']}`")
    total = sum(c["seconds"] for r in rows for c in r[2:]) + dc["seconds"]
    lines += ["", f"Total time {total:.0f} s (the cells' wall clocks added up).", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
