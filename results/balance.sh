#!/bin/sh
# Regenerates results/balance.md and the JSON/SVG behind it (results/balance/):
#  1. Tofu Shifu at 4 players, greedy: the fairest start coins, 0..3 per seat (256 vectors), with
#     shifu balance's defaults (about 11 minutes of 2 cores: 1,333 CPU-seconds);
#  2. the race against the full grid at 2 and 3 players (16 and 64 vectors): every vector
#     played 12,800 games on the race's seeds (--full-grid). The 3-player grid is 819,200 games
#     (about 50 CPU-minutes).
# STAGES="4p eff2 eff3" (the default) picks what to run; a stage whose JSON exists is skipped.
set -eu
SHIFU=${SHIFU:-shifu}
cd "$(dirname "$0")"
mkdir -p balance
STAGES=${STAGES:-4p eff2 eff3}
run() { # run NAME ARGS...
  name=$1; shift
  if [ -f "balance/$name.json" ]; then echo "balance/$name.json exists; skipped"; return; fi
  $SHIFU balance --game tofu-shifu --agents greedy --search start_coins=0..3 --seed 1 --quiet \
    --out "balance/$name.json" --svg "balance/$name.svg" "$@" > "balance/$name.txt"
}
for s in $STAGES; do
  case $s in
    4p) run tofu_shifu_4p_greedy --players 4 ;;
    eff2) run efficiency_2p_race --players 2; run efficiency_2p_grid --players 2 --full-grid ;;
    eff3) run efficiency_3p_race --players 3; run efficiency_3p_grid --players 3 --full-grid ;;
  esac
done
python3 balance.py > balance.md
