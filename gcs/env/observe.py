"""The observation encoder: a fixed-layout ``Dict`` of small numpy arrays (see docs/env.md).

Only what the player may see is read, through the public ``Game`` API: units, intents, the
hand, the *contents* of the piles as counts per card (never their order), the master deck,
the open Choice and the offered rewards. Card ids are integers of a fixed vocabulary of the
pack (``0`` = empty slot, ``1 + i`` = the ``i``-th card id in sorted order); numbers are scaled
by documented constants and clipped to ``[-LIMIT, LIMIT]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..enums import CardType, IntentKind, Keyword, TargetMode
from ._extra import missing_gym_extra
from .actions import MAX_CHOICES, MAX_ENEMIES, MAX_HAND, ActionLayout

try:
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # the gym extra is not installed
    raise missing_gym_extra(exc) from exc

if TYPE_CHECKING:
    from ..battle.state import CardInstance, MasterEntry, Unit
    from ..content.db import Content
    from ..game import Game

Array = np.ndarray[Any, Any]

LIMIT = 4.0
MAX_CANDIDATES = 16
CARD_TYPES = list(CardType)
INTENT_KINDS = list(IntentKind)
_KIND_INDEX = {k: i for i, k in enumerate(INTENT_KINDS)}
KEYWORDS = [Keyword.INNATE, Keyword.RETAIN, Keyword.ETHEREAL, Keyword.EXHAUST, Keyword.UNPLAYABLE]
# card numbers shown as features, with their scale
CARD_NUMBERS = (("damage", 20.0), ("hits", 5.0), ("block", 20.0), ("cards", 5.0),
                ("energy", 3.0), ("strength", 5.0), ("vulnerable", 5.0), ("weak", 5.0))

# the columns of a card row (hand and choice candidates)
CARD_FEATURES = (
    ["present", "upgraded", "cost", "x_cost", "playable"]
    + [f"type_{t.value}" for t in CARD_TYPES]
    + ["single_enemy", "all_enemies"]
    + [f"kw_{k.value}" for k in KEYWORDS]
    + [name for name, _ in CARD_NUMBERS]
    + ["is_unit", "unit_slot"]
)
_STATIC0 = 3  # columns from x_cost on (except playable) depend only on the card definition
_PLAYABLE = 4
_IS_UNIT = len(CARD_FEATURES) - 2

STATUS_FEATURES = (
    "hp", "max_hp", "block", "energy", "turn", "hand_size", "draw_size", "discard_size",
    "exhaust_size", "deck_size", "gold", "floor", "is_run", "choice_open", "choice_min",
    "choice_max", "reward_open", "incoming",
)
ENEMY_FEATURES = (
    ["present", "alive", "hp", "max_hp", "block", "intent_damage", "intent_hits",
     "intent_total", "intent_block"]
    + [f"intent_{k.value}" for k in INTENT_KINDS]
)
PILES = ("draw", "discard", "exhaust")
DECK_ROWS = ("count", "upgraded")
REWARD_ROWS = ("card", "upgrade", "remove")


class Vocab:
    """The pack's fixed vocabularies: cards, statuses and enemies (sorted ids; 0 = none)."""

    def __init__(self, content: Content) -> None:
        self.cards = sorted(content.cards)
        self.card_id = {c: i + 1 for i, c in enumerate(self.cards)}
        self.statuses = sorted(set(content.statuses) - content.hidden_statuses)
        self.status_index = {s: i for i, s in enumerate(self.statuses)}
        self.enemies = sorted(content.enemies)
        self.enemy_id = {e: i + 1 for i, e in enumerate(self.enemies)}


def _clip(x: float) -> float:
    return LIMIT if x > LIMIT else -LIMIT if x < -LIMIT else x


def _put_counts(out: Array, counts: dict[int, int]) -> None:
    """Counts per card, scaled by 1/5 and clipped, into a zeroed row."""
    if counts:
        idx = list(counts)
        out[idx] = [min(LIMIT, c * 0.2) for c in counts.values()]


class Observer:
    """Writes the observation of a game into preallocated arrays (one row per game)."""

    def __init__(self, content: Content, layout: ActionLayout, *, max_turns: int,
                 energy_per_turn: int = 3) -> None:
        self.vocab = v = Vocab(content)
        self.layout = layout
        self.max_turns = max_turns
        self.energy_scale = float(max(1, energy_per_turn))
        nc, ns = len(v.cards), len(v.statuses)
        lim = LIMIT
        f32 = np.float32
        self.parts: dict[str, spaces.Space[Any]] = {
            "status": spaces.Box(-lim, lim, (len(STATUS_FEATURES),), f32),
            "player_statuses": spaces.Box(-lim, lim, (ns,), f32),
            "enemy_ids": spaces.MultiDiscrete([len(v.enemies) + 1] * MAX_ENEMIES),
            "enemies": spaces.Box(-lim, lim, (MAX_ENEMIES, len(ENEMY_FEATURES)), f32),
            "enemy_statuses": spaces.Box(-lim, lim, (MAX_ENEMIES, ns), f32),
            "hand_ids": spaces.MultiDiscrete([nc + 1] * MAX_HAND),
            "hand": spaces.Box(-lim, lim, (MAX_HAND, len(CARD_FEATURES)), f32),
            "piles": spaces.Box(0.0, lim, (len(PILES), nc), f32),
            "deck": spaces.Box(0.0, lim, (len(DECK_ROWS), nc), f32),
            "choice_ids": spaces.MultiDiscrete([nc + 1] * MAX_CANDIDATES),
            "choice": spaces.Box(-lim, lim, (MAX_CANDIDATES, len(CARD_FEATURES)), f32),
            "choice_answers": spaces.Box(0, 1, (MAX_CHOICES, MAX_CANDIDATES), np.int8),
            "rewards": spaces.Box(0.0, 1.0, (len(REWARD_ROWS), nc), f32),
            "action_mask": spaces.Box(0, 1, (layout.n,), np.int8),
        }
        self.space = spaces.Dict(self.parts)
        self._static: dict[tuple[str, bool], Array] = {}
        for cid in v.cards:
            card = content.cards[cid]
            for up in (False, True):
                variant = card.upgrade if up and card.upgrade is not None else card
                row = np.zeros(len(CARD_FEATURES), dtype=np.float32)
                row[0] = 1.0
                row[1] = 1.0 if variant.is_upgraded else 0.0
                row[2] = _clip(variant.cost / 3.0)
                row[3] = 1.0 if variant.x_cost else 0.0
                j = 5
                row[j + CARD_TYPES.index(variant.type)] = 1.0
                j += len(CARD_TYPES)
                row[j] = 1.0 if variant.target is TargetMode.SINGLE_ENEMY else 0.0
                row[j + 1] = 1.0 if variant.target is TargetMode.ALL_ENEMIES else 0.0
                j += 2
                for kw in KEYWORDS:
                    row[j] = 1.0 if variant.has(kw) else 0.0
                    j += 1
                for name, scale in CARD_NUMBERS:
                    row[j] = _clip(variant.numbers.get(name, 0) / scale)
                    j += 1
                self._static[cid, up] = row
        # the flat layout: every part in order; id parts one-hot over their vocabulary
        self.flat_size = 0
        for part in self.parts.values():
            if isinstance(part, spaces.MultiDiscrete):
                self.flat_size += int(part.nvec.sum())
            else:
                assert part.shape is not None
                self.flat_size += int(np.prod(part.shape))
        self.flat_space = spaces.Box(-lim, lim, (self.flat_size,), f32)

    def buffers(self, n: int) -> dict[str, Array]:
        """Zeroed arrays for ``n`` games: each part with a leading batch axis."""
        out: dict[str, Array] = {}
        for key, part in self.parts.items():
            assert part.shape is not None and part.dtype is not None
            out[key] = np.zeros((n, *part.shape), dtype=part.dtype)
        return out

    # ------------------------------------------------------------ encoding
    def write(self, game: Game, slots: dict[int, Any], out: dict[str, Array], row: int, *,
              floor: float, is_run: bool) -> None:
        """Write the observation of ``game`` into row ``row`` of ``out`` (every part rewritten).

        ``slots`` is the legal mapping from :meth:`ActionLayout.slots`; ``floor`` the fraction
        of the episode's battles already won."""
        for arr in out.values():
            arr[row] = 0
        st = [0.0] * len(STATUS_FEATURES)
        st[11] = floor
        st[12] = 1.0 if is_run else 0.0
        if slots:
            out["action_mask"][row, list(slots)] = 1
        if not game.is_battle_active:
            out["status"][row] = st
            return
        v = self.vocab
        lay = self.layout
        player = game.player
        assert player is not None
        enemies = game.enemies
        hand = game.hand()
        draw = game.draw_pile()
        discard = game.discard_pile()
        exhaust = game.exhaust_pile()
        deck = game.get_master_deck()
        max_hp = max(1, player.max_hp)
        st[0] = player.hp / max_hp
        st[1] = _clip(player.max_hp / 100.0)
        st[2] = _clip(player.block / 50.0)
        st[3] = _clip(game.energy / self.energy_scale)
        st[4] = min(1.0, game.turn_number / self.max_turns)
        st[5] = len(hand) / MAX_HAND
        st[6] = _clip(len(draw) / 30.0)
        st[7] = _clip(len(discard) / 30.0)
        st[8] = _clip(len(exhaust) / 30.0)
        st[9] = _clip(len(deck) / 30.0)
        st[10] = _clip(game.gold / 300.0)
        if player.statuses:
            out["player_statuses"][row] = self._statuses(player)
        # enemies and their intents
        incoming = 0
        eids, ens, ests = out["enemy_ids"][row], out["enemies"][row], out["enemy_statuses"][row]
        n_kinds = len(INTENT_KINDS)
        for t, u in enumerate(enemies[:MAX_ENEMIES]):
            eids[t] = v.enemy_id.get(u.def_id, 0)
            e = [0.0] * (9 + n_kinds)
            e[0] = 1.0
            if u.alive:
                e[1] = 1.0
                e[2] = u.hp / max(1, u.max_hp)
            e[3] = _clip(u.max_hp / 100.0)
            e[4] = _clip(u.block / 50.0)
            intents = u.pending_intents
            if intents:
                it = intents[0]
                dmg = it.damage or 0
                total = sum((i.damage or 0) * i.hits for i in intents)
                incoming += total
                e[5] = _clip(dmg / 30.0)
                e[6] = _clip(it.hits / 5.0) if it.damage else 0.0
                e[7] = _clip(total / max_hp)
                e[8] = _clip((it.block or 0) / 30.0)
                e[9 + _KIND_INDEX[it.kind]] = 1.0
            ens[t] = e
            if u.statuses:
                ests[t] = self._statuses(u)
        st[17] = _clip(incoming / max_hp)
        # the hand, with which cards can be played now
        play0, choice0 = lay.play0, lay.choice0
        playable = {(k - play0) // MAX_ENEMIES for k in slots if play0 <= k < choice0}
        card_id = v.card_id
        hids, hf = out["hand_ids"][row], out["hand"][row]
        for h, inst in enumerate(hand[:MAX_HAND]):
            hids[h] = card_id[inst.card_id]
            self._card(game, inst, hf[h])
            if h in playable:
                hf[h, _PLAYABLE] = 1.0
        # piles and the master deck as counts per card
        piles = out["piles"][row]
        for p, pile in enumerate((draw, discard, exhaust)):
            if pile:
                counts: dict[int, int] = {}
                for inst in pile:
                    i = card_id[inst.card_id] - 1
                    counts[i] = counts.get(i, 0) + 1
                _put_counts(piles[p], counts)
        self._deck(deck, out["deck"][row])
        # the open Choice: candidates and which candidates each answer slot picks
        pc = game.pending_choice
        if pc is not None:
            st[13] = 1.0
            st[14] = _clip(pc.min / 5.0)
            st[15] = _clip(pc.max / 5.0)
            cids, cf = out["choice_ids"][row], out["choice"][row]
            ans = out["choice_answers"][row]
            for i, obj in enumerate(pc.candidates[:MAX_CANDIDATES]):
                if hasattr(obj, "card_id"):
                    cids[i] = v.card_id[obj.card_id]
                    self._card(game, obj, cf[i])
                else:
                    cf[i, 0] = 1.0
                    cf[i, _IS_UNIT] = 1.0
                    cf[i, _IS_UNIT + 1] = obj.uid / MAX_ENEMIES
            for k, a in slots.items():
                for i in a.choice:
                    if i < MAX_CANDIDATES:
                        ans[k - choice0, i] = 1
        # the offered rewards, aligned with the reward actions
        if game.is_waiting_for_reward:
            st[16] = 1.0
            rw = out["rewards"][row]
            width = lay.upgrade0 - lay.card0
            for k in slots:
                if lay.card0 <= k < lay.skip:
                    block, c = divmod(k - lay.card0, width)
                    rw[block, c] = 1.0
        out["status"][row] = st

    def _deck(self, deck: list[MasterEntry], out: Array) -> None:
        card_id = self.vocab.card_id
        counts: dict[int, int] = {}
        ups: dict[int, int] = {}
        for m in deck:
            i = card_id[m.card_id] - 1
            counts[i] = counts.get(i, 0) + 1
            if m.upgraded:
                ups[i] = ups.get(i, 0) + 1
        _put_counts(out[0], counts)
        _put_counts(out[1], ups)

    def _statuses(self, u: Unit) -> list[float]:
        idx = self.vocab.status_index
        vals = [0.0] * len(idx)
        for sid, n in u.statuses.items():
            i = idx.get(sid)
            if i is not None:
                vals[i] = _clip(n / 10.0)
        return vals

    def _card(self, game: Game, inst: CardInstance, out: Array) -> None:
        out[:] = self._static[inst.card_id, inst.upgraded]
        out[2] = _clip(game.get_effective_energy_cost(inst) / 3.0)

    def flatten(self, obs: dict[str, Array]) -> Array:
        """The flat float32 vector of an observation (id parts one-hot, in part order)."""
        pieces: list[Array] = []
        for key, part in self.parts.items():
            x = obs[key]
            if isinstance(part, spaces.MultiDiscrete):
                for n, val in zip(part.nvec.tolist(), x.tolist(), strict=True):
                    one = np.zeros(n, dtype=np.float32)
                    one[val] = 1.0
                    pieces.append(one)
            else:
                pieces.append(x.astype(np.float32, copy=False).reshape(-1))
        return np.concatenate(pieces)
