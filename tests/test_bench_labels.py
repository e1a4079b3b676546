"""Bench rows are named after the game's target (a RulePage build is not "rl native")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.resources import CORPORA_DIR


def test_rows_of_a_rulepage_build_are_labelled_by_its_target(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(
        CORPORA_DIR / "rulepage" / "pig",
        corpus / "pig",
        ignore=shutil.ignore_patterns("build", "reports"),
    )
    out = tmp_path / "reports"
    args = ["bench", str(corpus), "--all", "--seconds", "0.05", "--out", str(out), "--trust"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    (json_path,) = out.glob("*-bench-corpus.json")
    (game,) = json.loads(json_path.read_text())["games"]
    labels = [row["label"] for row in game["rows"]]
    assert game["target"] == "rulepage"
    assert "rulepage native (-O2)" in labels and "rulepage in-process python" in labels
    assert not any(label.startswith("rl ") for label in labels)
    assert "| pig (rulepage) |" in json_path.with_suffix(".md").read_text()


def test_progress_lines_of_one_game_carry_its_target(tmp_path: Path) -> None:
    game = tmp_path / "tic_tac_toe"
    shutil.copytree(
        CORPORA_DIR / "rulepage" / "tic_tac_toe",
        game,
        ignore=shutil.ignore_patterns("build", "reports"),
    )
    result = CliRunner().invoke(app, ["bench", str(game), "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    assert "rulepage native (-O2):" in result.output
    assert "rl native" not in result.output
