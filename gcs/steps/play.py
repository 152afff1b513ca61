"""Playing a card (seed 004): steps 1-2 commit it (gcs/battle/play.py), then its PLAY frame's
steps 3-5, and the end of a play made from the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..battle import frames as K
from ..battle.cards import lifecycle_entries, move, push_entries, remove_from_battle, to_exhaust
from ..battle.combat import status_entries
from ..battle.play import commit_play
from ..battle.roles import roles_of
from ..battle.state import CardInstance, Ctx, Frame
from ..content.roles import ON_PLAY
from ..enums import KW_EXHAUST, PILE_DISCARD, PILE_LIMBO, PileScope
from ..interp.card_actions import register_hook
from ..interp.run import ENTRY_ROOTS, EXEC, start_entry
from .runner import DECIDED, END, GO, Procedure, Step, become, check_end, start

if TYPE_CHECKING:
    from ..engine import Engine


def play_from_hand(e: Engine, inst: CardInstance, target_uid: int,
                   hooks: bool | None = None) -> None:
    """A top-level play of a hand card the caller validated (step 1), with nothing queued:
    steps 2-5, then what they queued, under the busy flag (a subscriber's changing call in a
    handler is refused). ``hooks`` is ``hooks_possible(e)`` when the caller knows it."""
    e.busy = True
    try:
        start(e, commit_play(e, inst, target_uid, hooks=hooks))
    finally:
        e.busy = False


class OnPlay(Step):
    """3. Publish OnCardPlayed, execute the card's On Play Behavior, ... (OnCardPlayed is out:
    ``commit_play``). It sees the hand after the play: the card left it at step 2."""

    def run(self, e: Engine, f: Frame) -> int:
        data: list[Any] = f.data
        uid: int = data[0]
        inst = e.s.cards.get(uid)
        node = None if inst is None else inst.active.on_play
        ctx = f.ctx
        if node is not None and ctx is not None:
            t = type(node)
            if t in ENTRY_ROOTS:
                # inline: a straight On Play runs here (this frame's next step re-reads
                # nothing it could change first)
                start_entry(e, node, ctx, not e.stepwise)
            else:
                EXEC[t](e, node, ctx)  # (a single action: ``start_entry``'s own first case)
        return GO


class StatusesOnPlay(Step):
    """3. ... then execute matching player-status On Play branches (snapshot order); then those
    of each living enemy's statuses (encounter order), e.g. an enemy that reacts to Skills."""

    def run(self, e: Engine, f: Frame) -> int:
        if e.c.play_statuses:
            ctx = f.ctx
            assert ctx is not None
            data: list[Any] = f.data
            uid: int = data[0]
            _status_on_play(e, ctx, uid)
        return GO


class Hooks(Step):
    """4. Register persistent Hooks created by the card after every deferred branch completes."""

    def run(self, e: Engine, f: Frame) -> int:
        ctx = f.ctx
        assert ctx is not None
        hooks = ctx.hooks
        if hooks:
            data: list[Any] = f.data
            uid: int = data[0]
            for hook in hooks:
                register_hook(e, hook, uid)
            hooks.clear()
        return GO


class Destination(Step):
    """5. Preserve any pile destination authored by the On Play graph; otherwise run the exhaust
    event and lifecycle for an Exhaust card, or place a regular card in Discard without treating
    the default post-play destination as a discard lifecycle. (A Play Card node may author the
    destination of the card it plays.) No card type decides it."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        data: list[Any] = f.data
        uid: int = data[0]
        inst = s.cards.get(uid)
        if inst is not None and inst.pile is PILE_LIMBO:
            dest: str = data[3]
            if inst.replay:  # (a replayed copy: purged, in no pile)
                remove_from_battle(e, inst)
            elif dest:
                move(e, inst, PileScope(dest))
            elif KW_EXHAUST in inst.active.keywords:
                to_exhaust(e, inst, PILE_LIMBO)
            else:
                inst.pile = PILE_DISCARD  # (a placement: no event, nothing queued)
                s.discard.append(inst.uid)
        return GO


class PlayDone(Step):
    """5. ... the play is complete: a play from the hand re-reads the battlefield, then a turn
    end a behaviour asked for follows (seed 001: "在当前完整效果波次结算后进入 PlayerTurnEnd");
    a nested play returns to the effect that played it, which does both later."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        e.pop()
        data: list[Any] = f.data
        nested: int = data[2]
        if nested:
            return END
        if check_end(e):
            return DECIDED
        if s.end_turn:
            s.end_turn = False
            s.stack.append(f)
            return become(e, f, K.TURN_END, K.TURN_END_DISCARD_PHASE)
        return END


def _status_on_play(e: Engine, ctx: Ctx, uid: int) -> None:
    """Queue the status On Play branches of a play: the player's (snapshot order), then each
    living enemy's (encounter order)."""
    s = e.s
    entries = []
    units = s.units
    player = units[0]
    if player.statuses and roles_of(e, player) & ON_PLAY and uid in s.cards:
        inst = s.cards[uid]
        entries = [(n, c) for n, c in lifecycle_entries(e, inst, "on_play") if c.status]
        x_cost = inst.active.x_cost
        for _, c in entries:
            c.target = ctx.target
            if x_cost:  # (an X-cost card's X: a replay of it counts the same)
                c.x = ctx.x
    for k in range(1, len(units)):
        u = units[k]
        if u.alive and u.statuses and roles_of(e, u) & ON_PLAY:
            for n, c in status_entries(e, u, "on_play"):
                c.src = uid
                c.objs["card"] = ["c", [uid]]
                entries.append((n, c))
    if entries:
        push_entries(e, entries)


PLAY: Final = Procedure("Play", K.PLAY, {
    K.PLAY_ON_PLAY: OnPlay(),
    K.PLAY_STATUSES: StatusesOnPlay(),
    K.PLAY_HOOKS: Hooks(),
    K.PLAY_DESTINATION: Destination(),
    K.PLAY_DONE: PlayDone(),
})
