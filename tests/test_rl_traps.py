"""rl that rlc accepts but miscompiles is refused at the page line, with the fix."""

from __future__ import annotations

from pathlib import Path

from rl_support import game_copy

from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets import get_target
from rulebook2game.targets.rl.traps import unary_minus_names
from rulebook2game.workspace import open_workspace

FLIP = """

fun flipped(Int step) -> Int:
    let s = step
    return -s
"""


def _compile_errors(game: Path) -> list[str]:
    ws = open_workspace(game)
    result = get_target(ws.config().target).compile(ws)
    return [f"{d.file}:{d.line}:{d.column}: {d.message}" for d in result.diagnostics]


def test_unary_minus_positions() -> None:
    assert unary_minus_names("let t = -s") == [(8, "s")]
    assert unary_minus_names("x = 3 * -s + f(-k)") == [(8, "s"), (15, "k")]
    # binary minus, the arrow of a return type, calls, fields and constants are not it
    assert unary_minus_names("x = a - b") == unary_minus_names("fun f() -> Int:") == []
    assert unary_minus_names("x = -f(1) + -b.x + -SIZE + -(s) + -1") == []


def test_minus_before_a_let_variable_is_refused_at_its_page_line(tmp_path: Path) -> None:
    # with rl_language_core 0.4.18, `let s = step` then `-s` is 0: the game would run
    # with a wrong number where the rules need a negative one
    game = game_copy(CORPORA_DIR / "tic_tac_toe", tmp_path)
    page = game / "pages" / "win.rl"
    page.write_text(page.read_text() + FLIP)
    line = len(page.read_text().splitlines())
    (error,) = _compile_errors(game)
    assert error.startswith(f"pages/win.rl:{line}:12: write `0 - s`, not `-s`"), error
    page.write_text(page.read_text().replace("return -s", "return 0 - s"))
    assert _compile_errors(game) == []


def test_a_minus_before_a_parameter_compiles(tmp_path: Path) -> None:
    # rlc negates parameters right (Connect Four's `-drow, -dcol`): not refused
    game = game_copy(CORPORA_DIR / "tic_tac_toe", tmp_path)
    page = game / "pages" / "win.rl"
    page.write_text(page.read_text() + FLIP.replace("let s = step\n    return -s", "return -step"))
    assert _compile_errors(game) == []


def test_a_rulepage_code_block_is_refused_at_the_page_line(tmp_path: Path) -> None:
    game = game_copy(CORPORA_DIR / "rulepage" / "pig", tmp_path)
    page = game / "pages" / "setup.page"
    text = page.read_text()
    old = "    fun next_player(Int player) -> Int:\n        return (player + 1) % PLAYERS\n"
    assert old in text
    new = old + "\n    fun back(Int player) -> Int:\n        let p = player\n        return -p\n"
    page.write_text(text.replace(old, new))
    line = text[: text.index(old)].count("\n") + 6
    errors = _compile_errors(game)
    assert any(e.startswith(f"pages/setup.page:{line}:") and "write `0 - p`" in e for e in errors)
