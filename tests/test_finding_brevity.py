"""Findings a translator can act on: the position at the difference, short, the rest named."""

from __future__ import annotations

from pathlib import Path

from rulebook2game.agent.backends import convert_finding
from rulebook2game.agent.dispatch import MAX_CITES_QUOTED, ToolRunner
from rulebook2game.agent.pages import PageStore
from rulebook2game.agent.prompts import render
from rulebook2game.check.report import render_markdown
from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.workspace import open_workspace
from tests.test_check_mistranslations import CASES, _mutated_game

OPTIONS = {"fuzz": 0, "oracle": 0}


class _NoRulebook:
    def toc_text(self) -> str:
        return ""

    def section_text(self, section_id: str) -> str:
        raise KeyError(section_id)


def test_a_long_replay_difference_is_shown_short_with_its_position(tmp_path: Path) -> None:
    case = next(c for c in CASES if str(c) == "pig-extra")  # roll offered at 100 points
    ws = open_workspace(_mutated_game(tmp_path, case))
    report = run_check(ws, ALL_STAGES, options=OPTIONS)
    finding = report.findings[0]
    # long enough that the agent sees only its first and last steps
    assert finding.counterexample is not None and len(finding.counterexample) > 40
    assert finding.position and "scores:" in finding.position

    toolbox = type("T", (), {"rulebook": _NoRulebook()})()
    runner = ToolRunner(ws, toolbox, PageStore(ws.pages_dir))  # type: ignore[arg-type]
    view = runner._finding_view(convert_finding(finding))
    text = render(
        "agent/checks.md.j2",
        green=False,
        summary="",
        compile_errors=[],
        findings=[view],
        more=0,
        uncited=[],
        uncited_more=0,
    )
    assert "Position where it shows:" in text and "steps not shown" in text
    assert len(view["cited"]) <= MAX_CITES_QUOTED
    assert len(text) < 2500, text  # was 6552 characters before positions and caps

    markdown = render_markdown(report)
    assert "Position where it shows:" in markdown and "steps not shown" in markdown
