#!/usr/bin/env bash
# Regenerates results/agents_ladder.md: the agent strength ladder for Tofu Shifu on the default
# (calibrated) data.     bash results/agents_ladder.sh     (about 25 minutes on 2 cores)
# Every duel rotates agent A through every seat on the same seeds; MCTS budgets are in
# iterations, so the numbers do not depend on the machine's speed.
source "$(dirname "$0")/shifu.sh"
out=results/agents_ladder.md
duel() { "$SHIFU" duel --markdown --seed 2026 "$@" | tail -n 1; }
start=$SECONDS
{
  echo "# Agent ladder, Tofu Shifu (calibrated default data)"
  echo
  echo "Regenerate: \`bash results/agents_ladder.sh\`. Each row: agent A in one seat, agent B in"
  echo "every other seat, A rotated through every seat on the same seeds (master seed 2026)."
  echo "Win share counts a shared win as 1/k; equal strength is 1/players. 95% intervals are"
  echo "Wilson score intervals. MCTS defaults: c=0.7, random rollouts cut at depth 60 and scored"
  echo "by each seat's heuristic margin (logistic, scale 3), rank reward at the end."
  echo
  echo "| A | B | players | games | A win share | 95% CI | capped | mean rounds |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  duel --players 4 --agents greedy,random --seeds 250
  duel --players 2 --agents greedy,random --seeds 250
  duel --players 4 --agents mcts:iters=200,greedy --seeds 100
  duel --players 2 --agents mcts:iters=200,greedy --seeds 200
  duel --players 2 --agents mcts:iters=1000,greedy --seeds 100
  duel --players 2 --agents mcts:iters=1000,mcts:iters=200 --seeds 100
  duel --players 2 --agents mcts:iters=5000,mcts:iters=1000 --seeds 30
  echo
  echo "Generated $(date -u +%Y-%m-%d) on $(nproc) cores in $((SECONDS - start)) s of wall clock."
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
