# Sourced by the results scripts that run in steps (training.sh, training_az.sh), after shifu.sh
# and with OUT set: `step NAME COMMAND...` runs COMMAND into $OUT/NAME.txt with its wall clock,
# and skips it when that file exists (delete it to rerun the step).
step() {
  local name=$1
  shift
  if [ -e "$OUT/$name.txt" ]; then
    echo "$OUT/$name.txt exists; skipped (delete it to rerun)"
    return
  fi
  local start=$SECONDS
  "$@" > "$OUT/$name.txt.part"
  echo "wall clock: $((SECONDS - start)) s on $(nproc) cores" >> "$OUT/$name.txt.part"
  mv "$OUT/$name.txt.part" "$OUT/$name.txt"
  cat "$OUT/$name.txt"
}

# `train_bot NAME BOT SHIFU train ARGS...`: an expert-iteration run as step NAME into $OUT/NAME
# (ARGS without --out), resumed from its checkpoint when a run was cut off, and a finished run's
# committed curve trained again when NAME's text is gone; then the incumbent becomes the
# committed BOT and the state (the replay buffer) and the candidate are dropped.
train_bot() {
  local name=$1 bot=$2 resume=()
  shift 2
  if [ ! -e "$OUT/$name.txt" ]; then
    if [ -d "$OUT/$name/state" ]; then
      resume=(--resume) # cut off: go on from the checkpoint
    else
      rm -rf "${OUT:?}/$name" # the committed curve of a finished run: train again
    fi
  fi
  step "$name" "$@" --out "$OUT/$name" "${resume[@]}"
  if [ -e "$OUT/$name/incumbent.safetensors" ]; then
    mv "$OUT/$name/incumbent.safetensors" "$bot"
    rm -rf "$OUT/$name/state" "$OUT/$name/candidate.safetensors"
  fi
}
