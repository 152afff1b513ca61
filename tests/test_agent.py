"""The agent surface: Action text forms, legal_actions, apply, clone, JSON, observation."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from minipack import card, mini

from gcs import Action, Game, IllegalActionError
from gcs.enums import CardType, TargetMode
from gcs.errors import ArgumentError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel

PICK = card("pick", 0, on_play=N.Choice(CardSel("hand"), "x",
                                        then=N.ExhaustCard(CardSel("var", var="x")), min=1, max=2))
SLOW = card("slow", 0, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
            on_play=N.Sequence((N.Wait(0.5), N.AnimationGate("swing"))))


def pack():
    return mini(extra_cards=(PICK, SLOW))


@pytest.mark.parametrize("text", ["play 0", "play 3 @e0", "play 12 @e2", "choose 1,4", "choose 0",
                                  "choose -", "end", "reward 0", "reward 3", "skip"])
def test_action_text_round_trips(text: str) -> None:
    a = Action.parse(text)
    assert str(a) == text
    assert Action.parse(str(a)) == a


@given(st.one_of(
    st.builds(Action.play, st.integers(0, 50), st.integers(-1, 5)),
    st.lists(st.integers(0, 20), max_size=4, unique=True).map(lambda xs: Action.choose(*sorted(xs))),
    st.just(Action("end")), st.just(Action("skip")),
    st.integers(0, 9).map(lambda r: Action("reward", reward=r)),
))
def test_every_action_kind_round_trips(a: Action) -> None:
    assert Action.parse(str(a)) == a


@pytest.mark.parametrize("bad", ["", "play", "play x", "play 1 e0", "play -1", "choose", "choose a,b",
                                 "end now", "reward", "fly 3"])
def test_action_parse_rejects_bad_text(bad: str) -> None:
    with pytest.raises(IllegalActionError):
        Action.parse(bad)


class _Int:
    """Not an int, though it converts to one (as numpy's integers do)."""

    def __index__(self) -> int:
        return 0

    def __int__(self) -> int:
        return 0


@pytest.mark.parametrize(("kwargs", "param"), [
    ({"kind": "play", "card": "0"}, "card"), ({"kind": "play", "card": _Int()}, "card"),
    ({"kind": "play", "card": 1.0}, "card"), ({"kind": "play", "card": True}, "card"),
    ({"kind": "play"}, "card"), ({"kind": "play", "card": 0, "target": "e0"}, "target"),
    ({"kind": "play", "card": 0, "target": -2}, "target"), ({"kind": 5}, "kind"),
    ({"kind": "fly"}, "kind"), ({"kind": ["end"]}, "kind"), ({"kind": "end", "card": 3}, "card"),
    ({"kind": "choose", "choice": "1,2"}, "choice"), ({"kind": "choose", "choice": (1, -1)}, "choice"),
    ({"kind": "choose", "choice": (True,)}, "choice"), ({"kind": "end", "choice": (1,)}, "choice"),
    ({"kind": "reward"}, "reward"), ({"kind": "reward", "reward": None}, "reward"),
    ({"kind": "skip", "reward": 0}, "reward"),
])
def test_action_with_a_wrong_argument_raises_argument_error_naming_it(
        kwargs: dict[str, object], param: str) -> None:
    """Issue 30: on the compiled engine a wrong type got mypyc's bare TypeError; both engines
    now answer with an ArgumentError (a GameError, TypeError and ValueError) naming it."""
    with pytest.raises(ArgumentError, match=f"Action: parameter '{param}' must be"):
        Action(**kwargs)  # type: ignore[arg-type]
    assert Action("choose", choice=[2, 0]).choice == (2, 0)  # a list is taken as a tuple


def test_legal_actions_one_entry_per_hand_card_and_end_last() -> None:
    g = Game(mini(), seed=4)
    g.start_battle("two_dummies")
    legal = g.legal_actions()
    assert legal[-1] == Action("end")
    plays = [a for a in legal if a.kind == "play"]
    hand = g.hand()
    # every hand card appears (identical cards not merged); attacks once per living enemy
    for i, c in enumerate(hand):
        n = len([a for a in plays if a.card == i])
        assert n == (2 if g.requires_target(c) else 1)
    assert legal == sorted(legal, key=lambda a: (a.kind != "play", a.card, a.target))


def test_apply_illegal_raises_and_changes_nothing() -> None:
    g = Game(mini(), seed=5)
    g.start_battle("jaw_worm")
    before = g.to_json()
    for bad in ["play 99", "choose 0", "reward 0", "skip", "play 0 @e7"]:
        with pytest.raises(IllegalActionError):
            g.apply(bad)
        assert g.to_json() == before


def test_choice_answers_are_the_only_legal_actions_and_apply_settles_waits() -> None:
    c = pack()
    g = Game(c, seed=1)
    g.start_battle("jaw_worm")
    g.add_card_to_hand("pick")
    i = [x.card_id for x in g.hand()].index("pick")
    g.apply(Action.play(i))
    assert g.is_waiting_for_choice
    legal = g.legal_actions()
    assert all(a.kind == "choose" for a in legal)
    n = len(g.pending_choice.candidates)  # type: ignore[union-attr]
    assert len(legal) == n + n * (n - 1) // 2  # 1 or 2 of n
    g.apply(legal[0])
    assert not g.is_waiting
    g.add_card_to_hand("slow")
    j = [x.card_id for x in g.hand()].index("slow")
    g.apply(Action.play(j, 0))
    assert not g.is_waiting  # Wait and Gate settled at once by apply


def _random_walk(g: Game, seed: int, steps: int, check) -> None:
    from gcs.sim.policies import RandomPolicy

    pol = RandomPolicy(seed)
    for _ in range(steps):
        legal = g.legal_actions()
        if not legal:
            return
        g.apply(pol(g, legal))
        check(g)


def _clone_and_json_equal(g: Game) -> None:
    assert g.clone() == g
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(g.content, data) == g


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_clone_and_json_equal_at_every_step(seed: int) -> None:
    g = Game(pack(), seed=seed)
    g.start_battle("jaw_worm")
    g.add_card_to_hand("pick")
    _random_walk(g, seed, 200, _clone_and_json_equal)


def test_clone_is_independent_and_continues_identically() -> None:
    g = Game(mini(), seed=9)
    g.start_battle("jaw_worm")
    h = g.clone()
    seq = [str(a) for a in g.legal_actions()]
    g.apply(seq[0])
    assert g != h
    h.apply(seq[0])
    assert g == h


def test_observation_hides_draw_order_and_rng() -> None:
    g = Game(mini(), seed=2)
    g.start_battle("jaw_worm")
    obs = g.observation()
    text = json.dumps(obs)
    assert "rng" not in text
    assert obs["draw_count"] == len(g.draw_pile())
    assert obs["draw_cards"] == sorted([c.card_id, c.upgraded] for c in g.draw_pile()) or \
        obs["draw_cards"] == sorted((c.card_id, c.upgraded) for c in g.draw_pile())
    # two games that differ only in draw order observe the same
    h = g.clone()
    h._e.s.draw.reverse()
    assert h.observation() == obs
    assert obs["enemies"][0]["intents"][0]["damage"] == 11


def test_replay_reproduces_and_detects_tampering(tmp_path) -> None:
    from gcs.errors import GameError
    from gcs.sim.policies import RandomPolicy
    from gcs.sim.replay import record, replay

    c = pack()
    data = record(c, "jaw_worm", 7, RandomPolicy(7))
    g = replay(c, json.loads(json.dumps(data)))
    assert g.last_result == data["won"]
    data["actions"] = data["actions"][:-3]
    with pytest.raises(GameError):
        replay(c, data)


def test_simulate_same_numbers_for_one_and_two_workers() -> None:
    from gcs.sim.simulate import Job, run_chunk, simulate

    c = mini()
    job = Job(None, "jaw_worm", "random", 3, None, None)
    one = simulate(job, 60, workers=1, chunk=7, content=c)
    parts = run_chunk(job, 0, 30, c)
    parts.add(run_chunk(job, 30, 60, c))
    assert one.to_dict() == parts.to_dict()
