"""shifu: self-play and AI research on four restaurant board games (Tofu Shifu, Tofu Kingdom,
Wok Star, Ginza Retro Café), over a Rust engine.

- ``shifu.env(game, players=..., **params)``: a PettingZoo AEC environment.
- ``shifu.gym.make(game, players=..., opponents="greedy", seat=0, **params)``: a Gymnasium
  environment of one seat, the others played by built-in agents (also registered as
  ``shifu/TofuShifu-v0`` and so on for ``gymnasium.make``).
- ``shifu.parallel_env(...)``: the same game through PettingZoo's parallel API (turn-based: the
  acting agent is ``infos[agent]["active_agent"]``; the others' actions are ignored).
- ``shifu.vector.make(game, num_envs=N, players=..., dtype="uint8", seed=...)``: N games stepped
  in one Rust call into preallocated numpy arrays (observations of the seat to move, masks,
  rewards, terminated/truncated, seat to move), with auto-reset onto a per-env seed stream.
- ``shifu.play(game, players, agents, games, seed, params)``: many games in Rust on every core;
  a pandas DataFrame with the columns of ``shifu play --out``.
- ``shifu.seats(...)``: the seat analysis of ``shifu seats``.
- ``shifu.balance(...)``: the search of ``shifu balance``; the document ``--json`` prints, as a dict.
- ``shifu.ray``: a study spread across a Ray cluster (``pip install shifu[ray]``).

Parameters are the command's ``--set key=value`` options as keywords: ``start_coins=[2, 2, 2, 3]``
is ``--set start_coins=2,2,2,3``. ``data=`` and ``config=`` are ``--data`` and ``--config``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from . import _shifu, gym
from .env import ShifuEnv, _set_list

__version__ = _shifu.__version__
__all__ = ["env", "parallel_env", "gym", "games", "game_info", "play", "play_csv", "seats", "balance", "SeatAnalysis", "ShifuEnv"]


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


def _run(game, players, agents, games, seed, params, data, config, rotate, threads, start=None, end=None, header=True, margin=0.02):
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
        float(margin),
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
    csv, _, _ = _run(game, players, agents, games, seed, params, data, config, rotate, threads, start, end, header)
    return csv


# The run file's text columns, from the Rust row schema (the others are numbers or booleans).
_TEXT_COLUMNS = {name: str for name in _shifu.text_columns()}


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
    and score, the chi-square test against equal chances, balance (raw, and corrected for the game
    count with a 95% bootstrap interval), the fairness verdict, and the capped share (games the
    round cap stopped decide nothing; ``warning`` is set above 5%). ``summary`` is the whole value
    ``shifu play --json`` prints; ``str()`` is the text ``shifu play`` prints, both made by the
    same Rust code.

    The verdict is an equivalence test (TOST at 5%) of every seat's win share against 1/n at
    ``margin``: ``"fair"`` (every seat shown within the margin), ``"unfair"`` (a seat shown to
    differ), ``"undetermined"`` (neither; ``games_needed`` is about how many games in all would
    settle it) or ``"no_verdict"`` (the round cap decides the games). A large p-value is never
    read as fair. A cooperative game has no seat verdict (``verdict`` is None)."""

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
    verdict: str | None = None
    margin: float | None = None
    p_equivalence: float | None = None
    games_needed: int | None = None
    verdict_text: str | None = None
    balance_corrected: float | None = None
    balance_ci: tuple | None = None
    extra: dict = field(default_factory=dict)
    summary: dict = field(default_factory=dict)
    text: str = ""

    def __str__(self):
        return self.text.rstrip("\n")


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
    margin: float = 0.02,
) -> SeatAnalysis:
    """The seat (first-player) analysis of ``shifu seats`` for this run, its verdict at
    ``margin`` (``--margin``: each seat's win share within that distance of 1/n is fair)."""
    import json

    import pandas as pd

    _, summary_json, text = _run(game, players, agents, games, seed, params, data, config, rotate, threads, header=False, margin=margin)
    s = json.loads(summary_json)
    st = s["stats"]
    capped = st["capped"]
    eq = st.get("equivalence") or {}
    bal = st.get("balance_interval") or {}
    verdict_line = next((line for line in text.splitlines() if line.startswith("verdict: ")), None)
    return SeatAnalysis(
        game=s["game"],
        players=s["players"],
        games=s["games"],
        table=pd.DataFrame(st["seats"]),
        chi_square=st["chi_square"],
        df=st["df"],
        p_value=st["p_value"],
        balance=st["balance"],
        capped=capped["games"],
        capped_share=capped["share"],
        capped_ci=(capped["ci_low"], capped["ci_high"]),
        max_rounds=capped["max_rounds"],
        warning=capped["warning"],
        data=s["data"],
        verdict=eq.get("verdict"),
        margin=eq.get("margin"),
        p_equivalence=eq.get("p_equivalence"),
        games_needed=eq.get("games_needed"),
        verdict_text=verdict_line,
        balance_corrected=bal.get("corrected"),
        balance_ci=(bal["ci_low"], bal["ci_high"]) if bal else None,
        extra={k: st[k] for k in ("shared_wins", "mean_rounds", "mean_steps", "steps")},
        summary=s,
        text=text,
    )


def _strings(x) -> list[str]:
    if x is None:
        return []
    if isinstance(x, str):
        return [x]
    return [str(v) for v in x]


def balance(
    game: str = "tofu-shifu",
    players: int | None = None,
    search=(),
    sum=(),
    objective=(),
    agents=None,
    validate_agents=None,
    margin: float | None = None,
    budget: int | None = None,
    max_games: int | None = None,
    first_look: int | None = None,
    finalists: int | None = None,
    validation_games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    params: dict | None = None,
    *,
    reference=(),
    error_rate: float | None = None,
    full_grid: bool = False,
    data=None,
    config=None,
) -> dict:
    """``shifu balance``: searches the space of ``search`` (``"start_coins=0..3"``, or a list of
    axes) for the settings that best meet ``objective`` under ``agents``, then re-tests the best
    on fresh seeds. The keywords are the command's options (``sum``, ``objective`` and
    ``reference`` take a string or a list; ``params`` are ``--set`` options as keywords); one left
    at None takes the command's default. Returns the document ``shifu balance --json`` prints, as
    a dict (``recommended``: the settings, best first, each with ``set``, its validation figures
    and verdict). A bad option raises ValueError with the command's message."""
    import json

    def opt(x, kind):
        return None if x is None else kind(x)

    if isinstance(agents, (list, tuple)):
        agents = ",".join(agents)
    if isinstance(validate_agents, (list, tuple)):
        validate_agents = ",".join(validate_agents)
    options = {
        "game": str(game),
        "players": opt(players, int),
        "search": _strings(search),
        "sum": _strings(sum),
        "objective": _strings(objective),
        "reference": _strings(reference),
        "set": _set_list(dict(params or {})),
        "agents": opt(agents, str),
        "validate_agents": opt(validate_agents, str),
        "margin": opt(margin, float),
        "error_rate": opt(error_rate, float),
        "budget": opt(budget, int),
        "max_games": opt(max_games, int),
        "first_look": opt(first_look, int),
        "finalists": opt(finalists, int),
        "validation_games": opt(validation_games, int),
        "seed": opt(seed, int),
        "threads": opt(threads, int),
        "full_grid": bool(full_grid),
        "data": opt(data, str),
        "config": opt(config, str),
    }
    return json.loads(_shifu.balance(options))
