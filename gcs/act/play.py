"""Play an Act 1 run with a policy: battles by the policy, run decisions by a run rule.

A policy is the usual ``(game, legal) -> Action``. At a path or rest decision, ``legal`` holds
``choose i`` actions (``ActRun.options()`` says what each is) and the policy is asked as well,
unless a *run rule* answers instead: a policy object with a ``run_choice(run, legal)`` method
is asked through it, and the built-in ``heuristic`` and ``search`` use :func:`heuristic_choice`
(search plans inside battles only). ``random`` picks uniformly, ``greedy`` takes the first
answer (the leftmost room; rest at every rest site).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..agent import CHOOSE, Action
from ..enums import Rarity
from ..errors import IllegalActionError, PolicyError
from ..sim.policies import Policy
from ..sim.runner import policy_action
from . import mapgen
from .run import PATH, REST, ActRun

RunRule = Callable[[ActRun, list[Action]], Action]

# the heuristic's run rule: rest below this share of max HP (and before the boss below the
# second); on the map, what each room is worth with enough HP and when low on HP
REST_BELOW: Final = 0.5
REST_BEFORE_BOSS_BELOW: Final = 0.8
LOW_HP: Final = 0.6
ROOM_WORTH: Final = {  # room -> (worth with HP at or above LOW_HP, below it)
    mapgen.MONSTER: (1.0, 0.2), mapgen.ELITE: (1.5, -3.0), mapgen.REST: (0.5, 2.5),
    mapgen.EVENT: (1.0, 1.0), mapgen.SHOP: (0.3, 0.3), mapgen.TREASURE: (0.3, 0.3), "B": (0, 0),
}
_RARITY_RANK: Final = {Rarity.RARE: 3, Rarity.UNCOMMON: 2, Rarity.COMMON: 1}


def _worth(room: str, low: bool) -> float:
    good, bad = ROOM_WORTH.get(room, (0.0, 0.0))
    return bad if low else good


def heuristic_choice(run: ActRun, legal: list[Action]) -> Action:
    """The heuristic's run rule (docs/run.md): rest below half HP (below 80% before the boss),
    else smith the rarest, then costliest card; on the map, the room worth most, counting half
    of the best room after it (ties: the leftmost)."""
    hp, max_hp = run.game.run_hp
    share = hp / max_hp if max_hp > 0 else 0.0
    if run.phase == REST:
        before_boss = run.floor >= mapgen.HEIGHT
        if share < (REST_BEFORE_BOSS_BELOW if before_boss else REST_BELOW) or len(legal) == 1:
            return _choose(0, legal)
        cards = run.content.cards
        smith = run.smith_options()
        best = max(range(len(smith)), key=lambda k: (
            _RARITY_RANK.get(cards[smith[k]].rarity, 0), cards[smith[k]].cost, -k))
        return _choose(1 + best, legal)
    low = share < LOW_HP
    scores: list[float] = []
    for x in run.path_options():
        room = run.room_ahead(x)
        score = _worth(room, low)
        y = run.y + 1
        if room != "B" and y < mapgen.HEIGHT - 1:
            after = [_worth(run.map.node(e, y + 1).room, low)
                     for e in run.map.node(x, y).edges]
            score += 0.5 * max(after, default=0.0)
        scores.append(score)
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return _choose(best, legal)


def _choose(i: int, legal: list[Action]) -> Action:
    """The answer ``choose i`` (by its number, not its place in ``legal``: the env lists a
    rest site's answers in its own index order)."""
    a = Action(CHOOSE, choice=(i,))
    if a not in legal:
        raise PolicyError(f"the run rule chose {a}, which is not among {[str(b) for b in legal]}")
    return a


def run_rule(policy_name: str, policy: Policy) -> RunRule | None:
    """The rule answering path and rest decisions for a policy (None: the policy itself)."""
    own = getattr(policy, "run_choice", None)
    if callable(own):
        rule: RunRule = own
        return rule
    base = policy_name.split(":", 1)[0]
    if base in ("heuristic", "search"):
        return heuristic_choice
    return None


def play_act(run: ActRun, policy: Policy, rule: RunRule | None = None) -> dict[str, Any]:
    """Play ``run`` to its end; returns ``run.summary()``. A policy's bad answer is a
    PolicyError naming the decision."""
    decide: Callable[[Any, list[Action]], object] = policy
    n = 0
    while not run.over:
        legal = run.legal_actions()
        try:
            if run.phase in (PATH, REST) and rule is not None:
                got: object = rule(run, legal)
            else:
                got = decide(run.game, legal)
        except PolicyError:
            raise
        except Exception as exc:
            raise PolicyError(f"the policy raised {type(exc).__name__}: {exc} (decision {n}, "
                              f"floor {run.floor}, {run.phase})") from exc
        a = policy_action(got, n, run.game.turn_number)
        try:
            run.apply(a)
        except IllegalActionError as exc:
            raise PolicyError(f"the policy chose {a}, which is not legal now: {exc} "
                              f"(decision {n}, floor {run.floor})") from None
        n += 1
    return run.summary()
