"""The two-rule baseline of issue 29: greedy, plus "no Skills into Enrage" and "always take the
upgrade". A Gremlin-Nob-aware greedy that never drafts: the bar every learning task must leave
well below 90%.

    gcs run --act 1 --policy benchmarks/two_rules.py:TwoRules --runs 200 --seed 1

In battle it plays as ``greedy``, except that it never plays a Skill while an enemy has a
status that punishes Skills (``enrage``: Gremlin Nob). On a reward screen it takes an offered
upgrade if there is one, else the first offer. At a rest site (``run_choice``) it smiths the
first upgradable card (the act's "upgrade"), and on the map it takes the leftmost room.
"""

from __future__ import annotations

from gcs import Action, Game
from gcs.agent import CHOOSE, PLAY, REWARD
from gcs.enums import CardType
from gcs.sim.policies import GreedyPolicy

PUNISHES_SKILLS = frozenset({"enrage"})


class TwoRules:
    """greedy + no Skills into Enrage + always take the upgrade."""

    def __init__(self) -> None:
        self.greedy = GreedyPolicy()

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        if legal and legal[0].kind == REWARD:
            offers = game.offered_rewards
            for a in legal:
                if a.kind == REWARD and offers[a.reward].kind == "upgrade":
                    return a
            return legal[0]
        if any(u.stacks(st) > 0 for u in game.enemies if u.alive for st in PUNISHES_SKILLS):
            hand = game.hand()
            legal = [a for a in legal if a.kind != PLAY
                     or hand[a.card].active.type is not CardType.SKILL] or legal
        return self.greedy(game, legal)

    def run_choice(self, run: object, legal: list[Action]) -> Action:
        """Smith (answer 1) at a rest site when there is a card to upgrade; else the first."""
        phase = getattr(run, "phase", "")
        # (by its number, not its place: the env lists a rest site's answers in index order)
        smith = Action(CHOOSE, choice=(1,))
        if phase == "rest" and smith in legal:
            return smith
        first = Action(CHOOSE, choice=(0,))
        return first if first in legal else legal[0]
