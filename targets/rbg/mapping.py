"""``rbg.toml``: how an RBG move becomes an action of ``interface.toml``, and the returns.

An RBG move is the sequence of its modifiers, each applied at a board square; the last
is the switch. The game directory declares, per interface action, each argument as an
integer expression over that sequence::

    [[moves]]
    action = "move"
    args = { from_file = "col(0)", from_rank = "8 - row(0)", to_file = "col(-1)" }

    [returns]          # a player's return = (score variable - offset) / scale
    offset = 50
    scale = 50

``row(i)``/``col(i)`` are the square of modifier ``i`` (0 the first, -1 the switch),
``piece(i)`` the number (order of ``#pieces``) of the piece an off ``[x]`` put there
(-1 for other modifiers), ``len`` the number of modifiers; ``+ - *`` and integers.
With several ``[[moves]]``, each has a ``when`` (a comparison of such expressions) and
the first whose ``when`` holds names the action. A legal move whose arguments fall
outside the interface, or two moves naming one action, is reported when it is found.

The same can be written on the pages instead (:func:`mapping_from_pages`), as the
target's own sections ``#moves`` and ``#returns``; a game has one or the other.
"""

from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.errors import Rulebook2GameError
from rulebook2game.targets.rbg.syntax import RbgProblem, Span, Token
from rulebook2game.workspace import Interface

FILE = "rbg.toml"


class MappingError(Rulebook2GameError):
    """A fault in ``rbg.toml`` (one line: file, key and what is wrong)."""


@dataclass(frozen=True)
class MoveRule:
    """One ``[[moves]]`` entry: the action it names, when it applies, its argument expressions."""

    action: str
    when: ast.expr | None
    args: tuple[tuple[str, ast.expr], ...]
    """(argument name, expression) in the interface's argument order."""


@dataclass(frozen=True)
class Mapping:
    """The parsed ``rbg.toml``."""

    moves: tuple[MoveRule, ...]
    offset: float
    scale: float


_FUNCS = ("row", "col", "piece")


def _check_expr(node: ast.expr, where: str, comparison: bool) -> None:
    if comparison:
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And | ast.Or):
            for v in node.values:
                _check_expr(v, where, True)
            return
        if not isinstance(node, ast.Compare):
            raise MappingError(f"{where}: expected a comparison such as `len == 2`")
        for op in node.ops:
            if not isinstance(op, ast.Eq | ast.NotEq | ast.Lt | ast.LtE | ast.Gt | ast.GtE):
                raise MappingError(f"{where}: unsupported comparison")
        for v in [node.left, *node.comparators]:
            _check_expr(v, where, False)
        return
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return
    if isinstance(node, ast.Name) and node.id == "len":
        return
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        _check_expr(node.operand, where, False)
        return
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
        _check_expr(node.left, where, False)
        _check_expr(node.right, where, False)
        return
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCS
        and len(node.args) == 1
        and not node.keywords
        and _index(node.args[0]) is not None
    ):
        return
    raise MappingError(
        f"{where}: only integers, len, row(i), col(i), piece(i) (i an integer), + - * are allowed"
    )


def index_of(node: ast.expr) -> int:
    """The modifier index of a checked ``row(i)``, ``col(i)`` or ``piece(i)``."""
    found = _index(node)
    assert found is not None
    return found


def _index(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return -node.operand.value
    return None


def _parse(text: object, where: str, comparison: bool) -> ast.expr:
    if not isinstance(text, str | int) or isinstance(text, bool):
        raise MappingError(f"{where}: expected an expression in a string")
    try:
        node = ast.parse(str(text), mode="eval").body
    except SyntaxError:
        raise MappingError(f"{where}: cannot read expression {text!r}") from None
    _check_expr(node, where, comparison)
    return node


def read_mapping(game_dir: Path, interface: Interface) -> Mapping:
    """Read and check ``rbg.toml`` against ``interface``.

    Raises:
        MappingError: the file is missing or malformed, or names what the interface lacks.
    """
    path = game_dir / FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MappingError(
            f"{FILE}: missing; the rbg target needs it to map RBG moves to interface actions"
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise MappingError(f"{FILE}: cannot read it: {exc}") from None
    specs = {a.name: a for a in interface.actions}
    raw = data.get("moves")
    if not isinstance(raw, list) or not raw:
        raise MappingError(f"{FILE}: needs at least one [[moves]] entry")
    rules: list[MoveRule] = []
    for k, entry in enumerate(raw):
        where = f"{FILE} [[moves]] #{k + 1}"
        if not isinstance(entry, dict):
            raise MappingError(f"{where}: expected a table")
        unknown = set(entry) - {"action", "when", "args"}
        if unknown:
            raise MappingError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        name = entry.get("action")
        if not isinstance(name, str) or name not in specs:
            raise MappingError(f"{where}: action {name!r} is not in interface.toml")
        spec = specs[name]
        args = entry.get("args", {})
        if not isinstance(args, dict):
            raise MappingError(f"{where}: args must be a table")
        wanted = [a.name for a in spec.args]
        for extra in set(args) - set(wanted):
            raise MappingError(f"{where}: {name} has no argument {extra!r}")
        missing = [a for a in wanted if a not in args]
        if missing:
            raise MappingError(f"{where}: no expression for argument {missing[0]!r} of {name}")
        when = entry.get("when")
        if when is None and len(raw) > 1:
            raise MappingError(f"{where}: with several [[moves]], each needs a `when`")
        rules.append(
            MoveRule(
                name,
                _parse(when, f"{where} when", True) if when is not None else None,
                tuple((a, _parse(args[a], f"{where} args.{a}", False)) for a in wanted),
            )
        )
    returns = data.get("returns", {})
    if not isinstance(returns, dict):
        raise MappingError(f"{FILE}: [returns] must be a table")
    offset = returns.get("offset", 0)
    scale = returns.get("scale", 1)
    if not isinstance(offset, int | float) or not isinstance(scale, int | float) or scale == 0:
        raise MappingError(f"{FILE}: [returns] offset and scale are numbers, scale not 0")
    return Mapping(tuple(rules), float(offset), float(scale))


def _split(tokens: list[Token], sep: str) -> list[list[Token]]:
    """``tokens`` split at ``sep`` outside brackets."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.text in "([{":
            depth += 1
        elif tok.text in ")]}":
            depth -= 1
        if tok.text == sep and depth == 0:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


def _text(tokens: list[Token]) -> str:
    return " ".join(t.text for t in tokens)


def _expr_at(tokens: list[Token], where: Token, comparison: bool) -> ast.expr:
    if not tokens:
        raise RbgProblem(where.at, "an empty expression")
    try:
        return _parse(_text(tokens), "", comparison)
    except MappingError as exc:
        raise RbgProblem(tokens[0].at, str(exc).removeprefix(": ")) from None


def mapping_from_pages(
    extras: dict[str, list[Token]], spans: dict[str, Span], interface: Interface
) -> Mapping:
    """The mapping written on the pages as ``#moves`` and ``#returns``::

        #moves = mark(row = row(0), col = col(0))
        #returns = (score - 50) / 50

    Several entries of ``#moves`` are separated by ``;``, each ending in ``when COND``.

    Raises:
        RbgProblem: at the page line of the fault.
    """
    specs = {a.name: a for a in interface.actions}
    head = spans["moves"]
    tokens = extras["moves"]
    entries = [e for e in _split(tokens, ";") if e]
    if not entries:
        raise RbgProblem(head, "#moves names no action: write `#moves = action(arg = expr, ...)`")
    rules: list[MoveRule] = []
    for entry in entries:
        name = entry[0]
        spec = specs.get(name.text)
        if spec is None:
            raise RbgProblem(name.at, f"#moves: `{name.text}` is not an action of interface.toml")
        if len(entry) < 3 or entry[1].text != "(":
            raise RbgProblem(name.at, f"#moves: write `{name.text}(arg = expr, ...)`")
        depth, close = 0, -1
        for k, tok in enumerate(entry[1:], start=1):
            depth += tok.text == "("
            depth -= tok.text == ")"
            if depth == 0:
                close = k
                break
        if close < 0:
            raise RbgProblem(entry[1].at, "#moves: `(` is never closed")
        args: dict[str, ast.expr] = {}
        for part in _split(entry[2:close], ","):
            if len(part) < 3 or part[1].text != "=" or not part[0].is_name:
                at = part[0].at if part else entry[1].at
                raise RbgProblem(at, "#moves: each argument is `name = expression`")
            if part[0].text not in {a.name for a in spec.args}:
                raise RbgProblem(
                    part[0].at, f"#moves: {spec.name} has no argument `{part[0].text}`"
                )
            args[part[0].text] = _expr_at(part[2:], part[1], False)
        missing = [a.name for a in spec.args if a.name not in args]
        if missing:
            raise RbgProblem(
                name.at, f"#moves: no expression for argument `{missing[0]}` of {spec.name}"
            )
        rest = entry[close + 1 :]
        when = None
        if rest:
            if rest[0].text != "when":
                raise RbgProblem(
                    rest[0].at, f"#moves: unexpected `{rest[0].text}` (expected `when` or `;`)"
                )
            when = _expr_at(rest[1:], rest[0], True)
        elif len(entries) > 1:
            raise RbgProblem(name.at, "#moves: with several entries, each needs `when COND`")
        rules.append(MoveRule(spec.name, when, tuple((a.name, args[a.name]) for a in spec.args)))
    offset, scale = 0.0, 1.0
    if "returns" in extras:
        offset, scale = _returns(extras["returns"], spans["returns"])
    return Mapping(tuple(rules), offset, scale)


def _returns(tokens: list[Token], head: Span) -> tuple[float, float]:
    """``score``, ``score - A``, ``score / B`` or ``(score - A) / B`` -> (A, B)."""
    bad = RbgProblem(
        tokens[0].at if tokens else head,
        "#returns: write `(score - OFFSET) / SCALE` (integers; `score` is the player's variable)",
    )
    try:
        node = ast.parse(_text(tokens), mode="eval").body
    except SyntaxError:
        raise bad from None
    scale = 1.0
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        if not (
            isinstance(node.right, ast.Constant)
            and type(node.right.value) is int
            and node.right.value
        ):
            raise bad
        scale = float(node.right.value)
        node = node.left
    offset = 0.0
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        if not (isinstance(node.right, ast.Constant) and type(node.right.value) is int):
            raise bad
        offset = float(node.right.value)
        node = node.left
    if not (isinstance(node, ast.Name) and node.id == "score"):
        raise bad
    return offset, scale
