"""What a check verified: evidence per kind, the verdict line, and a summary that never
contradicts its stages."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from rulebook2game.check.evidence import assess, verdict
from rulebook2game.check.report import (
    CheckReport,
    FindingRecord,
    StageResult,
    load_report,
    render_console,
    render_markdown,
    write_report,
)
from rulebook2game.cli import app
from tests.rl_support import rl_games, workspace_copy

__all__ = ["rl_games"]


def _stage(name: str, status: str, summary: str = "", **stats: object) -> StageResult:
    return StageResult(name=name, status=status, summary=summary, stats=stats)  # type: ignore[arg-type]


def _report(*stages: StageResult, findings: list[FindingRecord] | None = None) -> CheckReport:
    return CheckReport(
        game="g", workspace="/g", seed=0, stages=list(stages), findings=findings or []
    )


FUZZ_OK = _stage("fuzz", "ok", "100 playouts", games=100, invariants=3)
NO_TRACES = _stage("replay", "skipped", "no traces in traces/", traces=0)
NO_ORACLE = _stage("oracle", "skipped", "no oracle in game.toml")
NO_SCENARIOS = _stage("scenarios", "skipped", "no scenarios in scenarios/", scenarios=0)


def test_fuzz_only_is_never_a_bare_pass() -> None:
    report = _report(_stage("compile", "ok"), FUZZ_OK, NO_TRACES, NO_ORACLE, NO_SCENARIOS)
    evidence = assess(report)
    assert evidence.assurance == "fuzz_only"
    line = verdict(report)
    assert line.startswith("PASS — fuzz only: ")
    assert "no reference engine" in line and "no golden traces" in line
    assert "no scenarios" in line and "unverified" in line
    assert evidence.item("fuzz").status == "passed" and evidence.item("fuzz").count == 100
    assert evidence.item("invariants").count == 3
    assert evidence.item("reference").status == "not_available"


def test_reference_pass_names_its_evidence_with_counts() -> None:
    report = _report(
        _stage("compile", "ok"),
        FUZZ_OK,
        _stage("replay", "ok", "8/8", traces=8, passed=8),
        _stage("oracle", "ok", "200 trajectories", trajectories=200),
    )
    line = verdict(report)
    assert assess(report).assurance == "reference"
    assert line.startswith("PASS — reference engine (200 trajectories), golden traces (8), fuzz")
    assert "unverified" not in line


def test_rulebook_level_says_what_is_missing() -> None:
    report = _report(
        FUZZ_OK, NO_TRACES, NO_ORACLE, _stage("scenarios", "ok", "4/4", scenarios=4, passed=4)
    )
    assert assess(report).assurance == "rulebook"
    assert verdict(report) == (
        "PASS — scenarios (4), fuzz (100 playouts), invariants (3); "
        "no reference engine, no golden traces"
    )


def test_turned_off_is_not_the_same_as_absent() -> None:
    report = _report(FUZZ_OK, NO_TRACES, _stage("oracle", "skipped", "disabled (oracle 0)"))
    assert assess(report).item("reference").status == "not_run"
    assert "reference engine not run" in verdict(report)
    blocked = _stage("scenarios", "skipped", "no engine (compile failed)", scenarios=0, found=3)
    assert assess(_report(blocked)).item("scenarios").status == "not_run"


def test_a_stage_in_error_is_never_zero_findings() -> None:
    bad = _stage("replay", "error", "traces/a.jsonl:3: not JSON (Expecting value)", traces=1)
    report = _report(_stage("compile", "ok"), FUZZ_OK, bad)
    line = verdict(report)
    assert line.startswith("FAIL — replay could not run: traces/a.jsonl:3")
    assert "0 finding" not in line
    assert assess(report).item("golden_traces").status == "error"
    console = Console(record=True, width=200)
    render_console(report, console)
    assert "0 finding" not in console.export_text()
    assert "FAIL — replay could not run" in render_markdown(report)


def test_an_invariant_finding_fails_invariants_not_all_of_fuzz() -> None:
    finding = FindingRecord(kind="invariant", stage="fuzz", message="score went negative")
    fuzz = _stage("fuzz", "failed", "100 playouts, 1 finding(s)", games=100, invariants=3)
    report = _report(fuzz, findings=[finding])
    evidence = assess(report)
    assert evidence.item("invariants").status == "failed"
    assert evidence.item("fuzz").status == "passed"
    assert verdict(report) == "FAIL — 1 finding(s) (fuzz)"


def test_report_files_state_the_evidence(tmp_path: Path) -> None:
    report = _report(_stage("compile", "ok"), FUZZ_OK, NO_TRACES, NO_ORACLE)
    json_path, md_path = write_report(report, tmp_path)
    data = json.loads(json_path.read_text())
    assert data["assurance"] == "fuzz_only"
    assert data["verdict"].startswith("PASS — fuzz only")
    assert {e["kind"]: e["status"] for e in data["evidence"]}["golden_traces"] == "not_available"
    assert load_report(json_path) == report  # the derived fields are not part of the record
    text = md_path.read_text()
    assert "## What was verified" in text and "| golden traces | not available |" in text


def _check(game: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", str(game), "--fuzz", "20", *args])
    return result.exit_code, result.output


def test_malformed_trace_line_fails_as_an_error_and_the_rest_replay(
    rl_games: Path, tmp_path: Path
) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    trace = ws.traces_dir / "seed2.jsonl"
    trace.write_text(trace.read_text() + "{not json\n")
    code, output = _check(ws.root, "--oracle-runs", "0")
    assert code == 1
    flat = " ".join(output.split())
    assert "FAIL — replay could not run" in flat
    assert "FAIL: 0 finding" not in flat and "FAIL — 0 finding" not in flat
    data = json.loads((ws.reports_dir / "check.json").read_text())
    replay = next(s for s in data["stages"] if s["name"] == "replay")
    assert replay["status"] == "error" and replay["stats"]["passed"] == 1


def test_broken_interface_stops_every_stage(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    (ws.root / "interface.toml").write_text("actions = [\n")
    code, _ = _check(ws.root, "--oracle-runs", "5")
    assert code == 1
    data = json.loads((ws.reports_dir / "check.json").read_text())
    statuses = {s["name"]: s["status"] for s in data["stages"]}
    assert statuses["compile"] == "error"
    assert all(status != "ok" for status in statuses.values()), statuses
    assert data["verdict"].startswith("FAIL — compile could not run: ")


def test_regress_and_eval_carry_the_assurance_per_game() -> None:
    from rulebook2game.evals.render import _check_cell
    from rulebook2game.evals.report import GameRecord
    from rulebook2game.regress import GameOutcome

    fuzz_only = _report(_stage("compile", "ok"), FUZZ_OK, NO_TRACES, NO_ORACLE)
    outcome = GameOutcome("g", Path("/g"), fuzz_only)
    assert outcome.ok and outcome.assurance == "fuzz_only"
    assert outcome.verdict.startswith("PASS — fuzz only")
    assert GameOutcome("g", Path("/g"), None, "broken game.toml").assurance == "failed"
    record = GameRecord(game="g", path="/g", compiles=True, check_passes=True)
    assert _check_cell(record.model_copy(update={"assurance": "fuzz_only"})) == "pass (fuzz only)"
    assert _check_cell(record.model_copy(update={"assurance": "reference"})) == "pass (ref)"
    assert _check_cell(record.model_copy(update={"check_passes": False})) == "FAIL"


def test_invariants_say_how_many_are_built_in_and_how_many_declared() -> None:
    builtin = _stage("fuzz", "ok", "100 playouts", games=100, invariants=5, invariants_declared=0)
    both = _stage("fuzz", "ok", "100 playouts", games=100, invariants=7, invariants_declared=2)
    scen = _stage("scenarios", "ok", "4/4", scenarios=4, passed=4)
    assert "invariants (5 built-in);" in verdict(_report(builtin, NO_TRACES, NO_ORACLE, scen))
    line = verdict(_report(both, NO_TRACES, NO_ORACLE, scen))
    assert "invariants (5 built-in, 2 declared);" in line
