"""RlEngine: the engine contract over the worker, native playouts, and faults as findings."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook2game.actions import Action
from rulebook2game.engine import CHANCE, TERMINAL, Engine, IllegalActionError
from rulebook2game.errors import BadInputError, EngineFault
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.rl.action_text import (
    action_to_rl,
    canonical_to_rl,
    rl_to_action,
    rl_to_canonical,
)
from rulebook2game.targets.rl.compile import compile_workspace
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rl.playout_rng import PlayoutRng
from rulebook2game.targets.rl.worker import (
    RlWorker,
    WorkerLimits,
    WorkerRequestError,
    fault_message,
)
from rulebook2game.workspace import open_workspace
from tests.rl_support import build_of, engine_of, rl_games

__all__ = ["rl_games"]


@pytest.fixture(scope="module")
def ttt(rl_games: Path) -> Iterator[RlEngine]:
    with engine_of(rl_games, "tiny_ttt") as engine:
        yield engine


@pytest.fixture(scope="module")
def dice(rl_games: Path) -> Iterator[RlEngine]:
    with engine_of(rl_games, "dice") as engine:
        yield engine


RL_TEXTS = [
    ("mark {row: 0, col: 2}", "mark(row=0, col=2)"),
    ("hold {}", "hold()"),
    ("play {card: QS, open: true}", "play(card=QS, open=true)"),
    ("shift {dx: -1}", "shift(dx=-1)"),
]


@pytest.mark.parametrize(("rl", "text"), RL_TEXTS)
def test_action_text_round_trip(rl: str, text: str) -> None:
    assert rl_to_canonical(rl) == text
    assert canonical_to_rl(text) == rl
    assert action_to_rl(rl_to_action(rl)) == rl


@pytest.mark.parametrize("bad", ["move {to: {x: 1}}", "mark {row 1}", "{x: 1}"])
def test_action_text_rejects_what_has_no_canonical_form(bad: str) -> None:
    with pytest.raises(ValueError):
        rl_to_action(bad)


def test_the_engine_contract(ttt: RlEngine) -> None:
    assert isinstance(ttt, Engine) and ttt.name == "rl:tiny_ttt" and ttt.players == 2
    start = ttt.initial()
    legal = ttt.legal_actions(start)
    assert legal == sorted(legal) and len(legal) == 9 and "mark(row=1, col=1)" in legal
    assert ttt.current_player(start) == 0 and ttt.chance_outcomes(start) == []
    after = ttt.apply(start, "mark( row = 1, col = 1 )")
    assert ttt.current_player(after) == 1 and "mark(row=1, col=1)" not in ttt.legal_actions(after)
    assert ttt.legal_actions(start) == legal, "apply must not change the state it was given"
    assert ttt.history(after) == ["mark(row=1, col=1)"]
    with pytest.raises(IllegalActionError):
        ttt.apply(after, "mark(row=1, col=1)")
    with pytest.raises(IllegalActionError):
        ttt.apply(after, "not an action")
    assert ttt.render(after) == "...\n.x.\n...\n\n"


def test_a_finished_game(ttt: RlEngine) -> None:
    state = ttt.initial()
    for cell in ["0, col=0", "1, col=0", "0, col=1", "1, col=1", "0, col=2"]:
        state = ttt.apply(state, f"mark(row={cell})")
    assert ttt.is_terminal(state) and ttt.current_player(state) == TERMINAL
    assert ttt.legal_actions(state) == [] and ttt.returns(state) == [1.0, -1.0]
    with pytest.raises(IllegalActionError):
        ttt.apply(state, "mark(row=2, col=2)")
    assert ttt.returns(ttt.initial()) == [0.0, 0.0]


def test_chance_outcomes_are_uniform(dice: RlEngine) -> None:
    start = dice.initial()
    assert dice.current_player(start) == CHANCE
    outcomes = dice.chance_outcomes(start)
    assert [a for a, _ in outcomes] == [f"roll(face={n})" for n in range(1, 7)]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    assert dice.legal_actions(start) == [a for a, _ in outcomes]
    rolled = dice.apply(start, "roll(face=4)")
    assert dice.current_player(rolled) == 0 and dice.chance_outcomes(rolled) == []
    assert dice.legal_actions(rolled) == ["again()", "hold()"]


def test_serialize_round_trip(dice: RlEngine) -> None:
    rng = random.Random(4)
    state = dice.initial()
    while not dice.is_terminal(state):
        text = dice.serialize(state)
        again = dice.deserialize(text)
        assert dice.serialize(again) == text
        assert dice.legal_actions(again) == dice.legal_actions(state)
        state = dice.apply(state, rng.choice(dice.legal_actions(state)))
    assert "scores:" in dice.serialize(state)
    with pytest.raises(BadInputError):
        dice.deserialize("{resume_index: 1, nonsense")


def test_call_bool_evaluates_page_functions(tmp_path: Path) -> None:
    # tic-tac-toe declares a `fun` invariant of its pages in interface.toml.
    game = tmp_path / "tic_tac_toe"
    shutil.copytree(CORPORA_DIR / "tic_tac_toe", game, ignore=shutil.ignore_patterns("build"))
    build = compile_workspace(open_workspace(game)).build
    assert build is not None
    with RlEngine(build, game="tic_tac_toe") as engine:
        state = engine.initial()
        assert engine.call_bool(state, "marks_alternate")
        state = engine.apply(state, "mark(row=1, col=1)")
        assert engine.call_bool(state, "marks_alternate")
        # Two crosses and no nought: a position play cannot reach, the invariant says so.
        broken = engine.deserialize(
            engine.serialize(engine.apply(state, "mark(row=0, col=0)")).replace(
                "cells: [2,", "cells: [1,"
            )
        )
        assert engine.render(broken).count("x") == 2
        assert not engine.call_bool(broken, "marks_alternate")
        with pytest.raises(WorkerRequestError, match="no function `fun no_such_invariant"):
            engine.call_bool(state, "no_such_invariant")


def test_native_playouts_are_deterministic(dice: RlEngine) -> None:
    first = dice.playouts(seed=11, count=20, max_steps=500, record=True)
    assert first == dice.playouts(seed=11, count=20, max_steps=500, record=True)
    assert first != dice.playouts(seed=12, count=20, max_steps=500, record=True)
    assert all(p.status == "terminal" and sorted(p.returns) == [-1.0, 1.0] for p in first)
    game = first[0]
    assert game.actions is not None and len(game.actions) == game.length
    state = dice.initial()
    for action in game.actions:
        state = dice.apply(state, action)
    assert dice.is_terminal(state) and tuple(dice.returns(state)) == game.returns
    truncated = dice.playouts(seed=11, count=3, max_steps=2)
    assert {p.status for p in truncated} == {"truncated"} and truncated[0].actions is None
    stats = dice.playout_stats(seed=11, count=20, max_steps=500)
    assert stats.count == 20 and stats.steps == sum(p.length for p in first)
    assert stats.statuses["terminal"] == 20


def test_playout_rng_reproduces_the_native_choices(dice: RlEngine) -> None:
    games = dice.playouts(seed=99, count=4, max_steps=500, record=True)
    rng = PlayoutRng(99)
    for game in games:
        state, actions = dice.initial(), []
        while not dice.is_terminal(state):
            index = rng.pick(len(dice.action_texts), dice.legal_indices(state), dice.action_points)
            assert index is not None
            actions.append(dice.action_texts[index])
            state = dice.apply(state, actions[-1])
        assert tuple(actions) == game.actions


@pytest.fixture(scope="module")
def faulty(rl_games: Path) -> Iterator[RlEngine]:
    limits = WorkerLimits(memory_bytes=768 << 20, cpu_seconds=1.0, wall_seconds=4.0)
    with RlEngine(build_of(rl_games, "faulty"), game="faulty", limits=limits) as engine:
        yield engine


ABORTS = [
    ("boom()", 17, "boom: the count is too small"),
    ("oob()", 26, "Out of bounds array access"),
    ("halve()", 30, "function half_of called without respecting precondition"),
]


@pytest.mark.parametrize(("action", "line", "message"), ABORTS, ids=[a[0] for a in ABORTS])
def test_an_abort_is_a_finding_and_the_engine_goes_on(
    faulty: RlEngine, action: str, line: int, message: str
) -> None:
    state = faulty.apply(faulty.initial(), "ok()")
    with pytest.raises(EngineFault) as caught:
        faulty.apply(state, action)
    assert caught.value.kind == "abort"
    assert f"pages/faulty.rl:{line}:" in caught.value.message
    assert message in caught.value.message and action in caught.value.message
    restarts = faulty.restarts
    later = faulty.apply(state, "ok()")
    assert faulty.restarts == restarts + 1
    assert faulty.history(later) == ["ok()", "ok()"]
    assert faulty.legal_actions(later) == ["boom()", "halve()", "hog()", "ok()", "oob()", "spin()"]


def test_a_hang_is_a_finding(faulty: RlEngine) -> None:
    with pytest.raises(EngineFault) as caught:
        faulty.apply(faulty.initial(), "spin()")
    assert caught.value.kind == "hang" and "spin()" in caught.value.message
    # One of the fixture's limits ends the loop: 1 s of CPU, or 4 s of wall clock when the
    # machine is so busy that the worker gets less than a quarter of a core.
    message = caught.value.message
    assert "CPU time limit exceeded" in message or "no answer within 4 s" in message
    assert faulty.is_terminal(
        faulty.apply(faulty.apply(faulty.apply(faulty.initial(), "ok()"), "ok()"), "ok()")
    )


def test_running_out_of_memory_is_a_finding(rl_games: Path) -> None:
    limits = WorkerLimits(memory_bytes=256 << 20, cpu_seconds=20.0, wall_seconds=30.0)
    with RlEngine(build_of(rl_games, "faulty"), game="faulty", limits=limits) as engine:
        with pytest.raises(EngineFault) as caught:
            engine.apply(engine.initial(), "hog()")
        assert caught.value.kind == "oom" and "256 MiB" in caught.value.message
        assert engine.legal_actions(engine.initial())


def test_a_batch_of_playouts_that_faults(faulty: RlEngine) -> None:
    # Seed 6's first random game reaches `hog()` before `boom()` or `spin()`.
    with pytest.raises(EngineFault) as caught:
        faulty.playouts(seed=6, count=50, max_steps=20)
    assert caught.value.kind == "oom" and "768 MiB" in caught.value.message
    assert faulty.playouts(seed=1, count=0, max_steps=20) == []


def test_worker_requests_and_garbage(rl_games: Path) -> None:
    with RlWorker(build_of(rl_games, "tiny_ttt")) as worker:
        start = worker.new_state()
        assert start.player == 0 and len(start.legal) == 9 and not start.terminal
        assert worker.apply(start.handle, 4) is not None
        with pytest.raises(Exception, match="no state with handle"):
            worker.state_info(10_000)
        with pytest.raises(Exception, match="unknown request"):
            worker.request("launch")
        worker.release([start.handle])
        with pytest.raises(Exception, match="no state with handle"):
            worker.state_info(start.handle)
        pid = worker.pid
    assert not worker.alive and pid > 0


def test_fault_message_prefers_the_rl_error_line() -> None:
    stderr = (
        "noise\npages/x.rl:28:1 error: function apply called without respecting precondition.\n"
    )
    assert fault_message(stderr).startswith("pages/x.rl:28:1 error: function apply")
    assert fault_message("a\nb\nc\nd\n") == "b / c / d"


def test_action_vocabulary(ttt: RlEngine, dice: RlEngine) -> None:
    assert ttt.action_texts[0] == "mark(row=0, col=0)" and len(ttt.action_texts) == 9
    assert Action("hold") in {Action(t.split("(")[0]) for t in dice.action_texts}


def test_the_fuzzers_replay_makes_the_native_loops_choices(dice: RlEngine) -> None:
    from rulebook2game.check.native import native_chooser

    games = dice.playouts(seed=7, count=5, max_steps=500, record=True)
    choose = native_chooser(dice, 7)
    order = {text: i for i, text in enumerate(dice.action_texts)}
    for game in games:
        state, actions = dice.initial(), []
        while not dice.is_terminal(state):
            options = dice.legal_actions(state) or [a for a, _ in dice.chance_outcomes(state)]
            actions.append(choose(sorted(options, key=order.__getitem__)))
            state = dice.apply(state, actions[-1])
        assert tuple(actions) == game.actions


def test_apply_all_is_apply_one_at_a_time(ttt: RlEngine, faulty: RlEngine) -> None:
    from rulebook2game.check.stepper import states_along

    moves = ["mark(row=0, col=0)", "mark(row=1, col=0)", "mark(row=0, col=1)"]
    start = ttt.initial()
    batch = ttt.apply_all(start, [*moves, "mark(row=0, col=0)", "mark(row=2, col=2)"])
    assert len(batch) == 3, "stops before the first action that is not legal there"
    state = start
    for move, got in zip(moves, batch, strict=True):
        state = ttt.apply(state, move)
        assert ttt.serialize(got) == ttt.serialize(state)
        assert ttt.legal_actions(got) == ttt.legal_actions(state)
        assert ttt.current_player(got) == ttt.current_player(state)
    assert ttt.history(batch[-1]) == moves
    assert ttt.apply_all(start, ["not an action", *moves]) == []
    # A fault fails the whole batch; states_along then finds the states before it.
    with pytest.raises(EngineFault):
        faulty.apply_all(faulty.initial(), ["ok()", "boom()", "ok()"])
    before = states_along(faulty, faulty.initial(), ["ok()", "boom()", "ok()"])
    assert [faulty.history(s) for s in before] == [["ok()"]]


BIG_PARENT = """
import sys
from pathlib import Path
from rulebook2game.errors import EngineFault
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rl.worker import WorkerLimits
from tests.rl_support import build_of

blob = bytearray(1200 << 20)  # a parent far bigger than the worker's limit
for i in range(0, len(blob), 4096):
    blob[i] = 1
limits = WorkerLimits(memory_bytes=256 << 20, cpu_seconds=20.0, wall_seconds=30.0)
with RlEngine(build_of(Path(sys.argv[1]), "faulty"), game="faulty", limits=limits) as e:
    for action in ("boom()", "oob()", "hog()"):
        try:
            e.apply(e.apply(e.initial(), "ok()"), action)
        except EngineFault as fault:
            print(action, fault.kind)
"""


@pytest.mark.slow
def test_a_big_parent_does_not_turn_aborts_into_memory_faults(rl_games: Path) -> None:
    # A worker started from a large process reports the parent's peak memory as its own
    # (Linux keeps it across exec): an abort must still read as an abort, and running
    # out of memory as that.
    import subprocess
    import sys

    from rulebook2game.resources import PROJECT_DIR

    build_of(rl_games, "faulty")  # compiled here, once
    done = subprocess.run(
        [sys.executable, "-c", BIG_PARENT, str(rl_games)],
        capture_output=True,
        text=True,
        cwd=PROJECT_DIR,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["boom() abort", "oob() abort", "hog() oom"]
