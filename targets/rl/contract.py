"""The interface is a contract: the pages declare exactly the actions of ``interface.toml``.

Checked at compile time on the built game, from the text of every action rlc
enumerates (``move {src: 0, dst: 63}``): each action of ``interface.toml`` is declared
by a page with the same argument names, in the same order, over the same values, and
the pages declare no other action. A mismatch is an error on the page and line of the
action statement (or on ``interface.toml`` when no page declares the action), giving
the form that ``interface.toml`` asks for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulebook2game.targets.rl.action_text import rl_to_action
from rulebook2game.targets.rl.diagnostics import Diagnostic, page_diagnostic
from rulebook2game.targets.rl.names import rl_name
from rulebook2game.targets.rl.pages import action_declaration
from rulebook2game.workspace import ActionSpec, ArgSpec, Interface

INTERFACE_FILE = "interface.toml"


@dataclass
class _Declared:
    """An action as the built game enumerates it: argument names and their values."""

    args: tuple[str, ...]
    values: list[set[int | str]] = field(default_factory=list)


def _declared(texts: list[str]) -> dict[str, _Declared]:
    found: dict[str, _Declared] = {}
    for text in texts:
        action = rl_to_action(text)
        names = tuple(k for k, _ in action.args)
        entry = found.setdefault(action.name, _Declared(names, [set() for _ in names]))
        for slot, (_, value) in zip(entry.values, action.args, strict=False):
            slot.add(value)
    return found


def _arg_form(arg: ArgSpec) -> str:
    if arg.values is not None:
        return f"<enum of {', '.join(arg.values)}> {rl_name(arg.name)}"
    assert arg.min is not None and arg.max is not None
    return f"BInt<{arg.min}, {arg.max + 1}> {rl_name(arg.name)}"


def expected_form(spec: ActionSpec) -> str:
    """The action statement ``interface.toml`` asks for (``act move(BInt<0, 64> dst)``)."""
    return f"act {rl_name(spec.name)}({', '.join(_arg_form(a) for a in spec.args)})"


def _values_text(values: set[int | str]) -> str:
    ints = sorted(v for v in values if isinstance(v, int))
    if ints and len(ints) == len(values) and ints == list(range(ints[0], ints[-1] + 1)):
        return f"{ints[0]}..{ints[-1]}"
    return ", ".join(sorted(str(v) for v in values))


def _spec_values(arg: ArgSpec) -> set[int | str]:
    return set(arg.domain())


def _interface_line(root: Path, name: str) -> int:
    try:
        lines = (root / INTERFACE_FILE).read_text(encoding="utf-8").splitlines()
    except OSError:
        return 0
    pattern = re.compile(rf"^\s*name\s*=\s*[\"']{re.escape(name)}[\"']")
    for number, line in enumerate(lines, start=1):
        if pattern.match(line):
            return number
    return 0


def _mismatch(spec: ActionSpec, found: _Declared) -> str | None:
    wanted = tuple(a.name for a in spec.args)
    if found.args != wanted:
        have = ", ".join(found.args) or "no arguments"
        want = ", ".join(wanted) or "no arguments"
        return f"action `{spec.name}` takes ({have}) here but ({want}) in {INTERFACE_FILE}"
    for arg, values in zip(spec.args, found.values, strict=True):
        expected = _spec_values(arg)
        if {str(v) for v in values} != {str(v) for v in expected}:
            return (
                f"argument `{arg.name}` of `{spec.name}` takes {_values_text(values)} here "
                f"but {_values_text(expected)} in {INTERFACE_FILE}"
            )
    return None


def interface_diagnostics(
    root: Path, pages: list[Path], interface: Interface, texts: list[str]
) -> list[Diagnostic]:
    """Every difference between the actions the pages declare and ``interface.toml``."""
    declared = _declared(texts)
    out: list[Diagnostic] = []
    for spec in interface.actions:
        found = declared.get(spec.name)
        form = expected_form(spec)
        if found is None:
            message = (
                f"{INTERFACE_FILE} declares action `{spec.name}` but no page does: write `{form}`"
            )
            out.append(
                page_diagnostic(
                    root, root / INTERFACE_FILE, _interface_line(root, spec.name), message
                )
            )
            continue
        problem = _mismatch(spec, found)
        if problem is not None:
            out.append(_at_action(root, pages, spec.name, f"{problem}: write `{form}`"))
    known = ", ".join(a.name for a in interface.actions) or "none"
    for name in declared:
        if interface.action(name) is None:
            message = (
                f"action `{name}` is not in {INTERFACE_FILE} (it declares: {known}); "
                "the action names are fixed there"
            )
            out.append(_at_action(root, pages, name, message))
    return out


def _at_action(root: Path, pages: list[Path], name: str, message: str) -> Diagnostic:
    where = action_declaration(pages, name)
    if where is None:
        return Diagnostic("rlc", 0, 0, message)
    page, line = where
    source = page.read_text(encoding="utf-8", errors="replace").splitlines()[line - 1]
    column = source.find("act ") + 1 if "act " in source else None
    return page_diagnostic(root, page, line, message, column)
