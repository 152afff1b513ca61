"""The Game Card Monitor, as text: the Phase tab (the current phase and the history of
transitions) and the Pile tab (Hand, Draw, Discard, Exhaust and the run's Master deck), plus
the units and their intents. ``render`` reads only the public Game API."""

from __future__ import annotations

from ..battle.state import CardInstance, Unit
from ..enums import PileScope
from ..game import Game


def _card(c: CardInstance) -> str:
    return f"{c.card_id}{'+' if c.upgraded else ''}#{c.instance_id}"


def _unit(u: Unit, label: str, hidden: frozenset[str] = frozenset()) -> str:
    st = ", ".join(f"{k} {v}" for k, v in u.statuses.items() if k not in hidden) or "-"
    line = f"  {label:<4} {u.name:<18} hp {u.hp:>3}/{u.max_hp:<3} block {u.block:<3} {st}"
    if not u.alive:
        return line + "  (dead)"
    for it in u.pending_intents:
        dmg = f" {it.damage}x{it.hits}" if it.damage is not None else ""
        line += f"  intent: {it.name} ({it.kind.value}){dmg}"
    return line


def _face(game: Game, i: int, c: CardInstance, playable: bool) -> str:
    """One hand card as the page's face reads: index, name, cost, type, text (and why not)."""
    cost = "X" if c.active.x_cost else str(game.get_effective_energy_cost(c))
    mark = " " if playable else "x"
    return (f"  {mark} {i}: {c.name} [{cost}] {c.active.type.value}: "
            f"{game.format_description(c)}")


def render(game: Game, history: int = 12, *, draw_order: bool = False) -> str:
    """The monitor's text: phase snapshot and history, units, the hand as cards (cost, text;
    ``x``: cannot be played now), every pile, this turn's plays and draws, the master deck.
    The draw pile is listed sorted, its order hidden (a player must not see it), unless
    ``draw_order``."""
    lines = [f"Phase  {game.phase.name}   turn {game.turn_number}   energy {game.energy}"
             + (f"   waiting: {game.waiting_kind}" if game.is_waiting else "")
             + ("   reward offered" if game.is_waiting_for_reward else "")]
    hist = game.phase_history
    shown = hist[-history:]
    lines.append("History " + ("... " if len(hist) > len(shown) else "")
                 + " > ".join(f"{p.name}@{t}" for p, t in shown))
    if game.is_battle_active:
        player = game.player
        if player is not None:
            lines.append(_unit(player, "you", game.content.hidden_statuses))
        for i, u in enumerate(game.enemies):
            lines.append(_unit(u, f"e{i}", game.content.hidden_statuses))
    hand = game.hand()
    lines.append(f"Hand    ({len(hand):>2})" + ("" if hand else " -"))
    if hand:
        playable = {a.card for a in game.legal_actions() if a.kind == "play"}
        lines.extend(_face(game, i, c, i in playable) for i, c in enumerate(hand))
    draw = game.draw_pile()[::-1] if draw_order else sorted(game.draw_pile(),
                                                            key=lambda c: (c.card_id, c.uid))
    piles = [("Draw", draw), ("Discard", game.discard_pile()), ("Exhaust", game.exhaust_pile()),
             ("Played", game.played_this_turn()), ("Drawn", game.drawn_this_turn())]
    for name, cards in piles:
        note = ("  (top first)" if draw_order else "  (order hidden)") if name == "Draw" and cards else ""
        lines.append(f"{name:<8}({len(cards):>2}) " + (", ".join(_card(c) for c in cards) or "-") + note)
    master = game.pile(PileScope.MASTER)
    lines.append(f"Master  ({len(master):>2}) "
                 + ", ".join(c.card_id + ("+" if c.upgraded else "") for c in master))
    choice = game.pending_choice
    if choice is not None:
        lines.append(f"Choice  {choice.prompt or '(choose)'} [{choice.min}..{choice.max}]: "
                     + ", ".join(f"{i}={c!r}" for i, c in enumerate(choice.candidates)))
    if game.is_waiting_for_reward:
        lines.append("Rewards " + (", ".join(f"{i}={r}" for i, r in
                                           enumerate(game.offered_rewards)) or "-"))
    return "\n".join(lines)
