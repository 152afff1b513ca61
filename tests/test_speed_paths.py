"""The engine's shortcuts play the same game as the long way round: the event log (events built
only when someone keeps or receives them) and the legal actions cached until the battle changes."""

from __future__ import annotations

import gcs
from gcs import events as ev
from gcs.sim.policies import RandomPolicy
from gcs.sim.runner import play_battle

ENCOUNTERS = sorted(gcs.builtin_content().encounters)


def _log_and_published(enc: str, seed: int) -> tuple[list[ev.Event], list[ev.Event], list[ev.Event]]:
    """One battle three ways: the default log, a catch-all subscriber (no log), and a log
    read after every decision (records built part by part)."""
    content = gcs.builtin_content()
    plain = gcs.Game(content, seed=seed)
    play_battle(plain, enc, RandomPolicy(seed))
    heard: list[ev.Event] = []
    sub = gcs.Game(content, seed=seed, log_events=False)
    sub.subscribe(ev.Event, heard.append)
    play_battle(sub, enc, RandomPolicy(seed))
    read = gcs.Game(content, seed=seed)
    read.start_battle(enc)
    pol = RandomPolicy(seed)
    seen = 0
    while read.is_battle_active and not read.is_waiting_for_reward:
        read.apply(pol(read, read.legal_actions()))
        log = read.event_log
        assert len(log) >= seen
        seen = len(log)
    return plain.event_log, heard, read.event_log


def test_event_log_records_build_the_events_subscribers_receive() -> None:
    for enc in ENCOUNTERS:
        for seed in (1, 2):
            log, heard, read = _log_and_published(enc, seed)
            assert log and all(isinstance(x, ev.Event) for x in log)
            assert log == heard
            assert read == log[:len(read)]  # that one took no reward


def test_event_log_read_twice_gives_the_same_event_objects() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=3)
    g.start_battle("jaw_worm")
    first = g.event_log
    second = g.event_log
    assert first == second and all(a is b for a, b in zip(first, second, strict=True))
    assert first is not second  # a new list each read


def test_event_log_of_a_clone_is_built_independently() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=4)
    g.start_battle("cultist")
    twin = g.clone()
    g.apply(g.legal_actions()[0])
    twin.apply(twin.legal_actions()[0])
    assert g.event_log == twin.event_log


def test_legal_actions_are_reused_until_the_battle_changes() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=5)
    g.start_battle("jaw_worm")
    pol = RandomPolicy(5)
    while g.is_battle_active and not g.is_waiting_for_reward:
        first = g.legal_actions()
        first.clear()  # the caller's own list: the cache is not touched
        again = g.legal_actions()
        assert again
        fresh = g.clone().legal_actions()  # a clone has no cache: computed from the state
        assert [str(a) for a in again] == [str(a) for a in fresh]
        g.apply(pol(g, again))


def test_legal_actions_follow_a_facade_change_of_the_hand() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=6)
    g.start_battle("cultist")
    before = g.legal_actions()
    g.add_card_to_hand("strike")
    after = g.legal_actions()
    assert len(after) > len(before)
    assert [str(a) for a in after] == [str(a) for a in g.clone().legal_actions()]
