"""What a check run verified: one record per kind of evidence, and the verdict line.

A green check means little on its own: fuzzing finds crashes and stuck states but
never that a rule is read wrongly. Each kind of evidence says whether it ran, passed,
failed or is not available for this game, and how much of it there was:

===================  ======================================  ==========================
kind                 ran when                                count
===================  ======================================  ==========================
``fuzz``             the fuzz stage played                   playouts
``invariants``       the fuzz stage checked invariants       invariants checked
``scenarios``        the game has ``scenarios/*.toml``       scenarios
``golden_traces``    the game has ``traces/*.jsonl``         traces
``second_opinion``   another translation was compared        trajectories
``reference``        ``game.toml`` names an oracle           trajectories
===================  ======================================  ==========================

The *assurance level* summarises them: ``reference`` (a reference engine agreed),
``rulebook`` (scenarios, golden traces or a second opinion agreed, no reference),
``fuzz_only`` (only fuzz and invariants), ``none`` (nothing ran). The verdict line
never says a bare PASS: it names what passed and what was not available, so a game
checked only by fuzzing never reads like one checked against a reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rulebook2game.check.report import CheckReport, FindingRecord, StageResult

EvidenceKind = Literal[
    "fuzz", "invariants", "scenarios", "golden_traces", "second_opinion", "reference"
]
EvidenceStatus = Literal["passed", "failed", "error", "not_run", "not_available"]
"""``not_run``: possible for this game but disabled or blocked (no engine);
``not_available``: the game has none (no traces, no oracle, ...)."""
Assurance = Literal["reference", "rulebook", "fuzz_only", "none", "failed"]

KINDS: tuple[EvidenceKind, ...] = (
    "reference",
    "golden_traces",
    "scenarios",
    "second_opinion",
    "fuzz",
    "invariants",
)
"""In the order the verdict line names them (strongest first)."""

LABELS: dict[str, str] = {
    "fuzz": "fuzz",
    "invariants": "invariants",
    "scenarios": "scenarios",
    "golden_traces": "golden traces",
    "second_opinion": "second opinion",
    "reference": "reference engine",
}
UNITS: dict[str, str] = {
    "fuzz": "playouts",
    "invariants": "",
    "scenarios": "",
    "golden_traces": "",
    "second_opinion": "trajectories",
    "reference": "trajectories",
}
NOT_WRITTEN = "not written yet"
"""The note of a second opinion that ``second-opinion`` prepared and nobody translated yet."""
RULEBOOK_KINDS = frozenset({"scenarios", "golden_traces", "second_opinion"})
"""Evidence that the engine agrees with the rulebook's meaning (not only that it runs)."""

STAGE_OF: dict[str, str] = {
    "fuzz": "fuzz",
    "invariants": "fuzz",
    "scenarios": "scenarios",
    "golden_traces": "replay",
    "second_opinion": "against",
    "reference": "oracle",
}
"""The check stage that produces each kind."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EvidenceItem(_Model):
    """One kind of evidence in one check run."""

    kind: EvidenceKind
    status: EvidenceStatus
    count: int = 0
    """Playouts, invariants, scenarios, traces or trajectories (see the module table)."""
    note: str = ""
    """Why it did not run, or what failed, in a few words."""
    declared: int | None = None
    """For invariants: how many of ``count`` the game declared (the rest are built in)."""

    def phrase(self) -> str:
        """``reference engine (200 trajectories)``, ``golden traces (8)``, ``fuzz``,
        ``invariants (5 built-in, 2 declared)``."""
        label = LABELS[self.kind]
        if self.kind == "invariants" and self.count and self.declared is not None:
            built_in = self.count - self.declared
            parts = [f"{built_in} built-in"] if built_in else []
            parts += [f"{self.declared} declared"] if self.declared else []
            return f"{label} ({', '.join(parts)})"
        if not self.count or self.kind == "fuzz":
            return label if not self.count else f"{label} ({self.count} {UNITS[self.kind]})"
        unit = UNITS[self.kind]
        return f"{label} ({self.count}{' ' + unit if unit else ''})"


class Evidence(_Model):
    """Every kind of evidence of one check run, and what they add up to."""

    items: tuple[EvidenceItem, ...]

    def item(self, kind: str) -> EvidenceItem:
        """The record of ``kind``."""
        return next(i for i in self.items if i.kind == kind)

    def with_status(self, *statuses: str) -> list[EvidenceItem]:
        """The items with one of ``statuses``, strongest kind first."""
        return [i for i in self.items if i.status in statuses]

    @property
    def assurance(self) -> Assurance:
        """``reference``, ``rulebook``, ``fuzz_only``, ``none``, or ``failed``."""
        if self.with_status("failed", "error"):
            return "failed"
        passed = {i.kind for i in self.with_status("passed")}
        if "reference" in passed:
            return "reference"
        if passed & RULEBOOK_KINDS:
            return "rulebook"
        if passed:
            return "fuzz_only"
        return "none"

    def passed_phrase(self) -> str:
        """What passed, strongest first: ``reference engine (200 trajectories), fuzz``."""
        return ", ".join(i.phrase() for i in self.with_status("passed"))

    def missing_phrase(self) -> str:
        """What this game lacks: ``no reference engine, no golden traces, no scenarios``."""
        return ", ".join(_lacks(i) for i in self.missing())

    def missing(self) -> list[EvidenceItem]:
        """Rulebook-level evidence that is not available or did not run (and a declared
        second opinion not written yet)."""
        wanted = ("reference", "golden_traces", "scenarios")
        return [
            i
            for i in self.items
            if (i.kind in wanted and i.status in ("not_available", "not_run"))
            or i.note == NOT_WRITTEN
        ]

    def unwritten_phrase(self) -> str:
        """``second opinion not written yet`` for a declared, untranslated second opinion."""
        return ", ".join(_lacks(i) for i in self.items if i.note == NOT_WRITTEN)


def _lacks(item: EvidenceItem) -> str:
    label = LABELS[item.kind]
    if item.note == NOT_WRITTEN:
        return f"{label} {NOT_WRITTEN}"
    return f"no {label}" if item.status == "not_available" else f"{label} not run"


def assess(report: CheckReport) -> Evidence:
    """The evidence of a finished check run, read from its stages and findings."""
    stages = {s.name: s for s in report.stages}
    failed_stages = {f.stage for f in report.findings}
    invariant_failed = any(f.kind == "invariant" for f in report.findings)
    items = []
    for kind in KINDS:
        stage = stages.get(STAGE_OF[kind])
        items.append(_item(kind, stage, failed_stages, invariant_failed, report.findings))
    return Evidence(items=tuple(items))


def _item(
    kind: EvidenceKind,
    stage: StageResult | None,
    failed_stages: set[str],
    invariant_failed: bool,
    findings: Sequence[FindingRecord],
) -> EvidenceItem:
    if stage is None:
        return EvidenceItem(kind=kind, status="not_available", note="not run by this check")
    stats = stage.stats
    if kind == "invariants":
        return _invariants(stage, invariant_failed)
    count = _count(kind, stats)
    if stage.status == "skipped" and stats.get("not_written"):
        return EvidenceItem(kind=kind, status="not_run", note=NOT_WRITTEN)
    if stage.status == "skipped":
        status: EvidenceStatus = "not_available" if _absent(kind, stage) else "not_run"
        return EvidenceItem(kind=kind, status=status, count=0, note=stage.summary)
    if stage.status == "error":
        return EvidenceItem(kind=kind, status="error", count=count, note=stage.summary)
    if stage.status == "failed" or stage.name in failed_stages:
        mine = [f for f in findings if f.stage == stage.name]
        if kind == "fuzz" and mine and all(f.kind == "invariant" for f in mine):
            return EvidenceItem(kind=kind, status="passed", count=count)
        return EvidenceItem(kind=kind, status="failed", count=count, note=stage.summary)
    return EvidenceItem(kind=kind, status="passed", count=count)


def _count(kind: str, stats: dict[str, object]) -> int:
    keys = {
        "fuzz": "games",
        "scenarios": "scenarios",
        "golden_traces": "traces",
        "second_opinion": "trajectories",
        "reference": "trajectories",
    }
    value = stats.get(keys.get(kind, ""), 0)
    return value if isinstance(value, int) else 0


def _absent(kind: str, stage: StageResult) -> bool:
    """Whether a skipped stage had nothing to work on (rather than being turned off)."""
    if kind == "golden_traces":
        return bool(stage.stats.get("traces", 0) == 0)
    if kind == "scenarios":
        return bool(stage.stats.get("found", stage.stats.get("scenarios", 0)) == 0)
    if kind == "reference":
        return "no oracle" in stage.summary
    return False


def _invariants(stage: StageResult, failed: bool) -> EvidenceItem:
    count = stage.stats.get("invariants", 0)
    n = count if isinstance(count, int) else 0
    if stage.status in ("skipped", "error"):
        return EvidenceItem(kind="invariants", status="not_run", note=f"fuzz {stage.status}")
    given = stage.stats.get("invariants_declared")
    declared = min(given, n) if isinstance(given, int) else None
    if failed:
        return EvidenceItem(kind="invariants", status="failed", count=n, declared=declared)
    if n == 0 and "invariants" in stage.stats:
        return EvidenceItem(kind="invariants", status="not_available", note="none declared")
    return EvidenceItem(kind="invariants", status="passed", count=n, declared=declared)


def verdict(report: CheckReport, evidence: Evidence | None = None) -> str:
    """The one-line verdict: PASS or FAIL, and what was (not) verified.

    ``PASS — reference engine (200 trajectories), golden traces (8), fuzz (1000 playouts)``;
    ``PASS — fuzz only: no reference engine, no golden traces, no scenarios; agreement
    with the rulebook is unverified``; ``FAIL — 2 finding(s) (scenarios)``; ``FAIL —
    replay could not run: traces/a.jsonl:3: not JSON`` (a stage in error is never
    "0 findings").
    """
    ev = evidence or assess(report)
    if report.findings or any(s.status == "error" for s in report.stages):
        return "FAIL — " + failure_phrase(report)
    level = ev.assurance
    passed = ev.passed_phrase()
    missing = ev.missing_phrase()
    if level == "reference":
        unwritten = ev.unwritten_phrase()
        return f"PASS — {passed}" + (f"; {unwritten}" if unwritten else "")
    if level == "rulebook":
        tail = f"; {missing}" if missing else ""
        return f"PASS — {passed}{tail}"
    if level == "fuzz_only":
        return f"PASS — fuzz only: {missing}; agreement with the rulebook is unverified"
    return "PASS — nothing verified: no check ran (compile only)"


def failure_phrase(report: CheckReport) -> str:
    """``2 finding(s) (fuzz, oracle)``, ``replay could not run: ...``, or both."""
    parts = []
    if report.findings:
        stages = ", ".join(dict.fromkeys(f.stage for f in report.findings))
        parts.append(f"{len(report.findings)} finding(s) ({stages})")
    for stage in report.stages:
        if stage.status == "error":
            parts.append(f"{stage.name} could not run: {stage.summary}")
    return "; ".join(parts)


def evidence_rows(evidence: Evidence) -> Iterable[tuple[str, str, str, str]]:
    """(kind, status, count, note) rows for tables."""
    for item in evidence.items:
        yield (
            LABELS[item.kind],
            item.status.replace("_", " "),
            str(item.count) if item.count else "",
            item.note,
        )
