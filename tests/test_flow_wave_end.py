"""``WaitUntil(wave_end)``: the rest of a reaction waits for the work already queued in the
current effect wave (docs/rules/flow.md, "The end of the wave"): after the rest of a card's On
Play and before the play's next step; after the rest of an enemy's intent and before its
turn-end statuses; continuations of one wave in the order they were scheduled."""

from __future__ import annotations

from flow_support import ALL, PLAYER, TARGET, M, add, card, enemy, seq, start, trace
from flow_support import status as mkstatus

from gcs.enums import TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import BinOp, Var

END = N.WaitUntil(N.WAVE_END)


def probe(base: int) -> N.GainGold:
    """A marker that shows the HP the reaction saw lost: ``m<base + amount>``."""
    return N.GainGold(BinOp("add", base, Var("amount")))


# on_damage_taken: m1x at once, m2x at the end of the wave (x: the HP lost)
REACT = mkstatus("react", on_damage_taken=seq(probe(10), END, probe(20)))


def marks(g: object) -> list[str]:
    return [t for t in trace(g) if t.startswith("m")]  # type: ignore[arg-type]


def test_a_play_runs_its_on_play_then_the_continuations_in_order_then_its_next_step() -> None:
    two = card("two", 0, target=TargetMode.SINGLE_ENEMY,
               on_play=seq(N.DealDamage(1, TARGET), M(2), N.DealDamage(2, TARGET), M(3)))
    g = start(two, statuses=[REACT, mkstatus("watch", on_play=M(50))],
              enemies=[enemy("foe", statuses={"react": 1})], encounter="foe",
              player_statuses={"watch": 1})
    inst = add(g, "two")
    assert g.try_play_card(inst, g.enemies[0])
    # the hits' reactions at once, the card's On Play to its end, both continuations (the
    # first scheduled first), then the play's status On Play branches (step 3, second part)
    assert marks(g) == ["m11", "m2", "m12", "m3", "m21", "m22", "m50"]
    assert g.discard_pile()[-1] is inst and not g.is_waiting


def test_in_an_enemy_turn_the_continuation_runs_before_its_turn_end_statuses() -> None:
    foe = enemy("foe", behaviour=seq(N.DealDamage(1, PLAYER), M(2), N.DealDamage(2, PLAYER), M(3)),
                statuses={"tock": 1})
    g = start(statuses=[REACT, mkstatus("tock", on_turn_end=M(40))], enemies=[foe],
              encounter="foe", player_statuses={"react": 1})
    g.end_player_turn()
    assert marks(g) == ["m11", "m2", "m12", "m3", "m21", "m22", "m40"]


def test_with_nothing_queued_above_the_play_the_entry_just_goes_on() -> None:
    own = card("own", 0, on_play=seq(M(1), END, M(2)))
    g = start(own, statuses=[mkstatus("watch", on_play=M(50))], player_statuses={"watch": 1})
    assert g.try_play_card(add(g, "own"))
    assert marks(g) == ["m1", "m2", "m50"]


def test_a_status_deal_says_whether_it_is_an_attack() -> None:
    """A status's damage is not an attack unless its ``deal`` says ``kind: attack``: then the
    holder's Strength folds into it (docs/rules/units.md, Folds)."""

    def hp_lost(kind: str | None) -> int:
        jab = mkstatus("jab", on_turn_end=N.DealDamage(5, ALL, 1, kind))
        g = start(statuses=[jab], player_statuses={"jab": 1, "strength": 2})
        g.end_player_turn()
        return 500 - g.enemies[0].hp

    assert (hp_lost(None), hp_lost("thorns"), hp_lost("attack")) == (5, 5, 7)
