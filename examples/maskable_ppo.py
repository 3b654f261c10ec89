"""Trains sb3-contrib's MaskablePPO on one seat of a shifu game against built-in greedy
opponents, then measures the trained policy's win rate on fresh seeds beside two baselines in
the same seat on the same seeds: the random policy and the greedy agent itself.

    pip install ./python -r .ci/rl-requirements.txt
    python examples/maskable_ppo.py                       # the committed run (results/)
    python examples/maskable_ppo.py --timesteps 512 --eval-games 20 --out /tmp/smoke   # CI

Writes into --out: ``maskable_ppo_curve.csv`` (the learning curve: timesteps, episodes, the win
rate of the episodes that ended in that stretch of training, its Wilson 95% interval, seconds),
``maskable_ppo_curve.svg`` (the same as a chart) and ``maskable_ppo.md`` (the evaluation, the
command that made it, the times and the card data the game used).

The default game is Tofu Kingdom at 3 players, the learner at seat 0 (the first round's Prince;
the role then passes round by round), reward 1 for a win, 1/k for a k-way tie, 0 otherwise.
See examples/README.md for why this game.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

import shifu
import shifu.gym

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (ties count as fractional wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n))


def paired_interval(a: np.ndarray, b: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean of a - b over the same seeds and its normal 95% interval."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    mean = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else float("inf")
    return mean, mean - z * se, mean + z * se


def make_env(args):
    """A monitored environment for training: Monitor records each episode's reward."""
    from stable_baselines3.common.monitor import Monitor

    def thunk():
        env = shifu.gym.make(args.game, players=args.players, opponents=args.opponents, seat=args.seat)
        return Monitor(env)

    return thunk


class Curve:
    """Collects the episodes that end during training into rows of the learning curve."""

    def __init__(self, every: int):
        self.every = every
        self.rows: list[dict] = []
        self.rewards: list[float] = []
        self.started = time.monotonic()
        self.next_at = every

    def callback(self):
        from stable_baselines3.common.callbacks import BaseCallback

        curve = self

        class _Callback(BaseCallback):
            def _on_step(self) -> bool:
                for info in self.locals.get("infos", []):
                    episode = info.get("episode")
                    if episode is not None:
                        curve.rewards.append(float(episode["r"]))
                if self.num_timesteps >= curve.next_at and curve.rewards:
                    curve.flush(self.num_timesteps)
                return True

            def _on_training_end(self) -> None:
                curve.flush(self.num_timesteps)

        return _Callback()

    def flush(self, timesteps: int):
        if not self.rewards:
            return
        n = len(self.rewards)
        wins = float(sum(self.rewards))
        lo, hi = wilson(wins, n)
        self.rows.append(
            {
                "timesteps": timesteps,
                "episodes": n,
                "win_rate": round(wins / n, 4),
                "ci_low": round(lo, 4),
                "ci_high": round(hi, 4),
                "seconds": round(time.monotonic() - self.started, 1),
            }
        )
        self.rewards = []
        while self.next_at <= timesteps:
            self.next_at += self.every


def play_seeds(args, seeds, policy) -> np.ndarray:
    """The learner's reward in each game of ``seeds``, ``policy(env, obs, info)`` choosing its
    actions."""
    env = shifu.gym.make(args.game, players=args.players, opponents=args.opponents, seat=args.seat)
    rewards = np.zeros(len(seeds))
    for i, seed in enumerate(seeds):
        obs, info = env.reset(seed=int(seed))
        while True:
            obs, reward, terminated, truncated, info = env.step(policy(env, obs, info))
            if terminated or truncated:
                rewards[i] = reward
                break
    return rewards


def evaluate(args, model) -> dict:
    """The trained policy, the random policy and greedy, each in the learner's seat on the same
    fresh seeds: 10^12 + seed + i (training draws its game seeds at random below 2^63, so a
    clash with these has odds of about 1e-12)."""
    seeds = np.arange(args.eval_games) + 10**12 + args.seed
    rng = np.random.default_rng(args.seed)

    def trained(env, obs, info):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    def random_policy(env, obs, info):
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    def greedy(env, obs, info):
        if not info["decision"]:
            return 0
        return env.core.agent_action("greedy", int(rng.integers(0, 2**63)))

    return {name: play_seeds(args, seeds, pick) for name, pick in (("trained", trained), ("random", random_policy), ("greedy", greedy))}


def svg_curve(rows: list[dict], baselines: dict[str, float], title: str) -> str:
    """A small line chart of the win rate against timesteps, with the baselines dashed."""
    pts = [(r["timesteps"], r["win_rate"], r["ci_low"], r["ci_high"]) for r in rows]
    w, h, left, bottom, top, right = 640, 360, 60, 40, 30, 150
    xmax = max((p[0] for p in pts), default=1)
    ymax = max([0.5] + [p[3] for p in pts] + list(baselines.values()))
    ymax = math.ceil(ymax * 10) / 10

    def x(t):
        return left + (w - left - right) * t / xmax

    def y(v):
        return h - bottom - (h - bottom - top) * v / ymax

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">']
    out.append(f'<text x="{left}" y="18">{title}</text>')
    out.append(f'<line x1="{left}" y1="{y(0)}" x2="{w - right}" y2="{y(0)}" stroke="black"/>')
    out.append(f'<line x1="{left}" y1="{y(0)}" x2="{left}" y2="{y(ymax)}" stroke="black"/>')
    for k in range(int(round(ymax * 10)) + 1):
        v = k / 10
        out.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - right}" y2="{y(v):.1f}" stroke="#ddd"/>')
    for k in range(5):
        t = xmax * k / 4
        out.append(f'<text x="{x(t):.1f}" y="{h - bottom + 16}" text-anchor="middle">{int(t):,}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 6}" text-anchor="middle">timesteps (learner decisions)</text>')
    if pts:
        band = [f"{x(t):.1f},{y(hi):.1f}" for t, _, _, hi in pts] + [f"{x(t):.1f},{y(lo):.1f}" for t, _, lo, _ in reversed(pts)]
        out.append(f'<polygon points="{" ".join(band)}" fill="#9ecae1" opacity="0.5"/>')
        line = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v, _, _ in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="#08519c" stroke-width="2"/>')
        out.append(f'<text x="{w - right + 6}" y="{y(pts[-1][1]) + 4:.1f}" fill="#08519c">training</text>')
    colours = {"random": "#d62728", "greedy": "#2ca02c"}
    for name, v in baselines.items():
        c = colours.get(name, "gray")
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - right}" y2="{y(v):.1f}" stroke="{c}" stroke-dasharray="6 4"/>')
        out.append(f'<text x="{w - right + 6}" y="{y(v) + 4:.1f}" fill="{c}">{name} seat {v:.3f}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def report(args, curve, results, times, command) -> str:
    info = shifu.game_info()[args.game]
    data = shifu.seats(args.game, args.players, args.opponents, 1, seed=1).data
    n = args.eval_games
    lines = [
        "# MaskablePPO against greedy opponents",
        "",
        f"Made by `{command}` from the repository root, after `pip install ./python -r .ci/rl-requirements.txt` "
        "(examples/README.md explains the choice of game).",
        "",
        f"- Game: {info['title']} (`{args.game}`) at {args.players} players; the learner at seat {args.seat}, "
        f"`{args.opponents}` at the others. Reward: the learner's win share at the end of the game.",
        f"- Card data: {data}."
        + (" The figures depend on these reconstructed card values." if "reconstructed" in data.lower() else ""),
        f"- Versions: shifu {shifu.__version__}, sb3-contrib {_version('sb3-contrib')}, "
        f"stable-baselines3 {_version('stable-baselines3')}, torch {_version('torch')}, Python {sys.version.split()[0]}.",
        f"- Training: {args.timesteps:,} timesteps (learner decisions) in {len(curve.rows)} curve rows, "
        f"{sum(r['episodes'] for r in curve.rows):,} episodes, {args.n_envs} environments, seed {args.seed}, "
        f"torch threads {args.threads}.",
        f"- Time: training {times['train_wall']:.0f} s wall, evaluation {times['eval_wall']:.0f} s wall; "
        f"the whole run {times['wall']:.0f} s wall and {times['cpu']:.0f} s CPU (user + system of this process and its children, "
        f"from getrusage), on {os.cpu_count()} cores whose load average over the last 15 minutes was {times['load']:.1f} at the end "
        "(the wall time grows with other jobs on the machine; the CPU time does not).",
        "",
        f"## Evaluation: {n:,} fresh seeds, the same for every policy",
        "",
        "Each policy plays the learner's seat on the same game seeds (the deal and the opponents' seeds are the same; "
        "the games diverge where the choices differ). Win rate with its Wilson 95% interval; ties count 1/k.",
        "",
        "| policy in the seat | games | win rate | Wilson 95% |",
        "| --- | --- | --- | --- |",
    ]
    for name, label in (("trained", "MaskablePPO (deterministic)"), ("random", "random"), ("greedy", "greedy (the built-in agent)")):
        r = results[name]
        lo, hi = wilson(float(r.sum()), n)
        lines.append(f"| {label} | {n:,} | {r.mean():.3f} | [{lo:.3f}, {hi:.3f}] |")
    lines += ["", "Paired differences (same seeds), mean and normal 95% interval:", ""]
    for other in ("random", "greedy"):
        m, lo, hi = paired_interval(results["trained"], results[other])
        lines.append(f"- trained − {other}: {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    lines += [
        "",
        f"Equal chances at {args.players} players would be {1 / args.players:.3f}.",
        "",
        "## Learning curve",
        "",
        "`maskable_ppo_curve.csv`: at each row, the episodes that ended since the previous row and their win rate "
        "(Wilson 95%). Drawn in `maskable_ppo_curve.svg`:",
        "",
        "![learning curve](maskable_ppo_curve.svg)",
        "",
        "| timesteps | episodes | win rate | Wilson 95% |",
        "| --- | --- | --- | --- |",
    ]
    step = max(1, len(curve.rows) // 12)
    shown = curve.rows[::step]
    if curve.rows and shown[-1] is not curve.rows[-1]:
        shown.append(curve.rows[-1])
    for r in shown:
        lines.append(f"| {r['timesteps']:,} | {r['episodes']:,} | {r['win_rate']:.3f} | [{r['ci_low']:.3f}, {r['ci_high']:.3f}] |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="tofu-kingdom")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--opponents", default="greedy")
    p.add_argument("--timesteps", type=int, default=1_000_000)
    p.add_argument("--eval-games", type=int, default=2000)
    p.add_argument("--n-envs", type=int, default=4)
    p.add_argument("--n-steps", type=int, default=512, help="rollout length per environment")
    p.add_argument("--curve-every", type=int, default=None, help="timesteps per curve row (default: timesteps/40)")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="results", help="folder for the curve, the chart and the report")
    args = p.parse_args(argv)
    if args.eval_games < 1 or args.timesteps < 1:
        p.error("--timesteps and --eval-games must be at least 1")

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    started = time.monotonic()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    venv = DummyVecEnv([make_env(args) for _ in range(args.n_envs)])
    venv.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=min(args.n_steps, max(8, args.timesteps // args.n_envs)),
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    curve = Curve(args.curve_every or max(1, args.timesteps // 40))
    model.learn(total_timesteps=args.timesteps, callback=curve.callback())
    train_wall = time.monotonic() - started
    print(f"trained {args.timesteps:,} timesteps in {train_wall:.0f} s", flush=True)

    evaluated = time.monotonic()
    results = evaluate(args, model)
    eval_wall = time.monotonic() - evaluated
    for name, r in results.items():
        lo, hi = wilson(float(r.sum()), len(r))
        print(f"{name:8} win rate {r.mean():.3f} [{lo:.3f}, {hi:.3f}] over {len(r)} games")

    with open(out / "maskable_ppo_curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["timesteps", "episodes", "win_rate", "ci_low", "ci_high", "seconds"])
        w.writeheader()
        w.writerows(curve.rows)
    title = f"MaskablePPO, {args.game} {args.players}p seat {args.seat} vs {args.opponents}: win rate while training"
    baselines = {name: float(results[name].mean()) for name in ("random", "greedy")}
    (out / "maskable_ppo_curve.svg").write_text(svg_curve(curve.rows, baselines, title))
    ru_self, ru_children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru_self.ru_utime + ru_self.ru_stime + ru_children.ru_utime + ru_children.ru_stime
    times = {"train_wall": train_wall, "eval_wall": eval_wall, "wall": time.monotonic() - started, "cpu": cpu, "load": os.getloadavg()[2]}
    command = "python examples/maskable_ppo.py " + " ".join(argv if argv is not None else sys.argv[1:])
    (out / "maskable_ppo.md").write_text(report(args, curve, results, times, command.strip()))
    print(f"wrote {out / 'maskable_ppo.md'}, the curve and its chart; {times['wall']:.0f} s wall, {cpu:.0f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
