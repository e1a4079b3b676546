"""The check report: per-stage results and times, findings, coverage.

Written as ``reports/check.json`` (the record, format ``rulebook2game-check/1``) and
``reports/check.md`` (for a reader), both atomically; rendered with rich for the
command line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulebook2game.check.findings import Finding
from rulebook2game.engine import CHANCE
from rulebook2game.errors import BadInputError
from rulebook2game.trace import Trace, parse_trace, write_text_atomic

REPORT_FORMAT: Literal["rulebook2game-check/1"] = "rulebook2game-check/1"
StageStatus = Literal["ok", "failed", "error", "skipped"]
SECTION_TEXT_LIMIT = 400
"""Characters of cited section text kept per section in the report."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PageRecord(_Model):
    """A page involved in a finding."""

    page: str
    role: str
    line: int | None = None
    sections: list[str] = Field(default_factory=list)


class SectionRecord(_Model):
    """A rulebook section cited by a page involved in a finding."""

    id: str
    title: str = ""
    text: str = ""


class StepRecord(_Model):
    """One step of a counterexample."""

    t: int
    player: int
    action: str
    legal: list[str] | None = None
    chance: list[tuple[str, float]] | None = None


class EndRecord(_Model):
    """How a counterexample ends."""

    terminal: bool
    returns: list[float] | None = None


class FindingRecord(_Model):
    """A finding as stored in the report."""

    kind: str
    stage: str
    message: str
    step: int | None = None
    expected: str = ""
    actual: str = ""
    actions: list[str] = Field(default_factory=list)
    location: str | None = None
    pages: list[PageRecord] = Field(default_factory=list)
    sections: list[SectionRecord] = Field(default_factory=list)
    counterexample: list[StepRecord] | None = None
    end: EndRecord | None = None
    """How the counterexample ends (terminal flag and returns)."""


class StageResult(_Model):
    """One stage: status, wall time, a one-line summary and its numbers."""

    name: str
    status: StageStatus
    seconds: float = 0.0
    summary: str = ""
    stats: dict[str, Any] = Field(default_factory=dict)


class Coverage(_Model):
    """What the fuzzer exercised."""

    actions: dict[str, int] = Field(default_factory=dict)
    """Times each declared action was taken (0 = never legal or never chosen)."""
    pages: dict[str, int] = Field(default_factory=dict)
    """Actions taken per page (by the page that declares the action)."""


class CheckReport(_Model):
    """The whole report of one ``rulebook2game check``."""

    format: Literal["rulebook2game-check/1"] = REPORT_FORMAT
    game: str
    workspace: str
    seed: int
    options: dict[str, Any] = Field(default_factory=dict)
    stages: list[StageResult] = Field(default_factory=list)
    findings: list[FindingRecord] = Field(default_factory=list)
    coverage: Coverage | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """No findings and no stage in error."""
        return not self.findings and all(s.status != "error" for s in self.stages)

    def stage(self, name: str) -> StageResult | None:
        """The result of stage ``name``, if it ran."""
        return next((s for s in self.stages if s.name == name), None)


def finding_record(finding: Finding) -> FindingRecord:
    """The report form of a finding (its counterexample as steps)."""
    steps: list[StepRecord] | None = None
    end: EndRecord | None = None
    if finding.trace is not None:
        steps = [
            StepRecord(
                t=s.t,
                player=s.player,
                action=s.action,
                legal=list(s.legal) if s.legal is not None else None,
                chance=[(a, p) for a, p in s.chance] if s.chance is not None else None,
            )
            for s in finding.trace.steps
        ]
        returns = finding.trace.end.returns
        end = EndRecord(
            terminal=finding.trace.end.terminal,
            returns=list(returns) if returns is not None else None,
        )
    return FindingRecord(
        kind=finding.kind,
        stage=finding.stage,
        message=finding.message,
        step=finding.step,
        expected=finding.expected,
        actual=finding.actual,
        actions=list(finding.actions),
        location=finding.location,
        pages=[
            PageRecord(page=p.page, role=p.role, line=p.line, sections=list(p.sections))
            for p in finding.pages
        ],
        sections=[
            SectionRecord(id=s.id, title=s.title, text=_clip(s.text, SECTION_TEXT_LIMIT))
            for s in finding.sections
        ],
        counterexample=steps,
        end=end,
    )


def counterexample_trace(record: FindingRecord, game: str, players: int) -> Trace | None:
    """Rebuild the counterexample of a stored finding as a :class:`Trace`."""
    if record.counterexample is None:
        return None
    header = {"kind": "header", "format": "rulebook2game-trace/1", "game": game, "players": players}
    lines = [json.dumps(header)]
    for s in record.counterexample:
        lines.append(json.dumps({"kind": "step", **s.model_dump(exclude_none=True)}))
    end = record.end.model_dump(exclude_none=True) if record.end else {"terminal": False}
    lines.append(json.dumps({"kind": "end", **end}))
    return parse_trace("\n".join(lines), f"<finding {record.kind}>")


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write_report(report: CheckReport, reports_dir: Path) -> tuple[Path, Path]:
    """Write ``check.json`` and ``check.md`` into ``reports_dir`` atomically."""
    json_path = reports_dir / "check.json"
    md_path = reports_dir / "check.md"
    data = report.model_dump(mode="json")
    data["ok"] = report.ok
    write_text_atomic(json_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    write_text_atomic(md_path, render_markdown(report))
    return json_path, md_path


def load_report(path: Path) -> CheckReport:
    """Read a ``check.json``; a malformed one is bad input."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("ok", None)
        return CheckReport.model_validate(data)
    except (OSError, ValueError, ValidationError) as exc:
        raise BadInputError(f"{path}: not a check report ({exc.__class__.__name__})") from None


def _step_line(step: StepRecord) -> str:
    who = "chance" if step.player == CHANCE else f"player {step.player}"
    return f"{step.t:>3}  {who:<9} {step.action}"


def render_markdown(report: CheckReport) -> str:
    """The report as Markdown, for a reader (and for the agent's repair prompt)."""
    verdict = "PASS" if report.ok else f"FAIL — {len(report.findings)} finding(s)"
    out = [f"# Check of `{report.game}`: {verdict}", ""]
    out += [f"Seed {report.seed}; total {report.seconds:.2f} s.", ""]
    out += ["| stage | status | time (s) | summary |", "|---|---|---:|---|"]
    out += [f"| {s.name} | {s.status} | {s.seconds:.2f} | {s.summary} |" for s in report.stages]
    for i, f in enumerate(report.findings, start=1):
        out += ["", f"## {i}. {f.kind} ({f.stage}): {f.message}", ""]
        if f.expected or f.actual:
            out += [f"- expected: {f.expected}", f"- actual: {f.actual}"]
        for p in f.pages:
            line = f":{p.line}" if p.line else ""
            cites = f" — cites {', '.join(p.sections)}" if p.sections else ""
            out.append(f"- page `pages/{p.page}.rl{line}` ({p.role}){cites}")
        for s in f.sections:
            title = f" {s.title}" if s.title else ""
            out.append(f"- section {s.id}{title}" + (f": {s.text}" if s.text else ""))
        if f.counterexample is not None:
            out += ["", f"Counterexample ({len(f.counterexample)} steps):", "", "```"]
            out += [_step_line(s) for s in f.counterexample] or ["(the initial state)"]
            out += ["```"]
    if report.coverage is not None and report.coverage.actions:
        out += ["", "## Coverage (fuzz)", "", "| action | taken |", "|---|---:|"]
        out += [f"| {a} | {n} |" for a, n in report.coverage.actions.items()]
    return "\n".join(out) + "\n"


def render_console(report: CheckReport, console: Console) -> None:
    """Print the report for a terminal: stage table, then each finding."""
    table = Table(title=f"check {report.game}", title_justify="left")
    for column in ("stage", "status", "time (s)", "summary"):
        table.add_column(column, justify="right" if column == "time (s)" else "left")
    colours = {"ok": "green", "failed": "red", "error": "red", "skipped": "dim"}
    for s in report.stages:
        table.add_row(s.name, f"[{colours[s.status]}]{s.status}[/]", f"{s.seconds:.2f}", s.summary)
    console.print(table)
    for i, f in enumerate(report.findings, start=1):
        console.print(_finding_panel(i, f))
    verdict = (
        "[bold green]PASS[/]: no findings"
        if report.ok
        else f"[bold red]FAIL[/]: {len(report.findings)} finding(s)"
    )
    console.print(f"{verdict} in {report.seconds:.2f} s (seed {report.seed})")


def _finding_panel(index: int, f: FindingRecord) -> Panel:
    parts: list[Text] = []
    if f.expected or f.actual:
        parts.append(Text(f"expected: {f.expected}\nactual:   {f.actual}"))
    for p in f.pages:
        line = f":{p.line}" if p.line else ""
        cites = f"  cites {', '.join(p.sections)}" if p.sections else ""
        parts.append(Text(f"page pages/{p.page}.rl{line} ({p.role}){cites}", style="cyan"))
    for s in f.sections:
        if s.text:
            parts.append(Text(f"§{s.id} {s.title}: {_clip(s.text, 160)}", style="dim"))
    if f.counterexample is not None:
        steps = [_step_line(s) for s in f.counterexample] or ["(the initial state)"]
        count = len(f.counterexample)
        parts.append(Text(f"counterexample ({count} steps):\n" + "\n".join(steps)))
    title = f"{index}. {f.kind} ({f.stage}): {f.message}"
    return Panel(Group(*parts), title=title, title_align="left", border_style="red")
