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
