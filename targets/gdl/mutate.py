"""Mutation operators for GDL pages (KIF), in place of the common operators on rl lines.

| operator | what it does |
|---|---|
| ``drop_rule`` | a sentence (rule or fact) removed; ``role`` facts are kept |
| ``drop_literal`` | one literal of a rule's body removed (the rule holds more often) |
| ``negate_literal`` | one body literal negated, or its ``not`` removed |
| ``change_constant`` | a constant argument replaced by one the page uses in its place |

``change_constant`` takes the other constants the page puts at the same position of
the same relation or function, or, for a number, its neighbours.

The common operators (:mod:`rulebook2game.mutate.operators`) read rl syntax; on KIF
they would flip ``<=`` or count ``;`` comments as code, so this target maps their names
to no mutant at all. A mutant the static checks reject (an unsafe rule, say) is counted
apart as not compiled, like a mutant rlc rejects.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulebook2game.targets.base import MutationOperator

if TYPE_CHECKING:
    from rulebook2game.mutate.operators import Edit
    from rulebook2game.mutate.source import PageSource

_COMMON = (
    "cmp_flip",
    "bool_flip",
    "negate_cond",
    "off_by_one",
    "delete_stmt",
    "swap_args",
    "drop_precondition",
)


@dataclass(frozen=True)
class _Span:
    """An s-expression of the page with its character range ``[start, end)``."""

    start: int
    end: int
    text: str
    """The token for a symbol, ``""`` for a list."""
    items: tuple[_Span, ...] | None


def _spans(source: str) -> list[_Span]:
    """The page's top-level expressions (unbalanced text yields what parsed so far)."""
    stack: list[tuple[int, list[_Span]]] = []
    top: list[_Span] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == ";":
            while i < n and source[i] != "\n":
                i += 1
            continue
        if ch.isspace():
            i += 1
            continue
        if ch == "(":
            stack.append((i, []))
            i += 1
            continue
        if ch == ")":
            if not stack:
                return top
            start, items = stack.pop()
            span = _Span(start, i + 1, "", tuple(items))
            (stack[-1][1] if stack else top).append(span)
            i += 1
            continue
        start = i
        while i < n and not source[i].isspace() and source[i] not in "();":
            i += 1
        (stack[-1][1] if stack else top).append(_Span(start, i, source[start:i].lower(), None))
    return top


def _head(span: _Span) -> str:
    if span.items and span.items[0].items is None:
        return span.items[0].text
    return span.text


def _body(span: _Span) -> tuple[_Span, ...]:
    """The body literals of a rule (``and`` flattened); empty for a fact."""
    if _head(span) != "<=" or span.items is None:
        return ()
    out: list[_Span] = []
    for item in span.items[2:]:
        if _head(item) == "and" and item.items is not None:
            out.extend(item.items[1:])
        else:
            out.append(item)
    return tuple(out)


def _edit(page: PageSource, operator: str, start: int, end: int, new: str, what: str) -> Edit:
    """The line edit that replaces characters ``[start, end)`` of the page by ``new``."""
    from rulebook2game.mutate.operators import Edit

    text = page.text
    first = text.count("\n", 0, start)
    last = text.count("\n", 0, end)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    changed = text[line_start:start] + new + text[end:line_end]
    lines = tuple(changed.split("\n")) if changed.strip() else ()
    return Edit(operator, first, last + 1, lines, what)


def _sentences(page: PageSource) -> list[_Span]:
    body_start = sum(len(line) + 1 for line in page.lines[: page.header_end])
    return [s for s in _spans(page.text) if s.start >= body_start]


def _shown(page: PageSource, span: _Span) -> str:
    return " ".join(page.text[span.start : span.end].split())


def drop_rule(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove one sentence (``role`` facts stay: the seats are the interface's)."""
    for span in _sentences(page):
        if _head(span) == "role":
            continue
        yield _edit(page, "drop_rule", span.start, span.end, "", f"dropped {_shown(page, span)}")


def drop_literal(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Remove one body literal of a rule."""
    for span in _sentences(page):
        for lit in _body(span):
            yield _edit(
                page, "drop_literal", lit.start, lit.end, "", f"dropped {_shown(page, lit)}"
            )


def negate_literal(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Negate one body literal (``(not X)`` becomes ``X``); ``distinct`` is negated too."""
    for span in _sentences(page):
        for lit in _body(span):
            shown = _shown(page, lit)
            if _head(lit) == "not" and lit.items is not None and len(lit.items) == 2:
                inner = lit.items[1]
                new = page.text[inner.start : inner.end]
            elif _head(lit) == "or":
                continue
            else:
                new = f"(not {page.text[lit.start : lit.end]})"
            yield _edit(page, "negate_literal", lit.start, lit.end, new, f"negated {shown}")


def _places(spans: list[_Span]) -> dict[tuple[str, int], set[str]]:
    """(relation or function, argument position) -> the constants the page puts there."""
    found: dict[tuple[str, int], set[str]] = defaultdict(set)

    def visit(span: _Span) -> None:
        if span.items is None or not span.items:
            return
        name = _head(span)
        for k, arg in enumerate(span.items[1:]):
            if arg.items is None and not arg.text.startswith("?"):
                found[(name, k)].add(arg.text)
            visit(arg)

    for span in spans:
        visit(span)
    return found


def change_constant(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """Replace one constant argument by another the page uses in the same place."""
    sentences = _sentences(page)
    places = _places(sentences)

    def visit(span: _Span) -> Iterator[Edit]:
        if span.items is None or not span.items:
            return
        name = _head(span)
        if name in {"<=", "not", "and", "or", "role"}:
            for item in span.items[1:]:
                yield from visit(item)
            return
        for k, arg in enumerate(span.items[1:]):
            if arg.items is not None:
                yield from visit(arg)
                continue
            if arg.text.startswith("?"):
                continue
            options = sorted(places[(name, k)] - {arg.text})
            if arg.text.isdigit():
                neighbours = {str(int(arg.text) + 1), str(max(int(arg.text) - 1, 0))}
                options = sorted(neighbours - {arg.text}) or options
            for other in options[:2]:
                yield _edit(
                    page,
                    "change_constant",
                    arg.start,
                    arg.end,
                    other,
                    f"{arg.text} -> {other} in {_shown(page, span)}",
                )

    for sentence in sentences:
        yield from visit(sentence)


def _nothing(page: PageSource, skip: frozenset[str]) -> Iterator[Edit]:
    """An rl operator on a KIF page: no mutant."""
    return iter(())


OPERATORS: tuple[tuple[str, MutationOperator], ...] = (
    *((name, _nothing) for name in _COMMON),
    ("drop_rule", drop_rule),
    ("drop_literal", drop_literal),
    ("negate_literal", negate_literal),
    ("change_constant", change_constant),
)
"""The GDL operators, in enumeration order (the common rl operators mapped to nothing)."""
