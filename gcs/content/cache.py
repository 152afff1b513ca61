"""The compiled-pack cache: a pickle of the compiled definitions, keyed by the pack files' sha256.

The key also covers a format version, the Python version and the source of the modules that
shape compiled content, so a changed compiler never reads a stale entry. The directory is
``$GCS_CACHE_DIR`` or ``~/.cache/gcs``; when it cannot be written, there is silently no cache.
"""

from __future__ import annotations

import copyreg
import functools
import gc
import hashlib
import io
import os
import pickle
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .schema import Parts

FORMAT_VERSION = "gcs-content-cache-1"
_HERE = Path(__file__).resolve().parent
_SHAPING = (  # modules whose source decides what a compiled pack looks like
    _HERE / "defs.py", _HERE / "problems.py", _HERE / "textexprs.py", _HERE / "textnodes.py",
    *sorted((_HERE / "schema").glob("*.py")), _HERE / "loader.py", _HERE / "cache.py",
    _HERE.parent / "flow" / "nodes.py", _HERE.parent / "flow" / "exprs.py",
    _HERE.parent / "enums.py",
)


def cache_dir() -> Path:
    """``$GCS_CACHE_DIR`` if set, else ``~/.cache/gcs``."""
    env = os.environ.get("GCS_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "gcs"


@functools.cache
def _code_stamp() -> str:
    h = hashlib.sha256(f"{FORMAT_VERSION}|{sys.version_info[:2]}".encode())
    for p in _SHAPING:
        try:
            h.update(p.read_bytes())
        except OSError:
            h.update(p.name.encode())
    return h.hexdigest()


def cache_key(digest: str) -> str:
    """The cache key of a pack: sha256 over its files' digest and the compiler's stamp."""
    return hashlib.sha256(f"{_code_stamp()}|{digest}".encode()).hexdigest()


def cache_file(digest: str) -> Path:
    return cache_dir() / f"pack-{cache_key(digest)[:40]}.pickle"


def _proxy(d: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(d)


def _reduce_proxy(m: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return _proxy, (dict(m),)


class gc_paused:
    """Pause the cyclic garbage collector while building many objects that all stay alive."""

    def __enter__(self) -> None:
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()


def dumps(parts: Parts) -> bytes:
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    # the registered reducers (gcs/pickling.py: frozen classes as cls(*fields)), and proxies
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _reduce_proxy}
    pickler.dump(parts)
    return buf.getvalue()


def load(digest: str) -> Parts | None:
    """The cached compiled pack for these files, or None (missing, unreadable or stale)."""
    try:
        data = cache_file(digest).read_bytes()
    except OSError:
        return None
    try:
        with gc_paused():
            parts = pickle.loads(data)
    except Exception:  # a corrupt or foreign entry is a miss
        return None
    return parts if isinstance(parts, Parts) else None


def store(digest: str, parts: Parts) -> None:
    """Write the compiled pack (atomically); any failure means no cache, silently."""
    try:
        data = dumps(parts)
        target = cache_file(digest)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".pack-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except Exception:
        return
