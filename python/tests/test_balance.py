"""`shifu.balance(...)`: the document `shifu balance --json` prints, as a dict, and the command's
messages for bad options."""

import json
import subprocess

import pytest

import shifu

# A tiny race over Tofu Kingdom's question options (random agents: fast).
CLI = ["balance", "--game", "tofu-kingdom", "--players", "4", "--agents", "random",
       "--search", "extra_question=true/false", "--search", "ask_where=true/false",
       "--objective", "target:stats.finds/stats.princess_dealt=0.5", "--first-look", "20", "--max-games", "80",
       "--budget", "200", "--finalists", "2", "--validation-games", "60", "--seed", "3", "--quiet", "--json"]


def without_seconds(doc):
    doc = dict(doc)
    doc.pop("seconds")
    return doc


def test_balance_returns_the_commands_json_document(shifu_bin):
    out = subprocess.run([shifu_bin, *CLI], check=True, capture_output=True)
    want = json.loads(out.stdout)
    got = shifu.balance("tofu-kingdom", 4, search=["extra_question=true/false", "ask_where=true/false"],
                        objective="target:stats.finds/stats.princess_dealt=0.5", agents="random", budget=200,
                        max_games=80, first_look=20, finalists=2, validation_games=60, seed=3, threads=1)
    assert without_seconds(got) == without_seconds(want)
    assert got["recommended"][0]["set"][0].startswith("extra_question=")


def test_balance_defaults_are_the_commands(shifu_bin):
    cli = [shifu_bin, "balance", "--players", "2", "--agents", "random", "--search", "start_coins=0..1",
           "--max-games", "8", "--first-look", "4", "--validation-games", "4", "--quiet", "--json"]
    want = json.loads(subprocess.run(cli, check=True, capture_output=True).stdout)
    got = shifu.balance(players=2, agents="random", search="start_coins=0..1", max_games=8, first_look=4,
                        validation_games=4)
    assert without_seconds(got) == without_seconds(want)


@pytest.mark.parametrize("extra, keywords", [
    (["--search", "extra_question"], {"search": "extra_question"}),
    (["--search", "extra_question=true/false", "--margin", "0"], {"search": "extra_question=true/false", "margin": 0}),
    (["--search", "extra_question=true/false", "--objective", "loud"],
     {"search": "extra_question=true/false", "objective": "loud"}),
    (["--search", "players=2..4"], {"search": "players=2..4"}),
    (["--search", "extra_question=true/false", "--agents", "mcts:bogus=1"],
     {"search": "extra_question=true/false", "agents": "mcts:bogus=1"}),
])
def test_balance_bad_options_raise_the_commands_message(shifu_bin, extra, keywords):
    cli = subprocess.run([shifu_bin, "balance", "--game", "tofu-kingdom", "--players", "4", "--quiet", *extra],
                         capture_output=True, text=True)
    assert cli.returncode == 2
    with pytest.raises(ValueError) as e:
        shifu.balance("tofu-kingdom", 4, **keywords)
    assert "error: " + str(e.value) == cli.stderr.strip()


def test_balance_option_the_parser_refuses_raises_value_error():
    with pytest.raises(ValueError, match="--search"):
        shifu.balance("tofu-kingdom", 4)
    with pytest.raises(ValueError, match="no_such_game|game"):
        shifu.balance("no_such_game", search="x=1..2")
