"""The playout loop's typed step: written at compile time for a game with a point of
several action types (``targets/rl/typed_step.py``).

Its draws are the generic loop's, one for one; ``test_native_lockstep.py`` replays them
on the checked build for every corpus game and for ``claim_or_skip``, a game whose one
point offers a two-argument action beside another. Here: which games get it, how it
reads the action table from the wrapper, and what it leaves to the generic loop.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.rl.compile import compile_workspace
from rulebook2game.targets.rl.typed_step import TYPED_STEP_FILE, action_types, typed_step_source
from rulebook2game.workspace import Workspace

GAMES = Path(__file__).parent / "data" / "games"

# The shape rlc gives the action classes and their union in the Python wrapper.
WRAPPER = """
class GameClaim(ctypes.Structure):
    _fields_ = [("row", BIntT1T4T), ("col", BIntT0T5T), ]

class GameAgain(ctypes.Structure):
    _fields_ = [("side", BIntT1T4T), ]

class GameSkip(ctypes.Structure):
    _fields_ = []

class _AnyGameAction(ctypes.Union):
    _fields_ = [("_alternative0", GameClaim), ("_alternative1", GameAgain), \
("_alternative2", GameSkip), ]
"""
POINTS = {"claim": 1, "again": 2, "skip": 1}


def test_the_table_is_read_in_union_order_with_each_argument_s_bounds() -> None:
    types = action_types(WRAPPER, list(POINTS))
    assert types is not None
    assert [(t.name, t.bounds, t.size) for t in types] == [
        ("claim", ((1, 4), (0, 5)), 15),
        ("again", ((1, 4),), 3),
        ("skip", (), 1),
    ]


def test_a_drawn_k_becomes_the_entry_s_arguments_and_table_index() -> None:
    source = typed_step_source(WRAPPER, POINTS, 64)
    assert source is not None
    point = source[source.index("    if point == 1:") : source.index("    if point == 2:")]
    # 16 entries at point 1 (claim's 15, then skip), 16 / 4 + 8 tries
    assert "let tries = 12" in point and "rng.below(16)" in point
    # the first argument outermost: k = (row - 1) * 5 + col
    assert "a0.value = 1 + k / 5" in point and "a1.value = 0 + (k) % 5" in point
    # skip is drawn as k = 15 and is table entry 18, after claim's 15 and again's 3
    assert "return 3 + k" in point
    assert "if table != 19:" in source


def test_a_game_whose_points_are_each_of_one_type_gets_none() -> None:
    # the loop draws there with the type's own can and apply inlined already
    assert typed_step_source(WRAPPER, {"claim": 1, "again": 2, "skip": 3}, 64) is None
    assert typed_step_source(WRAPPER, None, 64) is None


def test_what_cannot_be_built_is_left_to_the_generic_loop() -> None:
    # an argument that is not a BInt (again's, at point 2): that point only
    other = WRAPPER.replace('("side", BIntT1T4T)', '("side", ctypes.c_bool)')
    source = typed_step_source(other, POINTS, 64)
    assert source is not None and "point == 1" in source and "point == 2" not in source
    # a class whose fields do not read as expected: no step at all
    broken = WRAPPER.replace('("side", BIntT1T4T)', '("side", Weird(3))')
    assert typed_step_source(broken, POINTS, 64) is None
    # a point past the runtime's map (it then uses none), an action without a class
    assert typed_step_source(WRAPPER, {"claim": 70, "again": 2, "skip": 70}, 64) is None
    assert typed_step_source(WRAPPER, {"claim": 1, "again": 2, "hop": 1}, 64) is None
    assert typed_step_source("no union here", POINTS, 64) is None


@pytest.mark.parametrize(
    ("game", "typed"),
    [
        (GAMES / "claim_or_skip", True),
        (CORPORA_DIR / "pig", True),
        (CORPORA_DIR / "tic_tac_toe", False),
    ],
)
def test_the_build_holds_a_typed_step_where_a_point_has_several_types(
    tmp_path: Path, game: Path, typed: bool
) -> None:
    root = Path(shutil.copytree(game, tmp_path / game.name, ignore=shutil.ignore_patterns("build")))
    build = compile_workspace(Workspace(root), optimized=True).build
    assert build is not None
    assert (build.directory / "src" / TYPED_STEP_FILE).is_file() == typed


def test_a_step_rlc_refuses_is_dropped_and_the_game_still_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no fault of the pages: the library is built without it, the generic loop draws
    import rulebook2game.targets.rl.compile as compile_module

    broken = "fun r2g_typed_step(Game g, R2GRandom rng, Bool applied, Int table) -> Int:\n"
    broken += "    return no_such_name\n"
    monkeypatch.setattr(compile_module, "typed_step_source", lambda *_: broken)
    root = Path(shutil.copytree(GAMES / "claim_or_skip", tmp_path / "game"))
    result = compile_workspace(Workspace(root), optimized=True)
    assert result.build is not None, result.summary()
    assert not (result.build.directory / "src" / TYPED_STEP_FILE).exists()
