"""Lines in reading order to blocks: headings, paragraphs, rules, list items, sidebars...

A new block starts at a heading, at a list or rule marker ("•", "2.", "3.2.1"), where
the vertical spacing grows beyond the usual line pitch, at a first-line indent, at the
edge of a sidebar box, and at a table or diagram. A paragraph cut by a column or page
break continues in the next column when it did not end a sentence, when the next line
starts in lowercase, or when its last line ran to the column's right edge.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from rulebook2game.extract.records import BlockKind, Box, FlowItem, FlowObject, Line
from rulebook2game.extract.text import Joiner, Marker, clean, find_marker, vocabulary

HEADING_RATIO = 1.08
"""Text this much larger than the body text is a heading."""
SMALL_RATIO = 0.93
"""Text this much smaller than the body text is a caption or a note."""

_CID = re.compile(r"^\(cid:\d+\)$")
_TERMINAL = re.compile(r"[.!?:;][\"'”’)\]]*$")
_CAPTION = re.compile(
    r"^(?:figure|fig\.|diagram|illustration|image|table|listing)\s*\d*[a-z]?\s*[:.]",
    re.I,
)


@dataclass(slots=True)
class Draft:
    """A block being assembled, then finished."""

    kind: BlockKind
    page: int
    box: Box
    lines: list[Line] = field(default_factory=list)
    text: str = ""
    label: str | None = None
    rows: tuple[tuple[str, ...], ...] = ()
    size: float = 0.0
    bold: bool = False
    text_x: float | None = None
    """Where continuation lines of a list item start (hanging indent)."""
    boxed: bool = False
    style: str = "body"
    column: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _Info:
    line: Line
    size: float
    style: str
    """``heading``, ``body`` or ``small``."""
    marker: Marker | None


class BlockBuilder:
    """Builds blocks from the whole document's reading order."""

    def __init__(self, flow: list[FlowItem], body_size: float) -> None:
        self.body = body_size
        lines = [item for item in flow if isinstance(item, Line)]
        self.joiner = Joiner(vocabulary(line.words for line in lines))
        self.pitch = _pitches(lines)
        self.flow = flow

    def build(self) -> list[Draft]:
        """All blocks of the document in reading order."""
        out: list[Draft] = []
        current: Draft | None = None
        last: _Info | None = None
        for item in self.flow:
            if isinstance(item, FlowObject):
                current, last = None, None
                out.append(_object_block(item))
                continue
            info = self._info(item)
            if info.marker is not None and current is not None and _inside_sentence(current, info):
                info = _Info(info.line, info.size, info.style, None)
            if current is not None and last is not None and self._continues(current, last, info):
                self._append(current, info)
            else:
                current = self._open(info)
                out.append(current)
            last = info
        return [self._finish(d, out, i) for i, d in enumerate(_join_split_tables(out))]

    # -- classification ------------------------------------------------------------------

    def _info(self, line: Line) -> _Info:
        counts: Counter[float] = Counter()
        for w in line.words:
            counts[round(w.size, 1)] += len(w.text)
        size = counts.most_common(1)[0][0]
        marker = find_marker(line.words)
        letters = any(c.isalpha() for w in line.words if not _CID.match(w.text) for c in w.text)
        large = size >= HEADING_RATIO * self.body
        # a bold line of body size is a heading unless it is a bulleted or numbered item
        bold_only = (
            all(w.bold for w in line.words)
            and size >= 0.97 * self.body
            and (marker is None or marker.kind == "rule")
            and _heading_like(line)
        )
        if letters and (large or bold_only):
            style, marker = "heading", None
        elif size <= SMALL_RATIO * self.body:
            style = "small"
        else:
            style = "body"
        return _Info(line, size, style, marker)

    def _continues(self, block: Draft, prev: _Info, info: _Info) -> bool:
        line, before = info.line, prev.line
        if info.style != prev.style or line.box_id != before.box_id:
            return False
        if info.marker is not None:
            return False
        if line.page != before.page or line.column != before.column:
            return self._continues_across(block, prev, info)
        if info.style == "heading":
            return abs(info.size - prev.size) < 0.5 and self._close(prev, info, 1.6)
        if not self._close(prev, info, 1.12):
            return False
        if info.style == "small":
            return True
        return self._same_paragraph_indent(block, info)

    def _close(self, prev: _Info, info: _Info, ratio: float) -> bool:
        step = info.line.baseline - prev.line.baseline
        expected = self.pitch.get(round(info.size), 1.25 * info.size)
        return 0 < step <= expected * ratio + 0.6

    def _same_paragraph_indent(self, block: Draft, info: _Info) -> bool:
        """Whether the line's start keeps it in the block, judged by indents and line ends."""
        line, tol = info.line, 0.6 * info.size
        before = block.lines[-1]
        ended = _TERMINAL.search(before.text) is not None
        first = line.words[0]
        forced = before.x1 + 0.3 * info.size + (first.x1 - first.x0) < before.col_x1 - 0.5
        if block.text_x is not None:
            if abs(line.x0 - block.text_x) <= tol or (
                block.kind == "rule" and abs(line.x0 - line.col_x0) <= tol
            ):
                return True
            # continuation lines set under the marker itself (no hanging indent): the
            # line above ran to the column's edge or broke off mid-sentence
            return abs(line.x0 - block.lines[0].x0) <= tol and not (ended and forced)
        indent = line.x0 - line.col_x0
        if tol < indent < 6 * info.size and line.x0 - before.x0 > tol:
            # a first-line indent opens a paragraph; a hanging indent continues a line
            return not (ended or forced)
        opening = block.lines[0].x0
        if before.x0 - opening > tol and abs(line.x0 - opening) <= tol:
            return False  # back out of a hanging indent: the next item of an unmarked list
        # a word that would have fitted on the line above follows a hard line break
        return not (abs(indent) <= tol and forced and not line.text[:1].islower())

    def _continues_across(self, block: Draft, prev: _Info, info: _Info) -> bool:
        """A paragraph cut by a column or page break."""
        line, before = info.line, prev.line
        if info.style != "body" or block.boxed or block.kind == "heading":
            return False
        if abs(info.size - prev.size) > 0.05 * prev.size:
            return False
        start = block.text_x - before.col_x0 if block.text_x is not None else 0.0
        # a rule or list item may go on under its marker rather than under its text
        opening = block.lines[0].x0 - block.lines[0].col_x0 if block.text_x is not None else 0.0
        if all(abs(line.x0 - line.col_x0 - x) > 0.6 * info.size for x in (start, opening)):
            return False
        if not _TERMINAL.search(block.text) or line.text[:1].islower():
            return True
        return before.x1 >= before.col_x1 - 0.3 * info.size

    # -- assembling -----------------------------------------------------------------------

    def _open(self, info: _Info) -> Draft:
        line = info.line
        kind: BlockKind = "paragraph"
        label = None
        text_x = None
        words = line.words
        if info.style == "heading":
            kind = "heading"
        elif info.marker is not None:
            kind = "rule" if info.marker.kind == "rule" else "list_item"
            label = info.marker.label
            words = info.marker.words
            text_x = words[0].x0
        draft = Draft(
            kind,
            line.page,
            line.box,
            label=label,
            size=info.size,
            text_x=text_x,
            boxed=line.box_id is not None,
            style=info.style,
            column=line.column,
        )
        draft.bold = all(w.bold for w in line.words)
        draft.lines.append(line)
        draft.text = " ".join(w.text for w in words)
        return draft

    def _append(self, draft: Draft, info: _Info) -> None:
        draft.lines.append(info.line)
        draft.text = self.joiner.join(draft.text, info.line.text)
        if info.line.page == draft.page:
            draft.box = draft.box.union(info.line.box)

    def _finish(self, draft: Draft, blocks: list[Draft], index: int) -> Draft:
        if draft.kind in ("table", "diagram", "figure"):
            return draft
        draft.text = clean(draft.text)
        if draft.kind == "heading" and (len(draft.lines) > 3 or len(draft.text) > 160):
            draft.kind = "paragraph"  # large type, but running text (an introduction)
        if draft.boxed:
            draft.kind = "sidebar"
        elif draft.kind != "heading" and self._is_caption(draft, blocks, index):
            draft.kind = "caption"
        return draft

    def _is_caption(self, draft: Draft, blocks: list[Draft], index: int) -> bool:
        if _CAPTION.match(draft.text):
            return True
        if draft.style != "small" or draft.kind != "paragraph":
            return False
        italic = all(w.italic for line in draft.lines for w in line.words)
        near = [blocks[j] for j in (index - 1, index + 1) if 0 <= j < len(blocks)]
        return italic or any(b.kind in ("diagram", "table", "figure") for b in near)


_LEAD = re.compile(r"^[^:]{1,40}:(?:\s|$)")


_OPEN_ENDINGS = frozenset(
    re.findall(
        r"\w+",
        "a an the and or of to by with from than at in on for player players rule rules step "
        "steps page pages section sections chapter figure table round rounds turn turns",
    )
)
"""Words a sentence does not end with: a number on the next line continues the sentence."""


def _inside_sentence(block: Draft, info: _Info) -> bool:
    """Whether a number that opens a line ("2)", "3.") is text, not a list marker.

    It is when the block is running text wrapped (the number would not have fitted on
    the line above) right after an open bracket ("(Player" + "2) and ...") or after a
    word no sentence ends with ("as in step" + "3. ...").
    """
    marker = info.marker
    if marker is None or marker.kind != "number" or block.kind in ("heading", "table"):
        return False
    before, first = block.lines[-1], info.line.words[0]
    wrapped = before.x1 + 0.3 * info.size + (first.x1 - first.x0) >= before.col_x1 - 0.5
    if block.style != info.style or not wrapped:
        return False
    text = block.text.rstrip()
    if marker.label.endswith(")") and text.count("(") > text.count(")"):
        return True
    last = text.rsplit(" ", 1)[-1].lower()
    return last in _OPEN_ENDINGS


def _heading_like(line: Line) -> bool:
    """A bold line of body size is a heading only if it does not read like a sentence,
    nor like the bold lead of a list item or paragraph ("Player 2:", "Long race: ...")."""
    text = line.text.rstrip()
    return not text.endswith((".", ",", ";")) and not _LEAD.match(text)


def _object_block(item: FlowObject) -> Draft:
    obj = item.obj
    if obj.kind == "table":
        text = "\n".join(" | ".join(row) for row in obj.rows)
    elif obj.kind == "figure":
        text = "\n".join(row[0] for row in obj.rows)
    else:
        text = " ".join(cell for row in obj.rows for cell in row)
    return Draft(
        obj.kind,
        item.page,
        obj.box,
        text=clean(text) if obj.kind == "diagram" else text,
        rows=obj.rows if obj.kind == "table" else (),
        column=item.column,
    )


def _join_split_tables(drafts: list[Draft]) -> list[Draft]:
    """A table continued in the next column or page (its header row repeated or not)."""
    out: list[Draft] = []
    for d in drafts:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.kind == d.kind == "table"
            and (prev.page, prev.column) != (d.page, d.column)
            and len(prev.rows[0]) == len(d.rows[0])
        ):
            rows = d.rows[1:] if d.rows[0] == prev.rows[0] else d.rows
            prev.rows = prev.rows + rows
            prev.text = "\n".join(" | ".join(row) for row in prev.rows)
            continue
        out.append(d)
    return out


def _pitches(lines: list[Line]) -> dict[int, float]:
    """The usual distance between baselines, per font size, within one column."""
    steps: dict[int, list[float]] = defaultdict(list)
    for a, b in itertools.pairwise(lines):
        if a.page != b.page or a.column != b.column:
            continue
        size = b.words[0].size
        step = b.baseline - a.baseline
        if 0 < step < 2.2 * size:
            steps[round(size)].append(step)
    return {k: statistics.median(v) for k, v in steps.items() if len(v) >= 3}
