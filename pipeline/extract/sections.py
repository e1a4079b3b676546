"""The section tree: which headings open sections, their levels, parents and stable ids.

Ids are the printed numbers ("4.2.1"); an unnumbered heading gets its parent's id and a
slug of its title ("4/optional-rules", or "credits" at the top level), with "-2", "-3"
for repeats. Levels come from the depth of the number; an unnumbered heading takes the
level of numbered headings set in the same style, or else its rank among heading sizes.
The document title (the one largest heading, first in the document) opens no section;
blocks before the first heading go to a ``front`` section.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from rulebook2game.extract.blocks import Draft

FRONT = "front"
"""Id of the section that holds the blocks before the first heading."""

_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)\.?\s+(\S.*)$")


@dataclass(slots=True)
class SectionDraft:
    """A section with its blocks."""

    id: str
    title: str
    level: int
    page: int
    parent: str | None
    number: str | None
    blocks: list[Draft] = field(default_factory=list)


def build_sections(
    drafts: list[Draft], fallback_title: str | None
) -> tuple[str | None, list[SectionDraft]]:
    """The document title and its sections, each holding its (non-heading) blocks."""
    headings = [d for d in drafts if d.kind == "heading"]
    title_block = _title_block(drafts, headings)
    for d in _subtitles(drafts, title_block):
        d.kind = "paragraph"
    headings = [d for d in headings if d.kind == "heading"]
    title = title_block.text if title_block else fallback_title
    levels = _levels([h for h in headings if h is not title_block])
    sections: list[SectionDraft] = []
    stack: list[SectionDraft] = []
    taken: set[str] = set()
    front = SectionDraft(
        FRONT, title or "Front matter", 0, drafts[0].page if drafts else 1, None, None
    )
    current = front
    for d in drafts:
        if d is title_block:
            continue
        if d.kind != "heading":
            current.blocks.append(d)
            continue
        number, name = _split_number(d.text)
        level = levels[id(d)]
        while stack and stack[-1].level >= level:
            stack.pop()
        parent = stack[-1].id if stack else None
        ident = _unique(number, taken) if number else slug_id(parent, name, taken)
        taken.add(ident)
        current = SectionDraft(ident, name, level, d.page, parent, number)
        sections.append(current)
        stack.append(current)
    if front.blocks:
        sections.insert(0, front)
    return title, sections


def slug_id(parent: str | None, title: str, taken: set[str]) -> str:
    """The id of an unnumbered section: ``parent/slug-of-title``, ``-2`` on a clash."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"
    return _unique(f"{parent}/{slug}" if parent else slug, taken)


def _unique(base: str, taken: set[str]) -> str:
    ident, n = base, 1
    while ident in taken or ident == FRONT:
        n += 1
        ident = f"{base}-{n}"
    return ident


def _split_number(text: str) -> tuple[str | None, str]:
    match = _NUMBERED.match(text)
    if not match:
        return None, text
    return match.group(1), match.group(2)


def _subtitles(drafts: list[Draft], title: Draft | None) -> list[Draft]:
    """Italic headings that open no section: the subtitle right under the title, and
    any unnumbered italic heading followed at once by another heading (an empty section).
    """
    out = []
    for i, d in enumerate(drafts):
        if d.kind != "heading" or d is title or _split_number(d.text)[0] or not _italic(d):
            continue
        after_title = title is not None and i > 0 and drafts[i - 1] is title
        nxt = drafts[i + 1] if i + 1 < len(drafts) else None
        if after_title or nxt is None or nxt.kind == "heading":
            out.append(d)
    return out


def _italic(d: Draft) -> bool:
    words = [w for line in d.lines for w in line.words]
    return bool(words) and all(w.italic for w in words)


def _style(d: Draft) -> tuple[float, bool]:
    return round(d.size * 2) / 2, d.bold


def _title_block(drafts: list[Draft], headings: list[Draft]) -> Draft | None:
    """The first heading, if it is clearly the largest text of the document."""
    if not headings:
        return None
    first = headings[0]
    others = [h.size for h in headings[1:]]
    if first.page != drafts[0].page or _split_number(first.text)[0]:
        return None
    if others and first.size < 1.15 * max(others):
        return None
    return first


def _levels(headings: list[Draft]) -> dict[int, int]:
    """The level of every heading, keyed by ``id(draft)``."""
    by_style: dict[tuple[float, bool], Counter[int]] = defaultdict(Counter)
    for h in headings:
        number = _split_number(h.text)[0]
        if number:
            by_style[_style(h)][number.count(".") + 1] += 1
    known = {style: counts.most_common(1)[0][0] for style, counts in by_style.items()}
    unknown_sizes = sorted({_style(h)[0] for h in headings if _style(h) not in known}, reverse=True)
    out: dict[int, int] = {}
    for h in headings:
        number = _split_number(h.text)[0]
        if number:
            out[id(h)] = number.count(".") + 1
        else:
            out[id(h)] = _level_of_style(_style(h), known, unknown_sizes)
    return out


def _level_of_style(
    style: tuple[float, bool], known: dict[tuple[float, bool], int], unknown_sizes: list[float]
) -> int:
    if style in known:
        return known[style]
    same_size = [lvl for (size, _), lvl in known.items() if size == style[0]]
    if same_size:
        return min(same_size)
    larger = [lvl for (size, _), lvl in known.items() if size > style[0]]
    if known:
        return max(larger) + 1 if larger else 1
    return unknown_sizes.index(style[0]) + 1
