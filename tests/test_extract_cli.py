"""``rulebook2game extract``: success, and every kind of bad input failing cleanly.

A bad input ends with exit code 2, exactly one line on stderr, no traceback and no
output file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from extract_pdfs import broken_ligatures, image_only, text_pdf, zero_pages
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.extract_eval.variants import variant

LINES = ["Scoring", "Each player scores one point per cube.", "The highest score wins."]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["extract", *args])
    return result.exit_code, result.stdout, result.stderr


def _missing(tmp: Path) -> Path:
    return tmp / "missing.pdf"


def _directory(tmp: Path) -> Path:
    (tmp / "folder.pdf").mkdir()
    return tmp / "folder.pdf"


def _not_a_pdf(tmp: Path) -> Path:
    path = tmp / "rules.pdf"
    path.write_text("These are the rules, typed in a text file.\n", encoding="utf-8")
    return path


def _empty(tmp: Path) -> Path:
    path = tmp / "empty.pdf"
    path.write_bytes(b"")
    return path


def _truncated(tmp: Path) -> Path:
    whole = text_pdf(tmp / "whole.pdf", LINES).read_bytes()
    path = tmp / "truncated.pdf"
    path.write_bytes(whole[: len(whole) * 6 // 10])
    return path


def _corrupt(tmp: Path) -> Path:
    path = tmp / "corrupt.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8 + b"\n%%EOF\n")
    return path


def _encrypted(tmp: Path) -> Path:
    return text_pdf(tmp / "locked.pdf", LINES, password="secret")


BAD: dict[str, tuple[Callable[[Path], Path], list[str], str]] = {
    "missing": (_missing, [], "no such file"),
    "directory": (_directory, [], "is a directory"),
    "not a pdf": (_not_a_pdf, [], "not a PDF"),
    "empty": (_empty, [], "empty"),
    "truncated": (_truncated, [], "truncated"),
    "corrupt": (_corrupt, [], "damaged"),
    "encrypted, no password": (_encrypted, [], "--password"),
    "encrypted, wrong password": (_encrypted, ["--password", "guess"], "wrong password"),
    "image only": (lambda t: image_only(t / "scan.pdf"), [], "OCR"),
    "zero pages": (lambda t: zero_pages(t / "zero.pdf"), [], "no pages"),
    "module with a pdf": (
        lambda t: text_pdf(t / "ok.pdf", LINES),
        ["--module", "m.vmod"],
        "--module",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_fails_cleanly(case: str, tmp_path: Path) -> None:
    make, extra, message = BAD[case]
    source = make(tmp_path)
    out = tmp_path / "out" / "rulebook.json"
    out.parent.mkdir()
    code, stdout, stderr = _run(str(source), "-o", str(out), *extra)
    assert code == 2
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert message in stderr
    assert "Traceback" not in stderr + stdout
    assert list(out.parent.iterdir()) == []


def test_bad_output_directory(tmp_path: Path) -> None:
    source = text_pdf(tmp_path / "ok.pdf", LINES)
    code, _, stderr = _run(str(source), "-o", str(tmp_path / "nowhere" / "rulebook.json"))
    assert code == 2 and "does not exist" in stderr


def test_encrypted_with_password(tmp_path: Path) -> None:
    out = tmp_path / "rulebook.json"
    code, stdout, stderr = _run(str(_encrypted(tmp_path)), "--password", "secret", "-o", str(out))
    assert code == 0, stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    texts = [s["text"] for sec in data["sections"] for s in sec["sentences"]]
    assert "The highest score wins." in texts
    assert "1 pages, " in stdout


def test_extract_writes_json_and_one_summary_line(tmp_path: Path) -> None:
    pdf = variant("two-column").render(tmp_path)
    out = tmp_path / "rulebook.json"
    code, stdout, stderr = _run(str(pdf), "-o", str(out))
    assert code == 0, stderr
    assert stdout.count("\n") == 1
    assert "2 pages, 12 sections, " in stdout and "0 low-confidence pages" in stdout
    assert "ms/page" in stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [s["id"] for s in data["sections"]][:3] == ["front", "1", "1.1"]


def test_broken_ligatures_are_flagged(tmp_path: Path) -> None:
    out = tmp_path / "rulebook.json"
    code, stdout, _ = _run(str(broken_ligatures(tmp_path / "lig.pdf")), "-o", str(out))
    assert code == 0
    assert "1 low-confidence pages (p. 1)" in stdout
    flags = json.loads(out.read_text(encoding="utf-8"))["low_confidence"]
    assert any("glyph widths" in reason for reason in flags[0]["reasons"])


def test_vassal_files_go_to_the_vassal_reader(tmp_path: Path) -> None:
    module = tmp_path / "game.vmod"
    module.write_bytes(b"not a zip")
    out = tmp_path / "components.json"
    code, _, stderr = _run(str(module), "-o", str(out))
    assert code == 2 and "PDF" not in stderr
    assert len(stderr.strip().splitlines()) == 1 and "game.vmod" in stderr
    assert not out.exists()


def test_real_process_has_no_traceback(tmp_path: Path) -> None:
    source = _not_a_pdf(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "rulebook2game", "extract", str(source), "-o", "x.json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {source} is not a PDF file (it has no %PDF- header)"
    ]
    assert not (tmp_path / "x.json").exists()


def test_error_line_is_plain_text(tmp_path: Path) -> None:
    source = tmp_path / "rules [/x] :x:.pdf"  # rich markup and an emoji code, if not escaped
    code, _, stderr = _run(str(source), "-o", str(tmp_path / "out.json"))
    assert code == 2
    assert stderr.strip() == f"error: {source}: no such file"


def test_piped_stderr_is_exactly_the_error_line(tmp_path: Path) -> None:
    source = _not_a_pdf(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "rulebook2game", "extract", str(source), "-o", "x.json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stderr == f"error: {source} is not a PDF file (it has no %PDF- header)\n"
