"""A page that lists candidate moves (``r2g_move_candidates``) is held to the table.

The native loop draws among the candidates and tests the drawn one; in-process
stepping and the worker test only the candidates. So the fuzzer compares the legal
candidates with the set found by testing every entry on sampled states, and checks
that no candidate is listed twice: a difference is an invariant finding
(``moves_listed``) naming the move and the page. A candidate outside the action table
is a fault of the game, reported as a finding.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook2game.check.fuzz import FuzzConfig, Fuzzer
from rulebook2game.check.native import native_candidates, native_chooser, native_order
from rulebook2game.check.run import compile_stage, fuzz_stage, run_check
from rulebook2game.targets.base import PlayoutRng, compile_and_start
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.workspace import Workspace, open_workspace
from tests.rl_support import game_copy, in_process_matches_table

GAME = Path(__file__).parent / "data" / "games" / "breakthrough_candidates"
SLOTS = GAME.parent / "breakthrough_slots"
"""The same candidates as slots (``r2g_candidate_slots``/``r2g_candidate_at``), -1 empty."""
BOTH = pytest.mark.parametrize("source", [GAME, SLOTS], ids=["list", "slots"])
OPTIONS = {"fuzz": 60, "request_timeout": 5.0, "batch_timeout": 10.0}
SEED = 20261128


def _game(tmp_path: Path, old: str = "", new: str = "") -> Path:
    return game_copy(GAME, tmp_path, old, new)


def _findings(game: Path) -> list[tuple[str, str, list[str]]]:
    report = run_check(open_workspace(game), (compile_stage, fuzz_stage), options=OPTIONS)
    return [(f.kind, f.message, [p.page for p in f.pages]) for f in report.findings]


def _listing(found: list[tuple[str, str, list[str]]]) -> list[tuple[str, list[str]]]:
    return [(message, pages) for _, message, pages in found if "moves_listed" in message]


def _engine(root: Path, optimized: bool) -> RlEngine:
    engine = compile_and_start(Workspace(root), optimized=optimized).engine
    assert isinstance(engine, RlEngine)
    return engine


def test_the_replay_draws_among_the_candidates_in_their_order() -> None:
    # m = 4 candidates, 11 and 13 legal: up to 4 // 4 + 8 = 9 draws of a position,
    # the first landing on a legal one wins; then one draw among the legal ones in the
    # candidates' order
    legal = [11, 13]
    seen = set()
    for order in ([10, 11, 12, 13], [13, 12, 11, 10]):
        for seed in range(40):
            draws = PlayoutRng(seed)
            positions = [draws.below(4) for _ in range(9)]
            hits = [order[p] for p in positions if order[p] in legal]
            expected = hits[0] if hits else [c for c in order if c in legal][draws.below(2)]
            picked = PlayoutRng(seed).pick(20, legal, candidates=order)
            assert picked == expected
            seen.add((tuple(order), seed, picked))
    # the same seed picks differently when only the order differs, for some seed
    assert any(
        (((10, 11, 12, 13), s, 11) in seen) != (((13, 12, 11, 10), s, 11) in seen)
        for s in range(40)
    )
    # nothing legal among the candidates: no choice, and the generator is untouched
    stuck = PlayoutRng(3)
    assert stuck.pick(20, [5], candidates=[10, 11]) is None
    assert stuck.state == PlayoutRng(3).state


@pytest.mark.slow
@BOTH
def test_the_loop_and_its_replay_agree_and_the_candidates_give_the_table(
    tmp_path: Path,
    source: Path,
) -> None:
    root = game_copy(source, tmp_path)
    with _engine(root, optimized=True) as fast, _engine(root, optimized=False) as checked:
        assert fast.lists_candidates and not fast.lists_moves
        played = fast.playouts(SEED, 6, 2000, record=True)
        assert played == checked.playouts(SEED, 6, 2000, record=True)
        choose = native_chooser(checked, SEED)
        for game_played in played:
            assert game_played.actions is not None and game_played.status == "terminal"
            state, actions = checked.initial(), []
            while not checked.is_terminal(state):
                candidates = native_candidates(checked, state)
                assert candidates is not None
                filled = [c for c in candidates if c != -1]  # -1: an empty slot
                assert len(set(filled)) == len(filled)
                legal = checked.legal_indices(state)
                assert legal == checked.table_legal_indices(state)
                assert set(legal) <= set(candidates)
                texts = checked.legal_actions(state)
                actions.append(choose(native_order(checked, state, texts), candidates))
                state = checked.apply(state, actions[-1])
            assert tuple(actions) == game_played.actions


@pytest.mark.slow
@BOTH
def test_in_process_steps_give_the_whole_table_scan(tmp_path: Path, source: Path) -> None:
    in_process_matches_table(game_copy(source, tmp_path), SEED)


@pytest.mark.slow
@BOTH
def test_correct_candidates_pass(tmp_path: Path, source: Path) -> None:
    assert _listing(_findings(game_copy(source, tmp_path))) == []


@pytest.mark.slow
def test_candidates_missing_a_legal_move_are_a_finding_naming_it(tmp_path: Path) -> None:
    # the diagonal move towards file a is left out; games still end
    broken = _game(
        tmp_path, "n = n + (file + FILES - 1) / FILES\n", "n = n + 0 * (file + FILES - 1)\n"
    )
    found = _listing(_findings(broken))
    assert len(found) == 1, found
    message, pages = found[0]
    assert "r2g_move_candidates leaves out move(from_sq=" in message
    assert "or a precondition allows a move the rulebook forbids" in message
    # shrunk to the first state: black's pieces on row 6 lose their moves towards file a
    assert "move(from_sq=49, to_sq=40)" in message
    assert "moves" in pages


@pytest.mark.slow
def test_a_candidate_listed_twice_is_a_finding(tmp_path: Path) -> None:
    # the straight move is listed again after the right diagonal
    broken = _game(
        tmp_path,
        "        n = n + (FILES - 1 - file + FILES - 1) / FILES\n",
        "        n = n + (FILES - 1 - file + FILES - 1) / FILES\n"
        "        out.set(n, straight)\n        n = n + 1\n",
    )
    found = _listing(_findings(broken))
    assert len(found) == 1, found
    message, pages = found[0]
    assert "r2g_move_candidates lists move(from_sq=" in message and "twice" in message
    assert "moves" in pages


@pytest.mark.slow
def test_a_candidate_outside_the_table_is_a_fault_of_the_game(tmp_path: Path) -> None:
    broken = _game(tmp_path, "out.set(n, straight)\n", "out.set(n, straight + 5000)\n")
    found = _findings(broken)
    wrong = "r2g_move_candidates or r2g_candidate_at) is 8632, not an index of the action table"
    assert any(wrong in message for _, message, _ in found), found


@pytest.mark.slow
@BOTH
def test_a_dead_batch_is_replayed_through_the_candidates(tmp_path: Path, source: Path) -> None:
    # the move code aborts when black reaches c3: the native batch dies, and the
    # fuzzer replays its draws step by step to a crash finding (that the replay plays
    # the batch's very games is the next test's)
    root = game_copy(source, tmp_path)
    turn = root / "pages" / "turn.rl"
    text = turn.read_text()
    old = "        board.set(from_file, from_rank, EMPTY)\n"
    assert text.count(old) == 1
    boom = '        assert(current != 0 or to_rank != 3 or to_file != 2, "boom: black on c3")\n'
    turn.write_text(text.replace(old, old + boom))
    report = run_check(open_workspace(root), (compile_stage, fuzz_stage), options=OPTIONS)
    crashes = [f for f in report.findings if "boom: black on c3" in f.message]
    assert len(crashes) == 1, [f.message for f in report.findings]
    assert "did not recur" not in crashes[0].message
    assert crashes[0].actions and crashes[0].actions[-1].endswith("to_sq=18)")


@pytest.mark.slow
@BOTH
def test_the_fuzzers_step_by_step_replay_plays_the_batchs_games(
    tmp_path: Path, source: Path
) -> None:
    # what the fuzzer does with a dead batch (``_locate_fault``), on a live one
    with _engine(game_copy(source, tmp_path), optimized=False) as engine:
        batch = engine.playouts(SEED, 4, 2000, record=True)
        fuzzer = Fuzzer(engine, FuzzConfig(seed=SEED))
        choose = native_chooser(engine, SEED)
        for played in batch:
            game = fuzzer._python_game(choose, native=True)
            assert game is not None and game.actions == played.actions
