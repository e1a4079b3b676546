"""A check run always ends in a report of this run: a stuck game is a finding (never a
crash of a later stage), and a defect of a stage itself is that stage's error row."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook2game.check.run import (
    ALL_STAGES,
    CheckContext,
    StageOutcome,
    compile_stage,
    fuzz_stage,
    run_check,
)
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import Workspace


def _tic_tac_toe(tmp_path: Path) -> Workspace:
    root = tmp_path / "ttt"
    shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", root, ignore=shutil.ignore_patterns("build", "reports")
    )
    return Workspace(root)


def test_a_game_stuck_mid_way_is_a_finding_in_a_whole_report(tmp_path: Path) -> None:
    ws = _tic_tac_toe(tmp_path)
    turn = ws.pages_dir / "turn.rl"
    precondition = "{ board.get(row.value, col.value) == EMPTY }"
    text = turn.read_text()
    assert precondition in text
    # after the first mark nothing is legal, though nobody has won
    stuck = "{ board.get(row.value, col.value) == EMPTY and board.get(1, 1) == EMPTY }"
    turn.write_text(text.replace(precondition, stuck))
    # no reference engine: the leak stage walks the pages alone (as for a new game)
    config = ws.root / "game.toml"
    lines = config.read_text().splitlines()
    config.write_text("\n".join(ln for ln in lines if not ln.startswith("oracle")) + "\n")
    options = {"fuzz": 20, "oracle": 0}
    report = run_check(ws, ALL_STAGES, options=options)
    status = {stage.name: stage.status for stage in report.stages}
    assert status["leak"] != "error", report.stages
    assert status["fuzz"] == "failed"
    assert any(f.kind == "no_legal_action" for f in report.findings), report.findings


def test_a_stage_that_fails_itself_is_its_error_row_and_the_rest_still_run(
    tmp_path: Path,
) -> None:
    ws = _tic_tac_toe(tmp_path)

    def broken_stage(ctx: CheckContext) -> StageOutcome:
        raise IndexError("Cannot choose from an empty sequence")

    report = run_check(ws, (compile_stage, broken_stage, fuzz_stage), options={"fuzz": 20})
    rows = {stage.name: stage for stage in report.stages}
    assert list(rows) == ["compile", "broken", "fuzz"]
    assert rows["broken"].status == "error" and not report.ok
    assert "IndexError: Cannot choose from an empty sequence" in rows["broken"].summary
    assert "test_check_stage_defects.py" in rows["broken"].summary
    assert rows["fuzz"].status == "ok"
