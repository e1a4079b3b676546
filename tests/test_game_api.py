"""The in-process Python API: the check gate, stepping, views and the batched path."""

from __future__ import annotations

import ctypes
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulebook2game
from rulebook2game.bench import BATCHED, IN_PROCESS, PYSPIEL_PYTHON, bench_workspace
from rulebook2game.check.report import write_report
from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.engine import IllegalActionError, ObservingEngine
from rulebook2game.errors import NotCheckedError
from rulebook2game.game import NO_ACTION, InProcessEngine, check_status
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.workspace import open_workspace


def _copy(game: str, dest: Path) -> Path:
    target = dest / game
    shutil.copytree(CORPORA_DIR / game, target, ignore=shutil.ignore_patterns("reports", "runs"))
    return target


def _check(root: Path) -> None:
    ws = open_workspace(root)
    report = run_check(ws, ALL_STAGES, options={"fuzz": 50, "oracle": 5})
    write_report(report, ws.reports_dir)


@pytest.fixture(scope="module")
def checked_pig(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _copy("pig", tmp_path_factory.mktemp("api"))
    _check(root)
    return root


def test_an_unchecked_game_is_refused_unless_trusted(tmp_path: Path) -> None:
    root = _copy("tic_tac_toe", tmp_path)
    assert not check_status(open_workspace(root)).passed
    with pytest.raises(NotCheckedError, match="trust=True"):
        rulebook2game.load(root)
    assert rulebook2game.load(root, trust=True).num_players == 2


def test_a_checked_game_loads_until_its_pages_change(checked_pig: Path) -> None:
    assert check_status(open_workspace(checked_pig)).passed
    assert rulebook2game.load(checked_pig).name == "pig"
    page = checked_pig / "pages" / "end.rl"
    original = page.read_text()
    page.write_text(original + "\n# an edit after the check\n")
    try:
        with pytest.raises(NotCheckedError, match="changed since"):
            rulebook2game.load(checked_pig)
    finally:
        page.write_text(original)
    assert rulebook2game.load(checked_pig).name == "pig"


@pytest.fixture(scope="module")
def hearts_pair() -> Iterator[tuple[rulebook2game.Game, RlEngine]]:
    game = rulebook2game.load(CORPORA_DIR / "hearts", trust=True)
    with RlEngine.from_workspace(open_workspace(CORPORA_DIR / "hearts")) as engine:
        yield game, engine


def test_in_process_play_agrees_with_the_sandboxed_engine(
    hearts_pair: tuple[rulebook2game.Game, RlEngine],
) -> None:
    game, engine = hearts_pair
    rng = random.Random(7)
    state, ref = game.new_initial_state(), engine.initial()
    while not state.is_terminal():
        assert state.current_player() == engine.current_player(ref)
        assert state.legal_action_texts() == engine.legal_actions(ref)
        assert state.legal_actions_mask().count(1) == len(state.legal_actions())
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        else:
            p = state.current_player()
            assert state.observation_string(p) == engine.observation_string(ref, p)
            assert state.observation_tensor(p) == engine.observation_tensor(ref, p)
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        ref = engine.apply(ref, game.action_texts[action])
    assert engine.is_terminal(ref)
    assert state.returns() == engine.returns(ref)
    assert state.serialize() == engine.serialize(ref)
    again = game.deserialize(state.serialize())
    assert again.is_terminal() and again.returns() == state.returns()


def test_clone_is_independent_and_illegal_actions_are_refused(
    hearts_pair: tuple[rulebook2game.Game, RlEngine],
) -> None:
    game, _ = hearts_pair
    state = game.new_initial_state()
    state.apply("pass_direction(dir=1)")
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history()) == 1 and len(copy.history()) == 2
    before = state.serialize()
    with pytest.raises(IllegalActionError):
        state.apply("play(card=0)")
    with pytest.raises(IllegalActionError):
        state.apply_action(-3)
    assert state.serialize() == before
    with pytest.raises(rulebook2game.BadInputError):
        game.deserialize("{not a state}")


def test_the_batch_steps_like_single_games() -> None:
    game = rulebook2game.load(CORPORA_DIR / "connect_four", trust=True)
    batch = game.batch(8, tensors=True)
    singles = [game.new_initial_state() for _ in range(8)]
    rng = random.Random(3)
    for _ in range(30):
        actions = []
        for k, single in enumerate(singles):
            assert batch.current_player(k) == single.current_player()
            assert batch.legal_actions(k) == single.legal_actions()
            if single.is_terminal():
                actions.append(NO_ACTION)
                continue
            assert batch.observation_tensor(k) == single.observation_tensor(single.current_player())
            action = rng.choice(single.legal_actions())
            single.apply_action(action)
            actions.append(action)
        batch.step(actions)
    assert batch.state(0).serialize() == singles[0].serialize()
    batch.step([0] * 8 if not batch.is_terminal(0) else [NO_ACTION] * 8)
    batch.reset(1)
    batch.step([NO_ACTION] * 8)
    assert batch.state(1).serialize() == game.new_initial_state().serialize()


def test_the_engine_adapter_speaks_the_contract() -> None:
    engine = InProcessEngine(rulebook2game.load(CORPORA_DIR / "pig", trust=True))
    assert isinstance(engine, ObservingEngine)
    state = engine.initial()
    child = engine.apply(state, engine.legal_actions(state)[0])
    assert engine.serialize(state) != engine.serialize(child)
    assert engine.observation_tensor_shape[0] == len(engine.observation_tensor(child, 0))


def test_bench_measures_in_process_stepping_beside_openspiel_python() -> None:
    report = bench_workspace(open_workspace(CORPORA_DIR / "tic_tac_toe"), seconds=0.1, trust=True)
    for name in (IN_PROCESS, BATCHED, PYSPIEL_PYTHON):
        row = report.row(name)
        assert row is not None and row.steps and row.playouts > 0
        assert row.mean_length == pytest.approx(7.6, abs=1.0)
    assert report.as_json()["step_ratios"][f"{IN_PROCESS} / {PYSPIEL_PYTHON}"] > 0


def test_a_rulepage_game_loads_in_process_once_checked(tmp_path: Path) -> None:
    # The loader and the trust check go through the game's target, not the rl target.
    skip = shutil.ignore_patterns("build", "reports", "runs")
    game = shutil.copytree(CORPORA_DIR / "rulepage" / "tic_tac_toe", tmp_path / "ttt", ignore=skip)
    with pytest.raises(NotCheckedError):
        rulebook2game.load(game)
    ws = open_workspace(game)
    report = run_check(ws, ALL_STAGES, options={"fuzz": 50, "oracle": 5})
    assert report.ok
    write_report(report, ws.reports_dir)
    assert check_status(ws).passed
    loaded = rulebook2game.load(game)
    state = loaded.new_initial_state()
    assert len(state.legal_action_texts()) == 9
    state.apply("mark(row=1, col=1)")
    assert state.current_player() == 1


def test_copies_are_deep_for_plain_states_and_for_states_that_own_memory() -> None:
    plain = rulebook2game.load(CORPORA_DIR / "tic_tac_toe", trust=True)
    owning = rulebook2game.load(
        Path(__file__).parent / "data" / "rulepage" / "loaded_die", trust=True
    )  # its state keeps a Vector of log lines
    assert plain._native.plain and not owning._native.plain
    for game, first in ((plain, "mark(row=1, col=1)"), (owning, "throw()")):
        start = game.new_initial_state()
        start.apply(first)
        copy = start.clone()
        copy.apply_action(copy.legal_actions()[0])
        fresh = game.new_initial_state()
        assert start.serialize() != copy.serialize() != fresh.serialize()
        assert fresh.legal_actions() == game.new_initial_state().legal_actions()
        assert len(start.history()) == 1 and len(copy.history()) == 2
    owning_state = owning.new_initial_state()
    for action in ("throw()", "face(value=6)"):
        owning_state.apply(action)
    kept = owning_state.clone()
    owning_state.apply("throw()")
    assert kept.log_lines() == ["a six for player 0"] and owning_state.log_lines() == []


def test_the_c_step_and_the_ctypes_step_agree() -> None:
    for name in ("tic_tac_toe", "hearts"):
        game = rulebook2game.load(CORPORA_DIR / name, trust=True)
        assert game._fast  # the C extension builds with the compiler rlc links with
        rng = random.Random(3)
        for _ in range(5):
            state = game.new_initial_state()
            while not state.is_terminal():
                assert game._ctypes_step(ctypes.byref(state._g), -1) == state.legal_actions()
                state.apply_action(rng.choice(state.legal_actions()))
            assert game._ctypes_step(ctypes.byref(state._g), -1) == []


def test_without_the_c_extension_games_step_through_ctypes() -> None:
    script = (
        "import random, rulebook2game\n"
        f"game = rulebook2game.load({str(CORPORA_DIR / 'connect_four')!r}, trust=True)\n"
        "state, rng = game.new_initial_state(), random.Random(5)\n"
        "while not state.is_terminal():\n"
        "    state.apply_action(rng.choice(state.legal_actions()))\n"
        "print(game._fast, state.history(), state.returns())\n"
    )
    env = dict(os.environ, RULEBOOK2GAME_NO_FAST_STEP="1")
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    game = rulebook2game.load(CORPORA_DIR / "connect_four", trust=True)
    state, rng = game.new_initial_state(), random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert done.stdout.split(" ", 1) == ["False", f"{state.history()} {state.returns()}\n"]
