#!/usr/bin/env bash
# Browser tests (python/browser): replay pages, reports and `shifu serve` in a real headless
# Chromium, driven by selenium. Debian's `chromium` and `chromium-driver` are installed with
# apt-get when missing (no browser build can be downloaded on these machines); selenium goes into
# the CI virtual environment ($SHIFU_CI_VENV, or a fresh one). Then the pages of the README's
# screenshots are taken again into a scratch folder, so that their script keeps working.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! command -v chromium > /dev/null 2>&1 || ! command -v chromedriver > /dev/null 2>&1; then
  as_root=()
  [ "$(id -u)" = 0 ] || as_root=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -q > /dev/null
  "${as_root[@]}" apt-get install -y -q chromium chromium-driver > /dev/null
fi
venv=${SHIFU_CI_VENV:-}
if [ -z "$venv" ]; then
  venv=$(mktemp -d)/venv
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check pytest
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check 'selenium>=4.11,<5'
bin="$root/target/debug/shifu"
[ -x "$bin" ] || cargo build --bin shifu
echo "browser: $(chromium --version 2>/dev/null | head -n 1)"
SHIFU_BIN="$bin" "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/browser"
shots=$(mktemp -d)
SHIFU_BIN="$bin" "$venv/bin/python" "$root/python/browser/screenshots.py" --out "$shots"
echo "browser: the browser tests passed"
