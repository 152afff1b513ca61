"""Policies: anything callable as ``policy(game, legal_actions) -> Action``."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from ..agent import CHOOSE, PLAY, REWARD, Action
from ..enums import CardType
from ..rng import Rng

if TYPE_CHECKING:
    from ..game import Game

Policy = Callable[["Game", list[Action]], Action]


class RandomPolicy:
    """Uniform over the legal actions (one entry per hand card), from its own seeded stream."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        return legal[self.rng.below(len(legal))]


class GreedyPolicy:
    """The first baseline (kept for old sweeps and golden files; ``heuristic`` is the documented
    one): powers first, block what is incoming, then the most damage; the first reward."""

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        first = legal[0]
        if first.kind in (CHOOSE, REWARD):
            return first
        hand = game.hand()
        player = game.player
        assert player is not None
        incoming = 0
        for u in game.enemies:
            for it in u.pending_intents:
                if it.damage:
                    incoming += it.damage * it.hits
        need_block = max(0, incoming - player.block)
        best: Action | None = None
        best_score = 0.0
        for a in legal:
            if a.kind != PLAY:
                continue
            card = hand[a.card].active
            nums = card.numbers
            cost = max(0, game.get_effective_energy_cost(hand[a.card]))
            score = 1.0
            if card.type is CardType.POWER:
                score = 40.0
            elif card.type is CardType.ATTACK:
                dmg = nums.get("damage", 6) * nums.get("hits", 1)
                score = 10.0 + dmg
                if a.target >= 0:
                    foe = game.enemies[a.target]
                    if foe.hp <= dmg:
                        score += 25.0
                    score += 5.0 / (1 + foe.hp)
            elif "block" in nums:
                score = 8.0 + (min(nums["block"], need_block) * 2.0 if need_block else 1.0)
            score = score / (1 + cost * 0.3)
            if best is None or score > best_score:
                best, best_score = a, score
        return best if best is not None else legal[-1]


BUILTIN_POLICIES = ("random", "greedy", "heuristic", "search")
POLICY_HELP = ("heuristic, search (search:iters=N or search:ms=M: its budget per decision), "
               "random, greedy, module:callable or file.py:callable (your own)")
# the options of ``search:...``: name -> (smallest, largest)
SEARCH_OPTIONS: dict[str, tuple[float, float]] = {
    "iters": (1, 1_000_000), "ms": (0.001, 3_600_000), "worlds": (1, 10_000)}


def make_policy(name: str, seed: int) -> Policy:
    """A policy by name: ``heuristic``, ``search`` (``search:iters=N``, ``search:ms=M``,
    ``search:iters=N,worlds=W``), ``random``, ``greedy``, or ``package.module:attr`` or
    ``path/to/file.py:attr`` for your own.

    ``attr`` is a callable ``(game, legal_actions) -> Action``, or a class (or factory) that
    makes one: it is called with the battle's policy seed if it accepts an argument."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "greedy":
        return GreedyPolicy()
    if name == "heuristic":
        from ..agents import HeuristicAgent

        return HeuristicAgent(seed)
    if name == "search" or name.startswith("search:"):
        from ..agents import SearchAgent

        opts = search_options(name)
        ms = opts.get("ms")
        iters = opts.get("iters")
        return SearchAgent(seed, iters=None if iters is None else int(iters), ms=ms,
                           worlds=int(opts.get("worlds", 0)) or None)
    if ":" in name:
        return _user_policy(name, seed)
    import difflib

    close = difflib.get_close_matches(name, BUILTIN_POLICIES, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"unknown policy {name!r}{hint} (known: {POLICY_HELP})")


def search_options(name: str) -> dict[str, float]:
    """The options of ``search:iters=N,ms=M,worlds=W`` (each optional), checked."""
    out: dict[str, float] = {}
    _, _, rest = name.partition(":")
    for part in rest.split(",") if rest else []:
        key, eq, text = part.partition("=")
        key = key.strip()
        if not eq or key not in SEARCH_OPTIONS:
            raise ValueError(f"bad search option {part!r} in {name!r} (expected "
                             "search:iters=N, search:ms=M or search:iters=N,worlds=W)")
        lo, hi = SEARCH_OPTIONS[key]
        try:
            v = float(text) if key == "ms" else float(int(text))
        except ValueError:
            raise ValueError(f"search option {key} needs a number, got {text!r} in "
                             f"{name!r}") from None
        if not lo <= v <= hi:
            raise ValueError(f"search option {key}={text} is out of range {lo:g}..{hi:g}")
        if key in out:
            raise ValueError(f"search option {key} is given twice in {name!r}")
        out[key] = v
    return out


_FILE_MODULES: dict[str, ModuleType] = {}


def _load_file(path: str) -> ModuleType:
    """The module of a policy file, loaded once per process."""
    import importlib.util
    import os

    key = os.path.abspath(path)
    mod = _FILE_MODULES.get(key)
    if mod is None:
        if not os.path.isfile(key):
            raise ImportError(f"no such file: {path}")
        name = "gcs_policy_" + "".join(ch if ch.isalnum() else "_" for ch in key)
        spec = importlib.util.spec_from_file_location(name, key)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import {path}")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _FILE_MODULES[key] = mod
    return mod


def _user_policy(spec: str, seed: int) -> Policy:
    import importlib
    import inspect

    mod_name, _, attr = spec.rpartition(":")
    try:
        is_file = mod_name.endswith(".py")
        module = _load_file(mod_name) if is_file else importlib.import_module(mod_name)
        obj = getattr(module, attr)
    except (ImportError, AttributeError, SyntaxError) as exc:
        raise ValueError(f"cannot load policy {spec!r}: {exc}") from exc
    if inspect.isclass(obj) or (callable(obj) and _arity(obj) <= 1):
        try:
            obj = obj(seed) if _arity(obj) == 1 else obj()
        except Exception as exc:  # (the user's factory: named, never a traceback)
            raise ValueError(f"policy {spec!r}: making it raised {type(exc).__name__}: "
                             f"{str(exc)[:200]}") from None
    if not callable(obj):
        raise ValueError(f"policy {spec!r} is not callable")
    try:
        inspect.signature(obj).bind(None, None)
    except TypeError:
        raise ValueError(f"policy {spec!r} cannot be called as policy(game, legal_actions): "
                         f"its signature is {inspect.signature(obj)}") from None
    except ValueError:
        pass  # (no signature to read, say a builtin: its first call tells)
    policy: Policy = obj
    return policy


def _arity(fn: object) -> int:
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 2
    return len([p for p in params if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
