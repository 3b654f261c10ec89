"""The README's Slurm and Kubernetes examples (deploy/): every shard run as the scheduler would
run it, then `shifu merge`, gives the one-machine file; the sharded balance gives the one-machine
result."""

import json
import os
import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
GAMES = "48"


def single_run(shifu_bin, tmp_path):
    out = tmp_path / "single.csv"
    subprocess.run([shifu_bin, "play", "--game", "tofu-shifu", "--players", "4", "--agents", "greedy", "--games", GAMES,
                    "--seed", "1", "--quiet", "--out", str(out)], check=True, capture_output=True)
    return out.read_bytes()


def merge(shifu_bin, out, parts):
    subprocess.run([shifu_bin, "merge", "--out", str(out), *map(str, parts)], check=True, capture_output=True)
    return out.read_bytes()


def env_with(shifu_bin, **extra):
    env = dict(os.environ, SHIFU_GAMES=GAMES, **extra)
    env["PATH"] = f"{Path(shifu_bin).parent}:{env['PATH']}"
    return env


def test_the_slurm_array_job_merges_to_the_one_machine_file(shifu_bin, tmp_path):
    script = ROOT / "deploy" / "slurm.sbatch"
    for k in range(16):
        subprocess.run(["bash", str(script)], cwd=tmp_path, check=True, capture_output=True,
                       env=env_with(shifu_bin, SLURM_ARRAY_TASK_ID=str(k), SLURM_CPUS_PER_TASK="1"))
    parts = sorted((tmp_path / "study").glob("part-*.csv"))
    assert len(parts) == 16
    assert merge(shifu_bin, tmp_path / "study.csv", parts) == single_run(shifu_bin, tmp_path)


def test_the_kubernetes_indexed_job_merges_to_the_one_machine_file(shifu_bin, tmp_path):
    job = yaml.safe_load((ROOT / "deploy" / "kubernetes-indexed-job.yaml").read_text())
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    container = spec["template"]["spec"]["containers"][0]
    command = container["command"] + container["args"]
    study = tmp_path / "study"
    study.mkdir()
    for k in range(spec["completions"]):
        subprocess.run(command, check=True, capture_output=True,
                       env=env_with(shifu_bin, JOB_COMPLETION_INDEX=str(k), STUDY_DIR=str(study)))
    parts = sorted(study.glob("part-*.csv"))
    assert len(parts) == spec["completions"]
    assert merge(shifu_bin, tmp_path / "study.csv", parts) == single_run(shifu_bin, tmp_path)


# The sharded balance examples: every shard runs at once (each waits for the others' parts), with
# SHIFU_MAX_GAMES cutting the race and the validation to a few games, over a smaller space.
BALANCE_CUT = "4"
SEARCH = "start_coins=0..1"


def balance_result(text):
    doc = json.loads(text)
    doc.pop("seconds")
    return doc


def single_balance(shifu_bin, tmp_path):
    out = subprocess.run([shifu_bin, "balance", "--game", "tofu-shifu", "--players", "4", "--agents", "greedy",
                          "--search", SEARCH, "--seed", "1", "--quiet", "--json"],
                         check=True, capture_output=True, env=dict(os.environ, SHIFU_MAX_GAMES=BALANCE_CUT))
    return balance_result(out.stdout)


def run_together(commands):
    """Starts every shard at once, as the scheduler does, and returns their standard outputs."""
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw) for c, kw in commands]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()
        outs.append(out)
    return outs


def test_the_slurm_balance_array_gives_the_one_machine_result(shifu_bin, tmp_path):
    script = ROOT / "deploy" / "slurm-balance.sbatch"
    tasks = int(re.search(r"#SBATCH --array=0-(\d+)", script.read_text()).group(1)) + 1
    commands = [(["bash", str(script)], dict(cwd=tmp_path, env=env_with(
        shifu_bin, SLURM_ARRAY_TASK_ID=str(k), SLURM_CPUS_PER_TASK="1", SHIFU_MAX_GAMES=BALANCE_CUT,
        SHIFU_SEARCH=SEARCH)))
        for k in range(tasks)]
    outs = run_together(commands)
    want = single_balance(shifu_bin, tmp_path)
    assert all(balance_result(o) == want for o in outs)
    assert balance_result((tmp_path / "balance" / "coins.json").read_text()) == want
    assert not (tmp_path / "balance" / "coins.json.parts").exists()


def test_the_kubernetes_balance_job_gives_the_one_machine_result(shifu_bin, tmp_path):
    job = yaml.safe_load((ROOT / "deploy" / "kubernetes-balance-job.yaml").read_text())
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed" and spec["parallelism"] == spec["completions"]
    container = spec["template"]["spec"]["containers"][0]
    command = container["command"] + container["args"]
    study = tmp_path / "balance"
    study.mkdir()
    commands = [(command, dict(env=env_with(shifu_bin, JOB_COMPLETION_INDEX=str(k), STUDY_DIR=str(study),
                                            SHIFU_MAX_GAMES=BALANCE_CUT, SHIFU_SEARCH=SEARCH)))
                for k in range(spec["completions"])]
    outs = run_together(commands)
    want = single_balance(shifu_bin, tmp_path)
    assert all(balance_result(o) == want for o in outs)
    assert balance_result((study / "coins.json").read_text()) == want
