"""Render a source rulebook to PDF with the typst layout engine.

Typst shapes text with real fonts (ligature glyphs such as "fi" and "ffl"), hyphenates
justified text with soft hyphens and can place other PDFs' pages as images, which gives
a true "two pages printed on one sheet" fixture. Only typst's bundled fonts are used, so
the output does not depend on the machine.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

import typst

from rulebook2game.extract.pdf import open_pdf
from rulebook2game.extract_eval.source import SourceBlock, SourceRulebook


@dataclass(frozen=True)
class TypstLayout:
    """The switches of one typst fixture layout."""

    columns: int = 1
    paper: str = "a4"
    font: str = "Libertinus Serif"
    size: float = 10.0
    margin: str = "(x: 18mm, y: 20mm)"
    gutter: str = "14pt"
    justify: bool = True
    hyphenate: bool = True
    par_spacing: str = "0.9em"
    first_line_indent: str = "0pt"
    heading_scale: tuple[float, float, float] = (1.45, 1.2, 1.05)
    list_marker: str = "•"
    sidebar: str = 'fill: rgb("#e6eef5"), inset: 7pt, radius: 3pt'
    table_stroke: str = "0.5pt"
    alternate_sides: bool = True
    title_size: float = 24.0
    title_align: str = "center"
    two_up: bool = False
    """Print pairs of pages side by side on landscape A4 sheets."""


def render_typst(book: SourceRulebook, layout: TypstLayout, out: Path) -> Path:
    """Write ``book`` laid out as ``layout`` to ``out`` and return ``out``."""
    markup = typst_markup(book, layout)
    with tempfile.TemporaryDirectory(prefix="rb2g-typst-") as tmp:
        src = Path(tmp) / "book.typ"
        src.write_text(markup, encoding="utf-8")
        pdf = typst.compile(str(src), root=tmp, ignore_system_fonts=True)
        if not layout.two_up:
            out.write_bytes(pdf)
            return out
        pages = Path(tmp) / "pages.pdf"
        pages.write_bytes(pdf)
        sheet = Path(tmp) / "sheet.typ"
        sheet.write_text(_two_up_markup(_page_count(pages)), encoding="utf-8")
        out.write_bytes(typst.compile(str(sheet), root=tmp, ignore_system_fonts=True))
    return out


def _page_count(path: Path) -> int:
    with open_pdf(path) as pdf:
        return pdf.page_count


def _two_up_markup(pages: int) -> str:
    sheets = []
    for first in range(1, pages + 1, 2):
        right = f'image("pages.pdf", page: {first + 1}, width: 148.5mm)' if first < pages else "[]"
        sheets.append(
            f'#grid(columns: 2, image("pages.pdf", page: {first}, width: 148.5mm), {right})'
        )
    return "#set page(width: 297mm, height: 210mm, margin: 0pt)\n" + "\n#pagebreak()\n".join(sheets)


def _s(text: str) -> str:
    """A typst string literal: printed verbatim, never read as markup."""
    return json.dumps(text, ensure_ascii=False)


def typst_markup(book: SourceRulebook, layout: TypstLayout) -> str:
    """The typst source of ``book`` in ``layout``."""
    parts = [_preamble(book, layout)]
    parts += [_block(block, layout) for block in book.intro]
    for sec in book.sections:
        parts.append(f"#heading(level: {min(sec.level, 3)})[#{_s(sec.heading)}]")
        parts += [_block(block, layout) for block in sec.blocks]
    return "\n\n".join(parts) + "\n"


def _preamble(book: SourceRulebook, layout: TypstLayout) -> str:
    h1, h2, h3 = (round(layout.size * k, 2) for k in layout.heading_scale)
    header_text = f'text(size: {layout.size * 0.8}pt, style: "italic", {_s(book.header)})'
    if layout.alternate_sides:
        header = f"if n > 1 {{ if calc.even(n) [#{header_text}] else [#h(1fr)#{header_text}] }}"
        footer = "if calc.even(n) [#n] else [#h(1fr)#n]"
    else:
        header = f"if n > 1 [#h(1fr)#{header_text}#h(1fr)]"
        footer = "[#h(1fr)#n#h(1fr)]"
    return f"""#set document(title: {_s(book.title)})
#set page(paper: "{layout.paper}", margin: {layout.margin}, columns: {layout.columns},
  header: context {{ let n = counter(page).get().first(); {header} }},
  footer: context {{ let n = counter(page).get().first(); {footer} }})
#set columns(gutter: {layout.gutter})
#set text(font: {_s(layout.font)}, size: {layout.size}pt, lang: "en",
  hyphenate: {str(layout.hyphenate).lower()})
#set par(justify: {str(layout.justify).lower()}, spacing: {layout.par_spacing},
  first-line-indent: {layout.first_line_indent})
#set list(marker: [#{_s(layout.list_marker)}])
#show heading: set block(above: 1.1em, below: 0.6em)
#show heading.where(level: 1): set text(size: {h1}pt)
#show heading.where(level: 2): set text(size: {h2}pt)
#show heading.where(level: 3): set text(size: {h3}pt)
#place(top + {layout.title_align}, float: true, scope: "parent", clearance: 16pt,
  text(size: {layout.title_size}pt, weight: "bold", {_s(book.title)}))"""


def _block(block: SourceBlock, layout: TypstLayout) -> str:
    text = _s(" ".join(block.sentences))
    if block.kind == "rule":
        return f"#strong({_s(block.label or '')}) #{text}"
    if block.kind == "list_item":
        return f"- #{text}" if block.label == "•" else f"{block.label} #{text}"
    if block.kind == "sidebar":
        return f"#block(width: 100%, {layout.sidebar})[#{text}]"
    if block.kind == "caption":
        return f'#align(center, text(size: {layout.size * 0.85}pt, style: "italic", {text}))'
    if block.kind == "table":
        return _table(block, layout)
    if block.kind == "diagram":
        return _board(block, layout)
    return f"#{text}"


def _table(block: SourceBlock, layout: TypstLayout) -> str:
    head, *rest = block.rows
    header = ", ".join(f"strong({_s(c)})" for c in head)
    cells = ", ".join(f"[#{_s(c)}]" for row in rest for c in row)
    return (
        f"#table(columns: {len(head)}, stroke: {layout.table_stroke}, inset: 4pt, "
        "align: left, fill: (x, y) => if y == 0 { luma(225) }, "
        f"table.header({header}), {cells})"
    )


def _board(block: SourceBlock, layout: TypstLayout) -> str:
    n = len(block.rows[0])
    size = layout.size * 0.7
    cells = ", ".join(
        f'text(size: {size}pt, weight: "bold", {_s(c)})' if c else "[]"
        for row in block.rows
        for c in row
    )
    return (
        f"#align(center, grid(columns: ({'16pt, ' * n}), rows: 16pt, stroke: 0.5pt, "
        f"align: center + horizon, {cells}))"
    )
