"""A shifu study spread across a Ray cluster.

    import ray, shifu.ray
    ray.init()                                   # or ray.init(address="auto") on a cluster
    shifu.ray.study("tofu-shifu", players=4, agents="greedy", games=1_000_000, seed=1,
                    shards=64, out="study.csv")

Each shard is a Ray task that plays a deterministic slice of the games, games
``[k*G//n, (k+1)*G//n)`` of shard ``k`` of ``n`` (the slices of ``shifu play --shard k/n``), and
returns its rows to the driver. The driver saves each finished shard under ``OUT.parts/`` (via a
temporary file and a rename, so a kill never leaves half a shard) and, when every shard is in,
writes ``OUT``: the header, then the shards in order. Game ``i`` has the seed
``splitmix64(seed ^ splitmix64(i))`` wherever it runs, so ``OUT`` is byte for byte the file
``shifu play --out OUT`` writes on one machine with the same settings.

Resuming: run the same call again. Shards already under ``OUT.parts/`` are kept and only the
missing ones are played. ``OUT.parts/study.json`` records the settings; a call with other
settings is refused rather than mixing two studies. ``OUT`` itself is never overwritten: remove
it to rerun.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import play_csv


def shard_bounds(k: int, n: int, games: int) -> tuple[int, int]:
    """Games ``[k*G//n, (k+1)*G//n)`` of shard ``k`` of ``n``, as ``shifu play --shard k/n``."""
    return k * games // n, (k + 1) * games // n


def _settings(game, players, agents, games, seed, params, data, config, rotate, shards) -> dict:
    return {
        "game": game,
        "players": players,
        "agents": ",".join(agents) if isinstance(agents, (list, tuple)) else agents,
        "games": int(games),
        "seed": int(seed),
        "params": {k: params[k] for k in sorted(params or {})},
        "data": None if data is None else str(data),
        "config": None if config is None else str(config),
        "rotate": bool(rotate),
        "shards": int(shards),
    }


def _play_slice(settings: dict, k: int, threads: int | None) -> bytes:
    lo, hi = shard_bounds(k, settings["shards"], settings["games"])
    return play_csv(
        settings["game"],
        settings["players"],
        settings["agents"],
        settings["games"],
        settings["seed"],
        settings["params"],
        data=settings["data"],
        config=settings["config"],
        rotate=settings["rotate"],
        threads=threads,
        start=lo,
        end=hi,
        header=(k == 0),
    )


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def study(
    game: str = "tofu-shifu",
    players: int | None = None,
    agents="random",
    games: int = 10_000,
    seed: int = 1,
    params: dict | None = None,
    *,
    shards: int,
    out,
    data=None,
    config=None,
    rotate: bool = False,
    cpus_per_shard: int = 1,
) -> Path:
    """Plays the study as ``shards`` Ray tasks and writes ``out`` (see the module's
    documentation). Returns the path of ``out``. Data and config files must be readable at the
    same path on every node."""
    import ray

    out = Path(out)
    if out.exists():
        raise FileExistsError(f"{out} exists; shifu.ray.study never overwrites a result: remove it or choose another path")
    if shards < 1 or shards > games:
        raise ValueError(f"shards={shards} for games={games}: each of 1..games shards needs at least one game")
    settings = _settings(game, players, agents, games, seed, params, data, config, rotate, shards)
    # Fail here, on the driver, on a bad setting rather than in every task.
    play_csv(settings["game"], settings["players"], settings["agents"], settings["games"], settings["seed"],
             settings["params"], data=settings["data"], config=settings["config"], rotate=settings["rotate"],
             start=0, end=0)
    parts = out.with_name(out.name + ".parts")
    parts.mkdir(exist_ok=True)
    manifest = parts / "study.json"
    if manifest.exists():
        before = json.loads(manifest.read_text())
        if before != settings:
            changed = sorted(k for k in settings if before.get(k) != settings[k])
            raise ValueError(
                f"{parts} holds shards of another study (different {', '.join(changed)}); "
                "resume with the same settings, or remove the folder"
            )
    else:
        _write_atomically(manifest, (json.dumps(settings, indent=2) + "\n").encode())

    def part(k: int) -> Path:
        return parts / f"shard-{k:05d}-of-{shards:05d}.csv"

    threads = cpus_per_shard
    task = ray.remote(num_cpus=cpus_per_shard)(_play_slice)
    pending = {task.remote(settings, k, threads): k for k in range(shards) if not part(k).exists()}
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            k = pending.pop(ref)
            _write_atomically(part(k), ray.get(ref))
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "wb") as f:
        for k in range(shards):
            f.write(part(k).read_bytes())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, out)
    return out
