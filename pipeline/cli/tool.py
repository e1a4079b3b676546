"""``rulebook2game tool GAME_DIR NAME [ARGS]``: run one of the agent's tools from a shell.

The same code answers the built-in agent and a coding agent working through the
command line, so both read the same compact results. Exit codes: 0 done (compile ok,
checks green), 1 compile errors or check findings, 2 the call itself was wrong (the
correction is printed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from rulebook2game.agent.backends import load_rulebook_view, real_toolbox
from rulebook2game.agent.dispatch import ToolRunner
from rulebook2game.agent.pages import PageStore
from rulebook2game.agent.tools import TOOL_NAMES
from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.errors import BadInputError
from rulebook2game.llm.messages import ToolCall
from rulebook2game.workspace import open_workspace

_EXIT = {"retry": 2, "compile_failed": 1, "checks_failed": 1}


def tool_command(
    game_dir: Annotated[Path, typer.Argument(help="The game directory.")],
    name: Annotated[str, typer.Argument(help=f"Tool: {', '.join(TOOL_NAMES)}.")],
    arguments: Annotated[str, typer.Argument(help="Arguments as a JSON object.")] = "{}",
    content_file: Annotated[
        Path | None,
        typer.Option("--content-file", help="write_page: read the page content from this file."),
    ] = None,
) -> None:
    """Run one agent tool on GAME_DIR and print its result."""
    with fail_cleanly():
        ws = open_workspace(game_dir)
        config = ws.config()
        if content_file is not None:
            arguments = _with_content(arguments, content_file)
        toolbox = real_toolbox(load_rulebook_view(ws.rulebook_json), config.target)
        runner = ToolRunner(ws, toolbox, PageStore(ws.pages_dir, suffix=ws.page_suffix))
        outcome = runner.run(ToolCall("cli", name, arguments))
        target = err_console if outcome.effect == "retry" else console
        target.out(outcome.content, end="", highlight=False)
    raise typer.Exit(code=_EXIT.get(outcome.effect, 0))


def _with_content(arguments: str, content_file: Path) -> str:
    """The JSON arguments with ``content`` read from ``content_file``."""
    try:
        loaded = json.loads(arguments) if arguments.strip() else {}
    except ValueError as exc:
        raise BadInputError(f"arguments are not valid JSON ({exc})") from None
    if not isinstance(loaded, dict):
        raise BadInputError('arguments must be a JSON object, e.g. \'{"name": "scoring"}\'')
    try:
        loaded["content"] = content_file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BadInputError(f"--content-file {content_file}: not UTF-8 text") from None
    except OSError as exc:
        raise BadInputError(f"--content-file {content_file}: {exc.strerror or exc}") from None
    return json.dumps(loaded)


def register(app: typer.Typer) -> None:
    """Add ``tool`` to the command line."""
    app.command(name="tool")(tool_command)
