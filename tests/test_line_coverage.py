"""Page lines the checks executed: the coverage build, the lines stage, narrowed findings."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulebook2game.check.lines import (
    executed_by_checks,
    invariant_lines,
    line_ranges,
    page_cites,
    start_line_probe,
)
from rulebook2game.check.report import CheckReport
from rulebook2game.check.run import WITH_LINES, run_check
from rulebook2game.engine import CHANCE
from rulebook2game.targets.rl.coverage import executable_lines, instrument
from rulebook2game.targets.rulepage.sourcemap import Emitter, Origin
from rulebook2game.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent

PAGE = """# page: turn
# implements: 4.1, 4.2
import setup

cls Board:
    Int cells
    Bool done

    fun put(Int x):
        self.cells = x
        if x > 3:
            self.done = true
        else:
            self.done = false

@classes
act play() -> Game:
    frm b : Board
    while true:
        actions:
            act roll() { b.cells < 9 }
                b.put(b.cells + 1)
            act hold()
                # 4.2#3: holding ends the turn
                b.put(0)
                b.put(f(1,
                    2))

fun pretty_print(Game g):
    print("x")
"""


def test_probes_stand_before_statements_only() -> None:
    lines = executable_lines(PAGE)
    # fun body (10-14 less else), act play body, both action bodies; not the class
    # fields, not `else:`, not `actions:`'s children, not pretty_print, one probe for
    # a statement spread over two lines.
    assert lines == [10, 11, 12, 14, 18, 19, 20, 22, 25, 26]
    done = instrument(PAGE, 5)
    assert done.lines == tuple(lines)
    out = done.text.split("\n")
    assert out[out.index("        r2g_cov_hit(5)") + 1] == "        self.cells = x"
    assert "r2g_cov_hit" not in done.text.split("fun pretty_print")[1]


def test_a_line_cites_the_comment_above_it_else_the_header() -> None:
    cites = page_cites(PAGE)
    assert cites.of(22) == ("4.1", "4.2")
    assert cites.of(25) == ("4.2#3",)
    assert cites.of(26) == ("4.2#3",)
    assert line_ranges([3, 4, 5, 9, 11, 12]) == "3-5, 9, 11-12"


def _copy(src: Path, dst: Path, drop: tuple[str, ...] = ()) -> Workspace:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("build", "reports", *drop))
    return Workspace(dst)


def test_the_coverage_build_reports_the_lines_a_step_ran(tmp_path: Path) -> None:
    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig")
    probe = start_line_probe(ws, "rl", "pig")
    assert not isinstance(probe, str), probe
    with probe:
        engine = probe.engine
        state = engine.apply(engine.initial(), "roll()")
        assert engine.current_player(state) == CHANCE
        probe.take()
        engine.apply(state, "die(value=1)")
        ran = probe.take()
        turn = {n for f, n in ran if f == "pages/turn.rl"}
        # a 1 ends the turn: the lines of `if value.value == 1` ran, the else did not
        assert {24, 25, 26, 27} <= turn
        assert 29 not in turn
        assert probe.take() == set()


def test_a_build_without_probes_says_so(tmp_path: Path) -> None:
    from rulebook2game.errors import Rulebook2GameError
    from rulebook2game.targets.base import compile_and_start

    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig")
    with compile_and_start(ws) as made:
        assert made.engine is not None
        with pytest.raises(Rulebook2GameError, match="not a coverage build"):
            made.engine.probes_hit()  # type: ignore[attr-defined]


def _add_unreachable(ws: Workspace) -> None:
    """A line no game reaches, at end.rl:26 (every line of pig's pages runs: the returns
    of live states run score's not-finished branch too)."""
    page = ws.pages_dir / "end.rl"
    text = page.read_text(encoding="utf-8").rstrip("\n")
    assert len(text.split("\n")) == 23
    page.write_text(text + "\n\nfun never_called(Int x) -> Int:\n    return x + 1\n", "utf-8")


def _lines(report: CheckReport) -> dict[str, object]:
    stage = report.stage("lines")
    assert stage is not None and stage.status == "ok", stage
    return stage.stats


@pytest.mark.slow
def test_steered_walks_reach_the_move_limit(tmp_path: Path) -> None:
    # Without its golden traces, no check reaches pig's 1000-move limit; the steered
    # walks do. What stays unexecuted is one finding, per page, and the check is green.
    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig", ("traces", "scenarios"))
    _add_unreachable(ws)
    options = {"fuzz": 200, "oracle": 0}
    report = run_check(ws, WITH_LINES, options=options)
    stats = _lines(report)
    assert stats["unexecuted_by_checks"] > stats["unexecuted"]
    assert "21" not in str(stats["lines"])
    assert report.ok and not report.findings
    assert report.unexecuted is not None
    assert report.unexecuted.message.startswith(f"{stats['unexecuted']} page line(s)")
    assert report.unexecuted.pages[0].file == "pages/end.rl"


@pytest.mark.slow
def test_rulepage_lines_are_page_lines(tmp_path: Path) -> None:
    ws = _copy(ROOT / "corpora" / "rulepage" / "pig", tmp_path / "pig")
    report = run_check(ws, WITH_LINES, options={"fuzz": 100, "oracle": 0, "steer": 4})
    stats = _lines(report)
    assert int(str(stats["executable"])) > 10
    for file in dict(stats["lines"]):  # type: ignore[call-overload]
        assert file.endswith(".page")


def test_rbg_lines_are_the_rules_lines_that_ran(tmp_path: Path) -> None:
    # The rbg target's coverage build maps its probes to the .rbg lines they were
    # lowered from (a probe in glue, which only inherits a line, is left out): a mark
    # that wins runs the keeper's `{? three(mark)}` branch (line 11) and not
    # `{! three(mark)} ->opp` (line 12); any other mark runs line 12.
    ws = _copy(ROOT / "corpora" / "rbg" / "tic_tac_toe", tmp_path / "ttt")
    probe = start_line_probe(ws, "rbg", "tic_tac_toe")
    assert not isinstance(probe, str), probe
    with probe:
        # the rules' lines, not comments nor the board's declarations
        turn = [5, 7, 8, 9, 10, 11, 12, 13]
        assert probe.executable == {("pages/turn.rbg", n) for n in turn}
        engine = probe.engine
        state = engine.initial()
        for move in ("mark(row=0, col=0)", "mark(row=1, col=0)", "mark(row=0, col=1)"):
            state = engine.apply(state, move)
        state = engine.apply(state, "mark(row=1, col=1)")
        probe.take()
        engine.apply(state, "mark(row=2, col=2)")
        plain = {n for f, n in probe.take() if f == "pages/turn.rbg"}
        won = engine.apply(state, "mark(row=0, col=2)")
        winning = {n for f, n in probe.take() if f == "pages/turn.rbg"}
        assert engine.is_terminal(won)
        assert {11, 12} <= plain
        assert 11 in winning and 12 not in winning


def test_a_target_without_a_coverage_build_says_so(tmp_path: Path) -> None:
    ws = _copy(ROOT / "corpora" / "gdl" / "tic_tac_toe", tmp_path / "ttt")
    assert start_line_probe(ws, "gdl", "tic_tac_toe") == "the gdl target has no coverage build"


def test_a_line_the_target_writes_on_its_own_is_no_page_line() -> None:
    # Glue the lowering writes without an origin points near its page line in
    # messages, but line coverage does not count it as that line.
    out = Emitter(Origin("pages/a.page", 1))
    out.line("fun glue() -> Int:")
    out.line("fun f(State g) -> Int:", Origin("pages/a.page", 3))
    out.user("    return ", "g.x", "pages/a.page", 4, 12)
    out.line("fun g(State g) -> Int:")
    source_map = out.map()
    assert source_map.find(1) == ("pages/a.page", 1, 1)
    assert source_map.written(1) is None
    assert source_map.written(2) == ("pages/a.page", 3)
    assert source_map.written(3) == ("pages/a.page", 4)
    assert source_map.find(4, 5) == ("pages/a.page", 4, 5)
    assert source_map.written(4) is None


@pytest.mark.slow
def test_a_finding_names_only_the_pages_that_ran(tmp_path: Path) -> None:
    # A hold that banks nothing: the oracle finds different scores. Without line
    # coverage the finding named every page the actions and hooks touch.
    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig", ("traces", "scenarios"))
    turn = ws.pages_dir / "turn.rl"
    text = turn.read_text()
    old = "scores[current] = scores[current] + turn_total"
    turn.write_text(text.replace(old, "scores[current] = scores[current]"))
    options = {"fuzz": 50, "oracle": 20}
    report = run_check(ws, WITH_LINES[:5], options=options)
    wide = run_check(ws, WITH_LINES[:5], options={**options, "narrow": False})
    first, before = report.findings[0], wide.findings[0]
    assert first.kind == before.kind and first.counterexample == before.counterexample
    assert first.pages, first
    kept = {p.file for p in first.pages} | set(first.other_pages)
    assert {p.file for p in before.pages} <= kept
    assert "pages/turn.rl" in {p.file for p in first.pages}


def test_narrowing_drops_pages_that_did_not_run_and_adds_those_reached_first() -> None:
    from rulebook2game.check.findings import ORACLE_RETURNS, Finding, PageIndex, PageRef
    from rulebook2game.check.lines import narrowed
    from rulebook2game.check.report import finding_record

    finding = Finding(
        ORACLE_RETURNS,
        "oracle",
        "returns differ",
        pages=(
            PageRef("turn", "declares hold", 30, ("4.1",), "pages/turn.rl"),
            PageRef("walls", "defines score", 3, ("6",), "pages/walls.rl"),
        ),
    )
    steps = [
        {("pages/turn.rl", 19), ("pages/walls.rl", 4)},
        {("pages/turn.rl", 19), ("pages/walls.rl", 4)},
        {("pages/turn.rl", 19), ("pages/movement.rl", 12), ("pages/movement.rl", 13)},
    ]
    root = Path("/nonexistent")
    out = narrowed(finding, steps, 2, PageIndex([]), root)
    assert out.pages == finding.pages[:1]
    assert finding_record(out).other_pages == ["pages/walls.rl"]
    # none of the pages named ran at the step: the page of the lines that ran first there
    steps[2].discard(("pages/turn.rl", 19))
    out = narrowed(finding, steps, 2, PageIndex([]), root)
    assert [p.file for p in out.pages] == ["pages/movement.rl"]
    assert out.pages[0].role == "lines 12-13 first ran at step 2"
    assert finding_record(out).other_pages == ["pages/turn.rl", "pages/walls.rl"]
    # nothing ran at the step: the finding stays as it was
    assert narrowed(finding, steps, 5, PageIndex([]), root) == finding


def test_run_checks_shows_unexecuted_lines_as_a_finding_green_or_not() -> None:
    from rulebook2game.agent.prompts import render

    view = {
        "check": "lines",
        "kind": "unexecuted",
        "message": "2 page line(s) no check executed: pages/turn.rl 20-21",
        "trace": "",
        "pages": ["turn (lines 20-21 never ran)"],
        "cited": [{"cite": "5.2#1", "text": "The game ends after the 1000th move."}],
        "not_quoted": [],
        "position": "",
        "other": "",
        "other_pages": [],
        "other_cited": [],
    }
    base: dict[str, object] = {
        "summary": "",
        "compile_errors": [],
        "verdict": "",
        "assurance": "reference",
        "uncited": [],
        "uncited_more": 0,
        "examples": [],
        "examples_more": 0,
        "unexecuted": view,
    }
    green = render("agent/checks.md.j2", green=True, findings=[], more=0, **base)
    red = render("agent/checks.md.j2", green=False, findings=[view], more=0, **base)
    for text in (green, red):
        assert "## Page lines no check executed" in text
        assert "pages/turn.rl 20-21" in text
        assert "Rulebook 5.2#1: The game ends after the 1000th move." in text
        assert "[setup] state" in text
    plain = render(
        "agent/checks.md.j2", green=True, findings=[], more=0, **{**base, "unexecuted": None}
    )
    assert "no check executed" not in plain


NEAR_LIMIT = """description = "Two moves before the 1000-move limit"
cites = ["5.2#1"]

[setup]
state = "{resume_index: 1, scores: [0, 0], turn_total: 0, current: 0, moves: 998, throwing: false}"

[[expect]]
legal = ["roll()", "hold()"]
"""


@pytest.mark.slow
@pytest.mark.parametrize("setup", ["state", "set"])
def test_walks_from_a_scenario_setup_reach_what_walks_from_the_start_do_not(
    tmp_path: Path, setup: str
) -> None:
    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig", ("traces", "scenarios"))
    options = {"fuzz": 100, "oracle": 0, "steer_policies": "uniform", "steer": 12}
    bare = _lines(run_check(ws, WITH_LINES, options=options))
    assert "21" in str(bare["lines"]) and "38" in str(bare["lines"])
    (ws.root / "scenarios").mkdir()
    text = NEAR_LIMIT
    if setup == "set":  # the same position, as fields set on the opening
        text = re.sub(r"state = .*", "set = { moves = 998 }", text)
    (ws.root / "scenarios" / "near_limit.toml").write_text(text)
    report = run_check(ws, WITH_LINES, options=options)
    assert report.ok, report.findings
    steered = _lines(report)
    assert dict(steered["new_lines"]).get("uniform@setup:near_limit", 0) > 0  # type: ignore[call-overload]
    assert int(str(steered["unexecuted"])) < int(str(bare["unexecuted"]))


def test_a_kept_page_cites_only_what_its_lines_that_ran_cite(tmp_path: Path) -> None:
    from rulebook2game.check.findings import ORACLE_LEGAL, Finding, PageIndex, PageRef
    from rulebook2game.check.lines import narrowed

    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "turn.rl").write_text(PAGE)
    ref = PageRef("turn", "declares hold", 23, ("4.1", "4.2"), "pages/turn.rl")
    finding = Finding(ORACLE_LEGAL, "oracle", "legal actions differ", pages=(ref,))
    steps = [{("pages/turn.rl", 22)}, {("pages/turn.rl", 25), ("pages/turn.rl", 26)}]
    out = narrowed(finding, steps, 1, PageIndex([]), tmp_path)
    assert out.pages == (PageRef("turn", "declares hold", 23, ("4.2#3",), "pages/turn.rl"),)
    # a line under no sentence comment ran too: the page header's citations stay
    steps[1].add(("pages/turn.rl", 22))
    assert narrowed(finding, steps, 1, PageIndex([]), tmp_path).pages == (ref,)


@pytest.mark.slow
def test_check_lines_prints_and_reports_the_lines_and_stays_green(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from rulebook2game.cli import app

    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig")
    _add_unreachable(ws)
    args = ["check", str(ws.root), "--lines", "--fuzz", "100", "--oracle-runs", "0"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "1 page line(s) no check executed: pages/end.rl 26" in result.output
    markdown = (ws.root / "reports" / "check.md").read_text()
    assert "## Page lines no check executed" in markdown
    assert "`pages/end.rl`: lines 26 never ran" in markdown
    assert "or confirm it is unreachable" in markdown


def test_a_frontier_is_the_state_where_a_walk_first_ran_new_lines(tmp_path: Path) -> None:
    from rulebook2game.check.steer import _frontier

    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig")
    probe = start_line_probe(ws, "rl", "pig")
    assert not isinstance(probe, str), probe
    with probe:
        walk = ["roll()", "die(value=6)", "roll()", "die(value=1)", "hold()"]
        one = {("pages/turn.rl", 26), ("pages/turn.rl", 27)}  # a 1 loses the turn total
        state = _frontier(probe, "", walk, one)
        assert state is not None and "current: 1" in state and "turn_total: 0" in state
        assert "moves: 2" in state
        assert _frontier(probe, "", walk[:2], one) is None


def test_the_checks_ask_returns_of_a_live_game_so_its_not_finished_branch_runs(
    tmp_path: Path,
) -> None:
    # win.rl:12 is `return 0.0` of score() before the game ends: no finished game runs it
    ws = _copy(ROOT / "corpora" / "breakthrough", tmp_path / "bt", ("traces", "scenarios"))
    assert ws.pages_dir.joinpath("win.rl").read_text().split("\n")[11].strip() == "return 0.0"
    probe = start_line_probe(ws, "rl", "breakthrough")
    assert not isinstance(probe, str), probe
    with probe:
        ran = executed_by_checks(probe, ws, seed=0, fuzz=4, max_steps=300, batch_timeout=30.0)
    assert ("pages/win.rl", 12) in ran


@pytest.mark.slow
def test_a_precondition_s_refusals_run_when_the_fuzz_stage_tests_the_whole_table(
    tmp_path: Path,
) -> None:
    # The game lists candidate moves (its own pieces' forward squares), so no legal-move
    # query ever tests a square it does not hold (turn.rl:12) or a file two away
    # (turn.rl:20); the fuzz stage's comparison with the whole table's test does.
    ws = _copy(ROOT / "tests" / "data" / "games" / "breakthrough_candidates", tmp_path / "bt")
    turn = ws.pages_dir.joinpath("turn.rl").read_text().split("\n")
    assert turn[11].strip() == turn[19].strip() == "return false"
    probe = start_line_probe(ws, "rl", "breakthrough_candidates")
    assert not isinstance(probe, str), probe
    with probe:
        ran = executed_by_checks(probe, ws, seed=0, fuzz=4, max_steps=300, batch_timeout=30.0)
    assert {("pages/turn.rl", 12), ("pages/turn.rl", 20)} <= ran


def test_an_invariants_functions_and_their_helpers_are_its_lines(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "rules.rl").write_text(
        "fun scores_in_range(Game g) -> Bool:\n"  # 1: the invariant
        "    if !in_range(g.scores[0]):\n"
        "        return false\n"
        "    return true\n"
        "\n"
        "fun in_range(Int s) -> Bool:\n"  # 6: only the invariant calls it
        "    return s >= 0\n"
        "\n"
        "fun bank(Game g) -> Int:\n"  # 9: a rule, also used by the invariant below
        "    return g.turn_total\n"
    )
    (pages / "check.page").write_text(
        "# page: check\n"
        "code:\n"
        "    fun banked(Game game) -> Bool:\n"  # 3: a second invariant, on a RulePage page
        "        return bank(game) >= 0\n"
        "\n"
        "on hold():\n"
        "    g.score = bank(g)\n"  # bank is a rule: a clause calls it
    )
    found = invariant_lines(tmp_path, sorted(pages.iterdir()), ["scores_in_range", "banked"])
    assert found == {
        *(("pages/rules.rl", n) for n in (1, 2, 3, 4, 6, 7)),
        ("pages/check.page", 3),
        ("pages/check.page", 4),
    }
    assert invariant_lines(tmp_path, sorted(pages.iterdir()), []) == set()


@pytest.mark.slow
def test_an_invariants_failure_branch_is_not_an_unexecuted_line(tmp_path: Path) -> None:
    ws = _copy(ROOT / "corpora" / "pig", tmp_path / "pig")
    _add_unreachable(ws)
    page = ws.pages_dir / "end.rl"
    page.write_text(
        page.read_text()
        + "\nfun totals_fit(Game g) -> Bool:\n"
        + "    if !fits(g.turn_total):\n        return false\n    return true\n"
        + "\nfun fits(Int total) -> Bool:\n    return total >= 0\n"
    )
    toml = ws.root / "game.toml"
    toml.write_text(
        toml.read_text() + '\n[[invariants]]\nname = "totals_fit"\nkind = "fun"\n'
        'fun = "totals_fit"\n'
    )
    report = run_check(ws, WITH_LINES, options={"fuzz": 100, "oracle": 0, "steer": 4})
    stats = _lines(report)
    assert stats["lines"] == {"pages/end.rl": "26"}, stats["lines"]
