#!/usr/bin/env bash
# Instructions per random-playout step under callgrind, for every game: a figure that does not
# move with the machine's load, so a regression shows wherever it is measured.
#
#   bash benches/instructions.sh            # builds the release binary first
#   SHIFU=path/to/shifu bash benches/instructions.sh
#
# For each game it runs `shifu bench --games N --threads 1` (N games on one core, then the same
# N seeds again through the thread pool) under `valgrind --tool=callgrind`, for N and 2N games.
# The difference cancels start-up (data parsing, thread pool), so
#   instructions per step = (Ir(2N) - Ir(N)) / (steps(2N) - steps(N)),
# with steps counted over both passes. It also prints the engine's functions with the most
# instructions in Tofu Shifu's 2N run.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
if [ -z "${SHIFU:-}" ]; then
  cargo build --release --bin shifu --quiet
  SHIFU=target/release/shifu
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# game players N
cases=("tofu-shifu 4 20" "tofu-shifu 2 20" "tofu-kingdom 5 400" "tofu-kingdom 8 200" "wok-star 4 2000" "ginza-retro-cafe 4 400")
printf '| game | players | instructions per step | steps measured |\n| --- | --- | --- | --- |\n'
for c in "${cases[@]}"; do
  read -r game players n <<< "$c"
  for k in 1 2; do
    games=$((n * k))
    valgrind --tool=callgrind --callgrind-out-file="$work/$game-$players-$k.out" \
      "$SHIFU" bench --game "$game" --players "$players" --games "$games" --threads 1 \
      > "$work/$game-$players-$k.json" 2> "$work/$game-$players-$k.log"
  done
  python3 - "$work" "$game" "$players" <<'PY'
import json, re, sys
work, game, players = sys.argv[1:]
def run(k):
    base = f"{work}/{game}-{players}-{k}"
    ir = None
    for line in open(base + ".out"):
        if line.startswith("summary:") or line.startswith("totals:"):
            ir = int(line.split()[1])
    r = json.load(open(base + ".json"))
    return ir, r["single_core"]["steps"] + r["all_cores"]["steps"]
(i1, s1), (i2, s2) = run(1), run(2)
print(f"| {game} | {players} | {(i2 - i1) / (s2 - s1):.0f} | {s2 - s1:,} |")
PY
done
echo
echo "Tofu Shifu, 4 players, 2N run: the engine's and agents' functions by their own (exclusive)"
echo "instructions and by inclusive ones (with their callees):"
for how in no yes; do
  echo
  callgrind_annotate --inclusive=$how "$work/tofu-shifu-4-2.out" 2> /dev/null \
    | grep -E '^ *[0-9,]+ \(' | grep -E 'shifu_(engine|agents)::' | head -12 || true
  # (`head` closes the pipe early; under pipefail that would end the script before the
  # inclusive listing.)
done
