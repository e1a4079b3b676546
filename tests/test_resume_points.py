"""Reading the resumption point of every action statement from rlc's expanded program."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rulebook2game.targets.rl.playout_rng import PlayoutRng
from rulebook2game.targets.rl.resume_points import DUMP_FLAGS, parse_resume_points
from rulebook2game.targets.rl.toolchain import find_toolchain

PIG = """
import action
import bounded_arg

@classes
act play() -> Game:
    frm total = 0
    while total < 20:
        actions:
            act roll()
                act die(BInt<1, 7> value)
                total = total + value.value
            act hold()
                total = total + 1
"""

SUBACTION = """
import action
import bounded_arg

act inner(frm Int base) -> Inner:
    act pick(BInt<0, 3> x)

@classes
act play() -> Game:
    frm n = 0
    while n < 3:
        subaction* frame = inner(n)
        act done()
        n = n + 1
"""

TWO_POINTS = """
import action
import bounded_arg

@classes
act play() -> Game:
    act mark(BInt<0, 3> x)
    act other()
    act mark(BInt<0, 3> y)
"""

MIXED = """
import action
import bounded_arg

fun r2g_mixed_point() -> Bool:
    return true

@classes
act play() -> Game:
    frm n = 0
    while n < 4:
        if n == 3:
            actions:
                act mark(BInt<0, 3> x)
                    n = n + 1
                act other()
                    n = n + 1
        else if n % 2 == 0:
            actions:
                act mark(BInt<0, 3> x)
                    n = n + 1
        else:
            actions:
                act other()
                    n = n + 1
"""
"""A point of every action (first), then one point per action: the RulePage shape."""


def _dump(tmp_path: Path, source: str) -> str:
    page = tmp_path / "game.rl"
    page.write_text(source, encoding="utf-8")
    tools = find_toolchain()
    cmd = [str(tools.rlc), str(page), *DUMP_FLAGS, "-i", str(tools.stdlib)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_actions_block_shares_one_point_and_a_nested_action_has_its_own(
    tmp_path: Path,
) -> None:
    assert parse_resume_points(_dump(tmp_path, PIG)) == {"roll": 1, "hold": 1, "die": 2}


def test_a_subaction_turns_the_map_off(tmp_path: Path) -> None:
    assert parse_resume_points(_dump(tmp_path, SUBACTION)) is None


def test_one_name_at_two_points_turns_the_map_off(tmp_path: Path) -> None:
    assert parse_resume_points(_dump(tmp_path, TWO_POINTS)) is None


def test_text_without_action_statements_has_no_map() -> None:
    assert parse_resume_points("") is None
    unreadable = 'rlc.action "mark" #fun_info2 {\n}\n'
    assert parse_resume_points(unreadable) is None


def test_a_declared_mixed_point_is_left_out_and_each_name_keeps_its_own(tmp_path: Path) -> None:
    # the block of every action is point 1; `mark` and `other` have 2 and 3 of their own
    assert parse_resume_points(_dump(tmp_path, MIXED)) == {"mark": 2, "other": 3}
    undeclared = MIXED.replace("fun r2g_mixed_point() -> Bool:\n    return true\n", "")
    assert parse_resume_points(_dump(tmp_path, undeclared)) is None


def test_the_replay_reads_legal_actions_at_two_points_as_the_mixed_point() -> None:
    points = [1, 1, 2, 2, 2, 2]
    for seed in range(20):
        mapped, whole = PlayoutRng(seed), PlayoutRng(seed)
        # at two points: drawn from the whole table, exactly as with no map at all
        assert mapped.pick(6, [1, 4], points) == whole.pick(6, [1, 4], ())
        assert mapped.state == whole.state
    # at one point: drawn among that point's four entries only
    # (the same one legal entry, found after other numbers of draws for some seeds)
    differ = 0
    for seed in range(20):
        narrowed, whole = PlayoutRng(seed), PlayoutRng(seed)
        assert narrowed.pick(6, [4], points) == whole.pick(6, [4], ()) == 4
        differ += narrowed.state != whole.state
    assert differ > 0
