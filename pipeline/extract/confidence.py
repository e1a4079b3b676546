"""Low-confidence pages: say what looks wrong instead of guessing.

A page is flagged when it has (almost) no text, when glyph widths suggest ligatures that
the PDF maps to a single letter ("frst" for "first": an "f" as wide as "fi"), when glyphs
have no Unicode mapping ("(cid:12)"), when much of its text is rotated, or when its layout
is unusual (several pages on one sheet, more than three columns).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebook2game.extract.records import Glyph, PageFacts, RawPage, Word

_SYMBOL = re.compile(r"^\(cid:\d+\)$")

LITTLE_TEXT = 80
"""Fewer visible characters than this is "little text"."""

_WIDE_F = 0.45
"""An "f" wider than this fraction of its font size is probably a ligature glyph."""


@dataclass(frozen=True, slots=True)
class GlyphStats:
    """What the raw glyphs of a page say about its quality."""

    chars: int
    images: int
    wide_f: int
    unmapped: int
    rotated: int


def glyph_stats(page: RawPage, words: list[Word]) -> GlyphStats:
    """Count the warning signs among a page's glyphs and words.

    A word that is one unmapped glyph is a symbol (usually a bullet) and is not counted;
    an unmapped glyph inside a word is a lost letter.
    """
    visible = [g for g in page.glyphs if g.text.strip()]
    narrow_fonts = _proportional_fonts(visible)
    wide_f = sum(
        1
        for g in visible
        if g.text == "f" and g.font in narrow_fonts and (g.x1 - g.x0) > _WIDE_F * g.size
    )
    return GlyphStats(
        chars=len(visible),
        images=len(page.images),
        wide_f=wide_f,
        unmapped=sum(1 for w in words if "(cid:" in w.text and not _SYMBOL.match(w.text)),
        rotated=sum(1 for g in visible if not g.upright),
    )


def _proportional_fonts(glyphs: list[Glyph]) -> set[str]:
    """Fonts that are not monospaced (their "i" is clearly narrower than their "m")."""
    widths: dict[tuple[str, str], float] = {}
    for g in glyphs:
        if g.text in ("i", "m") and g.size > 0:
            widths[(g.font, g.text)] = (g.x1 - g.x0) / g.size
    out = set()
    for font in {g.font for g in glyphs}:
        i, m = widths.get((font, "i")), widths.get((font, "m"))
        if "mono" in font.lower() or (i is not None and m is not None and i >= 0.7 * m):
            continue
        out.add(font)
    return out


def reasons(stats: GlyphStats, facts: PageFacts) -> list[str]:
    """Why a page is of low confidence; empty when nothing looks wrong."""
    out: list[str] = []
    if stats.chars == 0:
        out.append("no text layer (an image?); OCR it to read this page")
    elif stats.chars < LITTLE_TEXT:
        out.append(f"little text ({stats.chars} characters)")
    if stats.wide_f >= 2:  # one odd glyph is a display font; ligatures come in numbers
        out.append(
            f"suspicious glyph widths: {stats.wide_f} 'f' glyphs as wide as a ligature "
            "(fi/fl/ff may be extracted as a bare 'f')"
        )
    if stats.unmapped:
        out.append(f"{stats.unmapped} glyphs without a Unicode mapping ('(cid:N)')")
    if stats.rotated > 0.1 * max(1, stats.chars):
        out.append(f"rotated text ({stats.rotated} characters) left out of the reading order")
    if facts.panels > 1:
        out.append(f"{facts.panels} pages printed on one sheet (read one after the other)")
    if facts.columns > 3:
        out.append(f"unusual layout: {facts.columns} columns")
    return out
