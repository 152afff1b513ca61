"""The fixed ``Discrete`` action layout of a pack: index <-> ``gcs.Action`` (standard library only).

Indices, in this order (card ``c`` = the ``c``-th card id of the pack in sorted order, as in
:class:`gcs.env.observe.Vocab`):

====================================  =====================================================
``0``                                 end the turn
``1 + h * MAX_ENEMIES + t``           play hand card ``h`` at the enemy in slot ``t``
                                      (untargeted: ``t = 0``; slots: gcs/env/enemies.py)
``choice0 + k``                       the ``k``-th legal answer of the open Choice
``card0 + c``                         take the card reward of card ``c``
``upgrade0 + c``                      upgrade a master-deck ``c`` (the first offered entry)
``remove0 + c``                       remove a master-deck ``c`` (a non-upgraded entry first)
``skip``                              skip the reward
====================================  =====================================================

Reward actions are indexed by card so that the same index always means the same choice
("take Inflame", "remove a Strike"); several offers with the same effect (one per master-deck
entry) share one index, which decodes to the first of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..agent import CHOOSE, END, PLAY, REWARD, SKIP, Action
from ..errors import IllegalActionError

if TYPE_CHECKING:
    from ..act.run import ActRun
    from ..battle.state import MasterEntry, Reward
    from ..game import Game
    from .enemies import EnemySlots

MAX_HAND = 10
MAX_ENEMIES = 5
MAX_CHOICES = 32


class ActionLayout:
    """Index arithmetic of the action space for a pack with ``card_ids`` (in vocabulary order)."""

    def __init__(self, card_ids: Sequence[str]) -> None:
        self.card_index = {cid: i for i, cid in enumerate(card_ids)}
        n_cards = len(card_ids)
        self.end = 0
        self.play0 = 1
        self.choice0 = 1 + MAX_HAND * MAX_ENEMIES
        self.card0 = self.choice0 + MAX_CHOICES
        self.upgrade0 = self.card0 + n_cards
        self.remove0 = self.upgrade0 + n_cards
        self.skip = self.remove0 + n_cards
        self.n = self.skip + 1

    def slots(self, game: Game, enemies: EnemySlots | None = None) -> dict[int, Action]:
        """The legal actions now, by index, in increasing index order (one action per index).
        ``enemies``: the battle's slot map (gcs.env.enemies; None: enemy ``t`` in slot ``t``)."""
        out: dict[int, Action] = {}
        legal = game.legal_actions()
        if not legal:
            return out
        first = legal[0].kind
        if first in (REWARD, SKIP):
            offers = game.offered_rewards
            deck = game.get_master_deck()
            removes: dict[int, bool] = {}  # index -> the chosen entry is upgraded
            for a in legal:
                if a.kind == SKIP:
                    out[self.skip] = a
                    continue
                r = offers[a.reward]
                k = self._reward_index(r)
                if k is None:
                    continue
                if k >= self.remove0 and k < self.skip:
                    up = _entry_upgraded(deck, r)
                    if k in out and not (removes[k] and not up):
                        continue
                    removes[k] = up
                    out[k] = a
                elif k not in out:
                    out[k] = a
        elif first == CHOOSE:
            for k, a in enumerate(legal[:MAX_CHOICES]):
                out[self.choice0 + k] = a
        else:
            slot_of = enemies.slot_of if enemies is not None else None
            for a in legal:
                if a.kind == END:
                    out[self.end] = a
                elif a.kind == PLAY and a.card < MAX_HAND:
                    t = _slot(a.target, slot_of)
                    if t is not None:
                        out[self.play0 + a.card * MAX_ENEMIES + t] = a
        return dict(sorted(out.items()))

    def _reward_index(self, r: Reward) -> int | None:
        c = self.card_index.get(r.card_id) if r.card_id is not None else None
        if c is None:
            return None
        if r.kind == "card":
            return self.card0 + c
        if r.kind == "upgrade":
            return self.upgrade0 + c
        if r.kind == "remove":
            return self.remove0 + c
        return None

    def index_of(self, game: Game, action: Action, enemies: EnemySlots | None = None) -> int:
        """The index of a legal ``action`` now (``enemies`` as for :meth:`slots`);
        IllegalActionError if it is not legal or has none."""
        legal = game.legal_actions()
        if action not in legal:
            raise IllegalActionError(f"action {action} is not legal now")
        k: int | None = None
        if action.kind == END:
            k = self.end
        elif action.kind == PLAY:
            t = _slot(action.target, enemies.slot_of if enemies is not None else None)
            if action.card < MAX_HAND and t is not None:
                k = self.play0 + action.card * MAX_ENEMIES + t
        elif action.kind == CHOOSE:
            pos = legal.index(action)
            k = self.choice0 + pos if pos < MAX_CHOICES else None
        elif action.kind == SKIP:
            k = self.skip
        elif action.kind == REWARD:
            k = self._reward_index(game.offered_rewards[action.reward])
        if k is None:
            raise IllegalActionError(
                f"action {action} has no index in this action space (beyond its caps: "
                f"{MAX_HAND} hand cards, {MAX_ENEMIES} enemies, {MAX_CHOICES} choice answers)")
        return k

    def describe(self, index: int) -> str:
        """What an index means, whatever the state (for docs and error messages)."""
        if not 0 <= index < self.n:
            return f"out of range 0..{self.n - 1}"
        names = list(self.card_index)
        if index == self.end:
            return "end the turn"
        if index < self.choice0:
            h, t = divmod(index - self.play0, MAX_ENEMIES)
            return f"play hand card {h} (at enemy {t} if targeted)"
        if index < self.card0:
            return f"answer {index - self.choice0} of the open Choice"
        if index < self.upgrade0:
            return f"take card {names[index - self.card0]}"
        if index < self.remove0:
            return f"upgrade {names[index - self.upgrade0]}"
        if index < self.skip:
            return f"remove {names[index - self.remove0]}"
        return "skip the reward"


def _slot(target: int, slot_of: dict[int, int] | None) -> int | None:
    """The enemy slot of a play's target (0 for an untargeted play); None: no slot."""
    if target < 0:
        return 0
    if slot_of is None:
        return target if target < MAX_ENEMIES else None
    return slot_of.get(target)


def _entry_upgraded(deck: Sequence[MasterEntry], r: Reward) -> bool:
    i = r.deck_index
    return i is not None and 0 <= i < len(deck) and deck[i].upgraded


def act_slots(run: ActRun, layout: ActionLayout,
              enemies: EnemySlots | None = None) -> dict[int, Action]:
    """An act run's legal mapping: its battles' as ``slots``; on the map, ``choice0 + k`` for
    the ``k``-th room ahead (left to right); at a rest site, ``choice0`` to rest and
    ``upgrade0 + c`` to smith card ``c``."""
    if run.over:
        return {}
    if run.phase == "battle":
        return layout.slots(run.game, enemies)
    legal = run.legal_actions()
    if run.phase == "rest":
        out = {layout.choice0: legal[0]}
        for k, cid in enumerate(run.smith_options(), 1):
            c = layout.card_index.get(cid)
            if c is not None:
                out[layout.upgrade0 + c] = legal[k]
        return dict(sorted(out.items()))
    return {layout.choice0 + k: a for k, a in enumerate(legal[:MAX_CHOICES])}
