"""Hidden information (docs/rules.md, Hidden information): ``Game.determinize(seed)`` draws
afresh exactly what the player cannot know, keeps everything the player knows, and depends
on nothing else; the card primitives keep the places in Draw the player saw."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import gcs
from gcs import DrawPilePosition, Game, PileScope
from gcs.agents import HeuristicAgent
from gcs.battle.save_format import FORMAT
from gcs.errors import BusyError, GameError, SaveError
from gcs.rng import Rng

C = gcs.builtin_content()
DECK = ["strike"] * 4 + ["defend"] * 3 + ["bash", "headbutt", "warcry", "twin_strike",
                                          "wild_strike", "pommel_strike", "armaments"]


def battle(encounter: str = "jaw_worm", seed: int = 1, deck: list[str] | None = None) -> Game:
    g = Game(C, seed=seed, log_events=False)
    g.set_master_deck(deck if deck is not None else DECK)
    g.start_battle(encounter)
    return g


def hidden_free(data: dict[str, Any]) -> dict[str, Any]:
    """A save with every hidden field taken out (the unknown part of Draw as a sorted list)."""
    d = copy.deepcopy(data)
    st = d["state"]
    top, bottom = st["known"]
    draw = st["draw"]
    st["draw"] = [draw[:bottom], sorted(draw[bottom:len(draw) - top]), draw[len(draw) - top:]]
    for k in ("seed", "run_rng", "rng"):
        st.pop(k)
    d.pop("seed")
    d.pop("logging")
    for u in st["units"][1:]:
        planned = set(u[9])
        u[12] = [[m, v] for m, v in u[12] if m in planned]
    return d


def scramble(g: Game, k: int) -> Game:
    """A twin of ``g`` that differs only in what the player cannot know."""
    t = g.clone()
    s = t._e.s
    lo, hi = s.known_bottom, len(s.draw) - s.known_top
    middle = s.draw[lo:hi]
    random.Random(k).shuffle(middle)
    s.draw[lo:hi] = middle
    s.rng_shuffle, s.rng_ai, s.rng_cards, s.run_rng = (Rng(k * 7 + i) for i in range(4))
    t.seed = s.seed = 1000 + k
    for u in s.units[1:]:
        for move in list(u.rolled):
            if move not in u.history:
                u.rolled[move] = u.rolled[move] + 1
    return t


def play(g: Game, n: int, seed: int = 0) -> None:
    agent = HeuristicAgent(seed)
    for _ in range(n):
        legal = g.legal_actions()
        if not legal or g.is_waiting_for_reward:
            return
        g.apply(agent(g, legal))


def paused_states() -> dict[str, Game]:
    """A battle at its start, mid-turn, mid-Choice, mid-Wait and on the reward screen."""
    out = {"start": battle()}
    g = battle(seed=2)
    play(g, 6)
    out["later"] = g
    g = battle(seed=3)
    g.apply("end")
    h = g.add_card_to_hand("headbutt")
    assert g.try_play_card(h, 0) and g.is_waiting_for_choice
    out["choice"] = g
    g = battle(seed=4)
    t = g.add_card_to_hand("twin_strike")
    assert g.try_play_card(t, 0) and g.waiting_kind == "wait"
    out["wait"] = g
    g = battle("cultist", seed=5)
    play(g, 200)
    assert g.is_waiting_for_reward
    out["reward"] = g
    g = battle("two_louses", seed=6)
    out["louses"] = g
    return out


@pytest.mark.parametrize("name", ["start", "later", "choice", "wait", "reward", "louses"])
def test_determinize_keeps_every_known_field(name: str) -> None:
    g = paused_states()[name]
    before = g.to_json()
    for seed in range(5):
        d = g.determinize(seed)
        assert hidden_free(d.to_json()) == hidden_free(before)
        assert d.legal_actions() == g.legal_actions()
        assert d.observation() == g.observation()
    assert g.to_json() == before  # and the game itself is unchanged


@pytest.mark.parametrize("name", ["start", "later", "choice", "wait", "reward", "louses"])
def test_determinize_depends_only_on_what_the_player_knows(name: str) -> None:
    g = paused_states()[name]
    for k in range(3):
        twin = scramble(g, k)
        assert twin.to_json() != g.to_json()
        for seed in (0, 1, 2**40 + 7):
            assert twin.determinize(seed).to_json() == g.determinize(seed).to_json()


def test_determinize_redraws_what_is_hidden() -> None:
    g = battle("two_louses", seed=8)
    worlds = [g.determinize(s) for s in range(40)]
    assert len({tuple(w._e.s.draw) for w in worlds}) > 30
    assert len({w._e.s.rng_ai.state for w in worlds}) == 40
    assert len({w.seed for w in worlds}) == 40
    # an unplanned rolled move (a louse's Bite it has not planned yet) is rolled again, 5-7
    louse = next((u for u in g._e.s.units[1:] if "bite" not in u.history), None)
    if louse is not None:
        rolls = {w._e.s.units[louse.uid].rolled["bite"] for w in worlds}
        assert rolls <= {5, 6, 7} and len(rolls) > 1


def test_determinize_draw_order_is_uniform_over_many_seeds() -> None:
    g = battle(seed=9)
    s = g._e.s
    n = len(s.draw)
    assert s.known_top == s.known_bottom == 0 and n >= 8
    samples = 3000
    top = {uid: 0 for uid in s.draw}
    bottom = {uid: 0 for uid in s.draw}
    for seed in range(samples):
        w = g.determinize(seed)._e.s.draw
        top[w[-1]] += 1
        bottom[w[0]] += 1
    expected = samples / n
    for counts in (top, bottom):
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        # n - 1 degrees of freedom; p = 0.001 is below 2.3 x (n - 1) + 10 for n < 20
        assert chi2 < 2.3 * (n - 1) + 10, counts


def test_a_card_put_on_top_by_a_known_move_stays_on_top() -> None:
    g = battle(seed=10)
    g.apply("end")
    s = g._e.s
    assert s.discard
    h = g.add_card_to_hand("headbutt")
    assert g.try_play_card(h, 0) and g.is_waiting_for_choice
    chosen = g.pending_choice.candidates[0]
    g.choose([0])
    assert s.draw[-1] == chosen.uid and s.known_top == 1 and s.known_bottom == 0
    tops = {g.determinize(seed)._e.s.draw[-1] for seed in range(50)}
    assert tops == {chosen.uid}
    seconds = {g.determinize(seed)._e.s.draw[-2] for seed in range(50)}
    assert len(seconds) > 1  # the rest is reshuffled
    # the card is drawn: nothing known is left
    g.draw_cards(1)
    assert s.known_top == 0


def test_known_places_top_bottom_random_shuffle_and_moves_out_of_draw() -> None:
    g = battle(seed=11)
    s = g._e.s
    a = g.add_card_to_pile("wound", PileScope.DRAW, DrawPilePosition.TOP)
    b = g.add_card_to_pile("wound", PileScope.DRAW, DrawPilePosition.BOTTOM)
    c = g.add_card_to_pile("dazed", PileScope.DRAW, DrawPilePosition.TOP)
    assert (s.known_top, s.known_bottom) == (2, 1)
    for seed in range(20):
        w = g.determinize(seed)._e.s.draw
        assert w[-1] == c.uid and w[-2] == a.uid and w[0] == b.uid
    g.move_card_to_pile(a, PileScope.EXHAUST)  # a known card leaves Draw: the others stay known
    assert (s.known_top, s.known_bottom) == (1, 1) and s.draw[-1] == c.uid
    g.add_card_to_pile("wound", PileScope.DRAW, DrawPilePosition.RANDOM)
    assert (s.known_top, s.known_bottom) == (0, 0)  # a place nobody saw: nothing is sure
    g.add_card_to_pile("wound", PileScope.DRAW, DrawPilePosition.TOP)
    g.shuffle_draw_pile()
    assert (s.known_top, s.known_bottom) == (0, 0)
    g.add_card_to_pile("wound", PileScope.DRAW, DrawPilePosition.BOTTOM)
    while len(s.draw) > 1:
        g.move_card_to_pile(g.draw_pile()[-1], PileScope.DISCARD)
    assert (s.known_top, s.known_bottom) == (0, 1)
    g.draw_cards(1)  # the last card, the known bottom one, is drawn
    assert (s.known_top, s.known_bottom) == (0, 0)


def test_known_places_stay_within_the_draw_pile_in_random_battles() -> None:
    agent = HeuristicAgent(3)
    rng = random.Random(3)
    for k, enc in enumerate(sorted(C.encounters)):
        g = battle(enc, seed=20 + k)
        s = g._e.s
        for _ in range(400):
            legal = g.legal_actions()
            if not legal or g.is_waiting_for_reward:
                break
            g.apply(agent(g, legal) if rng.random() < 0.7 else legal[rng.randrange(len(legal))])
            assert min(s.known_top, s.known_bottom) >= 0
            assert s.known_top + s.known_bottom <= len(s.draw)
            w = g.determinize(k)._e.s.draw
            n = len(w)
            assert w[n - s.known_top:] == s.draw[n - s.known_top:]
            assert w[:s.known_bottom] == s.draw[:s.known_bottom]
            assert sorted(w) == sorted(s.draw)
        g2 = Game.from_json(C, g.to_json())
        assert g2 == g


def test_the_next_battle_is_drawn_afresh_and_alike_for_twins() -> None:
    g = battle("cultist", seed=12)
    play(g, 200)
    assert g.is_waiting_for_reward
    twin = scramble(g, 5)
    for seed in (1, 2):
        a, b = g.determinize(seed), twin.determinize(seed)
        for x in (a, b):
            x.skip_reward()
            x.start_battle("jaw_worm")
        assert a.to_json() == b.to_json()
    real = g.clone()
    real.skip_reward()
    real.start_battle("jaw_worm")
    world = g.determinize(1)
    world.skip_reward()
    world.start_battle("jaw_worm")
    assert real._e.s.draw != world._e.s.draw or real.enemies[0].hp != world.enemies[0].hp


def test_determinize_checks_its_seed_and_refuses_inside_a_handler() -> None:
    g = battle(seed=13)
    for bad in ("1", 1.5, None, True, 2**65):
        with pytest.raises(GameError):
            g.determinize(bad)  # type: ignore[arg-type]
    seen: list[Exception] = []

    def handler(ev: object) -> None:
        try:
            g.determinize(1)
        except BusyError as exc:
            seen.append(exc)

    g.subscribe(gcs.events.CardPlayed, handler)
    g.apply(g.legal_actions()[0])
    assert seen and isinstance(seen[0], BusyError)


def test_a_determinized_world_has_no_log_and_plays_on() -> None:
    g = Game(C, seed=14)  # logging on
    g.start_battle("jaw_worm")
    w = g.determinize(3)
    assert w.event_log == [] and g.event_log  # the world's past is not recorded
    play(w, 100)
    assert w.is_waiting_for_reward or w.last_result is False or not w.legal_actions()


def test_saves_keep_the_known_places_and_load_the_old_format() -> None:
    g = battle(seed=15)
    g.add_card_to_pile("wound", PileScope.DRAW, DrawPilePosition.TOP)
    data = g.to_json()
    assert data["format"] == FORMAT and data["state"]["known"] == [1, 0]
    assert Game.from_json(C, data)._e.s.known_top == 1
    old = copy.deepcopy(data)
    old["format"] = 2
    del old["state"]["known"]
    loaded = Game.from_json(C, old)
    assert (loaded._e.s.known_top, loaded._e.s.known_bottom) == (0, 0)
    assert loaded.to_json()["format"] == FORMAT
    for known in ([len(data["state"]["draw"]), 1], [-1, 0], [0], "x"):
        bad = copy.deepcopy(data)
        bad["state"]["known"] = known
        with pytest.raises(SaveError, match=r"\$\.state\.known"):
            Game.from_json(C, bad)



def test_an_open_choice_over_the_draw_pile_is_kept_as_it_is_shown() -> None:
    """Decision (docs/rules.md, Hidden information): a Choice over Draw lists it top first;
    while it is open determinize keeps its candidates as listed (the answers' indices keep
    their meaning) and still reshuffles the unknown part of Draw."""
    from flow_support import card, start

    from gcs.flow import nodes as N
    from gcs.flow.exprs import CardSel

    seek = card("seek", 0, on_play=N.Choice(CardSel("draw"), "c", then=N.MoveCard(
        CardSel("var", var="c"), PileScope.HAND)))
    g = start(seek)
    g.add_card_to_hand("seek")
    assert g.try_play_card(g.hand()[-1]) and g.is_waiting_for_choice
    s = g._e.s
    assert s.choice_ids == s.draw[::-1]
    worlds = [g.determinize(k)._e.s for k in range(20)]
    assert all(w.choice_ids == s.choice_ids for w in worlds)
    assert len({tuple(w.draw) for w in worlds}) > 1
