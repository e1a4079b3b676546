"""The ``check`` and ``bench`` commands on small games, and ``check`` on every corpus game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.bench import NATIVE, OPENSPIEL, PYTHON, bench_workspace, openspiel_name
from rulebook2game.check.run import DEFAULT_STAGES, run_check
from rulebook2game.cli import app
from rulebook2game.errors import OracleError, WorkspaceError
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import open_workspace
from tests.rl_support import rl_games, workspace_copy

__all__ = ["rl_games"]

QUICK = ["--fuzz", "0", "--oracle-runs", "0"]
"""Compile and replay only (the stages of this part of the pipeline)."""


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", *args, *QUICK])
    return result.exit_code, result.output


def test_check_passes_and_writes_reports(rl_games: Path, tmp_path: Path) -> None:
    ws = open_workspace(rl_games / "tiny_ttt")
    report = tmp_path / "out" / "report.json"
    code, output = _check(str(ws.root), "--json", str(report))
    assert code == 0, output
    assert "2/2 traces replayed" in output and "PASS" in output
    data = json.loads(report.read_text())
    assert data["ok"] is True and data["game"] == "tiny_ttt"
    assert [s["name"] for s in data["stages"]][:1] == ["compile"]
    assert {s["name"]: s["status"] for s in data["stages"]}["replay"] == "ok"
    assert (ws.reports_dir / "check.json").is_file() and (ws.reports_dir / "check.md").is_file()


def test_a_diverging_trace_fails_the_check(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "dice", tmp_path)
    trace = ws.traces_dir / "seed1.jsonl"
    lines = trace.read_text().splitlines()
    end = json.loads(lines[-1])
    end["returns"] = list(reversed(end["returns"]))
    trace.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    code, output = _check(str(ws.root))
    assert code == 1
    assert "1/2 traces replayed" in output and "returns differs" in output


def test_a_broken_page_fails_with_file_and_line(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    page = ws.pages_dir / "play.rl"
    page.write_text(page.read_text().replace("current = 1 - current", "current = 1 - currnet"))
    line = next(i for i, text in enumerate(page.read_text().splitlines(), 1) if "currnet" in text)
    code, output = _check(str(ws.root))
    assert code == 1
    assert f"pages/play.rl:{line}:" in output
    assert "rlc stops at its first error" in output
    data = json.loads((ws.reports_dir / "check.json").read_text())
    assert data["findings"][0]["kind"] == "compile_error"
    assert {s["name"]: s["status"] for s in data["stages"]}["replay"] == "skipped"


def test_a_malformed_trace_is_an_error(rl_games: Path, tmp_path: Path) -> None:
    ws = workspace_copy(rl_games, "tiny_ttt", tmp_path)
    (ws.traces_dir / "zz_bad.jsonl").write_text("{not json\n")
    code, _ = _check(str(ws.root))
    assert code == 1
    data = json.loads((ws.reports_dir / "check.json").read_text())
    replay = next(s for s in data["stages"] if s["name"] == "replay")
    assert replay["status"] == "error" and "zz_bad.jsonl:1: not JSON" in replay["summary"]


def test_check_of_something_that_is_not_a_game(tmp_path: Path) -> None:
    code, output = _check(str(tmp_path / "nowhere"))
    assert code != 0 and "not a directory" in output and "Traceback" not in output


def test_a_folder_that_is_not_a_game_is_bad_input(tmp_path: Path) -> None:
    assert _check(str(tmp_path))[0] == 2  # no game.toml
    (tmp_path / "game.toml").write_text("players = 2\n")  # no name
    code, output = _check(str(tmp_path))
    assert code == 2 and "name" in output


def test_bench_refuses_what_it_cannot_measure_before_measuring(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()  # no pages: compiling first would fail differently
    toml = 'name = "g"\nplayers = 2\n'
    (tmp_path / "game.toml").write_text(toml + 'oracle = "openspiel:no_such_game"\n')
    with pytest.raises(OracleError, match="no game 'no_such_game'"):
        bench_workspace(open_workspace(tmp_path), seconds=0.1)
    (tmp_path / "game.toml").write_text(toml + 'target = "python"\n')
    with pytest.raises(WorkspaceError, match="unknown target 'python'"):
        bench_workspace(open_workspace(tmp_path), seconds=0.1)


def test_run_check_with_a_custom_stage_list(rl_games: Path) -> None:
    ws = open_workspace(rl_games / "dice")
    seen: list[str] = []
    report = run_check(ws, DEFAULT_STAGES[:1], on_stage=lambda r: seen.append(r.name))
    assert report.ok and seen == ["compile"] and len(report.stages) == 1


def test_bench_prints_the_table(rl_games: Path, tmp_path: Path) -> None:
    ws = open_workspace(rl_games / "tiny_ttt")
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(
        app, ["bench", str(ws.root), "--seconds", "0.2", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    for name in (NATIVE, PYTHON, OPENSPIEL):
        assert name.split()[0] in result.output
    assert "playouts/s" in result.output
    data = json.loads(out.read_text())
    # then the in-process rows, when an earlier test left a passing check report
    assert [r["engine"] for r in data["rows"]][:3] == [NATIVE, PYTHON, OPENSPIEL]
    assert all(r["playouts"] > 0 and r["per_second"] > 0 for r in data["rows"])
    assert data["rows"][0]["mean_length"] == pytest.approx(7.6, abs=1.0)
    assert f"{NATIVE} / {OPENSPIEL}" in data["ratios"]


def test_bench_without_an_oracle(rl_games: Path) -> None:
    ws = open_workspace(rl_games / "dice")
    report = bench_workspace(ws, seconds=0.1)
    assert [r.engine for r in report.rows] == [NATIVE, PYTHON]
    assert any("no oracle" in note for note in report.notes)
    assert report.ratio(NATIVE, PYTHON) is not None and report.ratio(NATIVE, OPENSPIEL) is None


def test_openspiel_names() -> None:
    assert openspiel_name("openspiel:pig(winscore=20)") == "pig(winscore=20)"
    with pytest.raises(OracleError):
        openspiel_name("gdl:tictactoe")


CORPUS = sorted(p.parent for p in CORPORA_DIR.glob("*/game.toml") if (p.parent / "pages").is_dir())


@pytest.mark.parametrize("game_dir", CORPUS, ids=lambda p: p.name)
def test_every_corpus_game_passes_check(game_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / game_dir.name
    copy.mkdir()
    for name in ("game.toml", "interface.toml", "pages", "traces"):
        source = game_dir / name
        if source.is_dir():
            shutil.copytree(source, copy / name)
        elif source.is_file():
            shutil.copy2(source, copy / name)
    report = run_check(open_workspace(copy), DEFAULT_STAGES)
    problems = [f.message for f in report.findings] + [
        s.summary for s in report.stages if s.status == "error"
    ]
    assert report.ok, problems
    assert {s.name: s.status for s in report.stages} == {"compile": "ok", "replay": "ok"}
