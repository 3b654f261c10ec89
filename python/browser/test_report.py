"""`shifu report --html` pages in a real browser (issue 51): the heatmap of a small sweep has one
cell per setting with the sweep CSV's verdict, tooltips show on hover, "export SVG" hands over a
standalone SVG file, markup in a file stays inert, and no page logs a console error or requests
anything from the network."""

from __future__ import annotations

import csv

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from helpers import console_errors, network_requests, shifu

SWEEP = ["--players", "2", "--vary", "start_coins=1,1/2,2/3,3", "--vary", "max_rounds=30,80",
         "--games", "8", "--quiet"]

# Records the blob and the file name an export would download, instead of downloading.
CATCH_EXPORT = """
window.__blobs = [];
window.__downloads = [];
const create = URL.createObjectURL;
URL.createObjectURL = function (b) { window.__blobs.push(b); return create.call(URL, b); };
HTMLAnchorElement.prototype.click = function () { window.__downloads.push(this.download); };
"""


def open_page(driver, path):
    url = path.resolve().as_uri()
    driver.get(url)
    return url


def assert_clean(driver, url):
    assert console_errors(driver) == []
    assert [u for u in network_requests(driver) if u != url] == []


def sweep_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_sweep_heatmap_cells_match_the_csv(driver, shifu_bin, tmp_path):
    table, page = tmp_path / "sweep.csv", tmp_path / "sweep.html"
    shifu(shifu_bin, "sweep", *SWEEP, "--out", str(table))
    shifu(shifu_bin, "report", str(table), "--html", str(page))
    rows = sweep_rows(table)
    grid_rows = {r["cell"].split(" ", 1)[0] for r in rows}
    grid_cols = {r["cell"].split(" ", 1)[1] for r in rows}

    url = open_page(driver, page)
    cells = driver.find_elements(By.CSS_SELECTOR, "svg.heatmap rect.cell")
    assert len(cells) == len(grid_rows) * len(grid_cols) == len(rows) == 6
    by_name = {c.get_attribute("data-cell"): c for c in cells}
    for r in rows:
        c = by_name[r["cell"]]
        assert c.get_attribute("data-verdict") == r["verdict"]
        assert c.get_attribute("data-row") + " " + c.get_attribute("data-col") == r["cell"]
        if r["unfairness"]:
            assert float(c.get_attribute("data-gap")) == float(r["unfairness"])
        if r["verdict"] == "no_verdict":
            assert c.get_attribute("fill") == "#bdbdbd"

    # The tooltip: hovering a cell shows its name and verdict.
    first = rows[0]
    ActionChains(driver).move_to_element(by_name[first["cell"]]).perform()
    tip = driver.find_element(By.ID, "tooltip")
    assert tip.is_displayed()
    assert first["cell"] in tip.text and "verdict: " + first["verdict"] in tip.text
    assert_clean(driver, url)


def test_export_hands_over_a_standalone_svg(driver, shifu_bin, tmp_path):
    table, page = tmp_path / "sweep.csv", tmp_path / "sweep.html"
    shifu(shifu_bin, "sweep", *SWEEP, "--out", str(table))
    shifu(shifu_bin, "report", str(table), "--html", str(page))
    url = open_page(driver, page)
    driver.execute_script(CATCH_EXPORT)
    driver.find_element(By.CSS_SELECTOR, "figure.chart[data-name='sweep-heatmap'] button.export").click()
    assert driver.execute_script("return window.__downloads") == ["sweep-heatmap.svg"]
    text = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; window.__blobs[0].text().then(done);")
    assert driver.execute_script("return window.__blobs[0].type") == "image/svg+xml"
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')
    assert 'xmlns="http://www.w3.org/2000/svg"' in text
    assert text.count('class="cell"') == 6
    assert_clean(driver, url)


def test_markup_in_a_file_stays_inert(driver, shifu_bin, tmp_path):
    table, evil_table, page = tmp_path / "sweep.csv", tmp_path / "evil.csv", tmp_path / "evil.html"
    shifu(shifu_bin, "sweep", *SWEEP, "--out", str(table))
    evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    rows = sweep_rows(table)
    with open(evil_table, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for r in rows:
            w.writerow({**r, "cell": evil + r["cell"]})
    shifu(shifu_bin, "report", str(evil_table), "--html", str(page))
    url = open_page(driver, page)
    assert driver.execute_script("return window.__pwned") is None
    assert driver.find_elements(By.TAG_NAME, "img") == []
    cells = driver.find_elements(By.CSS_SELECTOR, "svg.heatmap rect.cell")
    assert len(cells) == len(rows)
    assert all(c.get_attribute("data-cell").startswith(evil) for c in cells)
    # The name is shown as text, in the table.
    assert evil in driver.find_element(By.CSS_SELECTOR, "table.data").text
    assert_clean(driver, url)


def test_run_page_draws_the_seats_and_the_game_lengths(driver, shifu_bin, tmp_path):
    run, page = tmp_path / "run.csv", tmp_path / "run.html"
    shifu(shifu_bin, "play", "--players", "3", "--agents", "greedy", "--games", "30", "--out", str(run))
    shifu(shifu_bin, "report", str(run), "--html", str(page))
    url = open_page(driver, page)
    bars = driver.find_elements(By.CSS_SELECTOR, "svg.seat-chart rect.bar")
    assert [b.get_attribute("data-seat") for b in bars] == ["1", "2", "3"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg.seat-chart rect.band")) == 1
    lengths = driver.find_elements(By.CSS_SELECTOR, "svg.length-chart rect.bar")
    assert sum(int(b.get_attribute("data-games")) for b in lengths) == 30
    assert len(driver.find_elements(By.CSS_SELECTOR, "figure.chart button.export")) == 2
    assert_clean(driver, url)
