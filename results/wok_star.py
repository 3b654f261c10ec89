#!/usr/bin/env python3
"""Wok Star findings: runs the shifu binary (argument 1) and writes results/wok_star.md.

    bash results/wok_star.sh          (builds the binary, then runs this; about 10 minutes)

Standard library only. Every cell is `shifu play --game wok-star ... --quiet` with master seed
2026; the figures are parsed from its summary. Win rates have Wilson 95% intervals.
"""
import re
import subprocess
import sys
import time

SHIFU = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else "results/wok_star.md"
DIFFICULTIES = ["mild", "medium", "extra_spicy"]
SEED = "2026"


def play(players, agents, games, *sets, data=None):
    args = [SHIFU, "play", "--game", "wok-star", "--players", str(players), "--agents", agents,
            "--games", str(games), "--seed", SEED, "--quiet"]
    if data:
        args += ["--data", data]
    for s in sets:
        args += ["--set", s]
    start = time.time()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    cell = {"command": "shifu " + " ".join(args[1:]), "seconds": time.time() - start}
    m = re.search(r"team wins ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] of (\d+) games.*goals ([^)]*)\); "
                  r"mean days met ([0-9.]+)", out)
    # The summary prints the goals as "$8, $13, $20, $28"; the tables give them as [8, 13, 20, 28].
    goals = "[" + ", ".join(g.strip().lstrip("$") for g in m[5].split(",")) + "]"
    cell.update(win=float(m[1]), lo=float(m[2]), hi=float(m[3]), games=int(m[4]), goals=goals,
                days=float(m[6]))
    m = re.search(r"lost on day 1 / 2 / 3 / 4: ([0-9.]+) / ([0-9.]+) / ([0-9.]+) / ([0-9.]+)", out)
    cell["lost"] = [float(m[i]) for i in range(1, 5)]
    m = re.search(r"dice \(none left to prepare\) ([0-9.]+), ingredients \(dice or a wash left\) "
                  r"([0-9.]+), nothing \(servable; the team stopped or time ran out\) ([0-9.]+), "
                  r"no customer waiting ([0-9.]+)", out)
    cell["short"] = [float(m[i]) for i in range(1, 5)]
    m = re.search(r"mean income per day played \$([0-9.]+); customers served per game ([0-9.]+), "
                  r"([0-9.]+) of them late", out)
    cell.update(income=float(m[1]), served=float(m[2]), late=float(m[3]))
    m = re.search(r"by the team ([0-9.]+) \(every seat waiting ([0-9.]+)\), by an empty Regular deck "
                  r"([0-9.]+), by the .* day limit ([0-9.]+)", out)
    cell["closed"] = [float(m[i]) for i in (1, 3, 4)]
    cell["all_waited"] = float(m[2])
    return cell


def share(c):
    return f"{c['win']:.3f} [{c['lo']:.3f}, {c['hi']:.3f}]"


def main():
    lines = []
    p = lines.append
    t0 = time.time()
    p("# Wok Star: findings with the greedy team")
    p("")
    p("Regenerate: `bash results/wok_star.sh`. Reconstructed data (`engine/data/wok_star.reconstructed.yaml`:")
    p("ingredient methods, recipe incomes, Medium and Extra Spicy goals beyond the printed ones are a")
    p("PROPOSAL, see `../shared/data/README.md`), clock durations as documented in README.md (proposals),")
    p("master seed 2026, Wilson 95% intervals, default rules. No Wok Star game can be capped: a day ends by")
    p("the rules (`all_wait_closes` reads a round of waits by every seat as the team closing) or at the")
    p("`max_day_seconds` limit, whose share is given.")
    p("")
    p("**Which agent.** The findings below use the greedy team (`agents/src/eval/wok_star.rs`), which")
    p("plays thousands of games a second. MCTS with the paired-worlds root beats it by far at 2, 3")
    p("and 4 players (results/wok_star_mcts.md) but costs 1 to 5 seconds of both cores a game, so")
    p("these describe the greedy team on the reconstructed data, a weak team, not expert play; the")
    p("rates a strong team reaches are in results/wok_star_mcts.md. results/wok_star_robust.md shows which of them")
    p("survive other reconstructions (the order of the difficulties does; the rates do not).")
    p("")

    # 1. Difficulty x players x agent.
    p("## 1. Team win rate by difficulty, player count and agent")
    p("")
    p("| players | difficulty | goals | random (2,000 games) | greedy (2,000 games) | greedy: mean days met | MCTS-200, greedy rollouts |")
    p("| --- | --- | --- | --- | --- | --- | --- |")
    greedy = {}
    for players in (2, 3, 4):
        for d in DIFFICULTIES:
            r = play(players, "random", 2000, f"difficulty={d}")
            g = play(players, "greedy", 2000, f"difficulty={d}")
            greedy[(players, d)] = g
            mcts = ""
            if players == 2 and d == "mild":
                m = play(players, "mcts:iters=200,rollout=greedy,depth=0", 60, f"difficulty={d}")
                mcts = f"{share(m)} of {m['games']}; days met {m['days']:.2f}"
            p(f"| {players} | {d} | {g['goals']} | {share(r)} | {share(g)} | {g['days']:.2f} | {mcts} |")
    p("")
    p("Command of a cell: `shifu play --game wok-star --players 2 --agents greedy --games 2000 --seed 2026 "
      "--quiet --set difficulty=mild`.")
    p("")

    # 2. Where games are lost.
    p("## 2. Where the greedy team loses")
    p("")
    p("Lost on each day (share of all games), and what the waiting dish lacked when the losing day closed")
    p("(share of lost games): *dice* = an ingredient was on the bottom slot and no unused die or wash was")
    p("left; *ingredients* = an ingredient was on the bottom slot though dice or a wash were left; *nothing*")
    p("= the dish could be served (the team stopped or the day's time ran out).")
    p("")
    p("Days closed (share of days played): by the team (of which: every seat waited in turn, the")
    p("`all_wait_closes` reading of \"will not serve\"), by an empty Regular deck, by the model's 600 s day")
    p("limit (`max_day_seconds`, a cap, not a rule).")
    p("")
    p("| players | difficulty | lost day 1 / 2 / 3 / 4 | short of dice / ingredients / nothing / no customer | days closed: team (all waited) / deck done / day limit | income per day | late |")
    p("| --- | --- | --- | --- | --- | --- | --- |")
    for (players, d), g in greedy.items():
        c = g["closed"]
        p(f"| {players} | {d} | {' / '.join(f'{x:.3f}' for x in g['lost'])} | "
          f"{' / '.join(f'{x:.3f}' for x in g['short'])} | "
          f"{c[0]:.3f} ({g['all_waited']:.3f}) / {c[1]:.3f} / {c[2]:.3f} | "
          f"${g['income']:.1f} | {g['late']:.3f} |")
    p("")
    over = [f"{players} players {d} ({g['closed'][2]:.3f})" for (players, d), g in greedy.items()
            if g["closed"][2] > 0.05]
    if over:
        p("**WARNING: days ended by the day limit.** The model ends a day at `max_day_seconds`")
        p("(600 s), a cap, not a rule; above 5% of days a cell's win rate leans on it: "
          + ", ".join(over) + ".")
        p("")

    # 3. Speed.
    p("## 3. Win rate against speed (greedy, 2 and 4 players, 1,000 games a cell)")
    p("")
    speeds = [0.1, 0.25, 0.5, 1, 2, 4]
    p("| players | difficulty | " + " | ".join(f"speed {s}" for s in speeds) + " |")
    p("|" + " --- |" * (len(speeds) + 2))
    for players in (2, 4):
        for d in DIFFICULTIES:
            row = [play(players, "greedy", 1000, f"difficulty={d}", f"speed={s}") for s in speeds]
            p(f"| {players} | {d} | " + " | ".join(
                f"{c['win']:.3f} ({100 * c['late']:.0f}% late)" for c in row) + " |")
    p("")
    p("`speed` divides every duration (2 = twice as fast). Command: `... --set speed=0.5`.")
    p("")

    # 4. Goals.
    p("## 4. Income goals for a 70 / 50 / 30% greedy team")
    p("")
    p("Every Medium goal times `goal_scale` (1,000 games a cell); the scale giving each win rate is")
    p("interpolated linearly between the two cells around it.")
    p("")
    scales = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    p("| players | Medium goals | " + " | ".join(f"x{s}" for s in scales) + " | goals for 70% | 50% | 30% |")
    p("|" + " --- |" * (len(scales) + 5))
    for players in (2, 3, 4):
        row = [play(players, "greedy", 1000, "difficulty=medium", f"goal_scale={s}") for s in scales]
        base = [int(x) for x in greedy[(players, "medium")]["goals"].strip("[]").split(",")]
        targets = []
        for target in (0.7, 0.5, 0.3):
            found = ""
            for a, b, ca, cb in zip(scales, scales[1:], row, row[1:]):
                if ca["win"] >= target >= cb["win"] and ca["win"] != cb["win"]:
                    s = a + (b - a) * (ca["win"] - target) / (ca["win"] - cb["win"])
                    found = f"x{s:.2f}: " + ", ".join(str(round(g * s)) for g in base)
                    break
            targets.append(found or "outside the scales tried")
        p(f"| {players} | {base} | " + " | ".join(f"{c['win']:.3f}" for c in row) + " | "
          + " | ".join(targets) + " |")
    p("")
    p("Command of a cell: `... --set difficulty=medium --set goal_scale=0.6`.")
    p("")

    # 5. Events and powers.
    p("## 5. Optional events and player powers (greedy, 2,000 games a cell)")
    p("")
    p("| players | difficulty | standard | events | powers | events and powers |")
    p("| --- | --- | --- | --- | --- | --- |")
    for players in (2, 4):
        for d in ("mild", "medium"):
            cells = [greedy[(players, d)]] + [
                play(players, "greedy", 2000, f"difficulty={d}", *sets)
                for sets in (["events=true"], ["powers=true"], ["events=true", "powers=true"])]
            p(f"| {players} | {d} | " + " | ".join(share(c) for c in cells) + " |")
    p("")
    p("The greedy team uses a power only where its kitchen routine knows it: Grandpa's substitution")
    p("when a dish is blocked, Papa's free dice among its preparations, Mama's re-roll and Lily's timer")
    p("when nothing else helps, Chris's bonus automatically; it never uses Auntie's set-die. The rulebook")
    p("says events add challenge and powers make things easier.")
    p("")
    p(f"Generated {time.strftime('%Y-%m-%d', time.gmtime())} in {time.time() - t0:.0f} s of wall clock.")
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
