"""Collects results/tofu_kingdom_*p_*.txt into the markdown tables of results/tofu_kingdom.md."""
import glob
import os
import re

here = os.path.dirname(os.path.abspath(__file__))


def read(p, who):
    path = os.path.join(here, f"tofu_kingdom_{p}p_{who}.txt")
    if not os.path.exists(path):
        return None
    text = open(path).read()
    r = {"text": text}
    r["games"] = int(re.search(r"players, (\d+) games", text).group(1))
    m = re.search(r"find rate by the Prince's seat \(of rounds she was dealt\): 1 ([0-9.]+) \[([0-9.]+), ([0-9.]+)\]", text)
    r["find1"] = m.groups()
    r["rounds_seat1"] = None
    m = re.search(r"Prince finds Princess Tofu: ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] of rounds she was dealt \((\d+) rounds\)", text)
    r["find_all"] = m.groups()
    m = re.search(r"heart ([0-9.]+) \[([0-9.]+), ([0-9.]+)\], crown ([0-9.]+) \[([0-9.]+), ([0-9.]+)\], mask ([0-9.]+) \[([0-9.]+), ([0-9.]+)\]", text)
    r["symbols"] = m.groups()
    m = re.search(r"points by faction of the scoring card: heart ([0-9.]+), crown ([0-9.]+), mask ([0-9.]+) \(shares of (\d+)", text)
    r["faction_points"] = m.groups()
    m = re.search(r"rounds: (\d+) in (\d+) games, ([0-9.]+) per game", text)
    r["rounds"] = m.groups()
    seats = re.findall(r"^\s+(\d+)\s+\S+\s+([0-9.]+)\s+\[([0-9.]+), ([0-9.]+)\]", text, re.M)
    r["seats"] = seats
    m = re.search(r"p = ([^;]+); balance \(1 - largest gap\) ([0-9.]+)", text)
    r["chi_p"], r["balance"] = m.groups()
    m = re.search(r"wall clock ([0-9.]+) s, CPU ([0-9.]+) s", text)
    r["time"] = m.groups() if m else ("?", "?")
    r["find_seat1_rounds"] = None
    return r


print("# Tofu Kingdom: first findings\n")
print("Regenerate with `bash results/tofu_kingdom.sh` (master seed 2026; reconstructed card data:")
print("the rewards are a PROPOSAL, see ../shared/data/README.md). Intervals are Wilson 95%. Rounds")
print("within a game are not independent, so the find-rate intervals are a little narrow.\n")
print("## How often Prince Mochi finds Princess Tofu, against greedy answerers\n")
print("Seat 1 plays the named agent, every other seat greedy. The rate is over the rounds in which")
print("seat 1 was Prince and Princess Tofu was dealt to a player (not left in the centre).\n")
print("| players | random Prince | greedy Prince | MCTS Prince (500 iterations) | games (random / greedy / MCTS) | chance (1 / (players - 1)) |")
print("| --- | --- | --- | --- | --- | --- |")
for p in range(3, 9):
    row = [str(p)]
    games = []
    for who in ["random", "greedy", "mcts"]:
        r = read(p, who)
        if r is None:
            row.append("-")
            games.append("-")
            continue
        f = r["find1"]
        row.append(f"{f[0]} [{f[1]}, {f[2]}]")
        games.append(str(r["games"]))
    row.append(" / ".join(games))
    row.append(f"{1 / (p - 1):.3f}")
    print("| " + " | ".join(row) + " |")
print("\n## Greedy self-play: winning symbol, factions, seats and length\n")
print("All seats greedy. Winning symbol by round: the upper-left symbol of the card the Prince named")
print("(heart = he found the Princess, crown = he named Queen Tofu, mask = anyone else). Points by")
print("faction: share of all points scored by cards of each faction.\n")
print("| players | games | heart rounds | crown rounds | mask rounds | heart / crown / mask points | mean rounds | seat win shares | chi-square p | balance |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for p in range(3, 9):
    r = read(p, "greedy")
    if r is None:
        continue
    s = r["symbols"]
    fp = r["faction_points"]
    seats = " / ".join(x[1] for x in r["seats"])
    print(f"| {p} | {r['games']} | {s[0]} [{s[1]}, {s[2]}] | {s[3]} [{s[4]}, {s[5]}] | {s[6]} [{s[7]}, {s[8]}] | {fp[0]} / {fp[1]} / {fp[2]} | {r['rounds'][2]} | {seats} | {r['chi_p']} | {r['balance']} |")
print("\n## Run times (2-core VM)\n")
print("| players | random | greedy | MCTS |")
print("| --- | --- | --- | --- |")
for p in range(3, 9):
    cells = []
    for who in ["random", "greedy", "mcts"]:
        r = read(p, who)
        cells.append("-" if r is None else f"{r['time'][0]} s wall, {r['time'][1]} s CPU")
    print(f"| {p} | " + " | ".join(cells) + " |")
