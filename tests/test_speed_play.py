"""A play's shortcuts play the same game as the long way round.

* Legal actions (a tight loop with the plain playability check inlined) are exactly the
  candidate actions that the refusal table (``agent.action_refusal``, what ``apply`` checks) allows.
* The status shortcuts of a play: a hit that no status of its target reacts to skips the
  status entry scans, a fold skips a unit with no status, the On Play scan skips units with
  no status. A twin whose content lists every status as reacting, modifying and answering On
  Play (so every scan runs in full) plays the same game: same state and log after each decision.
* A one-hit Deal Damage on the scope's target builds no target list: a twin that runs the
  general Deal Damage (targets through ``units_of``, then one hit or the DAMAGE frame) plays
  the same game.
* The inlined helpers of a play (the fixed cost paid without ``effective_cost``, a hand card
  leaving the hand without ``detach``, a single-action On Play started without
  ``start_entry``, the discard without ``place``, an attack between units with no status
  without ``attack_damage``, a card's block without ``units_of`` and ``block_amount``): a
  twin whose plays call every helper plays the same game.
* Legal actions' inlined cost check agrees with the play gate it stands for.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

from steps_support import decks as _decks
from steps_support import lifecycle_pack as _content
from steps_support import play_pair as _play_twins

import gcs
from gcs import agent
from gcs.agent import Action
from gcs.battle import frames as K
from gcs.battle import play, refusals
from gcs.battle.combat import deal_damage, gain_block
from gcs.battle.credit import credit_block, fold_credit, label_of, of_ctx
from gcs.battle.folds import attack_damage, block_amount
from gcs.battle.hooks import hooks_possible
from gcs.battle.state import Ctx, Frame
from gcs.content.db import Content
from gcs.content.loader import BUILTIN, load_content
from gcs.enums import TargetMode
from gcs.errors import GameError
from gcs.flow import nodes as N
from gcs.interp import run as interp
from gcs.interp import unit_actions as actions
from gcs.interp.values import units_of, val
from gcs.sim.policies import RandomPolicy


def _candidates(g: gcs.Game) -> list[Action]:
    """Every play and End the refusals allow now, in legal-action order (brute force)."""
    s = g._e.s
    enemies = len(s.units) - 1
    out = []
    for i, uid in enumerate(s.hand):
        single = s.cards[uid].active.target is TargetMode.SINGLE_ENEMY
        for t in (range(enemies) if single else (-1,)):
            a = Action.play(i, t)
            if agent.action_refusal(g._e, a) is None:
                out.append(a)
    if agent.action_refusal(g._e, Action.end()) is None:
        out.append(Action.end())
    return out


def _games() -> Iterator[tuple[gcs.Game, str, int]]:
    """Games on the hook/cost/lifecycle minipack and on the bundled pack, random decks."""
    content = _content()
    rng = random.Random(7)
    for i, deck in enumerate(_decks(rng, content)):
        g = gcs.Game(content, seed=i)
        g.set_master_deck([*deck, "cheapen", "slash", "fix_cost", "more_draw"])
        yield g, ("jaw_worm", "two_dummies")[i % 2], i
    bundled = gcs.builtin_content()
    cards = sorted(bundled.cards)
    for i in range(16):
        g = gcs.Game(bundled, seed=i)
        g.set_master_deck([rng.choice(cards) for _ in range(rng.randint(5, 15))])
        yield g, sorted(bundled.encounters)[i % len(bundled.encounters)], i


def test_legal_actions_are_every_candidate_the_refusals_allow() -> None:
    seen = 0
    for g, encounter, seed in _games():
        g.start_battle(encounter)
        pol = RandomPolicy(seed)
        for _ in range(80):
            legal = g.legal_actions()
            if not legal:
                break
            if g.phase is gcs.BattlePhase.PLAYER_PHASE and not g.is_waiting:
                assert legal == _candidates(g)
                assert legal == g.clone().legal_actions()  # computed afresh (no cache)
                seen += len(legal)
            try:
                g.apply(pol(g, legal))
            except GameError:
                break
    assert seen > 1000


def _all_statuses_react(content: Content) -> Content:
    """``content`` with every status listed as modifying (at every fold stage), reacting to
    hits and to plays."""
    every = frozenset(content.statuses)
    content.modifier_statuses = every
    content.deal_statuses = content.take_statuses = content.block_statuses = every
    content.hit_statuses = every
    content.play_statuses = every
    return content


def _is_attack(node: N.DealDamage, ctx: Ctx) -> bool:
    """A hit is an attack unless its ``kind`` says thorns, or it has none and a status deals it."""
    return not ctx.status if node.kind is None else node.kind == "attack"


def _general_damage(e: gcs.engine.Engine, node: N.DealDamage, ctx: Ctx) -> None:
    """Deal Damage without the one-hit target shortcut (the code it stands for)."""
    amount = val(e, node.amount, ctx)
    hits = val(e, node.hits, ctx)
    rand = node.target.source == "random_enemy"
    targets = [] if rand else [u.uid for u in units_of(e, node.target, ctx)]
    if hits == 1 and len(targets) == 1:
        actions._hit(e, ctx, amount, targets[0], _is_attack(node, ctx))
    elif hits > 0 and (targets or rand):
        e.s.stack.append(Frame(K.DAMAGE, node, 0, [amount, targets, hits, 1 if rand else 0, 0],
                               ctx))


@contextlib.contextmanager
def _general_damage_on() -> Iterator[None]:
    fast = interp.EXEC[N.DealDamage]
    interp.EXEC[N.DealDamage] = _general_damage
    try:
        yield
    finally:
        interp.EXEC[N.DealDamage] = fast


def _twins_over_random_decks(slow_pack: Content, seed: int, battles: int, extra: list[str],
                             general: bool) -> int:
    """Random decks on every bundled encounter, played by the bundled pack and by ``slow_pack``
    (with the general Deal Damage when ``general``); the decisions played."""
    bundled = gcs.builtin_content()
    rng = random.Random(seed)
    cards = sorted(bundled.cards)
    encounters = sorted(bundled.encounters)
    decisions = 0
    for i in range(battles):
        deck = [rng.choice(cards) for _ in range(rng.randint(5, 15))] + extra
        fast, slow = gcs.Game(bundled, seed=i), gcs.Game(slow_pack, seed=i)
        for g in (fast, slow):
            g.set_master_deck(deck)
        decisions += _play_twins(fast, slow, encounters[i % len(encounters)], i, 120,
                                 _general_damage_on if general else contextlib.nullcontext)
    return decisions


def test_play_status_shortcuts_play_as_the_full_scans() -> None:
    slow_pack = _all_statuses_react(load_content(BUILTIN))
    assert slow_pack.hit_statuses != gcs.builtin_content().hit_statuses  # the twin scans more
    assert _twins_over_random_decks(slow_pack, 13, 30, [], general=False) > 400


def test_one_hit_deal_damage_on_the_target_plays_as_the_general_deal_damage() -> None:
    decisions = _twins_over_random_decks(gcs.builtin_content(), 17, 24, ["strike"] * 3, general=True)
    assert decisions > 300


def test_content_keeps_the_status_and_enemy_sets_the_play_reads() -> None:
    for content in (gcs.builtin_content(), _content({"reactor": 1})):
        replanning = {en.id for en in content.enemies.values() if en.ai.hp_rules}
        assert content.hp_rule_enemies == replanning
        by_entry = content.entry_statuses
        assert content.play_statuses == by_entry.get("on_play", frozenset())
        assert content.hit_statuses == (by_entry.get("on_attacked", frozenset())
                                        | by_entry.get("on_damage_taken", frozenset()))
    assert gcs.builtin_content().hit_statuses  # the bundled pack has reactions (Curl Up, ...)
    assert gcs.builtin_content().hp_rule_enemies  # and slimes that split at half HP


def test_play_actions_past_the_tables_are_built_once_and_apply() -> None:
    """Hand indices past the import-time tables (32 cards) come from the dict of other plays:
    the right index, one object per (card, target), and they play."""
    g = gcs.Game(gcs.builtin_content(), seed=2, rules=gcs.BattleRules(max_hand_size=60))
    g.start_battle("jaw_worm")
    for _ in range(40):
        g.add_card_to_hand("defend")
    first = {str(a): a for a in g.legal_actions()}
    assert "play 39" in first and "play 44" in first
    g.add_card_to_hand("strike")  # a change: legal actions are computed again
    again = {str(a): a for a in g.legal_actions()}
    assert all(again[k] is a for k, a in first.items() if k in again)
    assert again["play 45 @e0"].card == 45 and again["play 45 @e0"].target == 0
    g.apply(again["play 44"])
    assert len(g.hand()) == 45


def _folding_hit(e: gcs.engine.Engine, ctx: Ctx, amount: int, uid: int, attack: bool) -> None:
    """``actions._hit`` that always folds an attack through ``attack_damage``."""
    units = e.s.units
    dst = units[uid]
    if not dst.alive:
        return
    src = units[ctx.owner]
    if not attack:
        deal_damage(e, src, dst, max(0, amount), None, False, of_ctx(e, ctx) if uid else None)
        return
    inst = e.s.cards.get(ctx.src) if ctx.src >= 0 else None
    card_id = None if inst is None else inst.card_id
    if uid:  # a hit on an enemy: every fold, each modifier's share credited (battle/credit.py)
        amount, shares = fold_credit(e, amount, src, dst,
                                     label_of(e, ctx) if card_id is None else card_id)
        deal_damage(e, src, dst, amount, card_id, True, shares)
        return
    deal_damage(e, src, dst, attack_damage(e, amount, src, dst), card_id, attack=True)


def _helper_damage(e: gcs.engine.Engine, node: N.DealDamage, ctx: Ctx) -> None:
    """Deal Damage through ``val`` and the always-folding hit."""
    if node.target.source == "random_enemy":
        _general_damage(e, node, ctx)  # (its DAMAGE frame hits through ``_hit``)
        return
    amount = val(e, node.amount, ctx)
    hits = val(e, node.hits, ctx)
    targets = [u.uid for u in units_of(e, node.target, ctx)]
    if hits == 1 and len(targets) == 1:
        _folding_hit(e, ctx, amount, targets[0], _is_attack(node, ctx))
    elif hits > 0 and targets:
        e.s.stack.append(Frame(K.DAMAGE, node, 0, [amount, targets, hits, 0, 0], ctx))


def _helper_block(e: gcs.engine.Engine, node: N.GainBlock, ctx: Ctx) -> None:
    """Gain Block through ``units_of`` and ``block_amount`` (the code its shortcut stands for);
    the player's block is credited as the engine credits it, and the credit's fold must give
    what ``block_amount`` gives."""
    amount = val(e, node.amount, ctx)
    fold = not (ctx.status or node.raw)
    for u in units_of(e, node.target, ctx):
        got = block_amount(e, amount, u) if fold else amount
        if not u.uid:
            assert credit_block(e, u, amount, ctx, fold) == max(got, 0)
        gain_block(e, u, got)


@contextlib.contextmanager
def _play_helpers_on() -> Iterator[None]:
    """Plays that call every helper: hooks are always possible (the cost is paid through
    ``effective_cost``), Deal Damage and Gain Block run the helper versions above."""
    names = vars(play)  # (``hooks_possible`` as play.py imported it)
    saved = (names["hooks_possible"], interp.EXEC[N.DealDamage], interp.EXEC[N.GainBlock])
    names["hooks_possible"] = lambda e: True
    interp.EXEC[N.DealDamage] = _helper_damage
    interp.EXEC[N.GainBlock] = _helper_block
    try:
        yield
    finally:
        (names["hooks_possible"], interp.EXEC[N.DealDamage], interp.EXEC[N.GainBlock]) = saved


def test_inlined_play_helpers_play_as_the_helpers() -> None:
    bundled = gcs.builtin_content()
    rng = random.Random(23)
    names = sorted(bundled.cards)
    encounters = sorted(bundled.encounters)
    decisions = 0
    for i in range(24):
        deck = [rng.choice(names) for _ in range(rng.randint(5, 15))] + ["strike", "defend", "bash"]
        fast, slow = gcs.Game(bundled, seed=i), gcs.Game(bundled, seed=i)
        for g in (fast, slow):
            g.set_master_deck(deck)
        decisions += _play_twins(fast, slow, encounters[i % len(encounters)], i, 120,
                                 _play_helpers_on)
    assert decisions > 300


def test_playable_in_hand_agrees_with_the_play_gate() -> None:
    """Legal actions' inlined cost check (no hook possible) and the hooked one give what the
    play gate (``refusals.card_refusal``, through ``effective_cost``) says, for every hand card
    seen."""
    content = _content()
    rng = random.Random(3)
    checked = {True: 0, False: 0}
    for i, deck in enumerate(_decks(rng, content)):
        g = gcs.Game(content, seed=i)
        g.set_master_deck([*deck, "cheapen", "slash", "fix_cost", "free_now", "more_draw"])
        g.start_battle("jaw_worm")
        pol = RandomPolicy(i)
        for _ in range(60):
            legal = g.legal_actions()
            if not legal:
                break
            e = g._e
            if g.phase is gcs.BattlePhase.PLAYER_PHASE and not g.is_waiting:
                hooks = hooks_possible(e)
                for inst in g.hand():
                    assert refusals.playable_in_hand(e, inst, hooks) == (
                        refusals.card_refusal(e, inst) is None)
                    checked[hooks] += 1
            g.apply(pol(g, legal))
    assert checked[True] > 50 and checked[False] > 50
