"""Seeded integer-state random streams (SplitMix64). Cloning one is copying an int.

The same 64-bit arithmetic is written twice, and both give the same numbers (tests/test_rng.py
pins them against reference values on each engine):

- pure Python computes on unbounded ints, masked to 64 bits after each step;
- the compiled engine computes on ``i64`` (C ``int64_t``, wrapping: the build compiles with
  ``-fwrapv``), the unsigned right shifts masked by hand. There an unbounded int of 2**62 or
  more is a heap object and every step allocates; ``below`` costs about 40 ns instead of 470.

``_NATIVE`` picks the branch: True only when this module is the mypyc build (its functions
have no ``__code__``), since the ``i64`` branch run by the interpreter would not wrap.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:
    from mypy_extensions import i64  # the compiled engine's native 64-bit int; never imported

_MASK: Final = (1 << 64) - 1
_TOP: Final = 1 << 63
_TWO64: Final = 1 << 64
T = TypeVar("T")

# SplitMix64's constants as the signed 64-bit values of their bits (for the i64 branch)
_GAMMA_S: Final[i64] = 0x9E3779B97F4A7C15 - (1 << 64)
_MUL1_S: Final[i64] = 0xBF58476D1CE4E5B9 - (1 << 64)
_MUL2_S: Final[i64] = 0x94D049BB133111EB - (1 << 64)
_FNV_OFFSET_S: Final[i64] = 0xCBF29CE484222325 - (1 << 64)
_FNV_PRIME: Final[i64] = 0x100000001B3
_SMALL_N: Final = 1 << 30  # below(n) for n under this multiplies in i64 without overflow
_ROOM: Final = 1 << 32  # what the ranges ``shuffle_short`` takes from one draw multiply to, at most


def _s64(u: int) -> i64:
    """The signed 64-bit value of the bits of ``u`` (0 <= u < 2**64)."""
    return u - _TWO64 if u >= _TOP else u


def _u64(x: i64) -> int:
    """The unsigned value of the 64 bits of ``x``."""
    v: int = x
    return v & _MASK


def _mix64(x: i64) -> i64:
    """``mix`` on i64: the output mix of the state after ``x`` (see ``_out64``)."""
    return _out64(x + _GAMMA_S)


def mix(x: int) -> int:
    """SplitMix64 finaliser: a well-distributed 64-bit hash of ``x``."""
    if _NATIVE:
        return _u64(_mix64(_s64(x & _MASK)))
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


@lru_cache(maxsize=1024)
def _name_key(name: str) -> int:
    """FNV-1a (64-bit) of a stream name's UTF-8 bytes: stable across processes."""
    h = 0xCBF29CE484222325
    for b in name.encode():
        h = ((h ^ b) * 0x100000001B3) & _MASK
    return h


def _name_key64(name: str) -> i64:
    """``_name_key`` on i64 (no cache: hashing a name costs less than looking it up)."""
    k: i64 = _FNV_OFFSET_S
    for b in name.encode():
        k = (k ^ b) * _FNV_PRIME
    return k


def derive(seed: int, name: str) -> int:
    """A stream seed derived from a game seed and a stream name (stable across processes)."""
    if _NATIVE:
        return _u64(_mix64(_mix64(_s64(seed & _MASK)) ^ _name_key64(name)))
    return mix(mix(seed & _MASK) ^ _name_key(name))


def derive_each(seed: int, names: tuple[str, ...]) -> list[int]:
    """``[derive(seed, name) for name in names]``, the seed's own mix computed once."""
    if _NATIVE:
        m = _mix64(_s64(seed & _MASK))
        return [_u64(_mix64(m ^ _name_key64(name))) for name in names]
    mixed = mix(seed & _MASK)
    return [mix(mixed ^ _name_key(name)) for name in names]


class Rng:
    """One random stream; its whole state is the integer ``state`` (64 bits, unsigned)."""

    __slots__ = ("_s",)
    # the state's bits: unsigned in pure Python, as a signed i64 in the compiled engine
    _s: i64

    def __init__(self, state: int) -> None:
        u = state & _MASK
        self._s = _s64(u) if _NATIVE else u

    @property
    def state(self) -> int:
        """The stream's state, an unsigned 64-bit integer (what saves store)."""
        v: int = self._s
        return v & _MASK

    def next64(self) -> int:
        """The next 64 random bits, as an unsigned integer (``mix`` of the state before the
        step: SplitMix64 outputs the mix of the advanced state)."""
        if _NATIVE:
            self._s = s = self._s + _GAMMA_S
            return _u64(_out64(s))
        v: int = self._s
        self._s = (v + 0x9E3779B97F4A7C15) & _MASK
        return mix(v)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``n`` >= 1)."""
        # next64, inlined: this is the hottest call of a simulated battle
        if _NATIVE:
            self._s = s = self._s + _GAMMA_S
            z = _out64(s)
            if 0 <= n < _SMALL_N:
                # (z * n) >> 64 for the unsigned z, in 32-bit halves: exact, no overflow
                m: i64 = n
                hi: i64 = (z >> 32) & 0xFFFFFFFF
                lo: i64 = z & 0xFFFFFFFF
                return (hi * m + ((lo * m) >> 32)) >> 32
            return (_u64(z) * n) >> 64
        v: int = self._s
        self._s = s2 = (v + 0x9E3779B97F4A7C15) & _MASK
        z2 = ((s2 ^ (s2 >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z2 = ((z2 ^ (z2 >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z2 ^ (z2 >> 31)) * n) >> 64

    def between(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        if _NATIVE:
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        # pure Python: ``below(i + 1)`` inlined (the same steps on a local state), a Python
        # call less per card
        s: int = self._s
        for i in range(len(items) - 1, 0, -1):
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self._s = s

    def shuffle_short(self, items: list[T]) -> None:
        """A shuffle of a short list from fewer draws (``Game.determinize``'s draw pile): each
        64-bit draw gives several indices, the high word of it times the range, its low word
        kept for the next index while the ranges taken from it multiply to at most 2**32 (so
        every index rests on at least 2**32 equally likely values: no index is off uniform
        by more than its range / 2**32). Not ``shuffle``: the game's own shuffles stay as the
        saves and replays know them."""
        n = len(items)
        if n < 2:
            return
        if _NATIVE:
            s: i64 = self._s
            z: i64 = 0
            used: i64 = _ROOM + 1
            for i in range(n - 1, 0, -1):
                k: i64 = i + 1
                if used * k > _ROOM:
                    s = s + _GAMMA_S
                    z = _out64(s)
                    used = 1
                # (z * k) >> 64 for the unsigned z, in 32-bit halves (as in ``below``); the
                # low word wraps
                hi: i64 = (z >> 32) & 0xFFFFFFFF
                lo: i64 = z & 0xFFFFFFFF
                j = (hi * k + ((lo * k) >> 32)) >> 32
                z = z * k
                used = used * k
                items[i], items[j] = items[j], items[i]
            self._s = s
            return
        v: int = self._s
        r = 0
        room = _ROOM + 1
        for i in range(n - 1, 0, -1):
            k2 = i + 1
            if room * k2 > _ROOM:
                v = (v + 0x9E3779B97F4A7C15) & _MASK
                r = ((v ^ (v >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                r = ((r ^ (r >> 27)) * 0x94D049BB133111EB) & _MASK
                r ^= r >> 31
                room = 1
            p = r * k2
            j2 = p >> 64
            r = p & _MASK
            room *= k2
            items[i], items[j2] = items[j2], items[i]
        self._s = v

    def copy(self) -> Rng:
        """An independent stream in the same state."""
        r = Rng(0)
        r._s = self._s
        return r

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        # pickles carry the unsigned state, so they move between the two engines
        return Rng, (self.state,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng({self.state:#x})"


def _out64(s: i64) -> i64:
    """SplitMix64's output mix of the state ``s`` (i64, wrapping)."""
    z = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * _MUL1_S
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MUL2_S
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


_NATIVE: Final = not hasattr(mix, "__code__")
