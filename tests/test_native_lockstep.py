"""The optimized native loop plays move for move what the checked build allows.

The native playout loop tests only the actions that can follow the point where a game
is suspended (``resume_points.py``). Two independent checks that this never changes a
game, on every corpus game of both targets:

- the optimized (``-O2``) build and the checked build play the same seeded games,
  action for action, with the same returns;
- each of those games is replayed step by step on the checked build, with every legal
  action taken from the *whole* action table, and the loop's choices reproduced in
  Python (``PlayoutRng``): the replay takes the same actions. A resume-point map that
  left out a legal action would change the draws (the replay reads legal actions at
  two points as a mixed point, where the whole table is drawn from). A game that
  lists its moves (the rbg target's, and ``breakthrough_squares``) draws once among
  the listed moves; its list is compared with the legal set found by testing the
  whole table at every step. A game that lists candidate moves
  (``breakthrough_candidates``) draws among its candidates, which the replay reads
  from the checked build at every step; the legal candidates are compared with the
  whole table's legal set the same way. The replay ends where the loop's game ended,
  finished exactly when the loop says so, with the loop's returns: the rbg target's
  loop does not search whether the next player can move after each move, and ends a
  game when its draws and scan find no move.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook2game.check.native import native_candidates, native_chooser, native_order
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.base import compile_and_start
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.workspace import Workspace

SOURCES = {
    p.parent.relative_to(CORPORA_DIR).as_posix(): p.parent
    for pattern in ("*/game.toml", "rulepage/*/game.toml", "rbg/*/game.toml")
    for p in sorted(CORPORA_DIR.glob(pattern))
}
# A game whose pages list its moves (r2g_moves) over a 4096-entry table.
SOURCES["breakthrough_squares"] = Path(__file__).parent / "data" / "games" / "breakthrough_squares"
# A game whose pages list candidate moves (r2g_move_candidates) over the same table.
SOURCES["breakthrough_candidates"] = (
    Path(__file__).parent / "data" / "games" / "breakthrough_candidates"
)
# The same candidates as slots (r2g_candidate_slots / r2g_candidate_at, -1 empty).
SOURCES["breakthrough_slots"] = Path(__file__).parent / "data" / "games" / "breakthrough_slots"
# A point of two action types, one with two arguments: the loop's typed step.
SOURCES["claim_or_skip"] = Path(__file__).parent / "data" / "games" / "claim_or_skip"
GAMES = list(SOURCES)
SEED = 20261125
COUNT = 6


def _copy(game: str, root: Path) -> Path:
    target = root / game
    if target.is_dir():
        return target
    shutil.copytree(SOURCES[game], target, ignore=shutil.ignore_patterns("reports", "runs"))
    return target


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("lockstep")


def _engine(root: Path, optimized: bool) -> RlEngine:
    engine = compile_and_start(Workspace(root), optimized=optimized).engine
    assert isinstance(engine, RlEngine)
    return engine


def test_corpus_games_are_found() -> None:
    assert {"hearts", "pig", "rulepage/hearts", "rulepage/tic_tac_toe", "rbg/breakthrough"} <= set(
        GAMES
    )


def test_rl_hearts_tests_only_the_actions_of_its_phase(corpus: Path) -> None:
    engine = _engine(_copy("hearts", corpus), optimized=True)
    with engine:
        points = engine.action_points
        assert len(points) == len(engine.action_texts)
        by_name = {text.split("(")[0]: points[i] for i, text in enumerate(engine.action_texts)}
    # pass_direction, deal, pass_card and play are four points of hand.rl's play().
    assert sorted(by_name.values()) == [1, 2, 3, 4]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_optimized_loop_agrees_with_the_checked_build(corpus: Path, game: str) -> None:
    root = _copy(game, corpus)
    with _engine(root, optimized=True) as fast, _engine(root, optimized=False) as checked:
        played = fast.playouts(SEED, COUNT, 2000, record=True)
        assert played == checked.playouts(SEED, COUNT, 2000, record=True)
        choose = native_chooser(checked, SEED)
        for game_played in played:
            assert game_played.actions is not None
            state, actions = checked.initial(), []
            while not checked.is_terminal(state) and len(actions) < game_played.length:
                if checked.lists_moves:
                    # the list the loop draws from is exactly what the table allows
                    listed = checked.legal_indices(state)
                    assert listed == checked.table_legal_indices(state)
                    assert sorted(checked.listed_indices(state)) == list(listed)
                candidates = native_candidates(checked, state)
                if checked.lists_candidates:
                    # the legal candidates are what the table allows, each listed once
                    assert candidates is not None
                    filled = [c for c in candidates if c != -1]  # -1: an empty slot
                    assert len(set(filled)) == len(filled)
                    assert checked.legal_indices(state) == checked.table_legal_indices(state)
                legal = checked.legal_actions(state) or [
                    a for a, _ in checked.chance_outcomes(state)
                ]
                actions.append(choose(native_order(checked, state, legal), candidates))
                state = checked.apply(state, actions[-1])
            assert tuple(actions) == game_played.actions
            # the loop ends a game where the protocol does, with the same returns (an rbg
            # game's loop finds the end itself: R2GEndsWithoutMoves)
            assert checked.is_terminal(state) == (game_played.status == "terminal")
            if game_played.status == "terminal":
                assert tuple(checked.returns(state)) == game_played.returns


@pytest.mark.slow
def test_rbg_loop_ends_a_game_without_moves_where_the_protocol_does(corpus: Path) -> None:
    """The rbg loop finds a full tic-tac-toe board itself (no move left, no line): the
    game ends there, finished for the protocol too, with the same returns (a draw)."""
    root = _copy("rbg/tic_tac_toe", corpus)
    with _engine(root, optimized=True) as fast:
        played = fast.playouts(SEED, 60, 20, record=True)
        # a full board at the step limit has ended, not been cut short
        assert fast.playouts(SEED, 60, 9, record=True) == played
    draws = [g for g in played if g.length == 9 and g.returns == (0.0, 0.0)]
    assert draws, "no drawn game among 60: the test no longer reaches the loop's own end"
    with _engine(root, optimized=False) as checked:
        for game_played in played:
            assert game_played.status == "terminal"
            assert game_played.actions is not None
            state = checked.initial()
            for action in game_played.actions:
                assert not checked.is_terminal(state)
                state = checked.apply(state, action)
            assert checked.is_terminal(state)
            assert tuple(checked.returns(state)) == game_played.returns
