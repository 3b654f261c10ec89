#!/bin/sh
# Regenerates results/balance.md and the JSON/SVG behind it (results/balance/):
#  1. Tofu Shifu at 4 players, greedy: the fairest start coins, 0..3 per seat (256 vectors), with
#     shifu balance's defaults (about 11 minutes of 2 cores: 1,333 CPU-seconds);
#  2. the race against the full grid at 2 and 3 players (16 and 64 vectors): every vector
#     played 12,800 games on the race's seeds (--full-grid). The 3-player grid is 819,200 games
#     (about 50 CPU-minutes);
#  3. every game's designer question under greedy: Ginza Retro Café's start-yen compensation by
#     turn position at 3 and 4 players (about 30 CPU-minutes), Tofu Kingdom's settings for a find
#     rate of one half at 4, 6 and 8 players (about 25), Wok Star's goal scale for a team win rate
#     of one half per difficulty and player count (about 3), and that Wok Star setting re-tested
#     under MCTS at 2 players, Medium (about 5);
#  4. (stage data) the recommended start coins at 2, 3 and 4 players re-tested on the other two
#     card-data reconstructions, on the validation seeds (10,000 games each, about 3 CPU-minutes).
# STAGES="4p eff2 eff3 data ginza tk wok wokmcts" (the default) picks what to run; a stage whose JSON
# exists is skipped.
set -eu
SHIFU=${SHIFU:-shifu}
cd "$(dirname "$0")"
mkdir -p balance
STAGES=${STAGES:-4p eff2 eff3 data ginza tk wok wokmcts}
run() { # run NAME ARGS...
  name=$1; shift
  if [ -f "balance/$name.json" ]; then echo "balance/$name.json exists; skipped"; return; fi
  $SHIFU balance --seed 1 --quiet --out "balance/$name.json" --svg "balance/$name.svg" "$@" \
    > "balance/$name.txt"
}
coins() { # coins NAME ARGS...: Tofu Shifu's start coins, 0..3 per seat, under greedy
  name=$1; shift
  run "$name" --game tofu-shifu --agents greedy --search start_coins=0..3 "$@"
}
TK_SPACE="--search deal=all-characters/blue-orange-lists --search centre_answer=say-centre/free
  --search extra_question=true/false --search centre_is_a_lie=true/false"
TK_FIND="--objective target:stats.finds/stats.princess_dealt=0.5 --objective distance"
for s in $STAGES; do
  case $s in
    4p) coins tofu_shifu_4p_greedy --players 4 ;;
    eff2) coins efficiency_2p_race --players 2; coins efficiency_2p_grid --players 2 --full-grid ;;
    eff3) coins efficiency_3p_race --players 3; coins efficiency_3p_grid --players 3 --full-grid ;;
    ginza)
      run ginza_3p_greedy --game ginza-retro-cafe --players 3 --agents greedy \
        --search start_yen_by_position=0..3
      run ginza_4p_greedy --game ginza-retro-cafe --players 4 --agents greedy \
        --search start_yen_by_position=0..2 --validation-games 5000 ;;
    tk)
      for p in 4 6 8; do
        # shellcheck disable=SC2086
        run "tofu_kingdom_${p}p_greedy" --game tofu-kingdom --players "$p" --agents greedy \
          $TK_SPACE $TK_FIND --budget 6000 --validation-games 2000 --finalists 2
      done ;;
    wok)
      for p in 2 3 4; do
        for d in mild medium extra_spicy; do
          run "wok_star_${p}p_${d}_greedy" --game wok-star --players "$p" --agents greedy \
            --set "difficulty=$d" --search goal_scale=0.2..1.0:0.01
        done
      done ;;
    data)
      # The recommended coins re-tested on the other two reconstructions, on the validation seeds.
      for src in tofu_shifu_4p_greedy:4 efficiency_3p_race:3 efficiency_2p_race:2; do
        name=${src%:*}; p=${src#*:}
        set_=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['recommended'][0]['set'][0])" "balance/$name.json")
        seed=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['validation_seed'])" "balance/$name.json")
        for d in reconstructed alternative; do
          f="balance/robust_${p}p_${d}.json"
          [ -f "$f" ] && { echo "$f exists; skipped"; continue; }
          $SHIFU seats --game tofu-shifu --players "$p" --data "builtin:$d" --set "$set_" \
            --agents greedy --games 10000 --seed "$seed" --quiet --json > "$f.tmp" && mv "$f.tmp" "$f"
        done
      done ;;
    wokmcts)
      run wok_star_2p_medium_mcts --game wok-star --players 2 --agents greedy \
        --set difficulty=medium --search goal_scale=0.2..1.0:0.01 --finalists 1 \
        --validate-agents mcts:iters=40,rollout=greedy,root=paired,depth=0 --validation-games 200 ;;
  esac
done
python3 balance.py > balance.md
