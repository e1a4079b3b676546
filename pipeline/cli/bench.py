"""``rulebook2game bench GAME_DIR``: random playouts per second, side by side with OpenSpiel."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from rulebook2game.bench import (
    BATCHED,
    IN_PROCESS,
    NATIVE,
    OPENSPIEL,
    PYSPIEL_PYTHON,
    PYTHON,
    BenchReport,
    BenchRow,
    bench_workspace,
)
from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.errors import BadInputError
from rulebook2game.trace import write_text_atomic
from rulebook2game.workspace import open_workspace

STEP_ROWS = (IN_PROCESS, BATCHED, PYSPIEL_PYTHON)


def _progress(row: BenchRow) -> None:
    err_console.print(f"[dim]{row.engine}: {row.per_second:,.0f} playouts/s[/]")


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
            row.engine,
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
            row.engine,
            f"{row.steps_per_second:,.0f}",
            f"{ratio:.2f}x" if ratio is not None else "-",
        )
    return table


def bench(
    game_dir: Annotated[Path, typer.Argument(help="The game directory (has game.toml, pages/).")],
    seconds: Annotated[float, typer.Option(help="Time budget of each engine.")] = 3.0,
    seed: Annotated[int, typer.Option(help="Seed of the random playouts.")] = 0,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the results as JSON to this file.")
    ] = None,
    trust: Annotated[
        bool, typer.Option(help="Run the in-process rows even if the pages have not passed check.")
    ] = False,
) -> None:
    """Random playouts per second: native rl loop, Python-driven rl engine, OpenSpiel C++."""
    with fail_cleanly():
        if seconds <= 0:
            raise BadInputError("--seconds must be positive")
        ws = open_workspace(game_dir)
        report = bench_workspace(ws, seconds=seconds, seed=seed, on_row=_progress, trust=trust)
        console.print(render_table(report))
        steps_table = render_steps_table(report)
        if steps_table is not None:
            console.print(steps_table)
        native_python = report.ratio(NATIVE, PYTHON)
        if native_python is not None:
            console.print(f"native loop / python-driven engine: {native_python:,.0f}x")
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
