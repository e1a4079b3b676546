"""The agent's seams wired to the real pipeline: extraction, a target's compiler, the checks.

Imports are deferred to the call, so the agent package loads (and its tests run)
without the heavier stages; a stage that is missing says so in one line.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from rulebook2game.agent.toolbox import (
    CheckReport,
    CompileReport,
    Finding,
    RulebookView,
    Toolbox,
)
from rulebook2game.errors import WorkspaceError
from rulebook2game.workspace import Workspace


def _module(name: str, what: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise WorkspaceError(f"{what} is not available ({name}: {exc})") from exc


def extract(rules: Path, password: str | None = None) -> Any:
    """The rulebook extracted from a PDF (``rulebook2game.extract.extract_rulebook``)."""
    return _module("rulebook2game.extract", "rulebook extraction").extract_rulebook(
        rules, password=password
    )


def write_rulebook(rulebook: Any, path: Path) -> None:
    """Save an extracted rulebook as ``rulebook.json``."""
    _module("rulebook2game.extract", "rulebook extraction").write_rulebook(rulebook, path)


def load_rulebook_view(path: Path) -> RulebookView:
    """The rulebook of a workspace, read back from ``rulebook.json``."""
    module = _module("rulebook2game.extract", "rulebook extraction")
    for name in ("read_rulebook", "load_rulebook"):
        reader = getattr(module, name, None)
        if reader is not None:
            view: RulebookView = reader(path)
            return view
    raise WorkspaceError("rulebook extraction offers no reader for rulebook.json")


class RlCompiler:
    """:class:`~rulebook2game.agent.toolbox.Compiler` of the ``rl`` target (checked build)."""

    def compile(self, workspace: Workspace) -> CompileReport:
        compile_mod = _module("rulebook2game.targets.rl.compile", "the rl target")
        result = compile_mod.compile_workspace(workspace)
        if result.ok:
            return CompileReport(True)
        lines = [str(d) for d in result.diagnostics] or ["compile failed"]
        return CompileReport(False, (*lines, f"({compile_mod.ONE_ERROR_NOTE})"))


def _trace_text(record: Any) -> str:
    """A finding's counterexample, one step a line, and how it ends."""
    if record.counterexample is None:
        return ""
    lines = []
    for step in record.counterexample:
        who = "chance" if step.player < 0 else f"player {step.player}"
        lines.append(f"{step.t:>3}  {who:<9} {step.action}")
    if not lines:
        lines.append("(the initial state)")
    if record.end is not None:
        returns = f", returns {record.end.returns}" if record.end.returns is not None else ""
        lines.append(f"end: terminal={str(record.end.terminal).lower()}{returns}")
    if record.step is not None:
        lines.append(f"(the problem shows at step {record.step})")
    return "\n".join(lines)


def convert_finding(record: Any) -> Finding:
    """A check report's ``FindingRecord`` as the agent shows it."""
    message = record.message
    if (record.expected or record.actual) and record.expected not in message:
        message += f" (expected {record.expected}; got {record.actual})"
    if record.location:
        message += f" at {record.location}"
    cites = [c for page in record.pages for c in page.sections]
    return Finding(
        check=record.stage,
        kind=record.kind,
        message=message,
        trace=_trace_text(record),
        pages=tuple(dict.fromkeys(p.page for p in record.pages)),
        cites=tuple(dict.fromkeys(cites)),
        cited=tuple((s.id, s.text) for s in record.sections if s.text),
    )


class PipelineChecker:
    """:class:`~rulebook2game.agent.toolbox.Checker` over ``rulebook2game.check.run``.

    Every run also writes ``reports/check.json`` and ``reports/check.md``.
    """

    def check(self, workspace: Workspace) -> CheckReport:
        run = _module("rulebook2game.check.run", "the checks")
        report_mod = _module("rulebook2game.check.report", "the checks")
        report = run.run_check(workspace, _stages(run))
        report_mod.write_report(report, workspace.reports_dir)
        compile_stage = report.stage("compile")
        compiled = compile_stage is None or compile_stage.status == "ok"
        diagnostics = tuple(compile_stage.stats.get("diagnostics", ())) if compile_stage else ()
        if not compiled and not diagnostics:
            diagnostics = (compile_stage.summary,) if compile_stage else ()
        summary = "; ".join(f"{s.name} {s.status}: {s.summary}" for s in report.stages)
        return CheckReport(
            green=report.ok,
            compile=CompileReport(compiled, diagnostics),
            findings=tuple(convert_finding(f) for f in report.findings if f.stage != "compile"),
            summary=summary,
            markdown=report_mod.render_markdown(report),
        )


def _stages(run: Any) -> Any:
    """Every stage the check module offers (its full list when it has one)."""
    return getattr(run, "ALL_STAGES", run.DEFAULT_STAGES)


def real_toolbox(rulebook: RulebookView, target: str) -> Toolbox:
    """The toolbox of ``target`` (only ``rl`` so far)."""
    if target != "rl":
        raise WorkspaceError(f"unknown target {target!r} (known: rl)")
    return Toolbox(rulebook, RlCompiler(), PipelineChecker())
