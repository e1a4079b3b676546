"""Shared pieces of the rl target tests: copies of the small test games, compiled once.

The games under ``tests/data/rl/`` are copied into one folder of the session's
temporary directory; builds are cached by page hash, so every test module that
compiles the same game reuses the first build.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook2game.targets.rl.compile import RlBuild, compile_workspace
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.workspace import Workspace, open_workspace

DATA = Path(__file__).resolve().parent / "data" / "rl"


@pytest.fixture(scope="session")
def rl_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of ``tests/data/rl`` (shared by every module of the session)."""
    root = tmp_path_factory.getbasetemp() / "rl_games"
    if not root.exists():
        shutil.copytree(DATA, root, ignore=shutil.ignore_patterns("build", "reports"))
    return root


def workspace_copy(rl_games: Path, game: str, dest: Path) -> Workspace:
    """A fresh copy of one test game (to break its pages without touching others)."""
    target = dest / game
    shutil.copytree(rl_games / game, target, ignore=shutil.ignore_patterns("build", "reports"))
    return open_workspace(target)


def build_of(rl_games: Path, game: str, optimized: bool = False) -> RlBuild:
    """The (cached) build of a test game."""
    return compile_workspace(open_workspace(rl_games / game), optimized=optimized).require()


def engine_of(rl_games: Path, game: str, optimized: bool = False) -> RlEngine:
    """A started engine on a test game; close it when done."""
    return RlEngine(build_of(rl_games, game, optimized), game=game)


def game_copy(
    source: Path, tmp_path: Path, old: str = "", new: str = "", page_name: str = "moves.rl"
) -> Path:
    """A copy of the game directory ``source`` under ``tmp_path`` (no build, reports or
    runs; links followed), with the one occurrence of ``old`` in ``pages/PAGE_NAME``
    replaced by ``new``."""
    dest = tmp_path / source.name
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("build", "reports", "runs"))
    if old:
        page = dest / "pages" / page_name
        text = page.read_text()
        assert text.count(old) == 1
        page.write_text(text.replace(old, new))
    return dest


def in_process_matches_table(game_dir: Path, seed: int) -> None:
    """Step the game in process (one step at a time, then a batch) and assert that every
    legal set equals the test of every table entry (``r2g_table_legal``)."""
    import ctypes
    import random

    import rulebook2game

    game = rulebook2game.load(game_dir, trust=True)
    native = game._native
    rng = random.Random(seed)
    state = game.new_initial_state()
    result, index = ctypes.c_longlong(), ctypes.c_longlong(-1)
    out = native.call("r2g_int_buffer", native.size + 1)
    for _ in range(300):
        if state.is_terminal():
            state = game.new_initial_state()
        legal = state.legal_actions()
        table = native.call("r2g_table_legal", state._g, native.all)
        assert legal == list(table._data[: int(table._size)])
        copy = native.copy(ctypes.byref(state._g))
        native.step(*(ctypes.byref(x) for x in (result, copy, index, out)))
        assert list(out._data[1 : result.value + 1]) == legal
        state.apply_action(rng.choice(legal))
    batch = game.batch(4)
    for _ in range(60):
        actions = []
        for k in range(batch.size):
            if batch.is_terminal(k):
                batch.reset(k)
                actions.append(-1)
                continue
            g = native.call("r2g_game_at", batch._games, k)
            table = native.call("r2g_table_legal", g, native.all)
            assert batch.legal_actions(k) == list(table._data[: int(table._size)])
            actions.append(batch.random_action(k, rng))
        batch.step(actions)
