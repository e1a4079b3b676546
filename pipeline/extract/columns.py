"""Reading order from positions: gutters first, then bands, then columns.

A gutter is a vertical strip that (almost) no row of text covers while rows end just
left of it and start just right of it. Rows that cross a gutter span the columns (a
full-width title, a wide box): they cut the region into bands, and each band is read
column by column, left to right. When no row crosses a gutter the region simply splits
there, and each side is laid out on its own: this is how two pages printed on one sheet
are read one after the other, each with its own columns. Cutting at horizontal gaps
first interleaves columns on real pages, so it is never done.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook2game.extract.records import Box, FlowItem, FlowObject, Line, PageObject, Word

_MARGIN = 0.15
"""A gutter's centre lies at least this fraction of the region's width from either edge."""
_MIN_COLUMN = 0.15
_MAX_DEPTH = 4
_WORD_SPACE = 0.8
"""Gaps narrower than this fraction of the text height are spaces between words."""


@dataclass(slots=True)
class _Part:
    x0: float
    x1: float
    top: float
    bottom: float
    word: Word | None = None
    obj: PageObject | None = None


@dataclass(slots=True)
class _Row:
    parts: list[_Part]
    top: float = field(init=False)
    bottom: float = field(init=False)

    def __post_init__(self) -> None:
        self.parts.sort(key=lambda p: p.x0)
        self.top = min(p.top for p in self.parts)
        self.bottom = max(p.bottom for p in self.parts)

    @property
    def x0(self) -> float:
        return self.parts[0].x0

    @property
    def x1(self) -> float:
        return max(p.x1 for p in self.parts)


@dataclass(frozen=True, slots=True)
class PageLayout:
    """A page's content in reading order, and what the layout looked like."""

    items: list[FlowItem]
    panels: int
    columns: int
    reasons: list[str] = field(default_factory=list)
    """Why the reading order is uncertain (empty when it is not)."""


@dataclass(slots=True)
class _Context:
    page: int
    boxes: tuple[Box, ...]
    landscape: bool
    columns: int = 1
    panels: int = 1
    out: list[FlowItem] = field(default_factory=list)
    overlaps: int = 0
    """Rows crossing a gutter with text beside them in another column."""


def read_order(
    page: int,
    rows: list[list[Word]],
    objects: tuple[PageObject, ...],
    boxes: tuple[Box, ...],
    size: Box,
) -> PageLayout:
    """Order a page's rows of words and its objects for reading."""
    parts_rows = [_Row([_Part(w.x0, w.x1, w.top, w.bottom, word=w) for w in r]) for r in rows]
    parts_rows += [
        _Row([_Part(o.box.x0, o.box.x1, o.box.top, o.box.bottom, obj=o)]) for o in objects
    ]
    ctx = _Context(page, boxes, landscape=size.width > size.height * 1.05)
    if parts_rows:
        _region(parts_rows, (), ctx, 0)
    reasons = []
    if ctx.overlaps:
        reasons.append(
            f"reading order uncertain: {ctx.overlaps} line(s) or figure(s) cross a column gutter "
            "beside text of the other column"
        )
    return PageLayout(ctx.out, ctx.panels, ctx.columns, reasons)


def _region(rows: list[_Row], path: tuple[int, ...], ctx: _Context, depth: int) -> None:
    gutters = _gutters(rows) if depth < _MAX_DEPTH else []
    if not gutters:
        _emit(sorted(rows, key=lambda r: (r.top, r.x0)), path, ctx)
        return
    head, rows = _centred_head(rows)
    if head:  # a title above the columns, narrower than the column under it
        _emit(head, (*path, 0), ctx)
        path = (*path, 1)
    crossing = [any(_crosses(r, g) for g in gutters) for r in rows]
    if not any(crossing):
        if depth == 0 and ctx.landscape and len(gutters) == 1 and _central(rows, gutters[0]):
            ctx.panels = 2
        else:
            ctx.columns = max(ctx.columns, len(gutters) + 1)
        for i, column in enumerate(_split(rows, gutters)):
            if column:
                _region(column, (*path, i), ctx, depth + 1)
        return
    ctx.columns = max(ctx.columns, len(gutters) + 1)
    _bands(rows, gutters, path, ctx, depth)


def _centred_head(rows: list[_Row]) -> tuple[list[_Row], list[_Row]]:
    """Leading rows centred on the region and clear above everything else."""
    ordered = sorted(rows, key=lambda r: (r.top, r.x0))
    x0 = min(r.x0 for r in rows)
    x1 = max(r.x1 for r in rows)
    count = 0
    for i, row in enumerate(ordered[:-1]):
        if abs((row.x0 + row.x1) / 2 - (x0 + x1) / 2) > 0.06 * (x1 - x0):
            break
        below = min(r.top for r in ordered[i + 1 :])
        if below - row.bottom < 0.3 * (row.bottom - row.top):
            break
        count = i + 1
    return ordered[:count], ordered[count:]


def _bands(
    rows: list[_Row],
    gutters: list[tuple[float, float]],
    path: tuple[int, ...],
    ctx: _Context,
    depth: int,
) -> None:
    """Cut at rows that cross a gutter; read each band column by column."""
    band: list[_Row] = []
    spanning: list[_Row] = []
    index = 0
    ordered = sorted(rows, key=lambda r: (r.top, r.x0))
    spans = _spanning(ordered, gutters)
    ctx.overlaps += sum(
        1
        for i, s in enumerate(spans)
        if s and any(_crosses(ordered[i], g) for g in gutters) and _has_neighbour(ordered, i)
    )
    for row, spans_columns in zip(ordered, spans, strict=True):
        if spans_columns:
            if band:
                _columns_of_band(band, gutters, (*path, index), ctx, depth)
                band, index = [], index + 1
            spanning.append(row)
        else:
            if spanning:
                _emit(spanning, (*path, index), ctx)
                spanning, index = [], index + 1
            band.append(row)
    if band:
        _columns_of_band(band, gutters, (*path, index), ctx, depth)
    if spanning:
        _emit(spanning, (*path, index), ctx)


def _spanning(ordered: list[_Row], gutters: list[tuple[float, float]]) -> list[bool]:
    """Which rows span the columns: those crossing a gutter, and the narrow rows that
    belong to them (the short last line of a full-width paragraph, a heading set right
    above a full-width box), which have nothing beside them in the other columns."""
    spans = [any(_crosses(r, g) for g in gutters) for r in ordered]
    for i, row in enumerate(ordered):
        if spans[i] or _has_neighbour(ordered, i):
            continue
        above = ordered[i - 1] if i > 0 and spans[i - 1] else None
        below = ordered[i + 1] if i + 1 < len(ordered) and spans[i + 1] else None
        height = row.bottom - row.top
        tail = (
            above is not None and row.top - above.bottom <= 0.6 * height and _same_size(row, above)
        )
        head = below is not None and below.top - row.bottom <= 2 * height and _heads(row, below)
        spans[i] = tail or head
    return spans


def _has_neighbour(ordered: list[_Row], i: int) -> bool:
    """Whether another row shares this row's height on the page (another column's line)."""
    row = ordered[i]
    return any(j != i and r.top < row.bottom and r.bottom > row.top for j, r in enumerate(ordered))


def _words_of(row: _Row) -> list[Word]:
    return [p.word for p in row.parts if p.word is not None]


def _same_size(a: _Row, b: _Row) -> bool:
    wa, wb = _words_of(a), _words_of(b)
    return bool(wa and wb) and abs(wa[0].size - wb[0].size) <= 0.05 * wb[0].size


def _heads(row: _Row, below: _Row) -> bool:
    """Whether ``row`` reads as a heading of ``below`` (bold over plain, or larger)."""
    mine, theirs = _words_of(row), _words_of(below)
    if not mine or not theirs:
        return False
    bold = all(w.bold for w in mine) and not all(w.bold for w in theirs)
    return bold or mine[0].size >= 1.08 * theirs[0].size


def _columns_of_band(
    band: list[_Row],
    gutters: list[tuple[float, float]],
    path: tuple[int, ...],
    ctx: _Context,
    depth: int,
) -> None:
    for i, column in enumerate(_split(band, gutters)):
        if column:
            _region(column, (*path, i), ctx, depth + 1)


def _emit(rows: list[_Row], path: tuple[int, ...], ctx: _Context) -> None:
    """Append rows (one column, top to bottom) to the page's reading order."""
    words = [p for r in rows for p in r.parts if p.word]
    if not words and not any(p.obj for r in rows for p in r.parts):
        return
    col_x0 = min((p.x0 for p in words), default=0.0)
    col_x1 = max((p.x1 for p in words), default=0.0)
    for row in rows:
        text = tuple(p.word for p in row.parts if p.word is not None)
        if text:
            ctx.out.append(Line(text, ctx.page, path, col_x0, col_x1, _box_of(text, ctx.boxes)))
        for p in row.parts:
            if p.obj is not None:
                ctx.out.append(FlowObject(p.obj, ctx.page, path))


def _box_of(words: tuple[Word, ...], boxes: tuple[Box, ...]) -> int | None:
    w = words[len(words) // 2]
    x, y = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
    for i, b in enumerate(boxes):
        if b.contains_point(x, y, slack=1.0):
            return i
    return None


def _split(rows: list[_Row], gutters: list[tuple[float, float]]) -> list[list[_Row]]:
    """Cut every row at the gutters; one list of row pieces per column."""
    edges = [(g0 + g1) / 2 for g0, g1 in gutters]
    columns: list[list[_Row]] = [[] for _ in range(len(edges) + 1)]
    for row in rows:
        pieces: list[list[_Part]] = [[] for _ in columns]
        for p in row.parts:
            centre = (p.x0 + p.x1) / 2
            pieces[sum(1 for e in edges if centre > e)].append(p)
        for i, piece in enumerate(pieces):
            if piece:
                columns[i].append(_Row(piece))
    return columns


def _crosses(row: _Row, gutter: tuple[float, float]) -> bool:
    """Whether a row runs across the gutter (rather than ending on one side of it).

    Words on both sides count as one line when the gap between them, where the gutter
    is, is no wider than a word space: a centred title can have its space right there.
    """
    if _is_picture(row):
        return False  # pictures may straddle columns; they do not make a layout
    centre = (gutter[0] + gutter[1]) / 2
    left: _Part | None = None
    for p in row.parts:
        if p.x0 < centre < p.x1:
            return True
        if p.x1 <= centre:
            left = p
        elif left is not None:
            size = max(left.bottom - left.top, p.bottom - p.top)
            return p.x0 - left.x1 < _WORD_SPACE * size
        else:
            return False
    return False


def _central(rows: list[_Row], gutter: tuple[float, float]) -> bool:
    x0 = min(r.x0 for r in rows)
    x1 = max(r.x1 for r in rows)
    centre = (gutter[0] + gutter[1]) / 2
    return abs(centre - (x0 + x1) / 2) < 0.08 * (x1 - x0)


def _is_picture(row: _Row) -> bool:
    obj = row.parts[0].obj
    return len(row.parts) == 1 and obj is not None and obj.kind == "diagram"


def _gutters(rows: list[_Row]) -> list[tuple[float, float]]:
    """Vertical strips of white between columns, left to right (pictures left out)."""
    rows = [r for r in rows if not _is_picture(r)]
    if len(rows) < 3:
        return []
    x0 = min(r.x0 for r in rows)
    x1 = max(r.x1 for r in rows)
    width = x1 - x0
    sizes = sorted(p.bottom - p.top for r in rows for p in r.parts if p.word)
    size = sizes[len(sizes) // 2] if sizes else 10.0
    if width < 8 * size:
        return []
    cover = _coverage(rows, x0, int(width) + 2)
    limit = max(2, int(0.2 * len(rows)))
    slack = max(1, int(0.05 * len(rows)))
    min_width = max(4.0, 0.5 * size)
    found: list[tuple[float, float]] = []
    start: int | None = None
    for b, c in enumerate([*cover, limit + 1]):
        if c <= limit and start is None:
            start = b
        elif c > limit and start is not None:
            lo, hi = _core(cover, start, b, slack)
            start = None
            g0, g1 = x0 + lo, x0 + hi
            if g1 - g0 >= min_width and _is_gutter(rows, (g0, g1), x0, x1, size, min_width):
                found.append((g0, g1))
    return _spaced(found, x0, width)


def _core(cover: list[int], start: int, end: int, slack: int) -> tuple[int, int]:
    """The whitest stretch of a run of low coverage: around its minimum, within ``slack``."""
    best = min(range(start, end), key=lambda b: cover[b])
    ceiling = cover[best] + slack
    lo = hi = best
    while lo > start and cover[lo - 1] <= ceiling:
        lo -= 1
    while hi + 1 < end and cover[hi + 1] <= ceiling:
        hi += 1
    return lo, hi + 1


def _coverage(rows: list[_Row], x0: float, bins: int) -> list[int]:
    """For every 1-point bin, how many rows have text over it."""
    diff = [0] * (bins + 1)
    for row in rows:
        for p in row.parts:
            a = max(0, int(p.x0 - x0))
            b = min(bins, int(p.x1 - x0) + 1)
            diff[a] += 1
            diff[b] -= 1
    out, run = [], 0
    for d in diff[:bins]:
        run += d
        out.append(run)
    return out


def _is_gutter(
    rows: list[_Row],
    gutter: tuple[float, float],
    x0: float,
    x1: float,
    size: float,
    min_width: float,
) -> bool:
    """Text must end just left of the strip and start just right of it, on many rows."""
    g0, g1 = gutter
    centre = (g0 + g1) / 2
    if not x0 + _MARGIN * (x1 - x0) <= centre <= x1 - _MARGIN * (x1 - x0):
        return False
    # ragged or wrapped columns end (or start) anywhere in their outer half
    reach_left = max(3 * size, 0.5 * (g0 - x0))
    reach_right = max(3 * size, 0.5 * (x1 - g1))
    left = right = crossing = 0
    for row in rows:
        parts = row.parts
        if _crosses(row, gutter):
            crossing += 1
            continue
        for i, p in enumerate(parts):
            after = parts[i + 1].x0 if i + 1 < len(parts) else None
            before = parts[i - 1].x1 if i > 0 else None
            if g0 - reach_left <= p.x1 <= g0 + 0.5 and (after is None or after - p.x1 >= min_width):
                left += 1
            if g1 - 0.5 <= p.x0 <= g1 + reach_right and (
                before is None or p.x0 - before >= min_width
            ):
                right += 1
    return left >= 2 and right >= 3 and crossing <= 0.5 * min(left, right)


def _spaced(found: list[tuple[float, float]], x0: float, width: float) -> list[tuple[float, float]]:
    """Drop gutters that would leave a column narrower than ``_MIN_COLUMN`` of the width."""
    out: list[tuple[float, float]] = []
    last = x0
    for g in found:
        if g[0] - last >= _MIN_COLUMN * width:
            out.append(g)
            last = g[1]
    while out and x0 + width - out[-1][1] < _MIN_COLUMN * width:
        out.pop()
    return out
