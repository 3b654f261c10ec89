"""The results scripts that pair two agents on shared seeds (results/paired_duels.py and
results/paired_seats.py), on files written by the `shifu` command itself."""
import csv
import subprocess
import sys

from conftest import ROOT

DUELS = ROOT / "results/paired_duels.py"
SEATS = ROOT / "results/paired_seats.py"


def run(*args):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True)


def duel(shifu_bin, tmp_path, name, agents, *extra):
    out = tmp_path / f"{name}.csv"
    subprocess.run(
        [shifu_bin, "duel", "--game", "ginza-retro-cafe", "--players", "2", "--agents", agents,
         "--seeds", "12", "--seed", "3", "--threads", "1", "--out", str(out), *extra],
        check=True, capture_output=True,
    )
    return out


def test_a_duels_file_has_a_row_per_game_with_a_rotated_through_the_seats(shifu_bin, tmp_path):
    rows = list(csv.DictReader(open(duel(shifu_bin, tmp_path, "d", "greedy,random"))))
    assert len(rows) == 24
    assert [r["a_seat"] for r in rows[:4]] == ["1", "2", "1", "2"]
    assert {r["side"] for r in rows} == {"A"}
    assert all(r["seed_index"] == str(i // 2) for i, r in enumerate(rows))


def test_paired_duels_gives_each_score_and_the_paired_difference(shifu_bin, tmp_path):
    strong = duel(shifu_bin, tmp_path, "strong", "greedy,random")
    even = duel(shifu_bin, tmp_path, "even", "random,random")
    r = run(DUELS, strong, even)
    assert r.returncode == 0, r.stderr
    # The same agent in both seats of a seed shares that seed's win: exactly 0.5 a seed.
    assert "second: A's score 0.5000 [0.5000, 0.5000] over 24 games" in r.stdout, r.stdout
    first = next(x for x in r.stdout.splitlines() if x.startswith("first:"))
    diff = next(x for x in r.stdout.splitlines() if x.startswith("first minus second"))
    m = float(first.split()[3]) - 0.5
    assert diff.split(":")[1].split()[0] == f"{m:+.4f}", r.stdout


def test_paired_duels_refuses_other_seeds_or_a_file_of_another_kind(shifu_bin, tmp_path):
    a = duel(shifu_bin, tmp_path, "a", "greedy,random")
    other = tmp_path / "other.csv"
    subprocess.run(
        [shifu_bin, "duel", "--game", "ginza-retro-cafe", "--players", "2", "--agents",
         "greedy,random", "--seeds", "12", "--seed", "4", "--out", str(other)],
        check=True, capture_output=True,
    )
    r = run(DUELS, a, other)
    assert r.returncode == 2 and "not the same duel seeds" in r.stderr, r.stderr
    junk = tmp_path / "junk.csv"
    junk.write_text("game,seed\n1,2\n")
    r = run(DUELS, a, junk)
    assert r.returncode == 2 and "junk.csv" in r.stderr and "win_share" in r.stderr, r.stderr
    r = run(DUELS, a, tmp_path / "missing.csv")
    assert r.returncode == 2 and "missing.csv" in r.stderr, r.stderr
    # A file cut off mid-row, and a players field that is not a number: exit 2, no traceback.
    cut = tmp_path / "cut.csv"
    cut.write_text(a.read_text()[:150].rsplit(",", 3)[0] + "\n")
    r = run(DUELS, a, cut)
    assert r.returncode == 2 and "cut.csv" in r.stderr and "line" in r.stderr, r.stderr
    bad = tmp_path / "bad_players.csv"
    lines = a.read_text().splitlines()
    bad.write_text("\n".join([lines[0]] + ["x" + line[1:] for line in lines[1:]]) + "\n")
    r = run(DUELS, bad, bad)
    assert r.returncode == 2 and "players is 'x'" in r.stderr, r.stderr


def test_paired_duels_leaves_out_a_seed_with_a_capped_game(shifu_bin, tmp_path):
    a = duel(shifu_bin, tmp_path, "a", "greedy,random")
    rows = list(csv.DictReader(open(a)))
    rows[0]["capped"] = "true"
    b = tmp_path / "b.csv"
    with open(b, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    r = run(DUELS, a, b)
    assert r.returncode == 0, r.stderr
    assert "1 of 12 seeds left out" in r.stdout and "over 22 games" in r.stdout, r.stdout


def test_paired_seats_reproduces_a_duel_from_play_files(shifu_bin, tmp_path):
    def play(name, agents):
        out = tmp_path / f"{name}.csv"
        subprocess.run(
            [shifu_bin, "play", "--game", "ginza-retro-cafe", "--players", "2", "--agents",
             agents, "--games", "12", "--seed", "3", "--threads", "1", "--quiet", "--out", str(out)],
            check=True, capture_output=True,
        )
        return out

    r = run(SEATS, play("g1", "greedy,random"), play("g2", "random,greedy"), "--",
            play("r1", "random,random"), play("r2", "random,random"))
    assert r.returncode == 0, r.stderr
    assert "B: score 0.5000 [0.5000, 0.5000] over 24 games" in r.stdout, r.stdout
    r = run(SEATS, tmp_path / "g1.csv")
    assert r.returncode == 2, r.stdout
    cut = tmp_path / "cut.csv"
    cut.write_text((tmp_path / "g1.csv").read_text()[:400].rsplit(",", 3)[0] + "\n")
    r = run(SEATS, cut, tmp_path / "g2.csv", "--", tmp_path / "r1.csv", tmp_path / "r2.csv")
    assert r.returncode == 2 and "cut.csv: line 3 has fewer fields" in r.stderr, r.stderr
