#!/usr/bin/env bash
# Regenerates the trained bot of results/training.md ("A policy-value network") and its ladder:
# expert iteration for Tofu Shifu at 2 players, warm-started from greedy's moves, then duels on
# fresh seeds against the hand-written agents, MCTS first tuned at the same thinking time.
#     bash results/training_az.sh         (about 40 minutes on 2 cores)
# Every step writes results/training/<step>.txt (the training run also its folder) and is skipped
# when that exists: delete a file to rerun its step. Training uses master seed 2026 on 2 threads
# (the same seed and thread count give the same weights); the MCTS tuning duels use master
# seed 8 and the ladder's master seed 7.
source "$(dirname "$0")/shifu.sh"
OUT=results/training
BOT=results/bots/tofu_shifu-2p.safetensors
mkdir -p "$OUT" results/bots
source results/step.sh # step NAME COMMAND...
share() { # share NAME: A's win share in step NAME's markdown row
  grep '^| ' "$OUT/$1.txt" | tail -n 1 | awk -F'|' '{gsub(/ /, "", $6); print $6}'
}

# Training (about 40 minutes): 8,000 greedy games imitated (one decision in 8), then 12
# iterations of 96 self-play games at 64 PUCT iterations a move (one decision in 4 kept, the
# last 512 games in the buffer), each candidate gated by an SPRT over up to 200 games and the
# incumbent measured against greedy over 100. A run cut off continues from its checkpoint.
# The incumbent becomes the committed bot; the state (the replay buffer, tens of MB) and the
# other copies of the weights are not committed.
train_bot az_tofu_shifu_2p "$BOT" "$SHIFU" train --method expert-iteration --game tofu-shifu \
  --players 2 --generations 12 --games 96 --sample-every 4 --search-iters 64 --buffer 512 \
  --epochs 1 --batch 256 --lr 0.001 --duel-games 200 --elo1 40 --eval-games 100 \
  --warm-agent greedy --warm-games 8000 --warm-every 8 --sample-by game --warm-epochs 3 --seed 2026 --threads 2 \
  --quiet

duel() { # duel NAME A B SEEDS [MASTER]: A in one seat, B in the other, 2 x SEEDS games
  step "$1" "$SHIFU" duel --players 2 --agents "$2,$3" --seeds "$4" --seed "${5:-7}" --markdown
}
# MCTS tuned at about the same thinking time (3 to 4 ms a move here): three settings against
# greedy on master seed 8, so the ladder's duels (master seed 7) re-test the choice on fresh games.
duel az_mcts_a mcts:iters=1000 greedy 100 8
duel az_mcts_b mcts:iters=1000,c=1.2 greedy 100 8
duel az_mcts_c mcts:iters=120,rollout=greedy greedy 100 8
best=$(for s in a:mcts:iters=1000 b:mcts:iters=1000,c=1.2 c:mcts:iters=120,rollout=greedy; do
  echo "$(share "az_mcts_${s%%:*}") ${s#*:}"
done | sort -rn | head -n 1 | cut -d' ' -f2)
echo "$best" > "$OUT/az_mcts_best.txt"

# The ladder, each rung against the one below on the same seeds (400 games each).
duel az_ladder_greedy greedy random 200
duel az_ladder_tuned "greedy:weights=$OUT/tofu_shifu/champion.toml" greedy 200
duel az_ladder_mcts "$best" "greedy:weights=$OUT/tofu_shifu/champion.toml" 200
duel az_ladder_policy "az:model=$BOT,iters=0" greedy 200
duel az_ladder_search "az:model=$BOT,iters=300" greedy 200
duel az_ladder_vs_mcts "az:model=$BOT,iters=300" "$best" 200
# After the cheaper search (3602c62, f6f88fc): 400 iterations fit in MCTS-1000's time.
duel az_ladder_vs_mcts_400 "az:model=$BOT,iters=400" "$best" 200
# The policy alone as a cheap player: against MCTS, and its games per second (self-play).
duel az_ladder_policy_vs_mcts "az:model=$BOT,iters=0" "$best" 200
step az_policy_speed "$SHIFU" play --players 2 --agents "az:model=$BOT,iters=0" --games 2000 \
  --seed 7 --threads 1 --quiet

# Random rollouts at the leaves (`rollout=1`: the network gives only the priors) against the
# network's value, at the same 60 PUCT iterations a move, on the tuning seeds (master seed 8).
duel az_rollout "az:model=$BOT,iters=60,rollout=1" "az:model=$BOT,iters=60" 100 8
