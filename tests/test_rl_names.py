"""Any canonical name works in the rl target: Python keywords, rl keywords, wrapper names.

rlc writes page identifiers into the Python wrapper it generates (``def raise(...)``);
the compile step renames them for rlc and maps every text back, and an rl keyword is
written in a page with a trailing underscore (``act pass_()`` is the action ``pass()``).
"""

from __future__ import annotations

import keyword
from pathlib import Path

import pytest

from rulebook2game.actions import parse_action
from rulebook2game.errors import EngineFault
from rulebook2game.targets.rl.action_text import canonical_to_rl, rl_to_canonical
from rulebook2game.targets.rl.compile import compile_workspace
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rl.names import (
    RL_KEYWORDS,
    UNSAFE,
    mangle_source,
    rl_name,
    unmangle_text,
)
from rulebook2game.targets.rl.pages import undefined_symbol_diagnostic
from rulebook2game.workspace import open_workspace

KEYWORDS = sorted(set(keyword.kwlist) | set(keyword.softkwlist))

HOOKS = """
fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    return 0

fun get_num_players() -> Int:
    return 1

fun bump(Int from, Int lambda) -> Int:
    return from + lambda

fun score(Game g, Int len) -> Float:
    return float(g.lib + len + bump(0, 0))

fun pretty_print(Game g):
    return
"""


def _keyword_game(root: Path) -> None:
    """One game whose actions are named after every Python keyword, each taking an
    argument of the same name; function parameters are Python keywords and wrapper
    names, and so is a state field."""
    alternatives = "\n".join(
        f"            act {rl_name(k)}(BInt<0, 2> {rl_name(k)})\n"
        f"                lib = lib + 1 + {rl_name(k)}.value"
        for k in KEYWORDS
    )
    page = (
        "# page: main\n# implements: 1\n# Every Python keyword is an action.\n"
        "import bounded_arg\n\n@classes\nact play() -> Game:\n    frm lib = 0\n"
        f"    while lib < 3:\n        actions:\n{alternatives}\n{HOOKS}"
    )
    (root / "pages").mkdir(parents=True)
    (root / "pages" / "main.rl").write_text(page)
    (root / "game.toml").write_text('name = "keywords"\nplayers = 1\n')
    actions = "".join(
        f'[[actions]]\nname = "{k}"\nargs = [{{ name = "{k}", min = 0, max = 1 }}]\n\n'
        for k in KEYWORDS
    )
    (root / "interface.toml").write_text(actions)


def test_every_python_keyword_is_an_action_and_an_argument(tmp_path: Path) -> None:
    root = tmp_path / "keywords"
    _keyword_game(root)
    result = compile_workspace(open_workspace(root))
    assert result.ok, result.report()
    with RlEngine(result.require(), game="keywords") as engine:
        expected = {f"{k}({k}={v})" for k in KEYWORDS for v in (0, 1)}
        assert set(engine.action_texts) == expected
        for name in KEYWORDS:
            state = engine.initial()
            assert f"{name}({name}=1)" in engine.legal_actions(state)
            state = engine.apply(state, f"{name}({name}=1)")
            text = engine.serialize(state)
            assert "lib: 2" in text and "r2g" not in text
            again = engine.deserialize(text)
            assert engine.serialize(again) == text
            state = engine.apply(again, f"{name}({name}=0)")
            assert engine.is_terminal(state) and engine.returns(state) == [3.0]


def test_an_error_message_shows_names_as_written(tmp_path: Path) -> None:
    root = tmp_path / "keywords"
    _keyword_game(root)
    page = root / "pages" / "main.rl"
    page.write_text(page.read_text().replace("lib = lib + 1 + raise.value", "lib = raise"))
    result = compile_workspace(open_workspace(root))
    assert not result.ok
    (diagnostic,) = result.diagnostics
    line = page.read_text().splitlines().index("                lib = raise") + 1
    column = "                lib = raise".index("=") + 1
    assert diagnostic.location == f"pages/main.rl:{line}:{column}"
    assert "r2g" not in str(diagnostic)


def test_names_map_both_ways() -> None:
    for name in KEYWORDS:
        text = canonical_to_rl(f"{name}({name}=3)")
        assert rl_to_canonical(text) == f"{name}({name}=3)"
    assert canonical_to_rl("pass(in=1)") == "pass_ {in_: 1}"
    assert canonical_to_rl("raise(from=1)") == "r2g_kw_raise {r2g_kw_from: 1}"
    assert parse_action(rl_to_canonical("mark {row: 0, col: 2}")).args == (("row", 0), ("col", 2))
    assert rl_to_canonical("pick {suit: true}") == "pick(suit=true)"
    assert {"pass", "return", "import", "in", "type"} <= RL_KEYWORDS
    assert {"raise", "from", "lambda", "None", "lib", "len", "_"} <= UNSAFE


def test_mangling_leaves_strings_and_comments_alone() -> None:
    line = 'let from = "from raise" + lib  # raise'
    source = mangle_source(line)
    assert source.text == 'let r2g_kw_from = "from raise" + r2g_kw_lib  # raise'
    assert source.original_column(1, source.text.index("r2g_kw_lib") + 1) == line.index("lib") + 1
    assert unmangle_text(source.text) == line
    assert mangle_source("x = 0x9e37 + lib2").text == "x = 0x9e37 + lib2"


def test_a_wrapper_that_does_not_load_is_traced_to_its_page(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    page = tmp_path / "pages" / "a.rl"
    page.write_text("@classes\nact play() -> Game:\n    act strange(BInt<0, 2> x)\n")
    error = (
        'Traceback (most recent call last):\n  File "/b/.tmp-1/wrapper.py", line 512\n'
        "    def strange(self, x: 'BIntT0T2T'):\n                      ^^^^\n"
        "SyntaxError: invalid syntax\n"
    )
    found = undefined_symbol_diagnostic(tmp_path, [page], error)
    assert found.location == "pages/a.rl:3:5"
    assert found.message == (
        "the compiled library does not load: SyntaxError: invalid syntax at wrapper.py "
        "line 512 (`def strange(self, x: 'BIntT0T2T'):`)"
    )


def test_an_engine_abort_points_at_the_page_column(tmp_path: Path) -> None:
    root = tmp_path / "abort"
    (root / "pages").mkdir(parents=True)
    (root / "game.toml").write_text('name = "abort"\nplayers = 1\n')
    body = (
        "import bounded_arg\n\n@classes\nact play() -> Game:\n    frm lib = 0\n"
        "    frm arr : Int[2]\n    act raise(BInt<0, 3> from)\n    lib = arr[from.value]\n"
    )
    (root / "pages" / "main.rl").write_text(body + HOOKS)
    build = compile_workspace(open_workspace(root)).require()
    with RlEngine(build, game="abort") as engine, pytest.raises(EngineFault) as caught:
        engine.apply(engine.initial(), "raise(from=2)")
    column = "    lib = arr[from.value]".index("[") + 1
    assert f"pages/main.rl:8:{column} error: Out of bounds" in caught.value.message
    assert "r2g" not in caught.value.message
