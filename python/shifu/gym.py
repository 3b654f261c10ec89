"""Gymnasium environments: one seat of a shifu game for a single learner, the other seats played
by built-in agents.

``shifu.gym.make("tofu-shifu", players=4, opponents="greedy", seat=1)`` is a ``gymnasium.Env``.
The learner plays seat ``seat`` (0-based); at each ``step`` its action is played, then the
built-in agents play every other seat until the learner is to move again or the game ends.
``import shifu`` also registers one id per game with Gymnasium (``shifu/TofuShifu-v0``,
``shifu/TofuKingdom-v0``, ``shifu/WokStar-v0``, ``shifu/GinzaRetroCafe-v0``), so
``gymnasium.make("shifu/TofuShifu-v0", players=2, opponents="greedy")`` gives the same
environment inside Gymnasium's usual wrappers.

- Opponents: ``opponents`` is one agent spec for every other seat, or a list of specs, one per
  other seat in seat order (or one per seat, ``None`` at the learner's). Any spec ``shifu play
  --agents`` takes: ``random``, ``greedy``, ``mcts:iters=200``, ``greedy:weights=w.toml``. Each
  decides from its own seat's view. A bad spec raises ``ValueError`` with the command's message.
- Observations: ``Box`` of float32, the game's fixed encoding of what the learner's seat sees
  (``shifu encoding --game G`` prints the layout), bounded by each field's range.
- Actions: ``Discrete(action_count)``, the game's action indices. ``info["action_mask"]`` (int8)
  and ``action_masks()`` (bool, what sb3-contrib's ``MaskablePPO`` reads) mark the legal ones.
  An illegal action raises ``ValueError`` and changes nothing (``illegal_action="raise"``, the
  default). With ``illegal_action="terminate"`` it ends the episode instead, with reward
  ``illegal_reward`` (-1 by default) and ``info["illegal_action"] = True``: for learners that do
  not read the mask, and for ``gymnasium.utils.env_checker.check_env``, which steps with
  unmasked samples. An index outside the action space always raises.
- Reward: 0 until the game ends, then the learner's share of the win (1/k for each of k tied
  winners). A game the round cap stops is *truncated*, not terminated. The last ``info`` holds
  ``score`` (the learner's), ``rewards`` (every seat's) and ``capped``.
- ``reset(seed=s)``: the game of seed ``s`` (the deal of ``shifu play``'s game seed ``s``), the
  opponents' choices seeded from ``s`` too, so the same seed and the same actions give the same
  game. ``reset()`` without a seed takes the next seed of the environment's generator.
- A game that ends before the learner's first decision (possible where the rules skip a seat)
  still makes an episode: ``reset`` returns the final view with ``info["decision"] = False`` and
  only action 0 allowed, and the next ``step(0)`` ends the episode with the learner's reward.
- Tofu Kingdom: roles go with seats. The round's Prince asks and names a player, the others
  answer; the Prince card passes to the next seat every round, starting at ``first_prince``
  (seat 0 by default), so a learner at seat 0 is the first round's Prince and at seat ``k`` is
  Prince in round ``k + 1``, ``k + 1 + players``, ... and an answerer otherwise.
- Wok Star is cooperative: the ``opponents`` are the learner's teammates, and the reward is 1
  for every seat when the team wins.
- Ctrl-C during an opponent's long search raises ``KeyboardInterrupt``; the episode is then cut
  short and the next ``step`` asks for a ``reset``.
- ``render()`` returns (``"ansi"``) or prints (``"human"``) the whole table as ``shifu show``
  does, hidden cards included: it is for people, not for the learner.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _shifu
from .env import _set_list

__all__ = ["ShifuGymEnv", "make", "GYM_IDS"]

_ILLEGAL_MODES = ("raise", "terminate")


def _gym_id(game: str) -> str:
    return "shifu/" + "".join(part.capitalize() for part in game.split("-")) + "-v0"


def _opponent_specs(opponents, seat: int, seats: int) -> list[str | None]:
    """One spec per seat (None at the learner's) from a spec or a list of them."""
    if isinstance(opponents, str):
        return [None if s == seat else opponents for s in range(seats)]
    specs = list(opponents)
    if len(specs) == seats - 1:
        specs.insert(seat, None)
    elif len(specs) != seats:
        raise ValueError(
            f"opponents names {len(specs)} agents for {seats - 1} other seats; give one spec "
            f"for all, one per other seat, or one per seat with None at the learner's"
        )
    for s, spec in enumerate(specs):
        if s == seat:
            continue
        if not isinstance(spec, str):
            raise ValueError(f"opponents: seat {s} has {spec!r}, not an agent spec such as 'greedy'")
    return [None if s == seat else specs[s] for s in range(seats)]


class ShifuGymEnv(gymnasium.Env):
    """One seat of a shifu game as a single-agent Gymnasium environment, the other seats played
    by built-in agents (see the module's documentation)."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str = "tofu-shifu",
        players: int | None = None,
        opponents: str | Sequence[str | None] = "random",
        seat: int = 0,
        render_mode: str | None = None,
        data: str | None = None,
        config: str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        **params,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']} or None")
        if illegal_action not in _ILLEGAL_MODES:
            raise ValueError(f"illegal_action {illegal_action!r}: expected one of {list(_ILLEGAL_MODES)}")
        self.core = _shifu.Env(game, players, None if data is None else str(data), None if config is None else str(config), _set_list(params))
        self.game = game
        seats = self.core.num_seats
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < seats:
            raise ValueError(f"seat {seat!r} is not at the table: {game} at {seats} players has seats 0 to {seats - 1}")
        self.seat = int(seat)
        self.players = seats
        self.opponents = _opponent_specs(opponents, self.seat, seats)
        for s, spec in enumerate(self.opponents):
            if spec is not None:
                self.core.check_agent(spec, s)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.cooperative = bool(next(g["cooperative"] for g in _shifu.games() if g["name"] == self.core.name))
        n = self.core.observation_len
        low, high = _bounds(self.core)
        self.observation_space = spaces.Box(low=low, high=high, shape=(n,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.core.action_count)
        self._mask = np.zeros(self.core.action_count, dtype=np.int8)
        self._decision = False
        self._done = True
        self._broken = False
        self._opponent_seeds: np.random.Generator | None = None

    # The Gymnasium API.

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63))
        self.core.reset(game_seed)
        self._opponent_seeds = np.random.default_rng([game_seed, 0x5EA7])
        self._done = False
        self._broken = True  # until the opponents have moved
        self._advance()
        self._broken = False
        self._refresh_mask()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action):
        if self._broken:
            raise RuntimeError("an opponent's move was interrupted mid-step: call reset() to start a new game")
        if self._done:
            raise RuntimeError("the episode is over: call reset() to start a new game")
        index = int(action)
        if not 0 <= index < self.action_space.n:
            raise ValueError(f"action {index} is not an action of {self.core.name} (indices run below {self.action_space.n})")
        if not self._decision:
            if index != 0:
                return self._illegal(index, "the game ended before this seat's first decision; only action 0 (no move) is allowed")
        else:
            try:
                self.core.step(index)
            except ValueError as e:
                return self._illegal(index, str(e))
            self._broken = True
            self._advance()
            self._broken = False
        result = self.core.result()
        if result is None:
            self._refresh_mask()
            reward, terminated, truncated = 0.0, False, False
            info = self._info()
        else:
            self._done = True
            rewards, scores, capped = result
            self._decision = False
            self._mask[:] = 0
            reward = float(rewards[self.seat])
            terminated, truncated = not capped, bool(capped)
            info = self._info()
            info.update(score=float(scores[self.seat]), rewards=[float(r) for r in rewards], capped=bool(capped))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = self.core.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    # For maskable learners.

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as bools (sb3-contrib's MaskablePPO reads it);
        all False once the episode is over."""
        return self._mask.astype(bool)

    def action_name(self, action: int) -> str | None:
        """The action with this index, by name."""
        return self.core.action_name(int(action))

    # Inside.

    def _advance(self):
        """Lets the built-in agents play until the learner is to move or the game is over."""
        while True:
            mover = self.core.to_move()
            if mover is None or mover == self.seat:
                return
            seed = int(self._opponent_seeds.integers(0, 2**63))
            self.core.step(self.core.agent_action(self.opponents[mover], seed))

    def _refresh_mask(self):
        self._decision = self.core.to_move() == self.seat
        if self._decision:
            self._mask[:] = np.frombuffer(self.core.mask(), dtype=np.int8)
        else:  # the game ended before the learner's first decision: action 0 passes
            self._mask[:] = 0
            self._mask[0] = 1

    def _observe(self) -> np.ndarray:
        return np.frombuffer(self.core.observe(self.seat), dtype=np.float32)

    def _info(self) -> dict:
        return {"action_mask": self._mask.copy(), "decision": self._decision}

    def _illegal(self, index: int, message: str):
        if self.illegal_action == "raise":
            raise ValueError(f"{message} (illegal_action='terminate' ends the episode instead)")
        self._done = True
        self._mask[:] = 0
        info = self._info()
        info.update(illegal_action=True, message=message)
        return self._observe(), self.illegal_reward, True, False, info


def _bounds(core) -> tuple[np.ndarray, np.ndarray]:
    """The observation vector's bounds, value by value: each field's declared range in the
    engine's encoding (the state's types or the data's counts bound it)."""
    low = np.asarray(core.observation_low(), dtype=np.float32)
    high = np.asarray(core.observation_high(), dtype=np.float32)
    return low, high


def make(
    game: str = "tofu-shifu",
    players: int | None = None,
    opponents: str | Sequence[str | None] = "random",
    seat: int = 0,
    **kwargs,
) -> ShifuGymEnv:
    """A :class:`ShifuGymEnv` of ``game``: the learner at ``seat``, ``opponents`` at the others;
    other keywords are the environment's (``render_mode``, ``data``, ``config``,
    ``illegal_action``, ``illegal_reward``) or the game's parameters (``--set`` options)."""
    return ShifuGymEnv(game, players=players, opponents=opponents, seat=seat, **kwargs)


GYM_IDS = {g["name"]: _gym_id(g["name"]) for g in _shifu.games()}
"""The Gymnasium id of each game, by name."""

for _name, _id in GYM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="shifu.gym:ShifuGymEnv", kwargs={"game": _name})
