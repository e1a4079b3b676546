"""Compile-time checks beyond rlc: the interface contract, shadowed names, kept builds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulebook2game.agent.backends import RlCompiler
from rulebook2game.targets.rl.compile import KEEP_BUILDS, compile_workspace
from rulebook2game.workspace import Workspace
from tests.rl_support import rl_games, workspace_copy

__all__ = ["rl_games"]

DICE_INTERFACE = """\
[[actions]]
name = "roll"
args = [{ name = "face", min = 1, max = 6 }]

[[actions]]
name = "hold"

[[actions]]
name = "again"

[chance]
actions = ["roll"]
"""


def _edit(ws: Workspace, old: str, new: str) -> int:
    """Replace ``old`` in the dice page; the line number of the change."""
    page = ws.pages_dir / "dice.rl"
    text = page.read_text()
    assert old in text
    page.write_text(text.replace(old, new, 1))
    return text[: text.index(old)].count("\n") + 1


@pytest.fixture
def dice(rl_games: Path, tmp_path: Path) -> Workspace:
    ws = workspace_copy(rl_games, "dice", tmp_path)
    (ws.root / "interface.toml").write_text(DICE_INTERFACE)
    return ws


def test_the_pages_match_the_interface(dice: Workspace) -> None:
    result = compile_workspace(dice)
    assert result.ok, result.report()
    build = result.require().directory
    header = (build / "wrapper.py").read_text().split("\nimport ", 1)[0]
    assert "learn.rl" in header and "without `import bounded_arg`" in header
    assert (build / "src" / "pages" / "dice.rl").is_file()


def test_a_renamed_argument_is_a_compile_error(dice: Workspace) -> None:
    line = _edit(dice, "act roll(BInt<1, 7> face)", "act roll(BInt<1, 7> pips)")
    _edit(dice, "if face.value == 1:", "if pips.value == 1:")
    _edit(dice, "turn_total + face.value", "turn_total + pips.value")
    result = compile_workspace(dice)
    assert not result.ok and result.complete
    (error,) = result.diagnostics
    assert error.location == f"pages/dice.rl:{line}:9"
    assert error.message == (
        "action `roll` takes (pips) here but (face) in interface.toml: "
        "write `act roll(BInt<1, 7> face)`"
    )
    assert "act roll(BInt<1, 7> pips)" in str(error)


def test_a_widened_range_is_a_compile_error(dice: Workspace) -> None:
    line = _edit(dice, "act roll(BInt<1, 7> face)", "act roll(BInt<1, 8> face)")
    result = compile_workspace(dice)
    (error,) = result.diagnostics
    assert error.location == f"pages/dice.rl:{line}:9"
    assert error.message == (
        "argument `face` of `roll` takes 1..7 here but 1..6 in interface.toml: "
        "write `act roll(BInt<1, 7> face)`"
    )


def test_an_undeclared_and_a_missing_action(dice: Workspace) -> None:
    (dice.root / "interface.toml").write_text(DICE_INTERFACE.replace('"again"', '"reroll"'))
    result = compile_workspace(dice)
    messages = sorted(d.message for d in result.diagnostics)
    assert messages == [
        "action `again` is not in interface.toml (it declares: roll, hold, reroll); "
        "the action names are fixed there",
        "interface.toml declares action `reroll` but no page does: write `act reroll()`",
    ]
    assert {d.file for d in result.diagnostics} == {"pages/dice.rl", "interface.toml"}


def test_an_action_argument_that_shadows_a_state_field(dice: Workspace) -> None:
    # The dice game that stayed green: the roll was stored in an argument named like
    # the state field, so the field never changed.
    field = _edit(dice, "    frm rolling = true\n", "    frm rolling = true\n    frm die1 = 0\n")
    line = _edit(dice, "act roll(BInt<1, 7> face)", "act roll(BInt<1, 7> die1)")
    _edit(dice, "if face.value == 1:", "if die1.value == 1:")
    _edit(dice, "turn_total + face.value", "turn_total + die1.value")
    result = compile_workspace(dice)
    (error,) = result.diagnostics
    column = "        act roll(BInt<1, 7> die1)".index("die1") + 1
    assert error.location == f"pages/dice.rl:{line}:{column}"
    assert error.message == (
        f"action argument `die1` shadows the state field `die1` "
        f"(pages/dice.rl:{field + 1}: `frm die1 = 0`); rename one of them"
    )


def test_a_local_that_shadows_a_parameter_in_a_nested_block(dice: Workspace) -> None:
    _edit(
        dice,
        "    if g.scores[player] >= TARGET:",
        "    if g.scores[player] >= TARGET:\n        let player = 1",
    )
    result = compile_workspace(dice)
    (error,) = result.diagnostics
    assert "local `player` shadows the parameter `player`" in error.message
    assert "fun score(Game g, Int player) -> Float:" in error.message


def test_siblings_and_separate_functions_do_not_shadow(dice: Workspace) -> None:
    page = dice.pages_dir / "dice.rl"
    page.write_text(
        page.read_text()
        + "\nfun a(Int n) -> Int:\n    if n > 0:\n        let k = 1\n        return k\n"
        "    else:\n        let k = 2\n        return k\n\nfun b(Int n) -> Int:\n"
        "    let k = n\n    return k\n"
    )
    assert compile_workspace(dice).ok


def test_comment_lines_anywhere_compile(dice: Workspace) -> None:
    _edit(dice, "            actions:\n", "            actions:\n                # a choice\n")
    _edit(dice, "        else:\n", "        # otherwise\n        else:\n")
    result = compile_workspace(dice)
    assert result.ok, result.report()


def test_a_failed_build_is_kept_for_inspection(dice: Workspace) -> None:
    _edit(dice, "turn_total = 0\n", "turn_total = zero\n")
    result = compile_workspace(dice)
    assert not result.ok and not result.complete
    kept = dice.build_dir / "rl-checked-failed"
    assert (kept / "failure.txt").read_text().startswith("pages/dice.rl:")
    assert "turn_total = zero" in (kept / "src" / "pages" / "dice.rl").read_text()
    _edit(dice, "turn_total = zero\n", "turn_total = 0\n")
    assert compile_workspace(dice).ok and not kept.exists()


def test_only_the_newest_builds_are_kept(dice: Workspace) -> None:
    dice.build_dir.mkdir()
    for age in range(5):
        old = dice.build_dir / f"rl-checked-{age:016x}"
        old.mkdir()
        (old / "build.json").write_text("{}")
        os.utime(old, (1000 + age, 1000 + age))
    optimized = dice.build_dir / "rl-optimized-0000000000000000"
    optimized.mkdir()
    stale = dice.build_dir / ".tmp-left-behind"
    stale.mkdir()
    os.utime(stale, (1000, 1000))
    result = compile_workspace(dice)
    assert result.build is not None
    kept = sorted(p.name for p in dice.build_dir.iterdir())
    assert len([k for k in kept if k.startswith("rl-checked-")]) == KEEP_BUILDS == 3
    assert result.build.directory.name in kept
    assert "rl-checked-0000000000000004" in kept and "rl-checked-0000000000000003" in kept
    assert optimized.name in kept and stale.name not in kept


def test_the_agent_sees_as_many_errors_as_it_is_told(dice: Workspace) -> None:
    _edit(dice, "turn_total = 0\n", "turn_total = zero\n")
    report = RlCompiler().compile(dice)
    assert not report.ok and len(report.diagnostics) == 1
    assert report.diagnostics[0].startswith("pages/dice.rl:")
    assert report.note.startswith("rlc stops at its first error")


def test_actions_in_sequence_may_reuse_an_argument_name(dice: Workspace) -> None:
    _edit(
        dice,
        "        rolling = false\n",
        "        rolling = false\n        act peek(BInt<1, 7> face)\n",
    )
    (dice.root / "interface.toml").unlink()
    result = compile_workspace(dice)
    assert result.ok, result.report()


def test_a_malformed_interface_is_a_compile_error(dice: Workspace) -> None:
    (dice.root / "interface.toml").write_text("[[actions]]\nname = \n")
    (error,) = compile_workspace(dice).diagnostics
    assert error.file == "interface.toml" and "not valid TOML" in error.message


def test_a_changed_interface_is_checked_again(dice: Workspace) -> None:
    assert compile_workspace(dice).ok
    (dice.root / "interface.toml").write_text(DICE_INTERFACE.replace("max = 6", "max = 5"))
    result = compile_workspace(dice)
    assert not result.ok and not result.cached
    assert "takes 1..6 here but 1..5 in interface.toml" in result.diagnostics[0].message
