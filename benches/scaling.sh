#!/usr/bin/env bash
# Games per second on one thread and on every thread, for every game, with the speed-up: the
# table "Scaling" of results/benchmarks.md. Run it on a quiet machine; wall-clock figures move
# with the machine's load.
#
#   bash benches/scaling.sh                 # builds the release binary first
#   SHIFU=path/to/shifu SECONDS_EACH=5 bash benches/scaling.sh
#
# Each row is one `shifu bench --game G --players P --seconds S` (random agents, default data):
# it plays new seeds on one core for S seconds, then on a thread pool of every core for S seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SHIFU:-}" ]; then
  cargo build --release --bin shifu --quiet
  SHIFU=target/release/shifu
fi
secs=${SECONDS_EACH:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=("tofu-shifu 2" "tofu-shifu 4" "tofu-kingdom 5" "tofu-kingdom 8" "wok-star 2" "wok-star 4"
  "ginza-retro-cafe 2" "ginza-retro-cafe 4")
printf '| game | players | steps/s, 1 thread | games/s, 1 thread | games/s, %s threads | speed-up |\n' "$(nproc)"
printf '| --- | --- | --- | --- | --- | --- |\n'
for c in "${cases[@]}"; do
  read -r game players <<< "$c"
  "$SHIFU" bench --game "$game" --players "$players" --seconds "$secs" > "$work/r.json"
  python3 - "$work/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
one, every = r["single_core"], r["all_cores"]
print(f"| {r['game']} | {r['players']} | {one['steps_per_sec'] / 1e6:.2f} M | {one['games_per_sec']:,.0f} "
      f"| {every['games_per_sec']:,.0f} | {every['games_per_sec'] / one['games_per_sec']:.2f}x |")
PY
done
