"""Ruled tables, board diagrams and sidebar boxes, found from a page's vector shapes.

Rectangle edges and straight lines are snapped into horizontal and vertical rules; where
rules cross they make corners, four connected corners make a cell, and cells that share
corners make a grid. A grid with at least two rows and two columns is a table, unless
more than 80% of its cells are empty: then it is a board diagram. A single cell (or one
row or column of cells) is a box, and so is any filled rectangle or rounded panel with
text on it; text in a box is a sidebar and never opens a section.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rulebook2game.extract.records import Box, PageObject, Shape, Word

SNAP = 2.0
"""Rules closer than this (points) are the same rule."""

_EMPTY_DIAGRAM = 0.8


@dataclass(frozen=True, slots=True)
class _Rule:
    pos: float
    start: float
    end: float


@dataclass(frozen=True, slots=True)
class Regions:
    """What the shapes of one page mean."""

    objects: tuple[PageObject, ...]
    boxes: tuple[Box, ...]
    words: tuple[Word, ...]
    """The words left for the text flow (those of tables and diagrams removed)."""


def find_regions(
    shapes: tuple[Shape, ...],
    images: tuple[Box, ...],
    words: list[Word],
    page: Box,
) -> Regions:
    """Split a page's words into tables, diagrams, boxes and running text."""
    grids = _grids(shapes)
    objects: list[PageObject] = []
    boxes: list[Box] = []
    taken: set[int] = set()
    for cells in grids:
        outline = _outline(cells)
        rows = _rows(cells)
        if len(rows) >= 2 and max(len(r) for r in rows) >= 2:
            near = _near(outline, words)
            texts = [[_take_inside(c, near, taken) for c in row] for row in rows]
            flat = [t for row in texts for t in row]
            empty = sum(1 for t in flat if not t) / len(flat)
            if empty > _EMPTY_DIAGRAM:
                labels = tuple(t for t in flat if t) + _axis_labels(outline, words, taken)
                objects.append(PageObject("diagram", outline, (labels,) if labels else ()))
            else:
                objects.append(PageObject("table", outline, tuple(tuple(r) for r in texts)))
        else:
            boxes.append(outline)
    objects += _image_diagrams(images, words, taken, page)
    boxes += _panels(shapes, page, objects)
    left = tuple(w for i, w in enumerate(words) if i not in taken)
    return Regions(tuple(objects), _outermost(boxes, left, page), left)


def _axis_labels(board: Box, words: list[Word], taken: set[int]) -> tuple[str, ...]:
    """Coordinates printed around a board ("A B C", "1 2 3"): rows of short tokens hugging it.

    They are taken from the text flow and returned top to bottom, left to right.
    """
    free = sorted(
        ((i, w) for i, w in enumerate(words) if i not in taken), key=lambda iw: iw[1].baseline
    )
    lines: list[list[tuple[int, Word]]] = []
    for i, w in free:
        if lines and w.baseline - lines[-1][0][1].baseline <= 0.2 * w.size:
            lines[-1].append((i, w))
        else:
            lines.append([(i, w)])
    out: list[tuple[int, float, int, str]] = []
    for n, line in enumerate(lines):
        if any(len(w.text) > 3 for _, w in line):
            continue  # running text, not a row of coordinates
        margin = 2.5 * max(w.bottom - w.top for _, w in line)
        area = Box(board.x0 - margin, board.top - margin, board.x1 + margin, board.bottom + margin)
        out += [(n, w.x0, i, w.text) for i, w in line if area.contains_point(*_center(w))]
    taken.update(i for _, _, i, _ in out)
    return tuple(text for _, _, _, text in sorted(out))


def _image_diagrams(
    images: tuple[Box, ...], words: list[Word], taken: set[int], page: Box
) -> list[PageObject]:
    """Pictures large enough to be figures; they keep the labels printed on them.

    Icons set inline with the text and page-sized backgrounds are not figures; lines of
    running text printed over a picture stay in the flow.
    """
    out = []
    for img in images:
        if min(img.width, img.height) < _MIN_FIGURE:
            continue
        if img.width * img.height > 0.6 * page.width * page.height:
            continue
        labels = _take_inside(img, _labels_on(_near(img, words)), taken)
        out.append(PageObject("diagram", img, ((labels,),) if labels else ()))
    return out


_MIN_FIGURE = 36.0
"""Pictures smaller than this (points, either side) are icons in the text."""


def _labels_on(words: list[tuple[int, Word]]) -> list[tuple[int, Word]]:
    """The words on a picture that are labels: not on a line of running text (6+ words)."""
    per_line: dict[int, int] = defaultdict(int)
    for _, w in words:
        per_line[round(w.baseline)] += 1
    return [(i, w) for i, w in words if per_line[round(w.baseline)] < 6]


def _panels(shapes: tuple[Shape, ...], page: Box, objects: list[PageObject]) -> list[Box]:
    """Filled rectangles and filled or outlined rounded panels large enough to hold text."""
    out = []
    area = page.width * page.height
    for shape in shapes:
        b = shape.box
        if b.width < 30 or b.height < 12 or b.width * b.height > 0.8 * area:
            continue
        if shape.kind == "rect" and not shape.fill:
            continue  # outlined rectangles were handled as grid cells
        if shape.kind == "line":
            continue
        if any(_inside(b, o.box) for o in objects):
            continue  # a shaded table cell or part of a diagram
        out.append(b)
    return out


def _outermost(boxes: list[Box], words: tuple[Word, ...], page: Box) -> tuple[Box, ...]:
    """Boxes that hold text, are not inside a larger box and are not a page frame."""
    unique = {(round(b.x0), round(b.top), round(b.x1), round(b.bottom)): b for b in boxes}
    with_text = []
    for b in unique.values():
        inside = sum(1 for w in words if b.contains_point(*_center(w), slack=1.0))
        if inside and inside < 0.8 * max(1, len(words)):
            with_text.append(b)
    keep = [
        b
        for b in with_text
        if not any(_area(o) > _area(b) + 1 and _inside(b, o) for o in with_text)
    ]
    return tuple(sorted(keep, key=lambda b: (b.top, b.x0)))


def _area(b: Box) -> float:
    return b.width * b.height


def _inside(inner: Box, outer: Box, slack: float = 2.0) -> bool:
    return (
        inner.x0 >= outer.x0 - slack
        and inner.x1 <= outer.x1 + slack
        and inner.top >= outer.top - slack
        and inner.bottom <= outer.bottom + slack
    )


def _center(w: Word) -> tuple[float, float]:
    return (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2


def _near(area: Box, words: list[Word]) -> list[tuple[int, Word]]:
    """The words (with their indexes) centred in ``area``."""
    return [(i, w) for i, w in enumerate(words) if area.contains_point(*_center(w), slack=0.5)]


def _take_inside(area: Box, words: list[tuple[int, Word]], taken: set[int]) -> str:
    """The text of the words centred in ``area`` (marked as taken), line by line."""
    inside = [
        (i, w) for i, w in words if i not in taken and area.contains_point(*_center(w), slack=0.5)
    ]
    taken.update(i for i, _ in inside)
    parts: list[str] = []
    last_baseline: float | None = None
    for _, w in sorted(inside, key=lambda iw: (round(iw[1].baseline), iw[1].x0)):
        new_line = last_baseline is not None and abs(w.baseline - last_baseline) > 1.0
        if new_line and parts and parts[-1].endswith(("\u00ad", "-")) and w.text[:1].islower():
            parts[-1] = parts[-1][:-1] + w.text
        else:
            parts.append(w.text)
        last_baseline = w.baseline
    return " ".join(parts)


# -- grids ------------------------------------------------------------------------------------


def _grids(shapes: tuple[Shape, ...]) -> list[list[Box]]:
    """Cells of each ruled grid on the page."""
    flat: list[tuple[float, float, float]] = []
    tall: list[tuple[float, float, float]] = []
    for s in shapes:
        b = s.box
        if s.kind == "curve":
            continue
        if b.height <= SNAP:
            flat.append(((b.top + b.bottom) / 2, b.x0, b.x1))
        elif b.width <= SNAP:
            tall.append(((b.x0 + b.x1) / 2, b.top, b.bottom))
        elif s.kind == "rect":
            flat += [(b.top, b.x0, b.x1), (b.bottom, b.x0, b.x1)]
            tall += [(b.x0, b.top, b.bottom), (b.x1, b.top, b.bottom)]
    horizontal, vertical = _merge(flat), _merge(tall)
    if len(horizontal) < 2 or len(vertical) < 2:
        return []
    cells = _cells(horizontal, vertical)
    return _connected(cells)


def _merge(segments: list[tuple[float, float, float]]) -> list[_Rule]:
    """Snap segments at (almost) the same position and join the ones that touch."""
    by_pos: list[list[tuple[float, float, float]]] = []
    for seg in sorted(segments):
        if by_pos and seg[0] - by_pos[-1][0][0] <= SNAP:
            by_pos[-1].append(seg)
        else:
            by_pos.append([seg])
    rules = []
    for group in by_pos:
        pos = sum(s[0] for s in group) / len(group)
        spans = sorted((s[1], s[2]) for s in group)
        start, end = spans[0]
        for a, b in spans[1:]:
            if a <= end + SNAP:
                end = max(end, b)
            else:
                rules.append(_Rule(pos, start, end))
                start, end = a, b
        rules.append(_Rule(pos, start, end))
    return rules


def _cells(horizontal: list[_Rule], vertical: list[_Rule]) -> list[Box]:
    corners: set[tuple[float, float]] = set()
    for h in horizontal:
        for v in vertical:
            if h.start - SNAP <= v.pos <= h.end + SNAP and v.start - SNAP <= h.pos <= v.end + SNAP:
                corners.add((v.pos, h.pos))
    xs_at: dict[float, list[float]] = defaultdict(list)  # y -> xs of corners on that rule
    ys_at: dict[float, list[float]] = defaultdict(list)
    for x, y in corners:
        xs_at[y].append(x)
        ys_at[x].append(y)
    cells = []
    for x, y in sorted(corners, key=lambda p: (p[1], p[0])):
        cell = _cell_at(x, y, corners, xs_at, ys_at, horizontal, vertical)
        if cell:
            cells.append(cell)
    return cells


def _cell_at(
    x: float,
    y: float,
    corners: set[tuple[float, float]],
    xs_at: dict[float, list[float]],
    ys_at: dict[float, list[float]],
    horizontal: list[_Rule],
    vertical: list[_Rule],
) -> Box | None:
    """The smallest cell whose top-left corner is ``(x, y)``."""
    rights = sorted(x2 for x2 in xs_at[y] if x2 > x + SNAP and _covers(horizontal, y, x, x2))
    belows = sorted(y2 for y2 in ys_at[x] if y2 > y + SNAP and _covers(vertical, x, y, y2))
    for y2 in belows:
        for x2 in rights:
            if (
                (x2, y2) in corners
                and _covers(horizontal, y2, x, x2)
                and _covers(vertical, x2, y, y2)
            ):
                return Box(x, y, x2, y2)
    return None


def _covers(rules: list[_Rule], pos: float, a: float, b: float) -> bool:
    return any(
        abs(r.pos - pos) <= SNAP and r.start <= a + SNAP and r.end >= b - SNAP for r in rules
    )


def _connected(cells: list[Box]) -> list[list[Box]]:
    """Group cells that share a corner."""
    parent = list(range(len(cells)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[tuple[float, float], int] = {}
    for i, c in enumerate(cells):
        for corner in ((c.x0, c.top), (c.x1, c.top), (c.x0, c.bottom), (c.x1, c.bottom)):
            key = (round(corner[0], 1), round(corner[1], 1))
            if key in owner:
                parent[find(i)] = find(owner[key])
            else:
                owner[key] = i
    groups: dict[int, list[Box]] = defaultdict(list)
    for i, c in enumerate(cells):
        groups[find(i)].append(c)
    return sorted(groups.values(), key=lambda g: (min(c.top for c in g), min(c.x0 for c in g)))


def _outline(cells: list[Box]) -> Box:
    out = cells[0]
    for c in cells[1:]:
        out = out.union(c)
    return out


def _rows(cells: list[Box]) -> list[list[Box]]:
    """Cells grouped by their top edge, each row left to right."""
    rows: dict[float, list[Box]] = defaultdict(list)
    for c in cells:
        key = next((k for k in rows if abs(k - c.top) <= SNAP), c.top)
        rows[key].append(c)
    return [sorted(rows[k], key=lambda c: c.x0) for k in sorted(rows)]
