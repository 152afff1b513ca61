"""Hints for a UI: every legal action now, ranked, with the search's value estimate."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .. import checks
from ..agent import Action, legal_actions
from ..errors import GameError
from ..game import Game
from .deck import reward_scores
from .heuristic import action_key
from .search import DEFAULT_ITERS, WORLDS, search


@dataclass(frozen=True)
class Hint:
    """One legal action with its estimate: ``value`` is the mean outcome of the search's
    playouts through it (0.5 + 0.5 x HP / max HP for a win, at most 0.25 for a loss; None if
    no playout went through it) and ``visits`` how many went through it. On a reward screen
    ``value`` is the deck-building score of ``gcs.agents.deck`` (0 for skipping) and
    ``visits`` is 0. ``best`` marks the action the search agent would take."""

    action: Action
    value: float | None
    visits: int
    best: bool = False


def hint(game: Game, *, iters: int = DEFAULT_ITERS, ms: float | None = None, seed: int = 0,
         worlds: int = WORLDS) -> list[Hint]:
    """Every legal action of ``game`` now, best first, with its value estimate: a search of
    ``iters`` iterations (or ``ms`` milliseconds) seeded with ``seed``, over sampled worlds
    (it never reads hidden information, and changes nothing). Actions that do the same (the
    same card at the same target) share one estimate. Empty when nothing can be input."""
    checks.instance_of("hint", "game", game, Game, "a gcs.Game")
    checks.integer("hint", "iters", iters, 1, 10_000_000)
    checks.integer("hint", "seed", seed, -(2**64), 2**64)
    checks.integer("hint", "worlds", worlds, 1, 100_000)
    if ms is not None:
        checks.seconds("hint", "ms", ms)
    if game._e.busy:
        raise GameError("hint() inside an event handler: call it after the call that runs it "
                        "returns")
    try:
        legal = legal_actions(game._e)
        if not legal:
            return []
        s = game._e.s
        rows: list[tuple[float | None, int, Action]]
        if s.rewards is not None:
            scores = reward_scores(game)
            rows = [(scores[a.reward] if a.kind == "reward" and a.reward < len(scores)
                     else 0.0, 0, a) for a in legal]
        else:
            deadline = time.perf_counter() + ms / 1000.0 if ms is not None else 0.0
            st = search(game, legal, seed & ((1 << 64) - 1), iters, deadline, worlds=worlds)
            by_key = {action_key(s, a): (st.values[i] if st.visits[i] else None, st.visits[i])
                      for i, a in enumerate(st.options)}
            rows = []
            for a in legal:
                v, n = by_key[action_key(s, a)]
                rows.append((v, n, a))
    except GameError:
        raise
    except Exception as exc:
        raise GameError(f"internal error in hint: {type(exc).__name__}: {exc} (nothing was "
                        "changed; please report this)") from exc
    def rank(i: int) -> tuple[int, float, int]:
        v = rows[i][0]
        return (-rows[i][1], -(v if v is not None else -1.0), i)

    order = sorted(range(len(rows)), key=rank)
    return [Hint(rows[i][2], rows[i][0], rows[i][1], best=(j == 0))
            for j, i in enumerate(order)]
