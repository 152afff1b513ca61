"""Limits of a content pack: how deep, how big and how large the numbers may be.

The YAML limits (nesting depth, alias expansion, integer digits) are fixed; the number limits
are defaults that a pack may raise or lower in ``pack.yaml`` under ``limits:`` (see
docs/rules/boundary.md). Every limit is checked while the pack loads and reported as a
``ContentError`` with file, line and field.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, fields, replace

MAX_DEPTH = 64             # nesting levels of mappings and lists in one YAML file
MAX_EXPANDED = 100_000     # values one YAML file may hold once aliases are expanded
MAX_INT_DIGITS = 30        # digits of an integer written in YAML
MAX_BYTES = 8_000_000      # bytes of one pack file
MAX_PROBLEMS = 200         # problems listed in one ContentError (the rest are counted)
MAX_DECK = 100_000         # cards of a run's deck: a character's starting deck, set_master_deck


@dataclass(frozen=True, slots=True)
class Limits:
    """Upper bounds of numbers written in a pack; ``limits:`` in pack.yaml overrides them."""

    max_int: int = 1_000_000_000     # any integer field or value
    max_count: int = 999             # cards added, drawn or repeated by one action
    max_stacks: int = 999_999        # a status's max_stacks and amounts applied at once
    max_hand_size: int = 100         # hand sizes and draws a pack names
    max_wait: float = 3_600.0        # seconds of a Wait
    max_iterations: int = 100_000    # a While loop's max_iterations

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Limits))

    def with_(self, **kw: int | float) -> Limits:
        return replace(self, **kw)  # type: ignore[arg-type]


# ceilings for overrides: even a pack cannot lift a bound past these
CEILINGS: dict[str, float] = {
    "max_int": 10**15, "max_count": 1_000_000, "max_stacks": 10**12, "max_hand_size": 10_000,
    "max_wait": 86_400.0 * 365, "max_iterations": 10_000_000,
}

DEFAULT = Limits()
CURRENT: ContextVar[Limits | None] = ContextVar("gcs_content_limits", default=None)


def current() -> Limits:
    """The limits of the pack being loaded (the defaults outside a load)."""
    return CURRENT.get() or DEFAULT
