#!/usr/bin/env bash
# Regenerates the 4-player Tofu Shifu bot of results/training.md ("A policy-value network (Tofu
# Shifu, 4 players)") and its duels against greedy: expert iteration warm-started by imitating
# greedy, as at 2 players (results/training_az.sh), with a 100-iteration expert.
#     bash results/training_az_tofu_shifu_4p.sh     (about 35 minutes on 2 cores)
# Every step writes results/training/<step>.txt (the training run also its folder) and is skipped
# when that exists: delete a file to rerun its step. Training uses master seed 2026 on 2 threads
# (the same seed and thread count give the same weights); the duels use master seed 7.
source "$(dirname "$0")/shifu.sh"
OUT=results/training
NAME=az_tofu_shifu_4p
BOT=results/bots/tofu_shifu-4p.safetensors
mkdir -p "$OUT" results/bots
source results/step.sh # step NAME COMMAND...

# 8,000 greedy games imitated (one decision in 8), then 5 iterations of 200 self-play games at
# 100 PUCT iterations a move (one decision in 4 kept, the last 800 games in the buffer), each
# candidate gated by an SPRT over up to 200 games (H1: +40 Elo) and the incumbent measured
# against greedy over 100. A run cut off continues from its checkpoint.
train_bot "$NAME" "$BOT" "$SHIFU" train --method expert-iteration --game tofu-shifu --players 4 \
  --generations 5 --games 200 --sample-every 4 --search-iters 100 --buffer 800 --epochs 1 \
  --batch 256 --lr 0.001 --duel-games 200 --elo1 40 --eval-games 100 --warm-agent greedy \
  --warm-games 8000 --warm-every 8 --sample-by game --warm-epochs 3 --seed 2026 --threads 2 --quiet

duel() { # duel NAME A B SEEDS: A in one seat, B in the others, 4 x SEEDS games
  step "$1" "$SHIFU" duel --players 4 --agents "$2,$3" --seeds "$4" --seed 7 --markdown
}
duel az_tofu_shifu_4p_policy_vs_greedy "az:model=$BOT,iters=0" greedy 100
duel az_tofu_shifu_4p_vs_greedy "az:model=$BOT,iters=300" greedy 100
