"""Citations checked at compile time: an unknown id is a compile error with page and line."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook2game.check.citations import check_pages, header_citations
from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.diff.rules import RuleText, Sentence
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace

TEXT = RuleText(
    "rules.md",
    {"1": "Setup", "2": "Play", "2.1": "Moving"},
    (
        Sentence("1#1", "1", "paragraph", "Each player takes a colour."),
        Sentence("2.1#1", "2.1", "paragraph", "Move one piece."),
        Sentence("2.1#2", "2.1", "paragraph", "Capture by jumping."),
    ),
)


def test_header_citations_carry_their_line() -> None:
    source = "# page: moving\n#\n# implements: 2.1#1, 2.1#9\n# cites: 7\nact move() {}\n"
    assert header_citations(source) == [(3, "2.1#1"), (3, "2.1#9")]


def test_unknown_ids_are_reported_with_page_line_and_a_hint(tmp_path: Path) -> None:
    good = tmp_path / "setup.rl"
    good.write_text("# page: setup\n# implements: 1, 2\n")
    bad = tmp_path / "moving.rl"
    bad.write_text("# page: moving\n# implements: 2.1#2, 2.1#9, 9.9#9\n")
    found = check_pages(TEXT, [good, bad])
    assert [(u.page, u.line, u.cite) for u in found] == [
        ("moving", 2, "2.1#9"),
        ("moving", 2, "9.9#9"),
    ]
    assert "2.1#1 to 2.1#2" in str(found[0])
    assert str(found[1]).startswith("pages/moving.rl:2: error: unknown citation 9.9#9")


def test_check_fails_at_compile_on_an_unknown_citation(tmp_path: Path) -> None:
    root = tmp_path / "ttt"
    shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", root, ignore=shutil.ignore_patterns("build", "reports")
    )
    page = root / "pages" / "win.rl"
    lines = page.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("# implements:"))
    lines[number] += ", 9.9#9"
    page.write_text("\n".join(lines) + "\n")
    report = run_check(open_workspace(root), ALL_STAGES, options={"fuzz": 0, "oracle": 0})
    compile_stage = report.stage("compile")
    assert compile_stage is not None and compile_stage.status == "failed"
    (finding,) = report.findings
    assert finding.kind == "compile_error" and "9.9#9" in finding.message
    assert finding.location == f"win.rl:{number + 1}"
    assert finding.pages[0].page == "win" and finding.pages[0].line == number + 1
    assert all(s.status == "skipped" for s in report.stages[1:])


def test_a_page_that_ends_the_game_must_cite_an_end_of_game_rule(tmp_path: Path) -> None:
    text = RuleText(
        "rules.md",
        {"4": "Play", "4.1": "Turn order", "5": "End of the game", "6": "Scoring"},
        (
            Sentence("4.1#1", "4.1", "paragraph", "Players alternate."),
            Sentence("5#1", "5", "paragraph", "The game ends at once on a line."),
            Sentence("6#1", "6", "paragraph", "The winner scores 1."),
        ),
    )
    play = "act play() -> Game:\n    while true:\n        act mark()\n"
    play += "        if done():\n            return\n"
    turn = tmp_path / "turn.rl"
    turn.write_text("# page: turn\n# implements: 4.1\n" + play)  # the old tic-tac-toe header
    (problem,) = check_pages(text, [turn])
    assert str(problem).startswith("pages/turn.rl:2: error: this page ends or scores the game")
    assert "5 End of the game" in str(problem)
    turn.write_text("# page: turn\n# implements: 4.1, 5#1\n" + play)
    score = tmp_path / "win.rl"
    score.write_text("# page: win\n# implements: 6\nfun score(Game g, Int p) -> Float:\n")
    helper = tmp_path / "board.rl"
    helper.write_text("# page: board\n# implements: 4.1\nfun set(Int x):\n    return\n")
    assert check_pages(text, [turn, score, helper]) == []
    page = tmp_path / "end.page"
    page.write_text("# page: end\n# implements: 4.1\nend when g.over\n")
    (problem,) = check_pages(text, [page])
    assert problem.location == "end.page:2"
