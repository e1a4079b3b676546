"""``rulebook2game bench GAME_DIR``: random playouts per second, side by side with OpenSpiel."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from rulebook2game.bench import (
    BATCHED,
    GOAL_RATIO,
    IN_PROCESS,
    NATIVE,
    OPENSPIEL,
    PYSPIEL_PYTHON,
    PYTHON,
    ROUNDS,
    BenchReport,
    BenchRow,
    bench_workspace,
    row_label,
    time_check,
)
from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.errors import BadInputError
from rulebook2game.regress import game_dirs
from rulebook2game.trace import write_text_atomic
from rulebook2game.workspace import open_workspace

STEP_ROWS = (IN_PROCESS, BATCHED, PYSPIEL_PYTHON)


def _progress(target: str) -> Callable[[BenchRow], None]:
    """Print each row as it lands, labelled as the table will label it."""

    def show(row: BenchRow) -> None:
        label = row_label(row.engine, target)
        err_console.print(f"[dim]{label}: {row.per_second:,.0f} playouts/s[/]")

    return show


def _game_cell(report: BenchReport) -> str:
    """The game's name, with its target unless that is plain rl."""
    return report.game if report.target == "rl" else f"{report.game} ({report.target})"


def _ratio_text(report: BenchReport, engine: str) -> str:
    ratio = report.ratio(engine, OPENSPIEL)
    return f"{ratio:.2f}x" if ratio is not None else "-"


def render_table(report: BenchReport) -> Table:
    """The playout rows as a rich table with ratios to OpenSpiel's C++ loop."""
    table = Table(
        title=f"bench {report.game} ({report.budget_seconds:g} s each)", title_justify="left"
    )
    for column in (
        "engine",
        "playouts",
        "seconds",
        "clock",
        "playouts/s",
        "actions/playout",
        "vs openspiel",
    ):
        table.add_column(column, justify="left" if column == "engine" else "right")
    for row in report.rows:
        if row.engine in STEP_ROWS:
            continue  # shown in render_steps_table, in actions per second
        length = f"{row.mean_length:.1f}" if row.mean_length is not None else "-"
        table.add_row(
            report.label(row.engine),
            f"{row.playouts:,}",
            f"{row.seconds:.2f}",
            row.clock,
            f"{row.per_second:,.0f}",
            length,
            _ratio_text(report, row.engine),
        )
    return table


def render_steps_table(report: BenchReport) -> Table | None:
    """Actions per second of the per-step Python rows, beside OpenSpiel's Python stepping."""
    rows = [r for r in report.rows if r.engine in STEP_ROWS and r.steps_per_second is not None]
    if not rows:
        return None
    table = Table(title="actions per second, one Python call per step", title_justify="left")
    for column in ("engine", "actions/s", "vs openspiel python"):
        table.add_column(column, justify="left" if column == "engine" else "right")
    for row in rows:
        ratio = report.step_ratio(row.engine, PYSPIEL_PYTHON)
        table.add_row(
            report.label(row.engine),
            f"{row.steps_per_second:,.0f}",
            f"{ratio:.2f}x" if ratio is not None else "-",
        )
    return table


def summary_rows(reports: list[BenchReport]) -> list[tuple[str, ...]]:
    """One row per game: native and OpenSpiel rates, their ratio, the in-process ratio."""
    rows: list[tuple[str, ...]] = []
    for r in reports:
        native, openspiel = r.row(NATIVE), r.row(OPENSPIEL)
        ratio = r.ratio(NATIVE, OPENSPIEL)
        per_step = r.step_ratio(IN_PROCESS, PYSPIEL_PYTHON)
        rows.append(
            (
                _game_cell(r),
                f"{native.per_second:,.0f}" if native else "-",
                f"{openspiel.per_second:,.0f}" if openspiel else "-",
                f"{ratio:.1f}x" if ratio is not None else "-",
                r.round_range(),
                f"{per_step:.2f}x" if per_step is not None else "-",
                ("met" if ratio >= GOAL_RATIO else "below") if ratio is not None else "-",
                *_check_cells(r),
            )
        )
    return rows


def _check_cells(report: BenchReport) -> tuple[str, str]:
    """The full check's seconds and its slowest stage ("-" when check did not run)."""
    if report.check is None:
        return ("-", "-")
    name, seconds = report.check.slowest
    return (f"{report.check.seconds:.1f}", f"{name} {seconds:.1f} s")


SUMMARY_COLUMNS = (
    "game",
    "native playouts/s",
    "openspiel c++ playouts/s",
    "native / openspiel",
    "per round",
    "in-process / pyspiel python",
    f"{GOAL_RATIO:g}x goal",
    "check s",
    "slowest check stage",
)


def summary_markdown(reports: list[BenchReport], seconds: float, seed: int) -> str:
    """The all-games table as Markdown, with the command that repeats it."""
    lines = [
        "# bench, every game",
        "",
        f"Each engine ran {seconds:g} s per game (seed {seed}); CPU seconds, one machine, one run. "
        f"The native loop and OpenSpiel's C++ loop took turns in {ROUNDS} rounds, both on "
        "one CPU in each round, the rounds going round the CPUs; "
        "*per round* is the lowest and highest ratio of a round.",
        "",
        "| " + " | ".join(SUMMARY_COLUMNS) + " |",
        "|" + "---|" * len(SUMMARY_COLUMNS),
    ]
    lines += ["| " + " | ".join(row) + " |" for row in summary_rows(reports)]
    return "\n".join(lines) + "\n"


def report_stem(root: Path, when: datetime) -> str:
    """``<date>-bench-<corpus>``: the corpus folder's name keeps the reports of two corpora
    benched the same day into one folder (``corpora``, ``corpora/rbg``) apart."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", root.resolve().name).strip("-.") or "corpus"
    return f"{when:%Y-%m-%d}-bench-{name}"


def unused_stem(out: Path, stem: str) -> str:
    """``stem``, or ``stem-2``, ``stem-3``... when ``out`` already holds a report of
    that name: a second run of the day keeps the first one's numbers to compare with."""
    taken = {path.stem for path in out.glob(f"{stem}*")} if out.is_dir() else set()
    number, free = 1, stem
    while free in taken:
        number += 1
        free = f"{stem}-{number}"
    return free


def _bench_all(
    root: Path, seconds: float, seed: int, trust: bool, out: Path, check: bool = False
) -> None:
    games = game_dirs(root)
    if out.exists() and not out.is_dir():  # said before minutes of benching, not after
        raise BadInputError(f"--out {out}: not a directory")
    reports = []
    for path in games:
        err_console.print(f"[dim]{path.name}...[/]")
        ws = open_workspace(path)
        # The check first: pages it passes get the in-process rows too (it writes no
        # report, so its verdict is passed on here).
        timing = time_check(ws, seed=seed) if check else None
        passed = timing is not None and timing.ok
        report = bench_workspace(ws, seconds=seconds, seed=seed, trust=trust or passed)
        reports.append(report.model_copy(update={"check": timing}))
    table = Table(title=f"bench {root} ({seconds:g} s each)", title_justify="left")
    for column in SUMMARY_COLUMNS:
        table.add_column(column, justify="left" if column == "game" else "right")
    for row in summary_rows(reports):
        table.add_row(*row)
    console.print(table)
    stem = unused_stem(out, report_stem(root, datetime.now(UTC)))
    data = {"seconds": seconds, "seed": seed, "games": [r.as_json() for r in reports]}
    json_path, md_path = out / f"{stem}.json", out / f"{stem}.md"
    write_text_atomic(json_path, json.dumps(data, indent=2) + "\n")
    write_text_atomic(md_path, summary_markdown(reports, seconds, seed))
    console.print(f"wrote {json_path} and {md_path}")


def bench(
    game_dir: Annotated[
        Path,
        typer.Argument(help="The game directory (has game.toml, pages/); with --all, a corpus."),
    ],
    every: Annotated[
        bool,
        typer.Option(
            "--all", help="Bench every game of the corpus folder GAME_DIR into one table."
        ),
    ] = False,
    out: Annotated[
        Path, typer.Option(help="With --all: where the JSON and Markdown reports go.")
    ] = Path("evals/reports"),
    seconds: Annotated[float, typer.Option(help="Time budget of each engine.")] = 3.0,
    seed: Annotated[int, typer.Option(help="Seed of the random playouts.")] = 0,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the results as JSON to this file.")
    ] = None,
    trust: Annotated[
        bool, typer.Option(help="Run the in-process rows even if the pages have not passed check.")
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="With --all: also run each game's full default check and show its time "
            "and slowest stage.",
        ),
    ] = False,
) -> None:
    """Random playouts per second: native rl loop, Python-driven rl engine, OpenSpiel C++."""
    with fail_cleanly():
        if seconds <= 0:
            raise BadInputError("--seconds must be positive")
        if every:
            _bench_all(game_dir, seconds, seed, trust, out, check)
            return
        ws = open_workspace(game_dir)
        report = bench_workspace(
            ws, seconds=seconds, seed=seed, on_row=_progress(ws.config().target), trust=trust
        )
        console.print(render_table(report))
        steps_table = render_steps_table(report)
        if steps_table is not None:
            console.print(steps_table)
        native_python = report.ratio(NATIVE, PYTHON)
        if native_python is not None:
            console.print(f"native loop / python-driven engine: {native_python:,.0f}x")
            console.print(
                "(python-driven: one round trip to the sandboxed worker per action, as the "
                "checks step; in-process: the checked build loaded into Python, as "
                "rulebook2game.load gives it to players and learners)"
            )
        per_step = report.step_ratio(IN_PROCESS, PYSPIEL_PYTHON)
        if per_step is not None:
            console.print(f"in-process python stepping / openspiel python: {per_step:.2f}x")
        for note in report.notes:
            console.print(note)
        if json_out is not None:
            text = json.dumps(report.as_json(), indent=2) + "\n"
            write_text_atomic(json_out, text)


def register(app: typer.Typer) -> None:
    """Add ``bench`` to the command line."""
    app.command("bench")(bench)
