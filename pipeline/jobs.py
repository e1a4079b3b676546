"""Independent jobs on a local process pool (the default) or on a Ray cluster.

A job is a picklable top-level function applied to one item: one mutant of a game, one
game of an eval suite. Both runners

- return the results in the order of the items, whatever order the jobs finish in;
- retry a job whose worker was lost (killed, out of memory, a node gone) or that raised,
  up to ``retries`` more times, and note every retry in :attr:`Runner.retried`;
- raise :class:`JobsFailed` naming every job that still failed, after the others have
  finished: a job is never silently dropped.

:class:`JobJournal` keeps each finished result on disk as it arrives, so an interrupted
run started again skips the jobs it already has.

Ray is an optional dependency (``pip install 'rulebook2game[ray]'``). ``--ray local``
starts a private single-machine cluster bound to the loopback address; ``--ray HOST:PORT``
joins a running cluster (``ray start --head`` on one machine, ``ray start --address
HOST:PORT`` on the others). Every node needs this package installed and the game
directories at the same path (a shared file system), since jobs read and build there.
"""

from __future__ import annotations

import hashlib
import os
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rulebook2game.errors import BadInputError, Rulebook2GameError

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_RETRIES = 2
"""Extra attempts a failed or lost job gets."""

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class JobFailure:
    """A job that failed on every attempt."""

    key: str
    attempts: int
    error: str


class JobsFailed(Rulebook2GameError):
    """Some jobs failed on every attempt (the others finished; their results are kept)."""

    def __init__(self, failures: Sequence[JobFailure]) -> None:
        self.failures = tuple(failures)
        shown = "; ".join(f"{f.key} ({f.attempts} attempts): {f.error}" for f in failures[:3])
        more = f"; {len(failures) - 3} more" if len(failures) > 3 else ""
        super().__init__(f"{len(failures)} job(s) failed: {shown}{more}")


class Runner(Protocol):
    """Runs independent jobs and gives their results back in item order."""

    @property
    def name(self) -> str:
        """``pool(N)`` or ``ray(ADDRESS)``, for reports."""
        ...

    retried: list[str]
    """``key: why`` of every retry made so far."""

    def map(
        self,
        fn: Callable[[T], R],
        items: Sequence[T],
        keys: Sequence[str],
        on_result: Callable[[int, R], None] | None = None,
    ) -> list[R]:
        """``[fn(item) for item in items]``; ``on_result(index, result)`` as each one ends."""
        ...


@dataclass
class _Attempts:
    """Bookkeeping shared by both runners: attempts per job and the failures."""

    keys: Sequence[str]
    retries: int
    retried: list[str]
    counts: dict[int, int] = field(default_factory=dict)
    failures: list[JobFailure] = field(default_factory=list)

    def failed(self, index: int, error: str) -> bool:
        """Record a failed attempt; ``True`` when the job gets another one."""
        self.counts[index] = self.counts.get(index, 0) + 1
        if self.counts[index] <= self.retries:
            self.retried.append(f"{self.keys[index]}: {error}")
            return True
        self.failures.append(JobFailure(self.keys[index], self.counts[index], error))
        return False

    def finish(self) -> None:
        if self.failures:
            raise JobsFailed(self.failures)


@dataclass
class LocalPool:
    """A process pool on this machine (fork); ``workers <= 1`` runs the jobs in order here."""

    workers: int = 2
    retries: int = DEFAULT_RETRIES
    retried: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"pool({self.workers})"

    def map(
        self,
        fn: Callable[[T], R],
        items: Sequence[T],
        keys: Sequence[str],
        on_result: Callable[[int, R], None] | None = None,
    ) -> list[R]:
        results: dict[int, R] = {}
        book = _Attempts(keys, self.retries, self.retried)
        pending = list(range(len(items)))
        while pending:
            if self.workers <= 1:
                pending = self._inline(fn, items, pending, results, book, on_result)
            else:
                pending = self._pooled(fn, items, pending, results, book, on_result)
        book.finish()
        return [results[i] for i in range(len(items))]

    def _inline(
        self,
        fn: Callable[[T], R],
        items: Sequence[T],
        pending: list[int],
        results: dict[int, R],
        book: _Attempts,
        on_result: Callable[[int, R], None] | None,
    ) -> list[int]:
        again = []
        for i in pending:
            try:
                results[i] = fn(items[i])
            except Exception as exc:  # a job's own failure is reported, never fatal
                if book.failed(i, _describe(exc)):
                    again.append(i)
                continue
            if on_result is not None:
                on_result(i, results[i])
        return again

    def _pooled(
        self,
        fn: Callable[[T], R],
        items: Sequence[T],
        pending: list[int],
        results: dict[int, R],
        book: _Attempts,
        on_result: Callable[[int, R], None] | None,
    ) -> list[int]:
        again: list[int] = []
        # fork, not spawn: spawn re-runs the parent's main module in each worker, and
        # `python -m rulebook2game` would start the command line again there.
        with ProcessPoolExecutor(self.workers, mp_context=get_context("fork")) as pool:
            futures: dict[Future[R], int] = {pool.submit(fn, items[i]): i for i in pending}
            while futures:
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in done:
                    i = futures.pop(future)
                    try:
                        results[i] = future.result()
                    except BrokenProcessPool:
                        # A worker died (killed, out of memory): every job still in this
                        # pool is lost with it; they go again on a fresh pool.
                        lost = [i, *futures.values()]
                        again += [j for j in lost if book.failed(j, "worker process lost")]
                        return again
                    except Exception as exc:
                        if book.failed(i, _describe(exc)):
                            again.append(i)
                        continue
                    if on_result is not None:
                        on_result(i, results[i])
        return again


@dataclass
class RayRunner:
    """Jobs as Ray tasks: ``address`` is ``local`` or a running cluster's ``HOST:PORT``."""

    address: str
    retries: int = DEFAULT_RETRIES
    retried: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"ray({self.address})"

    def map(
        self,
        fn: Callable[[T], R],
        items: Sequence[T],
        keys: Sequence[str],
        on_result: Callable[[int, R], None] | None = None,
    ) -> list[R]:
        ray = connect_ray(self.address)
        # ray.remote takes plain functions only; the job (often a partial) is an argument.
        task = ray.remote(_call).options(max_retries=0)
        book = _Attempts(keys, self.retries, self.retried)
        results: dict[int, R] = {}
        refs: dict[Any, int] = {task.remote(fn, items[i]): i for i in range(len(items))}
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1)
            i = refs.pop(ready[0])
            try:
                results[i] = ray.get(ready[0])
            except ray.exceptions.RayError as exc:  # lost worker or node, or the job raised
                if book.failed(i, _describe(exc)):
                    refs[task.remote(fn, items[i])] = i
                continue
            if on_result is not None:
                on_result(i, results[i])
        book.finish()
        return [results[i] for i in range(len(items))]


def connect_ray(address: str) -> Any:
    """The ``ray`` module, connected to ``address`` (``local`` starts a loopback cluster)."""
    host = address.rsplit(":", 1)[0]
    if address == "local" or host in (LOOPBACK, "localhost"):
        # Ray replaces 127.0.0.1 by the machine's network address unless told that this
        # is a single-machine cluster; keep a local cluster on the loopback interface.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError as exc:
        raise BadInputError(
            "--ray needs Ray: pip install 'rulebook2game[ray]' (or pip install ray)"
        ) from exc
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            _require_listener(address)
            try:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise BadInputError(f"--ray {address}: no Ray cluster there ({exc})") from exc
    return ray


def _require_listener(address: str) -> None:
    """Refuse at once an address where nothing listens (Ray itself waits for minutes)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise BadInputError(f"--ray {address}: give 'local' or HOST:PORT")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise BadInputError(f"--ray {address}: no Ray cluster there ({exc})") from exc


def runner_for(ray: str | None, workers: int) -> Runner:
    """The runner a command line asked for: Ray when ``ray`` is given, else a local pool."""
    return RayRunner(ray) if ray else LocalPool(workers)


class JobJournal:
    """Finished job results on disk, one small file per job key, written atomically."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, key: str) -> Path:
        digest = hashlib.sha256(key.encode()).hexdigest()[:24]
        return self.folder / f"{digest}.json"

    def get(self, key: str) -> str | None:
        """The recorded result text of ``key``, if that job already finished."""
        path = self._path(key)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def put(self, key: str, text: str) -> None:
        """Record a finished job (a crash mid-write leaves no half file)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(key)
        partial = path.with_suffix(".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)

    def clear(self) -> None:
        """Forget every result (the run they belong to has finished and been written)."""
        if self.folder.is_dir():
            for path in self.folder.iterdir():
                path.unlink()
            self.folder.rmdir()


def _call(fn: Callable[[T], R], item: T) -> R:
    return fn(item)


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[-1] if text else ''}".rstrip(": ")
