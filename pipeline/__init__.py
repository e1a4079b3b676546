"""rulebook2game: board-game rulebook in, rules-enforced native game engine out.

The pipeline's stages each live in one module or subpackage:

    extract   rulebook PDF (and Vassal module) -> typed rulebook model
    agent     rule pages written and repaired by a tool-using model
    targets   compile rule pages natively and run them in a sandboxed worker
    check     fuzz, replay and oracle comparison, with minimal counterexamples
    game      a checked game played in-process from Python (`rulebook2game.load`)
    cli       the `rulebook2game` command line
"""

import typing as _typing

from rulebook2game._version import __version__
from rulebook2game.actions import Action, format_action, parse_action
from rulebook2game.errors import (
    BadInputError,
    CompileError,
    NotCheckedError,
    Rulebook2GameError,
    WorkspaceError,
)

if _typing.TYPE_CHECKING:
    from rulebook2game.game import Game, State, load

__all__ = [
    "Action",
    "BadInputError",
    "CompileError",
    "Game",
    "NotCheckedError",
    "Rulebook2GameError",
    "State",
    "WorkspaceError",
    "__version__",
    "format_action",
    "load",
    "parse_action",
]

_LAZY = {"Game", "State", "load"}
"""Names imported on first use: loading a game needs the compiler's modules, which
``import rulebook2game`` alone should not pay for."""


def __getattr__(name: str) -> _typing.Any:
    if name in _LAZY:
        from rulebook2game import game

        return getattr(game, name)
    raise AttributeError(f"module 'rulebook2game' has no attribute {name!r}")
