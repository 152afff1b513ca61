"""``GcsVectorEnv``: many GCS episodes stepped in one process, observations written in batch.

It behaves as ``gymnasium.vector.SyncVectorEnv`` over ``GcsEnv`` with the same arguments
(next-step autoreset, sub-environment ``i`` seeded ``seed + i``: the same seeds give the same
observations, rewards and ends), without per-environment observation dicts, copies and
concatenation. ``gymnasium.make_vec("gcs/...", num_envs=N)`` builds one (``vector_entry_point``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..content.db import Content
from ..errors import GameError
from ._extra import missing_gym_extra
from .actions import ActionLayout
from .observe import Array, Observer
from .registry import ALL
from .task import Episode, make_task, task_content

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # the gym extra is not installed
    raise missing_gym_extra(exc) from exc


class GcsVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` episodes of one task (arguments as for ``GcsEnv``), stepped together."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 16, content: Content | None = None,
                 encounter: str | Sequence[str] = "jaw_worm", *, run: bool = False,
                 shuffle: bool = False, deck: Sequence[str] | str | None = None,
                 flat: bool = False, copy: bool = True, render_mode: str | None = None,
                 **task: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise GameError(f"num_envs must be an int >= 1, got {num_envs!r}")
        if render_mode is not None:
            raise GameError("GcsVectorEnv does not render; use GcsEnv(render_mode='ansi')")
        if content is None:
            from ..content.loader import builtin_content

            content = builtin_content()
        if encounter == ALL:
            encounter = sorted(content.encounters)
        self.task = make_task(encounter, run=run, shuffle=shuffle, deck=deck, **task)
        self.content = content
        self.layout = ActionLayout(sorted(content.cards))
        self.observer = Observer(content, self.layout, max_turns=self.task.max_turns)
        played = task_content(content, self.task)
        self.episodes = [Episode(played, self.task, self.layout) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.flat = flat
        self.copy = copy
        self.single_observation_space = (self.observer.flat_space if flat
                                         else self.observer.space)
        self.single_action_space = spaces.Discrete(self.layout.n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._buf = self.observer.buffers(num_envs)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every episode; ``seed`` an int (episode ``i`` gets ``seed + i``) or one per env."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise GameError(f"reset needs {n} seeds, got {len(seeds)}")
        for i, s in enumerate(seeds):
            if s is not None or self._rngs[i] is None:
                self._rngs[i] = seeding.np_random(s)[0]
            self._reset_one(i)
        self._autoreset[:] = False
        self._illegal[:] = False
        return self._observations(), self._infos()

    def step(self, actions: Any) -> tuple[Any, Array, Array, Array, dict[str, Any]]:
        """Step every episode by its action index; an ended episode resets on its next step."""
        n = self.num_envs
        acts = np.asarray(actions).reshape(-1).tolist()
        if len(acts) != n:
            raise GameError(f"step needs {n} actions, got {len(acts)}")
        rewards = np.zeros(n, dtype=np.float64)
        term = np.zeros(n, dtype=np.bool_)
        trunc = np.zeros(n, dtype=np.bool_)
        for i, ep in enumerate(self.episodes):
            if self._autoreset[i]:
                self._reset_one(i)
                self._illegal[i] = False
                continue
            r, te, tr, illegal = ep.step(int(acts[i]))
            rewards[i], term[i], trunc[i], self._illegal[i] = r, te, tr, illegal
            self._write(i)
        self._autoreset = term | trunc
        return self._observations(), rewards, term, trunc, self._infos()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legality masks of every episode, shape ``(num_envs, n_actions)`` (int8)."""
        return self._buf["action_mask"].copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: every episode lives in this process."""

    # ------------------------------------------------------------ internals
    def _reset_one(self, i: int) -> None:
        rng = self._rngs[i]
        assert rng is not None
        self.episodes[i].reset(rng)
        self._write(i)

    def _write(self, i: int) -> None:
        ep = self.episodes[i]
        assert ep.game is not None
        self.observer.write(ep.game, ep.slots, self._buf, i,
                            floor=ep.won_battles / self.task.battles, is_run=self.task.run)

    def _observations(self) -> Any:
        buf = self._buf
        if self.flat:
            return np.stack([self.observer.flatten({k: v[i] for k, v in buf.items()})
                             for i in range(self.num_envs)])
        return {k: v.copy() for k, v in buf.items()} if self.copy else buf

    def _infos(self) -> dict[str, Any]:
        ones = np.ones(self.num_envs, dtype=np.bool_)
        eps = self.episodes
        return {
            "action_mask": self._buf["action_mask"].copy(), "_action_mask": ones,
            "illegal_action": self._illegal.copy(), "_illegal_action": ones,
            "battles_won": np.array([e.won_battles for e in eps]), "_battles_won": ones,
            "turn": np.array([e.game.turn_number if e.game else 0 for e in eps]),
            "_turn": ones,
        }
