"""`shifu serve` in a real browser (issue 51 §3): for each game, the lobby sets up a table with
seat 1 human and random bots, and the test plays the whole game as seat 1 by clicking legal
action buttons until the result table appears. The scores shown must be the game log's, the log
must open in `shifu replay`, the page must log no console error and every request must go to the
server's own origin. Tofu Shifu is played short, set in the lobby: the game ends by its rules
after one completed objective (`end_objectives=1`) with objectives at half their cost, about 40
clicks (a random game of the standard rules runs to a thousand). It must end by the rules, not
by the round cap."""

from __future__ import annotations

import json
import random
import subprocess
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from helpers import console_errors, network_requests, shifu

GAMES = [
    ("tofu-shifu", 2,
     "end_objectives=1; player_objective_cost_scale=0.5; town_objective_cost_scale=0.5"),
    ("tofu-kingdom", 3, ""),
    ("wok-star", 2, ""),
    ("ginza-retro-cafe", 2, ""),
]


@pytest.fixture
def server(shifu_bin, tmp_path):
    """`shifu serve` on a free loopback port: (its base URL, its log folder)."""
    logs = tmp_path / "logs"
    proc = subprocess.Popen(
        [shifu_bin, "serve", "--bind", "127.0.0.1:0", "--logs", str(logs)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        words = [w for w in line.split() if w.startswith("http://")]
        assert words, f"no address in the server's first line: {line!r}"
        yield words[0].rstrip("/"), logs
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def result_rows(driver):
    return [
        (int(r.get_attribute("data-seat")), float(r.get_attribute("data-score")),
         int(r.get_attribute("data-rank")))
        for r in driver.find_elements(By.CSS_SELECTOR, "#result tr[data-seat]")
    ]


def ready(driver):
    """The page is over (the result shows) or waits for a click (enabled action buttons)."""
    if driver.find_elements(By.CSS_SELECTOR, "#result tr[data-seat]"):
        return "over"
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.action")
    if buttons and all(b.is_enabled() for b in buttons):
        return "turn"
    return False


def set_up_table(driver, base, game, players, overrides):
    driver.get(base + "/")
    WebDriverWait(driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, f"#game option[value='{game}']"))
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    count = driver.find_element(By.ID, "players")
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))",
        count, str(players))
    humans = driver.find_elements(By.CSS_SELECTOR, "#seats input.human")
    assert len(humans) == players
    assert [h.is_selected() for h in humans] == [True] + [False] * (players - 1)
    for agent in driver.find_elements(By.CSS_SELECTOR, "#seats input.agent")[1:]:
        agent.clear()
        agent.send_keys("random")
    if overrides:
        driver.find_element(By.ID, "set").send_keys(overrides)
    driver.find_element(By.ID, "create").click()
    WebDriverWait(driver, 30).until(lambda d: "/table/" in d.current_url)


@pytest.mark.parametrize("game,players,overrides", GAMES)
def test_a_whole_game_against_random_bots_by_clicking(driver, server, shifu_bin, tmp_path, game,
                                                      players, overrides):
    base, logs = server
    rng = random.Random(7)
    set_up_table(driver, base, game, players, overrides)
    table = urlsplit(driver.current_url).path.rsplit("/", 1)[-1]
    clicks = 0
    while True:
        state = WebDriverWait(driver, 60).until(ready)
        if state == "over":
            break
        assert clicks < 3000, "the game does not end"
        done = len(driver.find_elements(By.CSS_SELECTOR, "#action-list li"))
        buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.action")
        indices = [int(b.get_attribute("data-action")) for b in buttons]
        assert indices == list(range(len(buttons))), "the buttons are not the legal list in order"
        assert all(b.text.strip() for b in buttons), "an action button without a name"
        rng.choice(buttons).click()
        clicks += 1
        WebDriverWait(driver, 60).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#action-list li")) > done)
    assert clicks > 0

    rows = result_rows(driver)
    assert [r[0] for r in rows] == list(range(1, players + 1))
    log = logs / f"{table}.jsonl"
    assert log.exists(), f"no game log {log}"
    line = json.loads(log.read_text())
    assert line["agents"] == ["human"] + ["random"] * (players - 1)
    assert [r[1] for r in rows] == [float(s) for s in line["result"]["score"]]
    assert [r[2] for r in rows] == line["result"]["rank"]
    assert line["result"]["capped"] is False, "the game ended at the round cap, not by the rules"
    shifu(shifu_bin, "replay", "--log", str(log), "--row", "0", "--out", str(tmp_path / "r.html"))

    assert console_errors(driver) == []
    origin = urlsplit(base)
    foreign = [u for u in network_requests(driver)
               if (urlsplit(u).scheme, urlsplit(u).netloc) != (origin.scheme, origin.netloc)]
    assert foreign == []
