"""A tiny content pack built directly from definitions (independent of the YAML loader)."""

from __future__ import annotations

from gcs.content.db import Content
from gcs.content.defs import (
    AiDef,
    CharacterDef,
    DeckEntry,
    EncounterDef,
    EnemyDef,
    GameCard,
    Modifier,
    MoveDef,
    RewardTable,
    StatusDef,
    WeightedMove,
)
from gcs.enums import CardType, Decay, IntentKind, Keyword, Rarity, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel, Var

TARGET = UnitSel("target")
SELF = UnitSel("self")


def card(cid: str, cost: int, *, type: CardType = CardType.SKILL,
         target: TargetMode = TargetMode.NONE, on_play: N.Node | None = None,
         keywords: tuple[Keyword, ...] = (), numbers: dict[str, int] | None = None,
         upgrade: dict[str, int] | None = None, text: str = "", **kw: object) -> GameCard:
    up = GameCard(id=cid, name=cid.title() + "+", cost=cost, type=type, target=target, text=text,
                  keywords=frozenset(keywords), numbers=dict(upgrade or numbers or {}),
                  on_play=on_play, is_upgraded=True, **kw)  # type: ignore[arg-type]
    return GameCard(id=cid, name=cid.title(), cost=cost, type=type, target=target, text=text,
                    keywords=frozenset(keywords), numbers=dict(numbers or {}), on_play=on_play,
                    upgrade=up, rarity=Rarity.BASIC, **kw)  # type: ignore[arg-type]


def mini(extra_cards: tuple[GameCard, ...] = (), extra_statuses: tuple[StatusDef, ...] = (),
         extra_enemies: tuple[EnemyDef, ...] = (), extra_encounters: tuple[EncounterDef, ...] = (),
         graphs: dict[str, N.Node] | None = None, deck: tuple[DeckEntry, ...] | None = None) -> Content:
    cards = [
        card("strike", 1, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
             numbers={"damage": 6}, upgrade={"damage": 9}, text="Deal {damage} damage.",
             on_play=N.DealDamage(Var("damage"), TARGET)),
        card("defend", 1, numbers={"block": 5}, upgrade={"block": 8}, text="Gain {block} Block.",
             on_play=N.GainBlock(Var("block"), SELF)),
        card("bash", 2, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
             numbers={"damage": 8, "vuln": 2}, upgrade={"damage": 10, "vuln": 3},
             on_play=N.Sequence((N.DealDamage(Var("damage"), TARGET),
                                 N.ApplyStatus("vulnerable", Var("vuln"), TARGET)))),
        *extra_cards,
    ]
    statuses = [
        StatusDef("strength", "Strength", allow_negative=True,
                  modifiers=(Modifier("deal", "add"),)),
        StatusDef("vulnerable", "Vulnerable", debuff=True, decay=Decay.MINUS_ONE,
                  modifiers=(Modifier("take", "mul", num=3, den=2),)),
        StatusDef("weak", "Weak", debuff=True, decay=Decay.MINUS_ONE,
                  modifiers=(Modifier("deal", "mul", num=3, den=4),)),
        *extra_statuses,
    ]
    jaw = EnemyDef(
        "jaw_worm", "Jaw Worm", 40, 44,
        moves=(
            MoveDef("chomp", "Chomp", IntentKind.ATTACK, damage=11,
                    behaviour=N.DealDamage(Var("damage"), TARGET)),
            MoveDef("thrash", "Thrash", IntentKind.ATTACK_DEFEND, damage=7, block=5,
                    behaviour=N.Sequence((N.DealDamage(Var("damage"), TARGET),
                                          N.GainBlock(5, SELF)))),
            MoveDef("bellow", "Bellow", IntentKind.DEFEND_BUFF, block=6,
                    behaviour=N.Sequence((N.ApplyStatus("strength", 3, SELF),
                                          N.GainBlock(6, SELF)))),
        ),
        ai=AiDef(opener=("chomp",), weighted=(
            WeightedMove("bellow", 45, 1), WeightedMove("thrash", 30, 2),
            WeightedMove("chomp", 25, 1))),
    )
    dummy = EnemyDef("dummy", "Dummy", 10, 10,
                     moves=(MoveDef("idle", "Idle", IntentKind.UNKNOWN),),
                     ai=AiDef(cycle=("idle",)))
    enemies = [jaw, dummy, *extra_enemies]
    encounters = [
        EncounterDef("jaw_worm", "Jaw Worm", ("jaw_worm",), rewards="normal"),
        EncounterDef("dummy", "Dummy", ("dummy",)),
        EncounterDef("two_dummies", "Two Dummies", ("dummy", "dummy")),
        *extra_encounters,
    ]
    start = deck or (DeckEntry("strike", count=5), DeckEntry("defend", count=4), DeckEntry("bash"))
    chars = [CharacterDef("ironclad", "Ironclad", 80, start)]
    rewards = [RewardTable("normal", cards=3, rarity_weights={"basic": 1},
                           pool=("strike", "defend", "bash"), gold_min=10, gold_max=20)]
    return Content(pack_id="mini", cards=cards, statuses=statuses, enemies=enemies,
                   encounters=encounters, characters=chars, reward_tables=rewards,
                   graphs=graphs or {})
