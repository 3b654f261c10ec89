#!/usr/bin/env bash
# Regenerates results/wok_star_mcts.md: Wok Star MCTS (paired-worlds root) against the greedy team,
# with Wilson intervals.     bash results/wok_star_mcts.sh     (about two hours on 2 cores)
source "$(dirname "$0")/shifu.sh"
PYTHONPATH=results python3 results/wok_star_mcts.py "$SHIFU" results/wok_star_mcts.md
