"""Edit one field of a state in rl's text form (what ``serialize`` prints).

rl prints a state as ``{resume_index: 2, b: {cells: [0, 0, 2]}, fox: 56, over: false}``:
records in braces, arrays and vectors in brackets, ints, floats, bools, strings in
double quotes, enum values as bare names, and an alternative's value after its type
name (``Move {from: 3}``). :func:`set_field` replaces the value at a path such as
``b.cells[40]`` or ``board[2][3]`` by splicing the new text in, leaving every other
character as it was (the engine reads a state back only when it prints back the same).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from rulebook2game.errors import BadInputError

_STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(-?\d+)\]")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")
_SHOWN = 60
"""Characters of a value quoted in a message."""


@dataclass
class _Node:
    start: int
    end: int
    kind: str
    """record | list | int | float | bool | string | name"""
    fields: dict[str, _Node] = field(default_factory=dict)
    items: list[_Node] = field(default_factory=list)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def fail(self, what: str) -> BadInputError:
        return BadInputError(f"not rl's text form of a state (expected {what} at {self.i})")

    def space(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def value(self) -> _Node:
        self.space()
        start, text = self.i, self.text
        char = text[start : start + 1]
        if char == "{":
            return self._record(start)
        if char == "[":
            return self._list(start)
        if char == '"':
            self.i += 1
            while self.i < len(text) and text[self.i] != '"':
                self.i += 2 if text[self.i] == "\\" else 1
            if self.i >= len(text):
                raise self.fail("a closing quote")
            self.i += 1
            return _Node(start, self.i, "string")
        number = _NUMBER.match(text, start)
        if number and (char.isdigit() or char == "-"):
            self.i = number.end()
            kind = "int" if re.fullmatch(r"-?\d+", number.group(0)) else "float"
            return _Node(start, self.i, kind)
        name = _IDENT.match(text, start)
        if name is None:
            raise self.fail("a value")
        self.i = name.end()
        if name.group(0) in ("true", "false"):
            return _Node(start, self.i, "bool")
        after = text[self.i : self.i + 1]
        if after == " " and text[self.i + 1 : self.i + 2] not in (",", "}", "]", ""):
            return self.value()  # an alternative: its type name, then its value
        return _Node(start, self.i, "name")

    def _record(self, start: int) -> _Node:
        node = _Node(start, start, "record")
        self.i += 1
        self.space()
        while self.text[self.i : self.i + 1] != "}":
            name = _IDENT.match(self.text, self.i)
            if name is None:
                raise self.fail("a field name")
            self.i = name.end()
            self.space()
            if self.text[self.i : self.i + 1] != ":":
                raise self.fail("':'")
            self.i += 1
            node.fields[name.group(0)] = self.value()
            self._separator("}")
        self.i += 1
        node.end = self.i
        return node

    def _list(self, start: int) -> _Node:
        node = _Node(start, start, "list")
        self.i += 1
        self.space()
        while self.text[self.i : self.i + 1] != "]":
            node.items.append(self.value())
            self._separator("]")
        self.i += 1
        node.end = self.i
        return node

    def _separator(self, close: str) -> None:
        self.space()
        if self.text[self.i : self.i + 1] == ",":
            self.i += 1
            self.space()
        elif self.text[self.i : self.i + 1] != close:
            raise self.fail(f"',' or {close!r}")


def parse_state(text: str) -> _Node:
    """The value tree of a state's text; :class:`BadInputError` if it is not rl's form."""
    parser = _Parser(text)
    node = parser.value()
    parser.space()
    if node.kind != "record" or parser.i != len(text):
        raise BadInputError("not rl's text form of a state (a record in braces)")
    return node


def parse_path(path: str) -> list[str | int]:
    """``b.cells[3]`` as ``["b", "cells", 3]``; :class:`BadInputError` if malformed."""
    steps: list[str | int] = []
    at = 0
    while at < len(path):
        step = _STEP.match(path, at)
        if step is None or (step.group(1) and at > 0 and path[at] != "."):
            raise BadInputError(
                f"path {path!r}: write fields with dots and indices in brackets "
                "(b.cells[40], board[2][3])"
            )
        steps.append(step.group(1) if step.group(1) else int(step.group(2)))
        at = step.end()
    if not steps or not isinstance(steps[0], str) or path.startswith("."):
        raise BadInputError(f"path {path!r}: start with a field name (b.cells[40])")
    return steps


def _quote(text: str, node: _Node) -> str:
    shown = text[node.start : node.end]
    return shown if len(shown) <= _SHOWN else shown[:_SHOWN] + " ..."


def _find(text: str, root: _Node, path: str) -> _Node:
    node, where = root, "the state"
    for step in parse_path(path):
        if isinstance(step, str):
            if node.kind != "record":
                raise BadInputError(
                    f"set {path!r}: {where} has no field {step!r}; it holds {_quote(text, node)}"
                )
            if step not in node.fields:
                names = ", ".join(node.fields)
                raise BadInputError(
                    f"set {path!r}: {where} has no field {step!r}; its fields: {names}"
                )
            node = node.fields[step]
            where = step if where == "the state" else f"{where}.{step}"
        else:
            if node.kind != "list":
                raise BadInputError(
                    f"set {path!r}: {where} is not an array; it holds {_quote(text, node)}"
                )
            if not 0 <= step < len(node.items):
                count = len(node.items)
                span = f" (0..{count - 1})" if count else ""
                raise BadInputError(
                    f"set {path!r}: index {step} is out of range; {where} has {count} item(s){span}"
                )
            node = node.items[step]
            where = f"{where}[{step}]"
    return node


_KINDS = {
    "record": "a record",
    "list": "an array",
    "int": "an int",
    "float": "a float",
    "bool": "true or false",
    "string": "a string",
    "name": "an enum value (a name)",
}


def _render(value: object, node: _Node, text: str, path: str) -> str:
    """The rl text of ``value`` where ``node`` stands; a correction if it does not fit."""
    old = text[node.start : node.end]

    def wrong() -> BadInputError:
        return BadInputError(
            f"set {path!r}: {json.dumps(value)} does not fit; it holds {_KINDS[node.kind]} "
            f"({_quote(text, node)})"
        )

    if node.kind == "bool":
        if not isinstance(value, bool):
            raise wrong()
        return "true" if value else "false"
    if node.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong()
        return str(value)
    if node.kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong()
        decimals = len(old.split(".", 1)[1]) if "." in old and "e" not in old.lower() else 6
        return f"{float(value):.{decimals}f}"
    if node.kind == "string":
        if not isinstance(value, str):
            raise wrong()
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if node.kind == "name":
        if not isinstance(value, str) or not _IDENT.fullmatch(value):
            raise wrong()
        return value
    if node.kind == "list" and isinstance(value, list):
        if not node.items:
            return "[" + ", ".join(_plain(v, wrong) for v in value) + "]"
        like = node.items[0]
        parts = [_render(v, like, text, path) for v in value]
        return "[" + ", ".join(parts) + "]"
    raise wrong()


def _plain(value: object, wrong: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return value if _IDENT.fullmatch(value) else json.dumps(value)
    assert callable(wrong)
    raise wrong()


def set_field(text: str, path: str, value: object) -> str:
    """``text`` with the value at ``path`` replaced by ``value``.

    Raises:
        BadInputError: one line naming the path and what is there (no such field, an
            index out of range, a value of another kind), or the text is not rl's form.
    """
    root = parse_state(text)
    node = _find(text, root, path)
    return text[: node.start] + _render(value, node, text, path) + text[node.end :]
