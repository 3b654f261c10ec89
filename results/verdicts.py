"""Equivalence verdicts (TOST at ±0.02, as experiments/src/equivalence.rs computes them) for the
committed Tofu Shifu findings (results/findings/<data>/<study>.csv.gz), for results/README.md.
Usage: python3 results/verdicts.py [MARGIN]"""

import csv
import gzip
import math
import os
import sys
from statistics import NormalDist

N = NormalDist()
MARGIN = float(sys.argv[1]) if len(sys.argv) > 1 else 0.02


def verdict(shares, games):
    k = len(shares)
    fair = 1 / k
    p_eq, p_diff, need_eq, need_diff = 0.0, 1.0, 0.0, math.inf
    for p in shares:
        sd = math.sqrt(max(p * (1 - p), 0.0))
        se = max(sd / math.sqrt(games), 1 / games)
        d = p - fair
        p_eq = max(p_eq, 1 - N.cdf((d + MARGIN) / se), 1 - N.cdf((MARGIN - d) / se))
        p_diff = min(p_diff, 2 * (1 - N.cdf(abs(d) / se)))
        zp = N.inv_cdf(0.8)
        need_eq = max(need_eq, ((N.inv_cdf(0.95) + zp) * sd / (MARGIN - abs(d))) ** 2) if abs(d) < MARGIN else math.inf
        if d != 0:
            need_diff = min(need_diff, ((N.inv_cdf(1 - 0.05 / (2 * k)) + zp) * sd / abs(d)) ** 2)
    p_diff = min(1.0, p_diff * k)
    if p_eq < 0.05:
        return "fair", p_eq, None
    if p_diff < 0.05:
        return "unfair", p_diff, None
    return "undetermined", p_eq, math.ceil(min(need_eq, need_diff))


def shares(path):
    with gzip.open(path, "rt") as f:
        rows = list(csv.DictReader(f))
    seats = int(rows[0]["players"])
    win = [0.0] * seats
    for r in rows:
        w = [int(x) - 1 for x in r["winners"].split("|") if x] if "|" in r["winners"] or r["winners"].isdigit() else []
        for s in w:
            win[s] += 1 / len(w)
    return [x / len(rows) for x in win], len(rows)


for data in ("calibrated", "alternative", "reconstructed"):
    d = f"{os.path.dirname(__file__) or '.'}/findings/{data}"
    for name in sorted(os.listdir(d)):
        if not name.endswith(".csv.gz"):
            continue
        s, n = shares(f"{d}/{name}")
        v, p, need = verdict(s, n)
        print(f"{data:13} {name[:-7]:20} {n:5} games  " + " ".join(f"{x:.3f}" for x in s)
              + f"  {v} (p = {p:.2g})" + (f", about {need:,} games would settle it" if need else ""))
