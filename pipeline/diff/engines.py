"""Compile a game directory and start its engine (the seam to the target compilers).

Every game directory compiles into its own ``build/`` (the rl target keys builds by
a hash of the pages, so an unchanged side reuses its build). Only the ``rl`` target
exists; another ``target`` in ``game.toml`` is reported as a compile failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulebook2game.engine import Engine
from rulebook2game.errors import CompileError, Rulebook2GameError
from rulebook2game.workspace import Workspace, open_workspace


@dataclass
class Compiled:
    """An engine, or why there is none; ``close()`` stops its worker."""

    engine: Engine[Any] | None
    error: str | None
    seconds: float = 0.0

    def close(self) -> None:
        """Stop the engine's worker, if it has one."""
        closer = getattr(self.engine, "close", None)
        if callable(closer):
            closer()

    def __enter__(self) -> Compiled:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def compile_game(root: Path, *, optimized: bool = False) -> Compiled:
    """Compile ``root``'s pages (checked build unless ``optimized``) and start an engine.

    Compile errors and a worker that cannot start come back as ``error`` (one line);
    a broken ``game.toml`` raises :class:`~rulebook2game.errors.WorkspaceError`.
    """
    from rulebook2game.targets.rl.compile import compile_workspace
    from rulebook2game.targets.rl.engine import RlEngine

    ws: Workspace = open_workspace(root)
    config = ws.config()
    if config.target != "rl":
        return Compiled(None, f"unknown target {config.target!r} (only rl is supported)")
    result = compile_workspace(ws, optimized=optimized)
    if result.build is None:
        return Compiled(None, result.summary(), result.seconds)
    try:
        engine = RlEngine(result.build, game=config.name)
    except CompileError as exc:
        return Compiled(None, str(exc), result.seconds)
    except Rulebook2GameError as exc:
        return Compiled(None, f"engine did not start: {exc}", result.seconds)
    return Compiled(engine, None, result.seconds)
