"""Where the chunks of a sweep run: this process, a local process pool, or a Ray cluster.

Every backend runs the same chunks and yields their results in submission order, keeping at
most ``window`` chunks in flight, so the driver's memory does not grow with the sweep and the
results never depend on the backend or the number of workers.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Protocol

from ..errors import GameError

Task = tuple[Any, ...]


class BackendError(GameError):
    """A backend that cannot start (say, Ray not installed or its cluster not reachable)."""


class Backend(Protocol):
    """Runs ``fn(*task)`` for each task; yields the results in task order."""

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task]) -> Iterator[Any]: ...

    def close(self) -> None: ...


class InProcess:
    """Every chunk in this process, one after the other."""

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task]) -> Iterator[Any]:
        for t in tasks:
            yield fn(*t)

    def close(self) -> None:
        pass


class ProcessPool:
    """Chunks on ``workers`` local processes (``concurrent.futures``)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = ProcessPoolExecutor(max_workers=workers)

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task]) -> Iterator[Any]:
        pending: deque[Future[Any]] = deque()
        window = 2 * self.workers
        try:
            for t in tasks:
                pending.append(self.pool.submit(fn, *t))
                if len(pending) >= window:
                    yield _result(pending.popleft())
            while pending:
                yield _result(pending.popleft())
        except BrokenProcessPool:
            raise BackendError("a worker process died while running a chunk of the sweep (it "
                               "exited or was killed: a policy calling os._exit or sys.exit, "
                               "or out of memory?); --resume continues from the rows written"
                               ) from None

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


def _result(f: Future[Any]) -> Any:
    """A chunk's result; an error of the worker that is no ``GameError`` is named in one."""
    try:
        return f.result()
    except (GameError, BrokenProcessPool):
        raise
    except Exception as exc:  # (say, an exception the worker could not send back pickled)
        raise BackendError(f"a worker failed: {type(exc).__name__}: {str(exc)[:300]}") from None


class RayBackend:
    """Chunks as Ray tasks, on the cluster at ``address`` (None: the one in ``RAY_ADDRESS``, or
    a new local instance). An instance this backend started is shut down by ``close``; one the
    caller started (``ray.init`` before) is left running."""

    def __init__(self, address: str | None = None, workers: int = 0) -> None:
        try:
            import ray
        except ImportError as exc:
            raise BackendError("the ray backend needs Ray: pip install 'gcs[ray]'") from exc
        self.ray: Any = ray
        self.owned = not ray.is_initialized()
        if self.owned:
            # Ray puts the driver's working directory first on its workers' sys.path: start it
            # from the directory holding the gcs package this process runs, so that workers on
            # this machine import the same engine (say, the compiled build/fast), not a source
            # checkout that happens to be the working directory.
            here = os.getcwd()
            os.chdir(Path(__file__).resolve().parent.parent.parent)
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR, configure_logging=True)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise BackendError(f"cannot connect to the Ray cluster at {address!r}: {exc}") from exc
            finally:
                os.chdir(here)
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.workers = workers if workers > 1 else max(1, cpus)
        self.remote: dict[Callable[..., Any], Any] = {}

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task]) -> Iterator[Any]:
        remote = self.remote.get(fn)
        if remote is None:
            remote = self.remote[fn] = self.ray.remote(num_cpus=1, max_retries=3)(fn)
        pending: deque[Any] = deque()
        window = 2 * self.workers
        for t in tasks:
            pending.append(remote.remote(*t))
            if len(pending) >= window:
                yield self.ray.get(pending.popleft())
        while pending:
            yield self.ray.get(pending.popleft())

    def close(self) -> None:
        if self.owned and self.ray.is_initialized():
            self.ray.shutdown()


BACKENDS = ("local", "ray")


def make_backend(name: str, workers: int, address: str | None = None) -> Backend:
    """``local`` (``workers`` <= 1: in this process) or ``ray`` (at ``address``)."""
    if name == "local":
        if address is not None:
            raise BackendError("--address is for the ray backend (add --backend ray)")
        return InProcess() if workers <= 1 else ProcessPool(workers)
    if name == "ray":
        return RayBackend(address, workers)
    raise BackendError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
