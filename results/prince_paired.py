"""Seat 1's Prince in Tofu Kingdom: its find rate in each run, and each later run's paired
difference from the first on the same seeds.

    python3 results/prince_paired.py BASE.csv OTHER.csv...

Each CSV is a `shifu play --out` file of the same seeds (master seed and game count) with a
different agent in seat 1. The rate is finds over the rounds seat 1 was Prince (`finds_1 /
prince_rounds_1`; Wilson 95%); beside it, from the run's text output (the same name with
`.txt`), seat 1's rate over the rounds Princess Tofu was dealt, results/tofu_kingdom.md's measure. The paired difference is per game: seat 1's finds minus the
base run's in the game of the same seed, divided by the base run's mean Prince rounds a game,
with a normal 95% interval over games (the games are the independent units)."""
import csv
import math
import os
import re
import sys

# The shared Wilson interval of the results scripts.
from ginza_retro_cafe import wilson  # noqa: E402

Z = 1.959964


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no games")
    return rows


def dealt(csv_path):
    """Seat 1's find rate over the rounds she was dealt, as the run's text prints it."""
    txt = os.path.splitext(csv_path)[0] + ".txt"
    if not os.path.exists(txt):
        return "(no text output)"
    m = re.search(r"find rate by the Prince's seat \(of rounds she was dealt\): 1 (\S+ \[[^]]+\])",
                  open(txt).read())
    return m.group(1) if m else "(not in the text output)"


def main(paths):
    runs = [(p, load(p)) for p in paths]
    base_path, base = runs[0]
    by_seed = {r["seed"]: r for r in base}
    rounds = sum(int(r["prince_rounds_1"]) for r in base) / len(base)
    print("| run | seat 1 agent | games | capped | seat 1 finds / Prince rounds | 95% CI | minus the first run, paired | 95% CI | of rounds she was dealt |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for i, (path, rows) in enumerate(runs):
        finds = sum(int(r["finds_1"]) for r in rows)
        held = sum(int(r["prince_rounds_1"]) for r in rows)
        capped = sum(r["capped"] == "true" for r in rows)
        lo, hi = wilson(finds, held)
        agent = rows[0]["agents"].split("|")[0]
        if i == 0:
            diff = ("", "")
        else:
            d = []
            for r in rows:
                b = by_seed.get(r["seed"])
                if b is None:
                    sys.exit(f"{path}: seed {r['seed']} is not in {base_path}")
                d.append((int(r["finds_1"]) - int(b["finds_1"])) / rounds)
            m = sum(d) / len(d)
            sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1))
            h = Z * sd / math.sqrt(len(d))
            diff = (f"{m:+.3f}", f"[{m - h:+.3f}, {m + h:+.3f}]")
        print(f"| {os.path.basename(path)} | {agent} | {len(rows)} | {capped} | {finds / held:.3f} ({finds}/{held}) | [{lo:.3f}, {hi:.3f}] | {diff[0]} | {diff[1]} | {dealt(path)} |")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:])
