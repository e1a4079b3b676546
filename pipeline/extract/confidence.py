"""Low-confidence pages: say what looks wrong instead of guessing.

A page is flagged when it has (almost) no text, when glyph widths suggest ligatures that
the PDF maps to a single letter ("frst" for "first": an "f" as wide as "fi"), when glyphs
have no Unicode mapping ("(cid:12)"), when much of its text is rotated, or when its layout
is unusual (several pages on one sheet, more than three columns), or when a line of the
reading order holds a gap as wide as a column gutter: its words may come from two
columns, so the sentences made of it may be spliced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebook2game.extract.figures import is_monospace
from rulebook2game.extract.records import FlowItem, Glyph, Line, PageFacts, RawPage, Word

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
        if is_monospace(font) or (i is not None and m is not None and i >= 0.7 * m):
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


SPLICE_GAP = 2.5
"""A gap between two words of a line wider than this many font sizes looks like a gutter."""
NARROW_GAP = 1.2
"""Gaps this wide (in font sizes) look like a narrow gutter when three lines or more
have one at the same place."""


def spliced_lines(items: list[FlowItem]) -> list[str]:
    """A reason to check the page when lines of its reading order span a gutter-like gap.

    A gap counts when it is wider than ``SPLICE_GAP`` font sizes, or wider than
    ``NARROW_GAP`` at the same place (within 4 points) as in two other lines. The gap
    after a list or rule marker (the first word) does not count.
    """
    wide: list[float] = []
    narrow: list[float] = []
    for item in items:
        if not isinstance(item, Line) or len(item.words) < 3:
            continue
        for a, b in zip(item.words[1:], item.words[2:], strict=False):
            gap = (b.x0 - a.x1) / max(a.size, b.size)
            if gap > SPLICE_GAP:
                wide.append((a.x1 + b.x0) / 2)
                break
            if gap > NARROW_GAP:
                narrow.append((a.x1 + b.x0) / 2)
    wide += [x for x in narrow if sum(1 for y in narrow if abs(x - y) <= 4.0) >= 3]
    if not wide:
        return []
    xs = ", ".join(f"{x:.0f}" for x in sorted(set(round(x) for x in wide))[:3])
    return [
        f"reading order uncertain: {len(wide)} line(s) with a gutter-like gap (at x = {xs}); "
        "their text may join two columns"
    ]
