#!/usr/bin/env bash
# Regenerates results/findings.md and the per-game files behind it (results/findings/<data>/*.csv.gz):
# the Tofu Shifu headline findings under strong play (MCTS-200 in every seat), on the calibrated
# default data and on the two other reconstructions.
#     bash results/findings.sh [DATA ...]     (default: calibrated reconstructed alternative)
#
# Per data set, all from master seed 2026 so that every cell of a comparison plays the same seeds:
#   seats_{2,3,4}p          seat win shares (GAMES_SEATS games per player count); the 4-player
#                           study is also the 1,2,2,3 / town cost 1 / rulebook-end cell below;
#   coins_{2222,0123,1123}  start coins 2,2,2,2, 0,1,2,3 and 1,1,2,3 at 4 players;
#   town_{0.5,1.5}          every town objective's coin cost times 0.5 and 1.5;
#   end_immediate{,_2222}   end_rule=immediate (the game ends with the turn that reaches 8), with
#                           the rulebook's coins and with equal coins.
# Each run's summary (wall-clock time included) goes to results/findings/<data>/<study>.txt.
# About 85 minutes on 2 cores for the calibrated data at the default counts. GAMES_SEATS (default
# 2000) and GAMES_CELL (default 1000) set the counts; the committed runs on the two other data
# sets used GAMES_SEATS=500 GAMES_CELL=300 (about 35 and 40 minutes).
source "$(dirname "$0")/shifu.sh"
GAMES_SEATS=${GAMES_SEATS:-2000}
GAMES_CELL=${GAMES_CELL:-1000}
AGENTS=mcts:iters=200
run() { # run DATA NAME PLAYERS GAMES [--set k=v ...]
  local data=$1 name=$2 players=$3 games=$4
  shift 4
  local dir=results/findings/$data
  mkdir -p "$dir"
  if [ -f "$dir/$name.csv.gz" ]; then
    echo "$dir/$name.csv.gz exists; skipped (delete it to rerun)"
    return
  fi
  local start=$SECONDS
  "$SHIFU" seats --data "builtin:$data" --players "$players" --agents "$AGENTS" \
    --games "$games" --seed 2026 --quiet --out "$dir/$name.csv" "$@" > "$dir/$name.txt"
  echo "wall clock: $((SECONDS - start)) s on $(nproc) cores" >> "$dir/$name.txt"
  gzip -9 -n -f "$dir/$name.csv"
  cat "$dir/$name.txt"
}
for data in "${@:-calibrated reconstructed alternative}"; do
  for d in $data; do
    for p in 4 3 2; do run "$d" "seats_${p}p" "$p" "$GAMES_SEATS"; done
    run "$d" coins_2222 4 "$GAMES_CELL" --set start_coins=2,2,2,2
    run "$d" end_immediate 4 "$GAMES_CELL" --set end_rule=immediate
    run "$d" end_immediate_2222 4 "$GAMES_CELL" --set end_rule=immediate --set start_coins=2,2,2,2
    run "$d" coins_0123 4 "$GAMES_CELL" --set start_coins=0,1,2,3
    run "$d" coins_1123 4 "$GAMES_CELL" --set start_coins=1,1,2,3
    run "$d" town_0.5 4 "$GAMES_CELL" --set town_objective_cost_scale=0.5
    run "$d" town_1.5 4 "$GAMES_CELL" --set town_objective_cost_scale=1.5
  done
done
python3 results/findings_table.py results/findings > results/findings.md
cat results/findings.md
