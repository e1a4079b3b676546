"""The agent's seams wired to the real pipeline: extraction, a target's compiler, the checks.

Imports are deferred to the call: the extraction, compiler and check modules are
heavy, and commands that do not need them should start fast.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook2game.agent.toolbox import (
    CheckReport,
    CompileReport,
    Finding,
    RulebookView,
    Toolbox,
)
from rulebook2game.errors import BadWorkspaceError, WorkspaceError
from rulebook2game.workspace import Workspace

if TYPE_CHECKING:
    from rulebook2game.check.position import PositionView
    from rulebook2game.check.report import FindingRecord
    from rulebook2game.extract import Rulebook


def extract(rules: Path, password: str | None = None) -> Rulebook:
    """The rulebook extracted from a PDF."""
    from rulebook2game.extract import extract_rulebook

    return extract_rulebook(rules, password=password)


def write_rulebook(rulebook: Rulebook, path: Path) -> None:
    """Save an extracted rulebook as ``rulebook.json`` (atomically)."""
    from rulebook2game.extract import write_rulebook as write

    write(rulebook, path)


def load_rulebook_view(path: Path) -> Rulebook:
    """The rulebook of a workspace, read back from ``rulebook.json``."""
    from rulebook2game.extract import load_rulebook

    if not path.is_file():
        raise WorkspaceError(f"{path}: not found (run ingest or extract first)")
    return load_rulebook(path)


def workspace_rulebook(workspace: Workspace) -> tuple[Rulebook, bool]:
    """The game's rulebook and whether it was extracted just now.

    A game directory that has its rules PDF (``game.toml``'s ``rulebook``) but no
    ``rulebook.json`` yet, such as a copied corpus game, gets it extracted and saved
    on first use, as ``ingest`` would have done.
    """
    if workspace.rulebook_json.is_file():
        return load_rulebook_view(workspace.rulebook_json), False
    pdf = workspace.root / workspace.config().rulebook
    if not pdf.is_file():
        raise BadWorkspaceError(
            f"{workspace.rulebook_json}: not found, and no {pdf.name} to extract it from"
        )
    rulebook = extract(pdf)
    write_rulebook(rulebook, workspace.rulebook_json)
    return rulebook, True


class TargetCompiler:
    """:class:`~rulebook2game.agent.toolbox.Compiler` of one target (checked build)."""

    def __init__(self, target: str) -> None:
        from rulebook2game.targets import get_target

        self.target = get_target(target)

    def compile(self, workspace: Workspace) -> CompileReport:
        from rulebook2game.check.citations import unknown_citations

        cites = [str(c) for c in unknown_citations(workspace.root, workspace.pages_dir)]
        result = self.target.compile(workspace)
        if result.ok and not cites:
            return CompileReport(True)
        if result.ok:
            return CompileReport(False, tuple(cites))
        lines = [str(d) for d in result.diagnostics] or ["compile failed"]
        note = None if result.complete else self.target.one_error_note
        return CompileReport(False, (*lines, *cites), note or "")


TRACE_HEAD = 3
TRACE_TAIL = 12
"""A long counterexample shows its first and last steps; the position shows the rest."""


def _trace_text(record: FindingRecord) -> str:
    """A finding's counterexample, one step a line, and where the problem shows."""
    if record.counterexample is None:
        return ""
    lines = []
    for step in record.counterexample:
        who = "chance" if step.player < 0 else f"player {step.player}"
        lines.append(f"{step.t:>3}  {who:<9} {step.action}")
    if len(lines) > TRACE_HEAD + TRACE_TAIL + 1:
        hidden = len(lines) - TRACE_HEAD - TRACE_TAIL
        note = f"... {hidden} steps not shown (all of them: reports/check.json) ..."
        lines = [*lines[:TRACE_HEAD], note, *lines[-TRACE_TAIL:]]
    if not lines:
        lines.append("(no action: the initial state)")
    if record.step is not None and record.step < len(record.counterexample):
        lines.append(f"(the problem shows at step {record.step})")
    elif record.counterexample:
        lines.append("(the problem shows in the state after the last action)")
    return "\n".join(lines)


def _page_named(page: str, role: str) -> str:
    """A page as a finding names it: with the lines that ran, when the check knows them."""
    return f"{page} ({role})" if role.startswith("lines ") else page


def convert_finding(record: FindingRecord) -> Finding:
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
        pages=tuple(dict.fromkeys(_page_named(p.page, p.role) for p in record.pages)),
        cites=tuple(dict.fromkeys(cites)),
        cited=tuple((s.id, s.text) for s in record.sections if s.text),
        position=record.position or "",
        other=record.other.label if record.other else "",
        other_pages=tuple(record.other.pages) if record.other else (),
        other_cited=tuple((s.id, s.text) for s in record.other.sections if s.text)
        if record.other
        else (),
    )


class PipelineChecker:
    """:class:`~rulebook2game.agent.toolbox.Checker` over ``rulebook2game.check.run``.

    Runs every stage (compile, fuzz, replay, oracle) and writes ``reports/check.json``
    and ``reports/check.md``.
    """

    def check(self, workspace: Workspace) -> CheckReport:
        from rulebook2game.check.evidence import assess, verdict
        from rulebook2game.check.report import render_markdown, write_report
        from rulebook2game.check.run import run_check, stages_for

        report = run_check(workspace, stages_for(workspace.config(), lines=True))
        write_report(report, workspace.reports_dir)
        compile_stage = report.stage("compile")
        compiled = compile_stage is None or compile_stage.status == "ok"
        diagnostics = tuple(compile_stage.stats.get("diagnostics", ())) if compile_stage else ()
        if not compiled and not diagnostics:
            diagnostics = (compile_stage.summary,) if compile_stage else ()
        summary = "; ".join(f"{s.name} {s.status}: {s.summary}" for s in report.stages)
        evidence = assess(report)
        sentences = report.sentences
        texts = sentences.texts if sentences else {}
        return CheckReport(
            green=report.ok,
            compile=CompileReport(compiled, diagnostics),
            findings=tuple(convert_finding(f) for f in report.findings if f.stage != "compile"),
            summary=summary,
            markdown=render_markdown(report),
            verdict=verdict(report, evidence),
            assurance=evidence.assurance,
            uncited=tuple((i, texts.get(i, "")) for i in (sentences.uncited if sentences else ())),
            uncovered_examples=tuple(
                (i, texts.get(i, "")) for i in (sentences.uncovered_examples if sentences else ())
            ),
            rules_line=sentences.rules_phrase() if sentences else "",
            out_of_scope=tuple(sentences.out_of_scope.items()) if sentences else (),
            actions=tuple(report.coverage.actions.items()) if report.coverage else (),
            unexecuted=convert_finding(report.unexecuted) if report.unexecuted else None,
        )


class TargetPositions:
    """:class:`~rulebook2game.agent.toolbox.PositionViewer` on the game's checked build."""

    def show(
        self,
        workspace: Workspace,
        actions: tuple[str, ...],
        start: str | None = None,
        changes: Mapping[str, Any] | None = None,
    ) -> PositionView | str:
        from rulebook2game.check.position import view_position
        from rulebook2game.targets.base import compile_and_start

        with compile_and_start(workspace) as made:
            if made.engine is None:
                compiled = made.compiled
                lines = [str(d) for d in compiled.diagnostics] if compiled else []
                return "The pages do not compile:\n" + "\n".join(lines or [made.error or ""])
            return view_position(made.engine, actions, start, changes)


def real_toolbox(rulebook: RulebookView, target: str) -> Toolbox:
    """The toolbox of ``target`` (raises :class:`WorkspaceError` for an unknown one)."""
    return Toolbox(rulebook, TargetCompiler(target), PipelineChecker(), TargetPositions())
