#!/usr/bin/env python3
"""Wok Star: how often a day ends at the model's day limit (`max_day_seconds`, 600 s) rather than by
the rules, greedy against paired-worlds MCTS, Mild. Runs the shifu binary (argument 1) and writes
results/wok_star_day_limit.md.

    bash results/wok_star_day_limit.sh     (about 6 minutes on 2 cores)
"""
import sys

import wok_star as ws

MCTS = "mcts:iters=40,rollout=greedy,root=paired"
CELLS = [(2, 100), (3, 80), (4, 60)]


def main():
    out = sys.argv[2] if len(sys.argv) > 2 else "results/wok_star_day_limit.md"
    lines = [
        "# Wok Star: days ended by the model's day limit",
        "",
        "Regenerate: `bash results/wok_star_day_limit.sh` (about 6 minutes on 2 cores). A day ends by",
        "the rules when the team closes or the Regular deck is served; the model also ends a day at",
        "`max_day_seconds` (600 s of table time), a cap like Tofu Shifu's round cap. A day it ends was",
        "not decided by the rules: where its share is above 5%, the cell's win rate leans on the cap.",
        "Mild difficulty, master seed 2026 (the first games of the cells of results/wok_star.md and",
        "results/wok_star_mcts.md).",
        "",
        "| players | agent | games | days closed by the team / deck done / day limit | warning |",
        "| --- | --- | --- | --- | --- |",
    ]
    for players, n in CELLS:
        for agent, games in (("greedy", 2000), (MCTS, n)):
            c = ws.play(players, agent, games, "difficulty=mild")
            closed = " / ".join(f"{x:.3f}" for x in c["closed"])
            warn = "WARNING: above 5%" if c["closed"][2] > 0.05 else ""
            lines.append(f"| {players} | `{agent}` | {c['games']} | {closed} | {warn} |")
            print(lines[-1], file=sys.stderr)
    lines += [
        "",
        "Reading: a row with a warning marks a cell of results/wok_star.md or",
        "results/wok_star_mcts.md (same agent, players and difficulty) whose win rate leans on the",
        "day limit. Most MCTS teams' losing days end with an ingredient short while dice or a wash",
        "are still unused (the \"losing day closed with the waiting dish short of\" line of `shifu",
        "play`): the seats wait on each other instead of preparing or closing, and the limit cuts",
        "the day short.",
        "",
    ]
    with open(out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
