"""``rulebook2game second-opinion GAME_DIR``: prepare an independent second translation.

It makes ``GAME_DIR/second/`` (the rulebook, the action interface, a ``game.toml`` in
the other target and its own ``AGENTS.md``) and names it in ``GAME_DIR/game.toml``, so
that every later ``check`` and ``tool GAME_DIR run_checks`` walks both translations in
lockstep. The second translation itself is a coding agent's job, in a fresh context;
``ingest --second-opinion`` does all of it with a model endpoint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebook2game.cli._common import console, fail_cleanly
from rulebook2game.second_opinion import SECOND_DIR, prepare_second_opinion
from rulebook2game.workspace import open_workspace


def second_opinion_command(
    game_dir: Annotated[Path, typer.Argument(help="The game directory (the first translation).")],
    target: Annotated[
        str | None,
        typer.Option(help="Target of the second translation (default: the other target)."),
    ] = None,
    folder: Annotated[
        str, typer.Option("--dir", help="Folder inside GAME_DIR for the second translation.")
    ] = SECOND_DIR,
) -> None:
    """Prepare GAME_DIR/second for an independent translation, walked in lockstep with GAME_DIR.

    An agent in a fresh context translates second/ by following second/AGENTS.md (the
    same rulebook and actions, the other target), never seeing GAME_DIR's pages.

    Every later check of GAME_DIR walks both engines in lockstep; each disagreement is a
    finding with a shrunk counterexample and both sides' cited rules.
    """
    with fail_cleanly():
        made = prepare_second_opinion(open_workspace(game_dir), target, folder)
    root = made.workspace.root
    if made.derived_interface:
        console.print(
            f"{game_dir}/interface.toml: written from this game's pages (the actions both "
            "translations must speak)",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    state = "prepared" if made.created else "refreshed (its pages and scenarios kept)"
    console.print(
        f"{root} {state}: target {made.target}, brief {made.brief}.\n"
        f"Next: have a separate agent, in a fresh context, translate {root} by following its "
        "AGENTS.md, without reading this game's pages or scenarios. Then "
        f"`rulebook2game tool {game_dir} run_checks` walks both translations in lockstep "
        f'(game.toml: second_opinion = "{folder}").',
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


def register(app: typer.Typer) -> None:
    """Add ``second-opinion`` to the command line."""
    app.command(name="second-opinion")(second_opinion_command)
