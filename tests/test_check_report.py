"""The check report: JSON and Markdown written atomically, and the console rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from check_toys import Race
from rich.console import Console

from rulebook2game.check.findings import Finding, PageRef, SectionRef
from rulebook2game.check.report import (
    CheckReport,
    Coverage,
    StageResult,
    counterexample_trace,
    finding_record,
    load_report,
    render_console,
    write_report,
)
from rulebook2game.check.shrink import trace_of
from rulebook2game.errors import BadInputError


def _report() -> CheckReport:
    trace = trace_of(Race(target=2), ["coin(side=0)", "add(n=2)"], game="race")
    finding = Finding(
        "oracle_returns",
        "oracle",
        "returns differ at the end of the game",
        trace=trace,
        step=2,
        expected="[1.0, -1.0]",
        actual="[1.0, 1.0]",
        pages=(PageRef("scoring", "failing line", 12, ("6",)),),
        sections=(SectionRef("6", "Scoring", "The winner scores 1. " * 40),),
    )
    return CheckReport(
        game="race",
        workspace="/tmp/race",
        seed=7,
        stages=[
            StageResult(name="compile", status="ok", seconds=0.4, summary="3 pages"),
            StageResult(name="oracle", status="failed", seconds=1.2, summary="1 finding"),
        ],
        findings=[finding_record(finding)],
        coverage=Coverage(actions={"add": 10, "coin": 5}),
        seconds=1.6,
    )


def test_write_and_load_round_trip(tmp_path: Path) -> None:
    report = _report()
    json_path, md_path = write_report(report, tmp_path / "reports")
    data = json.loads(json_path.read_text())
    assert data["ok"] is False and data["format"] == "rulebook2game-check/1"
    assert [s["name"] for s in data["stages"]] == ["compile", "oracle"]
    assert load_report(json_path) == report
    assert not list((tmp_path / "reports").glob("*.tmp"))
    md = md_path.read_text()
    assert "FAIL" in md and "pages/scoring.rl:12" in md and "section 6 Scoring" in md
    assert "player 0  add(n=2)" in md


def test_section_text_is_clipped() -> None:
    (record,) = _report().findings
    assert len(record.sections[0].text) <= 400


def test_counterexample_rebuilds_as_trace() -> None:
    (record,) = _report().findings
    trace = counterexample_trace(record, "race", 2)
    assert trace is not None
    assert trace.actions == ["coin(side=0)", "add(n=2)"]
    assert trace.end.returns == (1.0, -1.0)


def test_console_rendering_names_page_and_verdict() -> None:
    console = Console(record=True, width=120)
    render_console(_report(), console)
    text = console.export_text()
    assert "pages/scoring.rl:12" in text and "FAIL" in text and "compile" in text


def test_passing_report_is_ok(tmp_path: Path) -> None:
    report = CheckReport(
        game="g", workspace=".", seed=1, stages=[StageResult(name="fuzz", status="ok")]
    )
    assert report.ok
    write_report(report, tmp_path)
    assert "PASS" in (tmp_path / "check.md").read_text()


def test_load_report_rejects_garbage(tmp_path: Path) -> None:
    bad = tmp_path / "check.json"
    bad.write_text("{not json")
    with pytest.raises(BadInputError):
        load_report(bad)
