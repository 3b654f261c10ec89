#!/usr/bin/env bash
# Regenerates results/ginza_retro_cafe_mcts.md: Ginza Retro Café MCTS against greedy, and seat and
# start-player advantage with every seat MCTS (2,000 games per player count).
#     bash results/ginza_retro_cafe_mcts.sh     (about 45 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
PYTHONPATH=results python3 results/ginza_retro_cafe_mcts.py "$SHIFU" results/ginza_retro_cafe_mcts.md
