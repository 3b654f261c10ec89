# Sourced by the results scripts: run from the repository root and set SHIFU to the binary
# (built here unless SHIFU already names one).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SHIFU=${SHIFU:-}
if [ -z "$SHIFU" ]; then
  cargo build --release --bin shifu
  SHIFU=target/release/shifu
fi
