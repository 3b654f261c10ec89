#!/usr/bin/env bash
# Regenerates results/wok_star_mcts_speed.md: how fast a strong (MCTS) 2-player Wok Star team must
# play to win each difficulty half the time.     bash results/wok_star_mcts_speed.sh  (about 5 minutes)
source "$(dirname "$0")/shifu.sh"
PYTHONPATH=results python3 results/wok_star_mcts_speed.py "$SHIFU" results/wok_star_mcts_speed.md
