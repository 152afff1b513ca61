"""Pickle and copy of ``Game`` and ``Content``: a pickled game is its save plus its content, a
copied one is a ``clone``; neither keeps subscribers. A content pickles as its validated
definitions and unpickles as the same object in a process that has it."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import gcs.content.pickled as pickled
from gcs import Action, Content, Game
from gcs.content.loader import builtin_content
from gcs.events import CardPlayed


def _paused_game() -> Game:
    """A battle paused in a Choice (Armaments' upgrade pick), after a few plays."""
    g = Game(builtin_content(), seed=7)
    g.set_master_deck(["armaments"] * 5 + ["strike"] * 5)
    g.start_battle("jaw_worm")
    g.settle()
    play = next(a for a in g.legal_actions() if a.kind == "play"
                and g.hand()[a.card].card_id == "armaments")
    g.apply(play)
    return g


def _rest(g: Game) -> list[str]:
    """The first legal action, taken 60 times (or until the battle ends): the states passed."""
    out = []
    for _ in range(60):
        legal = g.legal_actions()
        if not legal:
            break
        g.apply(legal[0])
        out.append(repr(g))
    return out


def test_a_pickled_game_is_its_save_and_plays_on_the_same() -> None:
    g = _paused_game()
    assert g.is_waiting_for_choice
    loaded = pickle.loads(pickle.dumps(g))
    assert loaded == g and loaded.to_json() == g.to_json()
    assert loaded.content is g.content  # the process has it: the same object
    assert _rest(loaded) == _rest(g)


def test_copy_and_deepcopy_are_clones_without_subscribers() -> None:
    g = _paused_game()
    seen: list[str] = []
    g.subscribe(CardPlayed, lambda ev: seen.append("played"))
    for c in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert c == g and c is not g
        c.apply(Action.parse("choose 0"))
        _rest(c)
        assert seen == []  # the original's subscriber heard nothing of the copy's plays
    assert g.is_waiting_for_choice  # the original is untouched
    g.apply(Action.parse("choose 0"))
    _rest(g)
    assert seen


def test_a_content_copies_as_itself_and_pickles_as_its_definitions() -> None:
    c = builtin_content()
    assert copy.deepcopy(c) is c
    shallow = copy.copy(c)  # a distinct content of the same definitions
    assert shallow is not c and shallow.digest == c.digest
    assert pickled.parts_of(shallow) == pickled.parts_of(c)
    assert all(a is b for a, b in zip(shallow.cards.values(), c.cards.values(), strict=True))
    data = pickle.dumps(c)
    assert pickle.loads(data) is c
    known = dict(pickled._KNOWN)
    try:
        pickled._KNOWN.clear()  # as in a process that never loaded the pack
        fresh = pickle.loads(data)
        assert fresh is not c and fresh.digest == c.digest
        assert pickled.parts_of(fresh) == pickled.parts_of(c)
        assert pickle.loads(data) is fresh  # ... which then keeps the one it built
    finally:
        pickled._KNOWN.clear()
        pickled._KNOWN.update(known)


def test_a_game_unpickles_in_another_process() -> None:
    g = _paused_game()
    code = ("import pickle, sys; g = pickle.loads(sys.stdin.buffer.read()); "
            "print(g.to_json() == pickle.loads(bytes.fromhex(sys.argv[1])))")
    here = [sys.executable, "-P"] if sys.flags.safe_path else [sys.executable]
    out = subprocess.run([*here, "-c", code, pickle.dumps(g.to_json()).hex()],
                         input=pickle.dumps(g), capture_output=True, check=True)
    assert out.stdout.decode().strip() == "True"


def test_a_content_without_a_digest_is_built_again_at_every_unpickling() -> None:
    parts = pickled.parts_of(builtin_content())
    c = Content(pack_id=parts.pack_id, cards=parts.cards, statuses=parts.statuses,
                enemies=parts.enemies, encounters=parts.encounters,
                characters=parts.characters, reward_tables=parts.reward_tables,
                graphs=parts.graphs)
    assert c.digest == ""
    data = pickle.dumps(c)
    a, b = pickle.loads(data), pickle.loads(data)
    assert a is not c and b is not a and pickled.parts_of(a) == parts
    g = Game(c, seed=3)
    g.start_battle("cultist")
    g.settle()
    loaded = pickle.loads(pickle.dumps(g))
    assert loaded == g and _rest(loaded) == _rest(g)


def test_actions_pickle_and_copy_on_both_engines() -> None:
    """A ``gcs.Action`` pickles and copies as ``Action(*fields)`` (mypyc's compiled class
    refused Python's default way): what a user's replay buffer or process pool holds."""
    for a in (Action("play", 0, 1), Action("choose", choice=(0, 2)), Action("end"),
              Action("reward", reward=1), Action("skip")):
        assert pickle.loads(pickle.dumps(a)) == a
        assert copy.deepcopy(a) == a and copy.copy(a) == a
