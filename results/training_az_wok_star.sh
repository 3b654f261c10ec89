#!/usr/bin/env bash
# Regenerates the Wok Star bot of results/training.md ("A policy-value network (Wok Star, 2
# players, Medium)") and its ladder: expert iteration for a team at the default difficulty
# (Medium), warm-started by imitating the MCTS team, then team-against-team duels on fresh seeds
# (each seed played by both teams) against greedy and MCTS.
#     bash results/training_az_wok_star.sh     (about 35 minutes on 2 cores)
# Every step writes results/training/<step>.txt (the training run also its folder) and is skipped
# when that exists: delete a file to rerun its step. Training uses master seed 2026 on 2 threads
# (the same seed and thread count give the same weights); the duels use master seed 7.
source "$(dirname "$0")/shifu.sh"
OUT=results/training
NAME=az_wok_star_2p
BOT=results/bots/wok_star-2p.safetensors
mkdir -p "$OUT" results/bots
source results/step.sh # step NAME COMMAND...
# The MCTS team of results/wok_star_mcts.md (0.610 [0.581, 0.638] at 2 players, Medium).
MCTS=mcts:iters=40,rollout=greedy,root=paired,depth=0

# 2,000 games of the MCTS team imitated (one decision in 2), then iterations of 600 self-play
# games at 200 PUCT iterations a move (one decision in 2 kept, the last 2,400 games in the
# buffer), each candidate's team gated against the incumbent's by an SPRT over up to 200 seeds
# (H1: +30 Elo) and the incumbent's team compared with greedy's on 100 seeds. A run cut off
# continues from its checkpoint. The incumbent becomes the committed bot.
train_bot "$NAME" "$BOT" "$SHIFU" train --method expert-iteration --game wok-star --players 2 \
  --generations 6 --games 600 --sample-every 2 --search-iters 200 --buffer 2400 --epochs 1 \
  --batch 256 --lr 0.001 --duel-games 200 --elo1 30 --eval-games 100 --warm-agent "$MCTS" \
  --warm-games 2000 --warm-every 2 --sample-by game --warm-epochs 3 --seed 2026 --threads 2 --quiet

duel() { # duel NAME A B SEEDS: A's team and B's team on the same seeds (2 x SEEDS games)
  step "$1" "$SHIFU" duel --game wok-star --players 2 --agents "$2,$3" --seeds "$4" --seed 7 \
    --markdown
}
duel az_wok_star_2p_mcts_vs_greedy "$MCTS" greedy 200
duel az_wok_star_2p_policy_vs_greedy "az:model=$BOT,iters=0" greedy 200
duel az_wok_star_2p_vs_greedy "az:model=$BOT,iters=64" greedy 200
# 200 PUCT iterations: below the MCTS team's thinking time (both are measured in the duel).
duel az_wok_star_2p_vs_mcts "az:model=$BOT,iters=200" "$MCTS" 200
