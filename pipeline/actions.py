"""Canonical action text: ``name(arg=value, ...)``.

Arguments appear in declaration order; values are integers or enum names
(``drop(col=3)``, ``play(card=QS)``, ``hold()``). Every engine, trace, oracle
adapter and report speaks this form, so it is parsed and printed in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ACTION = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$")
_ARG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?[0-9]+|[A-Za-z0-9_]+)\s*$")

ArgValue = int | str


@dataclass(frozen=True, slots=True)
class Action:
    """One action: a name and its arguments in declaration order."""

    name: str
    args: tuple[tuple[str, ArgValue], ...] = ()

    def __str__(self) -> str:
        return format_action(self)

    def arg(self, key: str) -> ArgValue:
        """The value of argument ``key``; ``KeyError`` when the action has none."""
        for name, value in self.args:
            if name == key:
                return value
        raise KeyError(key)


def format_action(action: Action) -> str:
    """Render an action in canonical text."""
    inner = ", ".join(f"{k}={v}" for k, v in action.args)
    return f"{action.name}({inner})"


def parse_action(text: str) -> Action:
    """Parse canonical action text; raise ``ValueError`` with the reason otherwise."""
    match = _ACTION.match(text)
    if match is None:
        raise ValueError(f"not an action (expected name(arg=value, ...)): {text!r}")
    name, body = match.group(1), match.group(2).strip()
    args: list[tuple[str, ArgValue]] = []
    if body:
        for part in body.split(","):
            arg = _ARG.match(part)
            if arg is None:
                raise ValueError(f"bad argument {part.strip()!r} in action {text!r}")
            raw = arg.group(2)
            value: ArgValue = int(raw) if re.fullmatch(r"-?[0-9]+", raw) else raw
            args.append((arg.group(1), value))
    return Action(name, tuple(args))


def canonical(text: str) -> str:
    """Normalise spacing of an action text (``drop( col = 3 )`` -> ``drop(col=3)``)."""
    return format_action(parse_action(text))
