"""Play one battle, or a run of battles, with a policy; record the actions for replay."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..agent import Action, legal_actions
from ..battle.state import GATE, WAIT
from ..content.db import Content
from ..errors import GameError, IllegalActionError, PolicyError
from ..game import Game
from ..rng import derive
from ..rules import BattleRules
from .policies import Policy


@dataclass
class BattleResult:
    """The outcome of one battle."""

    won: bool
    turns: int
    hp_left: int
    decisions: int
    unfinished: bool = False  # stopped at the turn or decision cap (a stalemate), not won
    plays: dict[str, int] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)
    block: dict[str, int] = field(default_factory=dict)  # block the player gained, per card
    actions: list[str] = field(default_factory=list)
    damage_taken: int = 0  # the player's HP at the start minus at the end (healing offsets it)


def new_game(content: Content, seed: int, deck: Sequence[str] | None = None,
             character: str | None = None, log_events: bool = False,
             rules: BattleRules | None = None) -> Game:
    """A new run; ``deck`` (card ids, ``id+`` for an upgraded copy) replaces the starting deck."""
    g = Game(content, seed=seed, character=character, log_events=log_events, rules=rules)
    if deck:
        g.set_master_deck([(d[:-1], True) if d.endswith("+") else d for d in deck])
    return g


def play_battle(game: Game, encounter: str, policy: Policy, *, record: bool = False,
                take_rewards: bool = True, max_turns: int = 300,
                max_decisions: int = 20_000) -> BattleResult:
    """Start ``encounter`` on ``game`` and let ``policy`` answer every decision until it ends.

    A battle still running after ``max_turns`` turns or ``max_decisions`` decisions is a
    stalemate of the policy and the content (say, block that always covers every attack):
    it stops there and is reported ``unfinished`` (and not won). A runaway loop inside one
    effect is another matter: the engine's step cap raises ``StepLimitError``. A policy that
    raises, returns something other than an Action (or its text) or chooses an illegal action
    raises ``PolicyError`` naming the decision."""
    game.start_battle(encounter)
    s = game._e.s  # the game's state, one object for its whole life: read its fields directly
    if s.pause == WAIT or s.pause == GATE:
        game.settle()  # (a no-op call otherwise)
    units = s.units  # (``game.player``: read here, it would end a deferred log, gcs/lazylog.py)
    hp_start = units[0].hp if units else 0
    actions: list[str] = []
    decisions = 0
    unfinished = False
    apply = game.apply  # bound once: a method looked up on the (Python) Game class costs per call
    # what a policy returns is checked here (``policy_action``): typed ``object``, the compiled
    # engine does not cast it to Action first (a bare TypeError for a policy returning "end")
    decide: Callable[[Game, list[Action]], object] = policy
    while True:
        if not take_rewards and s.rewards is not None:  # game.is_waiting_for_reward
            game.skip_reward()
            break
        legal = legal_actions(game._e)  # game.legal_actions(), without the interpreted wrapper
        if not legal:
            break
        if decisions >= max_decisions or s.turn > max_turns:  # game.turn_number
            unfinished = True
            break
        try:
            a = decide(game, legal)
        except Exception as exc:  # (the policy's own error: named, with where it happened)
            raise PolicyError(f"the policy raised {type(exc).__name__}: {_short(exc)} "
                              f"(decision {decisions}, turn {s.turn})") from exc
        if type(a) is not Action:
            a = policy_action(a, decisions, s.turn)
        try:
            apply(a)
        except IllegalActionError as exc:
            raise PolicyError(f"the policy chose {a}, which is not legal now: {exc} "
                              f"(decision {decisions}, turn {s.turn})") from None
        decisions += 1
        if record:
            actions.append(str(a))
    units = s.units
    player = units[0] if units else None  # (``game.player``, read as above)
    stats = game.stats
    won = bool(game.last_result) and not unfinished
    return BattleResult(
        won=won, turns=game.turn_number,
        hp_left=player.hp if player is not None and won else 0,
        decisions=decisions, unfinished=unfinished, plays=stats["plays"],
        damage=stats["damage"], block=stats["block"], actions=actions,
        damage_taken=max(0, hp_start - (max(0, player.hp) if player is not None else 0)),
    )


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) <= 300 else text[:297] + "..."


def policy_action(a: object, decision: int, turn: int) -> Action:
    """What a policy returned, as an Action: an Action, or its text (``"end"``); else a
    PolicyError saying what it returned."""
    if isinstance(a, Action):
        return a
    if isinstance(a, str):
        try:
            return Action.parse(a)
        except GameError as exc:
            raise PolicyError(f"the policy returned {a[:80]!r}: {exc} (decision {decision}, "
                              f"turn {turn})") from None
    shown = repr(a)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    raise PolicyError(f"the policy returned {shown} ({type(a).__name__}), not a gcs.Action or "
                      f"its text (decision {decision}, turn {turn})")


def battle_seed(seed: int, index: int) -> int:
    """The game seed of battle ``index`` in a simulation seeded with ``seed``."""
    return derive(seed, f"battle#{index}")


def policy_seed(seed: int, index: int) -> int:
    """The policy seed of battle ``index`` in a simulation seeded with ``seed``."""
    return derive(seed, f"policy#{index}")


@dataclass
class RunResult:
    """A scripted run: one result per battle, the run's HP and deck at the end."""

    battles: list[BattleResult]
    encounters: list[str]
    hp: int
    max_hp: int
    deck: list[str]
    gold: int

    @property
    def won(self) -> bool:
        return len(self.battles) == len(self.encounters) and all(b.won for b in self.battles)


def play_run(content: Content, encounters: Sequence[str], policy: Policy, seed: int, *,
             character: str | None = None, deck: Sequence[str] | None = None) -> RunResult:
    """Battles in order on one master deck, HP carried over, stopping at the first loss."""
    g = new_game(content, seed, deck, character)
    results = []
    for enc in encounters:
        r = play_battle(g, enc, policy)
        results.append(r)
        if not r.won:
            break
    hp, max_hp = g.run_hp
    deck_ids = [m.card_id + ("+" if m.upgraded else "") for m in g.get_master_deck()]
    return RunResult(results, list(encounters), hp, max_hp, deck_ids, g.gold)
