"""N games stepped together in Rust, into preallocated numpy arrays.

``shifu.vector.make("tofu-shifu", num_envs=256, players=4, dtype="uint8", seed=0)`` builds N
games of one kind. Each call (``reset``, ``step``, ``step_random``) steps all N in one Rust call,
with the GIL released, and writes into the same arrays every time:

- ``observations`` ``[N, L]`` (``float32`` or ``uint8``): the observation of the seat to move.
  The ``uint8`` form is a quarter of the memory: flags, one-hot and bit fields are exact, counts
  are stored as counts (clamped to 255); ``to_float32`` turns it back into the ``float32``
  values (``zero + q * step`` per value).
- ``masks`` ``[N, A]`` (``uint8``): 1 where the action is legal for the seat to move.
- ``rewards`` ``[N, players]`` (``float32``): each seat's reward for a game that ended at this
  step (its share of the win; 1 for every seat when Wok Star's team wins), else 0.
- ``terminated`` / ``truncated`` ``[N]`` (``bool``): the game ended at this step, by the rules or
  by the round cap.
- ``to_move`` ``[N]`` (``int32``): the seat to move (the seat ``observations`` and ``masks`` are
  for).
- ``final_observations`` ``[N, L]``: for an env whose game ended at this step, the final
  observation of the seat that made the last move; other rows keep older values.

Auto-reset: when an env's game ends, the step reports its rewards and final observation, and the
env starts its next game at once (``observations`` and ``masks`` are then the new game's). Env
``i``'s games are game numbers ``seed + i``, ``seed + i + N``, ``seed + i + 2N``, ... of
``shifu play --seed`` (ChaCha8 stream 0 of that number): the same seed gives the same arrays,
whatever ``threads`` is.

``sample_actions()`` draws a uniform random legal action per env in Rust, for a random-play loop
without numpy work: ``env.step(env.sample_actions())``.

The arrays are reused: copy them to keep a step's values. Actions are checked before any is
played: an out-of-range or illegal action raises ``ValueError`` naming the env, and no env
changes. Ctrl-C stops ``step_random`` between steps.
"""

from __future__ import annotations

import numpy as np

from . import _shifu
from .env import _set_list

__all__ = ["make", "VectorEnv"]


class VectorEnv:
    """N games of one kind (see the module's documentation)."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        dtype: str = "float32",
        seed: int = 0,
        threads: int = 1,
        data: str | None = None,
        config: str | None = None,
        **params,
    ):
        if isinstance(dtype, type) or isinstance(dtype, np.dtype):
            dtype = np.dtype(dtype).name
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise ValueError(f"num_envs={num_envs!r}: give a whole number of envs")
        self.core = _shifu.VectorEnv(
            game, int(num_envs), players, data, config, _set_list(params), dtype, seed, threads
        )
        self.game = game
        self._seed = int(seed)
        self.dtype = np.dtype(dtype)
        self.num_envs = self.core.num_envs
        self.num_seats = self.core.num_seats
        self.observation_len = self.core.observation_len
        self.action_count = self.core.action_count
        (
            self.observations,
            self.masks,
            self.rewards,
            self.terminated,
            self.truncated,
            self.to_move,
            self.final_observations,
        ) = self.core.arrays()
        low, high, zero, step = (np.asarray(x, dtype=np.float32) for x in self.core.bounds())
        self.observation_low, self.observation_high = low, high
        self._zero, self._step = zero, step

    def reset(self, seed: int | None = None):
        """Restarts every env (from the stream of ``seed``, else of the last seed); returns
        ``(observations, {"action_mask": masks, "to_move": to_move})``."""
        if seed is not None:
            self._seed = int(seed)
        self.core.reset(self._seed)
        return self.observations, self._info()

    def step(self, actions):
        """Plays one action index per env; returns ``(observations, rewards, terminated,
        truncated, info)``, with ``info`` holding ``action_mask``, ``to_move`` and
        ``final_observation``."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(
                f"actions of shape {a.shape}: give one action index per env, shape ({self.num_envs},)"
            )
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions of dtype {a.dtype}: give integer action indices")
        self.core.step(np.ascontiguousarray(a, dtype=np.int64))
        return self.observations, self.rewards, self.terminated, self.truncated, self._info()

    def sample_actions(self) -> np.ndarray:
        """A uniform random legal action index per env, drawn in Rust from each env's own
        stream (-1 for an env with no seat to move), in an ``int64`` array of shape ``(N,)``
        that every call refills (copy it to keep it). ``step(sample_actions())`` plays what
        ``step_random()`` plays, with no numpy work per step."""
        return self.core.sample_actions()

    def step_random(self, steps: int = 1):
        """Plays ``steps`` steps of uniform random legal actions, drawn in Rust (each env from
        its own stream, so the result does not depend on ``threads``)."""
        self.core.step_random(int(steps))
        return self.observations, self.rewards, self.terminated, self.truncated, self._info()

    def to_float32(self, observations: np.ndarray) -> np.ndarray:
        """``float32`` values of observations in the ``uint8`` form (``zero + q * step``): equal to
        the ``float32`` observation up to rounding for counts up to 255 and every flag."""
        return self._zero + np.asarray(observations, dtype=np.float32) * self._step

    def _info(self) -> dict:
        return {
            "action_mask": self.masks,
            "to_move": self.to_move,
            "final_observation": self.final_observations,
        }


def make(
    game: str,
    num_envs: int = 1,
    players: int | None = None,
    dtype: str = "float32",
    seed: int = 0,
    threads: int = 1,
    **params,
) -> VectorEnv:
    """N games of ``game`` stepped together (see :class:`VectorEnv`); ``params`` are the
    command's ``--set`` options, ``data=`` and ``config=`` its ``--data`` and ``--config``."""
    return VectorEnv(game, num_envs, players=players, dtype=dtype, seed=seed, threads=threads, **params)
