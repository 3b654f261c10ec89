"""Screenshots of each game's replay board and of a sweep report for the README
(docs/board-<game>.png, docs/report-sweep.png):

    SHIFU_BIN=target/debug/shifu python python/browser/screenshots.py --out docs

Each board is `shifu replay --game G --players N --seed 7 --agents greedy`, shown at the middle
of the game; the report is `shifu report --html` of the sweep in `REPORT_SWEEP`. Both are taken
in a headless Chromium 1400 × 1000 pixels wide.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

BOARDS = [("tofu-shifu", 4), ("tofu-kingdom", 4), ("wok-star", 2), ("ginza-retro-cafe", 3)]

# A sweep with fair, unfair and capped cells, a few seconds with the debug binary.
REPORT_SWEEP = ["sweep", "--game", "tofu-kingdom", "--players", "4", "--agents", "random",
                "--vary", "winning_score=2,4,7,10", "--vary", "max_rounds=6,12,100",
                "--games", "1000", "--margin", "0.05", "--seed", "7", "--quiet"]


def report_sweep(driver, shifu: str, tmp: Path, out: Path) -> None:
    """The sweep report's screenshot."""
    shifu = str(Path(shifu).resolve())
    subprocess.run([shifu, *REPORT_SWEEP, "--out", "sweep.csv"], check=True, capture_output=True,
                   cwd=tmp)
    subprocess.run([shifu, "report", "sweep.csv", "--html", "sweep.html"], check=True,
                   capture_output=True, cwd=tmp)
    driver.get((tmp / "sweep.html").resolve().as_uri())
    png = out / "report-sweep.png"
    driver.save_screenshot(str(png))
    print(png)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path, help="folder of the PNG files")
    args = ap.parse_args()
    shifu = os.environ.get("SHIFU_BIN", "target/debug/shifu")
    args.out.mkdir(parents=True, exist_ok=True)
    opts = Options()
    opts.binary_location = os.environ.get("SHIFU_CHROMIUM", "/usr/bin/chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000", "--hide-scrollbars"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(
        service=Service(os.environ.get("SHIFU_CHROMEDRIVER", "/usr/bin/chromedriver")),
        options=opts)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for game, players in BOARDS:
                page = Path(tmp) / f"{game}.html"
                subprocess.run([shifu, "replay", "--game", game, "--players", str(players),
                                "--seed", "7", "--agents", "greedy", "--out", str(page)],
                               check=True, capture_output=True)
                driver.get(page.resolve().as_uri())
                last = int(driver.find_element("id", "step-slider").get_attribute("max"))
                driver.execute_script(
                    "const s = document.getElementById('step-slider');"
                    "s.value = arguments[0]; s.dispatchEvent(new Event('input'));", last // 2)
                png = args.out / f"board-{game}.png"
                driver.save_screenshot(str(png))
                print(png)
            report_sweep(driver, shifu, Path(tmp), args.out)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
