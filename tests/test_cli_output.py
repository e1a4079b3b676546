"""What the command line prints into a pipe or a CI log: nothing cut, nothing wrapped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.resources import CORPORA_DIR, EVALS_DIR


def test_a_piped_eval_table_keeps_its_headers_whole() -> None:
    (report,) = sorted(EVALS_DIR.glob("reports/*-corpus.json"))[:1]
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    code = (
        "import sys; from pathlib import Path\n"
        "from rulebook2game.cli._common import console\n"
        "from rulebook2game.evals.render import rich_table\n"
        "from rulebook2game.evals.report import load_eval_report\n"
        "console.print(rich_table(load_eval_report(Path(sys.argv[1]))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(report)], capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    header = next(line for line in out.stdout.splitlines() if "game" in line and "┃" in line)
    cells = [c.strip() for c in header.strip("┃ ").split("┃")]
    assert cells[:8] == [
        "game", "compiles", "check", "oracle", "golden", "coverage", "mutants", "runs"
    ]  # fmt: skip
    assert "…" not in out.stdout


def test_check_says_where_it_wrote_its_report(tmp_path: Path) -> None:
    game = shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", tmp_path / "ttt", ignore=shutil.ignore_patterns("build")
    )
    extra = tmp_path / "out.json"
    args = ["check", str(game), "--fuzz", "5", "--oracle-runs", "2", "--json", str(extra)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if ln.startswith("report: "))
    for path in (game / "reports" / "check.json", game / "reports" / "check.md", extra):
        assert str(path) in line and path.is_file()


def test_a_piped_finding_panel_is_as_wide_as_its_content(tmp_path: Path) -> None:
    """In a pipe the console is thousands of columns wide; a finding's box must not be."""
    from rulebook2game.check.report import CheckReport, FindingRecord

    message = "legal moves of player 1 differ: extra [place(col=3, row=3)]"
    report = CheckReport(
        game="g",
        workspace=str(tmp_path),
        seed=0,
        findings=[FindingRecord(kind="oracle_legal", stage="against", message=message)],
    )
    path = tmp_path / "check.json"
    path.write_text(report.model_dump_json())
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    code = (
        "import sys; from pathlib import Path\n"
        "from rulebook2game.cli._common import console\n"
        "from rulebook2game.check.report import load_report, render_console\n"
        "render_console(load_report(Path(sys.argv[1])), console)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    boxed = [line for line in out.stdout.splitlines() if line.startswith(("╭", "│", "╰"))]
    assert boxed and any(message in line for line in boxed)
    assert max(len(line) for line in boxed) <= len(message) + 4
