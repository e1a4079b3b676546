"""The scripted OpenAI-compatible server for tests (see ``rulebook2game.llm.fake_server``).

Helpers here build scripts in Python; the server itself ships with the package so the
same scripts can be served from a shell::

    python -m rulebook2game.llm.fake_server --script S.json --port 8011
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulebook2game.llm.fake_server import (
    FakeOpenAIServer,
    Received,
    Script,
    ScriptStep,
    load_script,
)

__all__ = ["FakeOpenAIServer", "Received", "Script", "ScriptStep", "call", "load_script", "script"]


def call(name: str, arguments: dict[str, Any] | str | None = None) -> dict[str, Any]:
    """A scripted tool call (a string is sent verbatim, e.g. malformed JSON)."""
    if isinstance(arguments, str):
        return {"name": name, "raw_arguments": arguments}
    return {"name": name, "arguments": arguments or {}}


def script(*steps: dict[str, Any], after: dict[str, Any] | None = None) -> Script:
    """A script from step dicts (``{"tool_calls": [...], "fail": [...], "content": ...}``)."""
    return Script.model_validate({"steps": list(steps), "after": after})


def write_script(path: Path, value: Script) -> Path:
    """Save a script as the JSON file the standalone server reads."""
    path.write_text(json.dumps(value.model_dump(exclude_defaults=True), indent=1))
    return path
