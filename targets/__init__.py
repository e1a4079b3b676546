"""Target languages: one folder each with its language notes, compiler and engine adapter.

Each target folder has a ``target.py`` whose ``TARGET`` satisfies
:class:`rulebook2game.targets.base.Target`. The pipeline looks targets up here by the
name ``game.toml`` gives, and imports a target's code only when it is first asked for.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook2game.errors import Rulebook2GameError, WorkspaceError

if TYPE_CHECKING:
    from rulebook2game.targets.base import Target

_REGISTRY: dict[str, tuple[str, str]] = {
    "rl": ("rulebook2game.targets.rl.target", ".rl"),
    "rulepage": ("rulebook2game.targets.rulepage.target", ".page"),
    "gdl": ("rulebook2game.targets.gdl.target", ".kif"),
    "rbg": ("rulebook2game.targets.rbg.target", ".rbg"),
}
"""Target name -> (module holding its ``TARGET``, page file suffix).

The suffix is repeated here so that finding a game's pages needs no target code."""

_LOADED: dict[str, Target] = {}

DEFAULT_SUFFIX = ".rl"
"""Page suffix of the default target, ``rl``."""


def known_targets() -> list[str]:
    """The names of every target this installation has, sorted."""
    return sorted(_REGISTRY)


def get_target(name: str) -> Target:
    """The target called ``name``.

    Raises:
        WorkspaceError: no target has that name.
    """
    target = _LOADED.get(name)
    if target is None:
        entry = _REGISTRY.get(name)
        if entry is None:
            known = ", ".join(known_targets())
            raise WorkspaceError(f"unknown target {name!r} (known: {known})")
        try:
            target = importlib.import_module(entry[0]).TARGET
        except ModuleNotFoundError as exc:  # an optional dependency (gdl needs clingo)
            raise WorkspaceError(
                f"target {name!r} needs the package {exc.name!r}, which is not installed: "
                f"pip install 'rulebook2game[{name}]'"
            ) from exc
        _LOADED[name] = target
    return target


def page_suffixes() -> tuple[str, ...]:
    """Every known target's page file suffix (to recognise a page in a message)."""
    return tuple(dict.fromkeys(_REGISTRY[name][1] for name in known_targets()))


def page_suffix_for(game_dir: Path) -> str:
    """The page file suffix of the game directory ``game_dir`` (by its ``game.toml``'s target).

    A folder without a readable ``game.toml`` or with an unknown target is taken to hold
    rl pages, the default target's.
    """
    from rulebook2game.workspace import load_game_config

    try:
        target = load_game_config(game_dir / "game.toml").target
    except Rulebook2GameError:
        return DEFAULT_SUFFIX
    entry = _REGISTRY.get(target)
    return entry[1] if entry is not None else DEFAULT_SUFFIX
