"""rulebook2game: board-game rulebook in, rules-enforced native game engine out.

The pipeline's stages each live in one module or subpackage:

    extract   rulebook PDF (and Vassal module) -> typed rulebook model
    agent     rule pages written and repaired by a tool-using model
    targets   compile rule pages natively and run them in a sandboxed worker
    check     fuzz, replay and oracle comparison, with minimal counterexamples
    cli       the `rulebook2game` command line
"""

from rulebook2game._version import __version__
from rulebook2game.actions import Action, format_action, parse_action
from rulebook2game.errors import (
    BadInputError,
    CompileError,
    Rulebook2GameError,
    WorkspaceError,
)

__all__ = [
    "Action",
    "BadInputError",
    "CompileError",
    "Rulebook2GameError",
    "WorkspaceError",
    "__version__",
    "format_action",
    "parse_action",
]
