"""Golden playthroughs: fixed seeds and policies (or action scripts) on bundled encounters,
rendered as a stable text transcript and compared with ``tests/golden/<name>.txt``.

To regenerate the golden files after an intended change of the rules, content or RNG:

    GCS_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

then READ the diff (``git diff tests/golden``): every changed line is a changed rule outcome.

Transcript format: a header; at the start of every PlayerPhase a state block (turn, energy,
units with HP, block, statuses and intents, then the four piles; the draw pile is listed
bottom -> top, so its last card is drawn next); ``> action`` before each decision, preceded
by a one-line ``[energy | hand]`` reminder inside a turn; then every event the action
published, one per line, with all its fields (units are ids: 0 the player, 1.. enemies in
encounter order, so ``@e0`` targets unit 1).
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import gcs
from gcs import Action
from gcs import events as ev
from gcs.agent import Action as ActionT
from gcs.enums import BattlePhase
from gcs.sim.policies import GreedyPolicy, Policy, RandomPolicy

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GCS_UPDATE_GOLDEN") == "1"
CONTENT = gcs.builtin_content()


# ---------------------------------------------------------------- rendering
def _value(v: object) -> str:
    if isinstance(v, enum.Enum):
        return v.name
    if v is None:
        return "-"
    if isinstance(v, tuple):
        return "(" + ",".join(_value(x) for x in v) + ")"
    return str(v)


def format_event(e: ev.Event) -> str:
    """``EventName field=value ...``: every field of the event, in declaration order."""
    if not dataclasses.is_dataclass(e):
        return type(e).__name__
    parts = [f"{f.name}={_value(getattr(e, f.name))}" for f in dataclasses.fields(e)]
    return " ".join([type(e).__name__, *parts])


def _card(c: gcs.CardInstance) -> str:
    return f"{c.card_id}{'+' if c.upgraded else ''}#{c.uid}"


def _pile(cards: list[gcs.CardInstance]) -> str:
    return ", ".join(_card(c) for c in cards) if cards else "-"


def _statuses(u: gcs.Unit) -> str:
    return ", ".join(f"{k} {v}" for k, v in u.statuses.items()) if u.statuses else "-"


def _unit(u: gcs.Unit) -> str:
    head = "player" if u.uid == 0 else f"e{u.uid - 1}"
    line = (f"  u{u.uid} {head:<6} {u.name:<16} hp {u.hp}/{u.max_hp}  block {u.block}  "
            f"statuses: {_statuses(u)}")
    if not u.alive:
        return line + "  (dead)"
    for it in u.pending_intents:
        dmg = f" {it.damage}x{it.hits}" if it.damage is not None else ""
        blk = f" block {it.block}" if it.block is not None else ""
        line += f"  intent: {it.move} ({it.kind.name}){dmg}{blk}"
    return line


def state_block(g: gcs.Game) -> list[str]:
    """Phase, energy, units and the four piles (draw listed bottom -> top)."""
    player = g.player
    assert player is not None
    return [
        f"-- turn {g.turn_number} {g.phase.name}  energy {g.energy}",
        _unit(player),
        *(_unit(u) for u in g.enemies),
        f"  hand:    {_pile(g.hand())}",
        f"  draw:    {_pile(g.draw_pile())}",
        f"  discard: {_pile(g.discard_pile())}",
        f"  exhaust: {_pile(g.exhaust_pile())}",
    ]


# ---------------------------------------------------------------- playthroughs
Chooser = Callable[[gcs.Game, list[ActionT]], ActionT]


def scripted(steps: list[str], then: Policy) -> Chooser:
    """Answer with the script's steps in order, then with ``then``. A step names the card to
    play, not its hand index (``bash @e0``, ``defend``), or is ``end``: the script stays
    valid when a change of the RNG reorders the hand."""
    script = list(steps)

    def choose(g: gcs.Game, legal: list[ActionT]) -> ActionT:
        if not script:
            return then(g, legal)
        card, _, target = script.pop(0).partition(" @e")
        if card == "end":
            a = Action.end()
        else:
            ids = [c.card_id for c in g.hand()]
            assert card in ids, f"scripted {card} is not in hand {ids}"
            a = Action.play(ids.index(card), int(target) if target else -1)
        assert a in legal, f"scripted action {a} is not legal now: {[str(x) for x in legal]}"
        return a

    return choose


@dataclass(frozen=True)
class Golden:
    name: str
    encounter: str
    seed: int
    describe: str
    make_policy: Callable[[], Chooser]
    deck: tuple[str, ...] | None = None
    expects: tuple[str, ...] = ()  # what the transcript must show (else pick another seed)


GOLDENS = [
    Golden("jaw_worm_greedy", "jaw_worm", 1, "starter deck, greedy policy", GreedyPolicy,
           expects=("BattleRewardOffered", "RewardApplied", "DrawPileShuffled",
                    "StatusApplied unit=1 status=strength")),
    Golden("gremlin_nob_greedy", "gremlin_nob", 2, "elite, starter deck, greedy policy "
           "(Enrage: every Skill played gives the Nob Strength)", GreedyPolicy,
           expects=("status=enrage", "CardPlayed instance_id=", "StatusApplied unit=1 "
                    "status=strength delta=2")),
    Golden("two_louses_script", "two_louses", 6,
           "two enemies with Curl Up, a five-card deck (drawn whole every turn); a scripted "
           "first turn (Bash the Red Louse, Strike the Green Louse, end), then the random "
           "policy (seed 3); seed 6 rolls one Red and one Green Louse",
           lambda: scripted(["bash @e0", "strike @e1", "end"], RandomPolicy(3)),
           ("bash", "strike", "strike", "defend", "defend"),
           expects=("status=curl_up delta=-", "status=vulnerable delta=2", "UnitDied unit=1",
                    "UnitDied unit=2")),
    Golden("large_slime_choice_wait_gate", "large_slime", 3,
           "Choice (Armaments, Headbutt), Wait (Twin Strike), Gate (Bludgeon), Acid Slime (L) "
           "(seed 3 rolls it, not Spike Slime (L)) switching to Split the moment it drops to "
           "half HP and splitting into two with its current HP; greedy policy",
           GreedyPolicy,
           ("strike", "strike", "strike", "defend", "defend", "defend", "bash", "armaments",
            "headbutt", "twin_strike", "bludgeon", "inflame"),
           expects=("ChoiceOpened", "WaitStarted", "AnimationGateOpened", "UnitSpawned unit=2",
                    "UnitSpawned unit=3", "EnemyUnitIntentChanged unit=1 move=split")),
]


def transcript(spec: Golden) -> str:
    """Play ``spec`` to the end of the battle (rewards included) and render it."""
    g = gcs.Game(CONTENT, seed=spec.seed)
    if spec.deck is not None:
        g.set_master_deck(list(spec.deck))
    deck = ", ".join(m.card_id + ("+" if m.upgraded else "") for m in g.get_master_deck())
    out = [f"# golden playthrough {spec.name}: encounter {spec.encounter}, seed {spec.seed}",
           f"# {spec.describe}",
           f"# master deck: {deck}",
           f"# run: hp {g.run_hp[0]}/{g.run_hp[1]}, gold {g.gold}", ""]
    policy = spec.make_policy()
    g.start_battle(spec.encounter)
    g.settle()
    seen = 0
    turn_shown = -1

    def flush() -> None:
        nonlocal seen
        log = g.event_log
        out.extend("  " + format_event(e) for e in log[seen:])
        seen = len(log)

    flush()
    decisions = 0
    while True:
        legal = g.legal_actions()
        if not legal:
            break
        if g.phase is BattlePhase.PLAYER_PHASE and not g.is_waiting and not g.is_waiting_for_reward:
            if g.turn_number != turn_shown:
                turn_shown = g.turn_number
                out.extend(state_block(g))
            else:
                out.append(f"  [energy {g.energy} | hand {_pile(g.hand())}]")
        elif g.is_waiting_for_choice:
            ch = g.pending_choice
            assert ch is not None
            out.append(f"  [choice: {ch.prompt} min {ch.min} max {ch.max}: "
                       f"{', '.join(repr(c) for c in ch.candidates)}]")
        elif g.is_waiting_for_reward:
            out.append(f"  [rewards: {', '.join(f'{i}: {r}' for i, r in enumerate(g.offered_rewards))}]")
        a = policy(g, legal)
        out.append(f"> {a}")
        g.apply(a)
        decisions += 1
        assert decisions < 500, f"{spec.name}: the battle did not end"
        flush()
    hp, max_hp = g.run_hp
    deck = ", ".join(m.card_id + ("+" if m.upgraded else "") for m in g.get_master_deck())
    out += ["", f"# result: {'WON' if g.last_result else 'LOST'} on turn {g.turn_number} after "
                f"{decisions} decisions; run hp {hp}/{max_hp}, gold {g.gold}",
            f"# master deck: {deck}"]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("spec", GOLDENS, ids=[s.name for s in GOLDENS])
def test_golden_playthrough_matches_its_transcript(spec: Golden) -> None:
    text = transcript(spec)
    path = GOLDEN / f"{spec.name}.txt"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run GCS_UPDATE_GOLDEN=1 python -m pytest {__file__}"
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = list(difflib.unified_diff(want.splitlines(), text.splitlines(), f"golden/{path.name}",
                                         "this run", lineterm="", n=2))
        shown = "\n".join(diff[:60]) + ("\n..." if len(diff) > 60 else "")
        pytest.fail(f"{spec.name} differs from its golden transcript (GCS_UPDATE_GOLDEN=1 "
                    f"rewrites it; then read the diff):\n{shown}")


@pytest.mark.parametrize("spec", GOLDENS, ids=[s.name for s in GOLDENS])
def test_golden_playthrough_shows_what_it_is_for(spec: Golden) -> None:
    text = transcript(spec)
    missing = [x for x in spec.expects if x not in text]
    assert not missing, (f"{spec.name} no longer shows {missing} (an RNG or rule change?): "
                         f"choose a seed that does, then regenerate the golden file")


def test_golden_transcript_is_stable_within_a_process() -> None:
    spec = GOLDENS[0]
    assert transcript(spec) == transcript(spec)


def test_golden_event_format_lists_every_field() -> None:
    e = ev.CardDrawn(3, "strike", gcs.PileScope.DRAW, gcs.PileScope.HAND)
    assert format_event(e) == "CardDrawn instance_id=3 card_id=strike from_pile=DRAW to_pile=HAND"
    assert format_event(ev.DrawPileShuffled()) == "DrawPileShuffled"
    assert format_event(ev.EnemyUnitIntentChanged(1, "chomp", None, 1)) == \
        "EnemyUnitIntentChanged unit=1 move=chomp damage=- hits=1"
