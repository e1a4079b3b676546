"""The rulebook text that pages cite: sections, sentences and which sentences are rules.

Where the text comes from, in order:

1. ``rulebook.json`` in the game directory: the extraction's sentence ledger, so the
   ids are exactly the ones the pages were written against;
2. otherwise ``rules.md`` (corpus games keep the source of their PDF): numbered
   headings (``## 4.2 Winning``) give section ids, and paragraphs and list items are
   split into sentences numbered ``<section id>#<n>`` from 1, as the ledger numbers
   them (the extraction of the corpus PDFs gives the same ids and sentences);
3. otherwise the rulebook PDF named in ``game.toml``, extracted on the fly;
4. otherwise nothing: citations are shown by id only (source ``none``).

A citation is a section id (``4.1``: every sentence of the section and of its
subsections) or a sentence id (``4.2#3``).

Which sentences are *rules* (the denominator of coverage): sentences of the kinds in
:data:`RULE_KINDS` outside the front matter (the unnumbered text before the first
section, extraction id ``front``) whose ledger ``role`` is ``rule``. Sidebars, captions
and diagrams are context; so are sentences the ledger marks as ``framing`` (flavour,
history) or ``example`` (worked examples: scenarios cover them, see
:mod:`rulebook2game.check.sentences`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook2game.errors import BadInputError, WorkspaceError

if TYPE_CHECKING:
    from rulebook2game.extract import Rulebook
from rulebook2game.diff.model import Citation

RULE_KINDS = frozenset({"rule", "paragraph", "list_item", "table"})
"""Ledger kinds of sentences that state rules (coverage counts these)."""

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
    """The kind of block it comes from (``paragraph``, ``list_item``, ``sidebar``, ...)."""
    text: str
    numbered: bool = True
    """Whether it belongs to a numbered section (not the front matter)."""
    role: str = "rule"
    """The ledger's role: ``rule``, ``example``, ``framing`` or ``figure`` (``rules.md``
    text has no ledger: ``rule``)."""

    @property
    def is_rule(self) -> bool:
        """Whether coverage counts the sentence (see the module docstring)."""
        return self.numbered and self.kind in RULE_KINDS and self.role == "rule"


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
        return tuple(s for s in self.sentences if s.is_rule)

    def covered(self, cites: Iterable[str]) -> set[str]:
        """Ids of the sentences any of ``cites`` covers."""
        return {sid for cite in cites for sid in self.resolve(cite)}


def load_rule_text(root: Path) -> RuleText:
    """The rule text of a game directory (see the module docstring for the order).

    Raises:
        BadInputError: ``rulebook.json`` exists but is not a valid rulebook.
    """
    if (root / "rulebook.json").is_file():
        return rule_text_from_json(root / "rulebook.json")
    if (root / "rules.md").is_file():
        return rule_text_from_markdown(root / "rules.md")
    pdf = _rulebook_pdf(root)
    if pdf is not None:
        try:
            return rule_text_from_pdf(pdf)
        except BadInputError:
            return RuleText("none")
    return RuleText("none")


def _rulebook_pdf(root: Path) -> Path | None:
    from rulebook2game.workspace import load_game_config

    try:
        name = load_game_config(root / "game.toml").rulebook
    except WorkspaceError:
        return None
    path = root / name
    return path if path.is_file() and path.suffix.lower() == ".pdf" else None


def rule_text_from_json(path: Path) -> RuleText:
    """Read the extraction's ``rulebook.json`` (sections with a sentence ledger)."""
    from rulebook2game.extract import load_rulebook

    return _from_rulebook(load_rulebook(path), "rulebook.json")


def rule_text_from_pdf(path: Path) -> RuleText:
    """Extract a rulebook PDF and read its ledger."""
    from rulebook2game.extract import extract_rulebook

    return _from_rulebook(extract_rulebook(path), path.name)


def _from_rulebook(rulebook: Rulebook, source: str) -> RuleText:
    titles = {sec.id: sec.title for sec in rulebook.sections}
    front = {sec.id for sec in rulebook.sections if sec.level == 0}
    sentences = tuple(
        Sentence(s.id, s.section, s.kind, s.text, s.section not in front, s.role)
        for s in rulebook.sentences
    )
    return RuleText(source, titles, sentences)


def split_sentences(text: str) -> list[str]:
    """Split running text into sentences (after ``.``, ``!`` or ``?`` before a capital)."""
    flat = " ".join(text.split())
    return [s for s in _SENTENCE_END.split(flat) if s]


def _plain(text: str) -> str:
    """Markdown emphasis and code marks removed."""
    text = re.sub(r"\*\*|__|`", "", text)
    return re.sub(r"(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])", r"\1", text)


def _table_row(line: str) -> str | None:
    """A Markdown table row as the ledger writes it (cells joined by `` | ``)."""
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
        return None
    return " | ".join(_plain(c) for c in cells)


def _blocks(lines: list[str]) -> list[tuple[str, str]]:
    """Paragraphs, list items and table rows of a section body: ``(kind, text)`` in order."""
    blocks: list[tuple[str, str]] = []
    kind, current = "paragraph", list[str]()
    for line in [*lines, ""]:
        boundary = not line.strip() or _LIST_ITEM.match(line) or line.lstrip().startswith("|")
        if not boundary:
            current.append(line.strip())
            continue
        if current:
            blocks.append((kind, _plain(" ".join(current))))
        kind, current = "paragraph", []
        if line.lstrip().startswith("|"):
            row = _table_row(line)
            blocks += [("table", row)] if row else []
        elif line.strip():
            kind, current = "list_item", [_LIST_ITEM.sub("", line).strip()]
    return [(k, b) for k, b in blocks if b]


def _sentences(blocks: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [
        (kind, sentence)
        for kind, text in blocks
        for sentence in ([text] if kind == "table" else split_sentences(text))
    ]


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
        Sentence(f"{sid}#{i}", sid, kind, text)
        for sid, body in bodies.items()
        for i, (kind, text) in enumerate(_sentences(_blocks(body)), start=1)
    ]
    return RuleText("rules.md", titles, tuple(sentences))
