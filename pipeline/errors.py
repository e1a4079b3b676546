"""The one exception hierarchy of rulebook2game.

Library code raises these; only the command line maps them to exit codes
(``BadInputError`` -> 2, everything else -> 1) and prints them as one line.

    Rulebook2GameError            anything the package reports on purpose
    ├── BadInputError             the user's input cannot be used (exit 2)
    │   ├── PdfError              missing, encrypted, corrupt, image-only PDF
    │   ├── ModuleError           a Vassal module or log that cannot be read
    │   └── TraceFormatError      a malformed trace file
    ├── WorkspaceError            a game directory is missing files or inconsistent
    │   ├── BadWorkspaceError     not a game directory, or a malformed game.toml /
    │   │                         interface.toml (also a BadInputError: exit 2)
    │   └── NotCheckedError       a game loaded in-process whose pages have not passed check
    ├── CompileError              a target compiler failed (carries diagnostics)
    ├── WorkerError               the sandboxed engine worker could not be started
    ├── EngineFault               generated code misbehaved: crash, abort, hang, out of memory
    ├── OracleError               a reference engine cannot be loaded or refused a request
    └── ModelError                the model endpoint failed after retries / budget
"""

from __future__ import annotations


class Rulebook2GameError(Exception):
    """Base class of every error rulebook2game raises on purpose."""

    exit_code: int = 1


class BadInputError(Rulebook2GameError):
    """The input given by the user cannot be used; the command exits with 2."""

    exit_code = 2


class PdfError(BadInputError):
    """A rulebook PDF that cannot be read (missing, encrypted, corrupt, image-only)."""


class ModuleError(BadInputError):
    """A Vassal module, saved game or log that cannot be read."""


class TraceFormatError(BadInputError):
    """A trace file that does not follow ``rulebook2game-trace/1``."""


class WorkspaceError(Rulebook2GameError):
    """A game directory that is missing files or whose files disagree."""


class BadWorkspaceError(WorkspaceError, BadInputError):
    """The path given as a game directory is not one, or its TOML files are malformed.

    Bad input (exit 2), and still a :class:`WorkspaceError` for code that catches those.
    """


class NotCheckedError(WorkspaceError):
    """The game's pages as they are now have not passed ``rulebook2game check``.

    Generated code is untrusted until checked; loading it in-process anyway needs an
    explicit ``trust=True``.
    """


class CompileError(Rulebook2GameError):
    """A target compiler rejected the rule pages."""


class WorkerError(Rulebook2GameError):
    """The sandboxed engine worker could not be started or stopped answering."""


class EngineFault(Rulebook2GameError):
    """The engine under test misbehaved (a finding about the rules, not a bug of ours).

    ``kind`` is one of ``crash``, ``abort``, ``hang``, ``oom``, ``error``.
    """

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        self.message = message
        super().__init__(f"engine {kind}: {message}")


class OracleError(Rulebook2GameError):
    """A reference engine (OpenSpiel) cannot be loaded, or refused a request."""


class ModelError(Rulebook2GameError):
    """The model endpoint failed after retries, or a budget was exhausted."""
