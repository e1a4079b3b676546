"""The rulebook model written to ``rulebook.json`` (format ``rulebook2game-rulebook/1``).

    Rulebook
    ├── metadata        source file, title, page count, producer, sha256
    ├── pages[]         size, printed page numbers, panels (pages per sheet), columns
    ├── sections[]      id, title, level, page, parent, number
    │   ├── blocks[]    in reading order: kind, text, page, bbox (x0, top, x1, bottom in
    │   │               points from the top-left corner), label (rule number or list
    │   │               marker), rows (tables)
    │   └── sentences[] the ledger: every sentence of every block: id "<section>#<n>",
    │                   kind (of its block), role (rule, example, framing, figure),
    │                   block (index), page, text
    └── low_confidence[] pages to check by hand, with reasons

Headings are not blocks: a section's title is its heading. Sentence ids count from 1
within a section across all its blocks; tables contribute one sentence per row (cells
joined by " | "), a text figure one (the whole figure, its rows on separate lines) and
drawn diagrams none. ``role`` was added within format 1: readers of this module take a
file without it (every sentence reads as ``rule``).
"""

from __future__ import annotations

import difflib
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from rulebook2game.extract.records import BlockKind
from rulebook2game.extract.roles import Role

FORMAT: Final = "rulebook2game-rulebook/1"

BBox = tuple[float, float, float, float]


class _Model(BaseModel):
    """Fields a later version adds within format 1 are ignored on reading, so an older
    reader still loads a newer file (as this one loads files without ``role``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class Block(_Model):
    """One block of text (or a table or diagram), in reading order."""

    kind: BlockKind
    text: str
    page: int = Field(ge=1)
    bbox: BBox
    label: str | None = None
    """Rule number (``3.2.1``) or list marker (``•``, ``2.``), not repeated in ``text``."""
    rows: list[list[str]] | None = None
    """Table cells, row by row (tables only)."""


class Sentence(_Model):
    """One entry of the sentence ledger."""

    id: str
    """``<section id>#<n>``, ``n`` counting from 1 within the section."""
    kind: BlockKind
    """The kind of the block the sentence comes from."""
    role: Role = "rule"
    """What the sentence is for: ``rule``, ``example``, ``framing`` (introduction,
    flavour, history) or ``figure`` (a text figure, whole, or a caption); see
    :mod:`rulebook2game.extract.roles`. Files written before it existed read as ``rule``."""
    block: int = Field(ge=0)
    """Index of the block within its section."""
    page: int = Field(ge=1)
    text: str

    @property
    def section(self) -> str:
        """The id of the section the sentence belongs to."""
        return self.id.rsplit("#", 1)[0]


class Section(_Model):
    """A section of the rulebook: its blocks and their sentences."""

    id: str
    title: str
    level: int = Field(ge=0)
    """0 for the front matter, 1 for top-level sections."""
    page: int = Field(ge=1)
    parent: str | None = None
    number: str | None = None
    """The printed section number, if any."""
    blocks: list[Block] = []
    sentences: list[Sentence] = []


class PageInfo(_Model):
    """What the extractor saw on one page of the file."""

    number: int = Field(ge=1)
    width: float
    height: float
    labels: list[str] = []
    """Printed page numbers found on the page (two for two pages on one sheet)."""
    panels: int = 1
    columns: int = 1
    chars: int = 0


class PageFlag(_Model):
    """A page whose extraction should be checked by hand."""

    page: int = Field(ge=1)
    reasons: list[str]


class Metadata(_Model):
    """Where the rulebook came from."""

    source: str
    title: str | None = None
    author: str | None = None
    producer: str | None = None
    pages: int = Field(ge=0)
    sha256: str
    extractor: str


class Rulebook(_Model):
    """A rulebook: sections of blocks, the sentence ledger and page facts."""

    format: Literal["rulebook2game-rulebook/1"] = FORMAT
    metadata: Metadata
    pages: list[PageInfo]
    sections: list[Section]
    low_confidence: list[PageFlag] = []

    @property
    def title(self) -> str:
        """The game's name: the rulebook's printed title (or the PDF's title field), else
        the PDF's file name without its extension, ``_`` and ``-`` read as spaces."""
        if self.metadata.title and self.metadata.title.strip():
            return " ".join(self.metadata.title.split())
        stem = self.metadata.source.rsplit("/", 1)[-1]
        stem = stem[: -len(".pdf")] if stem.lower().endswith(".pdf") else stem
        return " ".join(stem.replace("_", " ").replace("-", " ").split()) or "game"

    @property
    def sentences(self) -> list[Sentence]:
        """The whole ledger, in reading order."""
        return [s for sec in self.sections for s in sec.sentences]

    def section(self, section_id: str) -> Section:
        """The section with ``section_id``.

        Raises:
            KeyError: no such section (the message names the closest ids).
        """
        for sec in self.sections:
            if sec.id == section_id:
                return sec
        ids = [s.id for s in self.sections]
        close = difflib.get_close_matches(section_id, ids, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(f"no section {section_id!r} in the rulebook{hint}")

    def toc_text(self) -> str:
        """The table of contents, one section per line, with page and sentence counts."""
        title = self.metadata.title or self.metadata.source
        total = sum(len(sec.sentences) for sec in self.sections)
        lines = [f"{title}: {len(self.sections)} sections, {total} sentences"]
        for sec in self.sections:
            indent = "  " * max(0, sec.level - 1)
            n = len(sec.sentences)
            lines.append(f"{indent}[{sec.id}] {sec.title} (p. {sec.page}, {n} sentences)")
        return "\n".join(lines)

    def section_text(self, section_id: str) -> str:
        """One section's text, every sentence preceded by its id, e.g. ``[3.2#1]``.

        A sentence that is not a rule says its role after the id: ``[4.1#2] (example)
        For example, ...``, ``[1#1] (framing) ...``; a figure is its own block.

        Raises:
            KeyError: no such section.
        """
        sec = self.section(section_id)
        by_block: dict[int, list[Sentence]] = {}
        for s in sec.sentences:
            by_block.setdefault(s.block, []).append(s)
        parent = f", in {sec.parent}" if sec.parent else ""
        out = [f"[{sec.id}] {sec.title} (p. {sec.page}{parent})"]
        for index, block in enumerate(sec.blocks):
            out.append(_render_block(block, by_block.get(index, [])))
        children = [s for s in self.sections if s.parent == sec.id]
        if children:
            listed = ", ".join(f"[{s.id}] {s.title}" for s in children)
            out.append(f"Subsections (read each by its id): {listed}")
        return "\n\n".join(out)


# How a sentence that is not a rule is marked where the agent reads a section: coverage
# counts rule sentences only, and examples are what scenarios cover.
_ROLE_TAG = {"example": "(example) ", "framing": "(framing) "}


def _render_block(block: Block, sentences: list[Sentence]) -> str:
    if block.kind == "table":
        return "table:\n" + "\n".join(f"[{s.id}] {s.text}" for s in sentences)
    if block.kind == "diagram":
        return f"(diagram{': ' + block.text if block.text else ''})"
    if block.kind == "figure":
        return "figure:\n" + "\n".join(f"[{s.id}]\n{s.text}" for s in sentences)
    body = " ".join(f"[{s.id}] {_ROLE_TAG.get(s.role, '')}{s.text}" for s in sentences)
    prefix = {"sidebar": "(sidebar) ", "caption": "(caption) "}.get(block.kind, "")
    label = f"{block.label} " if block.label else ""
    return f"{prefix}{label}{body}"
