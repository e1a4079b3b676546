"""A page that lists the legal moves (``r2g_moves``) is held to the action table.

The native loop and every legal-action query use the list instead of testing the
table, so the fuzzer compares the list with the set found by testing every entry on
sampled states; a difference is an invariant finding (``moves_listed``) that names
the listing page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook2game.check.run import compile_stage, fuzz_stage, run_check
from rulebook2game.workspace import open_workspace
from tests.rl_support import game_copy, in_process_matches_table

GAME = Path(__file__).parent / "data" / "games" / "breakthrough_squares"
OPTIONS = {"fuzz": 60, "request_timeout": 5.0, "batch_timeout": 10.0}


def _game(tmp_path: Path, old: str = "", new: str = "") -> Path:
    return game_copy(GAME, tmp_path, old, new)


def _listing_findings(game: Path) -> list[tuple[str, list[str]]]:
    report = run_check(open_workspace(game), (compile_stage, fuzz_stage), options=OPTIONS)
    return [
        (f.message, [p.page for p in f.pages])
        for f in report.findings
        if "moves_listed" in f.message
    ]


def test_a_correct_list_passes(tmp_path: Path) -> None:
    assert _listing_findings(_game(tmp_path)) == []


def test_a_list_without_left_moves_is_a_finding_naming_the_page(tmp_path: Path) -> None:
    # the diagonal moves towards file a are left out; games still end
    broken = _game(tmp_path, "let to_file = from_file - 1", "let to_file = from_file")
    found = _listing_findings(broken)
    assert len(found) == 1, found
    message, pages = found[0]
    assert "leaves out move" in message and "which the preconditions allow" in message
    assert "moves" in pages
    # the finding is about the moves left out, not the move played before it: the page
    # of their precondition (turn) comes before the listing page, its rules quoted too
    report = run_check(open_workspace(broken), (compile_stage, fuzz_stage), options=OPTIONS)
    (finding,) = [f for f in report.findings if "moves_listed" in f.message]
    assert finding.actions and all(a.startswith("move(") and a in message for a in finding.actions)
    named = [p.page for p in finding.pages]
    assert "turn" in named and named.index("turn") < named.index("moves")


def test_a_list_that_strands_the_game_is_named_as_a_list_problem(tmp_path: Path) -> None:
    # only straight moves are listed: games stop when pieces block each other
    broken = _game(tmp_path, "if to_file >= 0 and to_file < FILES:", "if to_file == from_file:")
    found = _listing_findings(broken)
    assert len(found) == 1, found
    assert "moves" in found[0][1]


@pytest.mark.slow
def test_in_process_steps_and_batches_take_the_list(tmp_path: Path) -> None:
    # in-process steps and batches use the game's own list (not 4096 tests per step),
    # and it must be the table's legal set
    in_process_matches_table(_game(tmp_path), 20261128)
