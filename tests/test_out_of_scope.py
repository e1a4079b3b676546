"""Rule sentences declared out of scope (``scope.toml``): counted apart by the one coverage
count, shown by check.md, run_checks, eval and diff, and an unknown id is a compile error
at the file's line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.check.citations import unknown_citations
from rulebook2game.check.scope import SCOPE_FILE, add_out_of_scope, read_scope
from rulebook2game.check.sentences import coverage, coverage_of
from rulebook2game.cli import app
from rulebook2game.diff import DiffOptions, diff_games
from rulebook2game.diff.render import render_markdown as render_diff
from rulebook2game.diff.rules import RuleText, Sentence
from rulebook2game.errors import BadWorkspaceError
from rulebook2game.evals.metrics import coverage as eval_coverage
from rulebook2game.evals.render import _game_section
from rulebook2game.evals.report import GameRecord
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace

TEXT = RuleText(
    "rules.md",
    {"1": "Play", "7": "Tournament", "7.1": "Rounds"},
    (
        Sentence("1#1", "1", "paragraph", "Roll the die."),
        Sentence("1#2", "1", "paragraph", "For example, a 3 adds 3 to the turn total."),
        Sentence("7.1#1", "7.1", "paragraph", "A tournament is five games."),
        Sentence("7.1#2", "7.1", "paragraph", "The best total over five games wins."),
        Sentence("7.1#3", "7.1", "paragraph", "For example, 300 beats 280."),
    ),
)


def test_out_of_scope_sentences_are_neither_cited_nor_uncited() -> None:
    reasons = {"7.1#1": "one game only", "7.1#2": "one game only", "7.1#3": "one game only"}
    # a page cites the whole of section 7 as well: the declaration still wins
    cov = coverage(TEXT, pages=["1#1", "7"], scenarios=[], out_of_scope=reasons)
    assert (cov.rules, cov.rules_cited, cov.uncited) == (3, 1, [])
    assert (cov.rules_out_of_scope, cov.examples_out_of_scope) == (2, 1)
    assert cov.uncovered_examples == ["1#2"]
    assert cov.out_of_scope == reasons and cov.texts["7.1#2"].startswith("The best total")
    assert cov.rules_phrase() == "3 rule sentences, 1 cited by pages, 2 out of scope with reasons"
    plain = coverage(TEXT, pages=["1#1"], scenarios=[])
    assert plain.uncited == ["7.1#1", "7.1#2"] and plain.out_of_scope == {}
    assert plain.rules_phrase() == "3 rule sentences, 1 cited by pages"


def _ttt(tmp_path: Path) -> Path:
    game = tmp_path / "ttt"
    shutil.copytree(CORPORA_DIR / "tic_tac_toe", game, ignore=shutil.ignore_patterns("build"))
    return game


def test_an_unknown_or_malformed_declaration_is_a_compile_error_at_its_line(
    tmp_path: Path,
) -> None:
    game = _ttt(tmp_path)
    add_out_of_scope(game, ["1#1", "1#2"], "the overview restates the rules")
    add_out_of_scope(game, ["6", "9#4"], "typo")
    declared = read_scope(game)
    assert [d.sentences for d in declared] == [("1#1", "1#2"), ("6", "9#4")]
    lines = (game / SCOPE_FILE).read_text().splitlines()
    assert '"9#4"' in lines[declared[1].lines[1] - 1]
    errors = [str(e) for e in unknown_citations(game, game / "pages")]
    assert errors == [
        f"scope.toml:{declared[1].lines[1]}: error: unknown out-of-scope sentence 9#4: "
        "the rulebook has no such section or sentence (no such section)"
    ]
    code = CliRunner().invoke(app, ["tool", str(game), "compile"])
    assert code.exit_code == 1 and errors[0] in code.output
    (game / SCOPE_FILE).write_text('[[out_of_scope]]\nsentences = ["1#1"]\n')
    with pytest.raises(BadWorkspaceError, match=r"scope\.toml: not a valid list"):
        read_scope(game)
    assert [str(e) for e in unknown_citations(game, game / "pages")] == [
        "scope.toml:1: error: not a valid list of out-of-scope sentences (1 validation error "
        "for _Entry)"
    ]


def test_the_tool_check_eval_and_diff_show_what_is_out_of_scope(tmp_path: Path) -> None:
    game = _ttt(tmp_path)
    before = tmp_path / "before"
    shutil.copytree(game, before)
    runner = CliRunner()
    # the pages cite section 2 whole; its first two sentences are paper, not rules to run
    args = {"sentences": ["2#1", "2#2"], "why": "paper and pen: the engine holds the board"}
    marked = runner.invoke(app, ["tool", str(game), "mark_out_of_scope", json.dumps(args)])
    assert marked.exit_code == 0, marked.output
    assert "2#1, 2#2 (2 sentences) declared out of scope in scope.toml" in marked.output
    unknown = runner.invoke(
        app, ["tool", str(game), "mark_out_of_scope", '{"sentences": ["9#9"], "why": "w"}']
    )
    assert unknown.exit_code == 2 and "no sentence or section 9#9" in unknown.output
    no_why = runner.invoke(app, ["tool", str(game), "mark_out_of_scope", '{"sentences": ["3"]}'])
    assert no_why.exit_code == 2 and "Say `why`" in no_why.output
    assert [d.sentences for d in read_scope(game)] == [("2#1", "2#2")]

    checks = runner.invoke(app, ["tool", str(game), "run_checks"])
    assert checks.exit_code == 0, checks.output
    assert "Coverage: 16 rule sentences, 14 cited by pages, 2 out of scope with reasons" in (
        checks.output
    )
    assert f"Out of scope (scope.toml): 2#1 ({args['why']}); 2#2 (" in checks.output
    assert "Rule sentences no page cites" not in checks.output
    report = json.loads((game / "reports" / "check.json").read_text())
    assert report["sentences"]["uncited"] == []
    assert report["sentences"]["out_of_scope"]["2#2"] == args["why"]
    md = (game / "reports" / "check.md").read_text()
    assert "- rule sentences cited by pages: 14/16" in md
    assert "- rule sentences out of scope (`scope.toml`): 2" in md
    assert "- 2#1: A grid of nine squares" in md and args["why"] in md

    ws = open_workspace(game)
    evaluated = eval_coverage(ws)
    checked = coverage_of(game, ws.pages_dir)
    assert evaluated is not None and checked is not None
    assert evaluated.uncited == checked.uncited == []
    assert (evaluated.sentences.num, evaluated.sentences.den) == (14, 16)
    assert evaluated.out_of_scope == checked.out_of_scope
    record = GameRecord(game="ttt", path="ttt", compiles=True, coverage=evaluated)
    assert any(
        "out of scope, with reasons (scope.toml): 2#1 (" in li for li in _game_section(record)
    )

    diff = diff_games(str(before), str(game), DiffOptions(behaviour=False))
    assert diff.changed and not diff.pages
    text = render_diff(diff)
    assert "## Out of scope (2 changed, scope.toml)" in text
    assert f'- added 2#1: "{args["why"]}"' in text
    removed = runner.invoke(
        app, ["tool", str(game), "mark_out_of_scope", '{"sentences": ["2#2"], "remove": true}']
    )
    assert removed.exit_code == 0 and "2#2 no longer out of scope" in removed.output
    assert [d.sentences for d in read_scope(game)] == [("2#1",)]


def test_the_review_page_counts_out_of_scope_sentences_apart(tmp_path: Path) -> None:
    from rulebook2game.serve.review import build_review

    game = _ttt(tmp_path)
    before = build_review(open_workspace(game))
    add_out_of_scope(game, ["1#1"], "the overview restates sections 4 to 6")
    after = build_review(open_workspace(game))
    assert after.rule_count == before.rule_count
    assert after.uncited_count == before.uncited_count - 1 and after.out_of_scope_count == 1
    assert after.cited_count == before.cited_count
    (sentence,) = [x for s in after.sections for x in s.sentences if x.id == "1#1"]
    assert not sentence.uncited and sentence.out_of_scope.startswith("the overview")
