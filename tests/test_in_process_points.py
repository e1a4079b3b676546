"""In-process steps test only the entries of the point a game is suspended at.

``load``'s steps (``r2g_step_io`` through the C extension or ctypes, ``r2g_step``,
``r2g_step_many``) and ``r2g_legal`` test the action-table entries of the game's
resumption point only (``r2g_candidates`` from the build's ``resume_points.json``).
They must give exactly the legal list that testing every entry gives
(``r2g_table_legal``): every corpus game is walked at random, and the two are compared
at every step, single states and a batch alike.
"""

from __future__ import annotations

import ctypes
import random
import tomllib
from pathlib import Path

import pytest

import rulebook2game
from rulebook2game.game import NO_ACTION
from rulebook2game.game._native import NativeGame
from rulebook2game.resources import CORPORA_DIR

STEPS = 300
"""Random steps per game (games that end sooner start again)."""


def _games() -> list[Path]:
    found = []
    for corpus in (CORPORA_DIR, CORPORA_DIR / "rulepage"):
        for toml in sorted(corpus.glob("*/game.toml")):
            target = tomllib.loads(toml.read_text(encoding="utf-8")).get("target")
            if target in ("rl", "rulepage"):
                found.append(toml.parent)
    return found


def _ints(vector: object) -> list[int]:
    size = int(vector._size)  # type: ignore[attr-defined]
    return list(vector._data[:size]) if size else []  # type: ignore[attr-defined]


def _table_legal(native: NativeGame, game: object) -> list[int]:
    return _ints(native.call("r2g_table_legal", game, native.all))


def test_the_corpus_spans_both_targets_and_the_map_is_on_for_hearts() -> None:
    names = {(p.parent.name, p.name) for p in _games()}
    assert ("corpora", "hearts") in names and ("rulepage", "hearts") in names
    for root in (CORPORA_DIR / "hearts", CORPORA_DIR / "rulepage" / "hearts"):
        native = rulebook2game.load(root, trust=True)._native
        assert native.points, f"{root}: no resume-point map, so nothing is narrowed"
        assert int(native.candidates.groups) > 1


@pytest.mark.slow
@pytest.mark.parametrize("root", _games(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_in_process_legal_lists_equal_the_whole_table_scan(root: Path) -> None:
    game = rulebook2game.load(root, trust=True)
    native = game._native
    rng = random.Random(root.name)
    state = game.new_initial_state()
    result, index = ctypes.c_longlong(), ctypes.c_longlong(-1)
    out = native.call("r2g_int_buffer", native.size + 1)
    for _ in range(STEPS):
        if state.is_terminal():
            state = game.new_initial_state()
        legal = state.legal_actions()
        assert legal == _table_legal(native, state._g)
        assert _ints(native.call("r2g_legal", state._g, native.all, native.candidates)) == legal
        copy = native.copy(ctypes.byref(state._g))
        refs = (ctypes.byref(x) for x in (result, copy, index, out))
        native.step(*refs)
        assert list(out._data[1 : result.value + 1]) == legal
        state.apply_action(rng.choice(legal))

    batch = game.batch(4)
    for _ in range(STEPS // 4):
        actions = []
        for k in range(batch.size):
            g = native.call("r2g_game_at", batch._games, k)
            if batch.is_terminal(k):
                batch.reset(k)
                actions.append(NO_ACTION)
                continue
            assert batch.legal_actions(k) == _table_legal(native, g)
            actions.append(batch.random_action(k, rng))
        batch.step(actions)
