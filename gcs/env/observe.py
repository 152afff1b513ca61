"""The observation encoder: a fixed-layout ``Dict`` of small numpy arrays (see docs/env.md).

The default observation holds only what the player may see: units, intents, the hand, the
*contents* of the piles as counts per card (never their order), the master deck, the open
Choice and the offered rewards; the ``information`` and ``privileged`` options add parts
(gcs/env/observe_extra.py). Card ids are integers of a fixed vocabulary of the
pack (``0`` = empty slot, ``1 + i`` = the ``i``-th card id in sorted order); numbers are scaled
by documented constants and clipped to ``[-LIMIT, LIMIT]``.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from ..battle.hooks import effective_cost, hooks_possible
from ..battle.state import CHOICE, CardInstance
from ..enums import CardType, IntentKind, Keyword, TargetMode
from ._extra import missing_gym_extra
from .actions import MAX_CHOICES, MAX_ENEMIES, MAX_HAND, ActionLayout
from .observe_extra import DEFAULT, PRIVILEGED, RUN_FEATURES, extra_parts, write_extra

try:
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # the gym extra is not installed
    raise missing_gym_extra(exc) from exc

if TYPE_CHECKING:
    from ..content.db import Content
    from ..game import Game
    from .enemies import EnemySlots

Array = np.ndarray[Any, Any]

LIMIT = 4.0
MAX_CANDIDATES = 16
CARD_TYPES = list(CardType)
INTENT_KINDS = list(IntentKind)
_KIND_INDEX = {k: i for i, k in enumerate(INTENT_KINDS)}
_RARE = (9, 10, 11, 12)  # the parts choice_ids, choice, choice_answers and rewards
_CODES = {"<f4": "f", "<i8": "q", "|i1": "b"}  # numpy dtype -> array.array type code
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


class Observer:
    """Writes the observation of a game into preallocated arrays (one row per game).

    ``observation``: ``"default"`` (what the player sees now), ``"information"`` (also the
    draw-pile places the player knows and this turn's plays) or ``"privileged"`` (also the
    whole draw pile in draw order: not the player's information, for teacher-student
    training); see docs/env.md."""

    def __init__(self, content: Content, layout: ActionLayout, *, max_turns: int,
                 energy_per_turn: int = 3, observation: str = DEFAULT,
                 act: bool = False) -> None:
        self.observation = observation
        self.act = act
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
        if observation != DEFAULT:
            self.parts.update(extra_parts(nc, observation == PRIVILEGED))
        if act:  # an act task's run decisions (last: the other parts keep their places)
            self.parts["run"] = spaces.Box(0.0, lim, (len(RUN_FEATURES),), f32)
        self.space = spaces.Dict(self.parts)
        # the static card rows by ``2 * card id + upgraded`` (rows 0 and 1: no card)
        self._table = np.zeros((2 * (nc + 1), len(CARD_FEATURES)), dtype=np.float32)
        for vid, cid in enumerate(v.cards, 1):
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
                self._table[2 * vid + up] = row
        self._rows = [_stored(r) for r in self._table]  # the same rows as array.array
        # each part's size, its array.array type code and a zeroed row of it
        self._sizes: list[int] = []
        self._codes: list[str] = []
        for part in self.parts.values():
            assert part.shape is not None and part.dtype is not None
            self._sizes.append(int(np.prod(part.shape)))
            self._codes.append(_CODES[np.dtype(part.dtype).str])
        self._zero_rows = [array(c, bytes(n * array(c).itemsize))
                           for c, n in zip(self._codes, self._sizes, strict=True)]
        self._storage: dict[int, tuple[dict[str, Array], list[array[Any]], bytearray]] = {}
        self._zeroed = [i for i in range(len(self.parts)) if i != 0 and i not in _RARE]
        self._scratch: dict[str, Array] | None = None
        # the flat layout: every part in order; id parts one-hot over their vocabulary
        self.flat_size = 0
        self._onehot: list[tuple[str, int, Array]] = []  # id part, offset, vocabulary starts
        self._dense: list[tuple[str, int, int]] = []  # other parts: key, offset, size
        for key, part in self.parts.items():
            if isinstance(part, spaces.MultiDiscrete):
                nvec = part.nvec.astype(np.int64)
                starts = np.concatenate(([0], np.cumsum(nvec)[:-1]))
                self._onehot.append((key, self.flat_size, starts))
                self.flat_size += int(nvec.sum())
            else:
                assert part.shape is not None
                size = int(np.prod(part.shape))
                self._dense.append((key, self.flat_size, size))
                self.flat_size += size
        self.flat_space = spaces.Box(-lim, lim, (self.flat_size,), f32)

    def __getstate__(self) -> dict[str, Any]:
        # buffers are the env's: a copy of it allocates its own (see ``adopt``)
        return {k: v for k, v in self.__dict__.items() if k not in ("_storage", "_scratch")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._storage = {}
        self._scratch = None

    def buffers(self, n: int) -> dict[str, Array]:
        """Zeroed arrays for ``n`` games: each part with a leading batch axis (numpy arrays
        over storage the encoder writes directly)."""
        out: dict[str, Array] = {}
        stores: list[array[Any]] = []
        for (key, part), zero in zip(self.parts.items(), self._zero_rows, strict=True):
            assert part.shape is not None and part.dtype is not None
            a = zero * n
            stores.append(a)
            out[key] = np.frombuffer(a, dtype=part.dtype).reshape((n, *part.shape))
        self._storage[id(out)] = (out, stores, bytearray(n))
        return out

    def adopt(self, old: dict[str, Array]) -> dict[str, Array]:
        """New buffers holding the values of ``old`` (buffers of an unpickled or copied env)."""
        n = len(old["status"])
        out = self.buffers(n)
        for k, arr in out.items():
            arr[...] = old[k]
        self._storage[id(out)][2][:] = b"\x01" * n  # (their choice and reward parts: zeroed next)
        return out

    # ------------------------------------------------------------ encoding
    # The encoder reads the engine state directly (the fields ``Game``'s reads return, without
    # their per-call guards) and stores every value with one C-level store into the array.array
    # under the part's numpy array (a numpy call per value costs several times that). Values are
    # computed in double precision, as the first encoder computed them, and rounded to float32
    # when stored, so the observation is the same to the bit (tests/test_env_observe.py).
    def write(self, game: Game, slots: dict[int, Any], out: dict[str, Array], row: int, *,
              floor: float, is_run: bool, enemies: EnemySlots | None = None) -> None:
        """Write the observation of ``game`` into row ``row`` of ``out`` (every part rewritten).

        ``slots`` is the legal mapping from :meth:`ActionLayout.slots`; ``floor`` the fraction
        of the episode's battles already won; ``enemies`` the battle's slot map (None: enemy
        ``t`` in slot ``t``). ``out`` comes from :meth:`buffers` (any other arrays of the right
        shapes work too, more slowly)."""
        got = self._storage.get(id(out))
        if got is None or got[0] is not out:
            scratch = self._scratch
            if scratch is None:
                scratch = self._scratch = self.buffers(1)
            self.write(game, slots, scratch, 0, floor=floor, is_run=is_run, enemies=enemies)
            for key, arr in out.items():
                arr[row] = scratch[key][0]
            return
        stores = got[1]
        sizes = self._sizes
        zeros = self._zero_rows
        for i in self._zeroed:  # (the status row is written whole; choice and reward parts
            size = sizes[i]     # only after a row had a Choice open or a reward offered)
            stores[i][row * size:(row + 1) * size] = zeros[i]
        rare = got[2]
        if rare[row]:
            for i in _RARE:
                size = sizes[i]
                stores[i][row * size:(row + 1) * size] = zeros[i]
            rare[row] = 0
        (st_a, ps_a, eid_a, en_a, es_a, hid_a, h_a, pl_a, dk_a, cid_a, ch_a, ans_a, rw_a,
         mk_a) = stores[:14]
        b = row * sizes[13]
        for k in slots:
            mk_a[b + k] = 1
        st = [0.0] * len(STATUS_FEATURES)
        st[11] = floor
        st[12] = 1.0 if is_run else 0.0
        e = game._e
        s = e.s
        if not s.active:
            st_a[row * sizes[0]:(row + 1) * sizes[0]] = array("f", st)
            if len(stores) > 14:
                write_extra(self, s, stores, sizes, row)
            return
        v = self.vocab
        lay = self.layout
        player = s.units[0]
        cards = s.cards
        hand = s.hand
        max_hp = max(1, player.max_hp)
        st[0] = player.hp / max_hp
        st[1] = _clip(player.max_hp / 100.0)
        st[2] = _clip(player.block / 50.0)
        st[3] = _clip(s.energy / self.energy_scale)
        st[4] = min(1.0, s.turn / self.max_turns)
        st[5] = len(hand) / MAX_HAND
        # (sizes are >= 0: only the upper clip can apply)
        x = len(s.draw) / 30.0
        st[6] = x if x < LIMIT else LIMIT
        x = len(s.discard) / 30.0
        st[7] = x if x < LIMIT else LIMIT
        x = len(s.exhaust) / 30.0
        st[8] = x if x < LIMIT else LIMIT
        x = len(s.master) / 30.0
        st[9] = x if x < LIMIT else LIMIT
        st[10] = _clip(s.gold / 300.0)
        status_index = v.status_index
        ns = sizes[1]
        if player.statuses:
            b = row * ns
            for sid, n in player.statuses.items():
                j = status_index.get(sid)
                if j is not None:
                    x = n / 10.0
                    ps_a[b + j] = LIMIT if x > LIMIT else -LIMIT if x < -LIMIT else x
        # enemies and their intents
        incoming = 0
        enemy_id = v.enemy_id
        ef = len(ENEMY_FEATURES)
        units = s.units
        shown = enemies.units if enemies is not None else range(len(units) - 1)
        for t, ui in enumerate(shown[:MAX_ENEMIES]):
            if ui < 0:
                continue
            u = units[ui + 1]
            eid_a[row * MAX_ENEMIES + t] = enemy_id.get(u.def_id, 0)
            b = (row * MAX_ENEMIES + t) * ef
            en_a[b] = 1.0
            alive = u.alive
            if alive:
                en_a[b + 1] = 1.0
                en_a[b + 2] = u.hp / max(1, u.max_hp)
            en_a[b + 3] = _clip(u.max_hp / 100.0)
            if u.block:
                en_a[b + 4] = _clip(u.block / 50.0)
            it = u.intent if alive else None
            if it is not None:
                dmg = it.damage or 0
                total = dmg * it.hits
                incoming += total
                en_a[b + 5] = _clip(dmg / 30.0)
                en_a[b + 6] = _clip(it.hits / 5.0) if it.damage else 0.0
                en_a[b + 7] = _clip(total / max_hp)
                en_a[b + 8] = _clip((it.block or 0) / 30.0)
                en_a[b + 9 + _KIND_INDEX[it.kind]] = 1.0
            if u.statuses:
                b = (row * MAX_ENEMIES + t) * ns
                for sid, n in u.statuses.items():
                    j = status_index.get(sid)
                    if j is not None:
                        x = n / 10.0
                        es_a[b + j] = LIMIT if x > LIMIT else -LIMIT if x < -LIMIT else x
        st[17] = _clip(incoming / max_hp)
        # the hand: static card rows, then the effective cost and whether it can be played now
        play0, choice0 = lay.play0, lay.choice0
        playable = {(i - play0) // MAX_ENEMIES for i in slots if play0 <= i < choice0}
        card_id = v.card_id
        hooks = hooks_possible(e)
        rows = self._rows
        cf = len(CARD_FEATURES)
        for h, uid in enumerate(hand[:MAX_HAND]):
            inst = cards[uid]
            cid = card_id[inst.card_id]
            hid_a[row * MAX_HAND + h] = cid
            b = (row * MAX_HAND + h) * cf
            h_a[b:b + cf] = rows[2 * cid + (1 if inst.upgraded else 0)]
            x = effective_cost(e, inst, hooks) / 3.0  # (>= 0)
            h_a[b + 2] = x if x < LIMIT else LIMIT
            if h in playable:
                h_a[b + _PLAYABLE] = 1.0
        # piles and the master deck as counts per card
        nc = len(v.cards)
        for p, pile in enumerate((s.draw, s.discard, s.exhaust)):
            if pile:
                counts: dict[int, int] = {}
                for uid in pile:
                    i = card_id[cards[uid].card_id]
                    counts[i] = counts.get(i, 0) + 1
                b = (row * 3 + p) * nc - 1
                for i, c in counts.items():
                    pl_a[b + i] = min(LIMIT, c * 0.2)
        if s.master:
            counts = {}
            ups: dict[int, int] = {}
            for m in s.master:
                i = card_id[m.card_id]
                counts[i] = counts.get(i, 0) + 1
                if m.upgraded:
                    ups[i] = ups.get(i, 0) + 1
            b = row * 2 * nc - 1
            for i, c in counts.items():
                dk_a[b + i] = min(LIMIT, c * 0.2)
            b += nc
            for i, c in ups.items():
                dk_a[b + i] = min(LIMIT, c * 0.2)
        # the open Choice: candidates and which candidates each answer slot picks
        if s.pause == CHOICE:
            st[13] = 1.0
            st[14] = _clip(s.choice_min / 5.0)
            st[15] = _clip(s.choice_max / 5.0)
            rare[row] = 1
            objs: Any = s.cards if s.choice_kind == "c" else s.units
            for i, oid in enumerate(s.choice_ids[:MAX_CANDIDATES]):
                obj = objs[oid]
                b = (row * MAX_CANDIDATES + i) * cf
                if isinstance(obj, CardInstance):
                    cid = card_id[obj.card_id]
                    cid_a[row * MAX_CANDIDATES + i] = cid
                    ch_a[b:b + cf] = rows[2 * cid + (1 if obj.upgraded else 0)]
                    ch_a[b + 2] = _clip(effective_cost(e, obj, hooks) / 3.0)
                else:
                    ch_a[b] = 1.0
                    ch_a[b + _IS_UNIT] = 1.0
                    ch_a[b + _IS_UNIT + 1] = unit_code(obj.uid, enemies)
            b = row * MAX_CHOICES * MAX_CANDIDATES - choice0 * MAX_CANDIDATES
            for k, a in slots.items():
                for c in a.choice:
                    if c < MAX_CANDIDATES:
                        ans_a[b + k * MAX_CANDIDATES + c] = 1
        # the offered rewards, aligned with the reward actions
        if s.rewards is not None:
            st[16] = 1.0
            rare[row] = 1
            b = row * 3 * nc - lay.card0
            for k in slots:
                if lay.card0 <= k < lay.skip:
                    rw_a[b + k] = 1.0
        st_a[row * sizes[0]:(row + 1) * sizes[0]] = array("f", st)
        if self.observation != DEFAULT:
            write_extra(self, s, stores, sizes, row)

    def flatten(self, obs: dict[str, Array]) -> Array:
        """The flat float32 vector of an observation (id parts one-hot, in part order)."""
        out = np.zeros(self.flat_size, dtype=np.float32)
        for key, at, size in self._dense:
            out[at:at + size] = obs[key].reshape(-1)
        for key, at, starts in self._onehot:
            out[at + starts + obs[key].reshape(-1)] = 1.0
        return out


def unit_code(uid: int, enemies: EnemySlots | None) -> float:
    """A Choice's unit candidate as a number: (its enemy slot + 1) / MAX_ENEMIES, 0 for the
    player (uid / MAX_ENEMIES without a slot map, or for an enemy without a slot)."""
    if enemies is not None and uid > 0:
        k = enemies.slot_of.get(uid - 1)
        if k is not None:
            return (k + 1) / MAX_ENEMIES
    return uid / MAX_ENEMIES


def _stored(row: Array) -> array[float]:
    a = array("f")
    a.frombytes(np.ascontiguousarray(row, dtype=np.float32).tobytes())
    return a
