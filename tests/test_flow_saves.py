"""A paused effect is plain data (STYLE principle 2): clone and JSON round-trip of random
paused states (Choice, Wait, Gate, pending delayed continuations) equal the original, and
resuming the copies the same way gives equal games and equal events."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flow_support import ALL, HAND, PLAYER, SELF, TARGET, THIS, M, card, enemy, flow_pack, seq
from flow_support import status as mkstatus

from gcs.content.db import Content
from gcs.content.defs import DeckEntry
from gcs.enums import Keyword, PileScope, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import (
    BinOp,
    CardSel,
    Compare,
    CountOf,
    UnitSel,
    UnitStat,
    Var,
)
from gcs.game import Game

RND = UnitSel("random_enemy")


def pausing_pack() -> Content:
    """Cards, statuses and enemies that pause in every way, nested in every composite."""
    pick = N.Choice(HAND, "p", min=0, max=2, then=N.Foreach(CardSel("var", var="p"), "x", seq(
        N.Wait(0.5), N.ExhaustCard(CardSel("var", var="x")))), skipped=M(1))
    cards = [
        card("pick", 0, on_play=seq(N.SetVar("e", UnitStat("energy")), pick,
                                    N.GainGold(Var("e")))),
        card("volley", 1, on_play=N.Loop(3, seq(N.DealDamage(2, RND), N.Wait(0.3)), var="i")),
        card("gate", 1, target=TargetMode.SINGLE_ENEMY, on_play=seq(
            N.DealDamage(4, TARGET), N.AnimationGate("swing"), N.DrawCards(1))),
        card("later", 0, on_play=seq(
            N.SetVar("hp", UnitStat("hp", PLAYER)), N.SetObj("foe", RND),
            N.WaitUntil("player_turn_start"),
            N.DealDamage(Var("hp"), UnitSel("var", var="foe")),
            N.Choice(ALL, "t", then=N.ApplyStatus("weak", 1, UnitSel("var", var="t"))))),
        card("sift", 1, on_play=N.Foreach(CardSel("hand", random=2), "c", seq(
            N.Wait(0.25), N.DiscardCard(CardSel("var", var="c"))))),
        card("brood", 1, keywords=(Keyword.EXHAUST,), on_play=seq(
            N.SpawnEnemy("imp", var="new"), N.Wait(1), N.Kill(UnitSel("var", var="new")),
            N.AddCards("spark", PileScope.DRAW, count=2, var="made"),
            N.UpgradeCard(CardSel("var", var="made")))),
        card("spark", 0, on_drawn=seq(N.Wait(0.2), N.GainBlock(1, PLAYER)),
             on_discard=N.Choice(CardSel("discard", top=3), "d", then=N.MoveCard(
                 CardSel("var", var="d"), PileScope.DRAW))),
        card("grind", 1, on_play=N.While(Compare("lt", CountOf(CardSel("exhaust")), 2), seq(
            N.Choice(HAND, "g", then=N.ExhaustCard(CardSel("var", var="g")),
                     skipped=N.AddCards("spark", PileScope.EXHAUST)),
            N.Wait(0.1)), max_iterations=4)),
        card("focus", 1, on_play=seq(N.RegisterCardHook(N.HookDef("draw", amount=1), turns=2),
                                     N.WaitUntil("player_turn_end"), N.ExhaustCard(THIS))),
        card("smite", 2, target=TargetMode.SINGLE_ENEMY, on_play=seq(
            N.DealDamage(BinOp("add", 3, CountOf(HAND)), TARGET, hits=2),
            N.Branch(Compare("gt", UnitStat("hp", TARGET), 10), N.AnimationGate()))),
    ]
    statuses = [
        mkstatus("echo", on_play=N.Branch(Compare("gt", CountOf(CardSel("played")), 2),
                                          seq(N.Wait(0.4), N.GainBlock(2, PLAYER)))),
        mkstatus("doubt", on_turn_start=N.Choice(HAND, "q", min=0, max=1,
                                                 then=N.DiscardCard(CardSel("var", var="q")))),
        mkstatus("brace", on_attacked=seq(N.AnimationGate("hit"), N.GainBlock(1, SELF)),
                 on_turn_end=N.WaitUntil("enemy_phase_end")),
    ]
    enemies = [
        enemy("foe", 60, behaviour=seq(N.DealDamage(5, TARGET), N.Wait(0.5),
                                       N.GainBlock(3, SELF)), statuses={"brace": 1}),
        enemy("imp", 8, behaviour=N.Loop(2, seq(N.DealDamage(1, TARGET), N.Wait(0.1)))),
    ]
    deck = tuple(DeckEntry(c, count=2) for c in (
        "pick", "volley", "gate", "later", "sift", "brood", "grind", "focus", "smite",
        "strike", "defend"))
    return flow_pack(cards, statuses, enemies, deck=deck)


PACK = pausing_pack()


def new_game(seed: int) -> Game:
    g = Game(PACK, seed=seed)
    g.start_battle("post_foe")
    player = g.player
    assert player is not None
    player.statuses.update({"echo": 1, "doubt": 1})
    return g


def next_action(g: Game, rng: random.Random) -> tuple[Any, ...] | None:
    """A random legal input as plain data (indices, not objects), or None when over."""
    if not g.is_battle_active or g.is_waiting_for_reward:
        return None
    pc = g.pending_choice
    if pc is not None:
        k = rng.randint(pc.min, pc.max)
        return ("choose", sorted(rng.sample(range(len(pc.candidates)), k)))
    if g.waiting_kind == "wait":
        return ("time", rng.choice([0.05, 0.25, 0.5, 1.0, 3.0]))
    if g.waiting_kind == "gate":
        return ("gate",)
    plays = []
    for i, c in enumerate(g.hand()):
        if g.can_play_card(c):
            targets = ([j for j, u in enumerate(g.enemies) if u.alive]
                       if g.requires_target(c) else [None])
            plays += [("play", i, t) for t in targets]
    if not plays or rng.random() < 0.15:
        return ("end",)
    return rng.choice(plays)


def act(g: Game, a: tuple[Any, ...]) -> None:
    kind = a[0]
    if kind == "choose":
        g.choose(list(a[1]))
    elif kind == "time":
        g.advance_time(a[1])
    elif kind == "gate":
        assert g.complete_animation()
    elif kind == "end":
        assert g.end_player_turn()
    else:
        assert g.try_play_card(g.hand()[a[1]], a[2])


def dump(g: Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def paused_states(seed: int, wanted: int, limit: int = 400) -> list[tuple[Game, Any]]:
    """Play seed-random inputs; return (copy of game, rng state) at ``wanted`` paused
    states (a Choice, Wait or Gate open, or a delayed continuation pending)."""
    rng = random.Random(seed)
    g = new_game(seed)
    out: list[tuple[Game, Any]] = []
    for _ in range(limit):
        if g.is_waiting or g._e.s.delayed:
            out.append((g.clone(), rng.getstate()))
            if len(out) >= wanted:
                break
        a = next_action(g, rng)
        if a is None:
            break
        act(g, a)
    return out


def resume(g: Game, rng: random.Random, steps: int) -> list[tuple[Any, ...]]:
    script = []
    for _ in range(steps):
        a = next_action(g, rng)
        if a is None:
            break
        act(g, a)
        script.append(a)
    return script


@pytest.mark.parametrize("seed", range(40))
def test_random_paused_states_clone_and_json_round_trip(seed: int) -> None:
    states = paused_states(seed, wanted=10)
    assert states, "the random play reached no paused state"
    for g, rstate in states:
        kinds = (g.waiting_kind, bool(g._e.s.delayed))
        before = dump(g)
        c = g.clone()
        j = Game.from_json(PACK, json.loads(json.dumps(g.to_json())))
        assert c == g and j == g, kinds
        assert dump(j) == before
        n0 = len(g.event_log)
        # resume the original; the copies must not move with it
        rng = random.Random()
        rng.setstate(rstate)
        script = resume(g, rng, 12)
        assert dump(c) == before and dump(j) == before
        # the same inputs on each copy: equal games, equal events after the pause
        for copy in (c, j):
            n1 = len(copy.event_log)
            for a in script:
                act(copy, a)
            assert copy == g
            assert copy.event_log[n1:] == g.event_log[n0:]


def test_the_random_play_reaches_every_kind_of_pause() -> None:
    kinds: set[str] = set()
    for seed in range(24):
        for g, _ in paused_states(seed, wanted=6):
            kinds.add(g.waiting_kind or "delayed")
            if g._e.s.delayed:
                kinds.add("delayed")
    assert kinds == {"choice", "wait", "gate", "delayed"}


def test_a_json_save_of_a_paused_choice_survives_a_text_round_trip() -> None:
    """Nodes are saved as (program, index) references; a Choice inside a Foreach inside a
    Loop resumes in the right iteration with the right frozen slots."""
    g = new_game(5)
    pick = next((c for c in g.pile(PileScope.ALL) if c.card_id == "pick"), None)
    assert pick is not None
    g.move_card_to_pile(pick, PileScope.HAND)
    g.settle()
    while g.is_waiting_for_choice:
        g.choose([])
    assert g.try_play_card(pick)
    assert g.is_waiting_for_choice
    text = json.dumps(g.to_json())
    j = Game.from_json(PACK, json.loads(text))
    for x in (g, j):
        x.choose([0, 1])
        x.settle()
    assert j == g
