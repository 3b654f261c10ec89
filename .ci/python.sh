#!/usr/bin/env bash
# The Python module as a user gets it: a fresh virtual environment with maturin, pettingzoo,
# numpy, pandas, pytest, ray and open_spiel from PyPI; the wheel built with maturin and installed; then the
# tests in python/tests (PettingZoo's api_test, seed_test and parallel_api_test for every game and
# player count, Gymnasium's check_env for every game, the batch API against the `shifu` command
# byte for byte, a Ray study on a local Ray against the one-process run, the vector environment
# against the single one); then the vector environment's benchmark against pyspiel and the
# MaskablePPO example (sb3-contrib and torch from .ci/rl-requirements.txt), each at a smoke size;
# and, with torch, a policy-value network's PyTorch round trip (python/tests/test_net_torch.py).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# .ci/run passes the virtual environment it made for every Python step (with these packages).
venv=${SHIFU_CI_VENV:-}
if [ -z "$venv" ]; then
  venv="$work/venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r .ci/python-requirements.txt
fi
py="$venv/bin/python"
# The `pyci` profile (Cargo.toml): optimised without link-time optimisation, to keep CI short;
# `pip install ./python` builds with the release profile.
"$venv/bin/maturin" build --quiet --manifest-path python/Cargo.toml --profile pyci \
  --interpreter "$py" --out "$work/wheel"
"$py" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$work"/wheel/shifu-*.whl
bin="$root/target/debug/shifu"
[ -x "$bin" ] || cargo build --bin shifu
# From outside the repository, so that the installed wheel (not python/shifu) is what is tested.
(cd "$work" && SHIFU_BIN="$bin" "$py" -m pytest -q -p no:cacheprovider --durations=5 "$root/python/tests")
# The vector environment against pyspiel (open_spiel from PyPI), at a smoke size: the script runs.
(cd "$work" && "$py" "$root/benches/python/vector_vs_pyspiel.py" --seconds 0.2 --repeats 1 --sizes 8 > /dev/null)
echo "python: the wheel's tests passed"
# The MaskablePPO example end to end at a smoke size (512 timesteps, 20 evaluation games, a few
# seconds); its full run is results/maskable_ppo.md.
"$venv/bin/pip" install --quiet --disable-pip-version-check -r .ci/rl-requirements.txt
# The PyTorch round trip of a policy-value network (safetensors.torch), now that torch is here:
# skipped in the run above, required here.
(cd "$work" && SHIFU_BIN="$bin" SHIFU_REQUIRE_TORCH=1 "$py" -m pytest -q -p no:cacheprovider "$root/python/tests/test_net_torch.py")
echo "python: the PyTorch round trip of a network passed"
(cd "$work" && "$py" "$root/examples/maskable_ppo.py" --timesteps 512 --eval-games 20 --out "$work/rl")
grep -q '^| MaskablePPO (deterministic) | 20 |' "$work/rl/maskable_ppo.md"
test -s "$work/rl/maskable_ppo_curve.csv" && test -s "$work/rl/maskable_ppo_curve.svg"
echo "python: the MaskablePPO example ran at a smoke size"
