"""Sentence splitting that respects rule numbers, abbreviations and decimals.

A sentence ends at ``.``, ``!`` or ``?`` (with any closing quotes or brackets) followed by
white space and a capital letter, a digit or an opening quote or bracket. It does not end
after an abbreviation that never closes a sentence ("e.g.", "i.e.", "cf.", "Fig.", "p.",
"No."), after a single initial ("J. Smith"), or inside numbers ("3.2.1", "2.5"), which
have no space after their dots.
"""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"[.!?][\"'”’)\]]*\s+(?=[A-Z0-9\"'“‘(\[À-Þ•])")
_ABBREVIATIONS = (
    "e.g i.e eg ie cf vs viz fig figs no nos nr p pp sec ch vol art para ref refs approx incl "
    "mr mrs ms dr st ca esp resp al"
)
_NEVER_FINAL = frozenset(_ABBREVIATIONS.split())
"""Abbreviations after which a dot never ends a sentence (compared lowercased, no final dot)."""


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, stripped, in order."""
    text = " ".join(text.split())
    out: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start() + 1
        if _vetoed(text[start:end]):
            continue
        piece = text[start : match.end()].strip()
        if piece:
            out.append(piece)
        start = match.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out


def _vetoed(head: str) -> bool:
    """Whether the dot closing ``head`` belongs to an abbreviation or an initial."""
    if not head.endswith("."):
        return False
    token = head[:-1].rsplit(" ", 1)[-1].lstrip("\"'“‘([")
    if token.lower() in _NEVER_FINAL:
        return True
    return len(token) == 1 and token.isalpha() and token.isupper()
