#!/usr/bin/env bash
# Regenerates results/wok_star.md: Wok Star team win rates by difficulty, player count and agent;
# where games are lost; win rate against speed; the income goals for a 70/50/30% team; the effect
# of the optional events and powers.     bash results/wok_star.sh     (about 10 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
python3 results/wok_star.py "$SHIFU" results/wok_star.md
