#!/usr/bin/env bash
# Where an MCTS iteration's instructions go, on the MCTS benchmark's decision (4-player Tofu
# Shifu midgame, 500 iterations, random rollouts cut at depth 60, default weights): the
# determinization, the rollouts (their random steps, and the heuristic evaluation where they are
# cut) and the tree policy (selection, expansion, backpropagation: the rest). Under callgrind,
# so the counts do not move with the machine's load.
#
#   bash benches/mcts_split.sh        # DECISIONS=20 for a longer run (default 10)
#   ROLLOUT=greedy bash benches/mcts_split.sh   # the benchmark's other configuration: greedy
#                                               # rollouts cut at depth 10
#
# It runs benches/examples/mcts_profile.rs for DECISIONS decisions and for none, and reads the
# inclusive counts of MctsAgent::sample, ::rollout and ::heuristic_reward (never inlined, so that
# this split can be read).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
cargo build --release --quiet -p shifu-benches --example mcts_profile
n=${DECISIONS:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for k in "$n" 0; do
  valgrind --tool=callgrind --callgrind-out-file="$work/$k.out" \
    target/release/examples/mcts_profile "$k" "${ROLLOUT:-random}" > /dev/null 2>&1
done
python3 - "$work" "$n" <<'PY'
import re, subprocess, sys
work, n = sys.argv[1], int(sys.argv[2])
def total(k):
    for line in open(f"{work}/{k}.out"):
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
def inclusive(name):
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f"{work}/{n}.out"],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if re.search(rf"MctsAgent<G>::{name} \[", line):
            return int(line.split()[0].replace(",", ""))
    return 0
iters = n * 500
whole = total(n) - total(0)
sample, rollout, heur = inclusive("sample"), inclusive("rollout"), inclusive("heuristic_reward")
tree = whole - sample - rollout
print(f"{iters} iterations, {whole / iters:,.0f} instructions per iteration")
print("| part | instructions per iteration | share |")
print("| --- | --- | --- |")
for name, x in [("determinization", sample), ("rollout steps (legal moves, apply, random choice)", rollout - heur),
                ("heuristic evaluation at the cut", heur), ("tree policy (selection, expansion, backpropagation)", tree)]:
    print(f"| {name} | {x / iters:,.0f} | {100 * x / whole:.1f}% |")
PY
