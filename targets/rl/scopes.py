"""Names that shadow other names: an error in rule pages, though rlc accepts them.

An action argument named like a state field (``act roll(BInt<1, 7> die1)`` in a game
with ``frm die1``) makes every later ``die1`` in that block mean the argument: the
field never changes and nothing else notices. This module reads the pages by
indentation and reports each declaration (action argument, ``let``, ``for`` variable,
function or action parameter, ``frm`` field) whose name is already visible there: a
``frm`` field of the same action function, a parameter, an enclosing declaration or a
global ``const``. Two action statements in sequence in the same block may give their
arguments the same name: the later argument replaces the earlier one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.targets.rl.diagnostics import Diagnostic, page_diagnostic
from rulebook2game.targets.rl.lexical import code_mask

_DEF = re.compile(
    r"^(?P<indent> *)(?:ext\s+)?(?P<kind>fun|act)\b\s*(?:<[^>]*>)?\s*(?P<name>\w+)\s*"
    r"\((?P<params>.*)\)\s*(?P<result>->\s*[^:]+)?:\s*$"
)
_ACTION_STATEMENT = re.compile(r"^ *act\s+(?P<name>\w+)\s*\((?P<params>[^)]*)\)")
_LET = re.compile(r"^ *let\s+(?P<name>\w+)")
_FRM = re.compile(r"^ *frm\s+(?P<name>\w+)")
_SUBACTION = re.compile(r"^ *subaction\*?\s*(?:\([^)]*\))?\s*(?P<name>\w+)\s*=")
_FOR = re.compile(r"^ *for\s+(?P<name>\w+)\s+in\b")
_CONST = re.compile(r"^const\s+(?P<name>\w+)")
_ACTIONS = re.compile(r"^ *actions\s*:\s*$")
_PARAM_NAME = re.compile(r"(\w+)\s*$")


@dataclass(frozen=True)
class _Decl:
    """One declaration: what it is, its name, where."""

    kind: str
    """``state field``, ``parameter``, ``action argument``, ``local``, ``loop variable``,
    ``constant``."""
    name: str
    page: Path
    line: int
    column: int
    text: str


def _split_params(params: str) -> list[tuple[str, int]]:
    """(name, offset in ``params``) of each parameter, splitting at top-level commas."""
    out: list[tuple[str, int]] = []
    depth, start = 0, 0
    for i, char in enumerate([*params, ","]):
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        elif char == "," and depth == 0:
            piece = params[start:i]
            match = _PARAM_NAME.search(piece)
            if match and piece.strip() != match.group(1):
                out.append((match.group(1), start + match.start(1)))
            start = i + 1
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


class _Page:
    def __init__(self, page: Path) -> None:
        self.path = page
        raw = page.read_text(encoding="utf-8", errors="replace").expandtabs(4).splitlines()
        self.raw = raw
        self.code = [code_mask(line).rstrip() for line in raw]

    def decl(self, kind: str, name: str, line: int, column: int) -> _Decl:
        return _Decl(kind, name, self.path, line, column, self.raw[line - 1].strip())


def _constants(pages: list[_Page]) -> dict[str, _Decl]:
    out: dict[str, _Decl] = {}
    for page in pages:
        for number, line in enumerate(page.code, start=1):
            match = _CONST.match(line)
            if match:
                out.setdefault(
                    match.group("name"),
                    page.decl("constant", match.group("name"), number, match.start("name") + 1),
                )
    return out


def shadowing_diagnostics(root: Path, pages: list[Path]) -> list[Diagnostic]:
    """One error per declaration that hides a visible name of the same spelling."""
    read = [_Page(p) for p in pages]
    constants = _constants(read)
    out: list[Diagnostic] = []
    for page in read:
        number = 0
        while number < len(page.code):
            match = _DEF.match(page.code[number])
            if match is None:
                number += 1
                continue
            end = _body_end(page.code, number, len(match.group("indent")))
            out.extend(_check_body(root, page, number, end, match, constants))
            number = end
    return out


def _body_end(code: list[str], header: int, indent: int) -> int:
    """Index of the first line after the body of the definition at ``header``."""
    index = header + 1
    while index < len(code):
        line = code[index]
        if line.strip() and _indent(line) <= indent:
            break
        index += 1
    return index


def _check_body(
    root: Path,
    page: _Page,
    header: int,
    end: int,
    match: re.Match[str],
    constants: dict[str, _Decl],
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    base: dict[str, _Decl] = dict(constants)

    def declare(scope: dict[str, _Decl], decl: _Decl) -> None:
        shadowed = _visible(scopes, base, decl.name)
        if _sequential_actions(scope, decl, shadowed):
            scope[decl.name] = decl
            return
        if shadowed is not None and shadowed != decl:
            out.append(_report(root, decl, shadowed))
        scope.setdefault(decl.name, decl)

    scopes: list[tuple[int, dict[str, _Decl]]] = []
    params_at = match.start("params")
    for name, offset in _split_params(match.group("params")):
        declare(base, page.decl("parameter", name, header + 1, params_at + offset + 1))
    if match.group("kind") == "act":
        for index in range(header + 1, end):
            field = _FRM.match(page.code[index]) or _SUBACTION.match(page.code[index])
            if field:
                column = field.start("name") + 1
                declare(base, page.decl("state field", field.group("name"), index + 1, column))
    alternatives: list[tuple[int, int | None]] = []
    """(indent of an ``actions:`` line, indent of its alternatives once seen)."""
    for index in range(header + 1, end):
        line = page.code[index]
        if not line.strip():
            continue
        indent = _indent(line)
        while scopes and scopes[-1][0] > indent:
            scopes.pop()
        while alternatives and alternatives[-1][0] >= indent:
            alternatives.pop()
        if alternatives and alternatives[-1][1] is None:
            alternatives[-1] = (alternatives[-1][0], indent)
        if _ACTIONS.match(line):
            alternatives.append((indent, None))
            continue
        statement = _ACTION_STATEMENT.match(line)
        if statement and not _DEF.match(line):
            is_alternative = bool(alternatives) and alternatives[-1][1] == indent
            scope = _scope(scopes, indent + 1 if is_alternative else indent)
            start = statement.start("params")
            for name, offset in _split_params(statement.group("params")):
                declare(scope, page.decl("action argument", name, index + 1, start + offset + 1))
            continue
        for pattern, kind, deeper in ((_LET, "local", 0), (_FOR, "loop variable", 1)):
            found = pattern.match(line)
            if found:
                column = found.start("name") + 1
                scope = _scope(scopes, indent + deeper)
                declare(scope, page.decl(kind, found.group("name"), index + 1, column))
    return out


def _sequential_actions(scope: dict[str, _Decl], decl: _Decl, shadowed: _Decl | None) -> bool:
    """Two action statements one after the other in the same block may name their
    arguments alike (``act roll(BInt<1, 7> face)`` twice): the later one replaces it."""
    return (
        shadowed is not None
        and scope.get(decl.name) is shadowed
        and decl.kind == shadowed.kind == "action argument"
    )


def _scope(scopes: list[tuple[int, dict[str, _Decl]]], indent: int) -> dict[str, _Decl]:
    if not scopes or scopes[-1][0] < indent:
        scopes.append((indent, {}))
    return scopes[-1][1]


def _visible(
    scopes: list[tuple[int, dict[str, _Decl]]], base: dict[str, _Decl], name: str
) -> _Decl | None:
    for _, scope in reversed(scopes):
        if name in scope:
            return scope[name]
    return base.get(name)


def _report(root: Path, decl: _Decl, shadowed: _Decl) -> Diagnostic:
    where = f"{shadowed.page.parent.name}/{shadowed.page.name}:{shadowed.line}"
    message = (
        f"{decl.kind} `{decl.name}` shadows the {shadowed.kind} `{shadowed.name}` "
        f"({where}: `{shadowed.text}`); rename one of them"
    )
    return page_diagnostic(root, decl.page, decl.line, message, decl.column)
