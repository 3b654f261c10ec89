#!/usr/bin/env bash
# Regenerates results/memory.txt: peak memory of a four-player run writing its CSV, at 100,000
# and at 1,000,000 games (random agents, default data): memory stays flat as the game count grows.
#     bash results/memory.sh      (about 8 minutes on 2 cores)
source "$(dirname "$0")/shifu.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
peak() { # peak GAMES
  /usr/bin/time -v "$SHIFU" play --players 4 --games "$1" --seed 2026 --quiet \
    --out "$tmp/run.csv" > /dev/null 2> "$tmp/time.txt"
  rm -f "$tmp"/run.csv*
  echo "$(grep 'Maximum resident' "$tmp/time.txt" | awk '{print $NF}') kB peak, $(grep 'Elapsed' "$tmp/time.txt" | awk '{print $NF}') wall clock"
}
{
  echo "peak memory, 4 players, random agents, default data, --out CSV, $(nproc) cores:"
  echo "  100,000 games: $(peak 100000)"
  echo "  1,000,000 games: $(peak 1000000)"
} > results/memory.txt
cat results/memory.txt
