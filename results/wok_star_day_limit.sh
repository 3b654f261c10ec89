#!/usr/bin/env bash
# Regenerates results/wok_star_day_limit.md: how often Wok Star days end at the model's 600 s day
# limit, greedy against paired-worlds MCTS.     bash results/wok_star_day_limit.sh  (about 6 minutes)
source "$(dirname "$0")/shifu.sh"
PYTHONPATH=results python3 results/wok_star_day_limit.py "$SHIFU" results/wok_star_day_limit.md
