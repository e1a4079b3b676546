"""A rulebook without a length limit: ``unbounded = true`` makes ``max_game_length`` a
walk bound only, so a fuzzed game cut there is counted, not a finding."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook2game.check.run import compile_stage, fuzz_stage, run_check
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace


def _game(tmp_path: Path, unbounded: bool) -> Path:
    game = tmp_path / ("unbounded" if unbounded else "bounded")
    shutil.copytree(CORPORA_DIR / "breakthrough", game)
    text = (game / "game.toml").read_text(encoding="utf-8")
    text = text.replace("max_game_length = 209", "max_game_length = 12")
    if unbounded:
        text = text.replace("max_game_length = 12", "max_game_length = 12\nunbounded = true")
    (game / "game.toml").write_text(text, encoding="utf-8")
    return game


def test_a_game_past_the_bound_is_a_finding_unless_declared_unbounded(tmp_path: Path) -> None:
    options = {"fuzz": 20, "oracle": 0}
    stages = (compile_stage, fuzz_stage)
    bounded = run_check(open_workspace(_game(tmp_path, False)), stages, options=options)
    assert [f.kind for f in bounded.findings] == ["no_termination"]

    report = run_check(open_workspace(_game(tmp_path, True)), stages, options=options)
    fuzz = report.stage("fuzz")
    assert report.ok and not report.findings
    assert fuzz is not None and fuzz.stats["truncated"] == 20
    assert "20 cut at 12 steps (unbounded game)" in fuzz.summary
