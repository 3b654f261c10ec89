#!/usr/bin/env python3
"""Ginza Retro Café under MCTS: runs the shifu binary (argument 1), writes results/ginza_retro_cafe_mcts.md.

    bash results/ginza_retro_cafe_mcts.sh     (builds the binary, then runs this; about 45 minutes on 2 cores)

MCTS against greedy (2 players, each agent in each seat), then every seat MCTS at 2, 3 and 4
players (2,000 games each): seat and start-player advantage, game length. Standard library only;
figures parsed from `shifu play` summaries (results/ginza_retro_cafe.py), master seed 2026.
"""
import sys
import time

import ginza_retro_cafe as gz

MCTS = "mcts:iters=64,rollout=greedy,root=paired,depth=8"
DUEL_GAMES = 200
SEAT_GAMES = {2: 2000, 3: 2000, 4: 2000}


def main():
    out = sys.argv[2] if len(sys.argv) > 2 else "results/ginza_retro_cafe_mcts.md"
    t0 = time.time()
    duel = [gz.play(2, DUEL_GAMES, agents=f"{MCTS},greedy"), gz.play(2, DUEL_GAMES, agents=f"greedy,{MCTS}")]
    mcts_wins = duel[0]["seat"][0] * DUEL_GAMES + duel[1]["seat"][1] * DUEL_GAMES
    print(f"duel: MCTS {mcts_wins / (2 * DUEL_GAMES):.3f} ({time.time() - t0:.0f} s)", file=sys.stderr)
    runs = {}
    for p, n in SEAT_GAMES.items():
        runs[p] = gz.play(p, n, agents=MCTS)
        print(f"{p}p MCTS: start {runs[p]['start']:.3f} ({runs[p]['seconds']:.0f} s)", file=sys.stderr)
    n2 = 2 * DUEL_GAMES
    lo, hi = gz.wilson(mcts_wins, n2)
    lines = [
        "# Ginza Retro Café under MCTS",
        "",
        "Regenerate: `bash results/ginza_retro_cafe_mcts.sh` (about 45 minutes on 2 cores). Embedded",
        "(reconstructed) data, default rules, master seed 2026, Wilson 95% intervals; every game ends",
        "by the rules (capped share beside each row). The data caveats of results/ginza_retro_cafe.md",
        "apply.",
        "",
        f"MCTS here is `{MCTS}`: the paired-worlds root (README, \"Agents\") over greedy",
        "rollouts cut after 8 complete choices (a serve chosen in steps counts once) and scored by the evaluation's margin (the default cut).",
        "Played to the end and scored by rank (`depth=0`) the same search was weaker (0.602 [0.545,",
        "0.655] against greedy in 300 two-player games) and four to ten times slower.",
        "",
        "## MCTS against greedy (2 players)",
        "",
        f"MCTS wins {ci_text(mcts_wins, n2)} of {n2} games ({DUEL_GAMES} in each seat, "
        f"{(duel[0]['capped'] + duel[1]['capped']) / 2:.1%} capped); even is 0.500.",
        "MCTS " + ("beats greedy: the interval lies above 0.5." if lo > 0.5 else
                   "is not shown to beat greedy: the interval reaches 0.5.") + " Mean VP: MCTS "
        f"{(duel[0]['score'][0] + duel[1]['score'][1]) / 2:.2f}, greedy "
        f"{(duel[0]['score'][1] + duel[1]['score'][0]) / 2:.2f}.",
        "",
    ]
    lines += gz.seat_section(runs, "MCTS")
    lines += ["| players | games | capped | rounds per game | customers served | share of customers who left |",
              "| --- | --- | --- | --- | --- | --- |"]
    for p, r in runs.items():
        lines.append(f"| {p} | {r['games']} | {r['capped']:.1%} | {r['rounds']:.2f} | {r['served']:.2f} | "
                     f"{r['left_share']:.3f} |")
    lines += ["", "## Commands", ""]
    for r in duel + list(runs.values()):
        lines.append(f"- `{r['command']}`")
    lines += ["", f"Total time {time.time() - t0:.0f} s.", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))


def ci_text(k, n):
    return gz.ci(k, n)


if __name__ == "__main__":
    gz.SHIFU = sys.argv[1] if len(sys.argv) > 1 else gz.SHIFU
    main()
