#!/usr/bin/env bash
# Regenerates the Tofu Kingdom bot of results/training.md ("A policy-value network (Tofu
# Kingdom, 4 players)") and its Prince measurement: expert iteration at 4 players, warm-started
# by imitating greedy, then the bot as Prince in seat 1 among greedy players (the steering
# answerers of results/tofu_kingdom.md), against greedy in the same seat on the same seeds.
#     bash results/training_az_tofu_kingdom.sh     (about 15 minutes on 2 cores)
# Every step writes results/training/<step>.txt (the training run also its folder; the Prince
# runs also a per-game CSV) and is skipped when that exists: delete a file to rerun its step.
# Training uses master seed 2026 on 2 threads (the same seed and thread count give the same
# weights); the Prince runs use master seed 2026, the seeds of results/tofu_kingdom.md.
source "$(dirname "$0")/shifu.sh"
OUT=results/training
NAME=az_tofu_kingdom_4p
BOT=results/bots/tofu_kingdom-4p.safetensors
mkdir -p "$OUT" results/bots
source results/step.sh # step NAME COMMAND...

# 10,000 greedy games imitated (one decision in 2), then 6 iterations of 1,000 self-play games
# at 100 PUCT iterations a move (one decision in 2 kept, the last 4,000 games in the buffer),
# each candidate gated by an SPRT over up to 400 games (H1: +30 Elo) and the incumbent measured
# against greedy over 200. A run cut off continues from its checkpoint.
train_bot "$NAME" "$BOT" "$SHIFU" train --method expert-iteration --game tofu-kingdom --players 4 \
  --generations 6 --games 1000 --sample-every 2 --search-iters 100 --buffer 4000 --epochs 1 \
  --batch 256 --lr 0.001 --duel-games 400 --elo1 30 --eval-games 200 --warm-agent greedy \
  --warm-games 10000 --warm-every 2 --sample-by game --warm-epochs 3 --seed 2026 --threads 2 --quiet

prince() { # prince NAME SPEC: SPEC in seat 1, greedy in seats 2-4, 1,000 games
  [ -e "$OUT/$1.txt" ] || rm -f "$OUT/$1.csv" # a run cut off: play it again
  step "$1" "$SHIFU" play --game tofu-kingdom --players 4 --agents "$2,greedy,greedy,greedy" \
    --games 1000 --seed 2026 --quiet --out "$OUT/$1.csv"
}
prince az_tk4_prince_greedy greedy
prince az_tk4_prince_policy "az:model=$BOT,iters=0"
prince az_tk4_prince_search "az:model=$BOT,iters=100"
# Seat 1's find rate and the paired differences (bot minus greedy, the same seeds).
python3 results/prince_paired.py "$OUT"/az_tk4_prince_{greedy,policy,search}.csv \
  > "$OUT/az_tk4_prince.txt"
cat "$OUT/az_tk4_prince.txt"
