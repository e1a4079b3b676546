"""RulePage's weighted chance and log lines.

``offer OUTCOME weight EXPR`` on a chance page gives the outcomes odds of their own,
reported by every engine (worker, in-process, OpenSpiel); ``log TEXT`` in a reducer
writes a line that reaches the move log of a table."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pyspiel
import pytest

import rulebook2game
from rulebook2game.check.run import compile_stage, run_check, scenarios_stage
from rulebook2game.engine import CHANCE
from rulebook2game.errors import EngineFault
from rulebook2game.export.openspiel import register
from rulebook2game.game import NO_ACTION, Game
from rulebook2game.play.table import Table
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets import get_target
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import open_workspace

LOADED_DIE = Path(__file__).parent / "data" / "rulepage" / "loaded_die"
ODDS = {f"face(value={v})": (0.375 if v == 6 else 0.125) for v in range(1, 7)}


def _copy(tmp_path: Path) -> Path:
    return shutil.copytree(
        LOADED_DIE, tmp_path / "loaded_die", ignore=shutil.ignore_patterns("build", "reports")
    )


def test_the_worker_engine_reports_the_pages_odds(tmp_path: Path) -> None:
    with compile_and_start(open_workspace(_copy(tmp_path))) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.apply(engine.initial(), "throw()")
        assert dict(engine.chance_outcomes(state)) == ODDS


def test_a_scenario_with_odds_passes_and_one_with_fair_odds_is_a_finding(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    stages = (compile_stage, scenarios_stage)
    report = run_check(open_workspace(root), stages)
    assert not report.findings and report.stage("scenarios").status == "ok"  # type: ignore[union-attr]
    scenario = root / "scenarios" / "loaded_odds.toml"
    scenario.write_text(scenario.read_text().replace("0.375", "0.125"))
    report = run_check(open_workspace(root), stages)
    assert [f.kind for f in report.findings] == ["scenario"]
    assert "face(value=6)" in f"{report.findings[0].expected} {report.findings[0].actual}"


def test_in_process_and_openspiel_see_the_same_odds(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    game = rulebook2game.load(root, trust=True)
    assert game.has_weighted_chance
    state = game.new_initial_state()
    state.apply("throw()")
    assert {game.action_to_string(i): p for i, p in state.chance_outcomes()} == ODDS
    spiel = pyspiel.load_game(register(root, trust=True, short_name="r2g_loaded_die_test"))
    s = spiel.new_initial_state()
    s.apply_action(game.action_id("throw()"))
    assert {game.action_to_string(a): p for a, p in s.chance_outcomes()} == ODDS


def test_a_weight_outside_a_chance_page_is_an_error_at_its_line(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    turn = root / "pages" / "turn.page"
    turn.write_text(turn.read_text().replace("when g.player < 2", "when g.player < 2 weight 2"))
    result = get_target("rulepage").compile(open_workspace(root))
    assert not result.ok
    (problem,) = [d for d in result.diagnostics if "weight" in d.message]
    assert problem.file == "pages/turn.page" and "chance pages only" in problem.message


def test_log_lines_of_a_reducer_reach_the_move_log(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    with compile_and_start(open_workspace(root)) as made:
        engine = made.engine
        assert engine is not None, made.error
        table = Table(engine, game="loaded_die", humans={0, 1})
        table.play("throw()")
        table.script = ["face(value=6)", "face(value=2)"]
        six = table.step_forward()
        table.play("throw()")
        two = table.step_forward()
    assert six.notes == ("a six for player 0",) and two.notes == ()
    assert six.describe().endswith("face(value=6) (p=0.375) · a six for player 0")
    assert "a six" not in six.describe(seen=False)
    game = rulebook2game.load(root, trust=True)
    state = game.new_initial_state()
    for action in ("throw()", "face(value=6)"):
        state.apply(action)
    assert state.log_lines() == ["a six for player 0"]
    state.apply("throw()")
    assert state.log_lines() == []  # each action's lines start afresh


def test_rl_pages_give_odds_with_a_chance_weight_function(tmp_path: Path) -> None:
    root = shutil.copytree(
        Path(__file__).parent / "data" / "rl" / "dice",
        tmp_path / "dice",
        ignore=shutil.ignore_patterns("build", "reports"),
    )
    page = root / "pages" / "dice.rl"
    weight = "\n\nfun chance_weight_roll(Game g, Int face) -> Int:\n    return face\n"
    page.write_text(page.read_text() + weight)
    expected = {f"roll(face={f})": f / 21 for f in range(1, 7)}
    with compile_and_start(open_workspace(root)) as made:
        engine = made.engine
        assert engine is not None, made.error
        odds = dict(engine.chance_outcomes(engine.initial()))
    assert odds.keys() == expected.keys()
    assert all(abs(odds[a] - p) < 1e-12 for a, p in expected.items())
    state = rulebook2game.load(root, trust=True).new_initial_state()
    texts = {state.action_to_string(i): p for i, p in state.chance_outcomes()}
    assert all(abs(texts[a] - p) < 1e-12 for a, p in expected.items())


BATCH = 2000
"""Games of the loaded die stepped together: 4000 throws, so a six's frequency has a
standard deviation of about 0.008 around 3/8 (0.006 around 1/6 for a fair die)."""


def _batched_sixes(game: Game, seed: int) -> tuple[int, int]:
    """(sixes, throws) over ``BATCH`` whole games stepped by ``GameBatch.random_actions``."""
    batch = game.batch(BATCH)
    rng = random.Random(seed)
    six = game.action_id("face(value=6)")
    sixes = throws = 0
    while not all(batch.is_terminal(k) for k in range(BATCH)):
        chance = [batch.current_player(k) == CHANCE for k in range(BATCH)]
        actions = batch.random_actions(rng)
        for k, action in enumerate(actions):
            if chance[k]:
                throws += 1
                sixes += action == six
        batch.step(actions)
        assert not any(batch.illegal(k) for k in range(BATCH))
    return sixes, throws


def test_batched_stepping_draws_chance_by_the_pages_odds(tmp_path: Path) -> None:
    game = rulebook2game.load(_copy(tmp_path), trust=True)
    batch = game.batch(2)
    batch.step([game.action_id("throw()"), NO_ACTION])
    assert {game.action_to_string(i): p for i, p in batch.chance_outcomes(0)} == ODDS
    assert batch.chance_outcomes(1) == []  # a player's turn: no chance outcomes
    sixes, throws = _batched_sixes(game, seed=7)
    assert throws == 2 * BATCH
    assert abs(sixes / throws - 0.375) < 0.03  # about 4 standard deviations
    assert abs(sixes / throws - 1 / 6) > 0.15  # a uniform draw would be here
    state = game.new_initial_state()
    state.apply("throw()")
    rng = random.Random(7)
    drawn = [state.random_action(rng) for _ in range(4000)]
    assert abs(drawn.count(game.action_id("face(value=6)")) / 4000 - 0.375) < 0.03


def test_a_fair_die_is_still_drawn_uniformly(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    die = root / "pages" / "die.page"
    die.write_text(die.read_text().replace("return 3", "return 1"))
    game = rulebook2game.load(root, trust=True)
    sixes, throws = _batched_sixes(game, seed=7)
    assert abs(sixes / throws - 1 / 6) < 0.025


def test_a_game_without_odds_draws_as_before() -> None:
    # Pig's chance is uniform: the batch's draws are the plain uniform ones, draw for draw.
    game = rulebook2game.load(CORPORA_DIR / "pig", trust=True)
    assert not game.has_weighted_chance
    batch = game.batch(16)
    ours, theirs = random.Random(3), random.Random(3)
    for _ in range(40):
        expected = [
            NO_ACTION if batch.is_terminal(k) else _uniform(batch.legal_actions(k), theirs)
            for k in range(16)
        ]
        actions = batch.random_actions(ours)
        assert actions == expected
        batch.step(actions)


def _uniform(legal: list[int], rng: random.Random) -> int:
    return legal[rng.randrange(len(legal))]


def test_a_weight_that_is_not_positive_is_a_fault_of_the_pages(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    die = root / "pages" / "die.page"
    die.write_text(die.read_text().replace("return 1", "return 0"))
    game = rulebook2game.load(root, trust=True)
    batch = game.batch(1)
    batch.step([game.action_id("throw()")])
    with pytest.raises(EngineFault, match=r"face\(value=1\) has weight 0"):
        batch.random_actions(random.Random(0))
