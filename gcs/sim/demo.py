"""A narrated battle: every phase, play and event printed as it happens."""

from __future__ import annotations

from typing import TextIO

from .. import events as ev
from ..content.db import Content
from ..game import Game
from .policies import make_policy


def _unit(g: Game, uid: int | None) -> str:
    if uid is None:
        return "-"
    if uid == 0:
        return "Player"
    return f"{g.enemies[uid - 1].name}[e{uid - 1}]" if uid - 1 < len(g.enemies) else f"e{uid - 1}"


def describe_event(g: Game, e: ev.Event) -> str | None:
    """One line for an event, or None for the noisiest ones."""
    if isinstance(e, ev.PhaseChanged):
        return f"== {e.new.name} (turn {e.turn})"
    if isinstance(e, ev.CardPlayed):
        tgt = f" -> {_unit(g, e.target)}" if e.target is not None else ""
        return f"   play {e.card_id}{'+' if e.upgraded else ''} (cost {e.cost}){tgt}"
    if isinstance(e, ev.DamageDealt):
        return (f"   {_unit(g, e.source)} hits {_unit(g, e.target)} for {e.amount}"
                f" ({e.blocked} blocked, {e.hp_lost} HP)")
    if isinstance(e, ev.BlockGained):
        return f"   {_unit(g, e.unit)} gains {e.amount} block ({e.total})"
    if isinstance(e, ev.StatusApplied):
        return f"   {_unit(g, e.unit)} {e.status} {e.delta:+d} -> {e.stacks}"
    if isinstance(e, ev.EnemyUnitIntentChanged):
        dmg = f" {e.damage}x{e.hits}" if e.damage is not None else ""
        return f"   {_unit(g, e.unit)} intends {e.move}{dmg}"
    if isinstance(e, ev.UnitDied):
        return f"   {_unit(g, e.unit)} dies"
    if isinstance(e, (ev.CardDrawn, ev.CardDiscarded, ev.CardExhausted, ev.CardRetained,
                      ev.CardAddedToHand)):
        return f"   {type(e).__name__} {e.card_id}#{e.instance_id}"
    if isinstance(e, (ev.BattleStarted, ev.BattleEnded, ev.BattleRewardOffered, ev.DrawPileShuffled,
                      ev.ChoiceOpened, ev.ChoiceMade, ev.HpLost, ev.Healed, ev.GoldGained,
                      ev.UnitSpawned, ev.UnitRevived, ev.CardAddedToDeck, ev.RewardApplied)):
        return f"   {e}"
    return None


def run_demo(content: Content, encounter: str, seed: int, policy_name: str, out: TextIO) -> Game:
    """Play ``encounter`` with a named policy, narrating to ``out``."""
    g = Game(content, seed=seed, log_events=False)
    policy = make_policy(policy_name, seed)

    def show(e: ev.Event) -> None:
        line = describe_event(g, e)
        if line is not None:
            out.write(line + "\n")

    g.subscribe(ev.Event, show)
    out.write(f"GCS demo: {encounter}, seed {seed}, {policy_name} policy, pack "
              f"{content.pack_id}\n")
    g.start_battle(encounter)
    g.settle()
    while True:
        legal = g.legal_actions()
        if not legal:
            break
        if g.phase.name == "PLAYER_PHASE" and not g.is_waiting:
            hand = ", ".join(f"{c.card_id}{'+' if c.upgraded else ''}" for c in g.hand())
            p = g.player
            assert p is not None
            out.write(f"   [hp {p.hp}/{p.max_hp} block {p.block} energy {g.energy}] hand: "
                      f"{hand}\n")
        a = policy(g, legal)
        out.write(f"> {a}\n")
        g.apply(a)
    hp, max_hp = g.run_hp
    out.write(f"result: {'WON' if g.last_result else 'LOST'} in {g.turn_number} turns; run HP "
              f"{hp}/{max_hp}\n")
    return g
