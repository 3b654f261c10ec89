#!/usr/bin/env python3
"""Side-by-side tables of the Tofu Shifu headline findings, from the per-game CSV files that
results/findings.sh writes (results/findings/<data>/<study>.csv.gz), on every data set.

    python3 results/findings_table.py results/findings > results/findings.md

Standard library only. Win shares count a shared win as 1/k; intervals are Wilson 95% score
intervals; p-values are Pearson's chi-square against equal chances by seat.
"""
import csv
import gzip
import math
import os
import sys

DATA = [
    ("calibrated", "calibrated (default)"),
    ("reconstructed", "first reconstruction"),
    ("alternative", "alternative calibration"),
]


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def chi2_sf(x, df):
    """Survival function of the chi-square distribution for df = 1, 2 or 3."""
    if df == 1:
        return math.erfc(math.sqrt(x / 2))
    if df == 2:
        return math.exp(-x / 2)
    if df == 3:
        return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    raise ValueError(df)


def fmt_p(p):
    return "< 1e-300" if p < 1e-300 else f"{p:.2g}"


class Study:
    """One run file: per-seat win shares, game length, capped share and the game's events."""

    def __init__(self, path):
        self.path = path
        self.wall = ""
        txt = path[: -len(".csv.gz")] + ".txt"
        if os.path.exists(txt):
            for line in open(txt):
                if line.startswith("wall clock:"):
                    self.wall = line.split(":", 1)[1].split(" on ")[0].strip()
        with gzip.open(path, "rt", newline="") as f:
            rows = list(csv.DictReader(f))
        self.n = len(rows)
        self.seats = int(rows[0]["players"])
        self.wins = [0.0] * self.seats
        self.triggers = [0] * self.seats
        self.rounds = [int(r["rounds"]) for r in rows]
        self.capped = sum(r["capped"] == "true" for r in rows)
        self.coins_out = sum(r["coins_out_round"] != "" for r in rows)
        self.deck_out = sum(r["deck_out_round"] != "" for r in rows)
        for r in rows:
            w = [int(x) - 1 for x in r["winners"].split("|") if x]
            for s in w:
                self.wins[s] += 1 / len(w)
            if r["end_trigger"]:
                self.triggers[int(r["end_trigger"]) - 1] += 1

    def share(self, s):
        return self.wins[s] / self.n

    def share_ci(self, s):
        lo, hi = wilson(self.wins[s], self.n)
        return f"{self.share(s):.3f} [{lo:.3f}, {hi:.3f}]"

    def p(self):
        total = sum(self.wins)
        e = total / self.seats
        x = sum((w - e) ** 2 / e for w in self.wins)
        return chi2_sf(x, self.seats - 1)

    def balance(self):
        r = [self.share(s) for s in range(self.seats)]
        return 1 - (max(r) - min(r))

    def mean_rounds(self):
        n = self.n
        m = sum(self.rounds) / n
        var = sum((x - m) ** 2 for x in self.rounds) / max(1, n - 1)
        return f"{m:.1f} ± {1.96 * math.sqrt(var / n):.1f}"

    def capped_text(self):
        lo, hi = wilson(self.capped, self.n)
        warn = " (!)" if self.capped / self.n > 0.05 else ""
        return f"{100 * self.capped / self.n:.1f}%{warn}"

    def trigger_text(self):
        t = sum(self.triggers)
        return " / ".join(f"{x / max(1, t):.3f}" for x in self.triggers)


def load(root, data, name):
    path = os.path.join(root, data, name + ".csv.gz")
    return Study(path) if os.path.exists(path) else None


def header(cols):
    print("| " + " | ".join(cols) + " |")
    print("|" + " --- |" * len(cols))


def seats_table(root):
    print("## Seat win shares under MCTS self-play")
    print()
    for p in (2, 3, 4):
        print(f"### {p} players")
        print()
        header(["data", "games"] + [f"seat {s + 1}" for s in range(p)]
               + ["chi-square p", "balance", "capped", "mean rounds", "end triggered by seat",
                  "wall clock"])
        for data, label in DATA:
            st = load(root, data, f"seats_{p}p")
            if st is None:
                continue
            print("| " + " | ".join(
                [label, str(st.n)] + [st.share_ci(s) for s in range(p)]
                + [fmt_p(st.p()), f"{st.balance():.3f}", st.capped_text(), st.mean_rounds(),
                   st.trigger_text(), st.wall]) + " |")
        print()


def cells_table(title, cells, root, note):
    print(f"## {title}")
    print()
    print(note)
    print()
    header(["data", "cell", "games", "seat 1", "seat 2", "seat 3", "seat 4", "chi-square p",
            "balance", "capped", "mean rounds", "end triggered by seat", "wall clock"])
    for data, label in DATA:
        best = None
        for name, cell in cells:
            st = load(root, data, name)
            if st is None:
                continue
            if best is None or st.balance() > best[1]:
                best = (cell, st.balance())
            print("| " + " | ".join(
                [label, cell, str(st.n)] + [st.share_ci(s) for s in range(4)]
                + [fmt_p(st.p()), f"{st.balance():.3f}", st.capped_text(), st.mean_rounds(),
                   st.trigger_text(), st.wall])
                + " |")
        if best:
            print(f"| {label} | most balanced: **{best[0]}** | | | | | | | | | | | |")
    print()


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "results/findings"
    print("# Tofu Shifu findings on three reconstructions")
    print()
    print("Generated by `bash results/findings.sh` from the per-game files in results/findings/.")
    print("Every study: MCTS-200 in every seat (MCTS defaults otherwise), four players unless")
    print("stated, the same master seed (2026) in every cell of a comparison, so cells differ only")
    print("by what they vary. Win shares count a shared win as 1/k, with Wilson 95% intervals.")
    print("Cells marked (!) had more than 5% of games stopped by the round cap.")
    print()
    seats_table(root)
    cells_table(
        "Start coins (4 players)",
        [("seats_4p", "1,2,2,3 (rulebook)"), ("coins_2222", "2,2,2,2"),
         ("coins_0123", "0,1,2,3"), ("coins_1123", "1,1,2,3")],
        root, "Each cell sets `start_coins`; 1,2,2,3 is the seat study above.")
    cells_table(
        "Town-objective coin costs (4 players)",
        [("town_0.5", "town_objective_cost_scale=0.5"), ("seats_4p", "1 (as the data)"),
         ("town_1.5", "town_objective_cost_scale=1.5")],
        root, "Every Town objective's coin cost (the coin stack's included) times the scale.")
    cells_table(
        "Coins, turn order or end rule? (4 players)",
        [("seats_4p", "1,2,2,3, after the round (rulebook)"),
         ("coins_2222", "2,2,2,2, after the round"),
         ("end_immediate", "1,2,2,3, immediate end"),
         ("end_immediate_2222", "2,2,2,2, immediate end")],
        root,
        "Equal coins remove the coin difference; `end_rule=immediate` ends the game with the "
        "turn that reaches 8 objectives, so later seats lose the turns the rulebook's "
        "end-of-round gives them. What remains with equal coins and the rulebook's end is the "
        "turn order.")


if __name__ == "__main__":
    main()
