"""PettingZoo environments over the shifu games.

``shifu.env("tofu-shifu", players=4)`` is an AEC environment (PettingZoo's Agent Environment
Cycle API): the agents are ``player_0`` .. ``player_{n-1}`` in seat order, the agent to act is
the seat the rules say moves next (not always round-robin: Tofu Kingdom's answerers, Wok Star's
clocks), chance events happen inside ``step``.

- Observations: ``{"observation": float32 vector, "action_mask": int8 vector}``. The vector is
  the game's fixed encoding (``shifu encoding --game G`` prints its layout) and holds only what
  that seat can see; the mask marks the legal actions of the agent to act (all zero for the
  others).
- Actions: ``Discrete(action_count)``, the game's fixed action indices. An action the mask does
  not allow raises ``ValueError`` and changes nothing.
- Rewards: zero until the game ends; then each seat's share of the win (1/k for each of k tied
  winners, 0 for the others; in cooperative Wok Star 1 for everyone when the team wins).
- A game the round cap stops is *truncated*, not terminated: the rules did not end it.
- ``render()`` returns the position as text (``render_mode="ansi"``) or prints it
  (``"human"``).
- Determinism: ``reset(seed=s)`` then the same actions give the same game, as ``shifu play``
  game seeds do.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _shifu


def _set_list(params: dict) -> list[str]:
    """Keyword parameters as the command's ``--set key=value`` strings."""
    out = []
    for key, value in params.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            text = ",".join(str(v) for v in value)
        else:
            text = str(value)
        out.append(f"{key}={text}")
    return out


class ShifuEnv(AECEnv):
    """One shifu game as a PettingZoo AEC environment (see the module's documentation)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "shifu_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str = "tofu-shifu",
        players: int | None = None,
        render_mode: str | None = None,
        data: str | None = None,
        config: str | None = None,
        **params,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']} or None"
            )
        self.core = _shifu.Env(game, players, data, config, _set_list(params))
        self.game = game
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"shifu_{game.replace('-', '_')}_v0")
        n = self.core.num_seats
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_len = self.core.observation_len
        self._actions = self.core.action_count
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-np.inf, high=np.inf, shape=(self._obs_len,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._actions) for a in self.possible_agents}
        self._seeds = None
        self._zero_mask = np.zeros(self._actions, dtype=np.int8)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new game. With ``seed``, the game of that seed; without, the next seed of the
        stream the last seeded reset started (from fresh entropy when there was none)."""
        if seed is not None or self._seeds is None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(seed) if seed is not None else int(self._seeds.integers(0, 2**63))
        self.core.reset(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.core.to_move()]

    def observe(self, agent):
        seat = self._index[agent]
        obs = np.frombuffer(self.core.observe(seat), dtype="<f4")
        if agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        ):
            mask = np.frombuffer(self.core.mask(), dtype=np.int8)
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose game is over")
        self.core.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        mover = self.core.to_move()
        if mover is None:
            rewards, scores, capped = self.core.result()
            for a in self.agents:
                i = self._index[a]
                self.rewards[a] = float(rewards[i])
                self.infos[a] = {"score": float(scores[i]), "capped": bool(capped)}
                if capped:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[mover]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "render() without a render_mode: pass render_mode='ansi' or 'human' to shifu.env"
            )
            return None
        text = self.core.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    # Beyond PettingZoo: helpers for training against the built-in agents.

    def agent_action(self, spec: str = "greedy", seed: int = 0) -> int:
        """The action index the built-in agent ``spec`` (``random``, ``greedy``,
        ``mcts:iters=200``, ...) takes for the agent to act, deciding from its seat's view."""
        return self.core.agent_action(spec, seed)

    def action_name(self, action: int) -> str | None:
        """The action with this index, by name."""
        return self.core.action_name(int(action))
