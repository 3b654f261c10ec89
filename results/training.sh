#!/usr/bin/env bash
# Regenerates results/training.md's figures: self-play tuning of the hand-written weights
# (`shifu train`), what the tuned weights do to the agents and to the headline seat finding, and a
# learned evaluation (`shifu export`, `shifu fit`, `mcts:...,leaf=`) against the hand-written one.
#     bash results/training.sh            (about 55 minutes on 2 cores)
# (delete a training folder and its .txt together to retrain it from scratch)
# Every step writes results/training/<step>.txt (or a folder) and is skipped when that exists, so
# delete a file to rerun its step. Training runs use master seed 1, every check a fresh master
# seed (7; the seat studies 2026, as in results/findings.sh), so no check reuses a training seed.
source "$(dirname "$0")/shifu.sh"
OUT=results/training
mkdir -p "$OUT"
TS=$OUT/tofu_shifu/champion.toml
TK=$OUT/tofu_kingdom/champion.toml
source results/step.sh # step NAME COMMAND...
train() { # train NAME ARGS...: a training run into $OUT/NAME/, its summary in $OUT/NAME.txt;
  # a run cut off before its summary continues from its checkpoint
  local name=$1
  shift
  local resume=()
  if [ ! -e "$OUT/$name.txt" ] && [ -e "$OUT/$name/checkpoint.json" ]; then
    resume=(--resume)
  fi
  step "$name" "$SHIFU" train "$@" --seed 1 --quiet --out "$OUT/$name" "${resume[@]}"
}

# Tofu Shifu, 4 players: the greedy agent's 17 weights (about 17 minutes).
train tofu_shifu --players 4 --agent greedy --generations 30 --games 96 --duel-games 800
# The champion against the hand-set weights, on fresh seeds: greedy, then MCTS-200 using each.
step ts_greedy_duel "$SHIFU" duel --players 4 --agents "greedy:weights=$TS,greedy" \
  --seeds 1000 --seed 7 --markdown
step ts_mcts_duel "$SHIFU" duel --players 4 \
  --agents "mcts:iters=200,weights=$TS,mcts:iters=200" --seeds 150 --seed 7 --markdown
# The headline seat finding (results/findings.md: MCTS-200 self-play at 4 players, seed 2026)
# with the tuned weights, and greedy self-play with either set of weights.
step ts_seats_mcts_tuned "$SHIFU" seats --players 4 --agents "mcts:iters=200,weights=$TS" \
  --games 1000 --seed 2026 --quiet
step ts_seats_greedy_default "$SHIFU" seats --players 4 --agents greedy --games 8000 \
  --seed 2026 --quiet
step ts_seats_greedy_tuned "$SHIFU" seats --players 4 --agents "greedy:weights=$TS" \
  --games 8000 --seed 2026 --quiet

# Tofu Kingdom, 5 players: the greedy agent's answer model (steer, maybe_truth, both
# probabilities) and how much it minds the leader (opponent_share).
train tofu_kingdom --game tofu-kingdom --players 5 --agent greedy \
  --tune steer,maybe_truth,opponent_share --bounds steer=0:1,maybe_truth=0:1,opponent_share=0:2 \
  --generations 12 --games 60 --duel-games 500
step tk_greedy_duel "$SHIFU" duel --game tofu-kingdom --players 5 \
  --agents "greedy:weights=$TK,greedy" --seeds 1000 --seed 7 --markdown

# A learned evaluation for Tofu Kingdom at 5 players: 2,000 greedy games exported (not
# committed: 23 MB), value models fitted on final outcomes and on TD(0.8) returns, and MCTS
# with each as its leaf evaluation against MCTS with the hand-written one at the same budget.
DATA=${TMPDIR:-/tmp}/shifu-training-tk5.npz
if [ ! -e "$OUT/tk_value_td.json" ] || [ ! -e "$OUT/tk_value_outcome.json" ]; then
  [ -e "$DATA" ] || "$SHIFU" export --game tofu-kingdom --players 5 --agents greedy \
    --games 2000 --seed 11 --quiet --out "$DATA"
fi
for target in outcome td; do
  if [ ! -e "$OUT/tk_value_$target.json" ]; then
    rm -f "$OUT/tk_fit_$target.txt"
    step "tk_fit_$target" "$SHIFU" fit --game tofu-kingdom --players 5 --input "$DATA" \
      --hidden 32 --target "$target" --lambda 0.8 --epochs 8 --out "$OUT/tk_value_$target.json"
  fi
  step "tk_leaf_duel_$target" "$SHIFU" duel --game tofu-kingdom --players 5 \
    --agents "mcts:iters=200,horizon=round,leaf=$OUT/tk_value_$target.json,mcts:iters=200,horizon=round" \
    --seeds 200 --seed 7 --markdown
done

# Tofu Kingdom MCTS with the tuned weights (its answer model and leader weight) against the
# hand-set ones, at the same budget; belief=model reads the answer model.
step tk_mcts_duel "$SHIFU" duel --game tofu-kingdom --players 5 \
  --agents "mcts:iters=200,horizon=round,belief=model,weights=$TK,mcts:iters=200,horizon=round,belief=model" \
  --seeds 400 --seed 7 --markdown

# One more round of the generate-fit-evaluate loop: games of MCTS using the TD model as its
# leaf, a model fitted on them starting from the TD model, and the new one against the old.
DATA2=${TMPDIR:-/tmp}/shifu-training-tk5-round2.npz
if [ ! -e "$OUT/tk_value_td2.json" ]; then
  [ -e "$DATA2" ] || "$SHIFU" export --game tofu-kingdom --players 5 --games 400 --seed 12 \
    --agents "mcts:iters=100,horizon=round,leaf=$OUT/tk_value_td.json" --quiet --out "$DATA2"
  rm -f "$OUT/tk_fit_td2.txt"
  step tk_fit_td2 "$SHIFU" fit --game tofu-kingdom --players 5 --input "$DATA2" \
    --init "$OUT/tk_value_td.json" --target td --lambda 0.8 --epochs 4 --out "$OUT/tk_value_td2.json"
fi
step tk_leaf_duel_td2 "$SHIFU" duel --game tofu-kingdom --players 5 \
  --agents "mcts:iters=200,horizon=round,leaf=$OUT/tk_value_td2.json,mcts:iters=200,horizon=round,leaf=$OUT/tk_value_td.json" \
  --seeds 200 --seed 7 --markdown

# What the coin weight alone does: the champion with a coin valued as at the start (0.05), in
# one seat, against the champion in the others.
sed 's/^coins = .*/coins = 0.05/' "$TS" > "$OUT/tofu_shifu_coins_start.toml"
step ts_coin_ablation "$SHIFU" duel --players 4 \
  --agents "greedy:weights=$OUT/tofu_shifu_coins_start.toml,greedy:weights=$TS" \
  --seeds 1000 --seed 7 --markdown

# Tofu Shifu MCTS tuned as MCTS (greedy's tuned weights do not carry over to the leaf's
# margin): MCTS-50's five largest weights, then a duel at that budget on fresh seeds.
train tofu_shifu_mcts --players 4 --agent mcts:iters=50 \
  --tune objectives,objective_progress,card_upgrade,coins,opponent_share \
  --generations 8 --games 24 --duel-games 200
step ts_mcts50_duel "$SHIFU" duel --players 4 \
  --agents "mcts:iters=50,weights=$OUT/tofu_shifu_mcts/champion.toml,mcts:iters=50" \
  --seeds 300 --seed 7 --markdown

# Tofu Shifu, 4 players: a learned evaluation from 1,200 greedy games, one decision in 8 kept
# (about 123,000 decisions of 4,246 values: 2 GB in memory; the export and the model under
# $TMPDIR, not committed), 16 hidden units on final outcomes, and MCTS-100 with it as its leaf
# against MCTS-100 with the hand-written one.
TSDATA=${TMPDIR:-/tmp}/shifu-training-ts4.npz
TSMODEL=${TMPDIR:-/tmp}/shifu-training-ts_value.json
if [ ! -e "$OUT/ts_leaf_duel.txt" ]; then
  [ -e "$TSDATA" ] || "$SHIFU" export --players 4 --agents greedy --games 1200 --every 8 --seed 11 --quiet \
    --out "$TSDATA"
  rm -f "$OUT/ts_fit.txt" "$TSMODEL"
  step ts_fit "$SHIFU" fit --players 4 --input "$TSDATA" --hidden 16 --target outcome \
    --epochs 4 --out "$TSMODEL"
  step ts_leaf_duel "$SHIFU" duel --players 4 \
    --agents "mcts:iters=100,leaf=$TSMODEL,mcts:iters=100" --seeds 50 --seed 7 --markdown
fi
