#!/usr/bin/env bash
# Regenerates sections of results/tofu_kingdom.md, one command per finding:
#     bash results/tofu_kingdom.sh SECTION...   (prince answerers deal rules rewards questions
#                                                roles steals length, or all; --fresh reruns)
# About two hours on 2 cores for all; runs are cached in results/tofu_kingdom/runs/ (not
# committed) so that sections sharing a run do not repeat it.
source "$(dirname "$0")/shifu.sh"
python3 results/tofu_kingdom.py "$SHIFU" "$@"
