"""Mutation operators for RBG rules, added to the common operators.

| operator | what it does |
|---|---|
| ``drop_alternative`` | one alternative of a sum ``a + b`` removed |
| ``star_to_single`` | a Kleene star removed: ``x*`` becomes exactly one ``x`` |
| ``drop_check`` | an on ``{x, y}``, a comparison ``{$ ...}`` or a pattern ``{? M}`` removed |
| ``shift_direction`` | a shift turned a quarter (``up`` -> ``right`` -> ``down`` -> ``left``) |

They work on the page's tokens (comments skipped); arithmetic inside ``[$ ...]`` and
``{$ ...}`` is left to the common operators. A page that does not tokenize has none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulebook2game.targets.base import MutationOperator
from rulebook2game.targets.rbg.syntax import RbgProblem, Token, tokenize

if TYPE_CHECKING:
    from rulebook2game.mutate.operators import Edit
    from rulebook2game.mutate.source import PageSource

TURN = {"up": "right", "right": "down", "down": "left", "left": "up"}
"""A quarter turn of the usual rectangle directions."""
_OPEN = {"(": ")", "[": "]", "{": "}"}


class _Page:
    """A page's tokens with their text offsets and arithmetic flags."""

    def __init__(self, page: PageSource) -> None:
        self.page = page
        self.text = "\n".join(page.lines)
        starts = [0]
        for line in page.lines:
            starts.append(starts[-1] + len(line) + 1)
        self.starts = starts
        try:
            self.tokens: list[Token] = tokenize(f"pages/{page.name}", self.text)
        except RbgProblem:
            self.tokens = []
        self.offsets = [starts[t.at.line - 1] + t.at.column - 1 for t in self.tokens]
        self.arith = self._arith()
        self.match = self._matching()

    def _arith(self) -> list[bool]:
        """True for tokens inside ``[$ ...]`` or ``{$ ...}``."""
        out: list[bool] = []
        stack: list[bool] = []
        for i, tok in enumerate(self.tokens):
            inside = bool(stack) and stack[-1]
            if tok.text in _OPEN:
                nxt = self.tokens[i + 1].text if i + 1 < len(self.tokens) else ""
                stack.append(inside or (tok.text in "[{" and nxt == "$"))
            elif tok.text in _OPEN.values() and stack:
                stack.pop()
            elif tok.text == "#":
                stack.clear()
            out.append(inside)
        return out

    def _matching(self) -> dict[int, int]:
        """Index of each bracket's partner."""
        out: dict[int, int] = {}
        stack: list[int] = []
        for i, tok in enumerate(self.tokens):
            if tok.text in _OPEN:
                stack.append(i)
            elif tok.text in _OPEN.values() and stack:
                j = stack.pop()
                out[i], out[j] = j, i
            elif tok.text == "#":
                stack.clear()
        return out

    def in_rules(self, i: int) -> bool:
        """Whether token ``i`` is in a definition that is not a declaration section."""
        j = i
        while j >= 0 and self.tokens[j].text != "#":
            j -= 1
        head = self.tokens[j + 1].text if j >= 0 and j + 1 < len(self.tokens) else ""
        return head not in ("players", "pieces", "variables", "board")

    def end(self, i: int) -> int:
        """Offset just after token ``i``."""
        return self.offsets[i] + len(self.tokens[i].text)

    def edit(self, operator: str, cut: tuple[int, int], new: str, description: str) -> Edit:
        """Replace the text ``cut`` (offsets) by ``new``, as an edit of whole lines."""
        from rulebook2game.mutate.operators import Edit

        a, b = cut
        first = max(k for k in range(len(self.starts) - 1) if self.starts[k] <= a)
        last = max(k for k in range(len(self.starts) - 1) if self.starts[k] <= max(b - 1, a))
        line_start, line_end = self.starts[first], self.starts[last + 1] - 1
        middle = self.text[line_start:a] + new + self.text[b:line_end]
        return Edit(operator, first, last + 1, tuple(middle.split("\n")), description)


def _alternative_end(p: _Page, i: int) -> int:
    """Index of the last token of the alternative starting at token ``i``."""
    depth = 0
    j = i
    while j < len(p.tokens):
        t = p.tokens[j].text
        if t in _OPEN:
            depth += 1
        elif t in _OPEN.values():
            if depth == 0:
                return j - 1
            depth -= 1
        elif t == "#" or (t == "+" and depth == 0 and not p.arith[j]):
            return j - 1
        j += 1
    return j - 1


def _alternative_start(p: _Page, i: int) -> int:
    """Index of the first token of the alternative ending at token ``i``."""
    depth = 0
    j = i
    while j >= 0:
        t = p.tokens[j].text
        if t in _OPEN.values():
            depth += 1
        elif t in _OPEN:
            if depth == 0:
                return j + 1
            depth -= 1
        elif (t == "=" and depth == 0) or (t == "+" and depth == 0 and not p.arith[j]):
            return j + 1
        j -= 1
    return 0


def drop_alternative(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove one alternative of a sum (the one after each ``+``, and the first one)."""
    p = _Page(page)
    for i, tok in enumerate(p.tokens):
        if tok.text != "+" or p.arith[i] or not p.in_rules(i):
            continue
        last = _alternative_end(p, i + 1)
        if last > i:
            text = p.text[p.offsets[i + 1] : p.end(last)]
            yield p.edit(
                "drop_alternative", (p.offsets[i], p.end(last)), "", f"alternative `{text}` dropped"
            )
        first = _alternative_start(p, i - 1)
        if first < i and (first == 0 or p.tokens[first - 1].text != "+"):
            text = p.text[p.offsets[first] : p.end(i - 1)]
            yield p.edit(
                "drop_alternative",
                (p.offsets[first], p.offsets[i + 1]),
                "",
                f"alternative `{text}` dropped",
            )


def star_to_single(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove a Kleene star (the starred part happens exactly once)."""
    p = _Page(page)
    for i, tok in enumerate(p.tokens):
        if tok.text == "*" and not p.arith[i] and p.in_rules(i):
            what = p.tokens[i - 1].text if i else ""
            yield p.edit("star_to_single", (p.offsets[i], p.end(i)), "", f"`{what}*` made one step")


def drop_check(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove an on, comparison or pattern check ``{...}`` (never the empty ``{}``)."""
    p = _Page(page)
    for i, tok in enumerate(p.tokens):
        if tok.text != "{" or p.arith[i] or not p.in_rules(i):
            continue
        j = p.match.get(i)
        if j is None or j == i + 1:
            continue
        text = p.text[p.offsets[i] : p.end(j)]
        yield p.edit("drop_check", (p.offsets[i], p.end(j)), "", f"check `{text}` dropped")


def shift_direction(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Turn a shift a quarter (``up`` -> ``right`` -> ``down`` -> ``left`` -> ``up``)."""
    p = _Page(page)
    for i, tok in enumerate(p.tokens):
        if tok.text not in TURN or p.arith[i] or not p.in_rules(i):
            continue
        before = p.tokens[i - 1].text if i else ""
        if before in ("[", "->", "#"):
            continue
        new = TURN[tok.text]
        yield p.edit(
            "shift_direction",
            (p.offsets[i], p.end(i)),
            new,
            f"shift `{tok.text}` turned to `{new}`",
        )


OPERATORS: tuple[tuple[str, MutationOperator], ...] = (
    ("drop_alternative", drop_alternative),
    ("star_to_single", star_to_single),
    ("drop_check", drop_check),
    ("shift_direction", shift_direction),
)
"""The RBG operators, in enumeration order."""
