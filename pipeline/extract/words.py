"""Glyphs to words and rows of words, by position only (never by drawing order).

Glyphs are grouped by baseline into rows, sorted left to right and cut into words where
the gap exceeds a fraction of the font size: the default fixed tolerance of other tools
glues tightly set text ("TheserulesarebasedonAgeofFantasy"). Ligature code points are
spelled out and glyphs drawn twice on the same spot (fake bold) are kept once.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rulebook2game.extract.records import Glyph, Word

WORD_GAP_RATIO = 0.15
"""A gap wider than this fraction of the font size separates two words."""

BASELINE_TOLERANCE = 0.12
"""Glyphs whose baselines differ by less than this fraction of their size share a row.

Glyphs of one typeset line share their baseline exactly; a wide tolerance would pull the
neighbouring column's line (a point or two lower) into the row."""

_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
    }
)
_SPACES = frozenset(" \t\n\r\u00a0\u2002\u2003\u2009\u200a\u202f\u3000")


def rows_of_words(glyphs: Iterable[Glyph]) -> list[list[Word]]:
    """Group upright glyphs into rows (top to bottom) of words (left to right)."""
    ordered = sorted((g for g in glyphs if g.upright), key=lambda g: (g.baseline, g.x0))
    rows: list[list[Glyph]] = []
    for glyph in ordered:
        if rows and glyph.baseline - rows[-1][0].baseline <= BASELINE_TOLERANCE * glyph.size:
            rows[-1].append(glyph)
        else:
            rows.append([glyph])
    out = []
    for row in rows:
        row.sort(key=lambda g: g.x0)
        words = _words(_dedupe(row))
        if words:
            out.append(words)
    return out


@lru_cache(maxsize=256)
def _font_style(font: str) -> tuple[bool, bool]:
    name = font.split("+", 1)[-1].lower()
    bold = any(k in name for k in ("bold", "black", "heavy", "semibold", "demi"))
    italic = any(k in name for k in ("italic", "oblique", "slanted"))
    return bold, italic


def _dedupe(row: list[Glyph]) -> list[Glyph]:
    """Drop a glyph drawn again on (almost) the same spot, as fake bold does."""
    out: list[Glyph] = []
    for g in row:
        if out and g.text == out[-1].text and abs(g.x0 - out[-1].x0) < _overlap_limit(g):
            continue
        out.append(g)
    return out


def _overlap_limit(g: Glyph) -> float:
    return min(1.0, 0.3 * (g.x1 - g.x0))


def _words(row: list[Glyph]) -> list[Word]:
    words: list[Word] = []
    current: list[Glyph] = []
    for g in row:
        if g.text in _SPACES or not g.text.strip():
            _flush(current, words)
            current = []
            continue
        if current:
            gap = g.x0 - current[-1].x1
            limit = WORD_GAP_RATIO * max(g.size, current[-1].size)
            if gap > limit or gap < -0.6 * g.size:
                _flush(current, words)
                current = []
        current.append(g)
    _flush(current, words)
    return words


def _flush(glyphs: list[Glyph], words: list[Word]) -> None:
    if not glyphs:
        return
    text = "".join(g.text for g in glyphs).translate(_LIGATURES)
    if "\u00ad" in text[:-1]:  # a drawn hyphen mapped to SOFT HYPHEN; only a line-end one is soft
        text = text[:-1].replace("\u00ad", "-") + text[-1]
    bold_count = sum(_font_style(g.font)[0] for g in glyphs)
    italic_count = sum(_font_style(g.font)[1] for g in glyphs)
    words.append(
        Word(
            text=text,
            x0=glyphs[0].x0,
            x1=max(g.x1 for g in glyphs),
            top=min(g.top for g in glyphs),
            bottom=max(g.bottom for g in glyphs),
            baseline=glyphs[0].baseline,
            size=max(g.size for g in glyphs),
            bold=bold_count * 2 > len(glyphs),
            italic=italic_count * 2 > len(glyphs),
            font=glyphs[0].font.split("+", 1)[-1],
        )
    )
