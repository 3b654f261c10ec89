#!/usr/bin/env bash
# Regenerates the Ginza Retro Café bots of results/training.md ("Ginza Retro Café: policy-value
# networks") and their ladders: expert iteration at 2 and 3 players, warm-started by imitating
# greedy, then duels on fresh seeds against greedy and MCTS at no more thinking time.
#     bash results/training_az_ginza.sh [2] [3]     (about 3.5 hours on 2 cores for both)
# Every step writes results/training/<step>.txt (a training run also its folder) and is skipped
# when that exists: delete a file to rerun its step. Training uses master seed 2026 on 2 threads
# (the same seed and thread count give the same weights); the duels use master seed 7.
source "$(dirname "$0")/shifu.sh"
OUT=results/training
mkdir -p "$OUT" results/bots
source results/step.sh # step NAME COMMAND...
# The strongest hand-written agent of results/ginza_retro_cafe_mcts.md (0.755 against greedy at
# 2 players), 2 to 3 ms a move here.
MCTS=mcts:iters=64,rollout=greedy,root=paired,depth=8

# train PLAYERS GENERATIONS GATE TARGET: 20,000 greedy games imitated (one decision in 2), then
# iterations of 1,000 self-play games at 200 PUCT iterations a move (one decision in 2 kept, the
# last 4,000 games in the buffer), each candidate gated by an SPRT over up to GATE games (a
# multiple of the player count; H1: +30 Elo) and
# the incumbent measured against greedy over 200; the value head learns TARGET
# (`--value-target`: `mix`, which beat the game's result alone at 2 players, results/
# training.md "Value targets from the search"). A run cut off continues from
# its checkpoint. The incumbent becomes the committed bot; the state (the replay buffer) is not
# committed.
train() {
  train_bot "az_ginza_$1p" "results/bots/ginza_retro_cafe-$1p.safetensors" "$SHIFU" train \
    --method expert-iteration --game ginza-retro-cafe --players "$1" \
    --generations "$2" --games 1000 --sample-every 2 --search-iters 200 --buffer 4000 --epochs 1 \
    --batch 256 --lr 0.001 --duel-games "$3" --elo1 30 --eval-games 200 --warm-agent greedy \
    --warm-games 20000 --warm-every 2 --sample-by game --warm-epochs 3 --seed 2026 --threads 2 \
    --value-target "$4" --quiet
}
# duel NAME PLAYERS A B SEEDS: A in one seat, B in the others, PLAYERS x SEEDS games, each a
# row of $OUT/NAME.csv (so that two bots' duels against the same B pair on the seeds:
# results/paired_duels.py)
duel() {
  step "$1" "$SHIFU" duel --game ginza-retro-cafe --players "$2" --agents "$3,$4" --seeds "$5" \
    --seed 7 --markdown --out "$OUT/$1.csv"
}
ladder() { # ladder PLAYERS SEEDS
  local p=$1 s=$2 bot=results/bots/ginza_retro_cafe-$1p.safetensors
  duel "az_ginza_${p}p_mcts_vs_greedy" "$p" "$MCTS" greedy "$s"
  duel "az_ginza_${p}p_vs_greedy" "$p" "az:model=$bot,iters=64" greedy "$s"
  duel "az_ginza_${p}p_policy_vs_greedy" "$p" "az:model=$bot,iters=0" greedy "$s"
  # 300 PUCT iterations: about MCTS's thinking time or less (both are measured in the duel).
  duel "az_ginza_${p}p_vs_mcts" "$p" "az:model=$bot,iters=300" "$MCTS" "$s"
  # 400: at 2 players 300 iterations took about 80% of MCTS's time a move, so this is about
  # equal time (both measured in the duel).
  duel "az_ginza_${p}p_vs_mcts_400" "$p" "az:model=$bot,iters=400" "$MCTS" "$s"
  # The policy alone as a cheap player: its games per second in self-play, and greedy's.
  step "az_ginza_${p}p_policy_speed" "$SHIFU" play --game ginza-retro-cafe --players "$p" \
    --agents "az:model=$bot,iters=0" --games 4000 --seed 7 --threads 1 --quiet
  step "az_ginza_${p}p_greedy_speed" "$SHIFU" play --game ginza-retro-cafe --players "$p" \
    --agents greedy --games 4000 --seed 7 --threads 1 --quiet
}

# confirm PLAYERS SEEDS: the bot against MCTS again at 300 and 400 PUCT iterations, on fresh
# seeds (master seed 11: the value target was chosen on the ladder's seeds); then the
# confirmation declared before it was run (results/training.md): 300 iterations (less time than
# MCTS) on master seed 13, never played before, over 2,000 seeds. Each game is a row of the
# step's CSV.
confirm() {
  local p=$1 bot=results/bots/ginza_retro_cafe-$1p.safetensors it
  for it in 300 400; do
    step "az_ginza_${p}p_vs_mcts_${it}_fresh" "$SHIFU" duel --game ginza-retro-cafe \
      --players "$p" --agents "az:model=$bot,iters=$it,$MCTS" --seeds "$2" --seed 11 --markdown \
      --out "$OUT/az_ginza_${p}p_vs_mcts_${it}_fresh.csv"
  done
  step "az_ginza_${p}p_vs_mcts_confirm" "$SHIFU" duel --game ginza-retro-cafe --players "$p" \
    --agents "az:model=$bot,iters=300,$MCTS" --seeds 2000 --seed 13 --markdown \
    --out "$OUT/az_ginza_${p}p_vs_mcts_confirm.csv"
}

# timed PLAYERS SEEDS: equal time by the clock, the bot and MCTS each under the same time_ms (2,
# then 3 ms a decision), on master seed 17. Unlike every other step, these games depend on the
# machine's speed: a rerun plays other games.
timed() {
  local p=$1 bot=results/bots/ginza_retro_cafe-$1p.safetensors t
  for t in 2 3; do
    step "az_ginza_${p}p_vs_mcts_timed_$t" "$SHIFU" duel --game ginza-retro-cafe --players "$p" \
      --agents "az:model=$bot,time_ms=$t,mcts:iters=0,time_ms=$t,rollout=greedy,root=paired,depth=8" \
      --seeds "$2" --seed 17 --threads 2 --markdown --out "$OUT/az_ginza_${p}p_vs_mcts_timed_$t.csv"
  done
}

# confirm_timed PLAYERS SEEDS: the confirmation declared before it was run (results/training.md,
# the 3-player bot): the bot and MCTS each under time_ms=3 on master seed 19, never played
# before. Like `timed`, its games depend on the machine's speed.
confirm_timed() {
  step "az_ginza_${1}p_vs_mcts_timed_confirm" "$SHIFU" duel --game ginza-retro-cafe --players "$1" \
    --agents "az:model=results/bots/ginza_retro_cafe-$1p.safetensors,time_ms=3,mcts:iters=0,time_ms=3,rollout=greedy,root=paired,depth=8" \
    --seeds "$2" --seed 19 --threads 2 --markdown --out "$OUT/az_ginza_${1}p_vs_mcts_timed_confirm.csv"
}

# paired_3p: the 3-player bot against MCTS at 400 PUCT iterations (the ladder's games), paired
# on the seeds with the same duel of the 3-player bot committed before it (outcome, 6
# iterations; its games are az_ginza_3p_outcome_vs_mcts_400.csv).
paired_3p() {
  step az_ginza_3p_paired python3 results/paired_duels.py "$OUT/az_ginza_3p_vs_mcts_400.csv" \
    "$OUT/az_ginza_3p_outcome_vs_mcts_400.csv"
}

# seat_study PLAYERS GAMES: every seat the bot at 300 PUCT iterations (stronger than MCTS at 2
# players), the start player's and each seat's win share with the verdict at ±0.02 (issue 50,
# §5: the seat finding with the strongest player; results/ginza_retro_cafe_mcts.md has MCTS's).
seat_study() {
  step "az_ginza_${1}p_seats" "$SHIFU" seats --game ginza-retro-cafe --players "$1" \
    --agents "az:model=results/bots/ginza_retro_cafe-$1p.safetensors,iters=300" --games "$2" \
    --seed 2026 --threads 2 --quiet
}

# data_check PLAYERS SEEDS: the bot, trained on the embedded reconstruction, against MCTS at
# 300 PUCT iterations on data files that change reconstructed values (results/ginza_retro_cafe.py's
# `variants`, written to a temporary folder): data0 and data1 change the colour link between
# order categories and Arrange cards (Drink→change, Dessert→add, Food→reroll; Drink→add,
# Dessert→reroll, Food→change), data2 moves the order VP (rank I +1, rank III −2). Master seed 11.
data_check() {
  local dir files i
  dir=$(mktemp -d)
  mapfile -t files < <(python3 -c "import sys; sys.path.insert(0, 'results')
import ginza_retro_cafe as g
print('\n'.join(g.variants(sys.argv[1]).values()))" "$dir")
  for i in "${!files[@]}"; do
    step "az_ginza_${1}p_vs_mcts_data$i" "$SHIFU" duel --game ginza-retro-cafe --players "$1" \
      --data "${files[$i]}" --seeds "$2" --seed 11 --markdown \
      --agents "az:model=results/bots/ginza_retro_cafe-$1p.safetensors,iters=300,$MCTS" \
      --out "$OUT/az_ginza_${1}p_vs_mcts_data$i.csv"
  done
  rm -rf "$dir"
  # Each variant against the embedded data: the same bot, MCTS and seeds (confirm's 300-iteration
  # duel on master seed 11), paired on the seeds.
  step "az_ginza_${1}p_data_paired" bash -c "for i in ${!files[*]}; do
    echo \"data\$i (first) against the embedded data (second):\"
    python3 results/paired_duels.py $OUT/az_ginza_${1}p_vs_mcts_data\$i.csv \\
      $OUT/az_ginza_${1}p_vs_mcts_300_fresh.csv
  done"
}

# bash results/training_az_ginza.sh [PLAYERS...]: both player counts, or only those named.
players=("$@")
[ ${#players[@]} -gt 0 ] || players=(2 3)
for p in "${players[@]}"; do
  case $p in
    2) train 2 48 400 mix && ladder 2 200 && confirm 2 600 && timed 2 1000 && seat_study 2 16000 &&
      data_check 2 600 ;;
    3) train 3 48 399 mix && ladder 3 100 && paired_3p && timed 3 100 && confirm_timed 3 1000 ;;
    *) echo "training_az_ginza.sh: players must be 2 or 3, not $p" >&2; exit 2 ;;
  esac
done
