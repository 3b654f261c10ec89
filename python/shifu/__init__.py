"""shifu: self-play and AI research on four restaurant board games (Tofu Shifu, Tofu Kingdom,
Wok Star, Ginza Retro Café), over a Rust engine.

- ``shifu.env(game, players=..., **params)``: a PettingZoo AEC environment.
- ``shifu.parallel_env(...)``: the same game through PettingZoo's parallel API (turn-based: the
  acting agent is ``infos[agent]["active_agent"]``; the others' actions are ignored).
- ``shifu.play(game, players, agents, games, seed, params)``: many games in Rust on every core;
  a pandas DataFrame with the columns of ``shifu play --out``.
- ``shifu.seats(...)``: the seat analysis of ``shifu seats``.
- ``shifu.ray``: a study spread across a Ray cluster (``pip install shifu[ray]``).

Parameters are the command's ``--set key=value`` options as keywords: ``start_coins=[2, 2, 2, 3]``
is ``--set start_coins=2,2,2,3``. ``data=`` and ``config=`` are ``--data`` and ``--config``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from . import _shifu
from .env import ShifuEnv, _set_list

__version__ = _shifu.__version__
__all__ = ["env", "parallel_env", "games", "game_info", "play", "play_csv", "seats", "SeatAnalysis", "ShifuEnv"]


def games() -> list[str]:
    """The games, by name."""
    return [g["name"] for g in _shifu.games()]


def game_info() -> dict[str, dict]:
    """The games, from the engine's list: by name, a dict of ``title``, ``min_players``,
    ``max_players``, ``players`` (every count it takes), ``cooperative`` and
    ``hidden_information``."""
    return {g["name"]: g for g in _shifu.games()}


def env(game: str = "tofu-shifu", players: int | None = None, render_mode: str | None = None, **params):
    """A PettingZoo AEC environment of ``game`` (see :class:`shifu.env.ShifuEnv`)."""
    return ShifuEnv(game, players=players, render_mode=render_mode, **params)


def parallel_env(game: str = "tofu-shifu", players: int | None = None, render_mode: str | None = None, **params):
    """The game through PettingZoo's parallel API. Every shifu game is turn-based: at each step
    one agent acts (``infos[agent]["active_agent"]`` names it, and only its action mask is not
    zero); the actions given for the others are ignored."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(env(game, players=players, render_mode=render_mode, **params))


def _run(game, players, agents, games, seed, params, data, config, rotate, threads, start=None, end=None, header=True):
    if isinstance(agents, (list, tuple)):
        agents = ",".join(agents)
    return _shifu.play(
        game,
        players,
        agents,
        int(games),
        int(seed),
        _set_list(dict(params or {})),
        None if data is None else str(data),
        None if config is None else str(config),
        bool(rotate),
        threads,
        start,
        end,
        header,
    )


def play_csv(
    game: str = "tofu-shifu",
    players: int | None = None,
    agents="random",
    games: int = 1000,
    seed: int = 1,
    params: dict | None = None,
    *,
    data=None,
    config=None,
    rotate: bool = False,
    threads: int | None = None,
    start: int | None = None,
    end: int | None = None,
    header: bool = True,
) -> bytes:
    """The CSV text ``shifu play --out`` writes for this run, byte for byte (games
    ``start..end`` of it when given: the slice a shard plays)."""
    csv, _ = _run(game, players, agents, games, seed, params, data, config, rotate, threads, start, end, header)
    return csv


_TEXT_COLUMNS = {"game_name": str, "agents": str, "param_set": str, "winners": str}


def _frame(csv: bytes):
    import pandas as pd

    return pd.read_csv(io.BytesIO(csv), dtype=_TEXT_COLUMNS)


def play(
    game: str = "tofu-shifu",
    players: int | None = None,
    agents="random",
    games: int = 1000,
    seed: int = 1,
    params: dict | None = None,
    *,
    data=None,
    config=None,
    rotate: bool = False,
    threads: int | None = None,
):
    """Plays ``games`` games in Rust on every core (``threads`` to limit them) and returns one
    row per game as a pandas DataFrame, with the columns of ``shifu play --out`` (``agents``: one
    spec for every seat, a comma-separated string or a list by seat)."""
    return _frame(play_csv(game, players, agents, games, seed, params, data=data, config=config, rotate=rotate, threads=threads))


@dataclass
class SeatAnalysis:
    """What ``shifu seats`` prints: the win share by seat with Wilson 95% intervals, mean rank
    and score, the chi-square test against equal chances, balance, and the capped share (games
    the round cap stopped decide nothing; ``warning`` is set above 5%)."""

    game: str
    players: int
    games: int
    table: object  # pandas.DataFrame, one row per seat
    chi_square: float
    df: float
    p_value: float
    balance: float
    capped: int
    capped_share: float
    capped_ci: tuple
    max_rounds: int
    warning: str | None
    data: str
    extra: dict = field(default_factory=dict)

    def __str__(self):
        lines = [
            f"{self.game} with {self.players} players, {self.games} games; card data: {self.data}",
            f"capped {100 * self.capped_share:.1f}% [{100 * self.capped_ci[0]:.1f}%, {100 * self.capped_ci[1]:.1f}%] "
            f"of {self.games} games at the {self.max_rounds}-round cap",
        ]
        if self.warning:
            lines.append(self.warning)
        lines.append(self.table.to_string(index=False))
        lines.append(
            f"equal chances by seat: chi-square {self.chi_square:.2f} on {self.df:.0f} df, "
            f"p = {self.p_value:.3e}; balance {self.balance:.4f}"
        )
        return "\n".join(lines)


def seats(
    game: str = "tofu-shifu",
    players: int | None = None,
    agents="random",
    games: int = 1000,
    seed: int = 1,
    params: dict | None = None,
    *,
    data=None,
    config=None,
    rotate: bool = False,
    threads: int | None = None,
) -> SeatAnalysis:
    """The seat (first-player) analysis of ``shifu seats`` for this run."""
    import pandas as pd

    _, s = _run(game, players, agents, games, seed, params, data, config, rotate, threads, header=False)
    n = s["players"]
    table = pd.DataFrame(
        {
            "seat": list(range(1, n + 1)),
            "agent": ["(rotated)"] * n if rotate else s["agent"],
            "win_share": s["win_share"],
            "ci_low": s["ci_low"],
            "ci_high": s["ci_high"],
            "mean_rank": s["mean_rank"],
            "mean_score": s["mean_score"],
        }
    )
    return SeatAnalysis(
        game=s["game"],
        players=n,
        games=s["games"],
        table=table,
        chi_square=s["chi_square"],
        df=s["df"],
        p_value=s["p_value"],
        balance=s["balance"],
        capped=s["capped"],
        capped_share=s["capped_share"],
        capped_ci=tuple(s["capped_ci"]),
        max_rounds=s["max_rounds"],
        warning=s["warning"],
        data=s["data"],
        extra={k: s[k] for k in ("shared_wins", "mean_rounds", "mean_steps", "steps")},
    )
