"""The rulebook text that pages cite: sections, sentences and which sentences are rules.

Where the text comes from, in order:

1. ``rulebook.json`` in the game directory: the extraction's sentence ledger, so the
   ids are exactly the ones the pages were written against;
2. otherwise ``rules.md`` (corpus games keep the source of their PDF): numbered
   headings (``## 4.2 Winning``) give section ids, and paragraphs and list items are
   split into sentences numbered ``<section id>#<index>`` like the ledger's;
3. otherwise nothing: citations are shown by id only (source ``none``).

A citation is a section id (``4.1``: every sentence of the section and of its
subsections) or a sentence id (``4.2#3``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook2game.diff.model import Citation

RULE_KIND = "rule"
"""The ledger kind of sentences that state rules (coverage counts these)."""

_HEADING = re.compile(r"^(#{1,6})\s+(?:(\d+(?:\.\d+)*)\.?\s+)?(.*?)\s*#*\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


@dataclass(frozen=True)
class Sentence:
    """One sentence of the rulebook."""

    id: str
    """``<section id>#<index>``."""
    section: str
    kind: str
    """``rule``, ``example``, ``flavor``, ... (``rule`` when the source does not say)."""
    text: str


@dataclass(frozen=True)
class RuleText:
    """The rulebook as a list of sentences grouped by section."""

    source: str
    """``rulebook.json``, ``rules.md`` or ``none``."""
    titles: dict[str, str] = field(default_factory=dict)
    """Section id -> title."""
    sentences: tuple[Sentence, ...] = ()

    def resolve(self, cite: str) -> tuple[str, ...]:
        """The sentence ids a citation covers (empty when unknown)."""
        if "#" in cite:
            return tuple(s.id for s in self.sentences if s.id == cite)
        return tuple(
            s.id for s in self.sentences if s.section == cite or s.section.startswith(cite + ".")
        )

    def citation(self, cite: str) -> Citation:
        """A citation with its section title and sentence texts."""
        section = cite.split("#", 1)[0]
        wanted = set(self.resolve(cite))
        texts = tuple((s.id, s.text) for s in self.sentences if s.id in wanted)
        return Citation(cite, self.titles.get(section, ""), texts)

    def rule_sentences(self) -> tuple[Sentence, ...]:
        """The sentences that state rules."""
        return tuple(s for s in self.sentences if s.kind == RULE_KIND)

    def covered(self, cites: Iterable[str]) -> set[str]:
        """Ids of the sentences any of ``cites`` covers."""
        return {sid for cite in cites for sid in self.resolve(cite)}


def load_rule_text(root: Path) -> RuleText:
    """The rule text of a game directory (see the module docstring for the order)."""
    if (root / "rulebook.json").is_file():
        return rule_text_from_json(root / "rulebook.json")
    if (root / "rules.md").is_file():
        return rule_text_from_markdown(root / "rules.md")
    return RuleText("none")


def rule_text_from_json(path: Path) -> RuleText:
    """Read the extraction's ``rulebook.json`` (sections with a sentence ledger)."""
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    titles: dict[str, str] = {}
    sentences: list[Sentence] = []
    for section in data.get("sections", []):
        sid = str(section.get("id", ""))
        titles[sid] = str(section.get("title", ""))
        for sentence in section.get("sentences", []):
            sentences.append(
                Sentence(
                    str(sentence["id"]),
                    sid,
                    str(sentence.get("kind", RULE_KIND)),
                    str(sentence.get("text", "")),
                )
            )
    return RuleText("rulebook.json", titles, tuple(sentences))


def split_sentences(text: str) -> list[str]:
    """Split running text into sentences (after ``.``, ``!`` or ``?`` before a capital)."""
    flat = " ".join(text.split())
    return [s for s in _SENTENCE_END.split(flat) if s]


def _blocks(lines: list[str]) -> list[str]:
    """Paragraphs and list items of a section body, each as one text."""
    blocks: list[str] = []
    current: list[str] = []
    for line in [*lines, ""]:
        if not line.strip() or _LIST_ITEM.match(line):
            if current:
                blocks.append(" ".join(current))
            current = [_LIST_ITEM.sub("", line).strip()] if line.strip() else []
        else:
            current.append(line.strip())
    return [b for b in blocks if b]


def rule_text_from_markdown(path: Path) -> RuleText:
    """Read numbered sections and their sentences from a Markdown rules text."""
    titles: dict[str, str] = {}
    bodies: dict[str, list[str]] = {}
    current: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = _HEADING.match(line)
        if heading:
            current = heading.group(2)
            if current is not None:
                titles[current] = heading.group(3)
                bodies.setdefault(current, [])
            continue
        if current is not None:
            bodies[current].append(line)
    sentences = [
        Sentence(f"{sid}#{i}", sid, RULE_KIND, text)
        for sid, body in bodies.items()
        for i, text in enumerate(
            (s for block in _blocks(body) for s in split_sentences(block)), start=1
        )
    ]
    return RuleText("rules.md", titles, tuple(sentences))
