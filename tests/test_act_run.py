"""An Act 1 run (docs/run.md): decisions through Actions, the rooms' effects, every built-in
policy finishing a run, saves that reproduce the run exactly."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

import gcs
from gcs.act import ActRun, heuristic_choice, play_act, run_rule
from gcs.act.run import BATTLE, OVER, PATH, REST
from gcs.agent import CHOOSE, REWARD, SKIP, Action
from gcs.content.loader import builtin_content
from gcs.errors import GameError, IllegalActionError
from gcs.events import Healed
from gcs.sim.policies import make_policy


@pytest.fixture(scope="module")
def content() -> gcs.Content:
    return builtin_content()


def _to(run: ActRun, phase: str, policy_name: str = "heuristic", seed: int = 0) -> None:
    """Play ``run`` with a policy until it reaches ``phase`` (fails if it ends first)."""
    policy = make_policy(policy_name, seed)
    rule = run_rule(policy_name, policy)
    while run.phase != phase:
        assert not run.over
        legal = run.legal_actions()
        a = rule(run, legal) if rule and run.phase in (PATH, REST) else policy(run.game, legal)
        run.apply(a)


def test_a_run_starts_on_the_map_with_a_choice_of_floor_1_rooms(content: gcs.Content) -> None:
    run = ActRun(content, 3)
    assert run.phase == PATH and run.floor == 0 and run.game.run_hp == (80, 80)
    assert run.legal_actions() == [Action(CHOOSE, choice=(i,))
                                   for i in range(len(run.map.starts()))]
    assert all(o.startswith("monster (column ") for o in run.options())
    run.apply("choose 0")
    assert run.phase == BATTLE and run.floor == 1
    assert run.fights[0].encounter == run.monsters[0] and run.fights[0].kind == "normal"
    with pytest.raises(IllegalActionError):
        ActRun(content, 3).apply("choose 9")


def test_a_won_hallway_fight_offers_three_cards_of_the_pool_then_burning_blood(
        content: gcs.Content) -> None:
    run = ActRun(content, 4, log_events=True)
    _to(run, BATTLE)
    policy = make_policy("heuristic", 0)
    while not run.game.is_waiting_for_reward:
        assert run.game.is_battle_active, "the first fight was lost"
        run.apply(policy(run.game, run.legal_actions()))
    offers = run.game.offered_rewards
    pool = {c for ids in run.cards.values() for c in ids}
    assert [r.kind for r in offers] == ["card"] * 3 and {r.card_id for r in offers} <= pool
    assert run.legal_actions() == [Action(REWARD, reward=i) for i in range(3)] + [Action(SKIP)]
    # Burning Blood (the character's status, ``on_battle_end: heal 6``) healed as the battle
    # ended, once: the run adds no heal of its own
    healed = [e.amount for e in run.game.event_log if isinstance(e, Healed)]
    hp = run.game.player.hp if run.game.player else 0
    assert healed and (healed[-1] == 6 or hp == 80)
    deck = len(run.deck())
    run.apply("reward 1")
    assert len(run.deck()) == deck + 1 and run.deck()[-1] == offers[1].card_id
    assert run.game.run_hp[0] == hp
    assert run.fights[0].won and run.phase in (PATH, REST, BATTLE)


def test_a_rest_site_rests_or_smiths(content: gcs.Content) -> None:
    run = ActRun(content, 0)
    _to(run, REST)
    assert run.options()[0] == "rest" and run.options()[1:] == [
        f"smith {c}" for c in run.smith_options()]
    smithed = run.clone()
    hp, max_hp = run.game.run_hp
    run.apply("choose 0")
    assert run.game.run_hp[0] == min(max_hp, hp + max_hp * 3 // 10)
    card = smithed.smith_options()[0]
    ups = sum(1 for m in smithed.game.get_master_deck() if m.card_id == card and m.upgraded)
    smithed.apply("choose 1")
    assert sum(1 for m in smithed.game.get_master_deck()
               if m.card_id == card and m.upgraded) == ups + 1
    assert smithed.game.run_hp[0] == hp


def test_the_heuristic_rests_below_half_hp_and_else_smiths_the_rarest_card(
        content: gcs.Content) -> None:
    run = ActRun(content, 0)
    _to(run, REST)
    hp, max_hp = run.game.run_hp
    legal = run.legal_actions()
    got = heuristic_choice(run, legal)
    if hp < max_hp * 0.5 or (run.floor == 15 and hp < max_hp * 0.8):
        assert got == legal[0]
    else:
        assert got != legal[0]
        rank = {"rare": 3, "uncommon": 2, "common": 1, "basic": 0}
        smith = run.smith_options()
        chosen = smith[got.choice[0] - 1]
        assert all(rank[content.cards[c].rarity.value] <= rank[
            content.cards[chosen].rarity.value] for c in smith)


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "search:iters=2"])
def test_every_builtin_policy_finishes_a_run(content: gcs.Content, name: str) -> None:
    policy = make_policy(name, 5)
    out = play_act(ActRun(content, 5), policy, run_rule(name, policy))
    assert set(out) >= {"won", "floor", "hp", "max_hp", "gold", "deck", "cause"}
    assert 1 <= out["floor"] <= 16 and out["gold"] >= 99
    if out["won"]:
        assert out["floor"] == 16 and out["cause"] == "" and out["hp"] > 0
    else:
        assert out["hp"] == 0 and out["cause"] in content.encounters


def test_the_same_seed_and_policy_play_the_same_run(content: gcs.Content) -> None:
    a = play_act(ActRun(content, 11), make_policy("random", 2))
    b = play_act(ActRun(content, 11), make_policy("random", 2))
    assert a == b


def test_a_save_mid_run_reproduces_the_rest_of_the_run_exactly(content: gcs.Content) -> None:
    run = ActRun(content, 2)
    policy = make_policy("heuristic", 0)
    _to(run, BATTLE)
    for _ in range(7):
        run.apply(policy(run.game, run.legal_actions()))
    saved = json.loads(json.dumps(run.to_json()))
    loaded = ActRun.from_json(content, saved)
    assert loaded == run and loaded.map == run.map
    copies = [loaded, pickle.loads(pickle.dumps(run)), copy.deepcopy(run)]
    policies = [copy.deepcopy(policy) for _ in copies]  # (it counts its decisions: its seed)
    end = play_act(run, policy, heuristic_choice)
    for other, same in zip(copies, policies, strict=True):
        assert play_act(other, same, heuristic_choice) == end
        assert other.to_json() == run.to_json()
    assert run.phase == OVER and run.legal_actions() == []


def test_a_bad_save_is_a_game_error(content: gcs.Content) -> None:
    with pytest.raises(GameError, match="not an act save"):
        ActRun.from_json(content, {"format": 1, "seed": 1})
    with pytest.raises(GameError, match="seed must be an int"):
        ActRun(content, "1")  # type: ignore[arg-type]


def test_the_two_rule_baseline_plays_no_skill_into_enrage_and_always_smiths(
        content: gcs.Content) -> None:
    from pathlib import Path

    from gcs.enums import CardType

    spec = str(Path(__file__).parent.parent / "benchmarks" / "two_rules.py") + ":TwoRules"
    policy = make_policy(spec, 0)
    g = gcs.Game(content, seed=3)
    g.start_battle("gremlin_nob")
    enraged = 0
    while g.is_battle_active and not g.is_waiting_for_reward:
        a = policy(g, g.legal_actions())
        nob = g.enemies[0]
        if nob.alive and nob.stacks("enrage") > 0:
            enraged += 1
            if a.kind == "play":
                assert g.hand()[a.card].active.type is not CardType.SKILL
        g.apply(a)
    assert enraged > 0
    run = ActRun(content, 0)
    _to(run, REST)
    assert policy.run_choice(run, run.legal_actions()) == Action(CHOOSE, choice=(1,))  # type: ignore[attr-defined]
