#!/usr/bin/env python3
"""Two agents' scores against the same opponent, paired on the seeds: each agent's win share
over the seats it sat in, and the paired difference.

    python3 results/paired_seats.py A_SEAT1.csv A_SEAT2.csv -- B_SEAT1.csv B_SEAT2.csv

Each CSV is a `shifu play --out` file of 2-player games on the same master seed and game count,
the agent under test in seat 1 of the first file and in seat 2 of the second (for example
`--agents A,MCTS` then `--agents MCTS,A`). A game's score for a seat is 1 when it won alone, 1/k
in a k-way tie for first, 0 otherwise. Per seed, an agent's score is the mean over its two seats;
the paired difference is A's minus B's on the same seed, with a normal 95% interval over seeds
(the seeds are the independent units). A game stopped by the round cap decides nothing: a seed
with a capped game in any of the four files is left out of every figure, and counted.
Standard library only."""
import csv
import math
import sys

Z = 1.959964


def fail(message):
    """A bad file or argument: the message on standard error, exit code 2."""
    print(f"paired_seats.py: {message}", file=sys.stderr)
    sys.exit(2)


def scores(path, seat):
    """Seat `seat` (1-based) of every game in `path`, by seed: its share of the win."""
    out = {}
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail(f"{path}: cannot read: {e}")
    missing = {"game", "seed", "players", "capped", "winners"} - set(rows[0] if rows else {})
    if rows and missing:
        fail(f"{path}: not a `shifu play --out` file (no column {', '.join(sorted(missing))})")
    if short_line(rows):
        fail(f"{path}: line {short_line(rows)} has fewer fields than the header (truncated?)")
    for row in rows:
        if row["players"] != "2":
            fail(f"{path}: game {row['game']} has {row['players']} players, not 2")
        if row["capped"] == "true":
            out[row["seed"]] = None
            continue
        winners = row["winners"].split("|")
        out[row["seed"]] = 1.0 / len(winners) if str(seat) in winners else 0.0
    if not out:
        fail(f"{path}: no games")
    return out


def short_line(rows):
    """The file line of the first row with fewer fields than the header (a truncated file), or
    None."""
    return next((n for n, row in enumerate(rows, start=2) if None in row.values()), None)


def arm(first, second):
    """An agent's mean score per seed over its two seats."""
    a, b = scores(first, 1), scores(second, 2)
    if a.keys() != b.keys():
        fail(f"{first} and {second} are not the same seeds")
    return {s: None if a[s] is None or b[s] is None else (a[s] + b[s]) / 2 for s in a}


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    h = Z * sd / math.sqrt(n)
    return m, m - h, m + h


def paired_difference(a, b, seeds):
    """The mean of a[s] - b[s] over `seeds` with its normal 95% interval, and the number of
    seeds where a is higher and where b is."""
    d = [a[s] - b[s] for s in seeds]
    m, lo, hi = mean_ci(d)
    return m, lo, hi, sum(1 for x in d if x > 0), sum(1 for x in d if x < 0)


def main(argv):
    if len(argv) != 5 or argv[2] != "--":
        fail(__doc__)
    a, b = arm(argv[0], argv[1]), arm(argv[3], argv[4])
    if a.keys() != b.keys():
        fail("the two agents' files are not the same seeds")
    capped = [s for s in a if a[s] is None or b[s] is None]
    seeds = sorted(s for s in a if s not in capped)
    print(f"{len(capped)} of {len(a)} seeds left out: a game of theirs was capped")
    if len(seeds) < 2:
        fail("fewer than two seeds without a capped game")
    for name, x in (("A", a), ("B", b)):
        m, lo, hi = mean_ci([x[s] for s in seeds])
        print(f"{name}: score {m:.4f} [{lo:.4f}, {hi:.4f}] over {2 * len(seeds)} games")
    m, lo, hi, only_a, only_b = paired_difference(a, b, seeds)
    print(
        f"A minus B, paired on {len(seeds)} seeds: {m:+.4f} [{lo:+.4f}, {hi:+.4f}] "
        f"({only_a} seeds better for A, {only_b} for B)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
