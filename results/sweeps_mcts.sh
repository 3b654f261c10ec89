#!/usr/bin/env bash
# Regenerates results/sweep_{start_coins,town_cost}_mcts.{txt,csv,md,heatmap.svg}: the start-coin
# and town-objective-cost sweeps of sweeps.sh with every seat played by MCTS (100 iterations per
# decision), 300 games per cell, four players.   bash results/sweeps_mcts.sh  (about 30 minutes)
source "$(dirname "$0")/shifu.sh"
sweep() {
  local name=$1; shift
  /usr/bin/time -f "wall clock %e s, CPU %U s user" \
    "$SHIFU" sweep --players 4 --seed 2026 --out "results/$name.csv" "$@" \
    > "results/$name.txt" 2> "results/$name.time"
  cat "results/$name.time" >> "results/$name.txt" && rm "results/$name.time"
  "$SHIFU" report "results/$name.csv" --out "results/$name.md"
}
mcts="mcts:iters=100"
sweep sweep_start_coins_mcts --agents "$mcts" --games 300 --vary "start_coins=1,2,2,3/2,2,2,2/0,1,2,3"
sweep sweep_town_cost_mcts --agents "$mcts" --games 300 --vary town_objective_cost_scale=0.5,1,1.5
cat results/sweep_*_mcts.txt
