"""``rulebook2game check GAME_DIR``: compile, fuzz, replay the golden traces, oracle; report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from rulebook2game.check.report import (
    CheckReport,
    StageResult,
    render_console,
    report_json,
    write_report,
)
from rulebook2game.check.run import run_check, stages_for
from rulebook2game.check.stages import DEFAULT_FUZZ, DEFAULT_ORACLE
from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.trace import write_text_atomic
from rulebook2game.workspace import open_workspace

REQUEST_TIMEOUT = 3.0
"""Seconds of CPU one request to the engine worker may take (a step, or a playout batch)."""


def _progress(result: StageResult) -> None:
    err_console.print(f"[dim]{result.name}: {result.status} ({result.seconds:.2f} s)[/]")


def _print_diagnostics(report: CheckReport) -> None:
    for stage in report.stages:
        for text in stage.stats.get("diagnostics", []):
            console.print(text, highlight=False, markup=False)


def check(
    game_dir: Annotated[Path, typer.Argument(help="The game directory (has game.toml, pages/).")],
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the report as JSON to this file.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the randomized stages.")] = 0,
    fuzz: Annotated[
        int, typer.Option("--fuzz", min=0, help="Random playouts of the fuzz stage (0: skip).")
    ] = DEFAULT_FUZZ,
    oracle_runs: Annotated[
        int,
        typer.Option(
            "--oracle-runs", min=0, help="Trajectories compared with the oracle (0: skip)."
        ),
    ] = DEFAULT_ORACLE,
    oracle: Annotated[
        str | None,
        typer.Option(
            "--oracle",
            help="The reference engine instead of game.toml's: openspiel:NAME or "
            "gdl:PATH.kif (a GDL description; its moves are mapped by the game's gdl.toml).",
        ),
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            help="Another translation of the game (a game directory, any target) to walk "
            "in lockstep with this one.",
        ),
    ] = None,
    lines: Annotated[
        bool,
        typer.Option(
            "--lines",
            help="Then list the page lines no check executed, after walks steered toward "
            "them (a coverage build; never a reason to fail).",
        ),
    ] = False,
) -> None:
    """Compile, fuzz, replay traces and scenarios, compare with the oracle; exit 0 if clean.

    Every finding comes with a minimal counterexample and the pages involved. The
    verdict line names the evidence behind it. The report is printed and written to
    GAME_DIR/reports/check.json and check.md.

    Another translation of the game (any target), given with the against option, is
    walked in lockstep with this one; each difference names both sides' pages.
    """
    with fail_cleanly():
        ws = open_workspace(game_dir)
        options: dict[str, object] = {
            "fuzz": fuzz,
            "oracle": oracle_runs,
            "request_timeout": REQUEST_TIMEOUT,
        }
        if oracle is not None:
            options["oracle_binding"] = oracle
        if against is not None:
            open_workspace(against)  # a bad path fails here, before any stage runs
            options["against"] = str(against)
        stages = stages_for(ws.config(), options, lines=lines)
        report = run_check(ws, stages, seed=seed, options=options, on_stage=_progress)
        render_console(report, console)
        _print_diagnostics(report)
        written = list(write_report(report, ws.reports_dir))
        if json_out is not None:
            data = report_json(report)
            write_text_atomic(json_out, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            written.append(json_out)
        console.print(
            "report: " + ", ".join(str(p) for p in written), highlight=False, markup=False
        )
    if not report.ok:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``check`` to the command line."""
    app.command("check")(check)
