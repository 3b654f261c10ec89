#!/usr/bin/env bash
# Regenerates results/seats_{greedy,mcts}_{2,3,4}p.{txt,md,seats.svg}: first-player advantage of
# Tofu Shifu when every seat plays greedy (20,000 games per player count) or MCTS with 100
# iterations per decision (500 games per player count). Each .txt ends with the run's wall-clock
# time, CPU time and peak memory.     bash results/seats_agents.sh   (about 25 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
study() {
  local name=$1 agent=$2 games=$3
  for p in 2 3 4; do
    /usr/bin/time -v "$SHIFU" seats --players "$p" --agents "$agent" --games "$games" --seed 2026 \
      --quiet --out "$tmp/${name}_${p}p.csv" > "results/${name}_${p}p.txt" 2> "$tmp/time.txt"
    grep -E "Elapsed|User time|System time|Maximum resident set size" "$tmp/time.txt" \
      >> "results/${name}_${p}p.txt"
    "$SHIFU" report "$tmp/${name}_${p}p.csv" --out "results/${name}_${p}p.md"
  done
}
study seats_greedy greedy 20000
study seats_mcts mcts:iters=100 500
cat results/seats_greedy_*p.txt results/seats_mcts_*p.txt
