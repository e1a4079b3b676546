"""``rulebook2game extract`` on Vassal files, end to end through a subprocess.

Skipped while the ``extract`` command is not registered; the library entry
point is tested directly in the other test_vassal files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner
from vassal_builders import (
    add,
    basic,
    basic_state,
    commands,
    moduledata,
    obfuscate,
    slot_xml,
    write_zip,
)

from rulebook2game.cli import app


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulebook2game", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def module_file(tmp_path: Path) -> Path:
    build = (
        '<?xml version="1.0"?><VASSAL.build.GameModule name="Cli Game" version="1.0">'
        '<VASSAL.build.module.PieceWindow name="P">'
        + slot_xml("PieceSlot", "Pawn", "1", [basic("Pawn", "pawn.png")], [basic_state()])
        + "</VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>"
    )
    return write_zip(
        tmp_path / "cli.vmod", {"buildFile.xml": build, "moduledata": moduledata("Cli Game")}
    )


def test_extract_module(module_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "components.json"
    result = _run("extract", str(module_file), "-o", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "rulebook2game-vassal-module/1"
    assert [k["name"] for k in data["kinds"]] == ["Pawn"]


def test_extract_log_with_module(module_file: Path, tmp_path: Path) -> None:
    text = commands(
        "begin_save",
        add("p1", [basic("", "pawn.png")], [basic_state("Map", 1, 2, "1")]),
        "end_save",
    )
    log = write_zip(tmp_path / "game.vlog", {"savedGame": obfuscate(text, 9)})
    out = tmp_path / "events.json"
    result = _run("extract", str(log), "--module", str(module_file), "-o", str(out))
    assert result.returncode == 0, result.stderr
    events = json.loads(out.read_text(encoding="utf-8"))["events"]
    assert [e["piece"] for e in events if e["kind"] == "add"] == ["Pawn"]


def test_bad_module_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = write_zip(tmp_path / "bad.vmod", {"readme.txt": "no module here"})
    out = tmp_path / "components.json"
    result = _run("extract", str(bad), "-o", str(out))
    assert result.returncode == 2
    assert "not a Vassal module" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert not out.exists()


def test_output_onto_the_module_or_a_folder_is_refused(module_file: Path, tmp_path: Path) -> None:
    before = module_file.read_bytes()
    for output in (module_file, tmp_path):
        result = CliRunner().invoke(app, ["extract", str(module_file), "-o", str(output)])
        assert result.exit_code == 2, result.output
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert module_file.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli.vmod"]


def test_a_folder_named_like_a_module_is_said_to_be_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "game.vmod"
    folder.mkdir()
    result = CliRunner().invoke(app, ["extract", str(folder), "-o", str(tmp_path / "c.json")])
    assert result.exit_code == 2
    assert "is a directory" in result.stderr
