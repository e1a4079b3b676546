"""Line-level text rules: list and rule markers, and joining lines without hyphens.

De-hyphenation: a hyphen at the end of a line (``-``, U+2010, or U+00AD, which some
producers use for every hyphen glyph) before a lowercase continuation is a break inside a
word and is removed, unless the document shows the word with a hyphen elsewhere and never
without one, or shows both halves as words and never the two joined ("three-player").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rulebook2game.extract.records import Word

SOFT_HYPHEN = "\u00ad"
_LINE_END_HYPHENS = ("-", "\u2010", SOFT_HYPHEN)
_BULLETS = frozenset("•◦▪▫■□●○►▶▸‣⁃–—-*✓✔❖➢➤◆◇♦·")
_GLUED_BULLETS = frozenset("•◦▪■●○►▶▸‣⁃◆♦")
_NUMBERED = re.compile(r"^(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]$|^\((?:\d{1,2}|[a-z])\)$")
_RULE = re.compile(r"^\d+(?:\.\d+)+\.?$")
_BARE_NUMBER = re.compile(r"^\d{1,2}$")
_CID = re.compile(r"^\(cid:\d+\)$")
_WORD = re.compile(r"[^\w\u00ad-]+")

MarkerKind = Literal["bullet", "number", "rule"]


@dataclass(frozen=True, slots=True)
class Marker:
    """What opens a list item or a numbered rule."""

    kind: MarkerKind
    label: str
    """The printed number (``3.2.1``, ``2.``) or the bullet glyph."""
    words: tuple[Word, ...]
    """The words after the marker."""


def find_marker(words: tuple[Word, ...]) -> Marker | None:
    """The list or rule marker that opens a line, if any."""
    first, rest = words[0], words[1:]
    text = first.text
    if len(text) > 1 and text[0] in _GLUED_BULLETS and text[1:].strip():
        glued = Word(
            text[1:],
            first.x0,
            first.x1,
            first.top,
            first.bottom,
            first.baseline,
            first.size,
            first.bold,
            first.italic,
            first.font,
        )
        return Marker("bullet", text[0], (glued, *rest))
    if not rest:
        return None
    if text in _BULLETS or _CID.match(text):
        return Marker("bullet", "•" if _CID.match(text) else text, rest)
    if _RULE.match(text):
        return Marker("rule", text.rstrip("."), rest)
    if _NUMBERED.match(text):
        return Marker("number", text, rest)
    if _BARE_NUMBER.match(text) and rest[0].x0 - first.x1 >= 0.8 * first.size:
        return Marker("number", text, rest)
    return None


def vocabulary(lines: Iterable[tuple[Word, ...]]) -> frozenset[str]:
    """Lowercased word forms of the document, leaving out the fragments of broken words.

    ``lines`` come in reading order, so the line after one that ends in a hyphen opens
    with the rest of the broken word."""
    out: set[str] = set()
    broken = False
    for words in lines:
        # the first word after a line ending in a hyphen is a fragment too ("tween")
        after_break = broken
        for w in words[1 if after_break else 0 : -1]:
            out.add(_norm(w.text))
        last = words[-1].text
        broken = last.endswith(_LINE_END_HYPHENS)
        if not broken and not (len(words) == 1 and after_break):
            out.add(_norm(last))
    return frozenset(out)


def _norm(text: str) -> str:
    return _WORD.sub("", text.lower())


@dataclass(frozen=True, slots=True)
class Joiner:
    """Joins the lines of a block, undoing hyphenation at line ends."""

    vocab: frozenset[str]

    def join(self, left: str, right: str) -> str:
        """``left`` and the next line ``right`` as one text."""
        if not left:
            return right
        if left[-2:-1] == " " and left.endswith(_LINE_END_HYPHENS) and left[-3:-2].isalpha():
            left = left[:-2] + left[-1]  # a hyphen set apart from its word ("car -")
        if left.endswith(_LINE_END_HYPHENS) and right[:1].islower():
            head = left.rsplit(" ", 1)[-1][:-1]
            tail = right.split(" ", 1)[0]
            hyphen = "" if self._breaks_word(head, tail) else "-"
            return left[:-1] + hyphen + right
        return f"{left} {right}"

    def _breaks_word(self, head: str, tail: str) -> bool:
        if not head[-1:].isalpha():
            return False
        joined = _norm(head + tail)
        if joined in self.vocab:
            return True
        if _norm(f"{head}-{tail}") in self.vocab:
            return False
        return not (_norm(head) in self.vocab and _norm(tail) in self.vocab)


def clean(text: str) -> str:
    """Collapse white space."""
    return " ".join(text.split())
