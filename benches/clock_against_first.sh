#!/usr/bin/env bash
# The clock's side of two performance targets: this checkout against the build each target was
# set against, on this machine, the two builds taking turns so that the machine's load falls on
# both alike. Instruction counts (benches/instructions.sh, benches/mcts_split.sh,
# engine/examples/prince_determinize.rs) hold on a noisy machine; this says what they are worth
# in seconds.
#
#   bash benches/clock_against_first.sh               # both targets, 5 rounds each
#   ROUNDS=9 bash benches/clock_against_first.sh mcts
#   bash benches/clock_against_first.sh prince
#
# Targets:
#   mcts    the MCTS benchmark's decision with random rollouts cut at depth 60
#           (benches/examples/mcts_profile.rs, 300 decisions of 500 iterations), against
#           a791da5, the first build the search target was measured on;
#   prince  the Tofu Kingdom Prince's determinization at 8 players
#           (engine/examples/prince_determinize.rs, 32 positions 3,000 times: taking turns, and
#           in a row as a search's root does), against 4293071^, the build of "17 - 19 K/s".
# The first builds are checked out in a temporary git worktree, with this checkout's profiling
# example (and benches/src/lib.rs, which it needs) copied in. Both builds must print the same
# checksum: the same decisions, the same deals. It prints each run's user time, the medians and
# their ratio. Building the first builds takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive whole number, got '$rounds'" >&2; exit 2; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(mcts prince)
for t in "${targets[@]}"; do
  case "$t" in
    mcts | prince) ;;
    *) echo "unknown target '$t' (mcts or prince)" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
cleanup() {
  git worktree remove --force "$work/first" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# build TARGET: builds the example for this checkout and for the first build into $work.
build() {
  local commit pkg example files
  case "$1" in
    mcts) commit=a791da5 pkg=shifu-benches example=mcts_profile
      files=(benches/examples/mcts_profile.rs benches/src/lib.rs) ;;
    prince) commit=4293071^ pkg=shifu-engine example=prince_determinize
      files=(engine/examples/prince_determinize.rs) ;;
  esac
  cargo build --release --quiet -p "$pkg" --example "$example"
  cp "target/release/examples/$example" "$work/$1-now"
  git worktree remove --force "$work/first" 2> /dev/null || true
  git worktree add --quiet --detach "$work/first" "$commit"
  for f in "${files[@]}"; do
    mkdir -p "$work/first/$(dirname "$f")"
    cp "$f" "$work/first/$f"
  done
  (cd "$work/first" && CARGO_TARGET_DIR="$work/target" \
    cargo build --release --quiet -p "$pkg" --example "$example")
  cp "$work/target/release/examples/$example" "$work/$1-first"
}

# race NAME ARGS...: the two builds taking turns, ROUNDS times each.
race() {
  local name=$1
  shift
  local first=() now=() t want=""
  for _ in $(seq "$rounds"); do
    for b in first now; do
      t=$( { TIMEFORMAT=%U; time "$work/$name-$b" "$@" > "$work/out"; } 2>&1 )
      if [ -z "$want" ]; then want=$(cat "$work/out"); fi
      if [ "$(cat "$work/out")" != "$want" ]; then
        echo "the builds disagree: '$want' against '$(cat "$work/out")'" >&2
        exit 1
      fi
      if [ "$b" = first ]; then first+=("$t"); else now+=("$t"); fi
    done
  done
  python3 - "$name $*" "${first[*]}" "${now[*]}" "$want" <<'PY'
import statistics, sys
what, first, now, out = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()], sys.argv[4]
mf, mn = statistics.median(first), statistics.median(now)
pairs = [f / n for f, n in zip(first, now)]
print(f"| {what} | {min(first):.2f} - {max(first):.2f} (median {mf:.2f}) | {min(now):.2f} - {max(now):.2f} (median {mn:.2f}) "
      f"| {mf / mn:.2f} ({min(pairs):.2f} - {max(pairs):.2f} pair by pair) | {out} |")
PY
}

echo "| run | first build, user s | this checkout, user s | times faster at the medians | output of both |"
echo "| --- | --- | --- | --- | --- |"
for t in "${targets[@]}"; do
  build "$t" > /dev/null
  case "$t" in
    mcts) race mcts 300 random ;;
    prince) race prince 8 3000; race prince 8 3000 in-a-row ;;
  esac
done
