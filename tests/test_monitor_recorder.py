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


def test_end_turn_is_three_moments_each_at_a_phase_end_or_the_call_end() -> None:
    g = _game()
    seen: list[tuple[int, str]] = []  # (moments ended, event type) at each event
    rec = Recorder(g, lambda: None)
    g.subscribe(gcs.events.Event, lambda ev: seen.append((rec.version, type(ev).__name__)))
    v0 = rec.version
    hand = [c.uid for c in g.hand()]
    g.apply(gcs.Action.end())  # one call: turn end, the enemy phase, the next turn's draw
    assert len(seen) > 10
    assert rec.version == v0 + 3
    done, acted, call = list(rec.moments)[-3:]
    assert [(m.label, m.kind) for m in (done, acted, call)] == [
        ("turn end done", "phase"), ("enemies acted", "phase"), ("end turn", "call")]
    # each moment ends right after its PhaseChanged (or the call), and holds the events since
    assert done.last + 1 == acted.first and acted.last + 1 == call.first
    first_phase = next(i for i, (_, t) in enumerate(seen) if t == "PhaseChanged")
    assert seen[first_phase][0] == v0  # (recorded before the moment it ends)
    a, b, c = (rec.copy_of(m.id) for m in (done, acted, call))
    assert a is not None and b is not None and c is not None
    assert a.phase.name == "ENEMY_PHASE" and [x.uid for x in a.hand()] == []  # hand discarded
    assert b.phase.name == "PLAYER_TURN_START" and b.hand() == []  # enemies acted, no draw yet
    assert b.player is not None and g.player is not None and b.player.hp == g.player.hp
    assert c.turn_number == g.turn_number == 2 and len(c.hand()) == 5
    assert [x.uid for x in c.hand()] == [x.uid for x in g.hand()] != hand
    assert {r.moment for r in list(rec.events)[-len(seen):]} == {done.id, acted.id, call.id}
    rec.close()
    g.apply(gcs.Action.end())
    assert rec.version == v0 + 3  # closed: no more moments


def test_a_moment_after_a_battle_keeps_its_final_board() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=4)
    g.set_master_deck(["defend"] * 5)
    g.start_battle("jaw_worm")
    rec = Recorder(g, lambda: None)
    while g.is_battle_active:
        g.apply(gcs.Action.end())
    live = rec.live
    assert not live.is_battle_active and live.last_result is False
    board = rec.board(live._e.s.battles)
    assert board is not None and board.phase.name == "BATTLE_LOST"
    assert board.player is not None and board.player.hp == 0 and len(board.discard_pile()) == 5
    rec.close()


def test_old_moments_are_packed_thinned_and_bounded_and_still_exact() -> None:
    g = _game()
    rec = Recorder(g, lambda: None, hot=10, recent=50, old=4)
    saves: dict[int, dict[str, object]] = {}  # call moment -> the game's save there
    for _ in range(300):
        if not g.is_battle_active:  # (two louses: this play never loses the run in 300 calls)
            g.start_battle("two_louses")
        else:
            g.apply(g.legal_actions()[0])
        saves[rec.version - 1] = g.to_json()
    newest = rec.version - 1
    kept = rec.kept()
    recent, thinned = rec.kept_from()
    assert [k for k in kept if k >= recent] == list(range(recent, newest + 1))
    old = [k for k in kept if k < recent]
    assert len(old) == 4 and old[0] == thinned
    assert all(k % 20 == 0 and rec.moment(k).kind == "call" for k in old)  # type: ignore[union-attr]
    assert len(rec.copies) <= 10 + 8 and set(rec.packed) == set(kept) - set(rec.copies)
    # a packed moment is exact: its save loads to the game as it was, its view is the page's
    for k in [*old, *(k for k in rec.packed if k >= recent)]:
        m = rec.moment(k)
        assert m is not None
        view = rec.view_of(k)
        assert view is not None and view["turn"] == m.turn and view["phase"] == m.phase
        if m.kind == "call":
            copy = rec.copy_of(k)
            assert copy is not None and copy.to_json() == saves[k] == rec.save_of(k)
        else:
            assert rec.copy_of(k) is None and rec.save_of(k) is None
    rec.close()


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
