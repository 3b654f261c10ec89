#!/usr/bin/env bash
# Regenerates results/wok_star_robust.md and results/wok_star_variants/: the greedy team's win rate
# by difficulty on data variants whose reconstructed values differ.   (about 2 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
PYTHONPATH=results python3 results/wok_star_robust.py "$SHIFU" results/wok_star_robust.md
