"""`shifu replay` pages in a real browser (issue 51): for each game, the page steps to the end
by keyboard and buttons, shows the same scores and ranks as `shifu show --json` for the same
game, logs no console error and requests nothing from the network."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import console_errors, network_requests, shifu

GAMES = [
    ("tofu-shifu", 4, "greedy"),
    ("tofu-kingdom", 4, "greedy"),
    ("wok-star", 2, "greedy"),
    ("ginza-retro-cafe", 3, "greedy"),
]


def open_page(driver, path):
    url = path.resolve().as_uri()
    driver.get(url)
    return url


def result_rows(driver):
    rows = driver.find_elements(By.CSS_SELECTOR, "#result tr[data-seat]")
    return [
        (int(r.get_attribute("data-seat")), float(r.get_attribute("data-score")),
         int(r.get_attribute("data-rank")))
        for r in rows
    ]


@pytest.mark.parametrize("game,players,agents", GAMES)
def test_replay_page_steps_to_the_scores_of_show(driver, shifu_bin, tmp_path, game, players, agents):
    seed = "7"
    page = tmp_path / f"{game}.html"
    common = ["--game", game, "--players", str(players), "--seed", seed, "--agents", agents]
    shifu(shifu_bin, "replay", *common, "--out", str(page))
    shown = json.loads(shifu(shifu_bin, "show", *common, "--json"))
    outcome = shown["outcome"]
    assert outcome is not None, "show --json gave no outcome: the game did not end"

    url = open_page(driver, page)
    label = driver.find_element(By.ID, "step-label")
    slider = driver.find_element(By.ID, "step-slider")
    last = int(slider.get_attribute("max"))
    assert last > 0
    assert label.text == f"step 1 of {last}"
    assert result_rows(driver) == [], "the result shows before the last step"
    # The board is drawn: at least one row of items in the SVG.
    assert driver.find_elements(By.CSS_SELECTOR, "#board g.row")

    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert label.text == f"step 3 of {last}"
    body.send_keys(Keys.ARROW_LEFT)
    assert label.text == f"step 2 of {last}"
    driver.find_element(By.ID, "next").click()
    assert slider.get_attribute("value") == "2"
    body.send_keys(Keys.END)
    assert label.text == f"end ({last} steps)"

    rows = result_rows(driver)
    assert [r[0] for r in rows] == list(range(1, players + 1))
    assert [r[1] for r in rows] == [float(s) for s in outcome["score"][:players]]
    assert [r[2] for r in rows] == outcome["rank"][:players]
    # The action list has one entry per step, and the last step's board still draws.
    assert len(driver.find_elements(By.CSS_SELECTOR, "#action-list li")) == last
    driver.find_element(By.ID, "first").click()
    assert label.text == f"step 1 of {last}"

    assert console_errors(driver) == []
    assert [u for u in network_requests(driver) if u != url] == []


def test_seat_view_page_marks_its_seat(driver, shifu_bin, tmp_path):
    page = tmp_path / "tk-seat2.html"
    shifu(shifu_bin, "replay", "--game", "tofu-kingdom", "--players", "4", "--seed", "7",
          "--agents", "greedy", "--seat", "2", "--out", str(page))
    url = open_page(driver, page)
    assert "the view of player 2" in driver.find_element(By.ID, "origin").text
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#result tr[data-seat]")) == 4
    assert console_errors(driver) == []
    assert [u for u in network_requests(driver) if u != url] == []
