"""``gdl.toml``: how a GDL description's roles, moves and goals meet the game's interface.

A game directory with GDL pages (or a ``gdl:`` oracle) keeps the mapping as data::

    # gdl.toml
    roles = ["x", "o"]            # seat order (default: the order of the role facts)
    noop = ["noop"]               # moves that only pass the turn (never offered)
    returns = [-1.0, 1.0]         # goal 0 -> -1.0, goal 100 -> 1.0, linear in between

    [[moves]]                     # first matching row wins
    pattern = '\\(mark (?P<row>\\d) (?P<col>\\d)\\)'
    template = "mark(row={row}, col={col})"
    convert = { row = { offset = -1 }, col = { offset = -1 } }

A move's KIF text (``(mark 1 3)``, lower case, single spaces) is matched against
``pattern`` in full; ``template`` and ``convert`` work as in ``oracle.toml`` (see
:mod:`rulebook2game.oracle.game_binding`), and ``role`` limits a row to one role.
Without ``returns`` the interface's ``returns_range`` invariant gives the range, and
without that the goal value is divided by 100.

A game directory without ``gdl.toml`` gets the *direct* mapping of its interface
(:func:`interface_moves`): a move is written as the action itself, ``(mark 0 2)`` for
``mark(row=0, col=2)`` (arguments in declaration order, integers as they are, names of
an enumeration in lower case), ``(stop)`` or ``stop`` for an action without arguments,
and the waiting role plays ``noop``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebook2game.errors import BadWorkspaceError
from rulebook2game.oracle.adapter import Rule
from rulebook2game.oracle.game_binding import ConvertSpec, make_converter
from rulebook2game.workspace import Interface

MOVES_FILE = "gdl.toml"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveSpec(_Model):
    """One ``[[moves]]`` row."""

    pattern: str
    template: str
    role: str | None = None
    convert: dict[str, ConvertSpec] = Field(default_factory=dict)


class MovesSpec(_Model):
    """The contents of ``gdl.toml``."""

    roles: tuple[str, ...] | None = None
    noop: tuple[str, ...] = ("noop",)
    returns: tuple[float, float] | None = None
    moves: tuple[MoveSpec, ...] = Field(min_length=1)


@dataclass(frozen=True)
class MoveMap:
    """A loaded ``gdl.toml``: KIF move text -> canonical action text, and goal scaling."""

    roles: tuple[str, ...] | None
    noop: frozenset[str]
    low: float
    high: float
    rows: tuple[tuple[str | None, Rule], ...]

    def action(self, role: str, move: str) -> str | None:
        """The canonical text of ``role``'s move ``move`` (KIF), or ``None`` if no row maps it."""
        for only, rule in self.rows:
            if only is not None and only != role:
                continue
            out = rule.render(None, False, 0, move)
            if out is not None:
                return out
        return None

    def scale(self, goal: int) -> float:
        """A goal value (0..100) as a return."""
        return self.low + (self.high - self.low) * goal / 100.0


def read_moves(path: Path, default_range: tuple[float, float] | None = None) -> MoveMap:
    """The move map of ``path`` (a ``gdl.toml``).

    Raises:
        BadWorkspaceError: missing, not TOML, or not a valid mapping (one line).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadWorkspaceError(
            f"{path}: missing (a GDL game maps its moves to the interface there)"
        ) from None
    except UnicodeDecodeError as exc:
        raise BadWorkspaceError(f"{path}: not valid TOML ({exc})") from exc
    return parse_moves(text, str(path), default_range)


def parse_moves(text: str, path: str, default_range: tuple[float, float] | None = None) -> MoveMap:
    """The move map of ``text`` (the contents of a ``gdl.toml`` named ``path``).

    Raises:
        BadWorkspaceError: not TOML, or not a valid mapping (one line).
    """
    try:
        spec = MovesSpec.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise BadWorkspaceError(f"{path}: not valid TOML ({exc})") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadWorkspaceError(f"{path}: {where}: {first['msg']}") from exc
    rows: list[tuple[str | None, Rule]] = []
    for row in spec.moves:
        try:
            re.compile(row.pattern)
        except re.error as exc:
            raise BadWorkspaceError(f"{path}: pattern {row.pattern!r}: {exc}") from exc
        convert = {k: make_converter(c) for k, c in row.convert.items()}
        rows.append((row.role, Rule(row.template, row.pattern, convert=convert)))
    low, high = spec.returns or default_range or (0.0, 1.0)
    return MoveMap(spec.roles, frozenset(spec.noop), low, high, tuple(rows))


def interface_moves(interface: Interface) -> str:
    """The ``gdl.toml`` text of the direct mapping of ``interface`` (see the module notes).

    Enumeration values are matched in lower case and must be lower case in the interface
    to come back unchanged (KIF is case-insensitive).
    """
    lines = ["# The direct mapping of interface.toml: (action arg ...) is action(arg=...).", ""]
    for action in interface.actions:
        groups = " ".join(f"(?P<{a.name}>[^\\s()]+)" for a in action.args)
        name = re.escape(action.name)
        pattern = f"\\({name} {groups}\\)" if action.args else f"\\(?{name}\\)?"
        inner = ", ".join(f"{a.name}={{{a.name}}}" for a in action.args)
        lines += [
            "[[moves]]",
            f"pattern = '{pattern}'",
            f'template = "{action.name}({inner})"',
            "",
        ]
    return "\n".join(lines)
