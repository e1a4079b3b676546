"""Just enough lexing of rl page source for mutation.

rl is indentation-structured, with ``#`` comments to the end of the line and
double-quoted string literals (optionally suffixed ``s``). A line's *code mask* keeps
the code characters and blanks out comments and string contents, so operators can
search for tokens by position without touching text that is not code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebook2game.page_header import COMMENT_MARKS
from rulebook2game.targets.rl.lexical import code_mask

_DEF = re.compile(r"^(fun|act|cls|enum|trait)\s+([A-Za-z_][A-Za-z0-9_]*)")
_CLAUSE = re.compile(r"^([a-z]+)\s*:\s*$")
"""A top-level block clause (a RulePage ``show:``): its block belongs to that word."""
_CODE_INDENT = 4
"""Where a RulePage ``code:`` block's definitions start."""


def indent_of(line: str) -> int:
    """Number of leading spaces (a tab counts as one column, as rl sees it)."""
    return len(line) - len(line.lstrip(" \t"))


@dataclass(frozen=True)
class PageSource:
    """A page's source split into lines, with masks and the enclosing definition of each."""

    name: str
    text: str
    lines: tuple[str, ...]
    masks: tuple[str, ...]
    owners: tuple[str, ...]
    """Name of the top-level definition each line belongs to (``""`` at top level)."""
    header_end: int
    """Index of the first line after the leading comment block."""

    @classmethod
    def parse(cls, name: str, text: str) -> PageSource:
        """Split ``text`` and work out masks, owners and the header block."""
        lines = tuple(text.split("\n"))
        masks = tuple(code_mask(line) for line in lines)
        owners: list[str] = []
        owner = top = ""
        for line, mask in zip(lines, masks, strict=True):
            if mask.strip() and indent_of(line) == 0:
                match = _DEF.match(mask)
                clause = _CLAUSE.match(mask)
                owner = top = match.group(2) if match else clause.group(1) if clause else ""
            elif mask.strip() and top == "code" and indent_of(line) == _CODE_INDENT:
                # a RulePage `code:` block: its functions own their lines
                match = _DEF.match(mask.strip())
                owner = match.group(2) if match else "code"
            owners.append(owner)
        header_end = 0
        for i, line in enumerate(lines):
            if line.strip() and not line.strip().startswith(COMMENT_MARKS):
                break
            header_end = i + 1
        return cls(name, text, lines, masks, tuple(owners), header_end)

    def statement_starts(self) -> list[bool]:
        """For each line: does a new statement start here (not a bracket continuation)?"""
        starts: list[bool] = []
        depth = 0
        for mask in self.masks:
            starts.append(depth == 0 and bool(mask.strip()))
            for ch in mask:
                if ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    depth = max(0, depth - 1)
        return starts

    def statement_end(self, index: int) -> int:
        """Index of the last line of the statement starting at ``index``."""
        depth = 0
        for j in range(index, len(self.lines)):
            for ch in self.masks[j]:
                if ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    depth -= 1
            if depth <= 0:
                return j
        return len(self.lines) - 1


def matching_close(text: str, open_index: int) -> int:
    """Index of the bracket closing the one at ``open_index`` in a mask, or -1."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    opener = text[open_index]
    closer = pairs[opener]
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == opener:
            depth += 1
        elif text[i] == closer:
            depth -= 1
            if depth == 0:
                return i
    return -1


def split_top_level(text: str, sep: str = ",") -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of the parts of ``text`` separated by top-level ``sep``."""
    spans: list[tuple[int, int]] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            spans.append((start, i))
            start = i + 1
    spans.append((start, len(text)))
    return spans
