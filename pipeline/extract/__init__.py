"""Rulebook extraction: a PDF in, citable sections and a sentence ledger out.

``extract_rulebook(path)`` reads a PDF into a :class:`Rulebook`; ``write_rulebook`` saves
it atomically as JSON and ``load_rulebook`` reads it back. ``Rulebook.toc_text()`` and
``Rulebook.section_text(id)`` render it compactly, with sentence ids such as ``[3.2#1]``.
Every ledger sentence has a ``role`` (rule, example, framing, figure);
``rule_sentence_ids(rulebook)`` and ``example_sentence_ids(rulebook)`` list them.
"""

from __future__ import annotations

from rulebook2game.extract.model import (
    Block,
    Metadata,
    PageFlag,
    PageInfo,
    Rulebook,
    Section,
    Sentence,
)
from rulebook2game.extract.reader import Progress, extract_rulebook
from rulebook2game.extract.records import example_sentence_ids, rule_sentence_ids, sentence_ids
from rulebook2game.extract.store import load_rulebook, write_rulebook

__all__ = [
    "Block",
    "Metadata",
    "PageFlag",
    "PageInfo",
    "Progress",
    "Rulebook",
    "Section",
    "Sentence",
    "example_sentence_ids",
    "extract_rulebook",
    "load_rulebook",
    "rule_sentence_ids",
    "sentence_ids",
    "write_rulebook",
]
