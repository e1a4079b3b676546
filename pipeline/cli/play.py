"""``rulebook2game play GAME_DIR``: play a game in the terminal against bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.play.bots import make_bot
from rulebook2game.play.game import open_game, parse_seats
from rulebook2game.play.table import Table
from rulebook2game.play.terminal import TerminalTable
from rulebook2game.trace import read_trace
from rulebook2game.workspace import open_workspace


def play(
    game_dir: Annotated[Path, typer.Argument(help="The game directory.")],
    seat: Annotated[
        list[int] | None, typer.Option("--seat", "-s", help="A seat you play (repeat for more).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="Bot kind for the other seats, or one per seat: random,random.")
    ] = "random",
    seed: Annotated[int, typer.Option(help="Seeds chance steps and bots.")] = 0,
    load: Annotated[
        Path | None, typer.Option("--load", help="Go on from a saved game (a trace).")
    ] = None,
) -> None:
    """Play a game in the terminal: your seat(s) against bots, with undo and save."""
    with fail_cleanly():
        trace = read_trace(load) if load is not None else None
        open_workspace(game_dir)  # not a game directory: one line, before any work
        err_console.print("[dim]compiling the game (checked build)...[/]")
        game = open_game(game_dir)
        try:
            humans, kinds = parse_seats(seat or [0], bots, game.engine.players)
            table = Table(
                game.engine,
                game=game.config.name,
                humans=humans,
                bots={s: make_bot(k) for s, k in kinds.items()},
                bot_names=kinds,
                seed=seed,
            )
            if trace is not None:
                table.load(trace)
            title = game.config.title or game.config.name
            seats = ", ".join(str(s) for s in sorted(humans))
            console.print(f"[bold]{title}[/] · you play seat {seats}", highlight=False)
            TerminalTable(table, console).run()
        finally:
            game.close()


def register(app: typer.Typer) -> None:
    """Add ``play`` to the command line."""
    app.command(name="play")(play)
