"""Typed records passed between the extraction stages.

Coordinates are PDF points with the origin at the top-left corner of the page and ``y``
growing downwards (``top`` < ``bottom``), the way a reader scans a page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def width(self) -> float:
        """Horizontal extent."""
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        """Vertical extent."""
        return self.bottom - self.top

    def contains_point(self, x: float, y: float, slack: float = 0.0) -> bool:
        """Whether ``(x, y)`` lies inside the box grown by ``slack``."""
        return (
            self.x0 - slack <= x <= self.x1 + slack and self.top - slack <= y <= self.bottom + slack
        )

    def union(self, other: Box) -> Box:
        """The smallest box holding both."""
        return Box(
            min(self.x0, other.x0),
            min(self.top, other.top),
            max(self.x1, other.x1),
            max(self.bottom, other.bottom),
        )


@dataclass(frozen=True, slots=True)
class Glyph:
    """One character as drawn, with its font."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    font: str
    size: float
    upright: bool


ShapeKind = Literal["rect", "line", "curve"]


@dataclass(frozen=True, slots=True)
class Shape:
    """A vector path: rectangle, straight line or curve."""

    kind: ShapeKind
    box: Box
    fill: bool
    """Filled with a colour that is not white."""
    stroke: bool


@dataclass(frozen=True, slots=True)
class RawPage:
    """What the PDF says about one page, before any interpretation."""

    number: int
    """1-based page number in the file."""
    width: float
    height: float
    glyphs: tuple[Glyph, ...]
    shapes: tuple[Shape, ...]
    images: tuple[Box, ...]


@dataclass(frozen=True, slots=True)
class Word:
    """A run of glyphs without a space, on one baseline."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    bold: bool
    italic: bool
    font: str

    @property
    def box(self) -> Box:
        """The word's rectangle."""
        return Box(self.x0, self.top, self.x1, self.bottom)


ObjectKind = Literal["table", "diagram", "figure"]

BlockKind = Literal[
    "heading", "paragraph", "rule", "list_item", "table", "sidebar", "caption", "diagram", "figure"
]
"""What a block of the rulebook is."""


@dataclass(frozen=True, slots=True)
class PageObject:
    """A table or diagram found on a page; it takes the place of its words in the flow."""

    kind: ObjectKind
    box: Box
    rows: tuple[tuple[str, ...], ...] = ()
    """Table cells, row by row (for diagrams: the labels, in reading order; for text
    figures: one cell per printed row)."""


@dataclass(frozen=True, slots=True)
class Line:
    """Words of one column on one baseline, in reading order, with their context."""

    words: tuple[Word, ...]
    page: int
    column: tuple[int, ...]
    """Where the line sits in the page's layout tree; lines of one column share it."""
    col_x0: float
    col_x1: float
    """The text edges of the column the line belongs to."""
    box_id: int | None = None
    """The sidebar box the line lies in, if any (unique per page)."""

    @property
    def x0(self) -> float:
        """Left edge."""
        return self.words[0].x0

    @property
    def x1(self) -> float:
        """Right edge."""
        return self.words[-1].x1

    @property
    def top(self) -> float:
        """Top edge."""
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        """Bottom edge."""
        return max(w.bottom for w in self.words)

    @property
    def baseline(self) -> float:
        """The baseline of the first word."""
        return self.words[0].baseline

    @property
    def text(self) -> str:
        """The words joined by single spaces."""
        return " ".join(w.text for w in self.words)

    @property
    def box(self) -> Box:
        """The line's rectangle."""
        return Box(self.x0, self.top, self.x1, self.bottom)


@dataclass(frozen=True, slots=True)
class FlowObject:
    """A table or diagram placed in the reading order."""

    obj: PageObject
    page: int
    column: tuple[int, ...]


FlowItem = Line | FlowObject


@dataclass(slots=True)
class PageFacts:
    """What the layout stages learnt about a page, for the model and the confidence flags."""

    number: int
    width: float
    height: float
    chars: int = 0
    labels: list[str] = field(default_factory=list)
    """Printed page numbers found in the running heads and feet."""
    panels: int = 1
    columns: int = 1
    reasons: list[str] = field(default_factory=list)
    """Why the page is of low confidence (empty when it is not)."""


class LedgerEntry(Protocol):
    """What the ledger helpers read of a sentence (``model.Sentence`` has it)."""

    @property
    def id(self) -> str:
        """``<section id>#<n>``."""
        ...

    @property
    def role(self) -> str:
        """``rule``, ``example``, ``framing`` or ``figure``."""
        ...


class HasLedger(Protocol):
    """A rulebook with a sentence ledger (``model.Rulebook`` is one)."""

    @property
    def sentences(self) -> Sequence[LedgerEntry]:
        """The ledger in reading order."""
        ...


def sentence_ids(rulebook: HasLedger, role: str) -> list[str]:
    """Ids of the ledger sentences with ``role``, in reading order."""
    return [s.id for s in rulebook.sentences if s.role == role]


def rule_sentence_ids(rulebook: HasLedger) -> list[str]:
    """Ids of the sentences that state rules (not examples, framing or figures)."""
    return sentence_ids(rulebook, "rule")


def example_sentence_ids(rulebook: HasLedger) -> list[str]:
    """Ids of the sentences of worked examples (the material for scenarios)."""
    return sentence_ids(rulebook, "example")
