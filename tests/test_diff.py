"""``rulebook2game diff``: a changed page shows its cited rules and its exact behaviour change."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.diff import DiffOptions, GameDiff, diff_games, render_html, render_markdown
from rulebook2game.diff.pages import diff_pages
from rulebook2game.diff.rules import load_rule_text
from rulebook2game.diff.sides import resolve_side
from rulebook2game.errors import BadInputError
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.trace import read_trace

C4 = CORPORA_DIR / "connect_four"
WIN_OLD = "_run(b, row, col, -drow, -dcol) >= 4"
WIN_NEW = "_run(b, row, col, -drow, -dcol) >= 5"


def _copy_game(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("build", "runs", "reports"))
    return dest


@pytest.fixture(scope="module")
def five_in_a_row(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, GameDiff]:
    """Connect Four, and a copy whose win page asks for five in a row (diffed once)."""
    root = tmp_path_factory.mktemp("c4")
    old = _copy_game(C4, root / "old")
    new = _copy_game(C4, root / "new")
    win = new / "pages" / "win.rl"
    source = win.read_text()
    assert WIN_OLD in source
    win.write_text(source.replace(WIN_OLD, WIN_NEW))
    result = diff_games(str(old), str(new), DiffOptions(walks=3, seed=0, max_steps=100))
    return old, new, result


def test_changed_page_shows_its_diff_and_cited_rule_text(
    five_in_a_row: tuple[Path, Path, GameDiff],
) -> None:
    _, _, result = five_in_a_row
    assert [(r.change.name, r.change.status) for r in result.pages] == [("win", "changed")]
    review = result.pages[0]
    text = review.change.unified_diff
    assert f"-    return 1 + _run(b, row, col, drow, dcol) + {WIN_OLD}" in text
    assert f"+    return 1 + _run(b, row, col, drow, dcol) + {WIN_NEW}" in text
    assert [c.cite for c in review.citations] == ["5.1", "6"]  # win.rl's header
    four = review.citations[0]
    assert four.title == "Four in a row"
    assert four.sentences[0][0] == "5.1#1"
    assert "completes a line of four or more discs" in four.sentences[0][1]
    assert result.rules_source == "rules.md"


def test_behaviour_diff_names_the_first_divergent_step(
    five_in_a_row: tuple[Path, Path, GameDiff],
) -> None:
    old, _, result = five_in_a_row
    behaviour = result.behaviour
    assert behaviour is not None and behaviour.compiled and behaviour.changed
    golden = {f"trace {p.name}": read_trace(p) for p in sorted((old / "traces").glob("*.jsonl"))}
    assert [t.label for t in behaviour.traces] == list(golden)
    drawn = [t for t in behaviour.traces if golden[t.label].end.returns == (0.0, 0.0)]
    # A drawn game has no line of four, so none of five either: both engines agree.
    assert drawn and all(t.difference is None for t in drawn)
    first = next(t for t in behaviour.traces if t not in drawn)
    trace = golden[first.label]
    # A won golden game ended with a line of four on its last drop: the old engine
    # stops there, the new one plays on.
    assert first.old_replay is None and first.new_replay is not None
    assert first.difference is not None
    assert first.difference.step == len(trace.steps)
    assert first.difference.what == "terminal"
    assert first.difference.new == "not terminal"
    assert first.difference.prefix == tuple(trace.actions)
    # Every random walk differs too, and the counterexample was shrunk.
    assert all(w.difference is not None for w in behaviour.random)
    shortest = behaviour.counterexamples[0][1]
    assert shortest.what == "terminal"
    # (no longer than any difference seen: a golden game may already be a shortest win)
    assert len(shortest.prefix) <= min(len(w.difference.prefix) for w, _ in behaviour.differences)
    assert len(shortest.prefix) < max(len(w.difference.prefix) for w, _ in behaviour.differences)


def test_reports_carry_rule_text_code_and_behaviour(
    five_in_a_row: tuple[Path, Path, GameDiff],
) -> None:
    _, _, result = five_in_a_row
    md = render_markdown(result)
    assert "> - `5.1#1` The game ends at once" in md
    assert f"+    return 1 + _run(b, row, col, drow, dcol) + {WIN_NEW}" in md
    assert "terminal differs" in md and "Reproduce: `rulebook2game diff" in md
    page = render_html(result)
    assert "<blockquote><b>5.1</b> Four in a row" in page and "&gt;= 5" in page
    data = json.loads(json.dumps(result.to_dict()))
    assert data["format"] == "rulebook2game-diff/1" and data["changed"] is True
    assert data["pages"][0]["citations"][0]["sentences"][0][0] == "5.1#1"


def test_identical_sides_do_not_differ(tmp_path: Path) -> None:
    game = _copy_game(C4, tmp_path / "g")
    result = diff_games(str(game), str(game), DiffOptions(behaviour=False))
    assert result.pages == () and not result.changed


def test_git_revision_is_materialised_under_build(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    game = _copy_game(C4, repo / "corpora" / "connect_four")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "gold"], check=True)
    (game / "pages" / "win.rl").write_text("# page: win\n# implements: 5.1, 7\n")
    result = diff_games(f"{game}@HEAD", str(game), DiffOptions(behaviour=False))
    assert (game / "build" / "diff" / "connect_four@HEAD" / "pages" / "win.rl").is_file()
    (review,) = result.pages
    assert review.change.cites_removed == ("6",)
    found = {c.cite: c.found for c in review.citations}
    assert found == {"5.1": True, "7": False, "6": True}  # there is no section 7
    with pytest.raises(BadInputError, match="HEAD~5"):
        diff_games(f"{game}@HEAD~5", str(game), DiffOptions(behaviour=False))


def test_a_run_directory_with_pages_is_a_side(tmp_path: Path) -> None:
    game = _copy_game(C4, tmp_path / "g")
    run = game / "runs" / "r1"
    (run / "pages").mkdir(parents=True)
    for page in (game / "pages").glob("*.rl"):
        shutil.copy(page, run / "pages" / page.name)
    (run / "pages" / "turn.rl").unlink()
    side = resolve_side(str(run), tmp_path / "scratch")
    assert side.kind == "run" and (side.root / "game.toml").is_file()
    changes = diff_pages(resolve_side(str(game), tmp_path).pages(), side.pages())
    assert [(c.name, c.status) for c in changes] == [("turn", "removed")]


def test_agent_runs_are_rebuilt_from_their_logs(tmp_path: Path) -> None:
    from rulebook2game.agent.pages import PageChange
    from rulebook2game.agent.runlog import RunLog

    game = _copy_game(C4, tmp_path / "g")
    gold = {p.stem: p.read_text() for p in (game / "pages").glob("*.rl")}
    first = RunLog.open(game / "runs" / "20250101-000000-aaaa")
    for call, (name, source) in enumerate(sorted(gold.items())):
        first.page_version(1, call, PageChange(name, None, source))
    second = RunLog.open(game / "runs" / "20250102-000000-bbbb")
    second.page_version(2, 0, PageChange("win", gold["win"], gold["win"].replace(WIN_OLD, WIN_NEW)))
    second.page_version(3, 0, PageChange("extra", None, "# page: extra\n"))
    second.page_version(4, 0, PageChange("extra", "# page: extra\n", None))
    result = diff_games(str(first.root), str(second.root), DiffOptions(behaviour=False))
    assert [(r.change.name, r.change.status) for r in result.pages] == [("win", "changed")]
    assert (game / "build" / "diff" / "run-20250102-000000-bbbb" / "pages" / "board.rl").is_file()


def test_markdown_ledger_numbers_sentences_per_section() -> None:
    rules = load_rule_text(C4)
    assert rules.citation("4.2#2").sentences == (
        ("4.2#2", "The disc comes to rest in the lowest free space of that column."),
    )
    assert set(rules.resolve("4")) == set(rules.resolve("4.1")) | set(rules.resolve("4.2"))


def test_cli_writes_markdown_and_fails_cleanly(tmp_path: Path) -> None:
    game = _copy_game(C4, tmp_path / "g")
    other = _copy_game(C4, tmp_path / "h")
    (other / "pages" / "win.rl").write_text("# page: win\n")
    out = tmp_path / "diff.md"
    runner = CliRunner()
    args = ["diff", str(game), str(other), "--no-behaviour", "--exit-code"]
    result = runner.invoke(app, [*args, "--format", "md", "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "### `win` — changed" in out.read_text()
    missing = runner.invoke(app, ["diff", str(tmp_path / "nope"), str(game)])
    assert missing.exit_code == 2
    assert "not a directory" in missing.output


def test_a_folder_with_pages_but_no_game_is_named_in_the_error(tmp_path: Path) -> None:
    loose = tmp_path / "loose"
    (loose / "pages").mkdir(parents=True)
    with pytest.raises(BadInputError, match="loose: not a game directory"):
        resolve_side(str(loose), tmp_path / "scratch")


def test_two_different_games_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["diff", str(C4), str(CORPORA_DIR / "pig"), "--no-behaviour"])
    assert result.exit_code == 2, result.output
    assert "connect_four" in result.output and "pig" in result.output
    assert "Traceback" not in result.output


def test_a_piped_diff_is_not_wrapped(
    five_in_a_row: tuple[Path, Path, GameDiff], tmp_path: Path
) -> None:
    old, new, _result = five_in_a_row
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    out = subprocess.run(
        [sys.executable, "-m", "rulebook2game", "diff", str(old), str(new), "--no-behaviour"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    code = [line.strip("│ ").rstrip() for line in out.stdout.splitlines()]
    removed = [line for line in code if line.startswith("-") and not line.startswith("---")]
    assert removed == ["-    return 1 + _run(b, row, col, drow, dcol) + " + WIN_OLD]


def _finish(game: Path, *ambiguities: dict[str, object]) -> None:
    (game / "reports").mkdir(exist_ok=True)
    notes = {"summary": "done", "ambiguities": list(ambiguities)}
    (game / "reports" / "finish.json").write_text(json.dumps(notes))


def test_recorded_ambiguities_that_changed_are_part_of_the_diff(tmp_path: Path) -> None:
    old = _copy_game(C4, tmp_path / "old")
    new = _copy_game(C4, tmp_path / "new")
    full = {"sentences": ["6#1"], "reading": "a full grid is a draw", "why": "6#1 says so"}
    _finish(old, full, {"sentences": ["4.2#1"], "reading": "any column", "why": ""})
    _finish(
        new,
        {"sentences": ["6#1"], "reading": "a full grid is a loss for the last mover", "why": "x"},
        {"sentences": ["5.1#1", "5.1#2"], "reading": "diagonals count", "why": "the figure"},
    )
    result = diff_games(str(old), str(new), DiffOptions(behaviour=False))
    assert result.pages == () and result.changed
    lines = render_markdown(result)
    assert "## Recorded ambiguities (3 changed)" in lines
    assert '- changed 6#1: "a full grid is a draw" -> "a full grid is a loss' in lines
    assert '- added 5.1#1, 5.1#2: "diagonals count" (the figure)' in lines
    assert '- removed 4.2#1: "any column"' in lines
    assert "Recorded ambiguities" in render_html(result)
    data = result.to_dict()
    assert [a["status"] for a in data["ambiguities"]] == ["changed", "added", "removed"]
    same = diff_games(str(old), str(old), DiffOptions(behaviour=False))
    assert same.ambiguities == () and not same.changed
    # from the command line, in a pipe
    out = CliRunner().invoke(app, ["diff", str(old), str(new), "--no-behaviour"])
    assert out.exit_code == 0, out.output
    assert "recorded ambiguities: 3 changed" in out.output


def test_an_agent_runs_ambiguities_come_from_its_last_finish(tmp_path: Path) -> None:
    from rulebook2game.agent.runlog import RunLog

    game = _copy_game(C4, tmp_path / "g")
    _finish(game)
    run = RunLog.open(game / "runs" / "20250101-000000-aaaa")
    for turn, reading in enumerate(("first reading", "second reading")):
        arguments = {"summary": "s", "ambiguities": [{"sentences": ["6#1"], "reading": reading}]}
        run.append("tool_call", turn=turn, call=0, call_id="c", name="finish",
                   arguments=json.dumps(arguments))  # fmt: skip
    result = diff_games(str(game), str(run.root), DiffOptions(behaviour=False))
    assert [(a.status, a.new.reading if a.new else "") for a in result.ambiguities] == [
        ("added", "second reading")
    ]
