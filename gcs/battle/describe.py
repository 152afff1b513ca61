"""Card-face text: the active card's numbers (and current cost) filled into its template."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..content.defs import GameCard
from ..errors import GameError
from .hooks import effective_cost
from .state import CardInstance

if TYPE_CHECKING:
    from ..engine import Engine


_FIELD = re.compile(r"\{(\w+)\}")  # only plain ``{name}``: no format specs, no attributes
_PLURAL = re.compile(r"\b(\d+)( \w+)\(s\)")  # ``2 card(s)``: a number, a word, then (s)


def describe(e: Engine, card: GameCard | CardInstance, instance: CardInstance | None) -> str:
    """``{name}`` placeholders take the active card's numbers; ``{cost}`` the effective cost."""
    if not isinstance(card, (GameCard, CardInstance)):
        raise GameError(f"format_description needs a GameCard or CardInstance, got {card!r}")
    if instance is not None and not isinstance(instance, CardInstance):
        raise GameError(f"format_description's instance must be a CardInstance, got {instance!r}")
    if isinstance(card, CardInstance):
        instance, card = card, card.active
    elif instance is not None:
        card = instance.active
    if instance is not None:
        cost = None if card.x_cost else str(effective_cost(e, instance))
        return fill(card, cost, instance.numbers)
    return fill(card)


def fill(card: GameCard, cost: str | None = None, numbers: Mapping[str, int] | None = None) -> str:
    """``card``'s text with its numbers (an instance's own, when given) and ``cost`` (default:
    the printed one) filled in, and each ``word(s)`` right after a number agreeing with it
    (``Draw 1 card.``, ``Draw 2 cards.``)."""
    values = {k: str(v) for k, v in (card.numbers if numbers is None else numbers).items()}
    values["cost"] = cost if cost is not None else "X" if card.x_cost else str(card.cost)
    # a placeholder the card lacks, or one with a format spec (``{damage:>99}``), stays as
    # written: the text never allocates more than its own length plus the numbers
    text = _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), card.text)
    if "(s)" in text:
        text = _PLURAL.sub(lambda m: f"{m.group(1)}{m.group(2)}{'' if m.group(1) == '1' else 's'}",
                           text)
    return text
