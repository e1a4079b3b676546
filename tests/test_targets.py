"""The target plug-in seam: the registry, and one way to compile a game and start its engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook2game.errors import WorkspaceError
from rulebook2game.targets import get_target, known_targets, page_suffix_for, page_suffixes
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import open_workspace
from tests.rl_support import rl_games, workspace_copy

__all__ = ["rl_games"]


def test_every_known_target_has_notes_and_a_suffix() -> None:
    assert "rl" in known_targets()
    for name in known_targets():
        target = get_target(name)
        assert target.name == name
        assert target.reference.is_file()
        assert target.page_suffix.startswith(".")
    assert page_suffixes() == (".kif", ".rbg", ".rl", ".page")


def test_an_unknown_target_is_named_with_the_known_ones() -> None:
    with pytest.raises(WorkspaceError, match=r"unknown target 'python' \(known: .*rl"):
        get_target("python")


def test_page_suffix_follows_game_toml(tmp_path: Path) -> None:
    assert page_suffix_for(tmp_path) == ".rl"  # no game.toml: the default target's
    (tmp_path / "game.toml").write_text('name = "g"\nplayers = 2\ntarget = "rl"\n')
    assert page_suffix_for(tmp_path) == ".rl"
    assert open_workspace(tmp_path).page_suffix == ".rl"


def test_compile_and_start_gives_an_engine_or_one_line(rl_games: Path, tmp_path: Path) -> None:
    with compile_and_start(open_workspace(rl_games / "tiny_ttt")) as made:
        assert made.error is None and made.engine is not None
        engine = made.engine
        assert engine.legal_actions(engine.initial())
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    page = ws.pages_dir / "play.rl"
    page.write_text(page.read_text().replace("current = 1 - current", "current = 1 - currnet"))
    with compile_and_start(ws) as made:
        assert made.engine is None and made.compile_failed
        assert made.error is not None and "pages/play.rl:" in made.error
    (ws.root / "game.toml").write_text('name = "g"\nplayers = 2\ntarget = "python"\n')
    with compile_and_start(ws) as made:
        assert made.engine is None and not made.compile_failed
        assert made.error is not None and "unknown target 'python'" in made.error
