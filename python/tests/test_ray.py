"""shifu.ray on a local Ray: the merged study is byte for byte the one-process run, and a
killed study resumes."""

import json

import pytest
import ray  # CI installs it: a missing Ray fails these tests rather than skipping them

import shifu
import shifu.ray


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


SETTINGS = dict(game="tofu-kingdom", players=6, agents="greedy", games=90, seed=5, params={"end_check": "after-steals"})


def test_a_study_across_ray_tasks_equals_the_one_process_run(local_ray, tmp_path, shifu_bin):
    import subprocess

    out = shifu.ray.study(**SETTINGS, shards=7, out=tmp_path / "study.csv")
    single = shifu.play_csv(**SETTINGS)
    assert out.read_bytes() == single
    cli = tmp_path / "cli.csv"
    subprocess.run([shifu_bin, "play", "--game", "tofu-kingdom", "--players", "6", "--agents", "greedy", "--games", "90",
                    "--seed", "5", "--set", "end_check=after-steals", "--quiet", "--out", str(cli)], check=True,
                   capture_output=True)
    assert out.read_bytes() == cli.read_bytes()


def test_a_killed_study_resumes_and_plays_only_the_missing_shards(local_ray, tmp_path):
    out = tmp_path / "study.csv"
    shifu.ray.study(**SETTINGS, shards=5, out=out)
    whole = out.read_bytes()
    parts = tmp_path / "study.csv.parts"
    # As after a kill: the result not yet written, two shards lost, one half-written.
    out.unlink()
    (parts / "shard-00001-of-00005.csv").unlink()
    (parts / "shard-00004-of-00005.csv").unlink()
    (parts / "shard-00002-of-00005.csv.tmp").write_bytes(b"garbage")
    kept = (parts / "shard-00003-of-00005.csv").stat().st_mtime_ns
    shifu.ray.study(**SETTINGS, shards=5, out=out)
    assert out.read_bytes() == whole
    assert (parts / "shard-00003-of-00005.csv").stat().st_mtime_ns == kept


def test_a_study_never_mixes_settings_or_overwrites_a_result(local_ray, tmp_path):
    out = tmp_path / "study.csv"
    shifu.ray.study(**SETTINGS, shards=3, out=out)
    with pytest.raises(FileExistsError):
        shifu.ray.study(**SETTINGS, shards=3, out=out)
    out.unlink()
    other = dict(SETTINGS, seed=6)
    with pytest.raises(ValueError, match="seed"):
        shifu.ray.study(**other, shards=3, out=out)
    assert json.loads((tmp_path / "study.csv.parts" / "study.json").read_text())["seed"] == 5
    with pytest.raises(ValueError, match="no_such"):
        shifu.ray.study(**dict(SETTINGS, params={"no_such": 1}), shards=3, out=tmp_path / "x.csv")
