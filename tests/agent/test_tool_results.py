"""What the compile and run_checks tools say: counts that match, every finding reachable."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.agent.dispatch import MAX_FINDINGS_SHOWN, ToolRunner
from rulebook2game.agent.pages import PageStore
from rulebook2game.agent.toolbox import CheckReport, CompileReport, Finding, Toolbox
from rulebook2game.llm.messages import ToolCall
from rulebook2game.workspace import Workspace
from tests.agent.fakes import FakeRulebook, page


@dataclass
class ManyFindings:
    """Six replay findings, numbered in their messages."""

    calls: int = 0

    def check(self, workspace: Workspace) -> CheckReport:
        self.calls += 1
        findings = tuple(Finding("replay", "illegal_action", f"finding {i}") for i in range(1, 7))
        return CheckReport(False, CompileReport(True), findings, "replay: 6 traces")


@dataclass
class OneError:
    def compile(self, workspace: Workspace) -> CompileReport:
        line = "pages/a.rl:3:1: error: No known value x"
        return CompileReport(False, (line,), "rlc stops at its first error")


def _runner(tmp_path: Path) -> tuple[ToolRunner, ManyFindings]:
    checker = ManyFindings()
    pages = PageStore(tmp_path / "pages", 20_000)
    runner = ToolRunner(Workspace(tmp_path), Toolbox(FakeRulebook(), OneError(), checker), pages)
    return runner, checker


def _call(runner: ToolRunner, name: str, args: dict[str, object]) -> str:
    return runner.run(ToolCall("c1", name, json.dumps(args))).content


def test_compile_counts_the_errors_it_shows(tmp_path: Path) -> None:
    runner, _ = _runner(tmp_path)
    text = _call(runner, "compile", {})
    assert "compile failed (1 error)" in text
    assert text.count("error:") == 1 and "(rlc stops at its first error)" in text


def test_every_finding_can_be_read(tmp_path: Path) -> None:
    runner, checker = _runner(tmp_path)
    runner.pages.write("a", page("a"))
    first = _call(runner, "run_checks", {})
    assert "The checks found 6 problems" in first
    assert [f"finding {i}" in first for i in range(1, 7)] == [
        i <= MAX_FINDINGS_SHOWN for i in range(1, 7)
    ]
    assert "3 more findings not shown" in first and '{"first": 4}' in first
    rest = _call(runner, "run_checks", {"first": 4})
    assert checker.calls == 1, "the checks do not run again for unchanged pages"
    assert all(f"finding {i}" in rest for i in (4, 5, 6)) and "finding 3" not in rest
    assert "## 4. replay" in rest and "more finding" not in rest
    runner.pages.write("a", page("a", "fun g() -> Int:\n    return 2\n"))
    _call(runner, "run_checks", {"first": 2})
    assert checker.calls == 2, "changed pages are checked again"


def test_optional_arguments_keep_their_type_in_the_tool_schemas() -> None:
    from rulebook2game.agent.tools import tool_specs

    specs = {spec.name: spec for spec in tool_specs()}
    setup = specs["write_scenario"].parameters["properties"]["setup"]
    assert setup["type"] == "object"  # a JSON object, not a string
    section = specs["read_rulebook"].parameters["properties"]["section_id"]
    assert section["type"] == "string"


def test_a_shown_position_keeps_the_indentation_of_its_first_line() -> None:
    from rulebook2game.agent.prompts import render
    from rulebook2game.check.position import PositionView

    board = "\n  a b\n1 x .\n2 . o\n\n"
    text = render("agent/position.md.j2", view=PositionView(3, 3, rendered=board, player=0))
    assert "```\n  a b\n1 x .\n2 . o\n```" in text  # column letters stay over their columns
