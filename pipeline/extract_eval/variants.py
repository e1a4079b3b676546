"""The fixture variants: which source, which layout engine, which layout.

Tuned variants cover what real rulebooks do, one difficulty each. Held-out variants use
another font family, sizes, margins, paragraph style (first-line indents, no spacing),
list markers and box style, on a source rulebook written apart; the extractor was not
tuned against them and their scores are reported separately.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulebook2game.extract_eval.held_out import HELD_OUT, HELD_OUT_SURVEY
from rulebook2game.extract_eval.render_reportlab import ReportlabLayout, render_reportlab
from rulebook2game.extract_eval.render_typst import TypstLayout, render_typst
from rulebook2game.extract_eval.source import HARBOR, QUARRY, RIDGE, SourceRulebook


@dataclass(frozen=True)
class Variant:
    """One fixture: a source rulebook rendered one way."""

    name: str
    book: SourceRulebook
    engine: str
    layout: ReportlabLayout | TypstLayout
    held_out: bool = False

    def render(self, directory: Path) -> Path:
        """Write this variant's PDF into ``directory`` and return its path."""
        out = directory / f"{self.name}.pdf"
        if isinstance(self.layout, ReportlabLayout):
            return render_reportlab(self.book, self.layout, out)
        return render_typst(self.book, self.layout, out)


def _held_out(columns: int, size: float, margin: str, gutter: str) -> TypstLayout:
    """The held-out family's template: a LaTeX-like look, nothing like the tuned ones."""
    return TypstLayout(
        columns=columns,
        size=size,
        margin=margin,
        gutter=gutter,
        font="New Computer Modern",
        paper="us-letter",
        par_spacing="0.65em",
        first_line_indent="1.2em",
        heading_scale=(1.25, 1.05, 1.0),
        list_marker="–",
        sidebar="stroke: 0.5pt, inset: 6pt",
        table_stroke="0.4pt",
        alternate_sides=False,
        title_size=18.0,
        title_align="left",
    )


VARIANTS: tuple[Variant, ...] = (
    Variant("one-column", HARBOR, "reportlab", ReportlabLayout(columns=1, body_size=10.5)),
    Variant("two-column", RIDGE, "reportlab", ReportlabLayout(columns=2)),
    Variant("three-column", QUARRY, "reportlab", ReportlabLayout(columns=3, body_size=8.5)),
    Variant(
        "sidebars",
        QUARRY,
        "reportlab",
        ReportlabLayout(columns=2, sidebar_stroke=False, justify=True, page="a5", body_size=8),
    ),
    Variant("tables", RIDGE, "typst", TypstLayout(columns=1, paper="a5", size=9.0)),
    Variant(
        "headers-footers",
        HARBOR,
        "reportlab",
        ReportlabLayout(page="a5", alternate_sides=True, body_size=9.0, margin=40),
    ),
    Variant("ligatures-hyphenation", HARBOR, "typst", TypstLayout(columns=2, size=10.0)),
    Variant("shuffled-drawing", RIDGE, "reportlab", ReportlabLayout(columns=2, shuffle_lines=True)),
    Variant(
        "two-up",
        QUARRY,
        "typst",
        TypstLayout(paper="a5", justify=False, hyphenate=False, two_up=True, size=9.5),
    ),
    Variant(
        "held-out-two-column",
        HELD_OUT,
        "typst",
        _held_out(columns=2, size=9.5, margin="(x: 0.75in, y: 0.9in)", gutter="16pt"),
        held_out=True,
    ),
    Variant(
        "held-out-three-column",
        HELD_OUT,
        "typst",
        _held_out(columns=3, size=8.5, margin="(x: 0.6in, y: 0.7in)", gutter="12pt"),
        held_out=True,
    ),
    Variant(
        "held-out-survey-three-column",
        HELD_OUT_SURVEY,
        "typst",
        _held_out(columns=3, size=10.0, margin="(x: 0.5in, y: 0.8in)", gutter="14pt"),
        held_out=True,
    ),
    Variant(
        "held-out-serif-two-column",
        HELD_OUT_SURVEY,
        "reportlab",
        ReportlabLayout(
            columns=2,
            page="a5",
            font="Times-Roman",
            body_size=8.5,
            justify=True,
            first_line_indent=10.0,
            heading_scale=(1.3, 1.12, 1.0),
            alternate_sides=True,
            margin=36.0,
            gutter=14.0,
        ),
        held_out=True,
    ),
)
"""Every fixture variant, tuned ones first."""


def variant(name: str) -> Variant:
    """The variant called ``name``."""
    for v in VARIANTS:
        if v.name == name:
            return v
    raise KeyError(f"no fixture variant {name!r}")
