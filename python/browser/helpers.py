"""What the browser tests check on every page: console errors and network requests."""

from __future__ import annotations

import json
import subprocess


def console_errors(driver) -> list[str]:
    """The SEVERE entries of the browser console since the last call (the log is drained)."""
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def network_requests(driver) -> list[str]:
    """Every URL the page asked for since the last call, from Chrome's DevTools network events
    (failed and blocked requests included), except `data:` and `blob:` URLs. The document's own
    navigation is included: callers drop the URL they opened."""
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            url = msg["params"]["request"]["url"]
            if not url.startswith(("data:", "blob:")):
                urls.append(url)
    return urls


def shifu(bin_path: str, *args: str, timeout: float = 600) -> str:
    """Runs shifu with `args`, returns its stdout; a failure shows its stderr."""
    out = subprocess.run([bin_path, *args], capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, f"shifu {' '.join(args)} exited {out.returncode}: {out.stderr}"
    return out.stdout
