"""The package surface, the canonical action text and the command line's basics."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

import rulebook2game
from rulebook2game.actions import Action, canonical, format_action, parse_action
from rulebook2game.cli import app


def test_all_matches_public_names() -> None:
    public = {n for n in dir(rulebook2game) if not n.startswith("_")} - {
        "actions",
        "errors",
        "engine",
        "resources",
        "workspace",
        "cli",
        "targets",
    }
    assert sorted(rulebook2game.__all__) == rulebook2game.__all__
    assert public <= set(rulebook2game.__all__) | {
        n for n in public if isinstance(getattr(rulebook2game, n), type(sys))
    }


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("hold()", Action("hold")),
        ("drop(col=3)", Action("drop", (("col", 3),))),
        ("play(card=QS)", Action("play", (("card", "QS"),))),
        ("move(x=-1, y=2)", Action("move", (("x", -1), ("y", 2)))),
    ],
)
def test_action_text_round_trip(text: str, action: Action) -> None:
    assert parse_action(text) == action
    assert format_action(action) == text


def test_canonical_normalises_spacing() -> None:
    assert canonical("  drop( col = 3 ) ") == "drop(col=3)"


@pytest.mark.parametrize("bad", ["drop", "drop(col)", "drop(col=)", "(col=1)", "drop(c=1,)"])
def test_parse_action_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_action(bad)


def test_version_flag() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"rulebook2game {rulebook2game.__version__}"


def test_console_script_help() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "rulebook2game", "--help"], capture_output=True, text=True
    )
    assert out.returncode == 0
    assert "rulebook" in out.stdout.lower()


def test_every_subpackage_is_declared() -> None:
    import os
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pkg = root / "pipeline"
    declared = set(
        tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        "rulebook2game" + "".join("." + part for part in Path(dirpath).relative_to(pkg).parts)
        for dirpath, _dirs, files in os.walk(pkg, followlinks=True)
        if "__init__.py" in files
    }
    assert found == declared
