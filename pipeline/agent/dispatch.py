"""Carrying out one tool call: parse and validate the arguments, run, render the result.

Everything the model can get wrong (unknown tool, malformed JSON, arguments that do
not fit the schema, bad page names, missing headers, oversized pages, unknown
sections) becomes a correction it reads as the tool's result, never an exception
out of the loop.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from rulebook2game.agent import evidence_tools, mutant_tools, tools
from rulebook2game.agent.errors import ToolRetry
from rulebook2game.agent.header import parse_header
from rulebook2game.agent.pages import PageChange, PageStore
from rulebook2game.agent.prompts import render
from rulebook2game.agent.toolbox import CheckReport, Finding, Toolbox
from rulebook2game.errors import BadInputError, BadWorkspaceError, Rulebook2GameError
from rulebook2game.llm.messages import ToolCall
from rulebook2game.workspace import Workspace

Effect = Literal[
    "none",
    "retry",
    "page_changed",
    "compiled",
    "compile_failed",
    "checks_green",
    "checks_failed",
    "finish",
]

MAX_RESULT_CHARS = 24_000
"""A tool result longer than this is cut (with a note) to keep requests small."""
MAX_FINDINGS_SHOWN = 3
MAX_CITED_CHARS = 600
MAX_PAGES_NAMED = 3
"""Pages named per finding (the most specific first: failing line, declaring page, ...)."""
MAX_CITES_QUOTED = 4
MAX_QUOTE_CHARS = 300
"""A finding quotes at most this many cited passages, each clipped to this length."""
MAX_SENTENCES_SHOWN = 15
"""Uncited rule sentences (and uncovered examples) listed by run_checks."""


@dataclass(frozen=True)
class ToolOutcome:
    """What one call produced: the text the model reads and what it changed."""

    content: str
    effect: Effect = "none"
    detail: str = ""
    """A short line for logs and progress (the retry kind, the finish summary, ...)."""

    def to_json(self) -> dict[str, Any]:
        return {"content": self.content, "effect": self.effect, "detail": self.detail}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToolOutcome:
        return cls(str(data["content"]), data["effect"], str(data.get("detail", "")))


def _short(text: str, limit: int = MAX_QUOTE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 4] + " ..."


def _clip(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... cut: {len(text) - limit} more characters]\n"


def _validation_lines(exc: ValidationError) -> list[str]:
    return [
        f"{'.'.join(str(p) for p in err['loc']) or '(arguments)'}: {err['msg']}"
        for err in exc.errors()
    ]


def parse_arguments(call: ToolCall) -> BaseModel:
    """The call's arguments as the tool's model; :class:`ToolRetry` when they do not fit."""
    model = tools.ARG_MODELS.get(call.name)
    if model is None:
        raise ToolRetry("unknown_tool", name=call.name, tools=list(tools.TOOL_NAMES))
    try:
        raw = json.loads(call.arguments) if call.arguments.strip() else {}
    except json.JSONDecodeError as exc:
        raise ToolRetry("bad_json", name=call.name, error=str(exc)) from None
    if not isinstance(raw, dict):
        raise ToolRetry("bad_arguments", name=call.name, errors=["expected a JSON object"])
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ToolRetry("bad_arguments", name=call.name, errors=_validation_lines(exc)) from None


class ToolRunner:
    """Runs the agent's tools on one workspace."""

    def __init__(
        self,
        workspace: Workspace,
        toolbox: Toolbox,
        pages: PageStore,
        on_page_change: Callable[[PageChange], None] | None = None,
        second: PageStore | None = None,
    ) -> None:
        self.workspace = workspace
        self.toolbox = toolbox
        self.pages = pages
        self.second = second
        """The second opinion's pages, when there is one (the ``side="second"`` of page tools)."""
        self.on_page_change = on_page_change
        self.last_checks: CheckReport | None = None
        self._checked_sources: dict[str, str] = {}

    def run(self, call: ToolCall) -> ToolOutcome:
        """Carry out ``call``; corrections come back as ``effect="retry"``."""
        try:
            args = parse_arguments(call)
            outcome = getattr(self, f"_{call.name}")(args)
        except ToolRetry as retry:
            content = render("agent/correction.md.j2", kind=retry.kind, **retry.fields)
            return ToolOutcome(content, "retry", retry.kind)
        assert isinstance(outcome, ToolOutcome)
        return ToolOutcome(_clip(outcome.content), outcome.effect, outcome.detail)

    def _read_rulebook(self, args: tools.ReadRulebookArgs) -> ToolOutcome:
        if args.section_id is None or not args.section_id.strip():
            return ToolOutcome(self.toolbox.rulebook.toc_text())
        try:
            return ToolOutcome(self.toolbox.rulebook.section_text(args.section_id.strip()))
        except (LookupError, ValueError) as exc:
            hint = str(exc.args[0]) if exc.args else ""
            raise ToolRetry("no_such_section", section_id=args.section_id, hint=hint) from None

    def _store(self, side: tools.Side) -> PageStore:
        if side == "this":
            return self.pages
        if self.second is None:
            raise ToolRetry("no_second_opinion")
        return self.second

    def logged(self, change: PageChange, side: tools.Side) -> PageChange:
        """Report ``change`` to the run log (a second opinion's page as ``second/NAME``)."""
        if side == "second":
            change = replace(change, name=f"second/{change.name}")
        if self.on_page_change is not None:
            self.on_page_change(change)
        return change

    def _folder(self, store: PageStore) -> str:
        """The pages folder of ``store`` as the agent knows it (``pages``, ``second/pages``)."""
        try:
            return str(store.root.relative_to(self.workspace.root))
        except ValueError:
            return str(store.root)

    def _list_pages(self, args: tools.ListPagesArgs) -> ToolOutcome:
        listing = [
            {"name": name, "cites": list(parse_header(source).cites)}
            for name, source in self._store(args.side).sources().items()
        ]
        return ToolOutcome(render("agent/result.md.j2", kind="pages", pages=listing))

    def _read_page(self, args: tools.PageNameArgs) -> ToolOutcome:
        return ToolOutcome(self._store(args.side).read(args.name))

    def _write_page(self, args: tools.WritePageArgs) -> ToolOutcome:
        store = self._store(args.side)
        change = self.logged(store.write(args.name, args.content), args.side)
        text = render(
            "agent/result.md.j2",
            kind="page_written",
            folder=self._folder(store),
            name=args.name.removesuffix(change.suffix),
            suffix=change.suffix,
            created=change.old is None,
            lines=len((change.new or "").splitlines()),
            cites=list(parse_header(change.new or "").cites),
            unknown_cites=self._unknown_cites(parse_header(change.new or "").cites),
        )
        effect: Effect = "page_changed" if change.old != change.new else "none"
        return ToolOutcome(text, effect, change.name)

    def _delete_page(self, args: tools.PageNameArgs) -> ToolOutcome:
        store = self._store(args.side)
        change = self.logged(store.delete(args.name), args.side)
        text = render(
            "agent/result.md.j2",
            kind="page_deleted",
            folder=self._folder(store),
            name=args.name.removesuffix(change.suffix),
            suffix=change.suffix,
        )
        return ToolOutcome(text, "page_changed", change.name)

    def _compile(self, args: tools.NoArgs) -> ToolOutcome:
        report = self.toolbox.compiler.compile(self.workspace)
        text = render(
            "agent/compile.md.j2",
            ok=report.ok,
            diagnostics=list(report.diagnostics),
            note=report.note,
        )
        return ToolOutcome(text, "compiled" if report.ok else "compile_failed")

    def _target(self) -> str:
        """The pages' target, for advice that differs by language ("" when unknown)."""
        try:
            return self.workspace.config().target
        except BadWorkspaceError:
            return ""

    def _run_checks(self, args: tools.RunChecksArgs) -> ToolOutcome:
        sources = self.pages.sources()
        if self.second is not None:
            sources |= {f"second/{k}": v for k, v in self.second.sources().items()}
        report = self.last_checks
        if args.first == 1 or report is None or sources != self._checked_sources:
            report = self.toolbox.checker.check(self.workspace)
            self.last_checks, self._checked_sources = report, sources
        start = min(args.first, max(len(report.findings), 1)) - 1
        shown = report.findings[start : start + MAX_FINDINGS_SHOWN]
        text = render(
            "agent/checks.md.j2",
            green=report.green,
            summary=report.summary,
            compile_errors=[] if report.compile.ok else list(report.compile.diagnostics),
            findings=[self._finding_view(f) for f in shown],
            first=start + 1,
            total=len(report.findings),
            more=len(report.findings) - start - len(shown),
            next=start + len(shown) + 1,
            verdict=report.verdict,
            assurance=report.assurance,
            uncited=list(report.uncited[:MAX_SENTENCES_SHOWN]),
            uncited_more=max(0, len(report.uncited) - MAX_SENTENCES_SHOWN),
            examples=list(report.uncovered_examples[:MAX_SENTENCES_SHOWN]),
            rules_line=report.rules_line,
            out_of_scope=list(report.out_of_scope[:MAX_SENTENCES_SHOWN]),
            out_of_scope_more=max(0, len(report.out_of_scope) - MAX_SENTENCES_SHOWN),
            examples_more=max(0, len(report.uncovered_examples) - MAX_SENTENCES_SHOWN),
            actions=list(report.actions),
            unexecuted=self._finding_view(report.unexecuted) if report.unexecuted else None,
            target=self._target(),
        )
        first = report.findings[0] if report.findings else None
        detail = f"{first.check}: {first.kind}" if first else ""
        return ToolOutcome(text, "checks_green" if report.green else "checks_failed", detail)

    def _finish(self, args: tools.FinishArgs) -> ToolOutcome:
        uncovered = evidence_tools.uncovered_examples(self.workspace)
        if uncovered and not evidence_tools.refused_before(self.workspace):
            evidence_tools.mark_refused(self.workspace)
            raise ToolRetry(
                "finish_no_scenarios", examples=uncovered[:12], more=len(uncovered) - 12
            )
        evidence_tools.record_finish(self.workspace, args)
        text = render(
            "agent/result.md.j2",
            kind="finished",
            ambiguities=[a.model_dump() for a in args.ambiguities],
            uncovered=len(uncovered),
            mutants=evidence_tools.mutant_summary(self.workspace),
            second=self._second_opinion(),
        )
        return ToolOutcome(text, "finish", args.summary)

    def _second_opinion(self) -> str | None:
        """The second translation ``game.toml`` names (``None`` without one or a game.toml)."""
        try:
            return self.workspace.config().second_opinion
        except Rulebook2GameError:
            return None

    def _write_scenario(self, args: tools.WriteScenarioArgs) -> ToolOutcome:
        written = evidence_tools.write_scenario(self.workspace, args)
        text = render("agent/result.md.j2", kind="scenario_written", **written)
        return ToolOutcome(text, "page_changed", f"scenario {args.name}")

    def _list_scenarios(self, args: tools.NoArgs) -> ToolOutcome:
        listing = evidence_tools.list_scenarios(self.workspace)
        return ToolOutcome(render("agent/result.md.j2", kind="scenarios", **listing))

    def _delete_scenario(self, args: tools.ScenarioNameArgs) -> ToolOutcome:
        name = evidence_tools.delete_scenario(self.workspace, args.name)
        text = render("agent/result.md.j2", kind="scenario_deleted", name=name)
        return ToolOutcome(text, "page_changed", f"scenario {name}")

    def _run_mutants(self, args: tools.RunMutantsArgs) -> ToolOutcome:
        result = mutant_tools.run_page_mutants(self.workspace, args.max, args.survivors, args.jobs)
        return ToolOutcome(render("agent/result.md.j2", kind="mutants", **result))

    def _review_mutant(self, args: tools.ReviewMutantArgs) -> ToolOutcome:
        reviewed = mutant_tools.review_mutant(self.workspace, args.id, args.why)
        return ToolOutcome(render("agent/result.md.j2", kind="mutant_reviewed", **reviewed))

    def _mark_out_of_scope(self, args: tools.MarkOutOfScopeArgs) -> ToolOutcome:
        marked = evidence_tools.mark_out_of_scope(self.workspace, args)
        text = render("agent/result.md.j2", kind="out_of_scope", **marked)
        return ToolOutcome(
            text, "page_changed", f"{marked['file']} {', '.join(marked['sentences'])}"
        )

    def _show_position(self, args: tools.ShowPositionArgs) -> ToolOutcome:
        viewer = self.toolbox.positions
        if viewer is None:
            raise ToolRetry("no_positions")
        try:
            shown = viewer.show(self.workspace, tuple(args.actions), args.state, args.set)
        except BadInputError as exc:
            raise ToolRetry("bad_set", error=str(exc)) from None
        if isinstance(shown, str):
            return ToolOutcome(shown, "compile_failed")
        return ToolOutcome(
            render("agent/position.md.j2", view=shown, actions=args.actions, changes=args.set or {})
        )

    def _finding_view(self, finding: Finding) -> dict[str, Any]:
        cites = [*finding.cites, *(cite for cite, _ in finding.cited)]
        if not cites:
            for page in finding.pages:
                try:
                    cites.extend(parse_header(self.pages.read(page.split(" ", 1)[0])).cites)
                except ToolRetry:
                    continue
        known = dict(finding.cited)
        unique = list(dict.fromkeys(cites))
        cited = [
            {"cite": c, "text": _short(known.get(c) or self._cited_text(c))}
            for c in unique[:MAX_CITES_QUOTED]
        ]
        return {
            "check": finding.check,
            "kind": finding.kind,
            "message": finding.message,
            "trace": finding.trace,
            "pages": list(finding.pages[:MAX_PAGES_NAMED]),
            "cited": [c for c in cited if c["text"]],
            "not_quoted": unique[MAX_CITES_QUOTED:],
            "position": getattr(finding, "position", ""),
            "other": finding.other,
            "other_pages": list(finding.other_pages[:MAX_PAGES_NAMED]),
            "other_cited": [
                {"cite": c, "text": _short(t)} for c, t in finding.other_cited[:MAX_CITES_QUOTED]
            ],
        }

    def _cited_text(self, cite: str) -> str:
        """The rulebook text a citation points at: the sentence's line, else the section."""
        section = cite.split("#", 1)[0]
        try:
            text = self.toolbox.rulebook.section_text(section)
        except (KeyError, LookupError, ValueError):
            return ""
        text = " ".join(text.split())
        if "#" in cite:
            sentence = re.search(rf"\[{re.escape(cite)}\]\s*(.*?)(?=\s*\[[^\]\s]+#\d+\]|$)", text)
            if sentence is None:
                return ""
            text = sentence.group(1)
        return text if len(text) <= MAX_CITED_CHARS else text[:MAX_CITED_CHARS] + " ..."

    def _unknown_cites(self, cites: tuple[str, ...]) -> list[str]:
        return [c for c in cites if not self._cited_text(c)]
