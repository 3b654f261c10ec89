#!/usr/bin/env bash
# Regenerates results/sweep_*.{txt,md,heatmap.svg}: which start coins by seat and which town
# objective coin costs balance four-player Tofu Shifu, for random and greedy play.
#   bash results/sweeps.sh      (about 5 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
sweep() {
  local name=$1; shift
  "$SHIFU" sweep --players 4 --seed 2026 --out "results/$name.csv" "$@" > "results/$name.txt"
  "$SHIFU" report "results/$name.csv" --out "results/$name.md"
}
coins="start_coins=1,2,2,3/2,2,2,2/0,1,2,3/1,1,2,2/3,2,2,1"
sweep sweep_start_coins_random --agents random --games 20000 --vary "$coins"
sweep sweep_start_coins_greedy --agents greedy --games 2000 --vary "$coins"
sweep sweep_town_cost_random --agents random --games 20000 --vary town_objective_cost_scale=0.5,1,1.5
sweep sweep_town_cost_greedy --agents greedy --games 2000 --vary town_objective_cost_scale=0.5,1,1.5
cat results/sweep_*.txt
