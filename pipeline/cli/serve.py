"""``rulebook2game serve GAME_DIR``: the table and the review of a game in a browser."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebook2game.cli._common import err_console, fail_cleanly
from rulebook2game.errors import BadWorkspaceError, Rulebook2GameError
from rulebook2game.play.game import open_game
from rulebook2game.workspace import open_workspace


def serve(
    game_dir: Annotated[Path, typer.Argument(help="The game directory.")],
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    seed: Annotated[int, typer.Option(help="Default seed of new games.")] = 0,
) -> None:
    """Serve the game: a table against bots and a review of rules, findings and diffs."""
    import uvicorn

    from rulebook2game.serve.app import GameSite, create_app
    from rulebook2game.serve.pieces import load_piece_images

    with fail_cleanly():
        ws = open_workspace(game_dir)
        config = ws.config()
        if not 0 < port < 65536:
            raise BadWorkspaceError(f"--port {port}: expected 1 to 65535")
        err_console.print("[dim]compiling the game (checked build)...[/]")
        game, engine, problem = None, None, None
        try:
            game = open_game(game_dir)
            engine = game.engine
        except BadWorkspaceError:
            raise
        except Rulebook2GameError as exc:
            # The review still helps with a game that does not compile.
            problem = str(exc)
            err_console.print(f"[yellow]the game cannot be played:[/] {problem}", highlight=False)
        site = GameSite(ws, config, engine, problem, seed, load_piece_images(ws.root))
        err_console.print(f"serving {config.name} on http://{host}:{port}/  (Ctrl-C stops)")
        try:
            uvicorn.run(create_app(site), host=host, port=port, log_level="warning")
        finally:
            if game is not None:
                game.close()


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the command line."""
    app.command(name="serve")(serve)
