"""Open a game directory for play: compile the checked build and start its engine.

The engine runs the way ``check`` runs it: the pages compiled with bounds and
precondition checks, inside the sandboxed worker (generated code is untrusted, so a
crash of the game is an error of the game, not of the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook2game.engine import Engine
from rulebook2game.errors import BadWorkspaceError, CompileError, WorkerError
from rulebook2game.play.resolve import PlayError
from rulebook2game.targets import known_targets
from rulebook2game.targets.base import compile_and_start
from rulebook2game.workspace import GameConfig, Workspace, open_workspace


@dataclass(frozen=True)
class OpenGame:
    """A game directory with a running engine (close it when done)."""

    workspace: Workspace
    config: GameConfig
    engine: Engine[Any]

    def close(self) -> None:
        """Stop the engine's worker, if it has one."""
        closer = getattr(self.engine, "close", None)
        if callable(closer):
            closer()


def open_game(path: Path) -> OpenGame:
    """Compile ``path``'s pages (checked build) with the game's target and start the engine.

    Raises:
        BadWorkspaceError: ``path`` is not a game directory or names an unknown target.
        CompileError: the pages do not compile.
        WorkerError: the engine could not start.
    """
    ws = open_workspace(path)
    config = ws.config()
    if config.target not in known_targets():
        known = ", ".join(known_targets())
        raise BadWorkspaceError(f"{path}: unknown target {config.target!r} (known: {known})")
    started = compile_and_start(ws, optimized=False)
    if started.engine is None:
        if started.compile_failed:
            raise CompileError(f"{path}: {started.error}")
        raise WorkerError(f"{path}: {started.error}")
    return OpenGame(ws, config, started.engine)


def parse_seats(humans: list[int], bots: str, players: int) -> tuple[set[int], dict[int, str]]:
    """People's seats and a bot kind per other seat.

    ``bots`` is one kind for every other seat (``random``) or a comma-separated kind per
    other seat in seat order (``random,search``).

    Raises:
        PlayError: a seat out of range, or the wrong number of bot kinds.
    """
    for seat in humans:
        if not 0 <= seat < players:
            raise PlayError(f"--seat {seat}: the game has seats 0 to {players - 1}")
    people = set(humans)
    others = [s for s in range(players) if s not in people]
    kinds = [k.strip() for k in bots.split(",") if k.strip()] if bots else []
    if not others:
        return people, {}
    if len(kinds) == 1:
        kinds = kinds * len(others)
    if len(kinds) != len(others):
        raise PlayError(f"--bots {bots}: give one bot kind, or one per other seat ({len(others)})")
    return people, dict(zip(others, kinds, strict=True))
