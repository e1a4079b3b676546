"""Mutation operators for RulePage constructs, added to the common operators on rl lines.

| operator | what it does |
|---|---|
| ``drop_modifier`` | a modifier's ``require`` made ``true``, its ``on`` steps emptied |
| ``swap_bonds`` | two adjacent modifiers of a ``bonds`` list exchanged (order of amendments) |
| ``drop_when`` | the ``when COND`` of an ``offer`` removed (offered always) |
| ``drop_follow`` | a ``follow`` statement removed (the follow-up never happens) |
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulebook2game.targets.base import MutationOperator

if TYPE_CHECKING:
    from rulebook2game.mutate.operators import Edit
    from rulebook2game.mutate.source import PageSource

_BONDS = re.compile(r"^bonds\s+(.*?)\s*$")
_WHEN = re.compile(r"^(offer\s+[A-Za-z_][A-Za-z0-9_]*\s*\([^)]*\))\s+when\s+.+$")
_FOLLOW = re.compile(r"^(\s*)follow\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def _edit(operator: str, index: int, new: tuple[str, ...], description: str) -> Edit:
    from rulebook2game.mutate.operators import Edit

    return Edit(operator, index, index + 1, new, description)


def _bonds(page: PageSource) -> Iterator[tuple[int, list[str]]]:
    for i in range(page.header_end, len(page.lines)):
        match = _BONDS.match(page.lines[i])
        if match:
            yield i, [n for n in re.split(r"[,⊕\s]+", match.group(1)) if n]


_MODIFIER = re.compile(r"^modifier\s*$")
_REQUIRE = re.compile(r"^(require\s+[A-Za-z_][A-Za-z0-9_]*\s*\([^)]*\))\s+when\s+.+$")
_ON = re.compile(r"^on\s+[A-Za-z_][A-Za-z0-9_]*\s*\([^)]*\)\s*:\s*$")


def drop_modifier(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Neutralise a modifier page: what bonding it added no longer happens.

    Dropping the page from its base page's ``bonds`` would leave an unbonded modifier,
    which does not compile; this keeps the page bonded but makes it do nothing.
    """
    from rulebook2game.mutate.operators import Edit

    start = next(
        (i for i in range(page.header_end, len(page.lines)) if _MODIFIER.match(page.lines[i])),
        None,
    )
    if start is None:
        return
    out: list[str] = []
    in_step = False
    for line in page.lines[start:]:
        if in_step and (not line.strip() or line.startswith((" ", "\t"))):
            continue
        in_step = False
        require = _REQUIRE.match(line)
        if require:
            out.append(f"{require.group(1)} when true")
        elif _ON.match(line):
            out += [line, "    return", ""]
            in_step = True
        else:
            out.append(line)
    if out != list(page.lines[start:]):
        yield Edit(
            "drop_modifier", start, len(page.lines), tuple(out), f"modifier {page.name} dropped"
        )


def swap_bonds(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Exchange two adjacent modifiers of a ``bonds`` list."""
    for i, names in _bonds(page):
        for k in range(len(names) - 1):
            swapped = [*names[:k], names[k + 1], names[k], *names[k + 2 :]]
            description = f"{names[k]} and {names[k + 1]} bond in the other order"
            yield _edit("swap_bonds", i, (f"bonds {', '.join(swapped)}",), description)


def drop_when(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove the condition of an ``offer`` (a ``require``'s is dropped by ``drop_modifier``)."""
    for i in range(page.header_end, len(page.lines)):
        match = _WHEN.match(page.lines[i])
        if match:
            yield _edit("drop_when", i, (match.group(1),), f"`{match.group(1)}` unconditional")


def drop_follow(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove a ``follow`` statement (replaced by a no-op to keep the block)."""
    for i in range(page.header_end, len(page.lines)):
        match = _FOLLOW.match(page.lines[i])
        if match:
            noop = f"{match.group(1)}0"
            yield _edit("drop_follow", i, (noop,), f"follow-up {match.group(2)} dropped")


OPERATORS: tuple[tuple[str, MutationOperator], ...] = (
    ("drop_modifier", drop_modifier),
    ("swap_bonds", swap_bonds),
    ("drop_when", drop_when),
    ("drop_follow", drop_follow),
)
"""The RulePage operators, in enumeration order."""
