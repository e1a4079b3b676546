"""Render a source rulebook to PDF with reportlab's platypus layout engine.

One layout, several switches: the number of columns (a full-width title spans them on the
first page), running headers and page numbers on alternating sides, filled or outlined
sidebar boxes, and a canvas that draws every text line in shuffled order, so that the
file's drawing order says nothing about the reading order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY
from reportlab.lib.pagesizes import A4, A5, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    NextPageTemplate,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from rulebook2game.extract_eval.source import SourceBlock, SourceRulebook


@dataclass(frozen=True)
class ReportlabLayout:
    """The switches of one reportlab fixture layout."""

    columns: int = 1
    page: str = "a4"
    """``a4``, ``a5`` or ``a4-landscape``."""
    body_size: float = 9.5
    font: str = "Helvetica"
    running_header: bool = True
    alternate_sides: bool = False
    """Put the header and the page number on the outer side (left on even pages)."""
    sidebar_stroke: bool = True
    """Outline sidebar boxes; without it they are only filled."""
    justify: bool = False
    shuffle_lines: bool = False
    """Draw every text line as its own text object, in shuffled order."""
    margin: float = 48.0
    gutter: float = 18.0
    first_line_indent: float = 0.0
    """Indent of a paragraph's first line, in points (0: paragraphs are spaced instead)."""
    heading_scale: tuple[float, float, float] = (1.5, 1.22, 1.06)


_PAGES = {"a4": A4, "a5": A5, "a4-landscape": landscape(A4), "letter": LETTER}


def render_reportlab(book: SourceRulebook, layout: ReportlabLayout, out: Path) -> Path:
    """Write ``book`` laid out as ``layout`` to ``out`` and return ``out``."""
    styles = _Styles(layout)
    width, height = _PAGES[layout.page]
    doc = BaseDocTemplate(
        str(out),
        pagesize=(width, height),
        title=book.title,
        author="rulebook2game fixtures",
        invariant=1,
    )
    frames = _column_frames(layout, width, height, top_reserved=0.0)
    first = [_title_frame(layout, width, height), *_column_frames(layout, width, height, 62.0)]
    decorate = _decorator(book, layout, styles)
    doc.addPageTemplates(
        [
            PageTemplate(id="first", frames=first, onPage=decorate),
            PageTemplate(id="later", frames=frames, onPage=decorate),
        ]
    )
    column_width = frames[0].width
    story: list[Flowable] = [
        NextPageTemplate("later"),
        Paragraph(escape(book.title), styles.title),
        FrameBreak(),
    ]
    story += [_flow(block, styles, column_width) for block in book.intro]
    for sec in book.sections:
        heading = Paragraph(escape(sec.heading), styles.heading(sec.level))
        body = [_flow(block, styles, column_width) for block in sec.blocks]
        story.append(KeepTogether([heading, body[0]]) if body else heading)
        story += body[1:]
    if layout.shuffle_lines:
        story = [line for f in story for line in _lines(f, column_width)]
        doc.build(story, canvasmaker=ShuffledCanvas)
    else:
        doc.build(story)
    return out


class ShuffledCanvas(Canvas):  # type: ignore[misc]
    """A canvas that emits the page's text objects in a seeded random order.

    Each text object is wrapped with the transformation in force when it was drawn, so
    it lands at the same place whatever comes before it in the content stream.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: list[str] = []
        self._rng = random.Random(20240601)

    def drawText(self, aTextObject: Any) -> None:
        """Hold the text object back until the page is finished."""
        a, b, c, d, e, f = self._currentMatrix
        font = self._doc.getInternalFontName(self._fontname)
        state = f"q {a} {b} {c} {d} {e} {f} cm 0 g {font} {self._fontsize} Tf"
        self._pending.append(f"{state} {aTextObject.getCode()} Q")

    def showPage(self) -> None:
        """Emit the held-back text in shuffled order, then finish the page."""
        self._rng.shuffle(self._pending)
        self._code.extend(self._pending)
        self._pending = []
        super().showPage()


class _Styles:
    """Paragraph styles derived from one body size and font family."""

    def __init__(self, layout: ReportlabLayout) -> None:
        size, font = layout.body_size, layout.font
        bold = "Times-Bold" if font == "Times-Roman" else f"{font}-Bold"
        italic = "Times-Italic" if font == "Times-Roman" else f"{font}-Oblique"
        align = TA_JUSTIFY if layout.justify else 0
        lead = size * 1.3
        self.body = ParagraphStyle(
            "body",
            fontName=font,
            fontSize=size,
            leading=lead,
            spaceAfter=0 if layout.first_line_indent else size * 0.6,
            firstLineIndent=layout.first_line_indent,
            alignment=align,
        )
        self.item = ParagraphStyle(
            "item",
            parent=self.body,
            firstLineIndent=0,
            leftIndent=size * 1.6,
            bulletIndent=size * 0.2,
            spaceAfter=size * 0.3,
        )
        self.cell = ParagraphStyle(
            "cell", parent=self.body, spaceAfter=0, alignment=0, firstLineIndent=0
        )
        self.head_cell = ParagraphStyle("head_cell", parent=self.cell, fontName=bold)
        self.caption = ParagraphStyle(
            "caption",
            parent=self.body,
            fontName=italic,
            fontSize=size * 0.85,
            leading=size * 1.1,
            alignment=TA_CENTER,
            spaceBefore=2,
            spaceAfter=size,
            firstLineIndent=0,
        )
        self.sidebar = ParagraphStyle("sidebar", parent=self.body, spaceAfter=0, firstLineIndent=0)
        self.title = ParagraphStyle(
            "title", fontName=bold, fontSize=size * 2.4, leading=size * 2.8, alignment=TA_CENTER
        )
        self.header = ParagraphStyle("header", fontName=italic, fontSize=size * 0.8)
        self.sidebar_stroke = layout.sidebar_stroke
        self._headings = [
            ParagraphStyle(
                f"h{level}",
                fontName=bold,
                fontSize=size * scale,
                leading=size * scale * 1.25,
                spaceBefore=size * 0.8,
                spaceAfter=size * 0.4,
                keepWithNext=1,
            )
            for level, scale in enumerate(layout.heading_scale, start=1)
        ]

    def heading(self, level: int) -> ParagraphStyle:
        """The style of a heading of ``level`` (1-based)."""
        return self._headings[min(level, 3) - 1]


def _text(block: SourceBlock) -> str:
    return escape(" ".join(block.sentences))


def _flow(block: SourceBlock, styles: _Styles, width: float) -> Flowable:
    """The flowable of one source block."""
    if block.kind == "rule":
        return Paragraph(f"<b>{escape(block.label or '')}</b> {_text(block)}", styles.body)
    if block.kind == "list_item":
        return Paragraph(_text(block), styles.item, bulletText=block.label)
    if block.kind == "caption":
        return Paragraph(_text(block), styles.caption)
    if block.kind == "sidebar":
        return _sidebar(block, styles, width)
    if block.kind == "table":
        return _table(block, styles, width)
    if block.kind == "diagram":
        return _Board(block.rows, styles.body.fontSize)
    return Paragraph(_text(block), styles.body)


def _table(block: SourceBlock, styles: _Styles, width: float) -> Flowable:
    head, *rest = block.rows
    data = [[Paragraph(escape(c), styles.head_cell) for c in head]]
    data += [[Paragraph(escape(c), styles.cell) for c in row] for row in rest]
    table = Table(data, colWidths=_column_widths(block.rows, styles, width), hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#d9d9d9")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return KeepTogether([table, Spacer(1, styles.body.fontSize * 0.8)])


def _column_widths(rows: tuple[tuple[str, ...], ...], styles: _Styles, width: float) -> list[float]:
    """Share ``width`` by the columns' longest cells, never below their longest word."""
    size = styles.body.fontSize
    font = styles.head_cell.fontName

    def measure(text: str) -> float:
        return float(stringWidth(text, font, size)) + 14

    longest = [max(measure(row[c]) for row in rows) for c in range(len(rows[0]))]
    floor = [max(measure(w) for row in rows for w in row[c].split()) for c in range(len(rows[0]))]
    spare = max(0.0, width - sum(floor))
    extra = [max(0.0, lo - fl) for lo, fl in zip(longest, floor, strict=True)]
    total = sum(extra) or 1.0
    return [fl + spare * min(1.0, ex / total) for fl, ex in zip(floor, extra, strict=True)]


def _sidebar(block: SourceBlock, styles: _Styles, width: float) -> Flowable:
    box = Table([[Paragraph(_text(block), styles.sidebar)]], colWidths=[width])
    commands: list[tuple[Any, ...]] = [
        ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#e4ecf4")),
        ("LEFTPADDING", (0, 0), (-1, -1), 7),
        ("RIGHTPADDING", (0, 0), (-1, -1), 7),
        ("TOPPADDING", (0, 0), (-1, -1), 6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
    ]
    if styles.sidebar_stroke:
        commands.append(("BOX", (0, 0), (-1, -1), 0.8, colors.HexColor("#345")))
    box.setStyle(TableStyle(commands))
    return KeepTogether([box, Spacer(1, styles.body.fontSize * 0.8)])


class _Board(Flowable):  # type: ignore[misc]
    """A board diagram: a grid of squares, a few labels and a round marker."""

    def __init__(self, rows: tuple[tuple[str, ...], ...], size: float) -> None:
        super().__init__()
        self.rows = rows
        self.cell = size * 2.0
        self.font = size * 0.8

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.offset = max(0.0, (avail_width - self.cell * len(self.rows[0])) / 2)
        return avail_width, self.cell * len(self.rows) + 4

    def draw(self) -> None:
        canv, cell, n = self.canv, self.cell, len(self.rows)
        canv.setLineWidth(0.6)
        canv.setFont("Helvetica-Bold", self.font)
        for r, row in enumerate(self.rows):
            for c, label in enumerate(row):
                x, y = self.offset + c * cell, (n - 1 - r) * cell + 2
                canv.rect(x, y, cell, cell)
                if label:
                    canv.drawCentredString(x + cell / 2, y + cell / 2 - self.font / 3, label)
        canv.circle(self.offset + cell * 0.5, cell * 0.5 + 2, cell * 0.3)


def _title_frame(layout: ReportlabLayout, width: float, height: float) -> Frame:
    m = layout.margin
    return Frame(m, height - m - 56, width - 2 * m, 56, id="title", showBoundary=0, **_NOPAD)


def _column_frames(
    layout: ReportlabLayout, width: float, height: float, top_reserved: float
) -> list[Frame]:
    m, g, n = layout.margin, layout.gutter, layout.columns
    col = (width - 2 * m - g * (n - 1)) / n
    h = height - 2 * m - top_reserved
    return [Frame(m + i * (col + g), m, col, h, id=f"col{i}", **_NOPAD) for i in range(n)]


_NOPAD = {"leftPadding": 0, "rightPadding": 0, "topPadding": 0, "bottomPadding": 0}


def _decorator(book: SourceRulebook, layout: ReportlabLayout, styles: _Styles) -> Any:
    """The page decoration: running header and page number."""

    def decorate(canv: Canvas, doc: BaseDocTemplate) -> None:
        width, height = doc.pagesize
        m, n = layout.margin, doc.page
        outer_left = layout.alternate_sides and n % 2 == 0
        canv.saveState()
        canv.setFont(styles.header.fontName, styles.header.fontSize)
        if layout.running_header and n > 1:
            if outer_left:
                canv.drawString(m, height - m + 14, book.header)
            else:
                canv.drawRightString(width - m, height - m + 14, book.header)
        canv.setFont(styles.body.fontName, styles.body.fontSize * 0.9)
        if not layout.alternate_sides:
            canv.drawCentredString(width / 2, m - 24, str(n))
        elif outer_left:
            canv.drawString(m, m - 24, str(n))
        else:
            canv.drawRightString(width - m, m - 24, str(n))
        canv.restoreState()

    return decorate


def _lines(flowable: Flowable, width: float) -> list[Flowable]:
    """Split paragraphs into one paragraph per line, so each line is its own text object."""
    if isinstance(flowable, KeepTogether):
        inner = [line for part in flowable._content for line in _lines(part, width)]
        return [KeepTogether(inner)]
    if not isinstance(flowable, Paragraph):
        return [flowable]
    parts: list[Flowable] = []
    rest: Paragraph = flowable
    leading = rest.style.leading
    while True:
        _, h = rest.wrap(width, 1e6)
        pieces = rest.split(width, leading + 0.5) if h > leading * 1.5 else []
        if len(pieces) != 2:
            parts.append(rest)
            return parts
        parts.append(pieces[0])
        rest = pieces[1]
