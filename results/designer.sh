#!/usr/bin/env bash
# Regenerates results/designer.md: the designer analyses of issue 48 under greedy play, each on
# common seeds with a 95% interval (about 11 CPU-minutes):
#  - Tofu Shifu at 4 players: the town and player objective cost scales (dose-response over
#    0.5..1.5), and the value of one start coin per seat (32 vectors of 0..3 drawn with the seed, 1,000
#    games each; at 3 players every vector, 500 games each);
#  - restricted play (`shifu mechanics`) in all four games: what each named mechanic is worth.
# Every run's text output goes in the file under the command that printed it (add --json to a
# command for its machine-readable result).
#     bash results/designer.sh
source "$(dirname "$0")/shifu.sh"
out=results/designer.md
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

section() { # section TITLE COMMAND...
  local title=$1
  shift
  echo "running: shifu $*" >&2
  {
    echo "## $title"
    echo
    echo '```'
    echo "shifu $*"
    echo '```'
    echo
    echo '```text'
    "$SHIFU" "$@" --quiet
    echo '```'
    echo
  } >> "$tmp"
}

{
  echo "# Designer analyses (greedy play)"
  echo
  echo "Regenerate with \`bash results/designer.sh\`. Every figure below is greedy play on the"
  echo "embedded default data (Tofu Shifu: the calibrated reconstruction; the other games: their"
  echo "reconstructions), common seeds across settings, 95% intervals. Greedy is the agent that"
  echo "plays thousands of games a second; the MCTS checks are in results/README.md."
  echo
} > "$tmp"

section "Tofu Shifu, 4 players: town objective cost scale" \
  dose --game tofu-shifu --players 4 --agents greedy --vary town_objective_cost_scale=0.5..1.5:0.25 --games 4000 --seed 48
section "Tofu Shifu, 4 players: player objective cost scale" \
  dose --game tofu-shifu --players 4 --agents greedy --vary player_objective_cost_scale=0.5..1.5:0.25 --games 4000 --seed 48
section "Tofu Shifu, 4 players: the value of one start coin" \
  dose --game tofu-shifu --players 4 --agents greedy --per-seat start_coins=0..3 --vectors 32 --games 1000 --seed 48
section "Tofu Shifu, 3 players: the value of one start coin (every vector of 0..3)" \
  dose --game tofu-shifu --players 3 --agents greedy --per-seat start_coins=0..3 --vectors 64 --games 500 --seed 48
section "Tofu Shifu, 4 players: what each mechanic is worth" \
  mechanics --game tofu-shifu --players 4 --agent greedy --seeds 2000 --seed 48
section "Ginza Retro Café, 3 players: what each mechanic is worth" \
  mechanics --game ginza-retro-cafe --players 3 --agent greedy --seeds 1000 --seed 48
section "Tofu Kingdom, 4 players: what each question is worth" \
  mechanics --game tofu-kingdom --players 4 --agent greedy --seeds 500 --seed 48
# Greedy loses nearly every Wok Star game at the rulebook's goals; at 0.6 of the Mild goals it
# wins about 0.6 of its games, so there a mechanic's loss can show.
section "Wok Star, 3 players, Mild at 0.6 of its goals: what each mechanic is worth" \
  mechanics --game wok-star --players 3 --set difficulty=mild --set goal_scale=0.6 --agent greedy --seeds 4000 --seed 48

mv "$tmp" "$out"
trap - EXIT
echo "wrote $out" >&2
