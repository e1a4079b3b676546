"""Text diagrams: boards drawn with dots and coordinates, grids and tables set in type.

A rulebook draws a board as rows of characters ("8 . x . x . x . x 8", "a b c d e f g h")
or sets a small table of numbers in a fixed-width font. Read as text, each row would
become a "sentence". Here such rows are gathered into one figure object that takes the
place of its words in the reading order, the way a ruled table does.

A row segment (words of one row, cut where the gap is wider than a column gutter could
be inside a figure) is *figure-like* when

- it is set in a fixed-width font while the page's running text is not, or
- it has at least three words, at least three quarters of them are tokens, not words
  (punctuation ".", a single letter "x", a number "12" or "4*", any short run without two
  letters in a row "+----+"), and at least half of them are one character or punctuation
  only (so "b3, g3, d4, e4" in a sentence is not a figure).

A row of a table set without rules (two or more short cells side by side, one of them a
number: "gust   4   2") is figure-like too, and rows of short cells right above or
under such rows (its header, a row without numbers) belong to it.

Figure-like segments of at least two rows that stand under one another, a line pitch or
two apart, make a figure; short token-only segments beside or between its rows (row
numbers "7") join it. A figure's text keeps its rows, one per line, spaced by position.
"""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass

from rulebook2game.extract.records import Box, PageObject, Word

_MONO = re.compile(r"courier|mono|cmtt|typewriter|consol|code|fixed|\bcw\b", re.I)
_TOKEN = re.compile(r"^(?:[^\w\s]+|[A-Za-z][^\w\s]*|\d{1,3}[^\w\s]*|(?!.*[A-Za-z]{2}).{1,12})$")
_CELL_WORDS = 5
"""A cell of a table set without rules has at most this many words."""
_NUMBER = re.compile(r"^[+\-–−]?\d{1,4}(?:[.,]\d+)?[*%]?$|^\d{1,3}[–-]\d{1,3}$")
_SEGMENT_GAP = 2.2
"""A gap wider than this many font sizes cuts a row into segments (columns, labels)."""
_TOKEN_SHARE = 0.75
_ROW_GAP = 2.6
"""Rows of one figure are at most this many font sizes apart (baseline to baseline)."""


@dataclass(slots=True)
class _Segment:
    words: list[Word]
    mono: bool
    strong: bool
    weak: bool

    @property
    def box(self) -> Box:
        return Box(
            self.words[0].x0,
            min(w.top for w in self.words),
            self.words[-1].x1,
            max(w.bottom for w in self.words),
        )

    @property
    def size(self) -> float:
        return max(w.size for w in self.words)


def is_monospace(font: str) -> bool:
    """Whether a font name says it is fixed-width (Courier, ... Mono, cmtt, ...)."""
    return bool(_MONO.search(font.split("+", 1)[-1]))


def is_token(text: str) -> bool:
    """Whether a word is a diagram token rather than a word of prose."""
    return bool(_TOKEN.match(text))


def find_figures(rows: list[list[Word]]) -> tuple[list[PageObject], list[list[Word]]]:
    """The text figures of a page, and its rows with the figures' words removed."""
    text_mono = _running_text_is_mono(rows)
    per_row = [_segments(row, text_mono) for row in rows]
    heads = [seg for row in per_row for seg in _mark_table_cells(row)]
    segments = [s for row in per_row for s in row]
    figures: list[list[_Segment]] = []
    for seg in sorted(segments, key=lambda s: (s.box.top, s.box.x0)):
        if not seg.strong:
            continue
        home = next((f for f in figures if _below(f, seg)), None)
        if home is None:
            figures.append([seg])
        else:
            home.append(seg)
    figures = _merge_side_by_side(figures)
    figures = [f for f in figures if len({round(s.words[0].baseline) for s in f}) >= 2]
    if not figures:
        return [], rows
    taken: set[int] = set()
    objects = []
    for fig in figures:
        box = _box(fig)
        for seg in segments:
            if seg.weak and not seg.strong and _beside(box, seg):
                fig.append(seg)
        for _ in range(2):  # a header above, rows of words only under or between the rows
            for h in heads:
                if h not in fig and _next_to(_box(fig), h):
                    fig.append(h)
        taken |= {id(w) for s in fig for w in s.words}
        objects.append(PageObject("figure", _box(fig), _text_rows(fig)))
    left = [[w for w in row if id(w) not in taken] for row in rows]
    return objects, [r for r in left if r]


def _running_text_is_mono(rows: list[list[Word]]) -> bool:
    mono = sum(len(w.text) for row in rows for w in row if is_monospace(w.font))
    total = sum(len(w.text) for row in rows for w in row)
    return mono * 2 > total


def _segments(row: list[Word], text_mono: bool) -> list[_Segment]:
    out: list[list[Word]] = [[row[0]]]
    for prev, w in itertools.pairwise(row):
        if w.x0 - prev.x1 > _SEGMENT_GAP * max(w.size, prev.size):
            out.append([w])
        else:
            out[-1].append(w)
    return [_classify(words, text_mono) for words in out]


def _mark_table_cells(row: list[_Segment]) -> list[_Segment]:
    """Find the rows of tables set without rules: two or more short cells side by side,
    at least one of them a number ("gust   4   2"). The cells of such a row are merged
    into one figure-like segment, in place; returns the rows that may be a table's header
    (short cells, no number), merged the same way but not figure-like."""
    runs: list[list[_Segment]] = [[]]
    for seg in row:
        if len(seg.words) <= _CELL_WORDS and not seg.words[-1].text.endswith((".", ";")):
            runs[-1].append(seg)
        else:
            runs.append([])
    heads: list[_Segment] = []
    for run in runs:
        if len(run) < 2:
            continue
        numbers = any(all(_NUMBER.match(w.text) for w in seg.words) for seg in run)
        strong = numbers or any(seg.strong for seg in run)
        mono = all(seg.mono for seg in run)
        merged = _Segment([w for seg in run for w in seg.words], mono, strong, mono)
        at = row.index(run[0])
        row[at : at + len(run)] = [merged]
        if not strong:
            heads.append(merged)
    return heads


def _next_to(box: Box, seg: _Segment) -> bool:
    """A row of short cells right above or under a table's rows, within its width."""
    s = seg.box
    near = max(box.top - s.bottom, s.top - box.bottom) <= 1.6 * seg.size
    starts = box.x0 - 3 * seg.size <= s.x0 <= box.x1
    return near and starts and s.x1 <= box.x1 + max(box.width, 10 * seg.size)


def _classify(words: list[Word], text_mono: bool) -> _Segment:
    mono = not text_mono and all(is_monospace(w.font) for w in words)
    tokens = sum(1 for w in words if is_token(w.text))
    marks = sum(1 for w in words if len(w.text) == 1 or not any(c.isalnum() for c in w.text))
    shaped = len(words) >= 3 and tokens >= _TOKEN_SHARE * len(words) and 2 * marks >= len(words)
    weak = tokens == len(words) and len(words) <= 2
    return _Segment(words, mono, mono or shaped, weak or mono)


def _merge_side_by_side(figures: list[list[_Segment]]) -> list[list[_Segment]]:
    """Join figures that share their rows (the columns of a table set in type)."""
    out: list[list[_Segment]] = []
    for fig in sorted(figures, key=lambda f: _box(f).x0):
        box = _box(fig)
        for other in out:
            ob = _box(other)
            shared = min(box.bottom, ob.bottom) - max(box.top, ob.top)
            gap = box.x0 - ob.x1
            if shared > 0.6 * min(box.height, ob.height) and gap < 8 * fig[0].size:
                other += fig
                break
        else:
            out.append(fig)
    return out


def _below(figure: list[_Segment], seg: _Segment) -> bool:
    """Whether ``seg`` continues ``figure`` downwards (the next row, under it)."""
    last = figure[-1]
    box = _box(figure)
    step = seg.words[0].baseline - last.words[0].baseline
    overlap = min(box.x1, seg.box.x1) - max(box.x0, seg.box.x0)
    if not (-0.5 < step <= _ROW_GAP * seg.size and overlap > -2 * seg.size):
        return False
    baselines = sorted({round(s.words[0].baseline, 1) for s in figure})
    steps = [b - a for a, b in itertools.pairwise(baselines)]
    # rows of one figure are evenly spaced: a wider gap starts the next figure
    return not steps or step <= 1.6 * statistics.median(steps) + 0.5


def _beside(box: Box, seg: _Segment) -> bool:
    """A short label inside the figure's rows, just left or right of them (row numbers)."""
    s = seg.box
    mid = (s.top + s.bottom) / 2
    near = box.x0 - 3 * seg.size <= s.x0 and s.x1 <= box.x1 + 3 * seg.size
    return near and box.top - 0.2 * seg.size <= mid <= box.bottom + 0.2 * seg.size


def _box(fig: list[_Segment]) -> Box:
    box = fig[0].box
    for seg in fig[1:]:
        box = box.union(seg.box)
    return box


def _text_rows(fig: list[_Segment]) -> tuple[tuple[str, ...], ...]:
    """The figure's rows as text, words placed by position on a grid of character cells."""
    words = [w for s in fig for w in s.words]
    widths = [(w.x1 - w.x0) / len(w.text) for w in words if w.text]
    cell = statistics.median(widths) if widths else 5.0
    x0 = min(w.x0 for w in words)
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w.baseline, w.x0)):
        if lines and abs(w.baseline - lines[-1][0].baseline) <= 0.3 * w.size:
            lines[-1].append(w)
        else:
            lines.append([w])
    out = []
    for line in lines:
        text = ""
        for w in sorted(line, key=lambda w: w.x0):
            col = round((w.x0 - x0) / cell)
            pad = col - len(text) if col > len(text) else (1 if text else 0)
            text += " " * pad + w.text
        out.append((text.rstrip(),))
    return tuple(out)
