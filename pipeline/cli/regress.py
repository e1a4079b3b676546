"""``rulebook2game regress CORPUS``: every golden trace of every game, plus short seeded passes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from rulebook2game.check.report import FindingRecord
from rulebook2game.cli._common import console, fail_cleanly
from rulebook2game.engine import CHANCE
from rulebook2game.errors import BadInputError, Rulebook2GameError
from rulebook2game.regress import GameOutcome, RegressResult, RegressSettings, regress
from rulebook2game.trace import write_text_atomic
from rulebook2game.traces.coverage import game_coverage

SHOWN_STEPS = 24
"""Counterexample steps printed (the first and last half); ``--json`` has them all."""
_COLOURS = {"ok": "green", "failed": "red", "error": "red", "skipped": "dim"}
_MARKS = {
    "reference": "[green]ok (reference)[/]",
    "rulebook": "[green]ok (rulebook)[/] ",
    "fuzz_only": "[yellow]ok (fuzz only)[/]",
    "none": "[yellow]ok (nothing)[/]  ",
}
"""A passing game's mark says what the pass rests on (see ``check.evidence``)."""


def _game_line(outcome: GameOutcome) -> str:
    mark = _MARKS.get(outcome.assurance, "[bold red]FAIL[/]") if outcome.ok else "[bold red]FAIL[/]"
    if outcome.report is None:
        return f"{mark} {escape(outcome.game):<16} {escape(outcome.error or '')}"
    stages = "  ".join(
        f"[{_COLOURS[s.status]}]{s.name}[/] {escape(s.summary)}"
        if s.name != "compile"
        else f"[{_COLOURS[s.status]}]compile {s.status}[/]"
        for s in outcome.report.stages
    )
    return f"{mark} {escape(outcome.game):<16} {outcome.report.seconds:6.2f} s  {stages}"


def _coverage_lines(outcome: GameOutcome) -> list[str]:
    """What the game's golden traces cover, and what none covers (empty if unreadable)."""
    try:
        return [f"     covers: {line}" for line in game_coverage(outcome.path).lines()]
    except Rulebook2GameError:
        return []


def _show_game(outcome: GameOutcome) -> None:
    console.print(_game_line(outcome), soft_wrap=True)
    for line in _coverage_lines(outcome):
        console.print(line, markup=False, highlight=False, soft_wrap=True, style="dim")


def _counterexample(finding: FindingRecord) -> list[str]:
    lines = [f"  {finding.kind} ({finding.stage}): {finding.message}"]
    said = f"expected {finding.expected}, got {finding.actual}"
    if (finding.expected or finding.actual) and said not in finding.message:
        lines.append(f"  {said}")
    for page in finding.pages:
        cites = f" (cites {', '.join(page.sections)})" if page.sections else ""
        lines.append(f"  page {page.path}{f':{page.line}' if page.line else ''}{cites}")
    if finding.counterexample is not None:
        how = "the golden trace up to the divergence" if finding.stage == "replay" else "shrunk"
        lines.append(f"  counterexample ({len(finding.counterexample)} steps, {how}):")
        steps = [
            f"    {s.t:>3} {'chance' if s.player == CHANCE else f'player {s.player}':<9} {s.action}"
            for s in finding.counterexample
        ]
        if len(steps) > SHOWN_STEPS:
            hidden = len(steps) - SHOWN_STEPS
            half = SHOWN_STEPS // 2
            steps = [*steps[:half], f"    ... {hidden} steps (all in --json) ...", *steps[-half:]]
        lines += steps or ["    (the initial state)"]
        if finding.end is not None and finding.end.terminal:
            lines.append(f"    end: terminal, returns {finding.end.returns}")
    return lines


def _summary(result: RegressResult) -> None:
    failed = [g for g in result.games if not g.ok]
    for outcome in failed:
        console.print(
            f"\n[bold red]{escape(outcome.game)}[/]: {escape(str(outcome.path))}", soft_wrap=True
        )
        finding = outcome.first_finding
        if finding is not None:
            more = len(outcome.report.findings) - 1 if outcome.report else 0
            console.print(
                "\n".join(_counterexample(finding)), highlight=False, markup=False, soft_wrap=True
            )
            if more:
                console.print(f"  (+{more} more finding(s))")
        console.print(
            f"  re-run: {outcome.rerun_command(result.settings)}", markup=False, soft_wrap=True
        )
    if result.missing_stages:
        missing = ", ".join(result.missing_stages)
        console.print(f"[yellow]note:[/] this version's checks have no {missing} stage: not run")
    levels = Counter(g.assurance for g in result.games if g.ok)
    for level, words in (("fuzz_only", "fuzz only"), ("none", "nothing verified")):
        if levels.get(level):
            console.print(
                f"[yellow]note:[/] {levels[level]} game(s) passed on {words}: "
                "agreement with the rulebook is unverified for them"
            )
    verdict = "[bold green]PASS[/]" if result.ok else f"[bold red]FAIL[/] ({len(failed)} game(s))"
    console.print(
        f"{verdict}: {len(result.games)} games in {result.seconds:.1f} s "
        f"(stages: {', '.join(result.stages) or 'none'}; seed {result.settings.seed})"
    )


def _as_json(result: RegressResult) -> str:
    data = {
        "format": "rulebook2game-regress/1",
        "root": str(result.root),
        "ok": result.ok,
        "seconds": round(result.seconds, 3),
        "stages": list(result.stages),
        "missing_stages": list(result.missing_stages),
        "settings": vars(result.settings),
        "games": [
            {
                "game": g.game,
                "path": str(g.path),
                "ok": g.ok,
                "assurance": g.assurance,
                "verdict": g.verdict,
                "error": g.error,
                "rerun": g.rerun_command(result.settings),
                "report": g.report.model_dump(mode="json") if g.report else None,
                "coverage": _coverage_json(g),
            }
            for g in result.games
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _coverage_json(outcome: GameOutcome) -> dict[str, object] | None:
    try:
        return game_coverage(outcome.path).to_json()
    except Rulebook2GameError:
        return None


def regress_command(
    corpus: Annotated[Path, typer.Argument(help="A corpus folder of game dirs (or one game dir).")],
    seed: Annotated[int, typer.Option(help="Seed of the fuzz and oracle passes.")] = 0,
    fuzz: Annotated[int, typer.Option(help="Fuzz playouts per game.")] = 100,
    oracle: Annotated[
        int, typer.Option("--oracle-runs", help="Oracle trajectories per game.")
    ] = 20,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Games checked at once.")] = 2,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the full result as JSON here.")
    ] = None,
) -> None:
    """Check every game of a corpus (golden traces, short seeded fuzz and oracle passes).

    One line per game, then the minimal counterexample of each failing game; exits 1
    on any finding. Fast enough to run in CI on every change.
    """
    with fail_cleanly():
        if fuzz < 0 or oracle < 0 or jobs < 1:
            raise BadInputError("--fuzz and --oracle-runs must be >= 0, --jobs >= 1")
        settings = RegressSettings(
            seed=seed, fuzz_playouts=fuzz, oracle_trajectories=oracle, jobs=jobs
        )
        result = regress(corpus, settings, on_game=_show_game)
        _summary(result)
        if json_out is not None:
            write_text_atomic(json_out, _as_json(result))
    if not result.ok:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``regress`` to the command line."""
    app.command("regress")(regress_command)
