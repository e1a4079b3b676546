"""The mutant runner: compile and check mutants of a corpus game's gold pages."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from rulebook2game.errors import WorkspaceError
from rulebook2game.evals.mutants import (
    KILLED,
    NOT_COMPILED,
    SURVIVED,
    MutantOutcome,
    MutantRun,
    Profile,
    check_mutant,
    run_mutants,
    write_mutant_report,
)
from rulebook2game.mutate import Mutant, page_mutants, read_pages
from rulebook2game.resources import CORPORA_DIR

PROFILE = Profile(fuzz=100, oracle=20)


def _game(tmp_path: Path) -> Path:
    dest = tmp_path / "tic_tac_toe"
    shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", dest, ignore=shutil.ignore_patterns("build", "reports")
    )
    return dest


def _mutant(game: Path, mutant_id: str) -> Mutant:
    pages = read_pages(game / "pages")
    page = mutant_id.split(":")[0]
    return next(m for m in page_mutants(page, pages[page]) if m.id == mutant_id)


def test_killed_and_not_compiled_mutants(tmp_path: Path) -> None:
    game = _game(tmp_path)
    killed = check_mutant(game, _mutant(game, "win:24:cmp_flip:5"), PROFILE)
    assert killed.status == KILLED and killed.stage == "replay"
    broken = check_mutant(game, _mutant(game, "win:18:swap_args:5"), PROFILE)
    assert broken.status == NOT_COMPILED and "_line" in (broken.finding or "")
    assert not (game / "build" / "mutants").exists() or not any(
        (game / "build" / "mutants").iterdir()
    )


def test_run_mutants_sample_and_report(tmp_path: Path) -> None:
    game = _game(tmp_path)
    run = run_mutants(game, seed=2, max_mutants=2, workers=1, profile=PROFILE)
    assert len(run.outcomes) == 2 and run.enumerated > 100
    data = json.loads((game / "reports" / "mutants.json").read_text())
    assert data["run"] == 2 and data["killed"] == run.killed
    assert "# Mutants of `tic_tac_toe`" in (game / "reports" / "mutants.md").read_text()


def test_rates_and_survivor_listing(tmp_path: Path) -> None:
    def outcome(i: int, status: str, seconds: float) -> MutantOutcome:
        return MutantOutcome(
            f"p:{i}:op:0", "p", i, "op", f"change {i}", "-a\n+b\n", status, seconds
        )

    run = MutantRun(
        "g",
        (
            outcome(1, KILLED, 1.0),
            outcome(2, KILLED, 3.0),
            outcome(3, SURVIVED, 9.0),
            outcome(4, NOT_COMPILED, 0.1),
        ),
        seconds=13.0,
        enumerated=4,
    )
    assert (run.total, run.compiled, run.killed, run.not_compiled) == (3, 3, 2, 1)
    assert run.rate == 2 / 3 and run.median_kill_seconds == 2.0
    assert [str(s).splitlines()[0] for s in run.survivors] == ["p:3:op:0: change 3"]
    _, md = write_mutant_report(run, tmp_path)
    text = md.read_text()
    assert "66.7%" in text and "## Survivors" in text and "+b" in text


def test_reviewed_equivalents_leave_the_kill_rate(tmp_path: Path) -> None:
    from rulebook2game.evals.equivalents import load_reviews

    review = tmp_path / "equivalent.toml"
    review.write_text(
        '[[tic_tac_toe]]\npage = "turn"\nbefore = "return -4"\n'
        'why = "the engine reports -4 for a finished game whatever the hook says"\n'
    )
    game = _game(tmp_path)
    pages = read_pages(game / "pages")
    hook = [m for m in page_mutants("turn", pages["turn"]) if m.before == "return -4"]
    assert len(hook) == 2
    reviews = load_reviews("tic_tac_toe", review)
    assert all(reviews.reason(m) for m in hook)
    assert load_reviews("pig", review).reason(hook[0]) is None
    bad = tmp_path / "bad.toml"
    bad.write_text('[[tic_tac_toe]]\npage = "turn"\n')
    with pytest.raises(WorkspaceError):
        load_reviews("tic_tac_toe", bad)
    outcome = MutantOutcome(
        "turn:24:off_by_one:14", "turn", 24, "off_by_one", "x", "", SURVIVED, 1.0
    )
    run = MutantRun(
        "tic_tac_toe",
        (
            outcome,
            replace(outcome, id="b", equivalent="same"),
            replace(outcome, id="c", status=KILLED),
        ),
        seconds=1.0,
        enumerated=3,
    )
    assert (run.compiled, run.total, len(run.survivors), len(run.equivalents)) == (3, 2, 1, 1)
    assert run.rate == 0.5 and run.raw_rate == 1 / 3


def test_corpus_summary(tmp_path: Path) -> None:
    from rulebook2game.evals.mutant_report import summarize_reports

    outcome = MutantOutcome("p:1:op:0", "p", 1, "op", "change 1", "-a\n+b\n", SURVIVED, 9.0)
    run = MutantRun("g", (outcome, replace(outcome, id="k", status=KILLED)), 2.0, 2)
    json_path, _ = write_mutant_report(run, tmp_path)
    text = summarize_reports([json_path])
    assert "| g | 2 | 0 | 2 | 0 | 1 | 1 | 50.0% | 50.0% |" in text
    assert "## Survivors of `g`" in text and "+b" in text


def test_fun_invariants_are_not_mutated() -> None:
    # tic-tac-toe declares `marks_alternate` as a `fun` invariant: evidence, not a rule.
    from rulebook2game.evals.mutants import select_mutants

    mutants, total = select_mutants(CORPORA_DIR / "tic_tac_toe", None, 0)
    source = (CORPORA_DIR / "tic_tac_toe" / "pages" / "board.rl").read_text().split("\n")
    start = next(i for i, line in enumerate(source, 1) if "fun marks_alternate" in line)
    body = range(start, start + 11)
    assert total == len(mutants) > 0
    assert [m for m in mutants if m.page == "board" and m.line in body] == []
    assert any(m.page == "board" and m.line < start for m in mutants)


def test_every_reviewed_equivalent_still_names_a_line_of_its_page() -> None:
    # A review whose line is gone would silently stop matching (and so stop explaining).
    import tomllib

    reviews = tomllib.loads(
        (CORPORA_DIR.parent / "evals" / "mutants" / "equivalent.toml").read_text()
    )
    stale = []
    for game, entries in reviews.items():
        for entry in entries:
            pages = [
                *(CORPORA_DIR / game / "pages").glob(f"{entry['page']}.*"),
                *(CORPORA_DIR / "rulepage" / game / "pages").glob(f"{entry['page']}.*"),
                *(CORPORA_DIR / "rbg" / game / "pages").glob(f"{entry['page']}.*"),
            ]
            lines = {line.strip() for page in pages for line in page.read_text().splitlines()}
            if entry["before"] not in lines:
                stale.append(f"{game}/{entry['page']}: {entry['before']}")
    assert stale == []


def test_rulepage_invariants_and_their_helpers_are_not_mutated() -> None:
    # a trial translator's invariants were mutated (their `code:` functions were not
    # told apart), and 7 survivors could never be killed
    from rulebook2game.mutate.mutants import enumerate_mutants, presentation_closure

    page = (
        "# page: rules\n"
        "# implements: 1\n"
        "# A move when a stone is next to it.\n"
        "\n"
        "offer move(a) when near(g, a)\n"
        "\n"
        "code:\n"
        "    fun near(State g, Int a) -> Bool:\n"
        "        return a > 0\n"
        "\n"
        "    fun all_near(Game game) -> Bool:\n"
        "        return count_near(game.g) > 1\n"
        "\n"
        "    fun count_near(State g) -> Int:\n"
        "        if near(g, 1):\n"
        "            return 2\n"
        "        return 0\n"
    )
    pages = {"rules": page}
    skip = presentation_closure(pages, frozenset({"all_near"}))
    assert skip == {"all_near", "count_near"}  # near is a rule: the offer calls it
    lines = {m.line for m in enumerate_mutants(pages, skip=skip, suffix=".page")}
    assert 9 in lines  # near's body
    assert not lines & {11, 12, 14, 15, 16, 17}
