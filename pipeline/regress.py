"""``rulebook2game regress CORPUS``: the corpus must not regress, fast enough for every CI run.

For every game directory under the corpus folder (every folder with a ``game.toml``)
the check pipeline runs with small, seeded budgets: compile, replay of every golden
trace, and, where this version of :mod:`rulebook2game.check` has them, a short fuzz
pass and a short oracle lockstep pass. A game passes when no stage finds anything.
The result lists which stages ran, so a reader knows when a run was replay-only.

Games run in parallel threads (compiling and the engines are subprocesses).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook2game.check import run as check_run
from rulebook2game.check.report import CheckReport, FindingRecord
from rulebook2game.errors import BadInputError, Rulebook2GameError
from rulebook2game.workspace import GameConfig, open_workspace

WANTED_STAGES = ("compile", "replay", "fuzz", "oracle")


@dataclass(frozen=True)
class RegressSettings:
    """Budgets of the seeded passes (small: regress runs on every change)."""

    seed: int = 0
    fuzz_playouts: int = 100
    oracle_trajectories: int = 20
    jobs: int = 2

    def check_options(self) -> dict[str, Any]:
        """Options for :func:`rulebook2game.check.run.run_check`.

        Each stage stops at its first finding: one shrunk counterexample per stage is
        what a failing CI run needs, and shrinking more would cost minutes.
        """
        return {
            "fuzz": self.fuzz_playouts,
            "oracle": self.oracle_trajectories,
            "stop_at_first": True,
        }


@dataclass(frozen=True)
class GameOutcome:
    """One game's regression result."""

    game: str
    path: Path
    report: CheckReport | None
    error: str | None = None
    """Why the game could not be checked at all (a broken ``game.toml``, ...)."""

    @property
    def ok(self) -> bool:
        return self.error is None and self.report is not None and self.report.ok

    @property
    def assurance(self) -> str:
        """What a pass is worth (see :mod:`rulebook2game.check.evidence`); ``failed`` otherwise."""
        if self.report is None:
            return "failed"
        from rulebook2game.check.evidence import assess

        return assess(self.report).assurance

    @property
    def verdict(self) -> str:
        """The check's verdict line: PASS or FAIL and what was verified."""
        if self.report is None:
            return f"FAIL — {self.error}"
        from rulebook2game.check.evidence import verdict

        return verdict(self.report)

    @property
    def first_finding(self) -> FindingRecord | None:
        """The finding with the shortest counterexample (the one printed)."""
        if self.report is None or not self.report.findings:
            return None
        return min(
            self.report.findings,
            key=lambda f: len(f.counterexample) if f.counterexample is not None else 1 << 30,
        )

    def rerun_command(self, settings: RegressSettings) -> str:
        """The command that re-runs this game's checks with the same seed."""
        words = ["rulebook2game", "check", str(self.path), "--seed", str(settings.seed)]
        words += ["--fuzz", str(settings.fuzz_playouts)]
        return shlex.join([*words, "--oracle-runs", str(settings.oracle_trajectories)])


@dataclass(frozen=True)
class RegressResult:
    """The whole corpus run."""

    root: Path
    settings: RegressSettings
    games: tuple[GameOutcome, ...]
    seconds: float
    stages: tuple[str, ...] = field(default=())
    """Stages the check pipeline ran (``compile``, ``replay``, ...)."""

    @property
    def ok(self) -> bool:
        return all(g.ok for g in self.games)

    @property
    def missing_stages(self) -> tuple[str, ...]:
        """Wanted stages this version of the checks does not have (e.g. ``fuzz``).

        Empty when no game got as far as the checks (nothing to tell from).
        """
        if not self.stages:
            return ()
        return tuple(s for s in WANTED_STAGES if s not in self.stages)


def game_dirs(root: Path) -> list[Path]:
    """The game directories of a corpus folder (or the folder itself if it is one)."""
    if not root.is_dir():
        raise BadInputError(f"{root}: not a directory")
    if (root / "game.toml").is_file():
        return [root]
    games = sorted(p for p in root.iterdir() if (p / "game.toml").is_file())
    if not games:
        raise BadInputError(f"{root}: no game directories (folders with a game.toml)")
    return games


def available_stages() -> tuple[Callable[..., Any], ...]:
    """Every check stage (regress runs them all, with smaller budgets than ``check``)."""
    return check_run.ALL_STAGES


def game_options(settings: RegressSettings, config: GameConfig) -> dict[str, Any]:
    """The check options of one game: the settings, capped by its ``[regress]`` table."""
    options = settings.check_options()
    for key, cap in (("fuzz", config.regress.fuzz), ("oracle", config.regress.oracle)):
        if cap is not None:
            options[key] = min(int(options[key]), cap)
    return options


def regress_game(path: Path, settings: RegressSettings) -> GameOutcome:
    """Run the short seeded checks on one game."""
    try:
        ws = open_workspace(path)
        config = ws.config()
        # A second translation named in game.toml is walked too, as check walks it.
        stages = check_run.stages_for(config) if config.second_opinion else available_stages()
        report = check_run.run_check(
            ws, stages, seed=settings.seed, options=game_options(settings, config)
        )
        name = config.name
    except Rulebook2GameError as exc:
        return GameOutcome(path.name, path, None, str(exc))
    return GameOutcome(name, path, report)


def regress(
    root: Path,
    settings: RegressSettings | None = None,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> RegressResult:
    """Regress every game of ``root``; ``on_game`` sees each result in corpus order."""
    chosen = settings or RegressSettings()
    started = time.perf_counter()
    paths = game_dirs(root)
    outcomes: list[GameOutcome] = []
    with ThreadPoolExecutor(max_workers=max(1, chosen.jobs)) as pool:
        for outcome in pool.map(lambda p: regress_game(p, chosen), paths):
            outcomes.append(outcome)
            if on_game is not None:
                on_game(outcome)
    ran = _stages_run(outcomes)
    return RegressResult(root, chosen, tuple(outcomes), time.perf_counter() - started, ran)


def _stages_run(outcomes: Sequence[GameOutcome]) -> tuple[str, ...]:
    names: dict[str, None] = {}
    for outcome in outcomes:
        for stage in outcome.report.stages if outcome.report else ():
            names.setdefault(stage.name, None)
    return tuple(names)
