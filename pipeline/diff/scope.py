"""What changed in the sentences a translator declared out of scope, between two sides.

``scope.toml`` (:mod:`rulebook2game.check.scope`) lists the rule sentences the engine
deliberately does not implement, each with the reason. A sentence that left or joined
that list, or whose reason changed, is as much a change of what the engine claims to
implement as a page diff. Sentences are known by the id as declared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rulebook2game.check.scope import read_scope
from rulebook2game.diff.sides import Side
from rulebook2game.errors import Rulebook2GameError


@dataclass(frozen=True)
class ScopeChange:
    """A sentence declared out of scope on one side only, or for another reason now."""

    status: Literal["added", "removed", "changed"]
    sentence: str
    old: str | None
    """The reason on the old side (``None``: not out of scope there)."""
    new: str | None


def side_scope(side: Side) -> dict[str, str]:
    """Sentence id (as declared) -> why, on one side (none without a readable file)."""
    try:
        declared = read_scope(side.root)
    except Rulebook2GameError:
        return {}
    return {cite: entry.why for entry in declared for cite in entry.sentences}


def compare_scope(old: dict[str, str], new: dict[str, str]) -> tuple[ScopeChange, ...]:
    """Added and changed declarations in the new side's order, then removed ones."""
    out = [
        ScopeChange("added" if cite not in old else "changed", cite, old.get(cite), why)
        for cite, why in new.items()
        if old.get(cite) != why
    ]
    out += [ScopeChange("removed", cite, why, None) for cite, why in old.items() if cite not in new]
    return tuple(out)


def scope_line(change: ScopeChange) -> str:
    """One line: ``added 7.2#1: "tournament scoring"``, ``changed 7.2: "a" -> "b"``."""
    if change.status == "changed":
        return f'changed {change.sentence}: "{change.old}" -> "{change.new}"'
    return f'{change.status} {change.sentence}: "{change.new or change.old}"'
