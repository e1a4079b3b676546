"""A game directory's own reference engine: ``oracle.toml`` beside ``game.toml``.

Any game OpenSpiel can load (``pyspiel.load_game``) can be the reference of a game
directory, with the mapping from its action strings to the game's canonical action
texts kept in the game directory, as data::

    # oracle.toml
    engine = "othello"                  # pyspiel.load_game name (parameters allowed)
    python = "my_engine.py"             # optional: a file here that registers a Python
                                        # game with pyspiel.register_game (your own engine)
    bench = "chess"                     # optional: the game bench times instead (when
                                        # the engine wraps that C++ game in Python)

    [[rules]]                           # first matching row wins, as in adapter.Rule
    template = "place(col={col}, row={row})"
    pattern = "(?P<col>[a-h])(?P<row>[1-8])"
    convert = { col = { index = "abcdefgh", offset = 1 } }

    [[rules]]
    template = "jump(from_sq={a}, to_sq={b})"
    pattern = "(?P<a>[a-h][1-8])x(?P<b>[a-h][1-8])"
    convert = { a = { index = ["a1", "b1", ...] }, b = { index = ["a1", "b1", ...] } }
                                        # (the 64 names written out: a1 is 0, h8 is 63)

    [[rules]]
    template = "pass()"
    pattern = "pass"
    chance = false

``game.toml`` then says ``oracle = "openspiel:othello"``. A group is turned into a value
by ``convert``: ``{ index = "SYMBOLS" }`` is the group's position in SYMBOLS (or in a
list of names: ``{ index = ["a1", "b1", ...] }``, the list written out), ``offset``
is added to that position or to the group's integer; without ``convert`` a group of
digits is an integer and anything else stays text. ``{id}`` in a template is
OpenSpiel's action id. Seats and returns pass through unchanged.

The Python file is the user's own code, named by the user in their game directory: it
is run in this process when the oracle is loaded, like any engine they ask us to compare
against.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebook2game.errors import BadWorkspaceError, OracleError
from rulebook2game.oracle.adapter import Adapter, Converter, Rule

ORACLE_FILE = "oracle.toml"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ConvertSpec(_Model):
    """How a matched group becomes a value."""

    index: str | list[str] | None = None
    """The group's position in this string of symbols (``"abcdefgh"``: ``c`` is 2), or in
    this list of names, for groups longer than one symbol (``["a1", "b1", ...]``: a
    square's number)."""
    offset: int = 0
    """Added to the position, or to the group's integer value."""


class RuleSpec(_Model):
    """One ``[[rules]]`` row (see :class:`rulebook2game.oracle.adapter.Rule`)."""

    template: str
    pattern: str = r".*"
    chance: bool | None = None
    convert: dict[str, ConvertSpec] = Field(default_factory=dict)


class OracleSpec(_Model):
    """The contents of ``oracle.toml``."""

    engine: str
    """``pyspiel.load_game`` name, with parameters if any: ``othello``, ``go(board_size=9)``."""
    python: str | None = None
    """A file of the game directory that registers the engine with ``pyspiel``."""
    bench: str | None = None
    """The ``pyspiel`` game ``bench`` times instead of ``engine`` (when ``engine`` is a
    Python wrapper of a C++ game, the wrapper's speed is not OpenSpiel's)."""
    rules: tuple[RuleSpec, ...] = Field(min_length=1)


def game_oracle_spec(game_dir: Path) -> OracleSpec | None:
    """The game directory's ``oracle.toml``, or ``None`` when it has none.

    Raises:
        BadWorkspaceError: the file is not valid TOML or not a valid oracle binding.
    """
    path = game_dir / ORACLE_FILE
    if not path.is_file():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        spec = OracleSpec.model_validate(data)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadWorkspaceError(f"{path}: not valid TOML ({exc})") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadWorkspaceError(f"{path}: {where}: {first['msg']}") from exc
    for rule in spec.rules:
        try:
            re.compile(rule.pattern)
        except re.error as exc:
            raise BadWorkspaceError(f"{path}: pattern {rule.pattern!r}: {exc}") from exc
    return spec


def game_adapter(spec: OracleSpec) -> Adapter:
    """The adapter table the spec describes."""
    name = spec.engine.split("(", 1)[0].strip()
    rules = tuple(
        Rule(
            r.template,
            r.pattern,
            chance=r.chance,
            convert={k: make_converter(c) for k, c in r.convert.items()},
        )
        for r in spec.rules
    )
    return Adapter(name, rules)


def register_python_engine(game_dir: Path, spec: OracleSpec) -> None:
    """Run the game directory's engine file so that ``pyspiel`` knows its game."""
    if spec.python is None:
        return
    path = (game_dir / spec.python).resolve()
    if not path.is_file() or game_dir.resolve() not in path.parents:
        raise BadWorkspaceError(f"{game_dir / ORACLE_FILE}: python = {spec.python!r}: no such file")
    module_name = f"rulebook2game_oracle_{abs(hash(str(path)))}"
    if module_name in sys.modules:
        return  # registered already in this process
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise OracleError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # the user's own engine: its failure is theirs, said in one line
        del sys.modules[module_name]
        raise OracleError(f"{path}: the engine file failed: {type(exc).__name__}: {exc}") from exc


def make_converter(spec: ConvertSpec) -> Converter:
    """The function a ``convert`` entry describes (group text -> value)."""
    offset = spec.offset
    if spec.index is not None:
        symbols = spec.index

        def position(raw: str) -> int:
            if raw not in symbols:  # a mapping that misses a name the engine writes
                names = list(symbols)
                shown = ", ".join(map(repr, names[:4])) + (", ..." if len(names) > 4 else "")
                raise OracleError(
                    f"{ORACLE_FILE}: the engine wrote {raw!r}, which convert's index does "
                    f"not hold ({len(names)} name(s): {shown})"
                )
            return symbols.index(raw) + offset

        return position
    return lambda raw: int(raw) + offset
