"""Every rl example of targets/rl/reference.md compiles, and the worked game plays."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from rulebook2game.resources import TARGETS_DIR
from rulebook2game.targets.rl.compile import compile_workspace
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rl.toolchain import find_toolchain
from rulebook2game.workspace import open_workspace

REFERENCE = TARGETS_DIR / "rl" / "reference.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(language: str) -> list[str]:
    text = REFERENCE.read_text(encoding="utf-8")
    return [body for lang, body in BLOCK.findall(text) if lang == language]


STANDALONE = [b for b in _blocks("rl") if not b.startswith("# page:")]
PAGES = [b for b in _blocks("rl") if b.startswith("# page:")]


def _rlc(source: str, folder: Path) -> subprocess.CompletedProcess[str]:
    path = folder / "example.rl"
    path.write_text(source, encoding="utf-8")
    tools = find_toolchain()
    return subprocess.run(
        [str(tools.rlc), str(path), "--python", "-o", str(folder / "example.py")],
        capture_output=True,
        text=True,
        cwd=folder,
    )


def test_the_reference_has_examples() -> None:
    assert len(STANDALONE) >= 3 and len(PAGES) >= 3 and len(RIGHT) == len(WRONG)
    assert any("v.clear()" in b and "abs(" in b and "factorial(n - 1)" in b for b in STANDALONE)


@pytest.mark.parametrize("source", STANDALONE, ids=lambda s: s.splitlines()[0][:40])
def test_standalone_examples_compile(source: str, tmp_path: Path) -> None:
    result = _rlc(source, tmp_path)
    assert result.returncode == 0, result.stderr


WRONG = [
    "let y : Int = 0",
    "if not done:\n        return 0",
    "if done:\n        return 0\n    elif x == 2:\n        return 1",
    "x += 1",
    "done = True",
    'let t = "a" + "b"',
    'let s = 3\n    let u = "x"s',
    "let z : Float\n    z = x",
]


RIGHT = [
    "let y = 0",
    "if !done:\n        return 0",
    "if done:\n        return 0\n    else if x == 2:\n        return 1",
    "x = x + 1",
    "done = true",
    'let t = "a"s + "b"s',
    'let n = 3\n    let u = "x"s',
    "let z : Float\n    z = float(x)",
]
"""The fix of each entry of WRONG, in the same order."""


def _mistake_template(line: str) -> str:
    return f"import string\n\nfun f(Bool done) -> Int:\n    let x = 0\n    {line}\n    return x\n"


@pytest.mark.parametrize("line", WRONG)
def test_the_listed_mistakes_do_not_compile(line: str, tmp_path: Path) -> None:
    assert _rlc(_mistake_template(line), tmp_path).returncode != 0


@pytest.mark.parametrize("line", RIGHT)
def test_the_template_compiles_with_the_fix(line: str, tmp_path: Path) -> None:
    # The control case: each mistake above fails because of its line, not the template.
    result = _rlc(_mistake_template(line), tmp_path)
    assert result.returncode == 0, result.stderr


TESTED = [b for b in STANDALONE if "\nfun test_" in b]


@pytest.mark.parametrize("source", TESTED, ids=lambda s: s.splitlines()[0][:40])
def test_the_examples_behave_as_their_comments_say(source: str, tmp_path: Path) -> None:
    (tmp_path / "example.rl").write_text(source, encoding="utf-8")
    rlc_test = find_toolchain().rlc.parent / "rlc-test"
    result = subprocess.run(
        [str(rlc_test), "example.rl", "-i", "."],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK:" in result.stdout + result.stderr
    assert "FAIL" not in result.stdout + result.stderr


def test_the_worked_game_compiles_and_plays(tmp_path: Path) -> None:
    root = tmp_path / "high_card_dice"
    (root / "pages").mkdir(parents=True)
    (root / "game.toml").write_text('name = "high_card_dice"\nplayers = 2\n')
    for page in PAGES:
        header = dict(re.findall(r"^# (\w+): (.*)$", page, re.MULTILINE))
        assert header.get("implements"), "every page cites its sections"
        (root / "pages" / f"{header['page']}.rl").write_text(page)
    result = compile_workspace(open_workspace(root))
    assert result.ok, result.report()
    with RlEngine(result.require(), game="high_card_dice") as engine:
        start = engine.initial()
        outcomes = engine.chance_outcomes(start)
        assert len(outcomes) == 12 and outcomes[0] == ("deal_card(card=0)", pytest.approx(1 / 12))
        for text in ("deal_card(card=7)", "play_card(card=2)", "gamble()", "roll(face=5)"):
            assert text in engine.action_texts
        games = engine.playouts(seed=3, count=300, max_steps=40)
        assert Counter(g.status for g in games) == {"terminal": 300}
        assert all(sum(g.returns) == 0 for g in games)
        assert {g.length for g in games} <= {12, 14, 16}


def test_multiplication_division_and_remainder_group_from_the_right(tmp_path: Path) -> None:
    # reference.md warns that `a % b * c` is `a % (b * c)`: a translator's candidate list
    # went wrong on it. Built as a program whose exit code reports each grouping.
    source = """fun main() -> Int:
    let a = 13
    let r = 0
    if a % 8 * 512 == 13:
        r = r + 1
    if a / 2 * 3 == 2:
        r = r + 2
    if 2 * a % 5 == 6:
        r = r + 4
    if a - 2 - 3 == 8:
        r = r + 8
    return r
"""
    path = tmp_path / "grouping.rl"
    path.write_text(source, encoding="utf-8")
    program = tmp_path / "grouping"
    tools = find_toolchain()
    built = subprocess.run(
        [str(tools.rlc), str(path), "-o", str(program)], capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    assert subprocess.run([str(program)]).returncode == 1 + 2 + 4 + 8
