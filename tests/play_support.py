"""Shared pieces of the play and serve tests: a private copy of a corpus game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parent.parent / "corpora"


@pytest.fixture(scope="session")
def ttt_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``corpora/tic_tac_toe`` (its build lands in the copy, not the corpus)."""
    root = tmp_path_factory.getbasetemp() / "play_games" / "tic_tac_toe"
    if not root.exists():
        shutil.copytree(
            CORPORA / "tic_tac_toe", root, ignore=shutil.ignore_patterns("build", "reports")
        )
    return root


def broken_copy(source: Path, dest: Path) -> Path:
    """A copy of tic-tac-toe whose winner gets the loser's return (a replay finding)."""
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("build", "reports"))
    turn = dest / "pages" / "turn.rl"
    text = turn.read_text(encoding="utf-8")
    assert "            winner = current\n" in text
    turn.write_text(text.replace("winner = current\n", "winner = 1 - current\n"), "utf-8")
    return dest
