"""What each ledger sentence is for: a rule, an example, framing, or a figure.

The rules are few and explainable, checked in this order:

1. ``figure``: the sentence comes from a text figure, a drawn diagram or a caption.
2. ``framing``: the section is the front matter (the text before the first heading), or
   it or a section above it is titled like framing: Introduction, History, About,
   Overview, Background, Story, Welcome, Designer's notes, Credits, Acknowledgements.
3. ``example``: the section (or one above it) is titled Example(s) ("Example of play");
   or the block opens with "Example" or "For example" (an example box: every sentence
   of the block is an example); or the sentence itself opens with "For example", "For
   instance" or "Example", or works numbers out ("4 + 4 = 8").
4. ``rule``: everything else.

Component lists are rules: the number of pieces and cards is part of the game.
"""

from __future__ import annotations

import re
from typing import Literal

from rulebook2game.extract.records import BlockKind

Role = Literal["rule", "example", "framing", "figure"]
"""What a ledger sentence is for."""

_FRAMING = re.compile(
    r"\b(?:introduction|history|historical|about|overview|background|story|welcome|"
    r"designer'?s?|designers’|notes? from|credits|acknowledge?ments?|foreword|preface)\b",
    re.I,
)
_EXAMPLE_TITLE = re.compile(r"\bexamples?\b", re.I)
_EXAMPLE_LEAD = re.compile(r"^[\"'“‘(]?(?:for example|for instance|example\b|e\.g\.)", re.I)
_WORKED = re.compile(r"\d+\s*[+×x*−-]\s*\d+\s*=\s*\d+")
_FIGURE_KINDS: frozenset[BlockKind] = frozenset({"figure", "diagram", "caption"})


def section_role(titles: list[str], front: bool) -> Role | None:
    """The role every sentence of a section has, if its place says so.

    ``titles`` are the section's title and those of the sections above it.
    """
    if front or any(_FRAMING.search(t) for t in titles):
        return "framing"
    if any(_EXAMPLE_TITLE.search(t) for t in titles):
        return "example"
    return None


def block_roles(kind: BlockKind, sentences: list[str], in_section: Role | None) -> list[Role]:
    """The role of each sentence of one block (see the module docstring)."""
    if kind in _FIGURE_KINDS:
        return ["figure"] * len(sentences)
    if in_section is not None:
        return [in_section] * len(sentences)
    if sentences and _EXAMPLE_LEAD.match(sentences[0]):
        return ["example"] * len(sentences)
    return [sentence_role(s) for s in sentences]


def sentence_role(text: str) -> Role:
    """``example`` for a sentence that says so or works numbers out, else ``rule``."""
    if _EXAMPLE_LEAD.match(text) or _WORKED.search(text):
        return "example"
    return "rule"
