"""Run a suite: every game measured, the totals, and the provenance a reader needs to re-run it."""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime

from rulebook2game._version import __version__
from rulebook2game.evals.metrics import evaluate_game
from rulebook2game.evals.report import EvalReport, GameRecord, overall
from rulebook2game.evals.suite import Suite
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


def run_suite(suite: Suite, on_game: Callable[[GameRecord], None] | None = None) -> EvalReport:
    """Measure every game of ``suite`` in order."""
    started = time.perf_counter()
    created = datetime.now(UTC).isoformat(timespec="seconds")
    games: list[GameRecord] = []
    for path in suite.games:
        record = evaluate_game(path, suite.settings)
        games.append(record)
        if on_game is not None:
            on_game(record)
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
