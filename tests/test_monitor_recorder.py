"""The monitor's recorder copies a battle only when an outermost public call has ended (the call
guard's ``watch_calls`` notification), on both engines: never in the middle of a wave."""

from __future__ import annotations

import gcs
from gcs.guard import watch_calls
from gcs.monitor.recorder import Recorder


def _game() -> gcs.Game:
    g = gcs.Game(gcs.builtin_content(), seed=11)
    g.start_battle("jaw_worm")
    return g


def test_one_copy_per_call_taken_after_the_wave_with_the_final_state() -> None:
    g = _game()
    seen: list[tuple[int, int]] = []  # (recorder version, events recorded) at each event
    rec = Recorder(g, lambda: None)
    g.subscribe(gcs.events.Event, lambda ev: seen.append((rec.version, len(rec.events))))
    v0 = rec.version
    g.apply(gcs.Action.end())  # one call: turn end, the enemy phase, the next turn's draw
    assert len(seen) > 10
    assert {v for v, _ in seen} == {v0}  # no copy while the wave ran
    assert rec.version == v0 + 1  # exactly one, when the call ended
    live = rec.live
    assert live.turn_number == g.turn_number == 2
    assert [c.card_id for c in live.hand()] == [c.card_id for c in g.hand()]
    assert live.player is not None and g.player is not None and live.player.hp == g.player.hp
    assert {r.wave for r in list(rec.events)[-len(seen):]} == {rec.version}
    rec.close()
    g.apply(gcs.Action.end())
    assert rec.version == v0 + 1  # closed: no more copies


def test_a_call_that_publishes_nothing_takes_no_copy() -> None:
    g = _game()
    rec = Recorder(g, lambda: None)
    v0 = rec.version
    g.shuffle_draw_pile()  # publishes DrawPileShuffled: one copy
    assert rec.version == v0 + 1
    g.clear_master_deck()  # changes no battle, publishes nothing: no copy
    assert rec.version == v0 + 1
    rec.close()


def test_watch_calls_runs_after_each_outermost_call_and_ignores_a_failing_observer() -> None:
    g = _game()
    ended: list[int] = []
    stop_bad = watch_calls(g, lambda: 1 // 0)  # raises: ignored, the call still succeeds
    stop = watch_calls(g, lambda: ended.append(g.turn_number))
    inner: list[bool] = []
    g.subscribe(gcs.events.CardPlayed, lambda ev: inner.append(bool(ended)))
    assert g.try_play_card(g.hand()[0], g.enemies[0]) in (True, False)
    g.end_player_turn()
    assert ended == [1, 2]  # one per changing call (a refused play too), after it
    assert not any(inner)  # never while the call ran
    stop()
    stop_bad()
    g.end_player_turn()
    assert ended[-1] == 2
