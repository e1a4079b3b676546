"""Compile a game directory and start its engine, whatever its target.

A thin name over :func:`rulebook2game.targets.base.compile_and_start` for diff, eval
and regress: every game directory compiles into its own ``build/`` (targets key builds
by a hash of the pages, so an unchanged side reuses its build).
"""

from __future__ import annotations

from pathlib import Path

from rulebook2game.targets.base import Started, compile_and_start
from rulebook2game.workspace import open_workspace

Compiled = Started
"""An engine, or why there is none; ``close()`` stops its worker."""


def compile_game(root: Path, *, optimized: bool = False) -> Started:
    """Compile ``root``'s pages (checked build unless ``optimized``) and start an engine.

    Compile errors and a worker that cannot start come back as ``error`` (one line);
    a broken ``game.toml`` raises :class:`~rulebook2game.errors.WorkspaceError`.
    """
    return compile_and_start(open_workspace(root), optimized=optimized)
