"""Mutation adequacy of a trace set: which mutants of the pages each trace's replay kills.

Which page code a trace exercises is measured by what its replay can tell apart:
a trace *kills* a mutant of the pages (:mod:`rulebook2game.mutate`) when replaying
it through the mutant's checked build diverges (a legal set, a chance outcome, the
player to move, the end or the returns differ, or the engine faults). A trace set
that kills every mutant some candidate kills has exercised every mutated line,
branch and constant that the candidates reach, and has also *observed* the effect,
which line coverage does not require.

Each mutant is compiled once; the traces in ``first`` are replayed until one kills
it (the usual case: a kept trace already covers it), and only when none does are
the other candidates replayed, each of them, so greedy selection sees every
candidate that kills the rarer mutants. Results are cached on disk by the hash of
the mutated page set and of the trace text, so a rerun compiles nothing new.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from rulebook2game.check.replay import replay
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.mutate import Mutant, materialize
from rulebook2game.targets.rl.compile import check_syntax, compile_workspace
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rl.worker import WorkerLimits
from rulebook2game.trace import Trace, write_text_atomic
from rulebook2game.workspace import open_workspace

MUTANT = "mutant: "
LIMITS = WorkerLimits(cpu_seconds=2.0, wall_seconds=4.0)
"""Per-request limits of a mutant's engine: a mutant that loops is killed, not waited for."""
NICE = 10


@dataclass(frozen=True)
class MutantKills:
    """What the traces made of one mutant."""

    mutant: Mutant
    compiled: bool
    killers: frozenset[str]
    """Names of the traces whose replay kills the mutant (see ``complete``)."""
    complete: bool
    """Whether ``killers`` lists every trace (else: the first killer among ``first``)."""


def mutant_key(pages: Mapping[str, str], mutant: Mutant) -> str:
    """Hash of the whole mutated page set (the cache key of a mutant)."""
    h = hashlib.sha256()
    for name in sorted(pages):
        text = mutant.source if name == mutant.page else pages[name]
        h.update(f"{name}\0{text}\0".encode())
    return h.hexdigest()[:24]


def trace_key(trace: Trace) -> str:
    """Hash of a trace's text (its cache key)."""
    return hashlib.sha256(trace.to_jsonl().encode()).hexdigest()[:24]


@dataclass(frozen=True)
class _Job:
    game_dir: Path
    mutant: Mutant
    order: tuple[tuple[str, str, Trace], ...]
    """(name, key, trace): the ``first`` traces, then the others."""
    first: int
    """How many of ``order`` are ``first`` traces."""
    known: dict[str, bool]
    """Cached results by trace key."""
    compiled: bool | None


def _run_job(job: _Job) -> tuple[bool, dict[str, bool]]:
    """Compile the mutant only if a needed answer is not cached; replay what is needed."""
    if os.getpid() != _PARENT:
        _be_nice()
    if job.compiled is False:
        return False, {}
    results: dict[str, bool] = {}
    engine: RlEngine | None = None
    dest = job.game_dir / "build" / "adequacy" / job.mutant.id.replace(":", "-")
    try:
        for i, (_name, key, trace) in enumerate(job.order):
            if i == job.first and any(
                results.get(k, job.known.get(k)) for _, k, _ in job.order[:i]
            ):
                break
            if key in job.known:
                results[key] = job.known[key]
            else:
                if engine is None:
                    engine = _start(job.game_dir, job.mutant, dest)
                    if engine is None:
                        return False, {}
                results[key] = not replay(engine, trace).ok
            if i < job.first and results[key]:
                break
    except Rulebook2GameError:
        return False, {}
    finally:
        if engine is not None:
            engine.close()
        shutil.rmtree(dest, ignore_errors=True)
    return True, results


def _start(game_dir: Path, mutant: Mutant, dest: Path) -> RlEngine | None:
    ws = open_workspace(materialize(game_dir, mutant, dest))
    if not check_syntax(ws).ok:
        return None
    result = compile_workspace(ws, optimized=False)
    if result.build is None:
        return None
    return RlEngine(result.build, game=ws.config().name, limits=LIMITS)


_PARENT = os.getpid()


def _be_nice() -> None:
    """Lower this worker's priority to :data:`NICE` (once; the machine is shared)."""
    with contextlib.suppress(OSError):
        now = os.nice(0)
        if now < NICE:
            os.nice(NICE - now)


def kill_sets(
    game_dir: Path,
    pages: Mapping[str, str],
    mutants: Sequence[Mutant],
    traces: Mapping[str, Trace],
    *,
    first: Sequence[str] = (),
    cache: Path | None = None,
    workers: int = 1,
    on_mutant: Callable[[MutantKills], None] | None = None,
) -> dict[str, MutantKills]:
    """Mutant id -> which of ``traces`` kill it (every trace, unless one of ``first`` does)."""
    store = _load(cache)
    first_names = [n for n in first if n in traces]
    rest = [n for n in traces if n not in set(first_names)]
    keyed = {n: (n, trace_key(t), t) for n, t in traces.items()}
    order = tuple(keyed[n] for n in [*first_names, *rest])
    jobs = []
    for m in mutants:
        entry = store.setdefault(mutant_key(pages, m), {"compiled": None, "kills": {}})
        jobs.append(_Job(game_dir, m, order, len(first_names), entry["kills"], entry["compiled"]))
    out: dict[str, MutantKills] = {}

    def done(job: _Job, compiled: bool, results: dict[str, bool]) -> None:
        entry = store[mutant_key(pages, job.mutant)]
        entry["compiled"] = compiled
        entry["kills"].update(results)
        answered = {**job.known, **results}
        killers = frozenset(n for n, k, _ in order if answered.get(k))
        complete = all(k in answered for _, k, _ in order)
        out[job.mutant.id] = MutantKills(job.mutant, compiled, killers, complete)
        if on_mutant is not None:
            on_mutant(out[job.mutant.id])
        if len(out) % 20 == 0:
            _save(cache, store)

    try:
        if workers <= 1:
            for job in jobs:
                done(job, *_run_job(job))
        else:
            with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
                for job, result in zip(jobs, pool.map(_run_job, jobs), strict=True):
                    done(job, *result)
    finally:
        _save(cache, store)
    return out


def _load(cache: Path | None) -> dict[str, Any]:
    if cache is None or not cache.is_file():
        return {}
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(cache: Path | None, store: dict[str, Any]) -> None:
    if cache is not None:
        write_text_atomic(cache, json.dumps(store, sort_keys=True, separators=(",", ":")))


def first_killers(
    game_dir: Path,
    pages: Mapping[str, str],
    mutants: Sequence[Mutant],
    traces: Callable[[], Iterable[tuple[str, Trace]]],
    *,
    cache: Path | None = None,
    on_mutant: Callable[[Mutant, str | None], None] | None = None,
) -> dict[str, str | None]:
    """Mutant id -> the name of the first trace (in ``traces()`` order) whose replay kills it.

    ``traces`` is called once per mutant and may build the traces lazily (seeded walks
    are cheaper to play again than to hold), so a long reserve costs no memory. Each
    mutant is compiled at most once, and only if some answer is not cached.
    """
    store = _load(cache)
    out: dict[str, str | None] = {}
    try:
        for m in mutants:
            entry = store.setdefault(mutant_key(pages, m), {"compiled": None, "kills": {}})
            out[m.id] = None
            if entry["compiled"] is False:
                continue
            engine: RlEngine | None = None
            dest = game_dir / "build" / "adequacy" / m.id.replace(":", "-")
            try:
                for name, trace in traces():
                    key = trace_key(trace)
                    if key not in entry["kills"]:
                        if engine is None:
                            engine = _start(game_dir, m, dest)
                            entry["compiled"] = engine is not None
                            if engine is None:
                                break
                        entry["kills"][key] = not replay(engine, trace).ok
                    if entry["kills"][key]:
                        out[m.id] = name
                        break
            except Rulebook2GameError:
                entry["compiled"] = False
            finally:
                if engine is not None:
                    engine.close()
                shutil.rmtree(dest, ignore_errors=True)
            if on_mutant is not None:
                on_mutant(m, out[m.id])
            _save(cache, store)
    finally:
        _save(cache, store)
    return out
