"""RBG chess: its oracle binding (OpenSpiel's chess in UCI, no repetition draw), its
regress budget, and lockstep agreement with the oracle."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulebook2game.check.lockstep import walk
from rulebook2game.oracle import load_oracle
from rulebook2game.oracle.game_binding import game_adapter, game_oracle_spec
from rulebook2game.regress import RegressSettings, game_options
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import open_workspace

CHESS = CORPORA_DIR / "rbg" / "chess"


def _oracle() -> Any:
    return load_oracle("openspiel:chess", CHESS)


def _binding_module() -> ModuleType:
    _oracle()  # registers the game directory's engine file
    path = str((CHESS / "oracle_chess.py").resolve())
    return next(m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == path)


def test_the_oracle_speaks_the_vocabulary_of_the_interface() -> None:
    oracle = _oracle()
    state = oracle.initial()
    assert oracle.current_player(state) == 1  # White is player 1 and moves first
    legal = oracle.legal_actions(state)
    assert len(legal) == 20
    assert "move(from_file=4, from_rank=2, to_file=4, to_rank=4)" in legal
    assert "move(from_file=6, from_rank=1, to_file=5, to_rank=3)" in legal
    opening = str(state)
    after = oracle.apply(state, _move("e2e4"))
    assert str(state) == opening and str(after) != opening  # a copy moves, not the original
    for action in ("e2e4", "a7a6", "e4e5", "d7d5"):  # en passant becomes possible
        state = oracle.apply(state, _move(action))
    assert "move(from_file=4, from_rank=5, to_file=3, to_rank=6)" in oracle.legal_actions(state)


def _move(uci: str) -> str:
    files = "abcdefgh"
    return (
        f"move(from_file={files.index(uci[0])}, from_rank={uci[1]}, "
        f"to_file={files.index(uci[2])}, to_rank={uci[3]})"
    )


def test_the_binding_writes_castling_and_promotion_in_uci() -> None:
    module = _binding_module()
    state = module.CHESS.new_initial_state("r3k2r/pPpppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    names = {module.uci(state, a) for a in state.legal_actions()}
    assert {"e1g1", "e1c1", "b7a8q", "b7a8n", "b7b8r", "b7b8b"} <= names
    adapter = game_adapter(game_oracle_spec(CHESS))  # type: ignore[arg-type]
    assert adapter.rules[0].matched(0, "b7a8q") == "promote(from_file=1, to_file=0, piece=3)"
    assert adapter.rules[0].matched(0, "g2h1n") == "promote(from_file=6, to_file=7, piece=0)"
    assert adapter.rules[0].matched(0, "e1g1") is None
    assert adapter.rules[1].matched(0, "e1g1") == (
        "move(from_file=4, from_rank=1, to_file=6, to_rank=1)"
    )


def test_a_threefold_repetition_does_not_end_the_oracle_game() -> None:
    oracle = _oracle()
    module = _binding_module()
    real = module.CHESS.new_initial_state()
    state = oracle.initial()
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:  # the opening position, a third time
        state = oracle.apply(state, _move(uci))
        real.apply_action(real.parse_move_to_action(uci))
    assert real.is_terminal() and real.is_repetition_draw()  # OpenSpiel ends it here
    assert not oracle.is_terminal(state)
    assert state.repetitions_passed == 1
    assert len(oracle.legal_actions(state)) == 20


def test_bench_times_openspiels_own_chess() -> None:
    spec = game_oracle_spec(CHESS)
    assert spec is not None and spec.engine == "rbg_chess_uci" and spec.bench == "chess"


def test_regress_plays_fewer_chess_games_than_check() -> None:
    config = open_workspace(CHESS).config()
    options = game_options(RegressSettings(fuzz_playouts=100, oracle_trajectories=20), config)
    assert (options["fuzz"], options["oracle"]) == (4, 2)
    small = game_options(RegressSettings(fuzz_playouts=3, oracle_trajectories=1), config)
    assert (small["fuzz"], small["oracle"]) == (3, 1)


@pytest.mark.slow
def test_rbg_chess_compiles_and_agrees_with_openspiel(tmp_path: Path) -> None:
    game = shutil.copytree(
        CHESS, tmp_path / "chess", ignore=shutil.ignore_patterns("build", "reports", "runs")
    )
    ws = open_workspace(game)
    oracle = load_oracle("openspiel:chess", game)
    with compile_and_start(ws) as made:
        assert made.engine is not None, made.error
        steps = 0
        for run in range(4):  # two drawing from OpenSpiel, two from the RBG engine
            trajectory = walk(oracle, made.engine, random.Random(run), 20_000, run % 2 == 1)
            assert trajectory.mismatch is None, (run, trajectory.mismatch)
            steps += len(trajectory.actions)
    assert steps > 400
