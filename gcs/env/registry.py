"""The registered tasks (``gymnasium.make("gcs/...")``): ids, arguments and one-line contracts.

Standard library only: the table is read by docs and tests without gymnasium;
:func:`register` (called by ``import gcs.env`` when gymnasium is installed) hands it to
gymnasium. Task arguments can be overridden: ``gymnasium.make("gcs/Fight-v0", encounter="cultist")``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ENTRY_POINT = "gcs.env.gym:GcsEnv"
VECTOR_ENTRY_POINT = "gcs.env.vector:GcsVectorEnv"
ALL = "*"  # the encounter argument that stands for every encounter of the pack (sorted)
# The v0 tasks' fights: the bundled pack's ten fights when the v0 tasks were made, in the sorted
# order ``ALL`` gave then, so a v0 episode stays the same episode as the pack grows (the
# encounters added since, bosses among them, are new tasks' business).
V0_FIGHTS = ("blue_slaver", "cultist", "gremlin_nob", "jaw_worm", "large_slime", "looter",
             "red_slaver", "small_slimes", "two_fungi_beasts", "two_louses")

# The HP an Act 1 run arrives at its elites with, in percent of max HP: the 20 quantiles
# ((i + 0.5) / 20, nearest rank) of the 191 elite arrivals of 200 two-rule runs of gcs.act
# (seeds from 1; mean 73.2%), from ``benchmarks/elite_arrival.py --policy
# benchmarks/two_rules.py:TwoRules --runs 200``: runs that walk into elites whatever their HP
# (the heuristic's runs, which avoid elites below 60% HP, arrive with a mean 83.3%; docs/env.md).
# The -v1 elite tasks draw one per episode.
ELITE_ARRIVAL_HP = (12, 18, 28, 43, 47, 61, 68, 71, 77, 80, 85, 86, 90, 92, 96, 97, 100, 100,
                    100, 100)


@dataclass(frozen=True)
class TaskSpec:
    """A registered task: its gymnasium id, what it is, and its ``GcsEnv`` arguments."""

    id: str
    summary: str
    kwargs: dict[str, Any] = field(default_factory=dict)


TASKS: tuple[TaskSpec, ...] = (
    TaskSpec("gcs/JawWorm-v0", "one fight against a Jaw Worm with the starter deck",
             {"encounter": "jaw_worm"}),
    TaskSpec("gcs/GremlinNob-v0", "one fight against the elite Gremlin Nob with the starter deck",
             {"encounter": "gremlin_nob"}),
    TaskSpec("gcs/Fight-v0", "one fight per episode against one of the ten v0 fights drawn "
             "uniformly, with the starter deck", {"encounter": V0_FIGHTS}),
    TaskSpec("gcs/FightRandomDeck-v0", "one fight per episode against one of the ten v0 fights "
             "drawn uniformly, with the starter deck plus 5 random cards of the pack",
             {"encounter": V0_FIGHTS, "deck": "random"}),
    TaskSpec("gcs/Act1-v0", "a run: the ten v0 fights (Gremlin Nob among them) in a "
             "seeded random order, HP carried over, a reward (card, upgrade, remove or skip) "
             "chosen after each win", {"encounter": V0_FIGHTS, "run": True, "shuffle": True}),
    TaskSpec("gcs/Act1Short-v0", "a run of 3 fights: Jaw Worm, Cultist and Two Louses in a "
             "seeded random order, HP carried over, rewards chosen after each win",
             {"encounter": ("jaw_worm", "cultist", "two_louses"), "run": True,
              "shuffle": True}),
    TaskSpec("gcs/Act1-v1", "Act 1 as the game plays it (A0): a seeded map of 15 floors and the "
             "boss, the path, rest or smith and the card rewards (by the game's rarity odds) "
             "chosen by the agent, HP carried over (docs/run.md)", {"act": 1, "run": True}),
    TaskSpec("gcs/Lagavulin-v0", "one fight against the elite Lagavulin with the starter deck",
             {"encounter": "lagavulin"}),
    TaskSpec("gcs/ThreeSentries-v0", "one fight against the elite 3 Sentries with the starter "
             "deck", {"encounter": "three_sentries"}),
    TaskSpec("gcs/SlimeBoss-v0", "one fight against the boss Slime Boss with the starter deck",
             {"encounter": "slime_boss"}),
    TaskSpec("gcs/TheGuardian-v0", "one fight against the boss The Guardian with the starter "
             "deck", {"encounter": "the_guardian"}),
    TaskSpec("gcs/Hexaghost-v0", "one fight against the boss Hexaghost with the starter deck",
             {"encounter": "hexaghost"}),
    TaskSpec("gcs/EliteDrafted-v0", "one fight against one of the three elites drawn "
             "uniformly, with a deck drawn as a run reaching it would: the starter deck plus 5 "
             "card rewards (one card of each taken at random) and 1 upgrade",
             {"encounter": ("gremlin_nob", "lagavulin", "three_sentries"), "deck": "drafted",
              "random_cards": 5}),
    TaskSpec("gcs/ThreeSentries-v1", "one fight against the elite 3 Sentries with the starter "
             "deck, arriving with the HP a run arrives at an elite with (one of "
             "ELITE_ARRIVAL_HP's 20 quantiles per episode)",
             {"encounter": "three_sentries", "start_hp": ELITE_ARRIVAL_HP}),
    TaskSpec("gcs/EliteDrafted-v1", "as EliteDrafted-v0 (an elite drawn uniformly, a deck drafted "
             "as a run reaching it would), arriving with the HP a run arrives at an elite with",
             {"encounter": ("gremlin_nob", "lagavulin", "three_sentries"), "deck": "drafted",
              "random_cards": 5, "start_hp": ELITE_ARRIVAL_HP}),
    TaskSpec("gcs/BossDrafted-v0", "one fight against one of the three bosses drawn uniformly, "
             "with a deck drawn as a run reaching it would: the starter deck plus 12 card "
             "rewards (2 of them an elite's) and 3 upgrades",
             {"encounter": ("hexaghost", "slime_boss", "the_guardian"), "deck": "drafted",
              "random_cards": 12}),
)


def register() -> list[str]:
    """Register every task with gymnasium (idempotent); returns their ids."""
    import gymnasium

    ids = []
    for spec in TASKS:
        if spec.id not in gymnasium.registry:
            gymnasium.register(id=spec.id, entry_point=ENTRY_POINT,
                               vector_entry_point=VECTOR_ENTRY_POINT, kwargs=dict(spec.kwargs))
        ids.append(spec.id)
    return ids
