"""``rulebook2game eval``: translation and detection metrics per game and overall.

``rulebook2game eval corpora/`` (or a game directory, or a suite file) measures every
game and writes ``evals/reports/<date>-<suite>.json`` and ``.md``;
``rulebook2game eval --compare OLD.json NEW.json`` compares two reports.

The mutant kill rate (``--mutants``) runs every sampled mutant through the checks.
Games and mutants are independent jobs: ``--ray local`` or ``--ray HOST:PORT`` sends
them to a Ray cluster instead of this process and its local pool (see
:mod:`rulebook2game.jobs`). An interrupted eval run again with the same arguments skips
the games it had finished.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.cli._progress import MutantProgress
from rulebook2game.errors import BadInputError
from rulebook2game.evals.compare import compare_reports, regressions
from rulebook2game.evals.render import (
    compare_markdown,
    compare_table,
    not_measured_text,
    rich_table,
)
from rulebook2game.evals.render import render_markdown as render_report
from rulebook2game.evals.report import GameRecord, load_eval_report, write_eval_report
from rulebook2game.evals.run import run_suite
from rulebook2game.evals.suite import Suite, adhoc_suite, load_suite
from rulebook2game.jobs import JobJournal, RayRunner, Runner
from rulebook2game.resources import EVALS_DIR, IN_CHECKOUT
from rulebook2game.trace import write_text_atomic

DEFAULT_SUITE = EVALS_DIR / "corpus.toml"
DEFAULT_REPORTS = EVALS_DIR / "reports" if IN_CHECKOUT else Path("evals") / "reports"
"""The checkout's ``evals/reports/``; in a wheel install, ``evals/reports/`` under the cwd."""


def _suite(target: Path | None, suite_file: Path | None) -> Suite:
    if target is not None and suite_file is not None:
        raise BadInputError("give a corpus folder or --suite, not both")
    if suite_file is not None:
        return load_suite(suite_file)
    if target is None:
        if not DEFAULT_SUITE.is_file():
            raise BadInputError(
                "nothing to measure: the default suite evals/corpus.toml comes with a source "
                "checkout; give a corpus folder, a game directory or --suite FILE"
            )
        return load_suite(DEFAULT_SUITE)
    if target.is_file() and target.suffix == ".toml":
        return load_suite(target)
    return adhoc_suite(target)


def _progress(record: GameRecord) -> None:
    verdict = "[green]pass[/]" if record.check_passes else "[red]fail[/]"
    took = ""
    if record.mutants is not None and record.mutants.seconds is not None:
        took = f", mutants {record.mutants.seconds:.1f} s"
    err_console.print(f"[dim]{record.game}: check {verdict} ({record.seconds:.1f} s{took})[/]")


def _compare(paths: tuple[Path, Path], output: Path | None, fail_on_worse: bool) -> None:
    old, new = (load_eval_report(p) for p in paths)
    changes = compare_reports(old, new)
    console.print(compare_table(changes))
    missing = not_measured_text(changes)
    if missing:
        console.print("not measured in the new report (not compared):", highlight=False)
        console.print(missing, highlight=False, markup=False, soft_wrap=True)
    worse = regressions(changes)
    console.print(f"{len(worse)} metric(s) got worse" if worse else "nothing got worse")
    if output is not None:
        write_text_atomic(output, compare_markdown(changes, old, new))
        err_console.print(f"wrote {output}")
    if worse and fail_on_worse:
        raise typer.Exit(code=1)


def eval_command(
    target: Annotated[
        Path | None,
        typer.Argument(
            help="Corpus folder, game directory or suite file (default: evals/corpus.toml)."
        ),
    ] = None,
    suite_file: Annotated[Path | None, typer.Option("--suite", help="A suite file.")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of every randomized measure (default: the suite's).")
    ] = None,
    trajectories: Annotated[
        int | None,
        typer.Option(min=0, help="Oracle-agreement trajectories per game (default: the suite's)."),
    ] = None,
    fuzz: Annotated[
        int | None,
        typer.Option(min=0, help="Fuzz playouts of the check run (default: the suite's)."),
    ] = None,
    oracle: Annotated[
        int | None,
        typer.Option(
            "--oracle-runs",
            min=0,
            help="Oracle trajectories of the check run (default: the suite's).",
        ),
    ] = None,
    mutants: Annotated[
        bool, typer.Option("--mutants", help="Also measure the mutant kill rate.")
    ] = False,
    max_mutants: Annotated[
        int | None, typer.Option(min=0, help="Mutants per game with --mutants (0: all).")
    ] = None,
    oracle_blind: Annotated[
        bool,
        typer.Option(
            "--oracle-blind",
            help="The check run does not see the reference engine; it only scores agreement.",
        ),
    ] = False,
    out: Annotated[
        Path | None, typer.Option(help="Reports folder (default: evals/reports/).")
    ] = None,
    compare: Annotated[
        tuple[Path, Path] | None,
        typer.Option("--compare", help="Compare two reports: OLD.json NEW.json."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="With --compare: write Markdown here.")
    ] = None,
    fail_on_worse: Annotated[
        bool, typer.Option("--fail-on-worse", help="With --compare: exit 1 if a metric got worse.")
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, help="Mutants checked at once with --mutants (default: cores)."
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Run games and mutants as jobs on a Ray cluster: 'local' or HOST:PORT.",
        ),
    ] = None,
) -> None:
    """Measure translation quality per game and overall, and write a report."""
    with fail_cleanly():
        if compare is not None:
            _compare(compare, output, fail_on_worse)
            return
        suite = _suite(target, suite_file).with_settings(
            seed=seed,
            trajectories=trajectories,
            fuzz=fuzz,
            oracle=oracle,
            mutants=True if mutants else None,
            max_mutants=max_mutants,
            oracle_blind=True if oracle_blind else None,
        )
        _run(suite, out or DEFAULT_REPORTS, RayRunner(ray) if ray else None, jobs)


def _run(suite: Suite, reports_dir: Path, runner: Runner | None, jobs: int | None) -> None:
    journal = JobJournal(reports_dir / ".jobs" / suite.name)
    s = suite.settings
    report = run_suite(
        suite,
        on_game=_progress,
        runner=runner,
        journal=journal,
        on_mutant=MutantProgress(s.max_mutants or None, s.seed) if s.mutants else None,
        mutant_workers=jobs,
    )
    if runner is not None and runner.retried:
        err_console.print(f"{len(runner.retried)} job(s) retried on {runner.name}:")
        for line in runner.retried:
            err_console.print(f"  {line}", markup=False)
    console.print(rich_table(report))
    paths = write_eval_report(report, reports_dir, render_report(report))
    journal.clear()
    console.print(f"wrote {paths[0]} and {paths[1]}")
    console.print(f"repeat: {report.command}", markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add ``eval`` to the command line."""
    app.command("eval")(eval_command)
