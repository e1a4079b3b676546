"""Page-level diff of two sets of rule pages, with the section ids each page cites.

A rule page opens with a header of comments::

    # page: winning
    # implements: 4.1, 4.2#3

``implements`` lists rulebook citations: a section id (``4.1``, the whole section)
or a sentence id (``4.2#3``, one sentence of the ledger), as the agent and the
checks read them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Literal

from rulebook2game.page_header import parse_page_header

PageStatus = Literal["added", "removed", "changed"]


def page_cites(source: str) -> tuple[str, ...]:
    """The citations of a page's header, in order and without repeats."""
    return parse_page_header(source).cites


@dataclass(frozen=True)
class PageChange:
    """One page that differs between the two sides."""

    name: str
    """The page's file stem (``winning`` for ``pages/winning.rl``)."""
    status: PageStatus
    unified_diff: str
    """``diff -u`` text, old side first."""
    cites: tuple[str, ...]
    """Citations of the page on either side (new side's first), without duplicates."""
    cites_added: tuple[str, ...]
    """Citations the new side makes that the old side did not."""
    cites_removed: tuple[str, ...]
    """Citations the old side made that the new side no longer makes."""
    lines_added: int
    lines_removed: int


def _unified(
    name: str, old: str, new: str, old_label: str, new_label: str, suffixes: tuple[str, str]
) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{old_label}/pages/{name}{suffixes[0]}",
        tofile=f"{new_label}/pages/{name}{suffixes[1]}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _count(diff_text: str, sign: str) -> int:
    return sum(
        1
        for line in diff_text.splitlines()
        if line.startswith(sign) and not line.startswith(sign * 3)
    )


def page_change(
    name: str,
    old: str | None,
    new: str | None,
    old_label: str = "old",
    new_label: str = "new",
    suffixes: tuple[str, str] = (".rl", ".rl"),
) -> PageChange | None:
    """Compare one page's two versions (``None`` = absent); ``None`` when equal.

    ``suffixes``: the page file suffix of each side (their targets may differ).
    """
    if old == new:
        return None
    status: PageStatus = "added" if old is None else "removed" if new is None else "changed"
    text = _unified(name, old or "", new or "", old_label, new_label, suffixes)
    old_cites = page_cites(old) if old is not None else ()
    new_cites = page_cites(new) if new is not None else ()
    both = tuple(dict.fromkeys((*new_cites, *old_cites)))
    return PageChange(
        name=name,
        status=status,
        unified_diff=text,
        cites=both,
        cites_added=tuple(c for c in new_cites if c not in old_cites),
        cites_removed=tuple(c for c in old_cites if c not in new_cites),
        lines_added=_count(text, "+"),
        lines_removed=_count(text, "-"),
    )


def diff_pages(
    old: dict[str, str],
    new: dict[str, str],
    old_label: str = "old",
    new_label: str = "new",
    suffixes: tuple[str, str] = (".rl", ".rl"),
) -> list[PageChange]:
    """Every page added, removed or changed between two ``{name: source}`` maps, by name."""
    changes: list[PageChange] = []
    for name in sorted(set(old) | set(new)):
        change = page_change(name, old.get(name), new.get(name), old_label, new_label, suffixes)
        if change is not None:
            changes.append(change)
    return changes
