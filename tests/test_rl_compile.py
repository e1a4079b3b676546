"""Compiling rule pages with rlc: builds, caching, and errors mapped to page and line."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook2game.errors import CompileError
from rulebook2game.targets.rl import compile as rl_compile
from rulebook2game.targets.rl import toolchain
from rulebook2game.targets.rl.compile import RlCompileError, check_syntax, compile_workspace
from rulebook2game.targets.rl.diagnostics import ONE_ERROR_NOTE, parse_diagnostics
from rulebook2game.workspace import Workspace, open_workspace
from tests.rl_support import rl_games, workspace_copy

__all__ = ["rl_games"]


def _edit(ws: Workspace, page: str, old: str, new: str) -> None:
    path = ws.pages_dir / page
    text = path.read_text()
    assert old in text, f"{old!r} not in {page}"
    path.write_text(text.replace(old, new, 1))


def _line_of(ws: Workspace, page: str, needle: str) -> int:
    lines = (ws.pages_dir / page).read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


def test_rlc_is_found_next_to_the_interpreter() -> None:
    tools = toolchain.find_toolchain()
    assert os.access(tools.rlc, os.X_OK) and tools.learn_rl.is_file()
    assert next(toolchain.candidate_paths()) == Path(sys.executable).parent / "rlc"
    assert tools.version != ""


@pytest.fixture
def no_rlc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(toolchain, "candidate_paths", lambda: iter(()))
    toolchain.find_toolchain.cache_clear()
    yield
    toolchain.find_toolchain.cache_clear()


def test_a_missing_rlc_is_a_clear_error(no_rlc: None, rl_games: Path) -> None:
    with pytest.raises(toolchain.ToolchainError, match="pip install rl_language_core"):
        compile_workspace(open_workspace(rl_games / "tiny_ttt"))


def test_a_missing_linker_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, rl_games: Path) -> None:
    real_which = toolchain.shutil.which
    monkeypatch.setattr(
        toolchain.shutil, "which", lambda name: None if name == "ld" else real_which(name)
    )
    toolchain.find_toolchain.cache_clear()
    try:
        with pytest.raises(toolchain.ToolchainError, match=r"system linker `ld`.*binutils"):
            compile_workspace(open_workspace(rl_games / "tiny_ttt"))
    finally:
        toolchain.find_toolchain.cache_clear()


def test_builds_land_in_the_workspace_and_are_reused(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "dice", tmp_path)
    first = compile_workspace(ws)
    assert first.ok and first.build is not None and not first.cached
    assert first.build.directory.parent == ws.build_dir
    assert first.build.library.stat().st_size > 0 and first.build.wrapper.is_file()
    assert first.build.play_page == "dice" and not first.build.optimized
    again = compile_workspace(ws)
    assert again.cached and again.build == first.build
    # a reused build says it was made from these exact pages, not that nothing changed
    assert first.summary().startswith("compiled (checked) in ")
    assert again.summary().startswith("compiled (checked; these exact pages were built before")
    optimized = compile_workspace(ws, optimized=True)
    assert optimized.build is not None and optimized.build.directory != first.build.directory
    _edit(ws, "dice.rl", "# page: dice", "# page: dice (edited)")
    changed = compile_workspace(ws)
    assert changed.build is not None and not changed.cached
    assert changed.build.directory != first.build.directory
    assert all(p.name.startswith("rl-") for p in ws.build_dir.iterdir())


def test_the_optimized_build_gets_the_larger_inlining_budget(
    rl_games: Path, tmp_path: Path
) -> None:
    ws = workspace_copy(rl_games, "dice", tmp_path)
    built = compile_workspace(ws, optimized=True).require()
    recorded = json.loads((built.directory / "build.json").read_text())["flags"]
    assert recorded == ["-O2", *rl_compile.INLINE_FLAGS]
    # the wrapper's header shows the library's command with the flags it was built with
    assert "--inline-threshold=" in built.wrapper.read_text().splitlines()[2]
    checked = compile_workspace(ws).require()
    assert "--inline-threshold" not in (checked.directory / "build.json").read_text()


def test_big_pages_and_an_unknown_option_keep_llvms_inlining_budget(
    monkeypatch: pytest.MonkeyPatch, rl_games: Path
) -> None:
    tools = toolchain.find_toolchain()
    pages = sorted((rl_games / "dice" / "pages").glob("*.rl"))
    assert rl_compile.optimized_flags(tools, pages) == ("-O2", *rl_compile.INLINE_FLAGS)
    size = sum(p.stat().st_size for p in pages)
    monkeypatch.setattr(rl_compile, "INLINE_MAX_SOURCE", size - 1)
    assert rl_compile.optimized_flags(tools, pages) == ("-O2",)
    monkeypatch.setattr(rl_compile, "INLINE_MAX_SOURCE", size)
    # an option this rlc does not know is asked about (the real rlc) and left out
    monkeypatch.setattr(rl_compile, "INLINE_FLAGS", ("--no-such-llvm-option=1",))
    assert not toolchain.accepts_option(tools.rlc, "--no-such-llvm-option=1")
    assert rl_compile.optimized_flags(tools, pages) == ("-O2",)
    assert toolchain.accepts_option(tools.rlc, "--inline-threshold=4000")


def test_a_broken_page_points_at_its_file_and_line(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    _edit(ws, "lines.rl", "return b.cells[a] == mark", "return b.cellz[a] == mark")
    line = _line_of(ws, "lines.rl", "b.cellz[a]")
    result = compile_workspace(ws)
    assert not result.ok and result.build is None and not result.complete
    first = result.diagnostics[0]
    assert (first.file, first.line, first.page) == ("pages/lines.rl", line, "lines")
    assert "cellz" in first.message
    rendered = str(first)
    assert rendered.startswith(f"pages/lines.rl:{line}:")
    assert "b.cellz[a]" in rendered.splitlines()[1] and rendered.splitlines()[2].strip() == "^"
    assert result.report().endswith(f"({ONE_ERROR_NOTE})")
    with pytest.raises(CompileError, match=rf"pages/lines.rl:{line}:\d+: .*cellz") as caught:
        result.require()
    assert isinstance(caught.value, RlCompileError) and caught.value.diagnostics
    assert not any(p.name.startswith(".") for p in ws.build_dir.iterdir())


def test_syntax_errors_and_remarks(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    _edit(ws, "lines.rl", "    let i = 0\n", "    let i : Int = 0\n")
    result = check_syntax(ws)
    assert not result.ok
    assert result.diagnostics[0].file == "pages/lines.rl"
    assert result.diagnostics[0].line == _line_of(ws, "lines.rl", "let i : Int = 0")


MISSING = [
    (
        "score",
        "fun score(Game g, Int player) -> Float:",
        "fun points(Game g, Int player) -> Float:",
    ),
    ("pretty_print", "fun pretty_print(Game g):", "fun show(Game g):"),
]


@pytest.mark.parametrize(("hook", "old", "new"), MISSING, ids=[m[0] for m in MISSING])
def test_a_missing_hook_is_named(
    rl_games: Path, tmp_path: Path, hook: str, old: str, new: str
) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    page = "lines.rl" if hook == "score" else "board.rl"
    _edit(ws, page, old, new)
    result = check_syntax(ws)
    assert not result.ok
    assert any(f"required hook `{hook}` is missing" in d.message for d in result.diagnostics)


def test_a_hook_with_the_wrong_signature(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    _edit(
        ws,
        "play.rl",
        "fun get_num_players() -> Int:\n    return 2",
        "fun get_num_players() -> Float:\n    return 2.0",
    )
    result = compile_workspace(ws)
    assert not result.ok
    (diagnostic,) = result.diagnostics
    assert diagnostic.file == "pages/play.rl"
    assert diagnostic.line == _line_of(ws, "play.rl", "fun get_num_players")
    assert "fun get_num_players() -> Int" in diagnostic.message


PLAY_PROBLEMS = [
    ("@classes\nact play() -> Game:", "act play() -> Game:", "@classes"),
    ("@classes\nact play() -> Game:", "@classes\nact play() -> Match:", "-> Match"),
    ("@classes\nact play() -> Game:", "@classes\nact start() -> Game:", "no page defines"),
]


@pytest.mark.parametrize(("old", "new", "message"), PLAY_PROBLEMS, ids=["classes", "type", "none"])
def test_the_play_function_is_checked(
    rl_games: Path, tmp_path: Path, old: str, new: str, message: str
) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    _edit(ws, "play.rl", old, new)
    result = compile_workspace(ws)
    assert not result.ok and message in result.diagnostics[0].message


def test_two_play_functions(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    (ws.pages_dir / "again.rl").write_text("@classes\nact play() -> Game:\n    act pass()\n")
    result = compile_workspace(ws)
    assert not result.ok and "more than once" in result.diagnostics[0].message


def test_no_pages(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    for page in ws.pages():
        page.unlink()
    result = compile_workspace(ws)
    assert not result.ok and "no rule pages" in result.diagnostics[0].message


def test_a_library_that_does_not_load_is_caught(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "dice", tmp_path)
    _edit(
        ws, "dice.rl", "const TARGET = 20\n", "const TARGET = 20\n\next fun mystery(Int x) -> Int\n"
    )
    _edit(
        ws,
        "dice.rl",
        "fun get_num_players() -> Int:\n    return 2",
        "fun get_num_players() -> Int:\n    return mystery(2)",
    )
    result = compile_workspace(ws)
    assert not result.ok and result.build is None
    (diagnostic,) = result.diagnostics
    assert "mystery" in diagnostic.message and "does not load" in diagnostic.message
    assert diagnostic.location.startswith(f"pages/dice.rl:{_line_of(ws, 'dice.rl', 'ext fun')}:")


def test_parse_diagnostics_attaches_remarks_and_drops_repeats(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.rl").write_text("fun f(Int x) -> Int:\n    return f(true)\n")
    output = (
        "pages/a.rl:2:12: error: Could not find matching function f(Bool)\n"
        "    return f(true)\n           ^\n"
        "pages/a.rl:1:1: remark: Candidate: (Int) -> Int\nfun f(Int x) -> Int:\n^\n"
    )
    (found,) = parse_diagnostics(output * 2, tmp_path)
    assert (found.file, found.line, found.column) == ("pages/a.rl", 2, 12)
    assert [r.message for r in found.remarks] == ["Candidate: (Int) -> Int"]
    assert found.source_line == "    return f(true)"
    assert "remark: Candidate" in str(found)
    outside = parse_diagnostics("/elsewhere/learn.rl:21:23: error: No known type\n", tmp_path)
    assert outside[0].file == "/elsewhere/learn.rl" and outside[0].page is None


ARGUMENTS = [
    ("act roll(BInt<1, 7> face)", "act roll(Int face)", "is Int, which cannot be enumerated"),
    ("act hold()", "act hold(Pair p)", "not a BInt, Bool or enum"),
]


@pytest.mark.parametrize(("old", "new", "message"), ARGUMENTS, ids=["int", "class"])
def test_action_arguments_must_be_enumerable(
    rl_games: Path, tmp_path: Path, old: str, new: str, message: str
) -> None:
    ws = workspace_copy(rl_games, "dice", tmp_path)
    _edit(ws, "dice.rl", old, new)
    if "Int face" in new:
        _edit(ws, "dice.rl", "face.value", "face")
        _edit(ws, "dice.rl", "face.value", "face")
    _edit(ws, "dice.rl", "const TARGET = 20\n", "const TARGET = 20\n\ncls Pair:\n    Bool a\n")
    result = compile_workspace(ws)
    assert not result.ok
    (diagnostic,) = result.diagnostics
    assert message in diagnostic.message
    assert diagnostic.line == _line_of(ws, "dice.rl", new)
