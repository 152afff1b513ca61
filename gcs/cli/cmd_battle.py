"""``gcs demo``, ``gcs play`` and ``gcs run``: single battles and a scripted run."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .common import (
    Character,
    Pack,
    Policy,
    Seed,
    check_character,
    check_deck,
    check_encounter,
    load_pack,
    resolve_policy,
)

Encounter = Annotated[str, typer.Option("--encounter", "-e", help="encounter id")]


def register(app: typer.Typer) -> None:
    """Add ``demo``, ``play`` and ``run``."""
    app.command("demo", help="play one battle and print every phase, play and event")(demo)
    app.command("play", help="play a battle yourself in the terminal (with the monitor)")(play)
    app.command("run", help="play a scripted run of encounters on one master deck")(run)


def demo(encounter: Encounter = "jaw_worm", seed: Seed = 1, policy: Policy = "random",
         pack: Pack = None, character: Character = None) -> None:
    """Narrate one battle."""
    from ..sim.demo import run_demo

    content = load_pack(pack)
    check_encounter(content, encounter)
    run_demo(content, encounter, seed, resolve_policy(policy), sys.stdout)


def play(encounter: Encounter = "jaw_worm", seed: Seed = 1, pack: Pack = None,
         deck: Annotated[str | None, typer.Option(
             help="master deck, e.g. strike*5,defend*4,bash+ (default: the character's)")] = None,
         character: Character = None) -> None:
    """Play interactively, one action per line (with line editing and history on a terminal)."""
    from ..sim.interactive import play_interactive
    from ..sim.jobs import parse_deck

    content = load_pack(pack)
    check_encounter(content, encounter)
    cards = parse_deck(deck)
    check_deck(content, cards)
    check_character(content, character)
    if sys.stdin.isatty():
        import readline  # noqa: F401  # (input() gets line editing: arrows, Home/End, history)
    play_interactive(content, encounter, seed, input, sys.stdout, deck=cards, character=character)


def run(encounters: Annotated[str, typer.Option(help="comma-separated encounter ids")],
        seed: Seed = 1, policy: Policy = "random", pack: Pack = None,
        character: Character = None) -> None:
    """Battles in order on one master deck; exit code 3 when the run is lost."""
    from ..sim.policies import make_policy
    from ..sim.runner import play_run

    encs = [x for x in encounters.split(",") if x]
    content = load_pack(pack)
    for enc in encs:
        check_encounter(content, enc)
    check_character(content, character)
    r = play_run(content, encs, make_policy(resolve_policy(policy), seed), seed, character=character)
    for enc, b in zip(encs, r.battles, strict=False):
        print(f"{enc:<20} {'won ' if b.won else 'lost'} in {b.turns:>2} turns, {b.hp_left} HP left")
    print(f"run {'WON' if r.won else 'LOST'}: HP {r.hp}/{r.max_hp}, gold {r.gold}, "
          f"deck ({len(r.deck)}): {', '.join(r.deck)}")
    if not r.won:
        raise typer.Exit(3)
