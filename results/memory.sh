#!/usr/bin/env bash
# Regenerates results/memory.txt: peak memory (peak RSS) of `shifu play --out` runs of 100,000
# random games and of 10,000,000 (Tofu Shifu: 1,000,000, as its 10,000,000 random games take
# about 30 minutes of 2 cores; set TS_GAMES=10000000 for them), on the default data: memory stays
# flat as the game count grows (the rows are saved every 4,096 games, and no thread runs more than
# 4,096 games ahead of the earliest unfinished one).
#     bash results/memory.sh      (about 30 minutes on 2 cores; about 1.5 GB of free disk for the
#                                  largest CSV)
source "$(dirname "$0")/shifu.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("tofu-shifu 4 ${TS_GAMES:-1000000}" "tofu-kingdom 5 10000000" "wok-star 4 10000000"
  "ginza-retro-cafe 4 10000000")
{
  echo "peak memory of shifu play --out FILE (random agents, default data, seed 2026, $(nproc) threads)"
  echo "command: shifu play --game GAME --players P --agents random --games N --seed 2026 --quiet --out FILE, under /usr/bin/time -v"
  echo
  printf '%-18s %7s %11s %14s %11s %12s\n' game players games "peak RSS kB" "wall clock" "CSV bytes"
  for c in "${cases[@]}"; do
    read -r game players most <<< "$c"
    for n in 100000 "$most"; do
      /usr/bin/time -v "$SHIFU" play --game "$game" --players "$players" --agents random --games "$n" --seed 2026 \
        --quiet --out "$tmp/run.csv" > /dev/null 2> "$tmp/time.txt"
      size=$(stat -c %s "$tmp/run.csv")
      rm -f "$tmp"/run.csv*
      rss=$(grep 'Maximum resident' "$tmp/time.txt" | awk '{print $NF}')
      wall=$(grep 'Elapsed' "$tmp/time.txt" | awk '{print $NF}')
      printf '%-18s %7s %11s %14s %11s %12s\n' "$game" "$players" "$n" "$rss" "$wall" "$size"
    done
  done
} > results/memory.txt
cat results/memory.txt
