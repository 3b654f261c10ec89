"""The batch API: the same rows as the command, whatever the thread count, and the seat
analysis of `shifu seats`."""

import subprocess

import numpy as np
import pytest

import shifu


def test_play_csv_is_byte_for_byte_the_file_shifu_play_writes(shifu_bin, tmp_path):
    out = tmp_path / "run.csv"
    subprocess.run(
        [shifu_bin, "play", "--game", "tofu-kingdom", "--players", "5", "--agents", "greedy,random,greedy,random,greedy",
         "--games", "120", "--seed", "9", "--set", "extra_question=false", "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    got = shifu.play_csv("tofu-kingdom", 5, ["greedy", "random", "greedy", "random", "greedy"], 120, 9,
                         {"extra_question": False})
    assert got == out.read_bytes()


def test_rotated_runs_match_the_command_too(shifu_bin, tmp_path):
    out = tmp_path / "rot.csv"
    subprocess.run(
        [shifu_bin, "play", "--players", "3", "--agents", "greedy,random,random", "--rotate",
         "--games", "30", "--seed", "4", "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    assert shifu.play_csv("tofu-shifu", 3, "greedy,random,random", 30, 4, rotate=True) == out.read_bytes()


def test_rows_do_not_depend_on_the_thread_count_or_the_slice():
    one = shifu.play_csv("wok-star", 3, "greedy", 60, 2, threads=1)
    two = shifu.play_csv("wok-star", 3, "greedy", 60, 2, threads=2)
    assert one == two
    head = shifu.play_csv("wok-star", 3, "greedy", 60, 2, start=0, end=25)
    tail = shifu.play_csv("wok-star", 3, "greedy", 60, 2, start=25, end=60, header=False)
    assert head + tail == one


def test_play_returns_a_dataframe_with_the_csv_columns():
    df = shifu.play("tofu-shifu", 4, "random", 200, 1)
    header = shifu.play_csv("tofu-shifu", 4, "random", 1, 1).decode().splitlines()[0].split(",")
    assert list(df.columns) == header
    assert len(df) == 200 and df["game"].tolist() == list(range(200))
    assert df["players"].eq(4).all() and df["game_name"].eq("tofu-shifu").all()
    assert df["seed"].dtype == np.uint64


def test_seats_agrees_with_the_rows():
    kwargs = dict(game="ginza-retro-cafe", players=3, agents="greedy,random,random", games=300, seed=3)
    s = shifu.seats(**kwargs)
    df = shifu.play(**kwargs)
    wins = np.zeros(3)
    for w in df["winners"]:
        seats = [int(x) - 1 for x in str(w).split("|")]
        for x in seats:
            wins[x] += 1 / len(seats)
    assert np.allclose(s.table["win_share"], wins / 300)
    assert np.allclose(s.table["mean_rank"], [df[f"rank_{i}"].mean() for i in (1, 2, 3)])
    assert s.capped == int(df["capped"].sum())
    assert (s.table["ci_low"] <= s.table["win_share"]).all() and (s.table["win_share"] <= s.table["ci_high"]).all()
    assert 0.0 <= s.p_value <= 1.0
    assert "capped" in str(s) and "chi-square" in str(s)


def test_seats_gives_the_equivalence_verdict_at_the_margin():
    # 60 two-seat greedy games: too few to show fairness within ±0.02 or a gap.
    a = shifu.seats("tofu-shifu", 2, "greedy", 60, seed=1)
    assert a.verdict == "undetermined" and a.margin == 0.02
    assert a.games_needed > 60 and a.p_equivalence > 0.05
    assert a.verdict_text.startswith("verdict: undetermined at ±0.02")
    assert a.summary["stats"]["equivalence"]["verdict"] == a.verdict
    assert a.balance_ci[0] <= a.balance_corrected <= a.balance_ci[1] <= 1.0
    # The same games within ±0.3: every seat is shown inside it.
    b = shifu.seats("tofu-shifu", 2, "greedy", 60, seed=1, margin=0.3)
    assert b.verdict == "fair" and b.p_equivalence < 0.05 and b.games_needed is None
    assert b.verdict_text.startswith("verdict: fair within ±0.3")
    # A cooperative game has no seat verdict.
    assert shifu.seats("wok-star", 2, "greedy", 4, seed=1).verdict is None
    with pytest.raises(ValueError, match="margin"):
        shifu.seats("tofu-shifu", 2, "greedy", 10, margin=0.7)


def test_bad_runs_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="unknown game"):
        shifu.play("go", 2, "random", 10)
    with pytest.raises(ValueError, match="at least 1"):
        shifu.play("tofu-shifu", 2, "random", 0)
    with pytest.raises(ValueError, match="unknown agent"):
        shifu.play("tofu-shifu", 2, "alphazero", 10)
    with pytest.raises(ValueError, match="not a slice"):
        shifu.play_csv("tofu-shifu", 2, "random", 10, start=5, end=20)


def test_threads_capped_at_four_per_core():
    # Issue 46 §2 item 14: threads=10**6 was accepted.
    with pytest.raises(ValueError, match="threads"):
        shifu.play_csv("tofu-shifu", 2, "random", 4, 1, threads=10**6)
