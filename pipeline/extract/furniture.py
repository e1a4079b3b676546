"""Running headers, footers and page numbers: found, kept aside, removed from the text.

A line in the top or bottom band of a page is furniture when its words (ignoring digits
and order, so alternating "12 Title" / "Title 13" match) recur in that band on another
page, when it is a bare page number ("12", "Page 3", "- 4 -"), or when it is small,
isolated text at the very edge of the page (a running head on a short document).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from rulebook2game.extract.records import Box, Word

BAND = 0.10
"""Fraction of the page height, at the top and at the bottom, where furniture lives."""

_EDGE = 0.075
_LARGE = 1.3
_SEGMENT_GAP = 2.0
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-–—]?\s*(\d{1,4}|[ivxlc]{1,6})\s*[-–—]?(?:\s*(?:/|of)\s*\d{1,4})?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class PageText:
    """The rows of words of one page, with what lies around them."""

    number: int
    width: float
    height: float
    rows: list[list[Word]]
    objects: tuple[Box, ...] = ()


@dataclass(frozen=True, slots=True)
class Cleaned:
    """A page's rows without furniture, and the printed page numbers found."""

    rows: list[list[Word]]
    labels: list[str]


def strip_furniture(pages: list[PageText], body_size: float) -> list[Cleaned]:
    """Remove running heads, feet and page numbers from every page."""
    segments = [_edge_segments(p) for p in pages]
    seen: dict[str, set[int]] = defaultdict(set)
    for page, segs in zip(pages, segments, strict=True):
        for seg in segs:
            key = _key(seg)
            if key:
                seen[key].add(page.number)
    out = []
    for page, segs in zip(pages, segments, strict=True):
        drop: set[int] = set()
        labels: list[str] = []
        for seg in segs:
            if max(w.size for w in seg) > _LARGE * body_size:
                continue  # a title, never a running head
            text = " ".join(w.text for w in seg)
            number = _PAGE_NUMBER.match(text)
            if number:
                labels.append(number.group(1))
            elif not (len(seen[_key(seg)]) >= 2 or _isolated_small(seg, page, body_size)):
                continue
            drop.update(id(w) for w in seg)
        rows = [[w for w in row if id(w) not in drop] for row in page.rows]
        out.append(Cleaned([r for r in rows if r], labels))
    return out


def _edge_segments(page: PageText) -> list[list[Word]]:
    """Pieces of rows in the top and bottom bands, cut at wide gaps."""
    out = []
    for row in page.rows:
        top, bottom = min(w.top for w in row), max(w.bottom for w in row)
        if top > BAND * page.height and bottom < (1 - BAND) * page.height:
            continue
        piece = [row[0]]
        for w in row[1:]:
            if w.x0 - piece[-1].x1 > _SEGMENT_GAP * max(w.size, piece[-1].size):
                out.append(piece)
                piece = []
            piece.append(w)
        out.append(piece)
    return out


def _key(segment: list[Word]) -> str:
    words = (re.sub(r"[\W\d_]+", "", w.text.lower()) for w in segment)
    return " ".join(sorted(w for w in words if w))


def _isolated_small(segment: list[Word], page: PageText, body_size: float) -> bool:
    """Small text hugging the page edge, far from everything else on the page."""
    size = max(w.size for w in segment)
    if size > 0.95 * body_size:
        return False
    top = min(w.top for w in segment)
    bottom = max(w.bottom for w in segment)
    if _EDGE * page.height < top and bottom < (1 - _EDGE) * page.height:
        return False
    clearance = 1.5 * size
    others = [_row_box(r) for r in page.rows if not any(w is segment[0] for w in r)]
    others += list(page.objects)
    return all(o.bottom < top - clearance or o.top > bottom + clearance for o in others)


def _row_box(row: list[Word]) -> Box:
    return Box(row[0].x0, min(w.top for w in row), row[-1].x1, max(w.bottom for w in row))
