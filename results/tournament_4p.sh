#!/usr/bin/env bash
# Regenerates results/tournament_4p.txt: random, greedy and MCTS-200 in four-player Tofu Shifu,
# every line-up (each agent at least once: AABC, ABBC, ABCC) in all 12 seat orders on 20 seeds,
# rated by Plackett-Luce on the Elo scale.    bash results/tournament_4p.sh   (about 10 minutes)
source "$(dirname "$0")/shifu.sh"
/usr/bin/time -f "wall clock %e s, CPU %U s" "$SHIFU" tournament --players 4 \
  --agents random,greedy,mcts:iters=200 --seeds 20 --seed 2026 \
  > results/tournament_4p.txt 2> results/tournament_4p.time
cat results/tournament_4p.time >> results/tournament_4p.txt && rm results/tournament_4p.time
cat results/tournament_4p.txt
