#!/usr/bin/env bash
# Regenerates results/agents_ladder.md: the agent strength ladder for Tofu Shifu.
#   bash results/agents_ladder.sh            (about 45 minutes on 2 cores)
# Every duel rotates agent A through every seat on the same seeds; MCTS budgets are in
# iterations, so the numbers do not depend on the machine's speed.
source "$(dirname "$0")/shifu.sh"
out=results/agents_ladder.md
duel() { "$SHIFU" duel --markdown --seed 2026 "$@" | tail -n 1; }
{
  echo "# Agent ladder, Tofu Shifu (reconstructed data)"
  echo
  echo "Regenerate: \`bash results/agents_ladder.sh\`. Each row: agent A in one seat, agent B in"
  echo "every other seat, A rotated through every seat on the same seeds (master seed 2026)."
  echo "Win share counts a shared win as 1/k. 95% intervals are Wilson score intervals."
  echo "MCTS defaults: c=0.7, random rollouts cut at depth 60 and scored by the heuristic, rank reward."
  echo
  echo "| A | B | players | games | A win share | 95% CI | capped | mean rounds |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  duel --players 4 --agents greedy,random --seeds 250
  duel --players 2 --agents greedy,random --seeds 250
  duel --players 2 --agents mcts:iters=100,greedy --seeds 100
  duel --players 2 --agents mcts:iters=1000,greedy --seeds 50
  duel --players 2 --agents mcts:iters=1000,mcts:iters=100 --seeds 50
  duel --players 2 --agents mcts:iters=10000,greedy --seeds 10
  duel --players 2 --agents mcts:iters=10000,mcts:iters=1000 --seeds 30
  echo
  echo "Generated $(date -u +%Y-%m-%d) on $(nproc) cores."
} > "$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
