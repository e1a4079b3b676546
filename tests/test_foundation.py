"""The package surface, the canonical action text and the command line's basics."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulebook2game
from rulebook2game.actions import Action, canonical, format_action, parse_action
from rulebook2game.cli import app

ROOT = Path(__file__).resolve().parent.parent


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


def _package_dirs() -> dict[str, str]:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return dict(config["package-dir"])


def test_every_subpackage_is_declared() -> None:
    """Every folder with an ``__init__.py`` under a mapped root is a declared package."""
    import os
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = set(config["packages"])
    found: set[str] = set()
    for name, folder in _package_dirs().items():
        root = ROOT / folder
        assert root.is_dir() and not root.is_symlink(), folder
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            rel = Path(dirpath).relative_to(root).parts
            # A subfolder that is itself a mapped root is walked under its own name.
            if rel and f"{name}.{rel[0]}" in _package_dirs():
                continue
            if not rel or "__init__.py" in files:
                found.add(name + "".join("." + part for part in rel))
    assert found == declared


def test_typecheck_mirror_is_whole() -> None:
    """``.typecheck/rulebook2game/`` links every entry of ``pipeline/`` and ``targets``."""
    mirror = ROOT / ".typecheck" / "rulebook2game"
    want = {
        e.name: f"../../pipeline/{e.name}"
        for e in (ROOT / "pipeline").iterdir()
        if e.name != "__pycache__"
    }
    want["targets"] = "../../targets"
    have = {e.name: os.readlink(e) for e in mirror.iterdir() if e.is_symlink()}
    missing = sorted(set(want) - set(have))
    assert not missing, "mypy cannot see these modules; add links: " + "; ".join(
        f"ln -s {want[m]} .typecheck/rulebook2game/{m}" for m in missing
    )
    assert have == want


COMMANDS = (
    "extract",
    "ingest",
    "tool",
    "second-opinion",
    "check",
    "diff",
    "regress",
    "traces",
    "mutants",
    "eval",
    "bench",
    "play",
    "serve",
)


def test_every_command_has_its_help_checked() -> None:
    assert {c.name for c in app.registered_commands} == set(COMMANDS)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_no_value_on_flags_and_no_mid_phrase_breaks(command: str) -> None:
    args = [command, "--help"] if command else ["--help"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    # At 250 columns nothing needs wrapping: every paragraph of the docstring is one line.
    doc = (
        inspect.getdoc(next(c for c in app.registered_commands if c.name == command).callback)
        if command
        else ""
    )
    for paragraph in (doc or "").split("\n\n")[1:]:
        if "`" not in paragraph:
            assert " ".join(paragraph.split()) in result.output, paragraph


def test_tool_help_lists_every_tool_with_its_arguments() -> None:
    from rulebook2game.agent.tools import TOOL_NAMES

    out = CliRunner().invoke(app, ["tool", "--help"], env={"COLUMNS": "250"}).output
    for name in TOOL_NAMES:
        assert f"{name} {{" in out, name
    assert '"section_id": string?' in out and '"name": string, "content": string' in out
