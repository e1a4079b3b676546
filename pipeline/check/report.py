"""The check report: per-stage results and times, findings, coverage.

Written as ``reports/check.json`` (the record, format ``rulebook2game-check/1``) and
``reports/check.md`` (for a reader), both atomically; rendered with rich for the
command line.
"""

from __future__ import annotations

import json
import time
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
    file: str | None = None
    """The page file (``pages/turn.page``); ``None`` in older reports: ``pages/PAGE.rl``."""

    @property
    def path(self) -> str:
        """The page file, workspace-relative."""
        return self.file or f"pages/{self.page}.rl"


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


class OtherSideRecord(_Model):
    """The other translation's side of a difference (``check --against``, second opinion)."""

    label: str
    """Where the other translation is (its game directory)."""
    pages: list[str] = Field(default_factory=list)
    """Its pages involved (``pages/turn.page:12 (declares the action)``)."""
    sections: list[SectionRecord] = Field(default_factory=list)
    """The rules those pages cite."""


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
    other_pages: list[str] = Field(default_factory=list)
    """Pages a finding would name without line coverage, whose lines did not run at its
    step (kept for a reader who wants them; the finding itself names only those that ran)."""
    """How the counterexample ends (terminal flag and returns)."""
    position: str | None = None
    """The position where the finding shows, as the engine renders it."""
    other: OtherSideRecord | None = None
    """The other translation's pages and cited rules, for a difference between two."""


class StageResult(_Model):
    """One stage: status, wall time, a one-line summary and its numbers."""

    name: str
    status: StageStatus
    seconds: float = 0.0
    summary: str = ""
    stats: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def since(
        cls, name: str, status: str, started: float, summary: str, **stats: Any
    ) -> StageResult:
        """A stage's row, timed from ``started`` (a :func:`time.perf_counter` reading)."""
        return cls(
            name=name,
            status=status,  # type: ignore[arg-type]
            seconds=round(time.perf_counter() - started, 3),
            summary=summary,
            stats=stats,
        )


class Coverage(_Model):
    """What the fuzzer exercised."""

    actions: dict[str, int] = Field(default_factory=dict)
    """Times each declared action was taken (0 = never legal or never chosen)."""
    pages: dict[str, int] = Field(default_factory=dict)
    """Actions taken per page (by the page that declares the action)."""


class SentenceCoverage(_Model):
    """Rule sentences cited by pages, example sentences cited by scenarios."""

    source: str = ""
    """Where the sentences come from (``rulebook.json`` or ``rules.md``)."""
    rules: int = 0
    rules_cited: int = 0
    uncited: list[str] = Field(default_factory=list)
    """Ids of rule sentences no page cites."""
    examples: int = 0
    examples_covered: int = 0
    uncovered_examples: list[str] = Field(default_factory=list)
    """Ids of example sentences no scenario cites."""
    rules_out_of_scope: int = 0
    examples_out_of_scope: int = 0
    out_of_scope: dict[str, str] = Field(default_factory=dict)
    """Sentence id -> why, for the sentences ``scope.toml`` declares out of scope."""
    texts: dict[str, str] = Field(default_factory=dict)
    """The text of each uncited, uncovered or out-of-scope sentence."""

    def rules_phrase(self) -> str:
        """``12 rule sentences, 9 cited by pages, 2 out of scope with reasons``."""
        out = f"{self.rules} rule sentences, {self.rules_cited} cited by pages"
        if self.rules_out_of_scope:
            out += f", {self.rules_out_of_scope} out of scope with reasons"
        return out


class AmbiguityRecord(_Model):
    """A place where the rulebook allows more than one reading, and the one chosen."""

    sentences: list[str]
    reading: str
    why: str = ""


class FinishNotes(_Model):
    """What the translator said when finishing: a summary and the ambiguities resolved."""

    summary: str = ""
    ambiguities: list[AmbiguityRecord] = Field(default_factory=list)


def load_finish_notes(reports_dir: Path) -> FinishNotes | None:
    """``reports/finish.json`` if it exists and is readable (context, never a failure)."""
    path = reports_dir / "finish.json"
    try:
        return FinishNotes.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


SHOWN_SENTENCES = 30
"""Uncited sentences listed in the Markdown report (the JSON has them all)."""


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
    sentences: SentenceCoverage | None = None
    """Coverage by sentence (``None`` without rule text)."""
    notes: FinishNotes | None = None
    """The translator's ``finish`` summary and resolved ambiguities, if recorded."""
    unexecuted: FindingRecord | None = None
    """Page lines no check executed (the ``lines`` stage): missing evidence, shown to the
    translator like a finding but not one (the report can be ok with it)."""
    seats: list[str] = Field(default_factory=list)
    """The rulebook's names of the seats, in engine order (``[seats]`` of interface.toml)."""

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
            PageRecord(
                page=p.page, role=p.role, line=p.line, sections=list(p.sections), file=p.path
            )
            for p in finding.pages
        ],
        sections=[
            SectionRecord(id=s.id, title=s.title, text=_clip(s.text, SECTION_TEXT_LIMIT))
            for s in finding.sections
        ],
        counterexample=steps,
        end=end,
        other_pages=[
            p
            for p in finding.extra.get("all_pages", ())
            if p not in {r.path for r in finding.pages}
        ],
        position=str(finding.extra["position"]) if finding.extra.get("position") else None,
        other=_other_record(finding.extra),
    )


def _other_record(extra: dict[str, Any]) -> OtherSideRecord | None:
    if not extra.get("other"):
        return None
    sections = [
        SectionRecord(
            id=str(s.get("id", "")),
            title=str(s.get("title", "")),
            text=_clip(str(s.get("text", "")), SECTION_TEXT_LIMIT),
        )
        for s in extra.get("other_sections", [])
        if isinstance(s, dict)
    ]
    return OtherSideRecord(
        label=str(extra["other"]), pages=[str(p) for p in extra.get("other_pages", [])],
        sections=sections,
    )  # fmt: skip


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
    data = report_json(report)
    write_text_atomic(json_path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    write_text_atomic(md_path, render_markdown(report))
    return json_path, md_path


def report_json(report: CheckReport) -> dict[str, Any]:
    """The JSON record of a report: the model, plus ``ok``, ``verdict`` and ``evidence``."""
    from rulebook2game.check.evidence import assess, verdict

    data = report.model_dump(mode="json")
    evidence = assess(report)
    data["ok"] = report.ok
    data["verdict"] = verdict(report, evidence)
    data["assurance"] = evidence.assurance
    data["evidence"] = [item.model_dump(mode="json") for item in evidence.items]
    return data


def load_report(path: Path) -> CheckReport:
    """Read a ``check.json``; a malformed one is bad input."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        for derived in ("ok", "verdict", "assurance", "evidence"):
            data.pop(derived, None)
        return CheckReport.model_validate(data)
    except (OSError, ValueError, ValidationError) as exc:
        raise BadInputError(f"{path}: not a check report ({exc.__class__.__name__})") from None


SECTIONS_QUOTED = 4
"""Cited sections quoted per finding (the most fitting first); the rest are named."""
STEPS_HEAD = 5
STEPS_TAIL = 20
"""A long counterexample is shown by its first and last steps (check.json has all)."""


def _steps_shown(steps: list[StepRecord], seats: list[str] | None = None) -> list[str]:
    lines = [_step_line(s, seats or []) for s in steps]
    if len(lines) <= STEPS_HEAD + STEPS_TAIL + 1:
        return lines
    hidden = len(lines) - STEPS_HEAD - STEPS_TAIL
    note = f"... {hidden} steps not shown (all of them in check.json) ..."
    return [*lines[:STEPS_HEAD], note, *lines[-STEPS_TAIL:]]


def _step_line(step: StepRecord, seats: list[str] | None = None) -> str:
    who = "chance" if step.player == CHANCE else f"player {step.player}"
    if seats and 0 <= step.player < len(seats):
        who += f" ({seats[step.player]})"
    return f"{step.t:>3}  {who:<9} {step.action}"


def render_markdown(report: CheckReport) -> str:
    """The report as Markdown, for a reader (and for the agent's repair prompt)."""
    from rulebook2game.check.evidence import assess, evidence_rows, verdict

    evidence = assess(report)
    out = [f"# Check of `{report.game}`", "", f"**{verdict(report, evidence)}**", ""]
    out += [f"Seed {report.seed}; total {report.seconds:.2f} s.", ""]
    if report.seats:
        named = ", ".join(f"{i} {n}" for i, n in enumerate(report.seats))
        out += [f"Seats (interface.toml): {named}.", ""]
    out += ["| stage | status | time (s) | summary |", "|---|---|---:|---|"]
    out += [f"| {s.name} | {s.status} | {s.seconds:.2f} | {s.summary} |" for s in report.stages]
    out += ["", "## What was verified", "", "| evidence | status | count | note |"]
    out += ["|---|---|---:|---|"]
    out += [f"| {k} | {s} | {n} | {note} |" for k, s, n, note in evidence_rows(evidence)]
    for i, f in enumerate(report.findings, start=1):
        out += ["", f"## {i}. {f.kind} ({f.stage}): {f.message}", ""]
        if f.expected or f.actual:
            out += [f"- expected: {f.expected}", f"- actual: {f.actual}"]
        for p in f.pages:
            line = f":{p.line}" if p.line else ""
            cites = f" — cites {', '.join(p.sections)}" if p.sections else ""
            out.append(f"- page `{p.path}{line}` ({p.role}){cites}")
        for s in f.sections[:SECTIONS_QUOTED]:
            title = f" {s.title}" if s.title else ""
            out.append(f"- section {s.id}{title}" + (f": {_clip(s.text, 300)}" if s.text else ""))
        if len(f.sections) > SECTIONS_QUOTED:
            out.append(f"- also cited: {', '.join(s.id for s in f.sections[SECTIONS_QUOTED:])}")
        if f.counterexample is not None:
            out += ["", f"Counterexample ({len(f.counterexample)} steps):", "", "```"]
            out += _steps_shown(f.counterexample, report.seats) or ["(the initial state)"]
            out += ["```"]
        if f.position:
            out += ["", "Position where it shows:", "", "```", f.position.rstrip(), "```"]
        if f.other is not None:
            out += ["", f"The other side ({f.other.label}):", ""]
            out += [f"- page `{p}`" for p in f.other.pages] or ["- no page found"]
            for s in f.other.sections[:SECTIONS_QUOTED]:
                title = f" {s.title}" if s.title else ""
                out.append(
                    f"- section {s.id}{title}" + (f": {_clip(s.text, 300)}" if s.text else "")
                )
        if f.other_pages:
            out += [
                "",
                f"Also named by its actions, but no line of them ran: {', '.join(f.other_pages)}",
            ]
    if report.unexecuted is not None:
        out += ["", *_unexecuted_lines(report.unexecuted)]
    if report.sentences is not None:
        out += ["", *_sentence_lines(report.sentences)]
    if report.notes is not None:
        out += ["", *_notes_lines(report.notes)]
    if report.coverage is not None and report.coverage.actions:
        out += ["", "## Coverage (fuzz)", "", "| action | taken |", "|---|---:|"]
        out += [f"| {a} | {n} |" for a, n in report.coverage.actions.items()]
    return "\n".join(out) + "\n"


def _unexecuted_lines(record: FindingRecord) -> list[str]:
    out = ["## Page lines no check executed", "", record.message, ""]
    out += ["Write a scenario that reaches each, or confirm it is unreachable (advisory).", ""]
    for p in record.pages:
        cites = f" — cites {', '.join(p.sections)}" if p.sections else ""
        out.append(f"- `{p.path}`: {p.role}{cites}")
    return out


def _notes_lines(notes: FinishNotes) -> list[str]:
    out = ["## The translator's notes", ""]
    if notes.summary:
        out += [notes.summary, ""]
    if notes.ambiguities:
        out += ["Ambiguities resolved:", ""]
        for a in notes.ambiguities:
            why = f" — {a.why}" if a.why else ""
            out.append(f"- {', '.join(a.sentences)}: {a.reading}{why}")
    return out


def _sentence_lines(cov: SentenceCoverage) -> list[str]:
    out = ["## Coverage by sentence", ""]
    out.append(f"- rule sentences cited by pages: {cov.rules_cited}/{cov.rules}")
    if cov.rules_out_of_scope:
        out.append(f"- rule sentences out of scope (`scope.toml`): {cov.rules_out_of_scope}")
    out.append(f"- example sentences covered by scenarios: {cov.examples_covered}/{cov.examples}")
    if cov.examples_out_of_scope:
        out.append(f"- example sentences out of scope: {cov.examples_out_of_scope}")
    if cov.out_of_scope:
        out += ["", "Out of scope, with the translator's reasons (`scope.toml`):", ""]
        out += [
            f"- {i}: {_clip(cov.texts.get(i, ''), 120)} — {why}"
            for i, why in cov.out_of_scope.items()
        ]
    for title, ids in (
        ("Rule sentences no page cites", cov.uncited),
        ("Examples no scenario covers", cov.uncovered_examples),
    ):
        if not ids:
            continue
        out += ["", f"{title}:", ""]
        out += [f"- {i}: {_clip(cov.texts.get(i, ''), 120)}" for i in ids[:SHOWN_SENTENCES]]
        if len(ids) > SHOWN_SENTENCES:
            out.append(f"- ... {len(ids) - SHOWN_SENTENCES} more (all in check.json)")
    return out


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
    if report.notes is not None and report.notes.ambiguities:
        console.print("ambiguities the translator resolved:", style="bold")
        for a in report.notes.ambiguities:
            why = f" — {a.why}" if a.why else ""
            console.print(
                f"  {', '.join(a.sentences)}: {a.reading}{why}", highlight=False, markup=False
            )
    if report.unexecuted is not None:
        console.print("\n".join(_unexecuted_lines(report.unexecuted)[2:]), markup=False)
    from rulebook2game.check.evidence import assess, verdict

    evidence = assess(report)
    line = verdict(report, evidence)
    word, _, rest = line.partition(" — ")
    colour = "green" if evidence.assurance == "reference" else "yellow"
    colour = "red" if word == "FAIL" else colour
    console.print(
        Text.assemble((word, f"bold {colour}"), f" — {rest}" if rest else ""),
        f"({report.seconds:.2f} s, seed {report.seed})",
    )


def _finding_panel(index: int, f: FindingRecord) -> Panel:
    parts: list[Text] = [Text(f.message, style="bold")]
    if f.expected or f.actual:
        parts.append(Text(f"expected: {f.expected}\nactual:   {f.actual}"))
    for p in f.pages:
        line = f":{p.line}" if p.line else ""
        cites = f"  cites {', '.join(p.sections)}" if p.sections else ""
        parts.append(Text(f"page {p.path}{line} ({p.role}){cites}", style="cyan"))
    for s in f.sections[:SECTIONS_QUOTED]:
        if s.text:
            parts.append(Text(f"§{s.id} {s.title}: {_clip(s.text, 160)}", style="dim"))
    if f.counterexample is not None:
        steps = _steps_shown(f.counterexample) or ["(the initial state)"]
        count = len(f.counterexample)
        parts.append(Text(f"counterexample ({count} steps):\n" + "\n".join(steps)))
    if f.position:
        parts.append(Text("position where it shows:\n" + f.position.rstrip()))
    if f.other is not None:
        theirs = [f"page {p}" for p in f.other.pages] or ["no page found"]
        theirs += [f"§{s.id} {s.title}: {_clip(s.text, 160)}" for s in f.other.sections[:2]]
        parts.append(Text(f"the other side ({f.other.label}):\n" + "\n".join(theirs), style="cyan"))
    title = f"{index}. {f.kind} ({f.stage})"
    # as wide as its content (in a pipe the console is thousands of columns wide), so
    # the message is its first line rather than a title that would be cut
    return Panel(Group(*parts), title=title, title_align="left", border_style="red", expand=False)
