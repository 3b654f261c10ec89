#!/usr/bin/env python3
"""Two duels on the same seeds, paired: agent A of the first file against agent A of the second,
each having played the same opponent B on the same master seed and seeds.

    python3 results/paired_duels.py FIRST.csv SECOND.csv

Each file is a `shifu duel --out` file. Per seed, an agent's score is its mean win share over
the seats it sat in (at n players, 1/n is equal strength; in a cooperative game, A's team's
result); the paired difference is the first file's minus the second's on the same seed, with a
normal 95% interval over seeds (the seeds are the independent units). A game stopped by the
round cap decides nothing: a seed with a capped game in either file is left out of every
figure, and counted. The files do not name their agents: that B is the same in both is the
caller's to ensure. Standard library only."""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_seats import mean_ci, paired_difference, short_line  # noqa: E402

COLUMNS = {"players", "master_seed", "seed_index", "a_seat", "side", "win_share", "capped"}


def fail(message):
    """A bad file or argument: the message on standard error, exit code 2."""
    print(f"paired_duels.py: {message}", file=sys.stderr)
    sys.exit(2)


def per_seed(path):
    """The file's players, master seed, games' keys, and A's mean score by seed (None: capped)."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail(f"{path}: cannot read: {e}")
    if not rows:
        fail(f"{path}: no games")
    missing = COLUMNS - set(rows[0])
    if missing:
        fail(f"{path}: not a `shifu duel --out` file (no column {', '.join(sorted(missing))})")
    if short_line(rows):
        fail(f"{path}: line {short_line(rows)} has fewer fields than the header (truncated?)")
    heads = {(r["players"], r["master_seed"]) for r in rows}
    if len(heads) != 1:
        fail(f"{path}: rows of more than one duel (players and master seed differ)")
    players = next(iter(heads))[0]
    if not players.isdigit() or int(players) < 1:
        fail(f"{path}: players is {players!r}, not a positive whole number")
    scores, capped, keys = {}, set(), set()
    for r in rows:
        keys.add((r["seed_index"], r["a_seat"], r["side"]))
        if r["capped"] not in ("true", "false"):
            fail(f"{path}: seed {r['seed_index']}: capped is {r['capped']!r}, not true or false")
        if r["capped"] == "true":
            capped.add(r["seed_index"])
        if r["side"] != "A":
            continue  # a cooperative duel's B team: the same opponent's games, not A's
        try:
            share = float(r["win_share"])
        except ValueError:
            fail(f"{path}: seed {r['seed_index']}: win_share {r['win_share']!r} is not a number")
        if not 0.0 <= share <= 1.0:
            fail(f"{path}: seed {r['seed_index']}: win_share {share} is outside 0 to 1")
        scores.setdefault(r["seed_index"], []).append(share)
    means = {s: None if s in capped else sum(v) / len(v) for s, v in scores.items()}
    return heads.pop(), keys, means


def main(argv):
    if len(argv) != 2:
        fail(__doc__)
    (head_a, keys_a, a), (head_b, keys_b, b) = per_seed(argv[0]), per_seed(argv[1])
    if head_a != head_b:
        fail(
            f"{argv[0]} and {argv[1]} are not the same duel seeds: players and master seed "
            f"{head_a} against {head_b}"
        )
    if keys_a != keys_b:
        fail(f"{argv[0]} and {argv[1]} are not the same seeds and seats")
    players = int(head_a[0])
    left_out = [s for s in a if a[s] is None or b[s] is None]
    seeds = sorted((s for s in a if s not in left_out), key=int)
    print(f"{len(left_out)} of {len(a)} seeds left out: a game of theirs was capped")
    if len(seeds) < 2:
        fail("fewer than two seeds without a capped game")
    games = sum(1 for k in keys_a if k[2] == "A" and k[0] in seeds)
    for name, x in (("first", a), ("second", b)):
        m, lo, hi = mean_ci([x[s] for s in seeds])
        print(
            f"{name}: A's score {m:.4f} [{lo:.4f}, {hi:.4f}] over {games} games "
            f"(equal strength at {players} players: {1 / players:.4f})"
        )
    m, lo, hi, better_first, better_second = paired_difference(a, b, seeds)
    print(
        f"first minus second, paired on {len(seeds)} seeds: {m:+.4f} [{lo:+.4f}, {hi:+.4f}] "
        f"({better_first} seeds better for the first, {better_second} for the second)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
