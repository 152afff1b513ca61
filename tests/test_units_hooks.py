"""Hooks: cost, playable, hand size, draw and energy; Card Hook expiry; temporary cost rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from test_units_support import SELF, card, game, mark, marks, pack, probe, seq, status, trace

import gcs
from gcs.content.db import Content
from gcs.content.defs import DeckEntry, GameCard
from gcs.enums import CardType, PileScope, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import CardFilter, CardSel, UnitStat

ATTACKS = CardFilter(type=CardType.ATTACK)
SKILLS = CardFilter(type=CardType.SKILL)


def hook_pack(player: dict[str, int] | None = None, cards: Sequence[GameCard] = (),
              **kw: Any) -> Content:
    return pack(
        statuses=[
            status("cheap_attacks", hooks=(N.HookDef("cost", "add", -1, ATTACKS),)),
            status("free_skills", hooks=(N.HookDef("cost", "set", 0, SKILLS),)),
            status("taxed", hooks=(N.HookDef("cost", "add", 2),)),
            status("no_skills", hooks=(N.HookDef("playable", "forbid", where=SKILLS),)),
            status("small_hand", hooks=(N.HookDef("hand_size", "add", -5),)),
            status("quick_draw", hooks=(N.HookDef("draw", "add", 1),)),
            status("energized", hooks=(N.HookDef("energy", "add", 1),)),
            status("tick", entries={"on_turn_end": N.Wait(1.0)}),
        ],
        cards=[
            card("conductor", 2, hooks=(N.HookDef("cost", "set", 0,
                                                  CardFilter(exclude_self=True)),)),
            card("surge", 0, on_play=N.RegisterCardHook(N.HookDef("energy", "add", 1), turns=1)),
            card("surge2", 0, on_play=N.RegisterCardHook(N.HookDef("energy", "add", 1), turns=2)),
            card("haste", 0, on_play=N.ModifyCost(CardSel("hand"), set_to=0, duration="turn")),
            card("slow", 0, on_play=N.ModifyCost(CardSel("hand"), amount=1, duration="battle")),
            *cards,
        ],
        player_statuses=player,
        **kw,
    )


def cost_of(g: gcs.Game, card_id: str) -> int:
    inst = next(c for c in g.hand() if c.card_id == card_id)
    cost: int = g.get_effective_energy_cost(inst)
    return cost


def test_hook_cost_add_with_a_card_filter() -> None:
    g = game(hook_pack({"cheap_attacks": 1}), "dummy")
    assert cost_of(g, "strike") == 0 and cost_of(g, "defend") == 1


def test_hook_cost_set_then_later_adds_still_apply_and_clamp_at_zero() -> None:
    g = game(hook_pack({"free_skills": 1, "taxed": 1}), "dummy")
    # snapshot order: free_skills sets skills to 0, then taxed adds 2 to everything
    assert cost_of(g, "defend") == 2 and cost_of(g, "strike") == 3
    g = game(hook_pack({"cheap_attacks": 1}, deck=[DeckEntry("strike", count=10)]),
             "dummy")
    assert g.try_play_card(g.add_card_to_hand("haste"))
    assert cost_of(g, "strike") == 0  # 0 (turn set) - 1 (hook) clamps at 0


def test_hook_playable_forbid_refuses_matching_cards() -> None:
    g = game(hook_pack({"no_skills": 1}), "dummy")
    defend = next(c for c in g.hand() if c.card_id == "defend")
    strike = next(c for c in g.hand() if c.card_id == "strike")
    assert not g.can_play_card(defend) and not g.try_play_card(defend)
    assert g.play_refusal(defend) == "a hook forbids it"
    assert g.can_play_card(strike)


def test_hook_hand_size_limits_the_hand() -> None:
    g = game(hook_pack({"small_hand": 1}), "dummy")
    assert len(g.hand()) == 5
    assert g.draw_cards(2) == 0  # DrawCards stops at the (hooked) full hand
    n = len(g.event_log)
    g.add_card_to_hand("strike")  # a new card into a full hand goes to Discard
    assert ("CardDiscarded", "strike") in trace(g, n) and len(g.hand()) == 5


def test_hook_draw_changes_cards_drawn_per_turn() -> None:
    g = game(hook_pack({"quick_draw": 1}), "dummy")
    assert len(g.hand()) == 5  # the opening hand is StartingHandSize, not DrawPerTurn
    g.end_player_turn()
    assert len(g.hand()) == 6


def test_hook_energy_changes_the_turn_refill() -> None:
    g = game(hook_pack({"energized": 1}), "dummy")
    assert g.energy == 4


def test_hook_in_hand_card_hook_excludes_its_own_card() -> None:
    g = game(hook_pack(deck=[DeckEntry("conductor"), DeckEntry("strike", count=4)]),
             "dummy")
    assert cost_of(g, "strike") == 0 and cost_of(g, "conductor") == 2
    conductor = next(c for c in g.hand() if c.card_id == "conductor")
    g.move_card_to_pile(conductor, PileScope.DISCARD)
    assert cost_of(g, "strike") == 1  # only while the card is in hand


def test_hook_card_hook_with_turns_expires_at_player_turn_start_step_1() -> None:
    g = game(hook_pack(deck=[DeckEntry("surge"), DeckEntry("surge2")]), "dummy")
    for cid in ("surge", "surge2"):
        inst = next(c for c in g.hand() if c.card_id == cid)
        assert g.try_play_card(inst)
    assert g.energy == 3  # hooks change the next refill, not the current energy
    g.end_player_turn()
    assert g.energy == 4  # surge (turns=1) expired at step 1, before the step-3 refill
    g.end_player_turn()
    assert g.energy == 3  # surge2 (turns=2) expired too


def test_hook_card_hook_registration_re_resolves_intents_without_event_if_nothing_shown_changed(
) -> None:
    g = game(hook_pack(deck=[DeckEntry("surge", count=5)]), "jaw_worm")
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0])
    assert not [t for t in trace(g, n) if t[0] == "intent"]


def test_hook_temporary_turn_cost_rule_ends_at_player_turn_end_step_4() -> None:
    # the player's turn-end status waits in step 3: the turn rule still holds there, and a
    # player_turn_end continuation (step 4, after the reset) sees the base cost
    c = hook_pack({"tick": 1}, deck=[DeckEntry("strike", count=10)])
    g = game(c, "dummy")
    strike = next(i for i in g.hand() if i.card_id == "strike")
    assert g.try_play_card(g.add_card_to_hand("haste"))
    assert g.get_effective_energy_cost(strike) == 0
    g.end_player_turn()
    assert g.is_waiting and g.phase.name == "PLAYER_TURN_END"
    assert g.get_effective_energy_cost(strike) == 0  # step 3: still this turn's rule
    g.settle()
    assert g.get_effective_energy_cost(strike) == 1


def test_hook_battle_cost_change_outlives_the_turn() -> None:
    c = hook_pack(deck=[DeckEntry("strike", count=10)])
    g = game(c, "dummy")
    strike = next(i for i in g.hand() if i.card_id == "strike")
    assert g.try_play_card(g.add_card_to_hand("slow"))
    g.end_player_turn()
    assert g.get_effective_energy_cost(strike) == 2


def test_hook_status_hooks_follow_the_status_stacks() -> None:
    c = hook_pack(cards=[card("charge", 0, target=TargetMode.NONE,
                              on_play=seq(N.ApplyStatus("energized", 1, SELF), mark(1)))],
                  deck=[DeckEntry("charge", count=10)])
    g = game(c, "dummy")
    assert g.energy == 3
    assert g.try_play_card(g.hand()[0])
    g.end_player_turn()
    assert g.energy == 4 and marks(g) == [(1,)]


def test_hook_energy_refill_resets_unspent_energy_is_not_carried_over() -> None:
    c = hook_pack(cards=[card("peek", 0, on_play=probe(1, UnitStat("energy")))],
                  deck=[DeckEntry("peek", count=10)])
    g = game(c, "dummy")
    g.end_player_turn()
    assert g.energy == 3
    assert g.try_play_card(g.hand()[0])
    assert marks(g) == [(1, 3)]
