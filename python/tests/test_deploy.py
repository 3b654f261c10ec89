"""The README's Slurm and Kubernetes examples (deploy/): every shard run as the scheduler would
run it, then `shifu merge`, gives the one-machine file."""

import os
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
