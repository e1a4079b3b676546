"""``rulebook2game tool``: the agent's tools from a shell, with the agent's results."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.extract import extract_rulebook, write_rulebook
from rulebook2game.resources import CORPORA_DIR


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "ttt"
    shutil.copytree(CORPORA_DIR / "tic_tac_toe", root, ignore=shutil.ignore_patterns("build"))
    write_rulebook(extract_rulebook(root / "rules.pdf"), root / "rulebook.json")
    return root


def tool(game: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["tool", str(game), *args])
    return result.exit_code, result.output


def test_reading_tools(game: Path) -> None:
    code, toc = tool(game, "read_rulebook")
    assert code == 0 and "[4.2]" in toc
    code, section = tool(game, "read_rulebook", json.dumps({"section_id": "4.2"}))
    assert code == 0 and "[4.2#1]" in section
    code, pages = tool(game, "list_pages")
    assert code == 0 and pages.splitlines()[0].startswith("board: ")


def test_mistakes_exit_2_with_the_correction(game: Path) -> None:
    assert tool(game, "teleport")[0] == 2
    assert tool(game, "read_rulebook", "{not json")[0] == 2
    code, _ = tool(game, "write_page", json.dumps({"name": "x", "content": "no header\n"}))
    assert code == 2 and not (game / "pages" / "x.rl").exists()
    assert tool(game, "read_page", json.dumps({"name": "../game"}))[0] == 2


def test_write_from_file_and_compile(game: Path, tmp_path: Path) -> None:
    broken = tmp_path / "win.rl"
    source = (game / "pages" / "win.rl").read_text()
    broken.write_text(source.replace("return true", "return maybe", 1))
    code, out = tool(game, "write_page", json.dumps({"name": "win"}), "--content-file", str(broken))
    assert code == 0 and out.startswith("ok: replaced pages/win.rl")
    code, out = tool(game, "compile")
    assert code == 1 and "pages/win.rl:" in out


def test_content_file_mistakes_exit_2_without_a_traceback(game: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.rl"
    page.write_text("# page: x\n")
    binary = tmp_path / "page.bin"
    binary.write_bytes(b"\x93\xff\x00")
    cases = [
        ("{}", tmp_path / "missing.rl"),
        ("{}", tmp_path),
        ("{}", binary),
        ("{not json", page),
        ("[1]", page),
    ]
    for arguments, content in cases:
        result = CliRunner().invoke(
            app, ["tool", str(game), "write_page", arguments, "--content-file", str(content)]
        )
        assert result.exit_code == 2, (arguments, content, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_copied_corpus_game_extracts_its_rulebook_on_first_use(tmp_path: Path) -> None:
    root = tmp_path / "pig"
    shutil.copytree(CORPORA_DIR / "pig", root, ignore=shutil.ignore_patterns("build", "reports"))
    (root / "rulebook.json").unlink(missing_ok=True)
    code, pages = tool(root, "list_pages")
    assert code == 0 and pages.strip(), pages
    assert (root / "rulebook.json").is_file()
    code, toc = tool(root, "read_rulebook")
    assert code == 0 and "[1]" in toc


def test_a_game_without_rulebook_or_pdf_is_a_wrong_call(tmp_path: Path) -> None:
    root = tmp_path / "pig"
    shutil.copytree(CORPORA_DIR / "pig", root, ignore=shutil.ignore_patterns("build", "reports"))
    (root / "rules.pdf").unlink()
    code, out = tool(root, "list_pages")
    assert code == 2 and "rules.pdf" in out and "Traceback" not in out
    assert not (root / "rulebook.json").exists()


def test_run_checks_says_how_often_fuzzing_played_each_action(game: Path) -> None:
    code, out = tool(game, "run_checks")
    assert code == 0, out
    report = json.loads((game / "reports" / "check.json").read_text())
    counts = report["coverage"]["actions"]
    assert counts and all(n > 0 for n in counts.values())
    listed = ", ".join(f"{name} {n}" for name, n in counts.items())
    assert f"Fuzzing played each action: {listed}." in out
    assert "Never played" not in out
