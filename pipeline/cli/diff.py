"""``rulebook2game diff OLD NEW``: rule pages with provenance, then the behaviour change."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.diff import (
    DiffOptions,
    diff_games,
    render_html,
    render_json,
    render_markdown,
    render_rich,
)
from rulebook2game.diff.compare import DEFAULT_MAX_STEPS, DEFAULT_SEED, DEFAULT_WALKS
from rulebook2game.errors import BadInputError
from rulebook2game.trace import write_text_atomic

_RENDERERS = {"md": render_markdown, "json": render_json, "html": render_html}


def diff(
    old: Annotated[str, typer.Argument(help="Old side: GAME_DIR, GAME_DIR@REV or GAME/runs/ID.")],
    new: Annotated[str, typer.Argument(help="New side: GAME_DIR, GAME_DIR@REV or GAME/runs/ID.")],
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="text (terminal), md, json or html.")
    ] = "text",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the report to this file.")
    ] = None,
    walks: Annotated[int, typer.Option(help="Seeded random trajectories walked.")] = DEFAULT_WALKS,
    seed: Annotated[
        int, typer.Option(help="First seed; walks use SEED..SEED+WALKS-1.")
    ] = DEFAULT_SEED,
    max_steps: Annotated[int, typer.Option(help="Longest random walk.")] = DEFAULT_MAX_STEPS,
    behaviour: Annotated[
        bool, typer.Option("--behaviour/--no-behaviour", help="Compile and compare engines.")
    ] = True,
    exit_code: Annotated[
        bool, typer.Option("--exit-code", help="Exit 1 when the sides differ (like git diff).")
    ] = False,
) -> None:
    """Diff two versions of a game: pages with the rules they cite, then behaviour."""
    with fail_cleanly():
        if fmt not in ("text", *_RENDERERS):
            raise BadInputError(f"--format {fmt}: expected text, md, json or html")
        if walks < 0 or max_steps < 1:
            raise BadInputError("--walks must be >= 0 and --max-steps >= 1")
        if behaviour:
            err_console.print("[dim]compiling both sides and walking them in lockstep...[/]")
        options = DiffOptions(walks=walks, seed=seed, max_steps=max_steps, behaviour=behaviour)
        result = diff_games(old, new, options)
        if fmt == "text" and output is None:
            console.print(render_rich(result))
        else:
            if fmt == "text":
                fmt = (
                    output.suffix.lstrip(".")
                    if output and output.suffix in (".json", ".html")
                    else "md"
                )
            text = _RENDERERS[fmt](result)
            if output is None:
                console.out(text, end="", highlight=False)
            else:
                write_text_atomic(output, text)
                err_console.print(f"wrote {output}")
    if exit_code and result.changed:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``diff`` to the command line."""
    app.command(name="diff")(diff)
