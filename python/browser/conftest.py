"""Fixtures of the browser tests: a headless Chromium driven by selenium, and the shifu binary.

Debian's `chromium` and `chromium-driver` are used as installed (`.ci/browser.sh` installs them);
selenium is given both paths, so its manager downloads nothing. The console log and Chrome's
DevTools network events are captured, for `helpers.console_errors` and `helpers.network_requests`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SHIFU_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("SHIFU_CHROMEDRIVER", "/usr/bin/chromedriver")


@pytest.fixture
def driver():
    """A fresh headless Chromium per test, closed after it."""
    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1000",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    d.set_page_load_timeout(60)
    try:
        yield d
    finally:
        d.quit()


@pytest.fixture
def shifu_bin() -> str:
    """The shifu binary: `SHIFU_BIN`, or the debug build of this checkout."""
    path = os.environ.get("SHIFU_BIN", str(ROOT / "target" / "debug" / "shifu"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"no shifu binary at {path}: build it (cargo build --bin shifu) or set SHIFU_BIN")
    return path
