#!/usr/bin/env bash
# Runs the README's export snippet as a user would: its shell block (with `shifu` the binary the
# tests built), then its Python block in a fresh virtual environment with numpy from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin="$root/target/debug/shifu"
[ -x "$bin" ] || cargo build --bin shifu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The first fenced block after each marker line.
block() {
  awk -v m="$1" 'index($0, m) == 1 {on = 1; next}
    on && /^```/ {if (inside) exit; inside = 1; next}
    inside {print}' README.md
}
block '<!-- ci:export-sh' > "$work/export.sh"
block '<!-- ci:export-py' > "$work/export.py"
[ -s "$work/export.sh" ] && [ -s "$work/export.py" ] || { echo "README export snippet not found"; exit 1; }
# .ci/run passes the virtual environment it made for every Python step (numpy in it).
venv=${SHIFU_CI_VENV:-}
if [ -z "$venv" ]; then
  venv="$work/venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check numpy
fi
(cd "$work" && shifu() { "$bin" "$@"; } && . ./export.sh && "$venv/bin/python" export.py)
echo "README export snippet: ran"
