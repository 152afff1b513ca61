"""A Gymnasium environment over one GCS battle (extra: ``pip install gcs[gym]``).

Actions are a flat ``Discrete(N)`` with a legality mask: 0 ends the turn; ``1 + h*T + t``
plays hand card ``h`` at enemy ``t`` (untargeted cards use ``t = 0``); then the ``k``-th legal
answer of an open Choice; then the ``k``-th offered reward, and skip. The mask is in the
observation (``action_mask``), in ``info["action_mask"]`` (int8) and from ``action_masks()``.
An illegal action changes nothing: reward ``illegal_penalty``, ``info["illegal_action"]``.
Observations hold only what the player may see (no draw order, no RNG state). Rewards are
sparse: +1 for a win, -1 for a loss (an episode is one battle; rewards are skipped at the end
unless ``take_rewards``). Waits and Animation Gates settle at once.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..agent import CHOOSE, END, PLAY, REWARD, SKIP, Action
from ..content.db import Content
from ..enums import IntentKind
from ..game import Game

MAX_HAND = 10
MAX_TARGETS = 5
MAX_CHOICES = 32
MAX_REWARDS = 16
N_ACTIONS = 1 + MAX_HAND * MAX_TARGETS + MAX_CHOICES + MAX_REWARDS + 1
_CHOICE0 = 1 + MAX_HAND * MAX_TARGETS
_REWARD0 = _CHOICE0 + MAX_CHOICES
_SKIP = _REWARD0 + MAX_REWARDS
_KINDS = list(IntentKind)


class GcsEnv(gym.Env[dict[str, Any], np.int64]):
    """One battle of ``encounter`` per episode, on ``content`` (the bundled pack by default)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, content: Content | None = None, encounter: str = "jaw_worm", *,
                 deck: list[str] | None = None, max_turns: int = 100,
                 illegal_penalty: float = -0.01, take_rewards: bool = False,
                 render_mode: str | None = None) -> None:
        if content is None:
            from ..content.loader import builtin_content

            content = builtin_content()
        content.encounter(encounter)
        self.content = content
        self.encounter = encounter
        self.deck = deck
        self.max_turns = max_turns
        self.illegal_penalty = illegal_penalty
        self.take_rewards = take_rewards
        self.render_mode = render_mode
        self._cards = {cid: i + 1 for i, cid in enumerate(sorted(content.cards))}
        self._statuses = {sid: i for i, sid in enumerate(sorted(content.statuses))}
        ns, nc = len(self._statuses), len(self._cards) + 1
        self._player_len = 4 + ns
        self._enemy_len = 6 + len(_KINDS) + ns
        self._dim = (4 + self._player_len + MAX_TARGETS * self._enemy_len + MAX_HAND * 3
                     + 2 * nc)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-1e6, 1e6, shape=(self._dim,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.game: Game | None = None
        self._slots: dict[int, Action] = {}

    # ------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        g = Game(self.content, seed=game_seed, log_events=False)
        if self.deck:
            g.set_master_deck(list(self.deck))
        g.start_battle(self.encounter)
        g.settle()
        self.game = g
        obs = self._observe()
        return obs, self._info()

    def step(self, action: np.int64 | int) -> tuple[dict[str, Any], float, bool, bool,
                                                      dict[str, Any]]:
        g = self.game
        if g is None:
            raise RuntimeError("call reset() before step()")
        a = self._slots.get(int(action))
        if a is None:
            obs = self._observe()
            info = self._info()
            info["illegal_action"] = True
            return obs, self.illegal_penalty, self._done(), False, info
        g.apply(a)
        if g.is_waiting_for_reward and not self.take_rewards:
            g.skip_reward()
        reward = 0.0
        terminated = self._done()
        if terminated and g.last_result is not None:
            reward = 1.0 if g.last_result else -1.0
        truncated = not terminated and g.turn_number > self.max_turns
        obs = self._observe()
        return obs, reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legality mask of the current state (for maskable policies)."""
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        for k in self._slots:
            mask[k] = 1
        return mask

    def render(self) -> str | None:
        if self.game is None:
            return None
        from ..monitor import render

        return render(self.game)

    # ------------------------------------------------------------ internals
    def _done(self) -> bool:
        g = self.game
        assert g is not None
        return not g.is_battle_active or (g.is_waiting_for_reward and not self.take_rewards)

    def _info(self) -> dict[str, Any]:
        g = self.game
        assert g is not None
        return {"action_mask": self.action_masks(), "turn": g.turn_number,
                "legal_actions": [str(a) for a in self._slots.values()]}

    def _map_actions(self) -> None:
        g = self.game
        assert g is not None
        slots: dict[int, Action] = {}
        choices = rewards = 0
        for a in g.legal_actions():
            k: int | None = None
            if a.kind == END:
                k = 0
            elif a.kind == PLAY and a.card < MAX_HAND and a.target < MAX_TARGETS:
                k = 1 + a.card * MAX_TARGETS + max(0, a.target)
            elif a.kind == CHOOSE and choices < MAX_CHOICES:
                k, choices = _CHOICE0 + choices, choices + 1
            elif a.kind == REWARD and rewards < MAX_REWARDS:
                k, rewards = _REWARD0 + rewards, rewards + 1
            elif a.kind == SKIP:
                k = _SKIP
            if k is not None:
                slots[k] = a
        self._slots = slots

    def _observe(self) -> dict[str, Any]:
        g = self.game
        assert g is not None
        self._map_actions()
        v = np.zeros(self._dim, dtype=np.float32)
        o = g.observation()
        v[0] = o["turn"]
        v[1] = o["energy"]
        v[2] = 1.0 if g.is_waiting_for_choice else 0.0
        v[3] = 1.0 if g.is_waiting_for_reward else 0.0
        i = 4
        if o["active"]:
            p = o["player"]
            v[i:i + 4] = (p["hp"], p["max_hp"], p["block"], 1.0 if p["alive"] else 0.0)
            for sid, n in p["statuses"].items():
                v[i + 4 + self._statuses[sid]] = n
        i += self._player_len
        for t, en in enumerate(o.get("enemies", [])[:MAX_TARGETS]):
            base = i + t * self._enemy_len
            intent = en["intents"][0] if en["intents"] else None
            v[base:base + 6] = (1.0 if en["alive"] else 0.0, en["hp"], en["max_hp"], en["block"],
                                (intent["damage"] or 0) if intent else 0,
                                intent["hits"] if intent else 0)
            if intent:
                v[base + 6 + _KINDS.index(IntentKind(intent["kind"]))] = 1.0
            for sid, n in en["statuses"].items():
                v[base + 6 + len(_KINDS) + self._statuses[sid]] = n
        i += MAX_TARGETS * self._enemy_len
        for h, c in enumerate(o.get("hand", [])[:MAX_HAND]):
            v[i + 3 * h:i + 3 * h + 3] = (self._cards[c["card"]], c["upgraded"], c["cost"])
        i += MAX_HAND * 3
        nc = len(self._cards) + 1
        for cid, _up in o.get("draw_cards", []):
            v[i + self._cards[cid]] += 1
        i += nc
        for c in o.get("discard", []):
            v[i + self._cards[c["card"]]] += 1
        return {"observation": v, "action_mask": self.action_masks()}
