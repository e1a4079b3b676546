"""Mutant runs a translator can use: reviews in the game directory, columns, new
operators, every survivor reported, the CLI and the agent's tools."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.agent.mutant_tools import mutants_result
from rulebook2game.agent.prompts import render
from rulebook2game.cli import app
from rulebook2game.errors import WorkspaceError
from rulebook2game.evals.equivalents import GAME_REVIEW, ReviewEntry, add_review, load_reviews
from rulebook2game.evals.mutant_report import render_mutants_markdown, write_mutant_report
from rulebook2game.evals.mutants import (
    EQUIVALENT,
    KILLED,
    SURVIVED,
    MutantOutcome,
    MutantRun,
    Profile,
    read_mutant_run,
    run_mutants,
    select_mutants,
)
from rulebook2game.evals.render import _game_section
from rulebook2game.evals.report import GameRecord, MutantRecord, Ratio
from rulebook2game.mutate import Mutant, enumerate_mutants, page_mutants
from rulebook2game.resources import CORPORA_DIR

PAGE = """# page: turn
# implements: 4.1
@classes
act play() -> Game:
    frm current = 0
    frm moves = 0
    while true:
        act mark(BInt<0, 3> row, BInt<1, ROWS> col) { row.value != col.value }
        moves = moves + 1
        if moves == 9:
            return
        current = 1 - current

fun get_current_player(Game g) -> Int:
    if g.is_done():
        return -4
    return g.current
"""


def test_widen_range_widens_literal_bounds_and_comes_before_off_by_one() -> None:
    found = {m.description: m for m in page_mutants("turn", PAGE, ["widen_range"])}
    # a lower bound of 0 and a named bound (ROWS) cannot be widened in rl's type syntax
    assert set(found) == {
        "`BInt<0, 3>` → `BInt<0, 4>` (upper bound widened)",
        "`BInt<1, ROWS>` → `BInt<0, ROWS>` (lower bound widened)",
    }
    m = found["`BInt<1, ROWS>` → `BInt<0, ROWS>` (lower bound widened)"]
    line = m.source.split("\n")[7]
    assert line == "        act mark(BInt<0, 3> row, BInt<0, ROWS> col) { row.value != col.value }"
    # the column is the first changed character: the `1` of `BInt<1`
    assert m.line == 8 and m.column == PAGE.split("\n")[7].index("BInt<1") + 6
    # off_by_one would make the same edits: with every operator they count as wider ranges
    every = enumerate_mutants({"turn": PAGE})
    same = [
        x
        for x in every
        if x.source == found["`BInt<0, 3>` → `BInt<0, 4>` (upper bound widened)"].source
    ]
    assert [x.operator for x in same] == ["widen_range"]


def test_terminal_player_swaps_the_seat_before_the_game_ends() -> None:
    (m,) = page_mutants("turn", PAGE, ["terminal_player"])
    lines = m.source.split("\n")
    assert lines[9:12] == [
        "        if moves == 9:",
        "            current = 1 - current",
        "            return",
    ]
    assert m.line == 11 and m.before == "return"
    # no seat field known (no get_current_player on the page): no mutant
    assert page_mutants("p", PAGE.split("fun get_current_player")[0], ["terminal_player"]) == []


def test_every_mutant_has_the_column_of_its_change() -> None:
    for m in enumerate_mutants({"turn": PAGE}):
        assert m.column >= 1, m.id
        old = PAGE.split("\n")[m.line - 1]
        new = m.source.split("\n")[m.line - 1]
        assert old[: m.column - 1] == new[: m.column - 1], m.id
        assert m.where == f"turn:{m.line}:{m.column}"
    flip = next(
        m for m in page_mutants("turn", PAGE, ["cmp_flip"]) if m.description.startswith("`==")
    )
    assert PAGE.split("\n")[flip.line - 1][flip.column - 1 : flip.column + 1] == "=="


def _ttt(tmp_path: Path) -> Path:
    dest = tmp_path / "ttt"
    shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", dest, ignore=shutil.ignore_patterns("build", "reports")
    )
    return dest


def test_reviews_in_the_game_directory_survive_moved_lines(tmp_path: Path) -> None:
    game = _ttt(tmp_path)
    mutants, _ = select_mutants(game, None, 0)
    target = next(m for m in mutants if m.operator == "cmp_flip")
    twin = [
        m
        for m in mutants
        if m.page == target.page and m.before == target.before and m.id != target.id
    ]
    entry = ReviewEntry(
        page=target.page,
        before=target.before,
        change=target.description,
        column=target.column,
        why="nothing observable",
    )
    path = add_review(game, entry)
    assert path == game / GAME_REVIEW and path.read_text().startswith("# ")
    reviews = load_reviews("no-such-corpus-game", tmp_path / "none.toml", game)
    assert reviews.reason(target) == "nothing observable"
    # another change on the same line (or the same change at another column) is not covered
    assert all(
        reviews.reason(t) is None
        for t in twin
        if t.description != target.description or t.column != target.column
    )
    # two lines added above the mutated line: the review still matches the moved mutant
    page = game / "pages" / f"{target.page}.rl"
    text = page.read_text().split("\n")
    header_end = next(i for i, line in enumerate(text) if not line.startswith("#"))
    text[header_end:header_end] = ["", "const UNUSED_A = 1"]
    page.write_text("\n".join(text))
    moved = [m for m in select_mutants(game, None, 0)[0] if reviews.reason(m)]
    assert [(m.line, m.description) for m in moved] == [(target.line + 2, target.description)]
    (game / GAME_REVIEW).write_text('[[equivalent]]\npage = "turn"\n')
    with pytest.raises(WorkspaceError):
        load_reviews("x", tmp_path / "none.toml", game)


def test_reviewed_mutants_are_not_run_and_survivors_rerun_alone(tmp_path: Path) -> None:
    game = _ttt(tmp_path)
    chosen, _ = select_mutants(game, 3, 5)
    for m in chosen:
        add_review(game, ReviewEntry(page=m.page, before=m.before, change=m.description, why="r"))
    heard: list[MutantOutcome] = []
    run = run_mutants(game, seed=5, max_mutants=3, workers=1, on_mutant=heard.append)
    assert [o.status for o in run.outcomes] == [EQUIVALENT] * 3 and len(heard) == 3
    assert (run.compiled, run.total, run.rate, len(run.equivalents)) == (3, 0, None, 3)
    assert all(o.seconds < 1 and o.equivalent == "r" for o in run.outcomes)
    nothing = run_mutants(game, seed=5, workers=1, only=frozenset())
    assert nothing.outcomes == ()


def _outcomes(n: int) -> tuple[MutantOutcome, ...]:
    base = MutantOutcome("p:1:op:0", "p", 1, "op", "change", "-a\n+b\n", SURVIVED, 1.0, column=7)
    return tuple(replace(base, id=f"p:{i}:op:{i}", line=i) for i in range(1, n + 1))


def test_reports_list_every_survivor_with_its_column() -> None:
    run = MutantRun("g", (*_outcomes(26), replace(_outcomes(1)[0], id="k", status=KILLED)), 5.0, 27)
    text = render_mutants_markdown(run)
    assert all(f"### `p:{i}:op:{i}` at p:{i}:7: change" in text for i in range(1, 27))
    survivors = [f"p:{i}:7 op: change" for i in range(1, 27)]
    record = GameRecord(
        game="g",
        path="g",
        compiles=True,
        mutants=MutantRecord(killed=Ratio(num=1, den=27), survivors=survivors, seconds=12.0),
    )
    section = "\n".join(_game_section(record))
    assert all(f"  - {s}" in section for s in survivors)
    assert "1/27 killed in 12 s" in section


def test_cli_and_agent_tool_review_a_mutant(tmp_path: Path) -> None:
    game = _ttt(tmp_path)
    mutants, _ = select_mutants(game, None, 0)
    m = mutants[3]
    runner = CliRunner()
    bad = runner.invoke(app, ["mutants", str(game), "--equivalent", "nope:1:x:0", "--why", "w"])
    assert bad.exit_code == 2 and "no mutant 'nope:1:x:0'" in bad.output
    ok = runner.invoke(app, ["mutants", str(game), "--equivalent", m.id, "--why", "because"])
    assert ok.exit_code == 0, ok.output
    assert load_reviews("x", tmp_path / "none.toml", game).reason(m) == "because"
    args = json.dumps({"id": mutants[4].id, "why": "also"})
    tool = runner.invoke(app, ["tool", str(game), "review_mutant", args])
    assert tool.exit_code == 0, tool.output
    assert "recorded as equivalent in mutants.toml" in tool.output
    missing = runner.invoke(app, ["tool", str(game), "review_mutant", '{"id": "x", "why": "y"}'])
    assert missing.exit_code == 2 and "There is no mutant `x`" in missing.output
    again = runner.invoke(app, ["tool", str(game), "run_mutants", '{"survivors": true}'])
    assert again.exit_code == 2 and "no earlier run_mutants result" in again.output
    assert len(load_reviews("x", tmp_path / "none.toml", game).entries) == 2


def test_the_agent_tool_runs_mutants_with_the_jobs_it_is_given(tmp_path: Path) -> None:
    game = _ttt(tmp_path)
    runner = CliRunner()
    bad = runner.invoke(app, ["tool", str(game), "run_mutants", '{"max": 2, "jobs": -1}'])
    assert bad.exit_code == 2 and "jobs" in bad.output
    ran = runner.invoke(app, ["tool", str(game), "run_mutants", '{"max": 2, "jobs": 1}'])
    assert ran.exit_code == 0, ran.output
    assert "mutants caught by the checks" in ran.output
    assert json.loads((game / "reports" / "mutants.json").read_text())["run"] == 2


def test_the_tool_result_counts_every_survivor_not_the_shown_ones() -> None:
    run = MutantRun("g", _outcomes(26), 5.0, 26)
    text = render("agent/result.md.j2", kind="mutants", **mutants_result(run))
    assert "0/26 mutants caught" in text and "26 surviving" in text
    assert "The first 20 survivors (all of them in reports/mutants.md)" in text
    assert text.count("- survivor ") == 20 and "Re-ran" not in text
    assert "sample" not in text  # every mutant ran


def test_the_tool_result_says_when_it_ran_a_sample() -> None:
    # A rate over 35 of 218 mutants read as the pages' whole kill rate in a trial; the
    # 183 not run held the one rule no evidence covered.
    run = MutantRun("g", _outcomes(35), 5.0, 218)
    text = render("agent/result.md.j2", kind="mutants", **mutants_result(run))
    assert "a seeded sample of 35 of the 218 mutants" in text
    assert "183 not run" in text and '`{"max": 0}`' in text


def _outcome_of(m: Mutant, status: str) -> MutantOutcome:
    return MutantOutcome(
        m.id, m.page, m.line, m.operator, m.description, m.diff, status, 9.0, column=m.column
    )


def test_survivors_rerun_every_survivor_and_keep_the_whole_runs_report(tmp_path: Path) -> None:
    """A re-run of the survivors runs each of them, whatever sample the run before drew
    (the tool's default ``max`` is 40), and folds them into that run's report instead of
    writing a report of the few it re-ran."""
    game = _ttt(tmp_path)
    every, _ = select_mutants(game, None, 0)
    sampled = {m.id for m in select_mutants(game, 40, 0)[0]}
    # two survivors the corpus evidence kills: one outside the 40-sample, one reviewed since
    outside = next(m for m in every if m.id not in sampled and m.operator == "cmp_flip")
    reviewed = next(m for m in every if m.id in sampled and m.operator == "off_by_one")
    killed = [m for m in every if m.id in sampled and m is not reviewed][:30]
    last = MutantRun(
        "tic_tac_toe",
        (
            *(_outcome_of(m, KILLED) for m in killed),
            _outcome_of(outside, SURVIVED),
            _outcome_of(reviewed, SURVIVED),
        ),
        100.0,
        len(every),
        Profile(fuzz=50, oracle=10),
    )
    reports = game / "reports"
    reports.mkdir()
    write_mutant_report(last, reports)
    add_review(
        game,
        ReviewEntry(
            page=reviewed.page, before=reviewed.before, change=reviewed.description, why="w"
        ),
    )
    result = CliRunner().invoke(app, ["tool", str(game), "run_mutants", '{"survivors": true}'])
    assert result.exit_code == 0, result.output
    assert "Re-ran the 2 survivors of the last run: 1 caught now, 0 still surviving" in (
        result.output
    )
    assert "31/31 mutants caught by the checks (100%); 0 surviving, 1 reviewed" in result.output
    after = read_mutant_run(reports)
    assert [o.id for o in after.outcomes] == [o.id for o in last.outcomes]
    assert set(after.rerun) == {outside.id, reviewed.id}
    status = {o.id: o.status for o in after.outcomes}
    assert (status[outside.id], status[reviewed.id]) == (KILLED, EQUIVALENT)
    assert after.profile == last.profile and after.enumerated == len(every)
    md = (reports / "mutants.md").read_text()
    assert f"| {len(every)} | 32 | 0 | 32 | 1 | 31 | 0 | 0 | 100.0% |" in md
    assert "re-ran only the 2 survivors of the run before it: 1 killed now" in md
    # a line added above a survivor moves it and renumbers its page's mutants: it is
    # found again by its edit and re-run under its new id (a trial translator's added
    # evidence made the re-run refuse, and cost a whole run)
    page = game / "pages" / f"{outside.page}.rl"
    text = page.read_text().split("\n")
    header_end = next(i for i, line in enumerate(text) if not line.startswith("#"))
    text[header_end:header_end] = [""]
    page.write_text("\n".join(text))
    write_mutant_report(last, reports)
    moved = CliRunner().invoke(app, ["mutants", str(game), "--survivors"])
    assert moved.exit_code == 0, moved.output
    again = read_mutant_run(reports)
    (rerun,) = [o for o in again.outcomes if o.id in again.rerun and o.operator == outside.operator]
    assert rerun.line == outside.line + 1 and rerun.status == KILLED
    # a survivor whose own line changed is no longer that mutant: said, not guessed
    write_mutant_report(last, reports)
    lines = page.read_text().split("\n")
    lines[outside.line] = lines[outside.line] + "  # edited"
    page.write_text("\n".join(lines))
    stale = CliRunner().invoke(app, ["mutants", str(game), "--survivors"])
    assert stale.exit_code == 2 and "no longer mutants of these pages" in stale.output


EXTRA_PAGE = """# page: extra
# implements: 2
# A helper no rule calls yet.
fun extra_threshold(Int x) -> Int:
    if x > 2:
        return 1
    return 0
"""


@pytest.mark.slow
def test_survivors_rerun_runs_the_mutants_of_a_page_added_since(tmp_path: Path) -> None:
    """A page written after the last run has mutants no run has seen: the re-run of the
    survivors runs them too and adds them to the run (a trial translator's new page was
    left out, and only a whole run would have checked it)."""
    game = _ttt(tmp_path)
    every, _ = select_mutants(game, None, 0)
    survivor = next(m for m in every if m.operator == "cmp_flip")
    pages = tuple(sorted(p.stem for p in (game / "pages").glob("*.rl")))
    last = MutantRun(
        "tic_tac_toe",
        (_outcome_of(survivor, SURVIVED),),
        10.0,
        len(every),
        Profile(fuzz=20, oracle=2),
        pages=pages,
    )
    reports = game / "reports"
    reports.mkdir()
    write_mutant_report(last, reports)
    (game / "pages" / "extra.rl").write_text(EXTRA_PAGE)
    added = [m for m in select_mutants(game, None, 0)[0] if m.page == "extra"]
    assert added
    result = CliRunner().invoke(app, ["mutants", str(game), "--survivors"])
    after = read_mutant_run(reports)
    assert after.added == ("extra",) and after.pages == tuple(sorted((*pages, "extra")))
    assert [o.id for o in after.outcomes] == [survivor.id, *(m.id for m in added)]
    assert after.enumerated == len(every) + len(added)
    assert set(after.rerun) == {survivor.id, *(m.id for m in added)}
    said = f"re-ran the 1 survivors of the last run and ran the {len(added)} mutants new"
    assert said in " ".join(result.output.split()), result.output
    assert "new since (on extra)" in (reports / "mutants.md").read_text()
    # a report that does not name its pages (written before they were recorded) takes
    # no page for new
    write_mutant_report(replace(last, pages=()), reports)
    CliRunner().invoke(app, ["mutants", str(game), "--survivors"])
    again = read_mutant_run(reports)
    assert [o.id for o in again.outcomes] == [survivor.id] and again.added == ()


@pytest.mark.slow
def test_after_a_whole_run_the_rerun_follows_deleted_and_new_lines(tmp_path: Path) -> None:
    """After a run of every mutant, a re-run of the survivors knows which mutants are new
    and which went: a trial translator deleted the dead code a survivor pointed at and
    was told to run all 410 mutants again (18 minutes)."""
    game = _ttt(tmp_path)
    (game / "pages" / "extra.rl").write_text(EXTRA_PAGE)
    every, _ = select_mutants(game, None, 0)
    extra = [m for m in every if m.page == "extra"]
    assert extra
    outcomes = tuple(_outcome_of(m, SURVIVED if m is extra[0] else KILLED) for m in every)
    pages = tuple(sorted(p.stem for p in (game / "pages").glob("*.rl")))
    last = MutantRun(
        "tic_tac_toe", outcomes, 500.0, len(every), Profile(fuzz=20, oracle=2), pages=pages
    )
    reports = game / "reports"
    reports.mkdir()
    write_mutant_report(last, reports)
    # the dead code goes: its survivor and every mutant of it leave the run, nothing runs
    (game / "pages" / "extra.rl").unlink()
    gone = CliRunner().invoke(app, ["mutants", str(game), "--survivors"])
    assert gone.exit_code == 0, gone.output
    after = read_mutant_run(reports)
    assert after.dropped == len(extra) and after.rerun == () and after.survivors == []
    assert [o.id for o in after.outcomes] == [m.id for m in every if m.page != "extra"]
    assert after.enumerated == len(every) - len(extra) and after.killed == after.enumerated
    assert f"left out {len(extra)} no longer mutants of the pages" in " ".join(gone.output.split())
    # a function added to a page: its mutants (and those whose diff context changed) run
    win = game / "pages" / "win.rl"
    win.write_text(win.read_text() + EXTRA_PAGE.split("\n", 3)[3])
    now, _ = select_mutants(game, None, 0)
    grown = CliRunner().invoke(app, ["mutants", str(game), "--survivors"])
    again = read_mutant_run(reports)
    assert again.added == ("win",) and 0 < len(again.rerun) < len(now) // 4, grown.output
    assert {o.id for o in again.outcomes} == {m.id for m in now}
    new_ones = [o for o in again.outcomes if o.id in again.rerun]
    assert any("x > 2" in o.diff for o in new_ones)


@pytest.mark.slow
def test_mutants_command_runs_checks_and_reports_progress(tmp_path: Path) -> None:
    game = _ttt(tmp_path)
    result = CliRunner().invoke(app, ["mutants", str(game), "--max", "2", "-j", "2"])
    data = json.loads((game / "reports" / "mutants.json").read_text())
    assert data["run"] == 2 and all(o["column"] >= 1 for o in data["outcomes"])
    assert "mutants 2/2" in result.output and "mutants killed" in result.output
    assert result.exit_code == (1 if data["survived"] or data["errors"] else 0)


def test_progress_prints_survivors_with_brackets_verbatim(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rulebook2game.cli._progress import MutantProgress

    progress = MutantProgress(None, 0, total=2)
    survivor = replace(_outcomes(1)[0], description="`b.pieces[1 - current] = 0` deleted")
    progress(Path("/g/[x]game"), survivor)
    progress(Path("/g/[x]game"), replace(survivor, status=KILLED))
    err = capsys.readouterr().err
    # the id first: the one `mutants --equivalent` takes
    assert "survivor p:1:op:1 at p:1:7 op: `b.pieces[1 - current] = 0` deleted" in err
    assert "[x]game: mutants 2/2 (killed 1, survived 1)" in err


def test_reports_list_the_mutants_the_compiler_refused() -> None:
    refused = replace(
        _outcomes(1)[0],
        id="q",
        status="not_compiled",
        finding="pages/board.rl:12:5: error: no such variable 'x'\n  more detail",
    )
    run = MutantRun("g", (*_outcomes(2), refused), 5.0, 3)
    text = render_mutants_markdown(run)
    section = text.split("## Not compiled")[1]
    assert "- `q` at p:1:7: change: pages/board.rl:12:5: error: no such variable 'x'" in section
    assert "more detail" not in section and "p:2:op:2" not in section


def test_a_fault_of_the_checks_on_one_mutant_is_an_error_not_a_lost_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one mutant's IndexError inside the checks failed a trial's 391-mutant run at 390
    import rulebook2game.evals.mutants as mutants_module

    game = _ttt(tmp_path)
    mutant = select_mutants(game, 1, 0)[0][0]

    def broken(*args: object) -> MutantOutcome:
        raise IndexError("list index out of range")

    monkeypatch.setattr(mutants_module, "_run_checks", broken)
    outcome = mutants_module.check_mutant(game, mutant, Profile(fuzz=0, oracle=0))
    assert outcome.status == mutants_module.ERROR
    assert outcome.finding == (
        "the checks failed on this mutant (IndexError: list index out of range)"
    )
