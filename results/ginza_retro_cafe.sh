#!/usr/bin/env bash
# Regenerates results/ginza_retro_cafe.md: Ginza Retro Café seat and start-player advantage,
# player cards, bonus cards, the coin-rate and dice-limit price sweep, game length, and the same
# measures on changed reconstructions.     bash results/ginza_retro_cafe.sh     (about 15 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
python3 results/ginza_retro_cafe.py "$SHIFU" results/ginza_retro_cafe.md
