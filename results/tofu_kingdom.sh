#!/usr/bin/env bash
# Regenerates results/tofu_kingdom_{3..8}p_{random,greedy,mcts}.txt and results/tofu_kingdom.md:
# for 3 to 8 players, a random, greedy or MCTS player in seat 1 against greedy players in every
# other seat. Seat 1's find rate is that agent's rate as Prince Mochi against greedy answerers;
# the all-greedy runs give the winning symbol and faction shares, seat advantage and game length.
#   bash results/tofu_kingdom.sh     (about 25 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
MCTS="mcts:iters=500"
for p in 3 4 5 6 7 8; do
  for who in random greedy mcts; do
    case $who in
      random) first=random; games=1000 ;;
      greedy) first=greedy; games=1000 ;;
      mcts) first=$MCTS; games=300 ;;
    esac
    agents=$first
    for _ in $(seq 2 "$p"); do agents="$agents,greedy"; done
    /usr/bin/time -f "wall clock %e s, CPU %U s" "$SHIFU" play --game tofu-kingdom --players "$p" \
      --agents "$agents" --games "$games" --seed 2026 --quiet \
      > "results/tofu_kingdom_${p}p_${who}.txt" 2> "results/tofu_kingdom.time"
    cat results/tofu_kingdom.time >> "results/tofu_kingdom_${p}p_${who}.txt"
  done
done
rm -f results/tofu_kingdom.time
python3 results/tofu_kingdom_table.py > results/tofu_kingdom.md
cat results/tofu_kingdom.md
