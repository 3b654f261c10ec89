#!/usr/bin/env bash
# Regenerates results/seats_random_{2,3,4}p.{txt,md,seats.svg}: first-player advantage of Tofu
# Shifu between random agents, 1,000,000 games per player count, plus peak memory of the 4-player
# run at 100,000 and 1,000,000 games.     bash results/seats_random.sh   (about 15 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in 2 3 4; do
  /usr/bin/time -v "$SHIFU" seats --players "$p" --games 1000000 --seed 2026 --quiet \
    --out "$tmp/seats_random_${p}p.csv" > "results/seats_random_${p}p.txt" 2> "$tmp/time_${p}.txt"
  grep -E "Maximum resident set size|Elapsed" "$tmp/time_${p}.txt" >> "results/seats_random_${p}p.txt"
  "$SHIFU" report "$tmp/seats_random_${p}p.csv" --out "results/seats_random_${p}p.md"
done
/usr/bin/time -v "$SHIFU" seats --players 4 --games 100000 --seed 2026 --quiet \
  --out "$tmp/small.csv" > /dev/null 2> "$tmp/time_small.txt"
{
  echo "peak memory, 4 players, --out CSV:"
  echo "  100,000 games: $(grep 'Maximum resident' "$tmp/time_small.txt" | awk '{print $NF}') kB"
  echo "  1,000,000 games: $(grep 'Maximum resident' "$tmp/time_4.txt" | awk '{print $NF}') kB"
} > results/seats_random_memory.txt
cat results/seats_random_*p.txt results/seats_random_memory.txt
