"""The agent's scenario and position tools, and what ``finish`` requires and records."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.agent import AgentSettings, PromptContext, RunLog, run_translation
from rulebook2game.agent.dispatch import ToolRunner
from rulebook2game.agent.pages import PageStore
from rulebook2game.cli import app
from rulebook2game.extract import extract_rulebook, write_rulebook
from rulebook2game.llm.messages import ToolCall
from rulebook2game.llm.model import ScriptedModel
from rulebook2game.llm.usage import Budget
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import Workspace

from .fakes import fake_toolbox, page, reply

RULES = """\
# Columns

## 1 Play

Players alternate, dropping a disc into a column.

## 2 Winning

A player who fills a column wins. For example, three discs in column 0 win the game.
"""

CONTEXT = PromptContext(game="Columns", players=2, target="rl", reference="(notes)", toc="1 Play")


def _workspace(tmp_path: Path) -> Workspace:
    ws = Workspace(tmp_path / "game")
    ws.root.mkdir()
    (ws.root / "rules.md").write_text(RULES)
    return ws


def _call(runner: ToolRunner, name: str, args: dict[str, object]) -> tuple[str, str]:
    outcome = runner.run(ToolCall("c", name, json.dumps(args)))
    return outcome.effect, outcome.content


SCENARIO = {
    "name": "fill_column",
    "cites": ["2#2"],
    "description": "three discs in column 0 win",
    "actions": ["drop(col=0)", "drop(col=1)", "drop(col=0)", "drop(col=1)", "drop(col=0)"],
    "expect": [{"after": 1, "player": 1}, {"terminal": True, "returns": [1.0, -1.0]}],
}


def test_write_list_delete_scenarios(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    runner = ToolRunner(ws, fake_toolbox(), PageStore(ws.pages_dir))
    effect, text = _call(runner, "list_scenarios", {})
    assert "No scenarios yet" in text and "2#2: For example" in text
    effect, text = _call(runner, "write_scenario", SCENARIO)
    assert effect == "page_changed", text
    assert "created scenarios/fill_column.toml (5 actions, 2 expectations" in text
    assert "Examples covered by scenarios: 1/1" in text
    data = tomllib.loads((ws.root / "scenarios" / "fill_column.toml").read_text())
    assert data["expect"][1] == {"terminal": True, "returns": [1.0, -1.0]}
    effect, text = _call(runner, "list_scenarios", {})
    assert text.startswith("fill_column: cites 2#2; 5 actions, 2 expectations")
    effect, text = _call(runner, "write_scenario", {**SCENARIO, "actions": ["drop(col="]})
    assert effect == "retry" and "not a canonical action text" in text
    effect, text = _call(runner, "write_scenario", {**SCENARIO, "name": "../x"})
    assert effect == "retry" and "not a valid scenario name" in text
    effect, text = _call(runner, "delete_scenario", {"name": "nope"})
    assert effect == "retry" and "fill_column" in text
    effect, text = _call(runner, "delete_scenario", {"name": "fill_column"})
    assert effect == "page_changed" and not (ws.root / "scenarios" / "fill_column.toml").exists()


def test_finish_is_refused_once_without_scenarios_and_records_ambiguities(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    runner = ToolRunner(ws, fake_toolbox(), PageStore(ws.pages_dir))
    effect, text = _call(runner, "finish", {"summary": "done"})
    assert effect == "retry" and "2#2: For example, three discs" in text
    ambiguity = {"sentences": ["2#1"], "reading": "a full column of 3", "why": "no height given"}
    effect, text = _call(runner, "finish", {"summary": "done", "ambiguities": [ambiguity]})
    assert effect == "finish" and "1 resolved ambiguity" in text
    notes = json.loads((ws.reports_dir / "finish.json").read_text())
    assert notes == {"summary": "done", "ambiguities": [ambiguity]}
    # no mutant run: the result says the evidence never met a wrong edit
    assert "No mutant run" in text and "run_mutants" in text


def test_finish_reports_the_last_mutant_run(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    runner = ToolRunner(ws, fake_toolbox(), PageStore(ws.pages_dir))
    ws.reports_dir.mkdir(parents=True, exist_ok=True)
    counts = {"enumerated": 120, "run": 40, "killed": 35, "survived": 4, "equivalent": 1}
    (ws.reports_dir / "mutants.json").write_text(json.dumps({"game": "g", **counts}))
    _call(runner, "finish", {"summary": "done"})  # refused once: examples lack scenarios
    effect, text = _call(runner, "finish", {"summary": "done"})
    assert effect == "finish" and "No mutant run" not in text
    assert "35 killed, 4 survived, 1 reviewed equivalent, of 40 run (120 mutants" in text
    assert "a sample" in text  # 40 of 120: every mutant tests all the evidence


def test_the_loop_refuses_finish_once_when_examples_lack_scenarios(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    script = [
        reply(("write_page", {"name": "board", "content": page("board")})),
        reply(("run_checks", {})),
        reply(("finish", {"summary": "early"})),
        reply(("write_scenario", SCENARIO)),
        reply(("run_checks", {})),
        reply(("finish", {"summary": "with scenarios"})),
    ]
    log = RunLog.open(ws.runs_dir / "r1")
    state = run_translation(
        ws,
        fake_toolbox(),
        ScriptedModel(script),
        AgentSettings("m", Budget(max_turns=10)),
        log,
        CONTEXT,
    )
    assert state.status == "finished" and state.summary == "with scenarios"
    results = [e for e in log.events if e["event"] == "tool_result"]
    assert [r["outcome"]["effect"] for r in results if r["name"] == "finish"] == [
        "retry",
        "finish",
    ]


@pytest.fixture
def ttt(tmp_path: Path) -> Path:
    root = tmp_path / "ttt"
    shutil.copytree(CORPORA_DIR / "tic_tac_toe", root, ignore=shutil.ignore_patterns("build"))
    write_rulebook(extract_rulebook(root / "rules.pdf"), root / "rulebook.json")
    return root


def _tool(game: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["tool", str(game), *args])
    return result.exit_code, result.output


def test_show_position_from_the_command_line(ttt: Path) -> None:
    code, text = _tool(
        ttt, "show_position", '{"actions": ["mark(row=1, col=1)", "mark(row=0, col=0)"]}'
    )
    assert code == 0, text
    assert text.startswith("After 2 actions:")
    assert "Player 0 moves. Legal: " in text and "mark(row=1, col=1)" not in text.split("Legal:")[1]
    code, text = _tool(
        ttt, "show_position", '{"actions": ["mark(row=1, col=1)", "mark(row=1, col=1)"]}'
    )
    assert code == 0 and text.startswith("Stopped: action 1 (mark(row=1, col=1)) is not legal")
    code, text = _tool(ttt, "show_position", '{"actions": "mark(row=1, col=1)"}')
    assert code == 2


def test_show_position_sets_fields_of_the_position_reached(ttt: Path) -> None:
    args = {"actions": ["mark(row=1, col=1)"], "set": {"board.cells[0]": 2, "current": 0}}
    code, text = _tool(ttt, "show_position", json.dumps(args))
    assert code == 0, text
    assert text.startswith("After 1 action, with board.cells[0], current set:")
    assert "o..\n.x.\n..." in text  # the rendered position, with the nought placed
    assert "Player 0 moves. Legal: mark(row=0, col=1)" in text
    assert "cells: [2, 0, 0, 0, 1, 0, 0, 0, 0]}, current: 0" in text  # the state to paste
    for bad, said in [
        ({"board.cells[9]": 2}, "index 9 is out of range; board.cells has 9 item(s) (0..8)"),
        ({"board.cell[0]": 2}, "board has no field 'cell'; its fields: cells"),
        ({"current": True}, "set 'current': true does not fit; it holds an int (0)"),
    ]:
        code, text = _tool(ttt, "show_position", json.dumps({"set": bad}))
        assert code == 2 and said in text and "Traceback" not in text, text
    scenario = {
        "name": "corner_taken",
        "cites": ["4.1#1"],
        "expect": [{"forbidden": ["mark(row=0, col=0)"]}],
        "setup": {"set": {"board.cells[0]": 2}},
    }
    code, text = _tool(ttt, "write_scenario", json.dumps(scenario))
    assert code == 0, text
    data = tomllib.loads((ttt / "scenarios" / "corner_taken.toml").read_text())
    assert data["setup"] == {"set": {"board.cells[0]": 2}}
    code, text = _tool(ttt, "write_scenario", json.dumps({**scenario, "setup": {"set": {"b[": 1}}}))
    assert code == 2 and "dots and indices in brackets" in text


def _checks_text(**fields: object) -> str:
    from rulebook2game.agent.prompts import render

    base: dict[str, object] = {
        "green": True,
        "summary": "fuzz ok",
        "compile_errors": [],
        "findings": [],
        "more": 0,
        "verdict": "",
        "assurance": "",
        "uncited": [],
        "uncited_more": 0,
        "examples": [],
        "examples_more": 0,
    }
    return render("agent/checks.md.j2", **{**base, **fields})


def test_a_fuzz_only_green_never_says_call_finish() -> None:
    fuzz_only = _checks_text(verdict="PASS — fuzz only: no reference engine", assurance="fuzz_only")
    assert "Call `finish`" not in fuzz_only and "Only fuzzing ran" in fuzz_only
    missing = _checks_text(assurance="reference", examples=[("2#2", "For example, ...")])
    assert "Call `finish`" not in missing and "2#2: For example" in missing
    verified = _checks_text(assurance="reference", uncited=[("1#1", "Players alternate.")])
    assert "Call `finish`" in verified and "1#1: Players alternate." in verified


def test_a_failed_scenario_says_the_scenario_may_be_the_wrong_side() -> None:
    # A trial translator's scenario stepped a hound backwards; the advice told it to fix
    # the pages, which were right.
    def finding(check: str) -> dict[str, object]:
        fields = ("trace", "position", "not_quoted", "other", "other_pages", "other_cited")
        return {"check": check, "kind": "scenario", "message": "m", "cited": [], "pages": []} | {
            f: "" for f in fields
        }

    scenario = _checks_text(green=False, findings=[finding("scenarios")], total=1)
    assert "fix the scenario (write_scenario), not the pages" in scenario
    fuzz = _checks_text(green=False, findings=[finding("fuzz")], total=1)
    assert "fix the pages (write_page)" in fuzz and "fix the scenario" not in fuzz


def test_the_briefs_document_scenarios_traces_and_seats() -> None:
    from rulebook2game.agent.prompts import PromptContext as Context
    from rulebook2game.agent.prompts import render

    context = Context(game="Pig", players=2, target="rl", reference="(notes)", toc="1 Play")
    for template in ("AGENTS.md.j2", "agent/system.md.j2"):
        text = render(template, **context.as_dict())
        assert "write_scenario" in text and "[[expect]]" in text
        assert "rulebook2game-trace/1" in text and "**Seats.**" in text
        assert "before writing any page" in text.lower()
        assert '[setup] set = { "fox" = 40' in text and '"set": {' in text


def test_finish_asks_who_translated_the_second_opinion(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    game = 'name = "columns"\nplayers = 2\nsecond_opinion = "second"\n'
    (ws.root / "game.toml").write_text(game)
    runner = ToolRunner(ws, fake_toolbox(), PageStore(ws.pages_dir))
    _call(runner, "finish", {"summary": "done"})  # refused once: no scenario
    effect, text = _call(runner, "finish", {"summary": "done"})
    assert effect == "finish" and "should say who translated it" in text
    (ws.root / "game.toml").write_text('name = "columns"\nplayers = 2\n')
    effect, text = _call(runner, "finish", {"summary": "done"})
    assert effect == "finish" and "who translated" not in text


def test_the_briefs_say_how_each_target_writes_a_rule_invariant() -> None:
    # a RulePage trial translator had to guess that an invariant takes the whole game and
    # reads the pages' state as `.g` (the RulePage notes say functions take `State g`)
    from rulebook2game.agent.prompts import PromptContext as Context
    from rulebook2game.agent.prompts import render

    for target, want in (("rl", "`fun NAME(Game g) -> Bool`"), ("rulepage", "`game.g`")):
        context = Context(game="Pig", players=2, target=target, reference="(notes)", toc="1")
        for template in ("AGENTS.md.j2", "agent/system.md.j2"):
            text = render(template, **context.as_dict())
            assert want in text, (target, template)
            assert ("fun NAME(Game game) -> Bool" in text) == (target == "rulepage")
    rulepage = _checks_text(unexecuted=_unexecuted_view(), target="rulepage")
    assert "`returns(p)` itself is asked only of a finished game" in rulepage
    rl = _checks_text(unexecuted=_unexecuted_view(), target="rl")
    assert "finished or not)" in rl and "`returns(p)`" not in rl


def _unexecuted_view() -> dict[str, object]:
    return {
        "message": "1 page line(s) no check executed: pages/end.page 33",
        "cited": [],
        "not_quoted": [],
    }
