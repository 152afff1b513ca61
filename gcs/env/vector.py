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
from . import args
from . import state as envstate
from ._extra import missing_gym_extra
from .actions import ActionLayout
from .observe import Array, Observer
from .observe_extra import DEFAULT, OBSERVATIONS, write_run
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
                 flat: bool = False, copy: bool = True, observation: str = DEFAULT,
                 render_mode: str | None = None, **task: Any) -> None:
        num_envs = args.integer("GcsVectorEnv", "num_envs", num_envs, 1, args.MAX_ENVS)
        if render_mode is not None:
            raise GameError("GcsVectorEnv does not render; use GcsEnv(render_mode='ansi')")
        if content is None:
            from ..content.loader import builtin_content

            content = builtin_content()
        if not isinstance(content, Content):
            raise args.bad("GcsVectorEnv", "content", "a gcs.Content (or None: the bundled "
                           "pack)", content)
        if isinstance(encounter, str) and encounter == ALL:
            encounter = sorted(content.encounters)
        self.task = make_task(encounter, run=run, shuffle=shuffle, deck=deck,
                              call="GcsVectorEnv", **task)
        args.boolean("GcsVectorEnv", "flat", flat)
        args.boolean("GcsVectorEnv", "copy", copy)
        args.choice("GcsVectorEnv", "observation", observation, OBSERVATIONS)
        self.content = content
        self.layout = ActionLayout(sorted(content.cards))
        self.observer = Observer(content, self.layout, max_turns=self.task.max_turns,
                                 observation=observation, act=bool(self.task.act))
        self._bosses = sorted(e.id for e in content.encounters.values() if e.pool == "boss")
        self.observation = observation
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
        self._ones = np.ones(num_envs, dtype=np.bool_)  # (each info's ``_key`` mask copies it)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """An unpickled or deep-copied env: its observation buffers made again for its encoder."""
        self.__dict__.update(state)
        self._buf = self.observer.adopt(self._buf)

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every episode; ``seed`` an int >= 0 (episode ``i`` gets ``seed + i``) or one per
        env (each None or an int >= 0); ``options``: none are defined (None)."""
        n = self.num_envs
        args.options("reset", options)
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, np.ndarray) and seed.ndim == 1:
            seeds = [args.seed("reset", s) for s in seed.tolist()]
            if len(seeds) != n:
                raise args.bad("reset", "seed", f"an int or a list of {n} seeds", seed)
        elif isinstance(seed, (str, bytes)) or not isinstance(seed, Sequence):
            first = args.seed("reset", seed)
            assert first is not None
            seeds = [first + i for i in range(n)]
        else:
            if len(seed) != n:
                raise args.bad("reset", "seed", f"an int or a list of {n} seeds", seed)
            seeds = [args.seed("reset", s) for s in seed]
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
        acts = _indices(actions, n, self.layout.n)
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

    def get_state(self, index: int) -> dict[str, Any]:
        """The state of episode ``index`` as JSON data (the format of ``GcsEnv.get_state``)."""
        i = args.integer("get_state", "index", index, 0, self.num_envs - 1)
        rng = self._rngs[i]
        if rng is None:
            raise GameError("call reset() before get_state()")
        return envstate.dump(self.episodes[i], rng, bool(self._illegal[i]))

    def set_state(self, index: int, state: dict[str, Any]) -> None:
        """Return episode ``index`` to a state of ``get_state`` (of this env or of a ``GcsEnv``
        of the same task and content); its next ``step`` goes on from there (an ended episode
        resets, as after any end). A bad state raises ArgumentError and changes nothing."""
        i = args.integer("set_state", "index", index, 0, self.num_envs - 1)
        restored = envstate.check(self.episodes[i], self._rngs[i], state)
        restored.apply(self.episodes[i])
        self._rngs[i] = restored.rng
        self._illegal[i] = restored.illegal
        self._autoreset[i] = restored.done
        self._write(i)

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
                            floor=ep.won_battles / self.task.battles, is_run=self.task.run,
                            enemies=ep.enemies)
        if ep.run is not None:
            write_run(ep.run, self._bosses, self._buf, i)

    def _observations(self) -> Any:
        buf = self._buf
        if self.flat:
            return np.stack([self.observer.flatten({k: v[i] for k, v in buf.items()})
                             for i in range(self.num_envs)])
        return {k: v.copy() for k, v in buf.items()} if self.copy else buf

    def _infos(self) -> dict[str, Any]:
        """The infos ``SyncVectorEnv`` merges from ``GcsEnv``'s: the same keys, each with its
        ``_key`` mask; text and None-or-bool values in object arrays."""
        n = self.num_envs
        eps = self.episodes
        legal = np.empty(n, dtype=object)
        encounter = np.empty(n, dtype=object)
        won = np.empty(n, dtype=object)
        for i, e in enumerate(eps):
            legal[i] = [str(a) for a in e.slots.values()]
            encounter[i] = e.encounter
            won[i] = e.result
        out: dict[str, Any] = {
            "action_mask": self._buf["action_mask"].copy(),
            "turn": np.array([e.game.turn_number if e.game else 0 for e in eps]),
            "legal_actions": legal, "illegal_action": self._illegal.copy(),
            "encounter": encounter, "battles_won": np.array([e.won_battles for e in eps]),
            "won": won,
        }
        ones = self._ones
        for key in list(out):
            out["_" + key] = ones.copy()
        return out


def _indices(actions: Any, n: int, n_actions: int) -> list[int]:
    """``step``'s actions: ``n`` action indices (a list or an integer array), checked before
    any episode steps; floats, bools and values out of the space are refused."""
    try:
        arr = np.asarray(actions)
    except (ValueError, TypeError) as exc:  # (a ragged list)
        raise args.bad("step", "actions", f"{n} action indices", actions) from exc
    if arr.dtype.kind not in ("i", "u") or arr.size != n:
        raise args.bad("step", "actions", f"{n} action indices (an integer array or a list of "
                       f"ints), got dtype {arr.dtype} and {arr.size} values:", actions)
    flat = arr.reshape(-1)
    wrong = np.flatnonzero((flat < 0) | (flat >= n_actions))
    if wrong.size:
        i = int(wrong[0])
        raise args.bad("step", f"actions[{i}]", f"an action index in 0..{n_actions - 1}",
                       flat[i].item())
    out: list[int] = flat.tolist()
    return out
