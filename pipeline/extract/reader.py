"""The extraction pipeline: PDF pages to a :class:`~rulebook2game.extract.model.Rulebook`.

Per page: glyphs to rows of words, shapes to tables, diagrams and boxes. Across pages:
the body text size and the running heads and feet. Per page again: the reading order.
Across the document: blocks (paragraphs continue over column and page breaks), the
section tree and the sentence ledger.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulebook2game._version import __version__
from rulebook2game.errors import PdfError
from rulebook2game.extract.blocks import BlockBuilder, Draft
from rulebook2game.extract.columns import read_order
from rulebook2game.extract.confidence import GlyphStats, glyph_stats, reasons, spliced_lines
from rulebook2game.extract.figures import find_figures
from rulebook2game.extract.furniture import PageText, strip_furniture
from rulebook2game.extract.model import (
    Block,
    Metadata,
    PageFlag,
    PageInfo,
    Rulebook,
    Section,
    Sentence,
)
from rulebook2game.extract.pdf import PdfFile, open_pdf
from rulebook2game.extract.records import Box, FlowItem, PageFacts, PageObject, RawPage, Word
from rulebook2game.extract.roles import Role, block_roles, section_role
from rulebook2game.extract.sections import SectionDraft, build_sections
from rulebook2game.extract.sentences import split_sentences
from rulebook2game.extract.tables import find_regions
from rulebook2game.extract.words import rows_of_words

Progress = Callable[[int, int], None]
"""Called with (pages done, pages in the file) after each page is read."""


@dataclass(frozen=True, slots=True)
class _Page:
    """A page after the per-page stages."""

    facts: PageFacts
    stats: GlyphStats
    rows: list[list[Word]]
    objects: tuple[PageObject, ...]
    boxes: tuple[Box, ...]


def extract_rulebook(
    path: Path, password: str | None = None, progress: Progress | None = None
) -> Rulebook:
    """Read the rulebook PDF at ``path``.

    Raises:
        PdfError: the file cannot be read, or it has no text layer at all.
    """
    path = Path(path)
    with open_pdf(path, password) as pdf:
        pages = _read_pages(pdf, progress)
        info = pdf.metadata()
    if not any(p.stats.chars for p in pages):
        raise PdfError(_no_text_message(path, pages))
    body = _body_size(pages)
    cleaned = strip_furniture(
        [
            PageText(
                p.facts.number,
                p.facts.width,
                p.facts.height,
                p.rows,
                tuple(o.box for o in p.objects),
            )
            for p in pages
        ],
        body,
    )
    flow: list[FlowItem] = []
    for page, clean in zip(pages, cleaned, strict=True):
        size = Box(0, 0, page.facts.width, page.facts.height)
        layout = read_order(page.facts.number, clean.rows, page.objects, page.boxes, size)
        flow += layout.items
        page.facts.reasons += layout.reasons + spliced_lines(layout.items)
        page.facts.labels = clean.labels
        page.facts.panels, page.facts.columns = layout.panels, layout.columns
    drafts = BlockBuilder(flow, body).build()
    title, sections = build_sections(drafts, info.get("title"))
    return _rulebook(path, info, title, pages, sections)


def _read_pages(pdf: PdfFile, progress: Progress | None) -> list[_Page]:
    out = []
    for index in range(pdf.page_count):
        out.append(_first_pass(pdf.page(index)))
        if progress is not None:
            progress(index + 1, pdf.page_count)
    return out


def _first_pass(raw: RawPage) -> _Page:
    rows = rows_of_words(raw.glyphs)
    words = [w for row in rows for w in row]
    regions = find_regions(raw.shapes, raw.images, words, Box(0, 0, raw.width, raw.height))
    keep = {id(w) for w in regions.words}
    kept = [[w for w in row if id(w) in keep] for row in rows]
    figures, kept = find_figures([r for r in kept if r])
    stats = glyph_stats(raw, words)
    facts = PageFacts(raw.number, raw.width, raw.height, chars=stats.chars)
    return _Page(facts, stats, kept, (*regions.objects, *figures), regions.boxes)


def _no_text_message(path: Path, pages: list[_Page]) -> str:
    if any(p.stats.images for p in pages):
        return (
            f"{path} has no text layer (its pages are images, e.g. a scan); "
            "run OCR first (e.g. `ocrmypdf in.pdf out.pdf`) and extract the result"
        )
    return (
        f"{path} has no text to extract (no characters on any page); if it is a scan, OCR it first"
    )


def _body_size(pages: list[_Page]) -> float:
    """The most common font size, weighted by characters."""
    counts: Counter[float] = Counter()
    for p in pages:
        for row in p.rows:
            for w in row:
                counts[round(w.size, 1)] += len(w.text)
    return counts.most_common(1)[0][0] if counts else 10.0


def _rulebook(
    path: Path,
    info: dict[str, str],
    title: str | None,
    pages: list[_Page],
    sections: list[SectionDraft],
) -> Rulebook:
    titles = {s.id: (s.title, s.parent) for s in sections}
    out_sections = [_section(s, _titles(s, titles)) for s in sections]
    flags = [
        PageFlag(page=p.facts.number, reasons=why)
        for p in pages
        if (why := reasons(p.stats, p.facts) + p.facts.reasons)
    ]
    return Rulebook(
        metadata=Metadata(
            source=path.name,
            title=title or info.get("title"),
            author=info.get("author"),
            producer=info.get("producer") or info.get("creator"),
            pages=len(pages),
            sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
            extractor=f"rulebook2game {__version__}",
        ),
        pages=[
            PageInfo(
                number=f.number,
                width=round(f.width, 2),
                height=round(f.height, 2),
                labels=f.labels,
                panels=f.panels,
                columns=f.columns,
                chars=f.chars,
            )
            for f in (p.facts for p in pages)
        ],
        sections=out_sections,
        low_confidence=flags,
    )


def _titles(s: SectionDraft, titles: dict[str, tuple[str, str | None]]) -> list[str]:
    """The section's title and the titles of the sections above it."""
    out = [s.title]
    parent = s.parent
    while parent is not None and parent in titles and len(out) < 8:
        title, parent = titles[parent]
        out.append(title)
    return out


def _section(s: SectionDraft, titles: list[str]) -> Section:
    blocks = [_block(d) for d in s.blocks]
    role = section_role(titles, front=s.level == 0)
    return Section(
        id=s.id,
        title=s.title,
        level=s.level,
        page=s.page,
        parent=s.parent,
        number=s.number,
        blocks=blocks,
        sentences=ledger(s.id, blocks, role),
    )


def _block(d: Draft) -> Block:
    b = d.box
    return Block(
        kind=d.kind,
        text=d.text,
        page=d.page,
        bbox=(round(b.x0, 2), round(b.top, 2), round(b.x1, 2), round(b.bottom, 2)),
        label=d.label,
        rows=[list(r) for r in d.rows] if d.kind == "table" else None,
    )


def ledger(section_id: str, blocks: list[Block], role: Role | None = None) -> list[Sentence]:
    """Every sentence of a section's blocks: ``<section>#<n>``, counting from 1.

    ``role`` is what the section's place makes of all its sentences (framing, example);
    else each sentence gets the role its block and text give it (see ``roles``).
    """
    out: list[Sentence] = []
    for index, block in enumerate(blocks):
        texts = block_sentences(block)
        for text, sentence_role in zip(texts, block_roles(block.kind, texts, role), strict=True):
            out.append(
                Sentence(
                    id=f"{section_id}#{len(out) + 1}",
                    kind=block.kind,
                    role=sentence_role,
                    block=index,
                    page=block.page,
                    text=text,
                )
            )
    return out


def block_sentences(block: Block) -> list[str]:
    """The ledger entries of one block: table rows, no diagram labels, a text figure whole
    (one entry, its rows on separate lines), else sentences."""
    if block.kind == "table":
        return [" | ".join(row) for row in block.rows or []]
    if block.kind == "figure":
        return [block.text] if block.text.strip() else []
    if block.kind in ("diagram", "heading"):
        return []
    return split_sentences(block.text)
