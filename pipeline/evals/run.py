"""Run a suite: every game measured, the totals, and the provenance a reader needs to re-run it."""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from rulebook2game._version import __version__
from rulebook2game.evals.metrics import evaluate_game
from rulebook2game.evals.mutants import MutantOutcome
from rulebook2game.evals.report import EvalReport, GameRecord, overall
from rulebook2game.evals.suite import Settings, Suite
from rulebook2game.jobs import JobJournal, LocalPool, Runner
from rulebook2game.resources import PROJECT_DIR


def git_state() -> tuple[str | None, bool | None]:
    """The tool's git commit and whether the checkout has uncommitted changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=PROJECT_DIR, capture_output=True, text=True
        )
        if head.returncode != 0:
            return None, None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=PROJECT_DIR,
            capture_output=True,
            text=True,
        )
    except OSError:
        return None, None
    return head.stdout.strip(), bool(dirty.stdout.strip())


def suite_command(suite: Suite) -> str:
    """The command that repeats the eval with the same settings."""
    s = suite.settings
    words = ["rulebook2game", "eval"]
    words += ["--suite", str(suite.file)] if suite.file else [str(p) for p in suite.games]
    words += ["--seed", str(s.seed), "--trajectories", str(s.trajectories)]
    words += ["--fuzz", str(s.fuzz), "--oracle-runs", str(s.oracle)]
    words += ["--mutants", "--max-mutants", str(s.max_mutants)] if s.mutants else []
    words += ["--oracle-blind"] if s.oracle_blind else []
    return shlex.join(words)


def _game_job(
    settings: Settings,
    runner: Runner | None,
    on_mutant: Callable[[Path, MutantOutcome], None] | None,
    path: Path,
) -> GameRecord:
    heard = None if on_mutant is None else partial(on_mutant, path)
    return evaluate_game(path, settings, runner, heard)


def run_suite(
    suite: Suite,
    on_game: Callable[[GameRecord], None] | None = None,
    runner: Runner | None = None,
    journal: JobJournal | None = None,
    on_mutant: Callable[[Path, MutantOutcome], None] | None = None,
    mutant_workers: int | None = None,
) -> EvalReport:
    """Measure every game of ``suite``.

    Without ``runner`` the games are measured one after the other here (their mutants on
    a local pool); with one, each game is a job on it and so are its mutants. Games
    already in ``journal`` (an interrupted run of the same suite and settings) are not
    measured again; each finished game is added to it as it ends. ``on_mutant(game,
    outcome)`` hears of each mutant as it is decided; it is only called when the games
    run here (no ``runner``: a callback does not travel to a cluster), and so is
    ``mutant_workers`` (mutants checked at once on the local pool; default one per core).
    """
    started = time.perf_counter()
    created = datetime.now(UTC).isoformat(timespec="seconds")
    keys = [f"{suite.digest} {suite.settings.model_dump_json()} {p}" for p in suite.games]
    records: dict[int, GameRecord] = {}
    for i, key in enumerate(keys):
        if journal is not None and (text := journal.get(key)) is not None:
            records[i] = GameRecord.model_validate_json(text)
            if on_game is not None:
                on_game(records[i])
    todo = [i for i in range(len(keys)) if i not in records]

    def finished(j: int, record: GameRecord) -> None:
        if journal is not None:
            journal.put(keys[todo[j]], record.model_dump_json())
        if on_game is not None:
            on_game(record)

    paths, todo_keys = [suite.games[i] for i in todo], [keys[i] for i in todo]
    if runner is None:
        pool = LocalPool(mutant_workers) if mutant_workers else None
        job = partial(_game_job, suite.settings, pool, on_mutant)
    else:
        job = partial(_game_job, suite.settings, runner, None)
    fresh = (runner or LocalPool(workers=1)).map(job, paths, todo_keys, finished)
    records.update(zip(todo, fresh, strict=True))
    games = [records[i] for i in range(len(keys))]
    commit, dirty = git_state()
    return EvalReport(
        suite=suite.name,
        suite_file=str(suite.file) if suite.file else None,
        suite_sha256=suite.digest,
        created=created,
        version=__version__,
        git_commit=commit,
        git_dirty=dirty,
        settings=suite.settings.model_dump(),
        command=suite_command(suite),
        games=games,
        overall=overall(games, suite.settings.mutants),
        seconds=round(time.perf_counter() - started, 3),
    )
