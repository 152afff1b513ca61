"""The built-in players (docs/agents.md): they finish every bundled fight and a whole run with
legal actions only, a seeded search decides the same twice, neither reads hidden
information, the heuristic reads content (never ids), and the registry and the CLI know them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_determinize import paused_states, scramble

import gcs
from gcs import Action, Game
from gcs.agents import Agent, HeuristicAgent, Hint, SearchAgent, hint
from gcs.agents.heuristic import action_key, distinct
from gcs.content.db import Content
from gcs.content.defs import DeckEntry, StatusDef
from gcs.errors import GameError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardFilter, CardSel, Compare, CountOf, UnitSel, Var
from gcs.sim.policies import make_policy
from gcs.sim.runner import new_game, play_battle, play_run

C = gcs.builtin_content()
ENCOUNTERS = sorted(C.encounters)


class Checked:
    """Wraps an agent: every answer must be one of the legal actions it was given."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.calls = 0

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        assert legal == game.legal_actions()
        a = self.agent(game, legal)
        assert a in legal, (a, legal)
        self.calls += 1
        return a


def beatable(encounter: str) -> bool:
    """A fight the starter deck should win: every bundled one but a boss (a boss waits at the
    end of an act for a deck built on the way: the starter deck loses to Slime Boss)."""
    return C.encounters[encounter].kind != "boss"


@pytest.mark.parametrize("encounter", ENCOUNTERS)
def test_the_heuristic_finishes_every_bundled_encounter_with_legal_actions(
        encounter: str) -> None:
    for i in range(3):
        g = new_game(C, 100 + i)
        agent = Checked(HeuristicAgent(i))
        r = play_battle(g, encounter, agent)
        assert not r.unfinished and agent.calls == r.decisions
        assert r.won or not beatable(encounter)


@pytest.mark.parametrize("encounter", ENCOUNTERS)
def test_the_search_finishes_every_bundled_encounter_with_legal_actions(encounter: str) -> None:
    g = new_game(C, 7)
    agent = Checked(SearchAgent(7, iters=6, worlds=3))
    r = play_battle(g, encounter, agent)
    assert not r.unfinished and (r.won or not beatable(encounter))


# the Ironclad cards that need the engine's generic card features (docs/content.md): play
# conditions, cost adjustments, intents, own numbers, copies, replays, block reactions
FEATURE_CARDS = ["clash", "blood_for_blood", "spot_weakness", "rampage", "searing_blow",
                 "dual_wield", "juggernaut", "rupture", "double_tap", "feed", "infernal_blade"]


@pytest.mark.parametrize("encounter", ["jaw_worm", "two_fungi_beasts", "gremlin_nob"])
def test_both_agents_play_the_feature_cards_with_legal_actions(encounter: str) -> None:
    for seed, agent in enumerate((HeuristicAgent(3), SearchAgent(3, iters=4, worlds=2))):
        for upgraded in (False, True):
            g = new_game(C, 40 + seed)
            g.set_master_deck([(cid, upgraded) for cid in FEATURE_CARDS]
                              + ["strike"] * 3 + ["defend"] * 3 + ["hemokinesis", "anger"])
            checked = Checked(agent)
            r = play_battle(g, encounter, checked)
            assert not r.unfinished and checked.calls == r.decisions > 0


def test_both_agents_play_a_whole_run_with_rewards() -> None:
    deck = ["strike"] * 5 + ["defend"] * 4 + ["bash", "headbutt", "warcry", "armaments",
                                              "true_grit", "burning_pact"]
    for agent in (HeuristicAgent(1), SearchAgent(1, iters=4, worlds=2)):
        checked = Checked(agent)
        r = play_run(C, ["cultist", "two_louses", "small_slimes"], checked, 3, deck=deck)
        assert len(r.battles) == 3 and r.won
        assert len(r.deck) != len(deck) or r.deck != deck  # a reward was taken


def test_a_seeded_search_decision_is_reproducible() -> None:
    for name, g in paused_states().items():
        legal = g.legal_actions()
        if len(distinct(g._e.s, legal)) < 2 or g.is_waiting_for_reward:
            continue
        a = SearchAgent(5, iters=30)
        b = SearchAgent(5, iters=30)
        sa = a.search(g, legal)
        sb = b.search(g, legal)
        assert (sa.visits, sa.values) == (sb.visits, sb.values), name
        assert a(g, legal) == b(g, legal)


@pytest.mark.parametrize("name", ["start", "later", "choice", "louses"])
def test_the_agents_decide_alike_on_games_that_differ_only_in_hidden_information(
        name: str) -> None:
    g = paused_states()[name]
    twin = scramble(g, 3)
    legal = g.legal_actions()
    assert twin.legal_actions() == legal
    s1 = SearchAgent(9, iters=40).search(g, legal)
    s2 = SearchAgent(9, iters=40).search(twin, legal)
    assert (s1.visits, s1.values) == (s2.visits, s2.values)
    assert HeuristicAgent(4)(g, legal) == HeuristicAgent(4)(twin, legal)
    h1 = [(str(x.action), x.value, x.visits) for x in hint(g, iters=20, seed=2)]
    h2 = [(str(x.action), x.value, x.visits) for x in hint(twin, iters=20, seed=2)]
    assert h1 == h2


def test_a_search_that_reads_the_real_game_is_not_fair() -> None:
    """The control for the fairness test: a search on plain clones (the real draw order)
    does tell the twins apart somewhere."""
    from gcs.agents import search as S

    real = Game.determinize
    differ = False
    try:
        Game.determinize = lambda self, seed: self.clone()  # type: ignore[method-assign]
        for name in ("start", "later", "louses"):
            g = paused_states()[name]
            twin = scramble(g, 3)
            legal = g.legal_actions()
            a = S.search(g, legal, 9, 40)
            b = S.search(twin, legal, 9, 40)
            differ = differ or (a.visits, a.values) != (b.visits, b.values)
    finally:
        Game.determinize = real  # type: ignore[method-assign]
    assert differ


def test_hint_ranks_every_legal_action_and_changes_nothing() -> None:
    g = new_game(C, 3)
    g.start_battle("gremlin_nob")
    before = g.to_json()
    hints = hint(g, iters=40, seed=1)
    assert sorted(str(h.action) for h in hints) == sorted(str(a) for a in g.legal_actions())
    assert hints[0].best and not any(h.best for h in hints[1:])
    assert all(isinstance(h, Hint) and (h.value is None or 0.0 <= h.value <= 1.0) for h in hints)
    assert [h.visits for h in hints] == sorted((h.visits for h in hints), reverse=True)
    assert g.to_json() == before
    g.apply(hints[0].action)  # press it
    same = {action_key(g._e.s, a) for a in g.legal_actions()}
    assert same  # the game goes on
    assert hint(g, iters=5, ms=5.0)  # a time budget works too


def test_hint_on_the_reward_screen_and_with_nothing_to_do() -> None:
    g = paused_states()["reward"]
    hints = hint(g)
    assert {str(h.action) for h in hints} == {str(a) for a in g.legal_actions()}
    assert all(h.visits == 0 and h.value is not None for h in hints)
    g.apply(hints[0].action)
    assert hint(g) == []
    with pytest.raises(GameError):
        hint("not a game")  # type: ignore[arg-type]
    with pytest.raises(GameError):
        hint(g, iters=0)


def punishing_pack(punished: str) -> Content:
    """The bundled pack with Gremlin Nob's Enrage replaced by a status of another id that
    punishes ``punished`` cards (attack or skill) by its own behaviour."""
    from dataclasses import replace

    from gcs.enums import CardType

    kind = CardType(punished)
    grudge = StatusDef(
        "grudge", "Grudge", entries={"on_play": N.Branch(
            Compare("gt", CountOf(CardSel("var", CardFilter(type=kind), var="card")), 0),
            N.ApplyStatus("strength", Var("stacks"), UnitSel("self")))})
    nob = C.enemies["gremlin_nob"]
    moves = tuple(replace(m, behaviour=N.ApplyStatus("grudge", 3, UnitSel("self")))
                  if m.id == "bellow" else m for m in nob.moves)
    return Content(pack_id=C.pack_id, cards=C.cards.values(),
                   statuses=[*C.statuses.values(), grudge],
                   enemies=[replace(e, moves=moves) if e.id == "gremlin_nob" else e
                            for e in C.enemies.values()],
                   encounters=C.encounters.values(), characters=C.characters.values(),
                   reward_tables=C.reward_tables.values(), graphs=C.graphs, digest="grudge")


def played_under_grudge(punished: str) -> dict[str, int]:
    """Cards played by type, in the first three turns of a few battles against the Nob whose
    status punishes ``punished`` cards, while it holds that status."""
    content = punishing_pack(punished)
    played = {"skill": 0, "attack": 0, "power": 0}
    for i in range(4):
        g = Game(content, seed=40 + i, log_events=False)
        g.start_battle("gremlin_nob")
        agent = HeuristicAgent(i)
        while g.turn_number <= 3 and not g.is_waiting_for_reward:
            legal = g.legal_actions()
            if not legal:
                break
            a = agent(g, legal)
            if a.kind == "play" and g._e.s.units[1].statuses.get("grudge"):
                played[g.hand()[a.card].active.type.value] += 1
            g.apply(a)
    return played


def test_the_heuristic_reads_a_punishing_status_from_its_behaviour() -> None:
    """A status of an id no agent knows: punishing Skills, no Skill is played into it (and
    attacks are); punishing Attacks, far fewer attacks are played (some must be: only they
    win the fight)."""
    skills = played_under_grudge("skill")
    attacks = played_under_grudge("attack")
    assert skills["skill"] == 0 and skills["attack"] > 0 and attacks["skill"] > 0
    assert attacks["attack"] * 2 < skills["attack"]


def test_the_heuristic_takes_lethal_and_blocks_what_is_shown() -> None:
    g = new_game(C, 4)
    g.set_master_deck(["strike"] * 5 + ["defend"] * 5)
    g.start_battle("jaw_worm")
    s = g._e.s
    foe = s.units[1]
    foe.hp = 5  # (set by hand: a Strike kills it)
    legal = g.legal_actions()
    a = HeuristicAgent(1)(g, legal)
    assert a.kind == "play" and g.hand()[a.card].card_id == "strike"
    foe.hp = foe.max_hp
    # Chomp shows 11: with no damage to make a kill, the first card blocks
    assert foe.intent is not None and (foe.intent.damage or 0) >= 11
    a = HeuristicAgent(1)(g, g.legal_actions())
    assert a.kind == "play" and g.hand()[a.card].card_id == "defend"


def test_the_heuristic_picks_rewards_by_worth() -> None:
    from gcs.agents.deck import reward_scores

    g = paused_states()["reward"]
    scores = reward_scores(g)
    offers = [str(r) for r in g.offered_rewards]
    assert len(scores) == len(offers)
    a = HeuristicAgent(0)(g, g.legal_actions())
    if a.kind == "reward":
        assert scores[a.reward] == max(scores) > 0
    else:
        assert max(scores) <= 0


def test_the_registry_knows_the_agents_and_their_budgets() -> None:
    assert isinstance(make_policy("heuristic", 1), HeuristicAgent)
    s = make_policy("search", 1)
    assert isinstance(s, SearchAgent) and s.iters == 200 and s.ms is None
    s = make_policy("search:iters=25", 1)
    assert isinstance(s, SearchAgent) and s.iters == 25
    s = make_policy("search:ms=40", 1)
    assert isinstance(s, SearchAgent) and s.ms == 40.0
    s = make_policy("search:iters=10,worlds=4", 1)
    assert isinstance(s, SearchAgent) and (s.iters, s.worlds) == (10, 4)
    for bad in ("search:iters=0", "search:iters=x", "search:depth=3", "search:iters=1,iters=2",
                "search:ms=-1", "heuristc"):
        with pytest.raises(ValueError):
            make_policy(bad, 1)
    make_policy("greedy", 1)  # the old baseline still works


def test_simulate_with_the_agents_gives_the_same_rows_on_any_workers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gcs.cli.app import main

    out = {}
    for policy in ("heuristic", "search:iters=3,worlds=2"):
        for workers in (1, 2):
            f = tmp_path / f"{policy.replace(':', '_').replace(',', '_')}-{workers}.jsonl"
            code = main(["simulate", "-e", "gremlin_nob", "--battles", "6", "--chunk", "2",
                         "--policy", policy, "--workers", str(workers), "--out", str(f),
                         "--json"])
            assert code == 0, capsys.readouterr().err
            out[(policy, workers)] = [json.loads(x) for x in f.read_text().splitlines()]
        assert out[(policy, 1)] == out[(policy, 2)]
        assert all(row["policy"] == policy for row in out[(policy, 1)])
    capsys.readouterr()
    assert main(["simulate", "-e", "jaw_worm", "--policy", "search:iters=0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "iters=0" in err and len(err.splitlines()) == 1
    assert main(["run", "--encounters", "cultist,jaw_worm", "--policy", "search:iters=4"]) == 0
    assert "run WON" in capsys.readouterr().out


def test_the_agents_benchmark_prints_its_tables() -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "agents.py"
    done = subprocess.run([sys.executable, str(script), "--quick", "--only",
                           "speed,fights,random,fairness", "--encounters", "cultist,gremlin_nob"],
                          capture_output=True, text=True, check=True, timeout=300)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("workload") and lines[1].startswith("engine")
    assert lines[2].startswith("clone") and lines[3].startswith("determinize")
    rows = [x for x in lines if x.startswith("| ") and not x.startswith("| row")]
    # 2 encounters x 4 policies, 2 random-deck rows, 3 fairness rows x fair and cheat
    assert len(rows) == 8 + 2 + 6
    assert all(x.count("|") == 9 for x in rows)
    assert lines[-1].startswith("elapsed")


def test_the_agents_play_alike_on_this_engine_and_the_pure_source_tree() -> None:
    """The same seeds give the same actions, worlds and hints in another process (another
    hash seed) on the pure source tree: nothing depends on the engine, on object ids or on
    the order of a set."""
    import os
    import subprocess
    import sys

    from agents_fingerprint import fingerprint

    tests = Path(__file__).resolve().parent
    env = dict(os.environ, PYTHONPATH=str(tests.parent), PYTHONHASHSEED="4243")
    r = subprocess.run([sys.executable, "-P", str(tests / "agents_fingerprint.py")], cwd=tests,
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    pure = json.loads(r.stdout)
    here = fingerprint()
    assert pure["engine"] == "pure"
    assert {k: v for k, v in here.items() if k != "engine"} == {
        k: v for k, v in pure.items() if k != "engine"}


def test_the_user_agent_of_the_docs_plays(tmp_path: Path) -> None:
    """docs/agents.md's example of an agent of your own, as written there, through the
    registry (``file.py:attr``) as ``--policy`` loads it."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "agents.md").read_text()
    start = doc.index("# my_agent.py")
    f = tmp_path / "my_agent.py"
    f.write_text(doc[start:doc.index("```", start)])
    for i in range(2):
        agent = Checked(make_policy(f"{f}:Lookahead", i))
        r = play_battle(new_game(C, 60 + i), "jaw_worm", agent)
        assert r.won and agent.calls == r.decisions


def test_a_decision_tries_a_bounded_number_of_copies_however_choices_nest() -> None:
    """A card whose On Play opens a Choice five times over (a Loop): the heuristic answers
    the first two levels by trying each answer and the rest with the first, so a decision
    costs (options) x MAX_ANSWERS copies at most, not MAX_ANSWERS to the fifth."""
    from flow_support import card, start

    from gcs.agents import heuristic as H

    mill = card("mill", 0, on_play=N.Loop(5, N.Choice(CardSel("hand"), "c")))
    extra = [card(f"c{i}", 1) for i in range(6)]
    g = start(mill, *extra, deck=(DeckEntry("defend", count=2),))
    for i in range(6):
        g.add_card_to_hand(f"c{i}")
    g.add_card_to_hand("mill")
    copies = 0
    real = Game.clone

    def counting(self: Game) -> Game:
        nonlocal copies
        copies += 1
        return real(self)

    assert [c.card_id for c in g.hand()][-1] == "mill"
    Game.clone = counting  # type: ignore[method-assign]
    try:
        legal = g.legal_actions()
        a = H.HeuristicAgent(1)(g, legal)
    finally:
        Game.clone = real  # type: ignore[method-assign]
    assert a in legal
    options = len(distinct(g._e.s, legal))
    assert copies <= options * (1 + H.MAX_ANSWERS)


def test_an_option_the_content_fails_on_is_not_taken_and_nothing_crashes() -> None:
    """A card whose On Play raises FlowError (a While that never ends): tried on a copy it is
    skipped by the heuristic and worth 0 to the search; the real game is untouched."""
    from flow_support import card, start

    broken = card("broken", 0, on_play=N.While(True, N.GainGold(1), max_iterations=3))
    g = start(broken, deck=(DeckEntry("strike", count=5),))
    g.add_card_to_hand("broken")
    before = g.to_json()
    legal = g.legal_actions()
    bad = next(a for a in legal if a.kind == "play" and g.hand()[a.card].card_id == "broken")
    assert HeuristicAgent(1)(g, legal) != bad
    st = SearchAgent(1, iters=20).search(g, legal)
    i = [str(x) for x in st.options].index(str(bad))
    assert st.values[i] == 0.0 and max(st.values) > 0.0
    assert g.to_json() == before
    with pytest.raises(GameError):
        g.apply(bad)


def test_the_heuristic_hits_through_block_that_will_go() -> None:
    """Curl Up gives a Louse more block than a Strike takes off; that block goes at the
    Louse's turn start, so hitting it is still progress (counted whole, it was not: one battle
    in 2,000 never ended). Block the enemy keeps past its turn start counts whole."""
    from gcs.agents.assess import kept_block
    from gcs.enums import ArmorDecayRule

    g = new_game(C, 5)
    g.set_master_deck(["strike"] * 10)
    g.start_battle("two_louses")
    s = g._e.s
    assert all(u.statuses.get("curl_up") for u in s.units[1:])
    a = HeuristicAgent(2)(g, g.legal_actions())
    assert a.kind == "play" and a.target >= 0
    louse = s.units[1]
    louse.block = 8
    assert kept_block(g._e, louse) == 4.0  # (goes at its turn start: it counts half)
    louse.statuses["barricade"] = 1
    assert kept_block(g._e, louse) == 8
    del louse.statuses["barricade"]
    keep = Game(C, seed=5, rules=gcs.BattleRules(armor_decay=ArmorDecayRule.KEEP))
    keep.start_battle("two_louses")
    keep._e.s.units[1].block = 8
    assert kept_block(keep._e, keep._e.s.units[1]) == 8
    from gcs.sim.runner import battle_seed, policy_seed

    r = play_battle(new_game(C, battle_seed(1, 999)), "two_louses",
                    HeuristicAgent(policy_seed(1, 999)))
    assert r.won
