"""The engine contract: ``get_current_player`` answers -4 for a finished game. A page
that answers otherwise is a finding of check (its mutants used to survive every check,
since the engine reported a finished game as terminal whatever the page said)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook2game.check.run import compile_stage, fuzz_stage, run_check
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import Workspace


def test_a_finished_game_whose_player_is_not_minus_four_is_a_finding(tmp_path: Path) -> None:
    root = tmp_path / "pig"
    shutil.copytree(CORPORA_DIR / "pig", root, ignore=shutil.ignore_patterns("build", "reports"))
    turn = root / "pages" / "turn.rl"
    text = turn.read_text()
    finished = "    if g.is_done():\n        return -4\n"
    assert text.count(finished) == 1
    turn.write_text(text.replace(finished, "    if g.is_done():\n        return -5\n"))
    report = run_check(Workspace(root), (compile_stage, fuzz_stage), options={"fuzz": 20})
    assert not report.ok
    messages = [f.message for f in report.findings]
    assert any("get_current_player returned -5 at a finished game" in m for m in messages), messages
