"""The eval report (format ``rulebook2game-eval/1``): per-game metrics, overall, provenance.

Every number names how to re-run the check behind it: the report keeps the suite
(file and sha256), the settings and seed, the git commit of the tool, and per game
the commands that reproduce its numbers (``rulebook2game check ...``,
``rulebook2game eval ...``) plus the run indices of disagreeing oracle trajectories.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebook2game.errors import BadInputError
from rulebook2game.trace import write_text_atomic

REPORT_FORMAT: Literal["rulebook2game-eval/1"] = "rulebook2game-eval/1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Ratio(_Model):
    """``num`` of ``den`` (a rate; ``None`` when nothing was measured)."""

    num: int = 0
    den: int = 0

    @property
    def rate(self) -> float | None:
        return self.num / self.den if self.den else None

    def __add__(self, other: Ratio) -> Ratio:
        return Ratio(num=self.num + other.num, den=self.den + other.den)


class Disagreement(_Model):
    """One oracle trajectory that left the reference engine."""

    run: int
    """Trajectory index: its generator is ``random.Random(f"{seed}:oracle:{run}")``."""
    step: int
    what: str
    message: str


class OracleRecord(_Model):
    """Oracle agreement: lockstep trajectories that never disagreed."""

    binding: str
    agreement: Ratio
    steps: int = 0
    disagreements: list[Disagreement] = Field(default_factory=list)


class CoverageRecord(_Model):
    """Rulebook-sentence coverage: rule sentences cited by some page / all rule sentences."""

    source: str
    """Where the ledger came from: ``rulebook.json``, ``rules.md``, the PDF or ``none``."""
    sentences: Ratio
    uncited: list[str] = Field(default_factory=list)
    """Ids of rule sentences no page cites."""
    dangling: list[str] = Field(default_factory=list)
    """Citations of pages that name no sentence of the rulebook."""
    uncovered_examples: list[str] = Field(default_factory=list)
    """Ids of example sentences no scenario cites (examples are not rule sentences)."""
    out_of_scope: dict[str, str] = Field(default_factory=dict)
    """Sentence id -> why, for those ``scope.toml`` declares out of scope (neither cited
    nor uncited)."""


class MutantRecord(_Model):
    """Mutants of the gold pages killed by the checks."""

    killed: Ratio
    survivors: list[str] = Field(default_factory=list)
    """Every unexplained survivor: ``page:line:column operator: description``."""
    equivalent: int = 0
    """Mutants reviewed as equivalent (not run, not in the rate)."""
    seconds: float | None = None
    """Wall time of the game's mutant run."""


class RunsRecord(_Model):
    """Totals over the game's agent runs (``runs/*/summary.json``)."""

    runs: int
    finished: int
    green: int
    repairs: int
    model_calls: int
    tokens: int
    cost_usd: float | None = None
    latest: str | None = None


class GameRecord(_Model):
    """Every metric of one game."""

    game: str
    path: str
    compiles: bool
    compile: str = ""
    """The compile stage's one-line summary (the first error when it failed)."""
    check_passes: bool = False
    assurance: str = ""
    """What the check's pass rests on: ``reference``, ``rulebook``, ``fuzz_only``, ``none``
    (``failed`` when it did not pass); see :mod:`rulebook2game.check.evidence`."""
    verdict: str = ""
    """The check's verdict line (PASS or FAIL and what was verified)."""
    stages: dict[str, str] = Field(default_factory=dict)
    """Check stage -> ``status: summary``."""
    findings: list[str] = Field(default_factory=list)
    golden: Ratio = Field(default_factory=Ratio)
    oracle: OracleRecord | None = None
    coverage: CoverageRecord | None = None
    mutants: MutantRecord | None = None
    runs: RunsRecord | None = None
    commands: list[str] = Field(default_factory=list)
    """Commands that reproduce this game's numbers."""
    seconds: float = 0.0


class Overall(_Model):
    """The suite's totals (ratios summed over games)."""

    games: int
    compiles: Ratio
    check_passes: Ratio
    oracle_agreement: Ratio
    golden: Ratio
    coverage: Ratio
    mutants: Ratio | None = None
    repairs: int = 0
    model_calls: int = 0
    tokens: int = 0
    cost_usd: float | None = None


class EvalReport(_Model):
    """The whole report of one ``rulebook2game eval``."""

    format: Literal["rulebook2game-eval/1"] = REPORT_FORMAT
    suite: str
    suite_file: str | None = None
    suite_sha256: str | None = None
    created: str
    """ISO 8601 time of the run (UTC)."""
    version: str
    git_commit: str | None = None
    git_dirty: bool | None = None
    settings: dict[str, object]
    command: str
    """The command that repeats the whole eval."""
    games: list[GameRecord]
    overall: Overall
    seconds: float = 0.0


def overall(games: list[GameRecord], with_mutants: bool) -> Overall:
    """Sum every game's ratios and costs."""
    zero = Ratio()
    costs = [g.runs.cost_usd for g in games if g.runs and g.runs.cost_usd is not None]
    return Overall(
        games=len(games),
        compiles=Ratio(num=sum(g.compiles for g in games), den=len(games)),
        check_passes=Ratio(num=sum(g.check_passes for g in games), den=len(games)),
        oracle_agreement=sum((g.oracle.agreement for g in games if g.oracle), zero),
        golden=sum((g.golden for g in games), zero),
        coverage=sum((g.coverage.sentences for g in games if g.coverage), zero),
        mutants=sum((g.mutants.killed for g in games if g.mutants), zero) if with_mutants else None,
        repairs=sum(g.runs.repairs for g in games if g.runs),
        model_calls=sum(g.runs.model_calls for g in games if g.runs),
        tokens=sum(g.runs.tokens for g in games if g.runs),
        cost_usd=round(sum(costs), 6) if costs else None,
    )


def report_paths(reports_dir: Path, report: EvalReport) -> tuple[Path, Path]:
    """``<reports_dir>/<date>-<suite>.json`` and ``.md``."""
    stem = f"{report.created[:10]}-{report.suite}"
    return reports_dir / f"{stem}.json", reports_dir / f"{stem}.md"


def write_eval_report(report: EvalReport, reports_dir: Path, markdown: str) -> tuple[Path, Path]:
    """Write the JSON record and its Markdown rendering, atomically."""
    json_path, md_path = report_paths(reports_dir, report)
    text = json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    write_text_atomic(json_path, text)
    write_text_atomic(md_path, markdown)
    return json_path, md_path


def load_eval_report(path: Path) -> EvalReport:
    """Read an eval report; anything else is bad input."""
    try:
        return EvalReport.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise BadInputError(f"{path}: file not found") from None
    except (OSError, ValidationError, ValueError) as exc:
        raise BadInputError(f"{path}: not an eval report ({type(exc).__name__})") from None
