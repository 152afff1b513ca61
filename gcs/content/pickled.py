"""Pickling a ``Content``: its validated definitions, never its source files, never validated again.

A content pickles as its digest plus the compiled cache's pickle of its definitions (the
:class:`Parts` the loader built it from; the cache's pickler also carries the read-only
mappings inside them). Unpickling builds the ``Content`` from those parts directly, the way a
cache hit does: nothing is validated again (the pack was validated when it was first loaded,
and a pickle is trusted data, like any pickle). A process keeps the contents it pickled or
unpickled by digest: a content unpickled where one of its digest already lives *is* that
object, so games, envs and copies of them in one process share one content. A content with an
empty digest (built by hand) is rebuilt at every unpickling. ``copy.copy`` of a content builds
a distinct one from the same definitions; ``copy.deepcopy`` is the content itself.
"""

from __future__ import annotations

import copyreg
import pickle

from . import cache
from .db import Content
from .schema import Parts

MAX_KNOWN = 64  # contents kept by digest (a bound for processes that load many packs)
# digest -> (the content, its pickled parts): the same object for the same digest, and its
# parts pickled once however often the content (or a game or an env holding it) is pickled
_KNOWN: dict[str, tuple[Content, bytes]] = {}


def parts_of(content: Content) -> Parts:
    """What ``content`` was built from (the loader's ``Parts``)."""
    return Parts(content.pack_id, tuple(content.cards.values()),
                 tuple(content.statuses.values()), tuple(content.enemies.values()),
                 tuple(content.encounters.values()), tuple(content.characters.values()),
                 tuple(content.reward_tables.values()), dict(content.graphs))


def built(parts: Parts, digest: str) -> Content:
    """A content built from ``parts`` (nothing validated: they were when first loaded)."""
    return Content(pack_id=parts.pack_id, cards=parts.cards, statuses=parts.statuses,
                   enemies=parts.enemies, encounters=parts.encounters,
                   characters=parts.characters, reward_tables=parts.reward_tables,
                   graphs=parts.graphs, digest=digest)


def _remember(content: Content, data: bytes) -> None:
    if len(_KNOWN) >= MAX_KNOWN:
        _KNOWN.clear()
    _KNOWN[content.digest] = (content, data)


def reduce_content(content: Content) -> tuple[object, tuple[str, bytes]]:
    """``Content.__reduce__``: rebuilt by :func:`restore_content` from its digest and parts."""
    digest = content.digest
    known = _KNOWN.get(digest) if digest else None
    if known is not None and known[0] is content:
        return restore_content, (digest, known[1])
    data = cache.dumps(parts_of(content))
    if digest and known is None:
        _remember(content, data)
    return restore_content, (digest, data)


def restore_content(digest: str, data: bytes) -> Content:
    """The content of a pickle: the one of this digest the process has, or one built from
    ``data`` (the pickled parts)."""
    known = _KNOWN.get(digest) if digest else None
    if known is not None:
        return known[0]
    with cache.gc_paused():
        parts = pickle.loads(data)
    if not isinstance(parts, Parts):
        raise pickle.UnpicklingError("a pickled gcs.Content holds no content definitions")
    content = built(parts, digest)
    if digest:
        _remember(content, data)
    return content


# ``pickle`` and ``copy`` find this before ``Content``'s own ``__reduce_ex__`` (the reducer lives
# here, not in gcs/content/db.py, so db does not import this module: no import circle)
copyreg.pickle(Content, reduce_content)  # type: ignore[arg-type]
