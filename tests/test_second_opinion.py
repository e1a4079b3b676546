"""``rulebook2game second-opinion``: an independent second translation beside the first.

The command line a coding agent follows (AGENTS.md): prepare ``second/``, translate it
there, and every ``run_checks`` / ``check`` of the first walks both in lockstep; the
page tools reach the second's pages with ``side="second"``.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.resources import CORPORA_DIR, PROJECT_DIR

REVERSI = PROJECT_DIR / "tests" / "data" / "games" / "reversi"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def _copy(source: Path, tmp_path: Path) -> Path:
    game = tmp_path / source.name
    shutil.copytree(source, game, ignore=shutil.ignore_patterns("build", "reports", "runs"))
    return game


def test_prepares_the_other_target_and_names_it_in_game_toml(tmp_path: Path) -> None:
    game = _copy(CORPORA_DIR / "tic_tac_toe", tmp_path)
    code, out = _run("second-opinion", str(game))
    assert code == 0, out
    second = game / "second"
    config = tomllib.loads((second / "game.toml").read_text())
    assert config["target"] == "rulepage" and "oracle" not in config
    assert tomllib.loads((game / "game.toml").read_text())["second_opinion"] == "second"
    assert (second / "interface.toml").read_text() == (game / "interface.toml").read_text()
    assert (second / "rulebook.json").is_file() and (second / "rules.pdf").is_file()
    brief = (second / "AGENTS.md").read_text()
    assert "This is a second opinion" in brief and "`pages/*.page`" in brief
    assert "## A second opinion" not in brief  # the procedure is the first translator's
    assert "## A second opinion" in _first_brief(game)


def _first_brief(game: Path) -> str:
    from rulebook2game.agent.prompts import render
    from rulebook2game.second_opinion import brief_context
    from rulebook2game.workspace import open_workspace

    ws = open_workspace(game)
    return render("AGENTS.md.j2", **brief_context(ws, "toc", independent=False).as_dict())


def test_a_game_without_an_interface_gets_one_from_its_pages(tmp_path: Path) -> None:
    game = _copy(REVERSI, tmp_path)
    assert not (game / "interface.toml").exists()
    code, out = _run("second-opinion", str(game), "--target", "rl")
    assert code == 0, out
    assert "written from this game's pages" in out
    interface = tomllib.loads((game / "interface.toml").read_text())
    actions = {a["name"]: a.get("args", []) for a in interface["actions"]}
    assert actions == {
        "place": [{"name": "col", "min": 1, "max": 8}, {"name": "row", "min": 1, "max": 8}],
        "pass": [],
    }
    assert "chance" not in interface
    # the first translation still compiles against the interface written from it
    code, out = _run("tool", str(game), "compile")
    assert code == 0, out


def test_check_walks_both_and_page_tools_reach_the_second_side(tmp_path: Path) -> None:
    game = _copy(REVERSI, tmp_path)
    assert _run("second-opinion", str(game), "--target", "rl")[0] == 0
    second = game / "second" / "pages"
    for page in (game / "pages").glob("*.rl"):
        shutil.copy(page, second / page.name)
    # the second translation flips only along rows and columns: a disagreement
    board = (second / "board.rl").read_text()
    wrong = board.replace(
        "                return true\n            d = d + 1",
        "                return true\n            d = d + 2",
    )
    assert wrong != board
    code, out = _run("tool", str(game), "write_page", json.dumps(
        {"name": "board", "side": "second", "content": wrong}
    ))  # fmt: skip
    assert code == 0, out
    assert (second / "board.rl").read_text() == wrong
    code, out = _run("tool", str(game), "read_page", '{"name": "board", "side": "second"}')
    assert code == 0 and out == wrong
    code, out = _run("tool", str(game), "run_checks")
    assert code == 1
    assert "## 1. against:" in out and "The other translation" in out
    assert "Its rulebook 4.2#2" in out and "place(col=4, row=3)" in out
    report = json.loads((game / "reports" / "check.json").read_text())
    finding = report["findings"][0]
    assert finding["stage"] == "against" and finding["other"]["pages"]
    assert any(s["id"] == "4.2#2" for s in finding["other"]["sections"])
    # regress, the CI gate, walks the declared second translation as check does
    code, out = _run("regress", str(game))
    assert code == 1
    assert "against" in out


def test_a_second_opinion_not_written_yet_is_said_plainly_not_failed(tmp_path: Path) -> None:
    """Right after ``second-opinion``, before anyone translated ``second/``, the checks say
    the second translation is not written yet; they neither fail nor tell the translator
    to fix pages after reporting 0 problems."""
    game = _copy(CORPORA_DIR / "tic_tac_toe", tmp_path)
    assert _run("second-opinion", str(game))[0] == 0
    code, out = _run("tool", str(game), "run_checks")
    assert code == 0, out
    assert out.startswith("green: every check passed.")
    assert "second/ is not translated yet (no pages)" in out
    assert "; second opinion not written yet" in out
    assert "Re-read the cited rules" not in out and "0 problems" not in out
    report = json.loads((game / "reports" / "check.json").read_text())
    against = next(s for s in report["stages"] if s["name"] == "against")
    assert against["status"] == "skipped"
    code, out = _run("check", str(game), "--fuzz", "20")
    assert code == 0 and "second opinion not written yet" in out
    # a second translation that is written but does not compile stops a check: said as that
    (game / "second" / "pages" / "x.page").write_text("garbage\n")
    code, out = _run("tool", str(game), "run_checks")
    assert code == 1 and "Not every check could run" in out
    assert "FAIL — against could not run: second has no engine: pages/x.page:1:1" in out
    assert "Re-read the cited rules" not in out


def test_side_second_without_a_second_opinion_is_a_correction(tmp_path: Path) -> None:
    game = _copy(CORPORA_DIR / "tic_tac_toe", tmp_path)
    code, out = _run("tool", str(game), "read_page", '{"name": "win", "side": "second"}')
    assert code == 2 and "no second opinion" in out


def test_bad_folder_names_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    game = _copy(CORPORA_DIR / "tic_tac_toe", tmp_path)
    before = (game / "game.toml").read_text()
    for folder in ("../elsewhere", "a/b", ".."):
        code, out = _run("second-opinion", str(game), "--dir", folder)
        assert code == 2 and "plain folder name" in out
    code, out = _run("second-opinion", str(game), "--target", "nope")
    assert code == 2 and "unknown target" in out
    assert (game / "game.toml").read_text() == before
    assert not (game / "second").exists()


def test_a_rulepage_translation_with_a_keyword_action_is_a_second_opinion(tmp_path: Path) -> None:
    """The RulePage Reversi of ``tests/data/games/reversi_rulepage`` was written from the
    rulebook alone as the second opinion of the rl Reversi; its action ``pass`` is an rl
    keyword on both sides (``act pass_()`` in rl, ``offer pass()`` in RulePage)."""
    first = _copy(REVERSI, tmp_path)
    second = _copy(REVERSI.parent / "reversi_rulepage", tmp_path)
    args = ["check", str(first), "--against", str(second), "--fuzz", "50", "--oracle-runs", "30"]
    code, out = _run(*args)
    assert code == 0, out
    assert "second opinion (30 trajectories)" in out
    # "may pass" read as "may always pass": the walk names both sides' pass pages
    page = second / "pages" / "pass.page"
    page.write_text(
        page.read_text().replace("offer pass() when !can_place(g, g.player)", "offer pass()")
    )
    code, out = _run(*args)
    assert code == 1
    finding = json.loads((first / "reports" / "check.json").read_text())["findings"][0]
    assert finding["stage"] == "against" and "pass()" in finding["message"]
    assert [p["page"] for p in finding["pages"]][:1] == ["turns"]
    assert any("pages/pass.page" in p for p in finding["other"]["pages"])
    assert any(s["id"] == "4.4#2" for s in finding["other"]["sections"])


def test_preparing_again_keeps_the_second_translations_own_files(tmp_path: Path) -> None:
    game = _copy(CORPORA_DIR / "tic_tac_toe", tmp_path)
    assert _run("second-opinion", str(game))[0] == 0
    second = game / "second"
    (second / "game.toml").write_text((second / "game.toml").read_text() + "max_game_length = 9\n")
    (second / "pages" / "board.page").write_text("# page: board\n# implements: 2\n")
    code, out = _run("second-opinion", str(game))
    assert code == 0 and "refreshed" in out
    assert "max_game_length = 9" in (second / "game.toml").read_text()
    assert (second / "pages" / "board.page").is_file()
    code, out = _run("second-opinion", str(game), "--target", "rl")
    assert code == 2 and "holds a rulepage translation" in out
