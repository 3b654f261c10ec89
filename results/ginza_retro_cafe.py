#!/usr/bin/env python3
"""Ginza Retro Café findings: runs the shifu binary (argument 1), writes results/ginza_retro_cafe.md.

    bash results/ginza_retro_cafe.sh     (builds the binary, then runs this; about 15 minutes on 2 cores)

Standard library only. Every figure is parsed from `shifu play --game ginza-retro-cafe ... --quiet`
(the summary lines the game prints), master seed 2026; intervals are Wilson 95%.
"""
import math
import os
import re
import subprocess
import sys
import tempfile
import time

SHIFU = sys.argv[1] if len(sys.argv) > 1 else "target/release/shifu"
SEED = 2026
GAMES = {2: 20000, 3: 20000, 4: 20000}
SWEEP_GAMES = 3000
SWEEP_PLAYERS = 3
ROBUST_GAMES = 6000
RATES = [3, 4, 5]
PRICES = ["4,4,6,6", "2,2,4,4", "3,3,5,5", "5,5,7,7", "6,6,8,8"]
DATA = "engine/data/ginza_retro_cafe.reconstructed.yaml"


def wilson(k, n, z=1.959963984540054):
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def ci(k, n):
    lo, hi = wilson(k, n)
    return f"{k / max(n, 1):.3f} [{lo:.3f}, {hi:.3f}]"


def play(players, games, agents="greedy", sets=(), data=None):
    cmd = [SHIFU, "play", "--game", "ginza-retro-cafe", "--players", str(players), "--games",
           str(games), "--seed", str(SEED), "--agents", agents, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    if data:
        cmd += ["--data", data]
    t0 = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    shown = " ".join(c if c != SHIFU else "shifu" for c in cmd)
    if data:
        shown = shown.replace(data, os.path.basename(data))
    return parse(out, players, games) | {"command": shown, "seconds": time.time() - t0}


def num(pattern, text, k=1, cast=float):
    m = re.search(pattern, text)
    if not m:
        raise ValueError(f"no match for {pattern!r} in:\n{text}")
    return cast(m.group(k))


def parse(out, players, games):
    r = {"games": games, "players": players}
    r["capped"] = num(r"capped ([\d.]+)%", out) / 100
    seats = list(re.finditer(r"^\s+\d\s+\S+\s+([\d.]+)\s+\[[^]]*\]\s+([\d.]+)\s+([\d.]+)", out, re.M))
    r["seat"] = [float(m.group(1)) for m in seats]
    r["score"] = [float(m.group(3)) for m in seats]
    r["chi_p"] = num(r"chi-square [\d.]+ on \d+ df, p = ([\d.e+-]+)", out)
    r["rounds"] = num(r"rounds per game ([\d.]+)", out)
    r["served"] = num(r"customers served ([\d.]+)", out)
    r["left"] = num(r"left unserved ([\d.]+)", out)
    r["left_share"] = num(r"left unserved [\d.]+ \(([\d.]+) of those", out)
    r["start"] = num(r"start player \(lowest dice total\) wins ([\d.]+)", out)
    r["verdict"] = num(r"(?m)^verdict: (.*)$", out, cast=str)
    offsets = num(r"wins by seat after the start player \(0 = the start player\): (.*)", out, cast=str)
    r["offset"] = [float(x.split(": ")[1]) for x in offsets.split(", ")]
    pts = re.search(r"points per player: orders ([\d.]+), bonus cards ([\d.]+), coins ([\d.]+)", out)
    r["points"] = [float(pts.group(i)) for i in (1, 2, 3)]
    m = re.search(r"dice-limit raises per player ([\d.]+) .*Arrange raises ([\d.]+); players who "
                  r"raised their limit win ([\d.]+) of their games \(([\d.]+) of players\), the others ([\d.]+)", out)
    r["raises"], r["levels"], r["raiser_win"], r["raisers"], r["other_win"] = (float(m.group(i)) for i in range(1, 6))
    r["cards"] = []
    for m in re.finditer(r"player card (.+?): chosen (\d+) times, wins ([\d.]+) \[.*?\], mean VP ([\d.]+); "
                         r"declined (\d+) times, the decliner wins ([\d.]+)", out):
        r["cards"].append({"name": m.group(1), "chosen": int(m.group(2)), "win": float(m.group(3)),
                           "vp": float(m.group(4)), "declined": int(m.group(5)),
                           "decliner": float(m.group(6))})
    r["bonus"] = []
    for m in re.finditer(r"bonus card (.+?) \((\d+) VP\): held (\d+) times, met ([\d.]+); the holder wins "
                         r"([\d.]+) when met, ([\d.]+) when not", out):
        r["bonus"].append({"name": m.group(1), "vp": int(m.group(2)), "held": int(m.group(3)),
                           "met": float(m.group(4)), "win_met": float(m.group(5)),
                           "win_not": float(m.group(6))})
    return r


def seat_section(runs, agent="greedy"):
    lines = [f"## Seat and start-player advantage ({agent})", "",
             f"Every seat {agent}. The start player is the lowest dice total at set-up (ties at random),",
             "so seat and start player differ. \"Offset k\" is the seat k places after the start player.",
             "",
             "| players | games | capped | win share by seat (seat 1 first) | chi-square p (equal seats) | start player wins | even share | by offset from the start player |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for p, r in runs.items():
        n = r["games"]
        seats = ", ".join(ci(w * n, n) for w in r["seat"])
        offs = ", ".join(f"{k}: {ci(w * n, n)}" for k, w in enumerate(r["offset"]))
        lines.append(f"| {p} | {n} | {r['capped']:.1%} | {seats} | {r['chi_p']:.3g} | "
                     f"{ci(r['start'] * n, n)} | {1 / p:.3f} | {offs} |")
    lines.append("")
    # The verdict is shifu's own: a TOST at ±0.02 on each turn position's win share, counted from
    # the first start player (a large chi-square p is not fairness).
    out = [f"{p} players: {r['verdict']}" for p, r in runs.items()]
    return lines + ["Verdicts by turn position (TOST, margin ±0.02):", ""] + [f"- {x}" for x in out] + [""]


def cards_section(r):
    n = r["players"]
    lines = [f"## Player cards ({n} players, {r['games']} games, greedy, {r['capped']:.1%} capped)", "",
             "Greedy's evaluation does not value a player card's ability, so its pick between the two",
             "dealt is effectively at random: \"chosen\" is the win share of the players who kept the",
             "card, \"declined\" that of the players who were dealt it and kept the other. The lift is",
             "chosen minus declined: what keeping this card is worth against the card it was paired with.",
             "",
             "| player card | kept | win share when kept | mean VP when kept | declined | decliner's win share | lift |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for c in sorted(r["cards"], key=lambda c: -(c["win"] - c["decliner"])):
        lift = c["win"] - c["decliner"]
        se = math.sqrt(c["win"] * (1 - c["win"]) / max(c["chosen"], 1)
                       + c["decliner"] * (1 - c["decliner"]) / max(c["declined"], 1))
        mark = " *" if abs(lift) > 1.96 * se else ""
        lines.append(f"| {c['name']} | {c['chosen']} | {ci(c['win'] * c['chosen'], c['chosen'])} | "
                     f"{c['vp']:.1f} | {c['declined']} | {ci(c['decliner'] * c['declined'], c['declined'])} | "
                     f"{lift:+.3f}{mark} |")
    lines += ["", "\\* the lift is more than 1.96 standard errors from 0.", ""]
    up, down = [], []
    for c in r["cards"]:
        lift = c["win"] - c["decliner"]
        se = math.sqrt(c["win"] * (1 - c["win"]) / max(c["chosen"], 1)
                       + c["decliner"] * (1 - c["decliner"]) / max(c["declined"], 1))
        if lift > 1.96 * se:
            up.append(f"{c['name']} ({lift:+.3f})")
        elif lift < -1.96 * se:
            down.append(f"{c['name']} ({lift:+.3f})")
    lines += ["Reading: keeping " + (", ".join(up) or "no card") + " wins significantly more than "
              "keeping the card it was paired with (too strong, in this reconstruction); keeping "
              + (", ".join(down) or "no card") + " significantly less.", ""]
    return lines


def bonus_section(runs):
    lines = ["## Bonus cards (greedy; the games of the seat table, "
             + ", ".join(f"{p} players {r['games']}" for p, r in runs.items()) + " games, "
             + ", ".join(f"{r['capped']:.1%}" for r in runs.values()) + " capped)", "",
             "How often each bonus card's condition is met by its holder, and the holder's win share when",
             "it is met against when it is not (the lift). The greedy evaluation values a bonus card by",
             "the share of its condition met, so a card it rarely meets is one that is hard to steer toward.",
             "",
             "| bonus card | VP | " + " | ".join(f"{p}p: met / lift" for p in runs) + " |",
             "| --- | --- | " + " | ".join("---" for _ in runs) + " |"]
    names = [b["name"] for b in next(iter(runs.values()))["bonus"]]
    for i, name in enumerate(names):
        cells = []
        for r in runs.values():
            b = r["bonus"][i]
            cells.append(f"{b['met']:.3f} / {b['win_met'] - b['win_not']:+.3f}")
        lines.append(f"| {name} | {runs[next(iter(runs))]['bonus'][i]['vp']} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def sweep_section(cells):
    lines = [f"## Sweep: coins per VP and dice-limit prices ({SWEEP_PLAYERS} players, {SWEEP_GAMES} games a cell, greedy)", "",
             "Points per player by source; dice-limit raises per player and the share of players who",
             "raise at all; the win share of those who raised against those who did not; the start",
             "player's win share. A price at which raising is neither universal nor useless (raisers",
             "and the others winning alike) makes the dice limit a real decision.",
             "",
             "| ¥ per VP | dice-limit prices | capped | orders / bonus / coins VP | raises per player | players raising | raisers win | others win | start player wins | seats p |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for (rate, prices), r in cells.items():
        n = r["games"] * SWEEP_PLAYERS
        raisers = r["raisers"] * n
        lines.append(f"| {rate} | {prices} | {r['capped']:.1%} | {r['points'][0]:.2f} / {r['points'][1]:.2f} / {r['points'][2]:.2f} | "
                     f"{r['raises']:.2f} | {r['raisers']:.3f} | {ci(r['raiser_win'] * raisers, raisers)} | "
                     f"{ci(r['other_win'] * (n - raisers), n - raisers)} | "
                     f"{ci(r['start'] * r['games'], r['games'])} | {r['chi_p']:.3g} |")
    lines.append("")
    # The reading: for each rate, the prices whose raiser / non-raiser gap is smallest.
    out = []
    for rate in RATES:
        row = {p: cells[(rate, p)] for p in PRICES}
        best = min(row, key=lambda p: abs(row[p]["raiser_win"] - row[p]["other_win"])
                   + (1.0 if row[p]["raisers"] > 0.95 or row[p]["raisers"] < 0.05 else 0.0))
        b = row[best]
        out.append(f"at ¥{rate} a VP the prices {best} come nearest to a balanced choice "
                   f"({b['raisers']:.0%} raise; raisers win {b['raiser_win']:.3f}, the others {b['other_win']:.3f})")
    coin_share = {rate: cells[(rate, PRICES[0])]["points"][2] / sum(cells[(rate, PRICES[0])]["points"])
                  for rate in RATES}
    lines.append("Reading: " + "; ".join(out) + ". Coins are "
                 + ", ".join(f"{coin_share[r]:.1%} of the points at ¥{r}" for r in RATES)
                 + " (rulebook prices).")
    lines.append("")
    return lines


def variants(tmp):
    text = open(DATA).read()
    link = "arrange_of_category: {Drink: reroll, Dessert: change, Food: add}"
    out = {}
    for name, new in [("colour link Drink→change, Dessert→add, Food→reroll",
                       "arrange_of_category: {Drink: change, Dessert: add, Food: reroll}"),
                      ("colour link Drink→add, Dessert→reroll, Food→change",
                       "arrange_of_category: {Drink: add, Dessert: reroll, Food: change}")]:
        path = os.path.join(tmp, f"ginza_{len(out)}.yaml")
        assert link in text
        open(path, "w").write(text.replace(link, new))
        out[name] = path
    # Order VP moved: every rank I order worth 1 VP more, every rank III order 2 VP less.
    lines = []
    for line in text.splitlines():
        m = re.search(r"rank: (I|II|III), .* vp: (\d+)\}", line)
        if m:
            vp = int(m.group(2)) + {"I": 1, "II": 0, "III": -2}[m.group(1)]
            line = re.sub(r"vp: \d+\}", f"vp: {max(vp, 1)}}}", line)
        lines.append(line)
    path = os.path.join(tmp, "ginza_vp.yaml")
    open(path, "w").write("\n".join(lines) + "\n")
    out["order VP: rank I +1, rank III -2"] = path
    return out


def robust_section(base, rows):
    lines = [f"## Does it hold when the reconstructed values change? (3 players, {ROBUST_GAMES} games each, greedy)", "",
             "The colour link between order categories and Arrange cards and every order card's VP are",
             "reconstructed. The same measures on data files that change them (written by the script",
             "from the embedded file):", "",
             "| data | capped | start player wins | seats p | best-lift player card | worst-lift player card | most-met bonus card |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in [("embedded (reconstructed)", base)] + list(rows.items()):
        lifts = sorted(r["cards"], key=lambda c: c["win"] - c["decliner"])
        met = max(r["bonus"], key=lambda b: b["met"])
        lines.append(f"| {name} | {r['capped']:.1%} | {ci(r['start'] * r['games'], r['games'])} | {r['chi_p']:.3g} | "
                     f"{lifts[-1]['name']} ({lifts[-1]['win'] - lifts[-1]['decliner']:+.3f}) | "
                     f"{lifts[0]['name']} ({lifts[0]['win'] - lifts[0]['decliner']:+.3f}) | "
                     f"{met['name']} ({met['met']:.3f}) |")
    lines.append("")
    fair = 1 / 3
    above = [name for name, r in [("embedded", base)] + list(rows.items())
             if wilson(r["start"] * r["games"], r["games"])[0] > fair]
    worst = {min(r["cards"], key=lambda c: c["win"] - c["decliner"])["name"]
             for r in [base] + list(rows.values())}
    best = {max(r["cards"], key=lambda c: c["win"] - c["decliner"])["name"]
            for r in [base] + list(rows.values())}
    lines += [f"Reading: the start player's interval lies above the even share on {len(above)} of "
              f"{len(rows) + 1} data files; the weakest player card is {' / '.join(sorted(worst))} "
              f"and the strongest {' / '.join(sorted(best))} across them. The variant files are "
              "written by the script into a temporary folder.", ""]
    return lines


def main():
    out = sys.argv[2] if len(sys.argv) > 2 else "results/ginza_retro_cafe.md"
    t0 = time.time()
    runs = {p: play(p, g) for p, g in GAMES.items()}
    for p, r in runs.items():
        print(f"{p}p greedy: start {r['start']:.3f} ({r['seconds']:.0f} s)", file=sys.stderr)
    cells = {}
    for rate in RATES:
        for prices in PRICES:
            cells[(rate, prices)] = play(SWEEP_PLAYERS, SWEEP_GAMES, sets=[f"yen_per_vp={rate}",
                                                                           f"dice_limit_prices={prices}"])
    print(f"sweep done ({time.time() - t0:.0f} s)", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        base = play(3, ROBUST_GAMES)
        robust = {name: play(3, ROBUST_GAMES, data=path) for name, path in variants(tmp).items()}
    lines = [
        "# Ginza Retro Café: seats, start player, player cards, bonus cards, prices",
        "",
        "Regenerate: `bash results/ginza_retro_cafe.sh` (about 15 minutes on 2 cores). Embedded data",
        f"(`{DATA}`), default rules, master seed {SEED}, Wilson 95% intervals. Every game ends by",
        "the rules (no customer left): every customer leaves within 2 rounds, so no game can reach",
        "the round cap; the capped share is shown beside every table anyway.",
        "",
        "**Depends on reconstructed data**: every order card's condition, coins and VP, the customers'",
        "orders, seven of the eight player cards (only Yuko's is in the rulebook), the bonus cards'",
        "subcategories and the colour link between order categories and Arrange cards are",
        "reconstructed (`../shared/data/README.md`). The last section reruns the 3-player measures",
        "on data files that change the colour link and the order VP.",
        "",
        "**Agents**: every seat plays `greedy` (the evaluation in `agents/src/eval/ginza_retro_cafe.rs`),",
        "which beats random (README, \"Ginza Retro Café\"). Under MCTS, with 2,000 games per player",
        "count: results/ginza_retro_cafe_mcts.md (`bash results/ginza_retro_cafe_mcts.sh`).",
        "",
    ]
    lines += seat_section(runs)
    lines += ["## Game length and customers", "",
              "| players | games | capped | rounds per game | customers served | left unserved | share of customers who left |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for p, r in runs.items():
        lines.append(f"| {p} | {r['games']} | {r['capped']:.1%} | {r['rounds']:.2f} | {r['served']:.2f} | "
                     f"{r['left']:.2f} | {r['left_share']:.3f} |")
    lines.append("")
    lines += cards_section(runs[4])
    lines += bonus_section(runs)
    lines += sweep_section(cells)
    lines += robust_section(base, robust)
    lines += ["## Commands", ""]
    for r in list(runs.values()) + list(cells.values()) + [base] + list(robust.values()):
        lines.append(f"- `{r['command']}`")
    lines += ["", f"Total time {time.time() - t0:.0f} s.", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
