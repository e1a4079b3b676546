"""``rulebook2game tool GAME_DIR NAME [ARGS]``: run one of the agent's tools from a shell.

The same code answers the built-in agent and a coding agent working through the
command line, so both read the same compact results. Exit codes: 0 done (compile ok,
checks green), 1 compile errors or check findings, 2 the call itself was wrong (the
correction is printed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from rulebook2game.agent.backends import real_toolbox, workspace_rulebook
from rulebook2game.agent.dispatch import ToolRunner
from rulebook2game.agent.pages import PageStore
from rulebook2game.agent.tools import TOOL_NAMES, tool_specs
from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.errors import BadInputError, WorkspaceError
from rulebook2game.llm.messages import ToolCall
from rulebook2game.second_opinion import second_pages
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
        rulebook, extracted = workspace_rulebook(ws)
        if extracted:
            err_console.print(
                f"extracted {config.rulebook} -> {ws.rulebook_json}",
                highlight=False,
                soft_wrap=True,
            )
        toolbox = real_toolbox(rulebook, config.target)
        pages = PageStore(ws.pages_dir, suffix=ws.page_suffix)
        runner = ToolRunner(ws, toolbox, pages, second=second_pages(ws))
        outcome = runner.run(ToolCall("cli", name, arguments))
        target = err_console if outcome.effect == "retry" else console
        # one answer per line, so that answers printed one after another stay apart
        ending = "" if outcome.content.endswith("\n") else "\n"
        target.out(outcome.content, end=ending, highlight=False)
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


def tools_help() -> str:
    """``tool --help``'s list: every tool, its JSON arguments and what it does."""
    try:
        specs = tool_specs()
    except WorkspaceError:
        return "Tools: " + ", ".join(TOOL_NAMES) + "."
    lines = []
    for spec in specs:
        props: dict[str, Any] = spec.parameters.get("properties", {})
        required = set(spec.parameters.get("required", []))
        args = ", ".join(
            f'"{name}": {props[name].get("type", "value")}' + ("" if name in required else "?")
            for name in props
        )
        first = spec.description.split(". ")[0].rstrip(".")
        lines.append(f"{spec.name} {{{args}}}: {first}.")
    return "\n\n".join(escape(line) for line in lines)


def register(app: typer.Typer) -> None:
    """Add ``tool`` to the command line."""
    doc = (tool_command.__doc__ or "").strip()
    usage = (
        "ARGUMENTS is a JSON object (`?`: may be left out), e.g. "
        'rulebook2game tool GAME_DIR read_page \'{"name": "board"}\'.'
    )
    app.command(name="tool", help=f"{doc}\n\n{usage}\n\n{tools_help()}")(tool_command)
