"""Scenarios: the format, playing them on a real engine, the stage's findings and coverage."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from rulebook2game.check.report import CheckReport
from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.check.scenarios import (
    Scenario,
    parse_scenario,
    read_scenario,
    run_scenario,
    scenario_toml,
    write_scenario,
)
from rulebook2game.check.sentences import coverage, is_example
from rulebook2game.diff.rules import RuleText, Sentence
from rulebook2game.errors import BadInputError
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.rl.compile import compile_workspace
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.workspace import Workspace, open_workspace

ONE_ENDS_THE_TURN = """\
# "On a 1, you lose the turn total ... Your turn ends and the other player's turn begins."
description = "A 1 ends the turn"
cites = ["4.2#3"]
actions = ["roll()", "die(value=4)", "roll()", "die(value=1)"]

[[expect]]
after = 1
player = "chance"
[expect.chance]          # a long table may be written as a sub-table
"die(value=1)" = 0.1667
"die(value=2)" = 0.1667
"die(value=3)" = 0.1667
"die(value=4)" = 0.1667
"die(value=5)" = 0.1667
"die(value=6)" = 0.1667

[[expect]]
after = 2
player = 0
legal = ["hold()", "roll()"]

[[expect]]
player = 1
allowed = ["hold()"]
forbidden = ["die(value=1)"]
terminal = false
"""


@pytest.fixture(scope="module")
def pig(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    root = tmp_path_factory.mktemp("scen") / "pig"
    skip = shutil.ignore_patterns("build", "reports", "scenarios")
    shutil.copytree(CORPORA_DIR / "pig", root, ignore=skip)
    return open_workspace(root)


@pytest.fixture(scope="module")
def engine(pig: Workspace) -> RlEngine:
    build = compile_workspace(pig, optimized=False).require()
    eng = RlEngine(build, game="pig")
    yield eng  # type: ignore[misc]
    eng.close()


def _scenario(text: str) -> Scenario:
    return parse_scenario(tomllib.loads(text), "<test>")


def test_the_format_round_trips_through_toml(tmp_path: Path) -> None:
    scenario = _scenario(ONE_ENDS_THE_TURN)
    path = write_scenario(tmp_path, "one_ends_turn", scenario)
    assert path == tmp_path / "scenarios" / "one_ends_turn.toml"
    assert read_scenario(path) == scenario
    assert tomllib.loads(scenario_toml(scenario))["cites"] == ["4.2#3"]
    # a note for the whole scenario, beside the expectations' own (a trial wrote one)
    noted = _scenario('cites = ["4.2#3"]\nnote = "the die is fair"\n')
    assert noted.note == "the die is fair"
    assert read_scenario(write_scenario(tmp_path, "noted", noted)) == noted


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('actions = ["roll()"]\n', "cites"),
        ('cites = ["1#1"]\nactions = ["roll("]\n', "actions"),
        ('cites = ["1#1"]\n[[expect]]\nafter = 3\n', "after 3"),
        ('cites = ["1#1"]\n[[expect]]\nwhatever = 1\n', "whatever"),
    ],
)
def test_bad_scenarios_are_bad_input_naming_the_problem(text: str, problem: str) -> None:
    with pytest.raises(BadInputError, match=problem):
        _scenario(text)
    with pytest.raises(BadInputError):
        write_scenario(Path("/nonexistent"), "../up", _scenario('cites = ["1#1"]\n'))


def test_a_correct_scenario_passes_on_the_corpus_pages(engine: RlEngine) -> None:
    run = run_scenario(engine, _scenario(ONE_ENDS_THE_TURN))
    assert run.failure is None and run.steps == 4


def test_each_kind_of_expectation_can_fail(engine: RlEngine) -> None:
    cases = {
        "player": "player = 1\n",
        "legal": 'legal = ["hold()"]\n',
        "allowed": 'allowed = ["die(value=1)"]\n',
        "forbidden": 'forbidden = ["roll()"]\n',
        "chance": 'chance = { "die(value=1)" = 1.0 }\n',
        "terminal": "terminal = true\n",
        "returns": "returns = [1.0, -1.0]\n",
        "state": 'state_contains = ["turn total: 4"]\n',
    }
    for what, line in cases.items():
        text = f'cites = ["4.1#1"]\nactions = ["roll()", "die(value=3)"]\n[[expect]]\n{line}'
        failure = run_scenario(engine, _scenario(text)).failure
        assert failure is not None, what
        assert failure.what == what and failure.after == 2
        assert failure.position  # the rendered position where it showed
    illegal = _scenario('cites = ["4.1#1"]\nactions = ["die(value=3)"]\n')
    failure = run_scenario(engine, illegal).failure
    assert failure is not None and failure.what == "illegal" and failure.after == 0


CHECK_OPTIONS = {"fuzz": 0, "oracle": 0}
"""Scenarios alone: the stage under test, without fuzzing or a reference run."""


def _checked_with(
    pig: Workspace, tmp_path: Path, name: str, text: str
) -> tuple[Path, Workspace, CheckReport]:
    """A copy of pig with one scenario written, and the check of it."""
    root = tmp_path / "pig"
    shutil.copytree(pig.root, root, ignore=shutil.ignore_patterns("build", "reports"))
    ws = open_workspace(root)
    write_scenario(root, name, _scenario(text))
    return root, ws, run_check(ws, ALL_STAGES, options=CHECK_OPTIONS)


def test_the_stage_reports_a_mistranslation_with_scenario_step_pages_and_example(
    pig: Workspace, tmp_path: Path
) -> None:
    root, ws, report = _checked_with(pig, tmp_path, "one_ends_turn", ONE_ENDS_THE_TURN)
    options = CHECK_OPTIONS
    stage = report.stage("scenarios")
    assert stage is not None and stage.status == "ok" and stage.stats["scenarios"] == 1
    assert report.ok

    # The scenario now expects what a translation that forgets "your turn ends" does.
    wrong = ONE_ENDS_THE_TURN.replace("player = 1\n", "player = 0\n")
    write_scenario(root, "one_ends_turn", _scenario(wrong))
    report = run_check(ws, ALL_STAGES, options=options)
    assert not report.ok
    (finding,) = report.findings
    assert finding.kind == "scenario" and finding.stage == "scenarios"
    assert finding.message.startswith("one_ends_turn: after 4 action(s): player")
    assert finding.step == 4
    assert finding.sections[0].id == "4.2#3"
    assert "lose the turn total" in finding.sections[0].text
    assert finding.pages, "the pages involved are named"
    assert finding.position
    assert finding.counterexample is not None and len(finding.counterexample) == 4


def test_sentence_coverage_counts_examples_by_scenario() -> None:
    text = RuleText(
        "rules.md",
        {},
        (
            Sentence("1#1", "1", "paragraph", "Roll the die."),
            Sentence("1#2", "1", "paragraph", "For example, a 3 adds 3 to the turn total."),
            Sentence("1#3", "1", "example", "Ann rolls 4 and holds."),
            Sentence("2#1", "2", "paragraph", "The first to 100 wins."),
        ),
    )
    assert is_example(text.sentences[1]) and is_example(text.sentences[2])
    cov = coverage(text, pages=["1#1"], scenarios=["1#2"])
    assert (cov.rules, cov.rules_cited, cov.uncited) == (2, 1, ["2#1"])
    assert (cov.examples, cov.examples_covered, cov.uncovered_examples) == (2, 1, ["1#3"])
    assert cov.texts["2#1"] == "The first to 100 wins."
    # a rule sentence a scenario cites is still uncited by pages, and shown with its text
    cov = coverage(text, pages=["1#1"], scenarios=["1#2", "2#1"])
    assert cov.uncited == ["2#1"] and cov.texts["2#1"] == "The first to 100 wins."


def test_an_example_that_starts_mid_game_plays_from_its_setup(engine: RlEngine) -> None:
    from rulebook2game.check.position import view_position

    view = view_position(engine, ["roll()", "die(value=4)"])
    assert "turn_total: 4" in view.serialized
    # "With 95 points, a 5 brings you to 100: you must hold" (rules 4.4).
    start = view.serialized.replace("scores: [0, 0]", "scores: [95, 0]").replace(
        "turn_total: 4", "turn_total: 0"
    )
    text = 'cites = ["4.4#1"]\nactions = ["roll()", "die(value=5)"]\n'
    text += '[[expect]]\nafter = 0\nlegal = ["hold()", "roll()"]\n'
    text += '[[expect]]\nlegal = ["hold()"]\n'
    text += f"[setup]\nstate = {json.dumps(start)}\n"
    scenario = _scenario(text)
    assert run_scenario(engine, scenario).failure is None
    wrong = _scenario(text.replace('legal = ["hold()"]', 'legal = ["hold()", "roll()"]'))
    failure = run_scenario(engine, wrong).failure
    assert failure is not None and failure.what == "legal" and failure.after == 2
    broken = _scenario(text.replace(json.dumps(start), '"{not a state"'))
    failure = run_scenario(engine, broken).failure
    assert failure is not None and failure.what == "setup"
    assert view_position(engine, ["roll()"], start).player == -1


def test_the_rendered_position_can_be_expected(engine: RlEngine) -> None:
    text = (
        'cites = ["4.1#1"]\nactions = ["roll()", "die(value=3)"]\n'
        '[[expect]]\nstate_contains = ["turn total: 3", "scores: 0 0"]\n'
    )
    assert run_scenario(engine, _scenario(text)).failure is None
    failure = run_scenario(engine, _scenario(text.replace(": 3", ": 4"))).failure
    assert failure is not None and failure.what == "state"
    assert "'turn total: 4'" in failure.expected and "turn total: 3" in failure.position
    with pytest.raises(BadInputError, match="empty"):
        _scenario('cites = ["1#1"]\n[[expect]]\nstate_contains = [" "]\n')


STATE = (
    "{resume_index: 2, b: {cells: [0, 0, 2]}, grid: [[1, 2], [3, 4]], fox: 56, f: 1.500000, "
    'over: false, c: red, m: Move {x: 3}, s: "a\\"b", v: []}'
)


@pytest.mark.parametrize(
    ("path", "value", "changed"),
    [
        ("b.cells[1]", 2, "cells: [0, 2, 2]"),
        ("grid[1][0]", 9, "grid: [[1, 2], [9, 4]]"),
        ("fox", 40, "fox: 40,"),
        ("f", 2, "f: 2.000000"),
        ("over", True, "over: true"),
        ("c", "blue", "c: blue"),
        ("m.x", 7, "m: Move {x: 7}"),
        ("s", 'x"y', 's: "x\\"y"'),
        ("v", [1, 2], "v: [1, 2]"),
    ],
)
def test_set_field_edits_one_value_of_rl_text(path: str, value: object, changed: str) -> None:
    from rulebook2game.targets.rl.state_text import set_field

    edited = set_field(STATE, path, value)
    assert changed in edited and changed not in STATE
    start = edited.index(changed)  # everything else is left as it was
    assert edited[:start] == STATE[:start]
    tail = len(edited) - start - len(changed)
    assert edited[len(edited) - tail :] == STATE[len(STATE) - tail :]


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("b.cellz[0]", 1, "set 'b.cellz[0]': b has no field 'cellz'; its fields: cells"),
        ("b.cells[3]", 1, "index 3 is out of range; b.cells has 3 item(s) (0..2)"),
        ("b.cells[-1]", 1, "index -1 is out of range"),
        ("fox", 1.5, "set 'fox': 1.5 does not fit; it holds an int (56)"),
        ("fox", True, "it holds an int"),
        ("over", 1, "it holds true or false"),
        ("fox[0]", 1, "fox is not an array; it holds 56"),
        ("grid[0]", 3, "it holds an array ([1, 2])"),
        ("b..cells", 1, "write fields with dots and indices in brackets"),
        ("[0]", 1, "start with a field name"),
    ],
)
def test_set_field_names_the_path_and_what_is_there(path: str, value: object, message: str) -> None:
    from rulebook2game.targets.rl.state_text import set_field

    with pytest.raises(BadInputError) as caught:
        set_field(STATE, path, value)
    assert message in str(caught.value) and "\n" not in str(caught.value)


SET_95 = """\
cites = ["4.4#1"]
actions = ["roll()", "die(value=5)"]
[[expect]]
after = 0
legal = ["hold()", "roll()"]
[[expect]]
legal = ["hold()"]
[setup]
set = { "scores[0]" = 95 }
"""


def test_a_setup_set_starts_from_the_edited_position(engine: RlEngine, tmp_path: Path) -> None:
    from rulebook2game.check.position import view_position

    scenario = _scenario(SET_95)
    assert scenario.setup is not None and scenario.setup.set == {"scores[0]": 95}
    assert read_scenario(write_scenario(tmp_path, "at_95", scenario)) == scenario
    assert run_scenario(engine, scenario).failure is None
    # the same table on top of a state, and through show_position's function
    start = view_position(engine, ["roll()", "die(value=4)"]).serialized
    with_state = SET_95.replace("[setup]\n", f"[setup]\nstate = {json.dumps(start)}\n")
    with_state = with_state.replace('"scores[0]" = 95', '"scores[0]" = 95, turn_total = 0')
    assert run_scenario(engine, _scenario(with_state)).failure is None
    shown = view_position(engine, ["roll()", "die(value=4)"], changes={"scores[1]": 7})
    assert "scores: [0, 7]" in shown.serialized and "turn_total: 4" in shown.serialized
    # a wrong path or value is a setup failure naming it
    for table, said in [
        ('"score[0]" = 95', "no field 'score'; its fields: "),
        ('"scores[2]" = 95', "index 2 is out of range; scores has 2 item(s) (0..1)"),
        ('"scores[0]" = true', "true does not fit; it holds an int (0)"),
    ]:
        failure = run_scenario(engine, _scenario(SET_95.replace('"scores[0]" = 95', table))).failure
        assert failure is not None and failure.what == "setup" and said in failure.actual
    with pytest.raises(BadInputError, match="dots and indices"):
        _scenario(SET_95.replace('"scores[0]"', '"scores[0"'))
    with pytest.raises(BadInputError, match="a number, true/false, a name or a list"):
        _scenario(SET_95.replace("= 95", "= { a = 1 }"))


def test_check_runs_a_scenario_with_set_and_reports_a_wrong_path(
    pig: Workspace, tmp_path: Path
) -> None:
    root, ws, report = _checked_with(pig, tmp_path, "at_95", SET_95)
    options = CHECK_OPTIONS
    stage = report.stage("scenarios")
    assert stage is not None and stage.status == "ok" and stage.stats["passed"] == 1
    wrong = SET_95.replace('"scores[0]" = 95', '"scores[5]" = 95')
    write_scenario(root, "at_95", _scenario(wrong))
    report = run_check(ws, ALL_STAGES, options=options)
    (finding,) = report.findings
    assert finding.kind == "scenario"
    assert "at_95: after 0 action(s): setup" in finding.message
    assert "set 'scores[5]': index 5 is out of range" in finding.message


def test_set_on_a_game_whose_states_are_not_records_says_so(tmp_path: Path) -> None:
    from rulebook2game.check.position import view_position
    from rulebook2game.targets.base import compile_and_start

    dest = tmp_path / "gdl_ttt"
    shutil.copytree(
        CORPORA_DIR / "gdl" / "tic_tac_toe", dest, ignore=shutil.ignore_patterns("build")
    )
    with compile_and_start(Workspace(dest)) as made:
        assert made.engine is not None, made.error
        with pytest.raises(BadInputError, match=r"not records of fields .* give the whole `state`"):
            view_position(made.engine, [], changes={"cell[0]": 1})
        setup = _scenario('cites = ["1#1"]\n[setup]\nset = { control = "o" }\n')
        failure = run_scenario(made.engine, setup).failure
        assert failure is not None and failure.what == "setup"
        assert "not records of fields" in failure.actual


def test_a_setup_that_the_rules_end_is_refused_with_the_way_round(tmp_path: Path) -> None:
    # a full board without a line: the rules end it in a draw, but the end is tested
    # only after an action, so as a setup it would sit with no move and not over
    from rulebook2game.targets.base import compile_and_start

    game = tmp_path / "ttt"
    shutil.copytree(CORPORA_DIR / "tic_tac_toe", game, ignore=shutil.ignore_patterns("build"))
    text = (
        'cites = ["5"]\n\n[setup]\nset = { "board.cells" = [1, 2, 1, 1, 2, 2, 2, 1, 1] }\n\n'
        "[[expect]]\nterminal = true\n"
    )
    with compile_and_start(Workspace(game)) as made:
        assert made.engine is not None, made.error
        failure = run_scenario(made.engine, _scenario(text)).failure
    assert failure is not None and failure.what == "setup"
    assert "set it up one move earlier" in failure.actual
