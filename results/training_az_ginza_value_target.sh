#!/usr/bin/env bash
# Regenerates results/training.md's "Value targets from the search" (Ginza Retro Café, 2
# players): the first committed bot's training command (the game's result as the value target,
# `outcome`, 8 iterations), and the same with `--value-target mix` (16 iterations) and
# `--value-target search` (8), then each bot against MCTS on the ladder's seeds at about equal
# thinking time, paired on the seeds.
#     bash results/training_az_ginza_value_target.sh     (about 45 minutes on 2 cores)
# Steps write results/training/<step>.txt and are skipped when it exists (delete it to rerun).
# The bots are kept as results/training/az_ginza_2p_{outcome,mix,search}.safetensors (not
# committed: the same seed and thread count give the same weights). The `outcome` bot was
# results/bots/ginza_retro_cafe-2p.safetensors until the `mix` command, run to 32 iterations by
# results/training_az_ginza.sh, replaced it.
source "$(dirname "$0")/shifu.sh"
OUT=results/training
mkdir -p "$OUT"
source results/step.sh # step NAME COMMAND...
MCTS=mcts:iters=64,rollout=greedy,root=paired,depth=8

# train TARGET GENERATIONS: results/training_az_ginza.sh's 2-player command with value target
# TARGET, for GENERATIONS iterations.
train() {
  train_bot "az_ginza_2p_$1" "$OUT/az_ginza_2p_$1.safetensors" "$SHIFU" train \
    --method expert-iteration --game ginza-retro-cafe --players 2 \
    --generations "$2" --games 1000 --sample-every 2 --search-iters 200 --buffer 4000 --epochs 1 \
    --batch 256 --lr 0.001 --duel-games 400 --elo1 30 --eval-games 200 --warm-agent greedy \
    --warm-games 20000 --warm-every 2 --sample-by game --warm-epochs 3 --seed 2026 --threads 2 \
    --value-target "$1" --quiet
}
train outcome 8
train mix 16
train search 8

# against NAME BOT: the bot at 400 PUCT iterations (about MCTS's time a move) in seat 1, then
# seat 2, against MCTS: 200 games each on the ladder's master seed 7, one CSV row a game.
against() {
  local a="az:model=$2,iters=400"
  step "az_ginza_2p_vt_$1_seat1" "$SHIFU" play --game ginza-retro-cafe --players 2 \
    --agents "$a,$MCTS" --games 200 --seed 7 --threads 2 --quiet \
    --out "$OUT/az_ginza_2p_vt_$1_seat1.csv"
  step "az_ginza_2p_vt_$1_seat2" "$SHIFU" play --game ginza-retro-cafe --players 2 \
    --agents "$MCTS,$a" --games 200 --seed 7 --threads 2 --quiet \
    --out "$OUT/az_ginza_2p_vt_$1_seat2.csv"
}
against outcome "$OUT/az_ginza_2p_outcome.safetensors"
against mix "$OUT/az_ginza_2p_mix.safetensors"
against search "$OUT/az_ginza_2p_search.safetensors"

csvs() { echo "$OUT/az_ginza_2p_vt_$1_seat1.csv" "$OUT/az_ginza_2p_vt_$1_seat2.csv"; }
# shellcheck disable=SC2046 # two file names each
step az_ginza_2p_vt_paired bash -c "
  echo 'A = mix, B = outcome'
  python3 results/paired_seats.py $(csvs mix) -- $(csvs outcome)
  echo 'A = search, B = outcome'
  python3 results/paired_seats.py $(csvs search) -- $(csvs outcome)
  echo 'A = mix, B = search'
  python3 results/paired_seats.py $(csvs mix) -- $(csvs search)"
# Head to head, both at 300 PUCT iterations, on fresh seeds (master seed 9, as the ladder's
# comparison of the first and second bots).
step az_ginza_2p_vt_mix_vs_outcome "$SHIFU" duel --game ginza-retro-cafe --players 2 \
  --agents "az:model=$OUT/az_ginza_2p_mix.safetensors,iters=300,az:model=$OUT/az_ginza_2p_outcome.safetensors,iters=300" \
  --seeds 200 --seed 9 --markdown
# The committed bot (the `mix` command run to 48 iterations by results/training_az_ginza.sh)
# against the first one (`outcome`), head to head in the same way.
step az_ginza_2p_vt_committed_vs_outcome "$SHIFU" duel --game ginza-retro-cafe --players 2 \
  --agents "az:model=results/bots/ginza_retro_cafe-2p.safetensors,iters=300,az:model=$OUT/az_ginza_2p_outcome.safetensors,iters=300" \
  --seeds 200 --seed 9 --markdown
