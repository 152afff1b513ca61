"""``Content``: the validated, immutable database of one content pack."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from ..enums import DECAY_NONE
from ..errors import UnknownCardError, UnknownIdError
from ..flow import nodes as N
from ..flow.exprs import Var
from ..flow.nodes import Node, walk
from ..flow.program import ACT, TICK, Program, compile_all
from .defs import (
    CharacterDef,
    EncounterDef,
    EnemyDef,
    GameCard,
    MoveDef,
    RewardTable,
    StatusDef,
    WeightedMove,
)
from .roles import status_roles

ProgramKey = str

# The actions of a plain intent (``Content.plain_intents``), each ``(kind, literal, var, status)``:
# the amount is ``literal`` unless ``var`` names the move's value it reads ("damage", "hits" or
# "block"); ``status`` is the applied status.
PLAIN_HIT: Final = 0  # one hit on the player (DealDamage, target or player, hits 1)
PLAIN_BLOCK: Final = 1  # block for the enemy itself (GainBlock, self)
PLAIN_STATUS_SELF: Final = 2  # a status on the enemy itself (ApplyStatus, self)
PLAIN_STATUS_PLAYER: Final = 3  # a status on the player (ApplyStatus, target or player)
PlainAct = tuple[int, int, str, str]


# One draw of a weighted table: its total weight and, per entry in table order, the
# cumulative weight up to it and its move (the entry drawn is the first whose cumulative
# weight exceeds the number drawn below the total).
PlainDraw = tuple[int, tuple[tuple[int, str], ...]]


class PlainTable(NamedTuple):
    """A plain weighted table (``Content.plain_weight_totals``) ready to draw from: for each
    move with a repeat limit, that limit and the move's entry index; the draw leaving out
    entry ``i`` at ``draws[i]`` (that entry blocked), the draw over the whole table last; for
    each entry with a ``fallback``, the draw of its re-pick (the entry, blocked, stays in the
    whole table's draw)."""

    limits: dict[str, tuple[int, int]]
    draws: tuple[PlainDraw, ...]
    fallbacks: dict[str, PlainDraw]


def _plain_table(weighted: tuple[WeightedMove, ...]) -> PlainTable:
    def draw(skip: int) -> PlainDraw:
        cum = 0
        rows = []
        for i, w in enumerate(weighted):
            if i != skip:
                cum += w.weight
                rows.append((cum, w.move))
        return cum, tuple(rows)

    def fallback(w: WeightedMove) -> PlainDraw:
        cum = 0
        rows = []
        for move, weight in w.fallback:
            cum += weight
            rows.append((cum, move))
        return cum, tuple(rows)

    limits = {w.move: (w.max_in_row, i) for i, w in enumerate(weighted) if w.max_in_row}
    fallbacks = {w.move: fallback(w) for w in weighted if w.fallback and w.max_in_row}
    return PlainTable(limits, tuple(draw(i) for i in range(len(weighted) + 1)), fallbacks)


class PlainIntent(NamedTuple):
    """An enemy move whose behaviour is plain (see ``Content.plain_intents``): the engine steps
    the interpreter counts for it inline, whether it reads the move's damage or block, its
    actions in order, and whether its root is a composite (its ENTRY frame's resume re-reads
    the battle end)."""

    steps: int
    reads_damage: bool
    reads_block: bool
    acts: tuple[PlainAct, ...]
    entry: bool


class RewardDraw(NamedTuple):
    """A reward table's pool as card choices draw from it: the rarities present, sorted, with
    their cards (``Content.reward_pool``'s groups) and their table weights in the same order,
    and whether the table gives any rarity a nonzero weight."""

    rarities: tuple[str, ...]
    groups: tuple[tuple[GameCard, ...], ...]
    weights: tuple[int, ...]
    any_weight: bool


class Content:
    """A content pack: definitions by id plus the numbered behaviour programs frames refer to."""

    def __init__(
        self,
        *,
        pack_id: str = "custom",
        cards: Iterable[GameCard] = (),
        statuses: Iterable[StatusDef] = (),
        enemies: Iterable[EnemyDef] = (),
        encounters: Iterable[EncounterDef] = (),
        characters: Iterable[CharacterDef] = (),
        reward_tables: Iterable[RewardTable] = (),
        graphs: Mapping[str, Node] | None = None,
        digest: str = "",
    ) -> None:
        self.pack_id = pack_id
        self.digest = digest
        self.cards: Mapping[str, GameCard] = MappingProxyType({c.id: c for c in cards})
        self.statuses: Mapping[str, StatusDef] = MappingProxyType({s.id: s for s in statuses})
        self.enemies: Mapping[str, EnemyDef] = MappingProxyType({e.id: e for e in enemies})
        self.encounters: Mapping[str, EncounterDef] = MappingProxyType(
            {e.id: e for e in encounters}
        )
        self.characters: Mapping[str, CharacterDef] = MappingProxyType(
            {c.id: c for c in characters}
        )
        self.reward_tables: Mapping[str, RewardTable] = MappingProxyType(
            {r.id: r for r in reward_tables}
        )
        self.graphs: Mapping[str, Node] = MappingProxyType(dict(graphs or {}))
        # each status's roles (gcs/content/roles.py), by id
        self.status_roles: dict[str, int] = {st.id: status_roles(st) for st in self.statuses.values()}
        # Fast paths: which statuses carry hooks, and whether any card does.
        self.hooked_statuses: frozenset[str] = frozenset(
            s.id for s in self.statuses.values() if s.hooks)
        self.card_hooks: bool = any(
            c.hooks or (c.upgrade is not None and c.upgrade.hooks) for c in self.cards.values())
        # ids of the statuses that change damage or block (the folds skip the others)
        self.modifier_statuses: frozenset[str] = frozenset(
            st.id for st in self.statuses.values() if st.modifiers)
        # the same per fold stage: a unit holding none of a stage's ids folds nothing there
        # (say, Strength is no ``take`` modifier: a hit on an enemy with Strength folds nothing)
        self.deal_statuses: frozenset[str] = self._stage_statuses("deal")
        self.take_statuses: frozenset[str] = self._stage_statuses("take")
        self.block_statuses: frozenset[str] = self._stage_statuses("block")
        # (enemy id, move id) -> the move its ``next`` plans after it (empty: no AI reads it)
        self.next_moves: dict[tuple[str, str], str] = {
            (en.id, m.id): m.next for en in self.enemies.values() for m in en.moves
            if m.next is not None}
        # ids of the enemies whose AI has HP rules (a hit on any other re-plans nothing)
        self.hp_rule_enemies: frozenset[str] = frozenset(
            en.id for en in self.enemies.values() if en.ai.hp_rules)
        # enemy id -> the total weight of its weighted table, for the plain tables: a nonempty
        # table where no entry has a once/after/before condition and no move is listed twice
        # (the pick then reads only the repeat limit, and fallback, of the last planned move)
        self.plain_weight_totals: dict[str, int] = {
            en.id: sum(w.weight for w in en.ai.weighted) for en in self.enemies.values()
            if en.ai.weighted
            and len({w.move for w in en.ai.weighted}) == len(en.ai.weighted)
            and not any(w.once or w.after is not None or w.before is not None
                        for w in en.ai.weighted)}
        # ... and each plain table as its draws (see ``PlainTable``)
        self.plain_tables: dict[str, PlainTable] = {
            eid: _plain_table(self.enemies[eid].ai.weighted) for eid in self.plain_weight_totals}
        # ids of the control statuses (skip the holder's turn) and of those that keep its block
        # (the agents' assessment reads the latter)
        self.skip_statuses: frozenset[str] = frozenset(
            st.id for st in self.statuses.values() if st.skip_turn)
        self.block_keeping_statuses: frozenset[str] = frozenset(
            st.id for st in self.statuses.values() if st.keeps_block)
        # ids of the statuses that negate debuffs applied to their holder (Artifact)
        self.negating_statuses: frozenset[str] = frozenset(
            st.id for st in self.statuses.values() if st.negates_debuffs)
        # ids of the hidden statuses (views and observations leave them out)
        self.hidden_statuses: frozenset[str] = frozenset(
            st.id for st in self.statuses.values() if st.hidden)
        # decay moment -> ids of the statuses that decay then (decay not NONE)
        by_moment: dict[str, set[str]] = {}
        for st in self.statuses.values():
            if st.decay is not DECAY_NONE:
                by_moment.setdefault(st.decay_at, set()).add(st.id)
        self.decaying_statuses: dict[str, frozenset[str]] = {
            k: frozenset(v) for k, v in by_moment.items()}
        # (enemy id, move id) -> move, for the enemy phase and intents. This map and
        # ``entry_statuses`` are the engine's own lookup tables, read on every turn: plain dicts
        # (a compiled read is one dict lookup, not two through a proxy), built here, never changed.
        self.moves: dict[tuple[str, str], MoveDef] = (
            {(en.id, m.id): m for en in self.enemies.values() for m in en.moves})
        # entry name -> ids of the statuses that have a branch for it
        by_entry: dict[str, set[str]] = {}
        for st in self.statuses.values():
            for name in st.entries:
                by_entry.setdefault(name, set()).add(st.id)
        self.entry_statuses: dict[str, frozenset[str]] = (
            {k: frozenset(v) for k, v in by_entry.items()})
        # the same sets the play and the hit read, as plain attributes (no mapping lookup)
        self.play_statuses: frozenset[str] = frozenset(by_entry.get("on_play", ()))
        self.hit_statuses: frozenset[str] = frozenset(
            by_entry.get("on_attacked", set()) | by_entry.get("on_damage_taken", set()))
        # the statuses that react to their holder gaining block (Juggernaut)
        self.block_gained_statuses: frozenset[str] = frozenset(
            by_entry.get("on_block_gained", ()))
        self._pools: dict[str, tuple[RewardTable, dict[str, tuple[GameCard, ...]]]] = {}
        self._draws: dict[str, tuple[RewardTable, RewardDraw]] = {}
        # Every graph gets a program key; every node a (key, index) reference for saves.
        self._programs: dict[ProgramKey, list[Node]] = {}
        self._refs: dict[int, tuple[ProgramKey, int]] = {}
        self._roots: list[Node] = []
        for card in self.cards.values():
            for variant in (card, card.upgrade):
                if variant is None:
                    continue
                tag = "+" if variant.is_upgraded else ""
                for entry in ("on_play", "on_drawn", "on_discard", "on_exhaust",
                              "on_turn_start", "on_turn_end"):
                    self._register(f"card:{card.id}{tag}:{entry}", getattr(variant, entry))
        for status in self.statuses.values():
            for name, node in status.entries.items():
                self._register(f"status:{status.id}:{name}", node)
        for enemy in self.enemies.values():
            for move in enemy.moves:
                self._register(f"enemy:{enemy.id}:{move.id}", move.behaviour)
        for name, node in self.graphs.items():
            self._register(f"graph:{name}", node)
        # Every behaviour compiled once (flags, and flat ops for the straight ones), by the
        # identity of its root node: what an ENTRY frame or ``start_entry`` runs (read-only; a
        # plain dict because the interpreter looks a program up for every entry it starts).
        self.programs: dict[int, Program] = compile_all(self.graphs, self._roots)
        # the statuses whose branches a hit on the player may queue (on_attacked,
        # on_damage_taken, on_death): a player holding none of them queues nothing when hit
        self.hit_or_death_statuses: frozenset[str] = (
            self.hit_statuses | frozenset(by_entry.get("on_death", ())))
        # enemy moves whose behaviour is plain, by the identity of its root node (as
        # ``programs``): a straight program with no branch, every action one of the
        # ``PLAIN_*`` kinds, and none that can queue work while the player holds no
        # ``hit_or_death_statuses`` (an applied status has no On Apply branch, and one on the
        # player is not in that set). EnemyPhase step 3 runs such a move directly.
        self.plain_intents: dict[int, PlainIntent] = {}
        for enemy in self.enemies.values():
            for move in enemy.moves:
                if move.behaviour is not None:
                    plan = self._plain_intent(move.behaviour)
                    if plan is not None:
                        self.plain_intents[id(move.behaviour)] = plan

    def _stage_statuses(self, stage: str) -> frozenset[str]:
        """The ids of the statuses with a modifier at fold ``stage`` (deal, take or block)."""
        return frozenset(st.id for st in self.statuses.values()
                         if any(m.stage == stage for m in st.modifiers))

    def _register(self, key: ProgramKey, root: Node | None) -> None:
        if root is None:
            return
        nodes = walk(root)
        self._roots.append(root)
        self._programs[key] = nodes
        for i, n in enumerate(nodes):
            self._refs.setdefault(id(n), (key, i))

    def _plain_intent(self, root: Node) -> PlainIntent | None:
        """The plain intent of a move's behaviour (see ``plain_intents``), or None."""
        prog = self.programs.get(id(root))
        if prog is None or not prog.ops:
            return None
        # run inline, a composite root counts a step before its ops and one after them (see
        # ``interp.start_entry``), the ops their ticks; a single action counts none
        steps = 2 if prog.needs_entry else 0
        acts: list[PlainAct] = []
        for code, a, _, _ in prog.ops:
            if code == TICK:
                steps += a
                continue
            act = self._plain_act(a) if code == ACT else None
            if act is None:
                return None
            acts.append(act)
        reads = {var for _, _, var, _ in acts}
        return PlainIntent(steps, "damage" in reads, "block" in reads, tuple(acts),
                           prog.needs_entry)

    def _plain_act(self, node: Node) -> PlainAct | None:
        """One action of a plain intent as ``(kind, literal, var, status)``, or None."""
        v: object
        if isinstance(node, N.DealDamage):
            if (node.target.source not in ("target", "player") or type(node.hits) is not int
                    or node.hits != 1):
                return None
            kind, v, sid = PLAIN_HIT, node.amount, ""
        elif isinstance(node, N.GainBlock):
            if node.target.source != "self":
                return None
            kind, v, sid = PLAIN_BLOCK, node.amount, ""
        elif isinstance(node, N.ApplyStatus):
            sid = node.status
            st = self.statuses.get(sid)
            if st is None or "on_apply" in st.entries:
                return None
            source = node.target.source
            if source == "self":
                kind = PLAIN_STATUS_SELF
            elif source in ("target", "player") and sid not in self.hit_or_death_statuses:
                kind = PLAIN_STATUS_PLAYER
            else:
                return None
            v = node.amount
        else:
            return None
        if type(v) is int:
            return kind, v, "", sid
        if isinstance(v, Var) and v.name in ("damage", "hits", "block"):
            return kind, 0, v.name, sid
        return None

    def program(self, root: Node) -> Program | None:
        """The compiled program of a behaviour's root node (None for a node that is not one)."""
        return self.programs.get(id(root))

    def reward_pool(self, table: RewardTable) -> Mapping[str, tuple[GameCard, ...]]:
        """A reward table's pool grouped by rarity value (pool order kept in a group,
        duplicates and unknown ids dropped); computed once per table."""
        got = self._pools.get(table.id)
        if got is None or got[0] is not table:
            groups: dict[str, list[GameCard]] = {}
            seen: set[str] = set()
            for cid in table.pool:
                if cid in self.cards and cid not in seen:
                    seen.add(cid)
                    card = self.cards[cid]
                    groups.setdefault(card.rarity.value, []).append(card)
            got = self._pools[table.id] = (table, {r: tuple(cs) for r, cs in groups.items()})
        return got[1]

    def reward_draw(self, table: RewardTable) -> RewardDraw:
        """``reward_pool`` sorted by rarity with the table's weights alongside; computed once
        per table."""
        got = self._draws.get(table.id)
        if got is None or got[0] is not table:
            pool = self.reward_pool(table)
            rarities = tuple(sorted(pool))
            weights = table.rarity_weights
            draw = RewardDraw(rarities, tuple(pool[r] for r in rarities),
                              tuple(weights.get(r, 0) for r in rarities), any(weights.values()))
            got = self._draws[table.id] = (table, draw)
        return got[1]

    # ------------------------------------------------------------ lookups
    def card(self, card_id: str) -> GameCard:
        """The card definition ``card_id``; UnknownCardError if the content lacks it."""
        try:
            return self.cards[card_id]
        except KeyError:
            raise UnknownCardError(f"unknown card id {card_id!r} in pack {self.pack_id!r}") from None

    def status(self, status_id: str) -> StatusDef:
        """The status definition ``status_id``; UnknownIdError if the content lacks it."""
        try:
            return self.statuses[status_id]
        except KeyError:
            raise UnknownIdError(f"unknown status id {status_id!r}") from None

    def enemy(self, enemy_id: str) -> EnemyDef:
        """The enemy definition ``enemy_id``; UnknownIdError if the content lacks it."""
        try:
            return self.enemies[enemy_id]
        except KeyError:
            raise UnknownIdError(f"unknown enemy id {enemy_id!r}") from None

    def encounter(self, encounter_id: str) -> EncounterDef:
        """The encounter ``encounter_id``; UnknownIdError if the content lacks it."""
        try:
            return self.encounters[encounter_id]
        except KeyError:
            raise UnknownIdError(f"unknown encounter id {encounter_id!r}") from None

    def character(self, character_id: str) -> CharacterDef:
        """The character ``character_id``; UnknownIdError if the content lacks it."""
        try:
            return self.characters[character_id]
        except KeyError:
            raise UnknownIdError(f"unknown character id {character_id!r}") from None

    def node_ref(self, node: Node) -> tuple[ProgramKey, int]:
        """The saveable reference of a node (program key, pre-order index)."""
        return self._refs[id(node)]

    def node_at(self, key: ProgramKey, index: int) -> Node:
        """The node a saved reference points at."""
        try:
            return self._programs[key][index]
        except (KeyError, IndexError):
            raise UnknownIdError(f"no node {index} in program {key!r}") from None

    # ------------------------------------------------------------ copies
    # (a content pickles as its digest and definitions: the reducer gcs/content/pickled.py
    # registers with copyreg, which the loader imports)

    def __copy__(self) -> Content:
        """A distinct content built from the same definitions (its own lookup tables)."""
        return Content(pack_id=self.pack_id, cards=tuple(self.cards.values()),
                       statuses=tuple(self.statuses.values()),
                       enemies=tuple(self.enemies.values()),
                       encounters=tuple(self.encounters.values()),
                       characters=tuple(self.characters.values()),
                       reward_tables=tuple(self.reward_tables.values()),
                       graphs=dict(self.graphs), digest=self.digest)

    def __deepcopy__(self, memo: dict[int, object]) -> Content:
        return self  # the definitions are immutable: a deep copy of a game or env shares them

    def __repr__(self) -> str:
        return (
            f"Content({self.pack_id!r}: {len(self.cards)} cards, {len(self.statuses)} statuses, "
            f"{len(self.enemies)} enemies, {len(self.encounters)} encounters)"
        )
