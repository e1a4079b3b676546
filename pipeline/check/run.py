"""Run the checks of a game directory: a list of stages, each a small function.

A stage takes the shared :class:`CheckContext` and returns a :class:`StageOutcome`
(its :class:`~rulebook2game.check.report.StageResult` and its findings). Stages run in
order; later stages see what earlier ones left in the context (the compile stage
leaves the engine). :func:`run_check` collects everything into a
:class:`~rulebook2game.check.report.CheckReport`. More stages (fuzz, oracle) are added
by passing a longer list.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook2game.check import leak, scenario_stage, seats, sentences, stages
from rulebook2game.check.citations import UnknownCitation, unknown_citations
from rulebook2game.check.finding_positions import with_positions
from rulebook2game.check.findings import (
    COMPILE_ERROR,
    REPLAY,
    UNEXECUTED,
    Finding,
    PageIndex,
    find_location,
)
from rulebook2game.check.replay import replay
from rulebook2game.check.report import (
    CheckReport,
    Coverage,
    StageResult,
    finding_record,
    load_finish_notes,
)
from rulebook2game.engine import Engine
from rulebook2game.errors import Rulebook2GameError, TraceFormatError
from rulebook2game.targets import get_target
from rulebook2game.targets.base import compile_and_start
from rulebook2game.trace import Trace, TraceEnd, read_trace
from rulebook2game.workspace import GameConfig, Interface, Workspace


@dataclass
class CheckContext:
    """What the stages share."""

    workspace: Workspace
    config: GameConfig
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    engine: Engine[Any] | None = None
    """The engine under test, once the compile stage has started it."""
    compile_failed: bool = False
    coverage: Coverage | None = None
    """What the fuzz stage exercised (actions taken, per page)."""
    _index: PageIndex | None = None

    @property
    def index(self) -> PageIndex:
        """Pages and the sections they cite (to locate findings)."""
        if self._index is None:
            ws = self.workspace
            rulebook = ws.rulebook_json if ws.rulebook_json.is_file() else None
            self._index = PageIndex.load(ws.pages_dir, rulebook)
        return self._index

    def close(self) -> None:
        """Stop the engine's worker, if any."""
        closer = getattr(self.engine, "close", None)
        if callable(closer):
            closer()
        self.engine = None


@dataclass(frozen=True)
class StageOutcome:
    """A stage's result row and what it found."""

    result: StageResult
    findings: tuple[Finding, ...] = ()


Stage = Callable[[CheckContext], StageOutcome]


_result = StageResult.since


def compile_stage(ctx: CheckContext) -> StageOutcome:
    """Check the interface and the citations, compile the pages (checked build), start."""
    started = time.perf_counter()
    unreadable = _interface_problem(ctx)
    if unreadable is not None:
        ctx.compile_failed = True
        return StageOutcome(_result("compile", "error", started, unreadable))
    bad_cites = citation_findings(ctx)
    cite_findings = tuple(
        ctx.index.locate(Finding(COMPILE_ERROR, "compile", str(c), location=c.location))
        for c in bad_cites
    )
    timeout = ctx.options.get("request_timeout")
    made = compile_and_start(
        ctx.workspace, request_timeout=None if timeout is None else float(timeout)
    )
    result = made.compiled
    if result is None or (result.ok and made.engine is None):
        ctx.compile_failed = True
        return StageOutcome(_result("compile", "error", started, made.error or "no engine"))
    if bad_cites and made.engine is not None:
        made.close()
        ctx.compile_failed = True
        rendered = [str(c) for c in bad_cites]
        summary = f"{len(bad_cites)} unknown citation(s) in page headers: {rendered[0]}"
        return StageOutcome(
            _result("compile", "failed", started, summary, diagnostics=rendered), cite_findings
        )
    if made.engine is None:
        ctx.compile_failed = True
        findings = tuple(
            ctx.index.locate(
                Finding(
                    COMPILE_ERROR, "compile", d.message, location=d.location if d.line else None
                )
            )
            for d in result.diagnostics
        )
        rendered = [str(d) for d in result.diagnostics] + [str(c) for c in bad_cites]
        findings += cite_findings
        note = None if result.complete else get_target(ctx.config.target).one_error_note
        summary = f"{result.summary()} ({note})" if note else result.summary()
        return StageOutcome(
            _result(
                "compile",
                "failed",
                started,
                summary,
                diagnostics=rendered,
                complete=note is None,
            ),
            findings,
        )
    ctx.engine = made.engine
    build = result.build
    seat_problems = seats.seat_findings(made.engine, ctx.workspace.interface(), ctx.config)
    if seat_problems:
        found = tuple(ctx.index.locate(f) for f in seat_problems)
        summary = f"compiled; seats differ from interface.toml: {seat_problems[0].message}"
        return StageOutcome(_result("compile", "failed", started, summary), found)
    return StageOutcome(
        _result(
            "compile",
            "ok",
            started,
            result.summary(),
            cached=result.cached,
            build=str(build.directory) if build is not None else "",
        )
    )


def citation_findings(ctx: CheckContext) -> list[UnknownCitation]:
    """Page-header citations the rulebook does not have (any target; compile errors)."""
    return unknown_citations(ctx.workspace.root, ctx.workspace.pages_dir)


def _interface_problem(ctx: CheckContext) -> str | None:
    """Why ``interface.toml`` cannot be read, if it cannot: no stage may then pass."""
    try:
        ctx.workspace.interface()
    except Rulebook2GameError as exc:
        return str(exc)
    return None


def _interface_or_none(ws: Workspace) -> Interface | None:
    """``interface.toml``, or ``None`` when there is none or it cannot be read."""
    try:
        return ws.interface()
    except Rulebook2GameError:
        return None


def replay_stage(ctx: CheckContext) -> StageOutcome:
    """Replay every golden trace of ``traces/``; one finding per diverging trace."""
    started = time.perf_counter()
    paths = ctx.workspace.traces()
    if ctx.engine is None:
        why = "no engine (compile failed)" if ctx.compile_failed else "no engine"
        return StageOutcome(_result("replay", "skipped", started, why, traces=len(paths)))
    if not paths:
        return StageOutcome(_result("replay", "skipped", started, "no traces in traces/", traces=0))
    findings: list[Finding] = []
    unreadable: list[str] = []
    steps = 0
    for path in paths:
        try:
            trace = read_trace(path)
        except TraceFormatError as exc:
            unreadable.append(str(exc))
            continue
        steps += len(trace.steps)
        found = _replay_one(ctx, ctx.engine, trace, path.name)
        if found is not None:
            findings.append(ctx.index.locate(found))
    passed = len(paths) - len(findings) - len(unreadable)
    status = "error" if unreadable else ("failed" if findings else "ok")
    summary = f"{passed}/{len(paths)} traces replayed ({steps} steps)"
    if unreadable:
        summary = f"{len(unreadable)} unreadable trace(s): {unreadable[0]}; {summary}"
    return StageOutcome(
        _result(
            "replay",
            status,
            started,
            summary,
            traces=len(paths),
            passed=passed,
            steps=steps,
            unreadable=unreadable,
        ),
        tuple(findings),
    )


def _replay_one(ctx: CheckContext, engine: Engine[Any], trace: Trace, name: str) -> Finding | None:
    if trace.header.players != engine.players:
        return Finding(
            REPLAY,
            "replay",
            f"{name}: the trace has {trace.header.players} players, the engine {engine.players}",
            expected=str(trace.header.players),
            actual=str(engine.players),
        )
    outcome = replay(engine, trace)
    if outcome.divergence is None:
        return None
    d = outcome.divergence
    shown = min(d.step + 1, len(trace.steps))
    actions = (trace.steps[d.step].action,) if d.step < len(trace.steps) else ()
    end = trace.end if shown == len(trace.steps) else TraceEnd(terminal=False)
    return Finding(
        REPLAY,
        "replay",
        f"{name}: {d}",
        trace=trace.prefix(shown, end),
        step=d.step,
        expected=d.expected,
        actual=d.actual,
        actions=actions,
        location=find_location(d.actual),
        extra={"trace": name, "what": d.what},
    )


def fuzz_stage(ctx: CheckContext) -> StageOutcome:
    """Seeded random playouts (see :func:`rulebook2game.check.stages.fuzz`)."""
    return StageOutcome(*stages.fuzz(ctx))


def scenarios_stage(ctx: CheckContext) -> StageOutcome:
    """Play the rulebook's examples (see :mod:`rulebook2game.check.scenario_stage`)."""
    return StageOutcome(*scenario_stage.scenarios(ctx))


def oracle_stage(ctx: CheckContext) -> StageOutcome:
    """Lockstep against the oracle (see :func:`rulebook2game.check.stages.oracle`)."""
    return StageOutcome(*stages.oracle(ctx))


def against_stage(ctx: CheckContext) -> StageOutcome:
    """Lockstep against another translation (see :mod:`rulebook2game.check.against`)."""
    from rulebook2game.check.against import against

    return StageOutcome(*against(ctx))


def lines_stage(ctx: CheckContext) -> StageOutcome:
    """Page lines no check executed, after walks steered toward them (coverage build;
    see :mod:`rulebook2game.check.steer`)."""
    from rulebook2game.check.steer import lines

    return StageOutcome(*lines(ctx))


def leak_stage(ctx: CheckContext) -> StageOutcome:
    """Observations that reveal hidden information (see :mod:`rulebook2game.check.leak`)."""
    return StageOutcome(*leak.leak(ctx))


DEFAULT_STAGES: tuple[Stage, ...] = (compile_stage, replay_stage)
"""compile, then replay of the golden traces."""

ALL_STAGES: tuple[Stage, ...] = (
    compile_stage,
    fuzz_stage,
    replay_stage,
    scenarios_stage,
    oracle_stage,
    leak_stage,
)
"""The full check: compile, fuzz, replay, scenarios, oracle, leak."""

WITH_LINES: tuple[Stage, ...] = (*ALL_STAGES, lines_stage)
"""The full check, then the page lines no check executed (``check --lines``, ``run_checks``)."""


def _narrow(ctx: CheckContext, findings: list[Finding]) -> list[Finding]:
    """Findings naming only the pages whose lines ran where they show (coverage build,
    started only when a finding has a counterexample; not in mutant runs)."""
    if ctx.engine is None or not ctx.options.get("narrow", True):
        return findings
    if ctx.options.get("stop_at_first") or not any(f.trace is not None for f in findings):
        return findings
    from rulebook2game.check.lines import narrow_findings, start_line_probe

    timeout = ctx.options.get("request_timeout")
    probe = start_line_probe(
        ctx.workspace,
        ctx.config.target,
        ctx.config.name,
        None if timeout is None else float(timeout),
    )
    if isinstance(probe, str):
        return findings
    with probe:
        return narrow_findings(findings, probe, ctx.index, ctx.workspace.root)


def stages_for(
    config: GameConfig, options: dict[str, Any] | None = None, *, lines: bool = False
) -> tuple[Stage, ...]:
    """The full check of a game: :data:`ALL_STAGES`, then the walk against a second
    translation when ``options["against"]`` or ``game.toml``'s ``second_opinion`` names one,
    then (``lines``) the page lines no check executed, after steered walks."""
    stages: tuple[Stage, ...] = ALL_STAGES
    if (options or {}).get("against") or config.second_opinion:
        stages = (*stages, against_stage)
    if lines:
        stages = (*stages, lines_stage)
    return stages


def _guarded(stage: Stage, ctx: CheckContext) -> StageOutcome:
    """The stage's outcome; an exception that is not the tool's own report of bad input
    or a failed engine (a defect of the check itself) becomes that stage's error row, so
    the other stages still run and the report of this run is written."""
    started = time.perf_counter()
    try:
        return stage(ctx)
    except Rulebook2GameError:
        raise
    except Exception as exc:  # a defect of ours: said in the report, not as a traceback
        name = getattr(stage, "__name__", "stage").removesuffix("_stage")
        frames = traceback.extract_tb(exc.__traceback__)
        where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
        summary = (
            f"the check itself failed{where}: {type(exc).__name__}: {exc} "
            "(a defect of rulebook2game, not of the pages; please report it)"
        )
        return StageOutcome(_result(name, "error", started, summary))


def run_check(
    ws: Workspace,
    stages: Sequence[Stage] = DEFAULT_STAGES,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    on_stage: Callable[[StageResult], None] | None = None,
) -> CheckReport:
    """Run ``stages`` on ``ws`` in order and report; ``on_stage`` sees each result as it lands."""
    started = time.perf_counter()
    ctx = CheckContext(ws, ws.config(), seed, dict(options or {}))
    results: list[StageResult] = []
    findings: list[Finding] = []
    unexecuted: list[Finding] = []
    interface: Interface | None = None
    try:
        for stage in stages:
            outcome = _guarded(stage, ctx)
            results.append(outcome.result)
            findings.extend(outcome.findings)
            if on_stage is not None:
                on_stage(outcome.result)
        findings = with_positions(ctx.engine, _narrow(ctx, findings))
        interface = _interface_or_none(ws)
        findings = seats.name_seats(findings, interface)
        unexecuted = [f for f in findings if f.kind == UNEXECUTED]
        findings = [f for f in findings if f.kind != UNEXECUTED]
    finally:
        ctx.close()
    return CheckReport(
        game=ctx.config.name,
        workspace=str(ws.root),
        seed=seed,
        options=ctx.options,
        stages=results,
        findings=[finding_record(f) for f in findings],
        coverage=ctx.coverage,
        seconds=round(time.perf_counter() - started, 3),
        sentences=sentences.coverage_of(ws.root, ws.pages_dir),
        notes=load_finish_notes(ws.reports_dir),
        unexecuted=finding_record(unexecuted[0]) if unexecuted else None,
        seats=list(interface.seats.names) if interface and interface.seats else [],
    )
