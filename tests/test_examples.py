"""``examples/``: the shipped Vassal module and log are current and ``extract`` reads them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.resources import PROJECT_DIR

EXAMPLES = PROJECT_DIR / "examples" / "vassal"


def test_vassal_examples_are_built_by_their_script() -> None:
    path = PROJECT_DIR / "scripts" / "build_vassal_example.py"
    spec = importlib.util.spec_from_file_location("build_vassal_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = module.files()
    assert sorted(p.name for p in built) == ["tic_tac_toe.vlog", "tic_tac_toe.vmod"]
    for target, data in built.items():
        assert target.read_bytes() == data, f"{target} is stale: run {path.name}"
    assert module.files() == built  # the same bytes every time


def test_readme_extract_commands_work_on_the_examples(tmp_path: Path) -> None:
    module, log = EXAMPLES / "tic_tac_toe.vmod", EXAMPLES / "tic_tac_toe.vlog"
    components = tmp_path / "components.json"
    result = CliRunner().invoke(app, ["extract", str(module), "-o", str(components)])
    assert result.exit_code == 0, result.output
    data = json.loads(components.read_text(encoding="utf-8"))
    assert [k["name"] for k in data["kinds"]] == ["X", "O"]
    (board,) = data["maps"][0]["boards"]
    assert len(board["grids"][0]["regions"]) == 9
    events = tmp_path / "events.json"
    args = ["extract", str(log), "--module", str(module), "-o", str(events)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    added = [e["piece"] for e in json.loads(events.read_text())["events"] if e["kind"] == "add"]
    assert added == ["X", "O"] * 4 + ["X"]
