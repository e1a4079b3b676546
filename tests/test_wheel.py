"""``pip install .`` as a user does it: a wheel in a fresh environment, used elsewhere.

The wheel is built from a copy of the sources (so the checkout gets no ``build/``),
installed with its dependencies into a new virtual environment in a temporary folder, and
the installed ``rulebook2game`` runs from a folder that holds no part of the checkout.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "pipeline", "targets", "prompts")
RUNTIME_FILES = ("*.j2", "*.toml", "*.md", "*.rl")


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the fresh venv's ``bin/``, the wheel)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(path, src / name)
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", "dist", str(src)], tmp
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp / "dist").glob("rulebook2game-*.whl")
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], tmp)
    assert made.returncode == 0, made.stderr
    bin_dir = venv / "bin"
    done = _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], tmp)
    assert done.returncode == 0, done.stderr
    return bin_dir, wheel


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of a shipped corpus game, as a user would make one (no build, no reports)."""
    dest = tmp_path / "ttt"
    shutil.copytree(
        ROOT / "corpora" / "tic_tac_toe",
        dest,
        ignore=shutil.ignore_patterns("build", "reports", "runs"),
    )
    return dest


@pytest.mark.slow
def test_wheel_carries_every_runtime_file(installed: tuple[Path, Path]) -> None:
    _bin, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for folder, inside in (("prompts", "prompts"), ("targets", "targets"), ("pipeline", "")):
        for pattern in RUNTIME_FILES:
            for path in (ROOT / folder).rglob(pattern):
                rel = path.relative_to(ROOT / folder).as_posix()
                expected.add("rulebook2game/" + (f"{inside}/{rel}" if inside else rel))
    assert expected, "no run-time files found"
    assert expected <= names, sorted(expected - names)


@pytest.mark.slow
def test_installed_wheel_checks_a_corpus_game(
    installed: tuple[Path, Path], game: Path, tmp_path: Path
) -> None:
    bin_dir, _wheel = installed
    out = _run([str(bin_dir / "rulebook2game"), "check", str(game)], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert (game / "reports" / "check.json").is_file()
    assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_installed_wheel_ingests_without_endpoint(
    installed: tuple[Path, Path], game: Path, tmp_path: Path
) -> None:
    bin_dir, _wheel = installed
    dest = tmp_path / "new_game"
    out = _run(
        [str(bin_dir / "rulebook2game"), "ingest", str(game / "rules.pdf"), "-o", str(dest)],
        tmp_path,
    )
    assert out.returncode == 3, out.stdout + out.stderr
    assert "rl" in (dest / "AGENTS.md").read_text(encoding="utf-8")
    assert (dest / "rulebook.json").is_file()


@pytest.mark.slow
def test_installed_wheel_runs_agent_tools(
    installed: tuple[Path, Path], game: Path, tmp_path: Path
) -> None:
    bin_dir, _wheel = installed
    out = _run([str(bin_dir / "rulebook2game"), "tool", str(game), "list_pages"], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "board" in out.stdout or ".rl" in out.stdout


@pytest.mark.slow
def test_installed_wheel_eval_without_corpus_says_what_to_give(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, _wheel = installed
    out = _run([str(bin_dir / "rulebook2game"), "eval"], tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "--suite" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "evals").exists()


@pytest.mark.slow
def test_installed_wheel_regresses_diffs_and_benches(
    installed: tuple[Path, Path], game: Path, tmp_path: Path
) -> None:
    bin_dir, _wheel = installed
    tool = str(bin_dir / "rulebook2game")
    corpus = game.parent
    runs = [
        [tool, "regress", str(corpus), "--fuzz", "5", "--oracle-runs", "2", "-j", "1"],
        [tool, "diff", str(game), str(game), "--walks", "1"],
        [tool, "bench", str(game), "--seconds", "0.2"],
    ]
    for cmd in runs:
        out = _run(cmd, tmp_path)
        assert out.returncode == 0, f"{cmd[1]}: {out.stdout}{out.stderr}"
        assert "Traceback" not in out.stderr
