"""What a card is worth, read from its definition: the numbers its On Play graph deals, blocks,
draws and applies, with each applied status valued by its own modifiers and branches.

The agents read this where they cannot simulate: to rank cards for a reward, a removal or an
upgrade, and to break ties between Choice answers. It reads content, never an id: a new card
is valued by what its graph does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..enums import KW_EXHAUST, KW_UNPLAYABLE, CardType, TargetMode
from ..flow import nodes as N
from ..flow.exprs import BinOp, Value, Var, XCost

if TYPE_CHECKING:
    from ..content.db import Content
    from ..content.defs import GameCard, StatusDef

# HP-equivalent worth of one unit of each effect, per play (the weights of ``worth``)
DAMAGE: Final = 1.0
BLOCK: Final = 0.8
DRAW: Final = 3.0
ENERGY: Final = 4.0
HP: Final = 1.0
BAD_CARD: Final = -4.0  # an Unplayable, Status or Curse card added to the deck or the piles
X_ENERGY: Final = 3  # the energy an X cost is assumed to get
ALL_ENEMIES: Final = 1.4  # damage to every enemy, against one

_WORTH: dict[int, tuple[GameCard, float]] = {}


def worth(c: Content, card: GameCard) -> float:
    """The card's worth per play in HP, less its cost (cached per definition)."""
    got = _WORTH.get(id(card))
    if got is not None and got[0] is card:
        return got[1]
    if KW_UNPLAYABLE in card.keywords or card.type is CardType.STATUS \
            or card.type is CardType.CURSE:
        v = BAD_CARD
    else:
        v = _graph(c, card, card.on_play, 0) - 1.5 * max(0, card.cost)
        if KW_EXHAUST in card.keywords:
            v -= 0.5
        if card.x_cost:
            v -= 1.5 * X_ENERGY
    if len(_WORTH) > 8192:
        _WORTH.clear()
    _WORTH[id(card)] = (card, v)
    return v


# how often a status's branch runs per turn, by entry (a Power's lasting effect)
RATES: Final = {"on_turn_start": 1.0, "on_turn_end": 1.0, "on_play": 2.0, "on_attacked": 1.0,
                "on_damage_taken": 1.0, "on_exhaust": 0.5, "on_drawn": 0.5, "on_discard": 0.5,
                "on_draw_phase": 1.0, "on_discard_phase": 1.0}
POWER_TURNS: Final = 4.0  # the turns a lasting status is worth (the rest of a typical fight)
MAX_STATUS: Final = 20.0  # a status's branches are worth at most this (their reach is a guess)


def status_worth(st: StatusDef, on_enemy: bool) -> float:
    """A stack of ``st`` on the player (or, ``on_enemy``, on an enemy), in HP: its damage and
    block modifiers over the turns it lasts (the branches: ``branch_worth``)."""
    v = 0.0
    turns = 1.0 if st.decay.value == "remove" else (2.0 if st.decay.value == "minus_one" else 5.0)
    for m in st.modifiers:
        if m.op == "add":
            per = 2.5 * turns if m.per_stack else 0.0  # (about 2.5 attacks or blocks a turn)
        else:
            per = 6.0 * (m.num / m.den - 1.0) * min(turns, 2.0)  # (a turn's 6 damage, scaled)
        if m.stage == "deal":
            v += -per if on_enemy else per
        elif m.stage == "take":
            v += per if on_enemy else -per
        else:
            v += -per if on_enemy else per
    if st.debuff and not st.modifiers:
        v += 3.0 if on_enemy else -3.0
    return v


def branch_worth(c: Content, card: GameCard, st: StatusDef, stacks: float) -> float:
    """What ``stacks`` of ``st`` on the player do through its own branches: each branch's worth
    (with ``$stacks``) times how often it runs, for the turns it lasts (one turn if its
    turn-start branch removes it), at most ``MAX_STATUS``."""
    if st.decay.value == "remove":
        turns = 1.0
    elif st.decay.value == "minus_one":
        turns = min(POWER_TURNS, max(1.0, stacks))
    else:
        turns = POWER_TURNS
    start = st.entries.get("on_turn_start")
    if start is not None and any(isinstance(n, N.RemoveStatus) and n.status == st.id
                                 for n in N.walk(start)):
        turns = 1.0
    v = 0.0
    for name, node in st.entries.items():
        rate = RATES.get(name, 0.0)
        if rate:
            v += rate * turns * _graph(c, card, node, 0, stacks)
    return max(-MAX_STATUS, min(MAX_STATUS, v))


def _val(card: GameCard, v: Value, stacks: float = 0.0) -> float:
    """A value expression as a number for this card (its numbers; X as ``X_ENERGY``;
    ``$stacks`` as ``stacks``, in a status's branch)."""
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int):
        return float(v)
    if isinstance(v, Var):
        if v.name == "stacks" and stacks:
            return stacks
        return float(card.numbers.get(v.name, 0))
    if isinstance(v, XCost):
        return float(X_ENERGY)
    if isinstance(v, BinOp):
        a = _val(card, v.a, stacks)
        b = _val(card, v.b, stacks)
        if v.op == "add":
            return a + b
        if v.op == "sub":
            return a - b
        if v.op == "mul":
            return a * b
        if v.op == "div":
            return a / b if b else 0.0
        if v.op == "min":
            return min(a, b)
        if v.op == "max":
            return max(a, b)
    return 0.0  # (a count or a unit's stat: not known without a battle)


def _graph(c: Content, card: GameCard, node: N.Node | None, depth: int,
           stacks: float = 0.0) -> float:
    """The worth of what a graph does once (a Branch counts half of each way)."""
    if node is None or depth > 8:
        return 0.0
    if isinstance(node, N.Sequence):
        return sum(_graph(c, card, n, depth + 1, stacks) for n in node.steps)
    if isinstance(node, N.Branch):
        return 0.5 * (_graph(c, card, node.then, depth + 1, stacks)
                      + _graph(c, card, node.otherwise, depth + 1, stacks))
    if isinstance(node, N.Loop):
        return _val(card, node.count, stacks) * _graph(c, card, node.body, depth + 1, stacks)
    if isinstance(node, N.Foreach):
        return 2.0 * _graph(c, card, node.body, depth + 1, stacks)
    if isinstance(node, N.Choice):
        return _graph(c, card, node.then, depth + 1, stacks) + 1.0
    if isinstance(node, N.Call):
        return _graph(c, card, c.graphs.get(node.graph), depth + 1, stacks)
    if isinstance(node, N.WaitUntil):
        return 0.0
    if isinstance(node, N.DealDamage):
        who = node.target.source
        if who in ("self", "player"):
            return -HP * _val(card, node.amount, stacks) * _val(card, node.hits, stacks)
        dmg = DAMAGE * _val(card, node.amount, stacks) * _val(card, node.hits, stacks)
        if who == "all_enemies" or (who == "target" and card.target is TargetMode.ALL_ENEMIES):
            dmg *= ALL_ENEMIES
        return dmg
    if isinstance(node, N.GainBlock):
        return BLOCK * _val(card, node.amount, stacks)
    if isinstance(node, N.DrawCards):
        return DRAW * _val(card, node.count, stacks)
    if isinstance(node, N.GainEnergy):
        return ENERGY * _val(card, node.amount, stacks)
    if isinstance(node, N.LoseHp):
        return -HP * _val(card, node.amount, stacks)
    if isinstance(node, N.Heal):
        return 0.5 * HP * _val(card, node.amount, stacks)
    if isinstance(node, N.ApplyStatus):
        st = c.statuses.get(node.status)
        if st is None:
            return 0.0
        who = node.target.source
        on_enemy = who in ("target", "all_enemies", "random_enemy")
        n = _val(card, node.amount, stacks)
        v = n * status_worth(st, on_enemy)
        if who == "all_enemies":
            v *= ALL_ENEMIES
        if st.entries and not on_enemy and depth < 4:
            v += branch_worth(c, card, st, n)
        return v
    if isinstance(node, N.AddCards):
        added = c.cards.get(node.card)
        if added is None:
            return 0.0
        n = _val(card, node.count, stacks)
        if KW_UNPLAYABLE in added.keywords or added.type in (CardType.STATUS, CardType.CURSE):
            return n * BAD_CARD * 0.5
        return n * 2.0
    if isinstance(node, N.PlayCard):
        return 6.0
    if isinstance(node, (N.UpgradeCard, N.TransformCard, N.ModifyCost)):
        return 2.0
    if isinstance(node, N.ExtraTurn):
        return 15.0
    return 0.0
