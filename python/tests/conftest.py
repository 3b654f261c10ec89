import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def shifu_bin():
    """The `shifu` command built from this checkout (SHIFU_BIN, else target/release or
    target/debug); the comparisons with the command need it, so its absence is a failure."""
    for candidate in (os.environ.get("SHIFU_BIN"), ROOT / "target/release/shifu", ROOT / "target/debug/shifu"):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    found = shutil.which("shifu")
    if found:
        return found
    pytest.fail("no shifu binary: build it with `cargo build --release` or set SHIFU_BIN")
