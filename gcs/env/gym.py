"""``GcsEnv``: a Gymnasium environment over GCS fights and runs (extra: ``pip install 'gcs[gym]'``).

Observations are a ``Dict`` of fixed-size, normalized parts (``flat=True``: one float32
vector); actions a fixed ``Discrete`` space with a legality mask (in the observation, in
``info["action_mask"]`` and from :meth:`GcsEnv.action_masks`); :meth:`GcsEnv.decode` and
:meth:`GcsEnv.encode` convert between indices and ``gcs.Action``. An illegal index changes
nothing: reward ``illegal_penalty``, ``info["illegal_action"]`` True. The layout, the tasks
and the reward are documented in docs/env.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..agent import Action
from ..content.db import Content
from ..errors import GameError, IllegalActionError
from ..game import Game
from . import args
from . import state as envstate
from ._extra import missing_gym_extra
from .actions import MAX_CHOICES, MAX_ENEMIES, MAX_HAND, ActionLayout
from .observe import Array, Observer
from .observe_extra import DEFAULT, OBSERVATIONS, write_run
from .registry import ALL
from .task import Episode, Task, make_task, task_content

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # the gym extra is not installed
    raise missing_gym_extra(exc) from exc

__all__ = ["MAX_CHOICES", "MAX_ENEMIES", "MAX_HAND", "GcsEnv"]


def _builtin() -> Content:
    from ..content.loader import builtin_content

    return builtin_content()


class GcsEnv(gym.Env[Any, np.int64]):
    """Fights or runs on ``content`` (the bundled pack by default); see :class:`gcs.env.task.Task`
    for ``encounter``, ``run``, ``shuffle``, ``deck`` and the other task arguments."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, content: Content | None = None, encounter: str | Sequence[str] = "jaw_worm",
                 *, run: bool = False, shuffle: bool = False,
                 deck: Sequence[str] | str | None = None, flat: bool = False,
                 observation: str = DEFAULT, render_mode: str | None = None,
                 **task: Any) -> None:
        if content is None:
            content = _builtin()
        if not isinstance(content, Content):
            raise args.bad("GcsEnv", "content", "a gcs.Content (or None: the bundled pack)",
                           content)
        if isinstance(encounter, str) and encounter == ALL:
            encounter = sorted(content.encounters)
        self.task: Task = make_task(encounter, run=run, shuffle=shuffle, deck=deck, **task)
        args.boolean("GcsEnv", "flat", flat)
        args.choice("GcsEnv", "observation", observation, OBSERVATIONS)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise args.bad("GcsEnv", "render_mode", "None or 'ansi'", render_mode)
        self.content = content
        self.layout = ActionLayout(sorted(content.cards))
        self.episode = Episode(task_content(content, self.task), self.task, self.layout)
        self.observer = Observer(content, self.layout, max_turns=self.task.max_turns,
                                 observation=observation, act=bool(self.task.act))
        self._bosses = sorted(e.id for e in content.encounters.values() if e.pool == "boss")
        self.observation = observation
        self.flat = flat
        self.render_mode = render_mode
        self.observation_space = (self.observer.flat_space if flat
                                  else self.observer.space)
        self.action_space = spaces.Discrete(self.layout.n)
        self._buf = self.observer.buffers(1)
        self._illegal = False

    def __setstate__(self, state: dict[str, Any]) -> None:
        """An unpickled or deep-copied env: its observation buffers made again for its
        encoder (the Episode makes its legal mapping again from the game)."""
        self.__dict__.update(state)
        self._buf = self.observer.adopt(self._buf)

    # ------------------------------------------------------------ gymnasium API
    @property
    def game(self) -> Game | None:
        """The game being played (None before the first reset)."""
        return self.episode.game

    @property
    def illegal_penalty(self) -> float:
        """The reward of an illegal action."""
        return self.task.illegal_penalty

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start an episode (seeded: the same seed replays the same episode). ``seed``: None or
        an int >= 0; ``options``: none are defined (None)."""
        s = args.seed("reset", seed)
        args.options("reset", options)
        super().reset(seed=s)
        self.episode.reset(self.np_random)
        self._illegal = False
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply the action at index ``action`` (an illegal one is a no-op with a penalty)."""
        if self.episode.game is None:
            raise GameError("call reset() before step()")
        index = args.action_index("step", action, self.layout.n)
        reward, terminated, truncated, illegal = self.episode.step(index)
        self._illegal = illegal
        return self._observe(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legality mask of the current state (int8; for maskable policies)."""
        mask = np.zeros(self.layout.n, dtype=np.int8)
        for k in self.episode.slots:
            mask[k] = 1
        return mask

    def decode(self, index: int) -> Action:
        """The ``gcs.Action`` that index ``index`` stands for now; IllegalActionError if none."""
        i = args.action_index("decode", index, self.layout.n)
        a = self.episode.slots.get(i)
        if a is None:
            raise IllegalActionError(
                f"action index {i} ({self.layout.describe(i)}) is not legal now")
        return a

    def encode(self, action: Action | str) -> int:
        """The index of a legal ``action`` (or its text) now; IllegalActionError if none."""
        g = self.episode.game
        if g is None:
            raise GameError("call reset() before encode()")
        a = Action.parse(action) if isinstance(action, str) else action
        if not isinstance(a, Action):
            raise GameError(f"encode needs a gcs.Action or its text, got {type(action).__name__}")
        if self.episode.run is not None and not g.is_battle_active:  # an act's map or rest site
            for k, b in self.episode.slots.items():
                if b == a:
                    return k
            raise IllegalActionError(f"action {a} is not legal now")
        return self.layout.index_of(g, a, self.episode.enemies)

    def legal_actions(self) -> list[Action]:
        """The legal actions now, one per legal index, in mask order."""
        return list(self.episode.slots.values())

    def get_state(self) -> dict[str, Any]:
        """The env's state as JSON data (the game's save, the episode's counters, the random
        generator that draws the next episodes); ``set_state`` returns to it."""
        return envstate.dump(self.episode, self.np_random, self._illegal)

    def set_state(self, state: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Return to a state of ``get_state`` (of an env of the same task and content): the
        same actions then give the same observations, rewards and infos. Returns the state's
        observation and info; a bad state raises ArgumentError (SaveError for a bad save in
        it) and changes nothing."""
        restored = envstate.check(self.episode, self.np_random, state)
        restored.apply(self.episode)
        self._np_random = restored.rng
        self._illegal = restored.illegal
        return self._observe(), self._info()

    def flatten(self, obs: dict[str, Array]) -> Array:
        """The flat vector (``flat=True`` layout) of a ``Dict`` observation."""
        return self.observer.flatten(obs)

    def render(self) -> str | None:
        """The monitor's text view of the game with ``render_mode="ansi"`` (other modes: None)."""
        g = self.episode.game
        if self.render_mode != "ansi" or g is None:
            return None
        from ..monitor import render

        return render(g)

    # ------------------------------------------------------------ internals
    def _observe(self) -> Any:
        ep = self.episode
        g = ep.game
        assert g is not None
        buf = self._buf
        self.observer.write(g, ep.slots, buf, 0, floor=ep.won_battles / self.task.battles,
                            is_run=self.task.run, enemies=ep.enemies)
        if ep.run is not None:
            write_run(ep.run, self._bosses, buf, 0)
        obs = {k: v[0].copy() for k, v in buf.items()}
        return self.observer.flatten(obs) if self.flat else obs

    def _info(self) -> dict[str, Any]:
        ep = self.episode
        g = ep.game
        assert g is not None
        return {"action_mask": self._buf["action_mask"][0].copy(), "turn": g.turn_number,
                "legal_actions": [str(a) for a in ep.slots.values()],
                "illegal_action": self._illegal, "encounter": ep.encounter,
                "battles_won": ep.won_battles, "won": ep.result}
